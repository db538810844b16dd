#!/usr/bin/env bash
# Where tidepool's time goes on a real GPU: the step time of train_mlp (driver API, defaults) and of
# the torch script (cudaMallocAsync backend) plain and under `tidepool run` with its parts turned
# off one at a time (stacks, device timing, both), with --cupti, with --optimize=pool, and with
# TIDEPOOL_SELF_TIMING=1 (whose per-symbol lines follow its runs). Prints one line per run,
# "program config rep step_time_ms"; a probe for a device session, not a check
# (scripts/gpu/check.sh is the check). Never changes GPU settings.
#   usage: bash scripts/gpu/overhead.sh [BUILD_DIR (default build)] [REPS (default 2)]
set -uo pipefail
GPU_SCRIPTS=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd) || exit 2
REPS=${2:-2}
TIDEPOOL="$BUILD/bin/tidepool"
WORK=$(mktemp -d /tmp/tidepool-overhead.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
unset PYTORCH_CUDA_ALLOC_CONF

# step PROGRAM CONFIG REP LOG: prints the step time a finished run logged.
step() {
  local value
  value=$(grep -h -m1 '^step_time_ms:' "$4.out" "$4.err" 2>/dev/null | awk '{print $2}' | head -n 1)
  echo "$1 $2 $3 ${value:-failed}"
}

# measure PROGRAM CONFIG CMD...: REPS runs of CMD, "plain" as it is, any other config under
# tidepool run with that config's options and environment.
measure() {
  local program=$1 config=$2 rep log; shift 2
  local -a options=() environment=()
  case $config in
    no-stacks) options=(--no-stacks) ;;
    no-timing) environment=(TIDEPOOL_DEVICE_TIMING=0) ;;
    self-timing) environment=(TIDEPOOL_SELF_TIMING=1) ;;
    neither) options=(--no-stacks); environment=(TIDEPOOL_DEVICE_TIMING=0) ;;
    cupti) options=(--cupti) ;;
    pool) options=(--optimize=pool --plan-cache off) ;;
  esac
  for rep in $(seq 1 "$REPS"); do
    log="$WORK/$program.$config.$rep"
    if [ "$config" = plain ]; then
      timeout 300 "$@" >"$log.out" 2>"$log.err"
    else
      env "${environment[@]}" timeout 300 "$TIDEPOOL" run -o "$WORK/t" -f "${options[@]}" "${FRAMEWORK[@]}" -- "$@" \
        >"$log.out" 2>"$log.err"
    fi
    step "$program" "$config" "$rep" "$log"
    # Where tidepool's time goes, per hooked symbol (the costliest first).
    if [ "$config" = self-timing ]; then grep -h 'self-timing' "$log.err" | head -n 12; fi
  done
}

CONFIGS=(plain traced no-stacks no-timing neither cupti pool self-timing)
FRAMEWORK=()
for config in "${CONFIGS[@]}"; do measure train_mlp "$config" "$BUILD/examples/train_mlp"; done
if python3 -c 'import torch, torchvision, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  FRAMEWORK=(--framework torch)
  for config in "${CONFIGS[@]}"; do
    if [ "$config" = plain ]; then
      PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync measure torch "$config" python3 "$GPU_SCRIPTS/torch_train.py" --model resnet18 --batch 32 --steps 8
    else
      measure torch "$config" python3 "$GPU_SCRIPTS/torch_train.py" --model resnet18 --batch 32 --steps 8
    fi
  done
else
  echo "torch: skipped (no torch with a usable GPU)"
fi
