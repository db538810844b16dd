# Check 2 (issue 3): `tidepool run` on the real driver for each example: the program's exit code
# and checksum unchanged, and the report's counts equal to the program's own bookkeeping.
# Sourced by check.sh, after checks/examples.sh (uses EXAMPLES, PLAIN_STATUS, PLAIN_CHECKSUM).

# traced NAME [TIDEPOOL_RUN_OPTIONS...] -- CMD...: `tidepool run` of CMD on the real driver, traces
# into $WORK/NAME.traces, logs $WORK/NAME.{out,err}, the JSON report in $WORK/NAME.report.json.
# Returns tidepool run's exit status; the report is absent when it could not be made.
traced() {
  local name=$1; shift
  local traces="$WORK/$name.traces"
  rm -rf "$traces"; mkdir -p "$traces"
  on_real "$WORK/$name" "$TIDEPOOL" run -o "$traces" -f "$@"
  local status=$?
  report_json "$traces" "$WORK/$name.report.json" || rm -f "$WORK/$name.report.json"
  return "$status"
}

# against_bookkeeping CHECK RUN: the report of `traced RUN` against the program's `bookkeeping:`
# line (peak, allocations, frees, launches), as figures of CHECK; sets COUNTS_TEXT
# (" field report/program" for each) and COUNTS_DIFFER (the fields that differ, by commas).
against_bookkeeping() {
  local check=$1 run=$2 field mine theirs report="$WORK/$2.report.json"
  COUNTS_TEXT=""; COUNTS_DIFFER=""
  for field in peak_requested_bytes allocations frees kernel_launches; do
    theirs=$(bookkeeping "$field" "$WORK/$run.err")
    mine=""
    [ -f "$report" ] && mine=$(report_field "$field" "$report")
    figure "$check" "report_$field" "$mine"
    figure "$check" "program_$field" "$theirs"
    COUNTS_TEXT+=" $field ${mine:-none}/${theirs:-none}"
    [ -n "$mine" ] && [ "$mine" = "$theirs" ] || COUNTS_DIFFER+="${COUNTS_DIFFER:+,}$field"
  done
}

check_profile_example() {  # NAME
  local name=$1 check="profile.$1" run="traced.$1"
  local -a args
  read -ra args <<<"$(example_args "$name")"
  traced "$run" -- "$BUILD/examples/$name" "${args[@]}"
  local status=$? checksum report="$WORK/$run.report.json"
  checksum=$(value_of checksum "$WORK/$run.out")
  local problems=()
  [ "$status" = "${PLAIN_STATUS[$name]:-}" ] || problems+=("exit $status, plain ${PLAIN_STATUS[$name]:-}")
  [ -n "$checksum" ] && [ "$checksum" = "${PLAIN_CHECKSUM[$name]:-}" ] ||
    problems+=("checksum ${checksum:-none}, plain ${PLAIN_CHECKSUM[$name]:-none}")
  figure "$check" exit_code "$status"
  figure "$check" checksum "$checksum"
  against_bookkeeping "$check" "$run"
  [ -n "$COUNTS_DIFFER" ] && problems+=("$COUNTS_DIFFER")
  local message="report/program:$COUNTS_TEXT; exit $status; checksum ${checksum:-none}"
  if [ ! -f "$report" ]; then
    record "$check" FAIL "no report: $(head -c 300 "$WORK/$run.report.json.err" 2>/dev/null) (logs: $run.*)"
  elif [ ${#problems[@]} -eq 0 ]; then
    record "$check" PASS "$message"
  else
    record "$check" FAIL "$message; differs: $(IFS=","; echo "${problems[*]}")"
  fi
}

check_profile() {
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record profile SKIP "no $BUILD/bin/tidepool or $BUILD/lib/tidepool/libtidepool.so"
    return
  fi
  if [ ${#EXAMPLES[@]} -eq 0 ]; then
    record profile SKIP "no example binaries in $BUILD/examples"
    return
  fi
  local name
  for name in "${EXAMPLES[@]}"; do check_profile_example "$name"; done
}
