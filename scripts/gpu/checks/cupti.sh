# Check (issue 3, --cupti): `tidepool run --cupti` of the multistream example (driver API) and of
# runtime_app (CUDA runtime; built by checks/runtime_app.sh) on the real driver (tidepool run sets
# TIDEPOOL_CUPTI from its flag, whatever the environment says): exit code and checksum as without
# tidepool, the report's counts equal to the program's bookkeeping (CUPTI calls back on the
# program's threads too, and must not stop their recording), no fallback warning, and a
# DeviceTiming from CUPTI with a positive duration for every kernel launch that ran (copies and
# sets timed are counted too). On the fake driver (simcuda, which CUPTI cannot work with) it checks
# the fallback instead: one warning, the program unchanged.
# Sourced by check.sh after checks/profile.sh and checks/runtime_app.sh (uses traced,
# against_bookkeeping, PLAIN_STATUS, PLAIN_CHECKSUM).

# cupti_coverage TRACE_DIR: "launches launches_timed launches_positive transfers transfers_timed"
# from `tidepool dump` of the folder's traces (captured operations do not run, so they do not count).
cupti_coverage() {
  local trace
  for trace in "$1"/*.tpt; do
    [ -e "$trace" ] && "$TIDEPOOL" dump "$trace"
  done | python3 -c '
import re, sys
ops, times = {}, {}
for line in sys.stdin:
    m = re.search(r" (launch|copy|set) op_id=(\d+) .*captured=0", line)
    if m:
        ops[int(m.group(2))] = m.group(1)
    m = re.search(r" device_timing op_id=(\d+) start_ns=(\d+) end_ns=(\d+)", line)
    if m:
        times[int(m.group(1))] = int(m.group(3)) - int(m.group(2))
launches = [op for op, kind in ops.items() if kind == "launch"]
transfers = [op for op, kind in ops.items() if kind != "launch"]
print(len(launches), sum(op in times for op in launches), sum(times.get(op, 0) > 0 for op in launches),
      len(transfers), sum(op in times for op in transfers))'
}

# cupti_run CHECK RUN PLAIN_STATUS PLAIN_CHECKSUM CMD...: one `tidepool run --cupti` of CMD, judged.
cupti_run() {
  local check=$1 run=$2 plain_status=$3 plain_checksum=$4; shift 4
  traced "$run" --cupti -- "$@"
  local status=$? checksum warnings launches timed positive transfers transfers_timed
  checksum=$(value_of checksum "$WORK/$run.out")
  warnings=$(grep -c "tidepool: --cupti: " "$WORK/$run.err")
  read -r launches timed positive transfers transfers_timed <<<"$(cupti_coverage "$WORK/$run.traces")"
  figure "$check" exit_code "$status"
  figure "$check" warnings "$warnings"
  figure "$check" launches "$launches"
  figure "$check" launches_timed "$timed"
  figure "$check" launches_positive "$positive"
  figure "$check" transfers "$transfers"
  figure "$check" transfers_timed "$transfers_timed"
  local problems=()
  [ "$status" = "$plain_status" ] || problems+=("exit $status, plain $plain_status")
  [ -n "$checksum" ] && [ "$checksum" = "$plain_checksum" ] || problems+=("checksum differs")
  against_bookkeeping "$check" "$run"
  [ -n "$COUNTS_DIFFER" ] && problems+=("report/program differ:$COUNTS_TEXT")
  local message="exit $status; $warnings warnings; launches timed $timed/$launches (positive $positive); copies and sets timed $transfers_timed/$transfers"
  if [ -n "$REAL_DRIVER_DIR" ]; then
    [ "$warnings" = 1 ] || problems+=("expected one fallback warning on the fake driver")
  else
    [ "$warnings" = 0 ] || problems+=("CUPTI fell back: $(grep -m1 "tidepool: --cupti: " "$WORK/$run.err")")
    [ -n "$launches" ] && [ "$launches" -gt 0 ] && [ "$timed" = "$launches" ] && [ "$positive" = "$launches" ] ||
      problems+=("not every launch has a positive CUPTI time")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    record "$check" PASS "$message"
  else
    record "$check" FAIL "$message; $(IFS=";"; echo "${problems[*]}") (logs: $run.*)"
  fi
}

check_cupti() {
  local name=multistream
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record cupti SKIP "no $BUILD/bin/tidepool or $BUILD/lib/tidepool/libtidepool.so"
    return
  fi
  if [ ! -x "$BUILD/examples/$name" ]; then
    record cupti SKIP "no $BUILD/examples/$name"
    return
  fi
  cupti_run cupti cupti.multistream "${PLAIN_STATUS[$name]:-}" "${PLAIN_CHECKSUM[$name]:-}" "$BUILD/examples/$name"
  # The CUDA runtime's path: only where checks/runtime_app.sh built and ran it.
  if [ -x "$WORK/runtime_app" ] && [ -f "$WORK/plain.runtime_app.out" ]; then
    cupti_run cupti.runtime_app cupti.runtime_app 0 "$(value_of checksum "$WORK/plain.runtime_app.out")" \
      "$WORK/runtime_app" "$TIDEPOOL_GPU_RUNTIME_APP_ITERATIONS"
  fi
}
