# Check 5 (issue 6): `tidepool run --optimize=pool` and `--optimize=pool,swap` on the real driver
# for train_mlp (twice each: the second run starts from the cached plan) and the torch script:
# results bit-identical to the plain runs, and the peaks (report, and the card's used memory seen
# through NVML) next to the unoptimized run's. Sourced by check.sh, after checks 1-3.

OPTIMIZE_MODES=(pool "pool,swap")

# optimize_figures CHECK RUN: what the report and the card say about one traced run.
optimize_figures() {
  local check=$1 run=$2 report="$WORK/$2.report.json" field
  for field in peak_requested_bytes allocations frees kernel_launches runtime; do
    figure "$check" "report_$field" "$([ -f "$report" ] && report_field "$field" "$report")"
  done
  figure "$check" device_peak_used_bytes "$(cat "$WORK/$run.devpeak" 2>/dev/null)"
  figure "$check" step_time_ms "$(printed step_time_ms "$WORK/$run")"
  figure "$check" checksum "$(value_of checksum "$WORK/$run.out")"
  figure "$check" loss "$(value_of loss "$WORK/$run.out")"
}

# optimized_run CHECK RUN EXPECTED_CHECKSUM [TIDEPOOL_RUN_OPTIONS...] -- CMD...: one traced,
# sampled run; records PASS when it exits 0 with the expected checksum, FAIL otherwise.
optimized_run() {
  local check=$1 run=$2 expected=$3; shift 3
  with_sampler "$run" traced "$run" "$@"
  local status=$? sum
  optimize_figures "$check" "$run"
  sum=$(value_of checksum "$WORK/$run.out")
  local report="$WORK/$run.report.json" peak="" runtime=""
  [ -f "$report" ] && peak=$(report_field peak_requested_bytes "$report") && runtime=$(report_field runtime.nonzero "$report")
  local message="exit $status; checksum ${sum:-none} (plain ${expected:-none}); report peak ${peak:-none}"
  message+="; card peak $(cat "$WORK/$run.devpeak"); runtime ${runtime:-none}"
  if [ "$status" -eq 0 ] && [ -n "$sum" ] && [ "$sum" = "$expected" ]; then
    record "$check" PASS "$message"
  else
    record "$check" FAIL "$message (logs: $run.*)"
  fi
}

check_optimize() {
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record optimize SKIP "no tidepool in $BUILD"
    return
  fi
  if ! "$TIDEPOOL" run --help 2>&1 | grep -q -- '--optimize'; then
    record optimize SKIP "tidepool run has no --optimize yet: the runtime (issue 6) is not there"
    return
  fi
  local cache_flag=()
  "$TIDEPOOL" run --help 2>&1 | grep -q -- '--plan-cache' && cache_flag=(--plan-cache "$WORK/plan-cache")
  local mode tag n
  if [ -x "$BUILD/examples/train_mlp" ]; then
    local -a mlp_args
    read -ra mlp_args <<<"$(example_args train_mlp)"
    optimized_run optimize.mlp.none opt.mlp.none "${PLAIN_CHECKSUM[train_mlp]:-}" -- "$BUILD/examples/train_mlp" "${mlp_args[@]}"
    for mode in "${OPTIMIZE_MODES[@]}"; do
      tag=${mode//,/_}
      rm -rf "$WORK/plan-cache"
      for n in 1 2; do
        optimized_run "optimize.mlp.$tag.run$n" "opt.mlp.$tag.$n" "${PLAIN_CHECKSUM[train_mlp]:-}" \
          "--optimize=$mode" "${cache_flag[@]}" -- "$BUILD/examples/train_mlp" "${mlp_args[@]}"
      done
    done
  else
    record optimize.mlp SKIP "no $BUILD/examples/train_mlp"
  fi
  find_torch
  if [ -n "$TORCH_MISSING" ]; then
    record optimize.torch SKIP "$TORCH_MISSING"
    return
  fi
  local -a torch_args
  read -ra torch_args <<<"$TIDEPOOL_GPU_TORCH_ARGS"
  local expected; expected=$(value_of checksum "$WORK/torch.async.out")
  for mode in "${OPTIMIZE_MODES[@]}"; do
    tag=${mode//,/_}
    optimized_run "optimize.torch.$tag" "opt.torch.$tag" "$expected" --framework torch "--optimize=$mode" -- \
      python3 "$GPU_SCRIPTS/torch_train.py" "${torch_args[@]}"
  done
}
