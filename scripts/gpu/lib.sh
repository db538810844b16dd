# Shared helpers of scripts/gpu/check.sh: running a program on "the real driver" (or simcuda),
# reading what it printed, and recording one PASS/FAIL/SKIP line per check with its figures.
# Sourced, never run. Expects: BUILD, WORK (logs), RESULTS (tsv), FIGURES (tsv), SIM_DIR,
# REAL_DRIVER_DIR (empty on a GPU; simcuda's folder under TIDEPOOL_GPU_CHECK_FAKE_DRIVER).

# Longest any single program may run before it counts as hung, and the whole run's budget (s).
: "${TIDEPOOL_GPU_CHECK_TIMEOUT:=120}"
: "${TIDEPOOL_GPU_CHECK_BUDGET:=450}"

# seconds_left: what remains of the whole run's budget.
seconds_left() {
  echo $((TIDEPOOL_GPU_CHECK_BUDGET - SECONDS))
}

# record CHECK STATUS MESSAGE: one result line (printed now, and kept for the summary and JSON).
# Messages name logs relative to $WORK, the root of logs.tar.gz.
record() {
  local check=$1 status=$2 message=${3//$'\n'/ }
  printf '%-4s %-28s %s\n' "$status" "$check" "$message"
  printf '%s\t%s\t%s\n' "$check" "$status" "${message//$'\t'/ }" >>"$RESULTS"
}

# figure CHECK KEY VALUE: one number (or short text) for the JSON of all figures.
figure() {
  local value=${3//$'\n'/ }
  printf '%s\t%s\t%s\n' "$1" "$2" "${value//$'\t'/ }" >>"$FIGURES"
}

# run_logged LOG CMD...: runs CMD with a time limit, stdout to LOG.out, stderr to LOG.err;
# returns its exit status (124 when it ran out of time).
run_logged() {
  local log=$1 limit=$TIDEPOOL_GPU_CHECK_TIMEOUT left; shift
  left=$(seconds_left)
  [ "$left" -lt "$limit" ] && limit=$((left > 10 ? left : 10))
  timeout --kill-after=10 "$limit" "$@" >"$log.out" 2>"$log.err"
}

# on_real LOG CMD...: run_logged on the real driver (simcuda's folder first in the library path
# when faking one).
on_real() {
  local log=$1; shift
  if [ -n "$REAL_DRIVER_DIR" ]; then
    LD_LIBRARY_PATH="$REAL_DRIVER_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" run_logged "$log" "$@"
  else
    run_logged "$log" "$@"
  fi
}

# on_sim LOG CMD...: run_logged on simcuda.
on_sim() {
  local log=$1; shift
  LD_LIBRARY_PATH="$SIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" run_logged "$log" "$@"
}

# value_of KEY FILE: the text after "KEY: " on the last line that starts so (empty when none).
value_of() {
  sed -n "s/^$1: *//p" "$2" 2>/dev/null | tail -n 1
}

# printed KEY LOG: value_of KEY in LOG.out, else in LOG.err.
printed() {
  local value
  value=$(value_of "$1" "$2.out")
  [ -n "$value" ] || value=$(value_of "$1" "$2.err")
  echo "$value"
}

# bookkeeping FIELD FILE: one field of an example's own `bookkeeping: {...}` line.
bookkeeping() {
  local line
  line=$(value_of bookkeeping "$2")
  [ -n "$line" ] || return 0
  python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ""))' "$line" "$1"
}

# report_json TRACE_DIR OUT_JSON: `tidepool report --format json` of every trace in the folder.
report_json() {
  local traces=("$1"/*.tpt)
  [ -e "${traces[0]}" ] || { echo "no trace in $1" >"$2.err"; return 1; }
  "$TIDEPOOL" report --format json -o "$2" "${traces[@]}" 2>"$2.err"
}

# report_field FIELD JSON: a field of the process with the highest peak (see report_fields.py).
report_field() {
  python3 "$GPU_SCRIPTS/report_fields.py" "$2" "$1" 2>/dev/null
}

# relative_difference A B: |a - b| / |b|, printed with 3 significant digits (empty if not numbers).
relative_difference() {
  python3 -c 'import sys
a, b = float(sys.argv[1]), float(sys.argv[2])
print("%.3g" % (abs(a - b) / abs(b) if b != 0 else abs(a - b)))' "$1" "$2" 2>/dev/null
}

# at_most X LIMIT: true when the number X is at most LIMIT.
at_most() {
  python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null
}

# with_sampler NAME CMD...: runs CMD while mem_sampler.py (NVML) watches the card's used memory;
# its figure lands in $WORK/NAME.devpeak ("n/a" when NVML is not there). Returns CMD's status.
with_sampler() {
  local name=$1; shift
  local peak_file="$WORK/$name.devpeak" sampler="" status
  echo "n/a" >"$peak_file"
  if [ -z "$REAL_DRIVER_DIR" ] && python3 -c 'import pynvml' 2>/dev/null; then
    rm -f "$peak_file.ready"
    python3 "$GPU_SCRIPTS/mem_sampler.py" "$peak_file" 2>"$peak_file.err" &
    sampler=$!
    local tries=0  # its baseline comes first (at most 10 s)
    while [ ! -e "$peak_file.ready" ] && [ $tries -lt 100 ] && kill -0 "$sampler" 2>/dev/null; do
      sleep 0.1; tries=$((tries + 1))
    done
  fi
  "$@"
  status=$?
  if [ -n "$sampler" ]; then
    kill -TERM "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
  fi
  return "$status"
}
