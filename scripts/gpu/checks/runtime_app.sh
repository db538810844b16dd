# Check 4 (issue 3): a plain CUDA runtime program (runtime_app.cu, built here with nvcc) under
# `tidepool run` on the real driver: the report's peak and counts against what the program counted.
# Sourced by check.sh, after checks/profile.sh (uses traced).

: "${TIDEPOOL_GPU_RUNTIME_APP_ITERATIONS:=20}"

check_runtime_app() {
  if [ -n "$REAL_DRIVER_DIR" ]; then
    record runtime_app SKIP "the real driver is faked by simcuda, which cannot run the CUDA runtime library"
    return
  fi
  local nvcc; nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ ! -x "$nvcc" ]; then
    record runtime_app SKIP "no nvcc"
    return
  fi
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record runtime_app SKIP "no tidepool in $BUILD"
    return
  fi
  local exe="$WORK/runtime_app" source="$GPU_SCRIPTS/runtime_app.cu"
  if ! run_logged "$WORK/nvcc.native" "$nvcc" -O2 -std=c++17 -arch=native -o "$exe" "$source" &&
     ! run_logged "$WORK/nvcc.sm90" "$nvcc" -O2 -std=c++17 -arch=sm_90 -o "$exe" "$source"; then
    record runtime_app FAIL "nvcc failed: $(head -c 300 "$WORK/nvcc.sm90.err")"
    return
  fi
  on_real "$WORK/plain.runtime_app" "$exe" "$TIDEPOOL_GPU_RUNTIME_APP_ITERATIONS"
  local plain=$?
  traced traced.runtime_app -- "$exe" "$TIDEPOOL_GPU_RUNTIME_APP_ITERATIONS"
  local status=$? log="$WORK/traced.runtime_app" report="$WORK/traced.runtime_app.report.json"
  local sum plain_sum problems=()
  sum=$(value_of checksum "$log.out"); plain_sum=$(value_of checksum "$WORK/plain.runtime_app.out")
  [ "$status" -eq "$plain" ] && [ "$plain" -eq 0 ] || problems+=("exit $status, plain $plain")
  [ -n "$sum" ] && [ "$sum" = "$plain_sum" ] || problems+=("checksum ${sum:-none}, plain ${plain_sum:-none}")
  against_bookkeeping runtime_app traced.runtime_app
  [ -n "$COUNTS_DIFFER" ] && problems+=("$COUNTS_DIFFER")
  figure runtime_app checksum "$sum"
  local message="report/program:$COUNTS_TEXT; checksum ${sum:-none}"
  if [ ! -f "$report" ]; then
    record runtime_app FAIL "no report (exit $status): $(head -c 300 "$report.err" 2>/dev/null) (logs: ${log#"$WORK/"}.*)"
  elif [ ${#problems[@]} -eq 0 ]; then
    record runtime_app PASS "$message"
  else
    record runtime_app FAIL "$message; differs: $(IFS=","; echo "${problems[*]}")"
  fi
}
