#!/usr/bin/env bash
# Coverage-guided fuzzing of tidepool's readers with libFuzzer, ASan and UBSan: the trace reader,
# the plan reader and the packing CSV reader. A developer's tool, not part of CI (it needs clang
# and time).
#   scripts/fuzz/run.sh trace|plan|csv [SECONDS (default 300)]
# Builds the target under build-fuzz/ from the few sources it needs (clang 14 cannot build the
# whole tree with Debian's libstdc++ 12: its ranges), seeds a corpus (the repository's test traces,
# and traces, plans and CSV files made with build/bin/tidepool when there is one), and runs.
# Exits non-zero when the target fails; libFuzzer writes the input to build-fuzz/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:-}
seconds=${2:-300}
case "$target" in
  trace) sources=(analyzer/trace/*.cpp) ;;
  plan) sources=(analyzer/plan/{plan_read,plan_write,json_node,names,consistency}.cpp
                 analyzer/packing/{checker,problem,time_sort}.cpp) ;;
  csv) sources=(analyzer/packing/{csv,checker,problem,time_sort}.cpp) ;;
  *) echo "usage: scripts/fuzz/run.sh trace|plan|csv [SECONDS]" >&2; exit 2 ;;
esac
work=build-fuzz/$target
mkdir -p "$work/corpus"
clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. \
  "scripts/fuzz/${target}_reader.cpp" "${sources[@]}" -o "$work/fuzz"

# Seeds: what the repository holds, and what a built tidepool makes.
tidepool=build/bin/tidepool
case "$target" in
  trace)
    cp tests/trace/data/* tests/report/data/*.trace "$work/corpus/"
    if [ -x "$tidepool" ] && [ ! -e "$work/corpus/train_mlp.tpt" ]; then
      "$tidepool" run --sim -o "$work/seed" -f -- build/examples/train_mlp --steps 3 >/dev/null 2>&1 &&
        cp "$work"/seed/*.tpt "$work/corpus/train_mlp.tpt"
    fi ;;
  plan)
    if [ -x "$tidepool" ] && [ ! -e "$work/corpus/pool-swap.json" ]; then
      "$tidepool" run --sim -o "$work/seed" -f -- build/examples/train_mlp --steps 10 >/dev/null 2>&1
      trace=$(ls "$work"/seed/*.tpt | head -n 1)
      "$tidepool" plan --pool --swap --time-limit 0.2 "$trace" -o "$work/corpus/pool-swap.json" >/dev/null
      "$tidepool" plan --swap --budget 1000000 "$trace" -o "$work/corpus/swap.json" >/dev/null
    fi ;;
  csv)
    if [ -x "$tidepool" ]; then
      "$tidepool" bench pack --generate perfect:40:1 -o "$work/corpus/perfect.csv" >/dev/null
      "$tidepool" bench pack --generate refill:40:1 -o "$work/corpus/refill.csv" >/dev/null
    fi ;;
esac
if [ -z "$(ls -A "$work/corpus")" ]; then printf 'id,lower,upper,size\n1,0,4,256\n' > "$work/corpus/seed"; fi

cd "$work"
exec ./fuzz -max_total_time="$seconds" -max_len=40000 -timeout=10 -rss_limit_mb=2048 corpus
