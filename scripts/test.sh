#!/usr/bin/env bash
# The whole test suite, in two passes:
#   1. plain build (g++): every test, the whole conformance corpora with their
#      floors;
#   2. sanitizer build (clang, AddressSanitizer + UndefinedBehaviorSanitizer,
#      libraries instrumented for libFuzzer; kernels threaded as in the plain
#      build): every unit test, a fixed sample of the corpora
#      (tests/CMakeLists.txt says which files, with its own floors), and each
#      fuzz target of tests/fuzz/ for a fixed number of inputs from a fixed
#      random seed.
# Pass --no-sanitize to run the plain pass only (quicker local runs).
# Each step prints how long it took, so CI's log shows where its time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
SANITIZE=1
[ "${1:-}" = "--no-sanitize" ] && SANITIZE=0
JOBS="$(nproc)"

step() {
  local name="$1"
  shift
  local start=$SECONDS
  "$@"
  echo "test.sh: $name took $((SECONDS - start)) s"
}

# Line tables only (-g1) in the builds this script makes: sanitizer reports and
# backtraces still name file:line, and the two build folders take a third of
# the disk full debug info takes (each test binary links every library: about
# 100 MB apiece with -g). A folder already configured keeps its flags.
LEAN_DEBUG=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
            -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
echo "test.sh: free disk: $(df -h . | awk 'NR == 2 {print $4}')"
step setup scripts/setup.sh
step "plain build" scripts/build.sh build "${LEAN_DEBUG[@]}"
echo "test.sh: free disk after the plain build: $(df -h . | awk 'NR == 2 {print $4}')"
step "plain tests" ctest --test-dir build --output-on-failure -j "$JOBS"

if [ "$SANITIZE" = 1 ]; then
  step "sanitizer build" scripts/build.sh build-asan -DPLUGRT_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 "${LEAN_DEBUG[@]}"
  echo "test.sh: free disk after the sanitizer build: $(df -h . | awk 'NR == 2 {print $4}')"
  # intercept_tls_get_addr=0: clang 14's runtime guesses the bounds of each
  # thread's dynamic TLS blocks from glibc internals it reads through
  # __tls_get_addr, and under Debian 12's glibc it records a wrong range for
  # the LLVM OpenMP runtime's threads (the sanitizer build's ParallelFor team
  # touching the CPU plugin's thread_local scratch); the leak checker then
  # faults reading it at exit ("Tracer caught signal 11"). glibc keeps those
  # blocks in heap memory reachable from each thread's static TLS, which the
  # leak checker scans anyway, so no root is lost.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  step "sanitizer tests and fuzz runs" ctest --test-dir build-asan --output-on-failure -j "$JOBS"
fi
echo "test.sh: all tests passed (${SECONDS} s)"
