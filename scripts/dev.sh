#!/usr/bin/env bash
# The two Quick start commands of README.md, and what .ci/run calls.
#   scripts/dev.sh demo   install what is missing, build (Release), run tidepool on the bundled example
#   scripts/dev.sh test   install what is missing, build, run the whole test suite (plus an ASan+UBSan pass)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in demo|test) ;; *) echo "usage: scripts/dev.sh demo|test" >&2; exit 2;; esac

jobs=${TIDEPOOL_JOBS:-2}
packages=(build-essential cmake ninja-build pkg-config python3 libgtest-dev libgmock-dev
          nlohmann-json3-dev libcli11-dev libunwind-dev libzstd-dev)

install_missing_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "tidepool: installing ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {  # dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$jobs"
}

install_missing_packages
case "$mode" in
  demo)
    configure_and_build build
    exec build/bin/tidepool run --sim -o build/demo-traces -f -- build/examples/train_mlp --steps 5
    ;;
  test)
    configure_and_build build
    ctest --test-dir build --output-on-failure -j "$jobs"
    # One more pass of the unit and end-to-end tests under AddressSanitizer + UndefinedBehaviorSanitizer,
    # unoptimized (instrumented -O2 builds take three times as long on two cores) with line tables.
    configure_and_build build-asan -DTIDEPOOL_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" -DCMAKE_C_FLAGS_DEBUG="-O0 -g1"
    ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --test-dir build-asan --output-on-failure -j "$jobs" -L 'unit|e2e'
    ;;
esac
