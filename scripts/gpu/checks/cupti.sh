# Check (issue 3, --cupti): `tidepool run --cupti` of the multistream example (tidepool run sets
# TIDEPOOL_CUPTI from its flag, whatever the environment says) on the real driver: exit code and checksum as without tidepool, no
# fallback warning, and a DeviceTiming from CUPTI with a positive duration for every kernel launch
# that ran (copies and sets timed are counted too). On the fake driver (simcuda, which CUPTI cannot
# work with) it checks the fallback instead: one warning, the program unchanged.
# Sourced by check.sh after checks/profile.sh (uses traced, PLAIN_STATUS, PLAIN_CHECKSUM).

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

check_cupti() {
  local name=multistream run=cupti.multistream
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record cupti SKIP "no $BUILD/bin/tidepool or $BUILD/lib/tidepool/libtidepool.so"
    return
  fi
  if [ ! -x "$BUILD/examples/$name" ]; then
    record cupti SKIP "no $BUILD/examples/$name"
    return
  fi
  traced "$run" --cupti -- "$BUILD/examples/$name"
  local status=$? checksum warnings launches timed positive transfers transfers_timed
  checksum=$(value_of checksum "$WORK/$run.out")
  warnings=$(grep -c "tidepool: --cupti: " "$WORK/$run.err")
  read -r launches timed positive transfers transfers_timed <<<"$(cupti_coverage "$WORK/$run.traces")"
  figure cupti exit_code "$status"
  figure cupti warnings "$warnings"
  figure cupti launches "$launches"
  figure cupti launches_timed "$timed"
  figure cupti launches_positive "$positive"
  figure cupti transfers "$transfers"
  figure cupti transfers_timed "$transfers_timed"
  local problems=()
  [ "$status" = "${PLAIN_STATUS[$name]:-}" ] || problems+=("exit $status, plain ${PLAIN_STATUS[$name]:-}")
  [ -n "$checksum" ] && [ "$checksum" = "${PLAIN_CHECKSUM[$name]:-}" ] || problems+=("checksum differs")
  local message="exit $status; $warnings warnings; launches timed $timed/$launches (positive $positive); copies and sets timed $transfers_timed/$transfers"
  if [ -n "$REAL_DRIVER_DIR" ]; then
    [ "$warnings" = 1 ] || problems+=("expected one fallback warning on the fake driver")
  else
    [ "$warnings" = 0 ] || problems+=("CUPTI fell back: $(grep -m1 "tidepool: --cupti: " "$WORK/$run.err")")
    [ -n "$launches" ] && [ "$launches" -gt 0 ] && [ "$timed" = "$launches" ] && [ "$positive" = "$launches" ] ||
      problems+=("not every launch has a positive CUPTI time")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    record cupti PASS "$message"
  else
    record cupti FAIL "$message; $(IFS=";"; echo "${problems[*]}") (logs: $run.*)"
  fi
}
