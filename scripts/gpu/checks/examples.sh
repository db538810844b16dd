# Check 1 (issue 2, "Done means"): every example runs on the real driver twice with the same
# checksum; train_mlp's final loss on the real driver against simcuda's, at its defaults, in a
# small configuration that computes every row, and at its defaults for fewer steps. Sourced by check.sh (uses EXAMPLES); fills
# PLAIN_STATUS and PLAIN_CHECKSUM for the later checks.

# Relative tolerances on train_mlp's final loss, GPU against simcuda (see docs/gpu-checks.md): for
# the forward pass and one update, and for the small configuration; and for longer runs at the
# defaults, where the Adam steps on 4 computed rows amplify the last-bit differences step by step
# (measured on an H200: 0 after 1 step, 1.3e-6 after 2, 1.4e-4 after 5, 4e-4 after 10, 1.7e-3
# after 20, 1.3e-2 after 50).
: "${TIDEPOOL_GPU_LOSS_RTOL:=1e-4}"
: "${TIDEPOOL_GPU_LOSS_RTOL_LONG:=5e-2}"
# train_mlp's arguments for "its defaults" (empty: the real defaults; a CPU test may shrink them).
: "${TIDEPOOL_GPU_CHECK_MLP_DEFAULT_ARGS:=}"
MLP_SMALL_ARGS=(--batch 512 --width 256 --depth 4 --steps 20 --compute-rows 0)
# The defaults again for fewer steps: where the two drivers' losses part. One step is the forward
# pass alone (its loss comes before any update); each Adam step after it can turn a difference in
# the last bit of a gradient into a whole step of the learning rate.
: "${TIDEPOOL_GPU_CHECK_MLP_STEPS:=1 2 5 10 20}"

# example_args NAME: the arguments each example runs with in these checks.
example_args() {
  if [ "$1" = train_mlp ]; then
    echo "$TIDEPOOL_GPU_CHECK_MLP_DEFAULT_ARGS"
  fi
}

check_example_determinism() {  # NAME
  local name=$1 exe="$BUILD/examples/$1" log="$WORK/plain.$1" first second s1 s2
  local -a args
  read -ra args <<<"$(example_args "$name")"
  on_real "$log.1" "$exe" "${args[@]}"; s1=$?
  on_real "$log.2" "$exe" "${args[@]}"; s2=$?
  first=$(value_of checksum "$log.1.out")
  second=$(value_of checksum "$log.2.out")
  PLAIN_STATUS[$name]=$s1
  PLAIN_CHECKSUM[$name]=$first
  figure "examples.$name" exit_codes "$s1,$s2"
  figure "examples.$name" checksum_run1 "$first"
  figure "examples.$name" checksum_run2 "$second"
  local step; step=$(value_of step_time_ms "$log.1.err")
  [ -n "$step" ] && figure "examples.$name" gpu_step_time_ms "$step"
  # simcuda's checksum of the same binary: reported, not required to match
  # (tools/examples/README.md: only the small examples avoid FMA contraction).
  on_sim "$WORK/sim.$name" "$exe" "${args[@]}"
  local sim_status=$?
  [ "$name" = train_mlp ] && SIM_STATUS_MLP=$sim_status
  local sim; sim=$(value_of checksum "$WORK/sim.$name.out")
  figure "examples.$name" checksum_simcuda "$sim"
  local same_as_sim=no; [ -n "$sim" ] && [ "$sim" = "$first" ] && same_as_sim=yes
  local message="runs ${s1},${s2} checksum ${first:-none} / ${second:-none}"
  message+="; simcuda ${sim:-none} (equal: $same_as_sim)${step:+; step ${step} ms}"
  if [ "$s1" -eq 0 ] && [ "$s2" -eq 0 ] && [ -n "$first" ] && [ "$first" = "$second" ]; then
    record "examples.$name" PASS "$message"
  else
    record "examples.$name" FAIL "$message (logs: ${log#"$WORK/"}.*)"
  fi
}

