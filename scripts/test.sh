#!/usr/bin/env bash
# The whole test suite: set up, build, run every test; then build again with
# AddressSanitizer + UndefinedBehaviorSanitizer and run every test once more.
# Pass --no-sanitize to skip the second pass (quicker local runs).
set -euo pipefail
cd "$(dirname "$0")/.."
SANITIZE=1
[ "${1:-}" = "--no-sanitize" ] && SANITIZE=0
JOBS="$(nproc)"

scripts/setup.sh
scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$JOBS"

if [ "$SANITIZE" = 1 ]; then
  scripts/build.sh build-asan -DPLUGRT_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$JOBS"
fi
echo "test.sh: all tests passed"
