#!/usr/bin/env bash
# The prepared GPU check (issues 2, 3, 6): runs tidepool's examples, a PyTorch script and a CUDA
# runtime program on the real driver, with and without `tidepool run`, and prints one PASS/FAIL/SKIP
# line per check with its figures, then a summary table. Never stops at a failing check; never
# changes GPU settings. Logs and results.json go to $OUT (else a temporary folder).
#   usage: bash scripts/gpu/check.sh [BUILD_DIR (default build)]
# TIDEPOOL_GPU_CHECK_FAKE_DRIVER=DIR makes "the real driver" the libcuda.so.1 in DIR (simcuda's
# folder), to test this script on a machine without a GPU. docs/gpu-checks.md has the rest.
set -uo pipefail

GPU_SCRIPTS=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" 2>/dev/null && pwd) || { echo "check.sh: no build folder ${1:-build}" >&2; exit 2; }
REAL_DRIVER_DIR=${TIDEPOOL_GPU_CHECK_FAKE_DRIVER:-}
if [ -n "$REAL_DRIVER_DIR" ]; then
  REAL_DRIVER_DIR=$(cd "$REAL_DRIVER_DIR" 2>/dev/null && pwd)
  [ -e "$REAL_DRIVER_DIR/libcuda.so.1" ] || { echo "check.sh: no libcuda.so.1 in $TIDEPOOL_GPU_CHECK_FAKE_DRIVER" >&2; exit 2; }
fi
SIM_DIR="$BUILD/lib/tidepool/simcuda"
TIDEPOOL=""; [ -x "$BUILD/bin/tidepool" ] && TIDEPOOL="$BUILD/bin/tidepool"
PRELOAD=""; [ -f "$BUILD/lib/tidepool/libtidepool.so" ] && PRELOAD="$BUILD/lib/tidepool/libtidepool.so"
OUTDIR=${OUT:-$(mktemp -d /tmp/tidepool-gpu-check.XXXXXX)}
mkdir -p "$OUTDIR" || { echo "check.sh: cannot create $OUTDIR" >&2; exit 2; }
WORK=$(mktemp -d /tmp/tidepool-gpu-work.XXXXXX)  # logs and traces; logs are packed into OUTDIR
trap 'rm -rf "$WORK"' EXIT
RESULTS="$WORK/results.tsv"; FIGURES="$WORK/figures.tsv"
: >"$RESULTS"; : >"$FIGURES"
EXAMPLES=()
# The torch runs choose their allocator themselves (native, or cudaMallocAsync as --framework torch sets).
unset PYTORCH_CUDA_ALLOC_CONF
declare -A PLAIN_CHECKSUM=() PLAIN_STATUS=()

# shellcheck source=lib.sh
source "$GPU_SCRIPTS/lib.sh"
for part in examples profile torch runtime_app optimize cupti; do
  # shellcheck disable=SC1090
  source "$GPU_SCRIPTS/checks/$part.sh"
done

# What ran where: one line, kept in results.json.
describe_machine() {
  if [ -n "$REAL_DRIVER_DIR" ]; then
    echo "simcuda standing in for the real driver ($REAL_DRIVER_DIR)"
  elif command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1
  else
    echo "no nvidia-smi"
  fi
}

# check_setup: every built program finds its shared libraries here (the Debian ones may be absent).
check_setup() {
  local missing="" file
  for file in "$TIDEPOOL" "$PRELOAD" "$BUILD"/examples/*; do
    [ -f "$file" ] || continue
    missing+=$(LD_LIBRARY_PATH="${REAL_DRIVER_DIR}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$file" 2>/dev/null |
               awk -v f="$(basename "$file")" '/not found/ {printf " %s:%s", f, $1}')
  done
  figure setup machine "$MACHINE"
  figure setup tidepool "${TIDEPOOL:-absent}"
  figure setup libtidepool "${PRELOAD:-absent}"
  if [ -n "$missing" ]; then
    record setup FAIL "missing shared libraries:$missing"
  else
    record setup PASS "$MACHINE; tidepool: ${TIDEPOOL:-absent}; libtidepool.so: ${PRELOAD:-absent}; ${#EXAMPLES[@]} examples"
  fi
}

# run_check NAME FUNCTION: runs one check unless the budget is spent.
run_check() {
  if [ "$(seconds_left)" -le 20 ]; then
    record "$1" SKIP "out of time (budget ${TIDEPOOL_GPU_CHECK_BUDGET}s)"
    return
  fi
  local start=$SECONDS
  "$2"
  figure timing "$1_seconds" $((SECONDS - start))
}

MACHINE=$(describe_machine)
for exe in "$BUILD"/examples/*; do [ -f "$exe" ] && [ -x "$exe" ] && EXAMPLES+=("$(basename "$exe")"); done
echo "tidepool GPU check: build $BUILD; $MACHINE; logs $WORK"
run_check setup check_setup
run_check examples check_examples
run_check profile check_profile
run_check torch check_torch
run_check runtime_app check_runtime_app
run_check optimize check_optimize
run_check cupti check_cupti

echo
echo "== summary (${SECONDS}s) =="
python3 "$GPU_SCRIPTS/results_json.py" "$RESULTS" "$FIGURES" "$OUTDIR/results.json" \
  "machine=$MACHINE" "build=$BUILD" "seconds=$SECONDS" "fake_driver=${REAL_DRIVER_DIR:-}" |
  tee "$OUTDIR/summary.txt" || cat "$RESULTS"
tar -C "$WORK" -czf "$OUTDIR/logs.tar.gz" --exclude='*.tpt' --exclude=plan-cache --exclude=runtime_app . 2>/dev/null
echo "results: $OUTDIR/results.json, $OUTDIR/summary.txt, logs: $OUTDIR/logs.tar.gz"
! grep -q $'\tFAIL\t' "$RESULTS"