# compare_mlp_loss LABEL TOLERANCE REAL_LOG SIM_LOG REAL_STATUS SIM_STATUS ARGS...: train_mlp's
# final loss on the real driver against simcuda, from the logs of two runs with ARGS.
compare_mlp_loss() {
  local label=$1 tolerance=$2 real_log=$3 sim_log=$4 rs=$5 ss=$6; shift 6
  local real_loss sim_loss real_sum sim_sum step diff
  real_loss=$(value_of loss "$real_log.out"); sim_loss=$(value_of loss "$sim_log.out")
  real_sum=$(value_of checksum "$real_log.out"); sim_sum=$(value_of checksum "$sim_log.out")
  step=$(value_of step_time_ms "$real_log.err")
  diff=$(relative_difference "$real_loss" "$sim_loss")
  local check="mlp_loss.$label" same=no
  [ -n "$real_sum" ] && [ "$real_sum" = "$sim_sum" ] && same=yes
  figure "$check" args "$*"
  figure "$check" loss_real "$real_loss"; figure "$check" loss_simcuda "$sim_loss"
  figure "$check" loss_relative_difference "$diff"; figure "$check" tolerance "$tolerance"
  figure "$check" checksums_equal "$same"
  [ -n "$step" ] && figure "$check" real_step_time_ms "$step"
  local message="loss real ${real_loss:-none} sim ${sim_loss:-none} rel.diff ${diff:-n/a}"
  message+=" (tol $tolerance); checksums equal: $same${step:+; step ${step} ms}"
  if [ "$rs" -ne 0 ] || [ "$ss" -ne 0 ] || [ -z "$diff" ]; then
    record "$check" FAIL "$message (exit real $rs, sim $ss; logs: ${real_log#"$WORK/"}.*, ${sim_log#"$WORK/"}.*)"
  elif at_most "$diff" "$tolerance"; then
    record "$check" PASS "$message"
  else
    record "$check" FAIL "$message"
  fi
}

check_examples() {
  if [ ${#EXAMPLES[@]} -eq 0 ]; then
    record examples SKIP "no example binaries in $BUILD/examples"
    return
  fi
  local name
  for name in "${EXAMPLES[@]}"; do check_example_determinism "$name"; done
  if [ ! -x "$BUILD/examples/train_mlp" ]; then
    record mlp_loss SKIP "no $BUILD/examples/train_mlp"
    return
  fi
  if [ ! -e "$SIM_DIR/libcuda.so.1" ]; then
    record mlp_loss SKIP "no simcuda in $SIM_DIR"
    return
  fi
  # The defaults: the runs above. The small configuration: one run on each driver.
  local -a default_args
  read -ra default_args <<<"$(example_args train_mlp)"
  compare_mlp_loss default "$TIDEPOOL_GPU_LOSS_RTOL_LONG" "$WORK/plain.train_mlp.1" "$WORK/sim.train_mlp" \
    "${PLAIN_STATUS[train_mlp]:-1}" "${SIM_STATUS_MLP:-1}" "${default_args[@]}"
  local exe="$BUILD/examples/train_mlp" real_log="$WORK/loss.small.real" sim_log="$WORK/loss.small.sim"
  on_real "$real_log" "$exe" "${MLP_SMALL_ARGS[@]}"; local rs=$?
  on_sim "$sim_log" "$exe" "${MLP_SMALL_ARGS[@]}"; local ss=$?
  compare_mlp_loss small "$TIDEPOOL_GPU_LOSS_RTOL" "$real_log" "$sim_log" "$rs" "$ss" "${MLP_SMALL_ARGS[@]}"
  local steps
  for steps in $TIDEPOOL_GPU_CHECK_MLP_STEPS; do
    real_log="$WORK/loss.steps$steps.real"; sim_log="$WORK/loss.steps$steps.sim"
    on_real "$real_log" "$exe" "${default_args[@]}" --steps "$steps"; rs=$?
    on_sim "$sim_log" "$exe" "${default_args[@]}" --steps "$steps"; ss=$?
    local tolerance=$TIDEPOOL_GPU_LOSS_RTOL_LONG
    [ "$steps" -le 2 ] && tolerance=$TIDEPOOL_GPU_LOSS_RTOL
    compare_mlp_loss "default.steps$steps" "$tolerance" "$real_log" "$sim_log" "$rs" "$ss" \
      "${default_args[@]}" --steps "$steps"
  done
}
