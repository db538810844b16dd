#!/usr/bin/env python3
"""Watches GPU 0's used memory through NVML until SIGTERM, for scripts/gpu/check.sh.

usage: mem_sampler.py OUT_FILE
Creates OUT_FILE.ready once it has read the baseline, then samples every millisecond or so; at SIGTERM writes one line to OUT_FILE: the peak used bytes minus
the used bytes at start (the program's own footprint on the card, its context included), or
"n/a" if NVML did not answer. A driver-side figure, independent of tidepool's trace.
"""
import signal
import sys
import time

import pynvml


def main() -> int:
    out = sys.argv[1]
    stop = False

    def on_term(_signum, _frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    try:
        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        baseline = peak = pynvml.nvmlDeviceGetMemoryInfo(handle).used
        with open(out + ".ready", "w", encoding="utf-8"):
            pass  # the caller starts its program once the baseline is read
        while not stop:
            peak = max(peak, pynvml.nvmlDeviceGetMemoryInfo(handle).used)
            time.sleep(0.001)
        result = str(peak - baseline)
    except pynvml.NVMLError as error:
        result = "n/a"
        print(f"mem_sampler: NVML: {error}", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        f.write(result + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
