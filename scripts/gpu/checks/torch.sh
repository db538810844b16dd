# Check 3 (issue 3): a PyTorch training script under `tidepool run --framework torch` on the real
# driver. Runs it plain (torch's own caching allocator), plain with the cudaMallocAsync backend
# that --framework torch selects, and under tidepool; the report's peak of stream-ordered memory
# (what torch's allocator asks for under that backend) must agree with torch's max_memory_allocated
# of the same run, and the results must equal the plain async run's. The report's whole peak also
# counts what libraries allocate apart from torch (cublasCreate's two 32 MiB workspaces, cuDNN's
# handle): printed beside it, not compared.
# Sourced by check.sh, after checks/profile.sh (uses traced).

# Relative tolerance between the report's stream-ordered peak and torch.cuda.max_memory_allocated.
: "${TIDEPOOL_GPU_TORCH_PEAK_RTOL:=0.02}"
: "${TIDEPOOL_GPU_TORCH_ARGS:=--model resnet18 --batch 32 --steps 8}"
TORCH_ASYNC_ENV="PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync"

# find_torch: sets TORCH_MISSING to why the torch checks cannot run here (empty when they can);
# asks python3 once.
find_torch() {
  [ -n "${TORCH_MISSING+set}" ] && return
  TORCH_MISSING=""
  if [ -n "$REAL_DRIVER_DIR" ]; then
    TORCH_MISSING="the real driver is faked by simcuda, which cannot run the CUDA runtime library"
  elif ! python3 -c 'import torch, torchvision, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    TORCH_MISSING="python3 has no torch+torchvision with a usable GPU"
  fi
}

# torch_figures CHECK LOG: the script's own lines, as figures prefixed by CHECK.
torch_figures() {
  local key
  for key in allocator max_memory_allocated max_memory_reserved first_step_ms step_time_ms loss checksum; do
    figure "$1" "$key" "$(value_of "$key" "$2.out")"
  done
  figure "$1" device_peak_used_bytes "$(cat "$WORK/$(basename "$2").devpeak" 2>/dev/null)"
}

check_torch() {
  find_torch
  if [ -n "$TORCH_MISSING" ]; then
    record torch SKIP "$TORCH_MISSING"
    return
  fi
  local script="$GPU_SCRIPTS/torch_train.py"
  local -a args
  read -ra args <<<"$TIDEPOOL_GPU_TORCH_ARGS"
  with_sampler torch.native on_real "$WORK/torch.native" python3 "$script" "${args[@]}"
  local native=$?
  with_sampler torch.async on_real "$WORK/torch.async" env "$TORCH_ASYNC_ENV" python3 "$script" "${args[@]}"
  local async=$?
  torch_figures torch.native "$WORK/torch.native"
  torch_figures torch.async "$WORK/torch.async"
  if [ -z "$TIDEPOOL" ] || [ -z "$PRELOAD" ]; then
    record torch SKIP "plain runs only (exit $native, $async): no tidepool in $BUILD"
    return
  fi
  with_sampler traced.torch traced traced.torch --framework torch -- python3 "$script" "${args[@]}"
  local status=$? log="$WORK/traced.torch" report="$WORK/traced.torch.report.json"
  torch_figures torch.traced "$log"
  local torch_peak report_peak="" ordered_peak="" ratio sum async_sum
  torch_peak=$(value_of max_memory_allocated "$log.out")
  if [ -f "$report" ]; then
    report_peak=$(report_field peak_requested_bytes "$report")
    ordered_peak=$(report_field memory_by_kind.kind=stream_ordered.peak_live_bytes "$report")
  fi
  ratio=$(python3 -c 'import sys; print("%.4f" % (int(sys.argv[1]) / int(sys.argv[2])))' "${ordered_peak:-x}" "${torch_peak:-x}" 2>/dev/null)
  local field
  for field in peak_requested_bytes allocations frees kernel_launches process_count; do
    figure torch.traced "report_$field" "$([ -f "$report" ] && report_field "$field" "$report")"
  done
  figure torch.traced report_stream_ordered_peak_bytes "$ordered_peak"
  figure torch.traced report_device_kind_peak_bytes \
    "$([ -f "$report" ] && report_field memory_by_kind.kind=device.peak_live_bytes "$report")"
  figure torch.traced peak_ratio_report_over_torch "$ratio"
  sum=$(value_of checksum "$log.out"); async_sum=$(value_of checksum "$WORK/torch.async.out")
  local same=no; [ -n "$sum" ] && [ "$sum" = "$async_sum" ] && same=yes
  local message="report stream-ordered peak ${ordered_peak:-none} / torch max_memory_allocated ${torch_peak:-none}"
  message+=" = ratio ${ratio:-n/a} (tol $TIDEPOOL_GPU_TORCH_PEAK_RTOL); report peak, all memory, ${report_peak:-none}"
  message+="; loss $(value_of loss "$log.out") vs plain-async $(value_of loss "$WORK/torch.async.out")"
  message+=", checksums equal: $same; step ms traced $(value_of step_time_ms "$log.out")"
  message+=" plain-async $(value_of step_time_ms "$WORK/torch.async.out")"
  message+=" native $(value_of step_time_ms "$WORK/torch.native.out")"
  local within=no
  [ -n "$ratio" ] && at_most "$(relative_difference "$ordered_peak" "$torch_peak")" "$TIDEPOOL_GPU_TORCH_PEAK_RTOL" && within=yes
  if [ "$native" -ne 0 ] || [ "$async" -ne 0 ] || [ "$status" -ne 0 ]; then
    record torch FAIL "exit native $native, async $async, traced $status; $message (logs: torch.*, traced.torch.*)"
  elif [ "$within" = yes ] && [ "$same" = yes ]; then
    record torch PASS "$message"
  else
    record torch FAIL "$message"
  fi
}
