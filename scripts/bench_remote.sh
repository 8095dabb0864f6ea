#!/usr/bin/env bash
# Remote execution over loopback against local execution: starts a worker
# (`plugrt serve` on 127.0.0.1, a free port, a throwaway token), then runs
# plugrt_transfer_bench through the CPU plugin and through the remote plugin
# (libplugrt_remote.so) connected to that worker. Prints, for each, the
# dispatch latency of a scalar add (launch + wait) and upload/download
# bandwidth for a few array sizes.
#
# Usage: scripts/bench_remote.sh [--sizes-mib 1,16,256] [--dispatch 2000]
# Builds nothing: needs build/bin/plugrt, build/bin/plugrt_transfer_bench,
# build/lib/libplugrt_cpu.so and build/lib/libplugrt_remote.so ($BUILD names
# another build folder).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
for f in "$BUILD/bin/plugrt" "$BUILD/bin/plugrt_transfer_bench" "$BUILD/lib/libplugrt_cpu.so" \
         "$BUILD/lib/libplugrt_remote.so"; do
  [ -e "$f" ] || { echo "bench_remote.sh: $f is missing (scripts/build.sh)" >&2; exit 1; }
done
DIR="$(mktemp -d "${TMPDIR:-/tmp}/plugrt-remote-XXXXXX")"
WORKER=""
cleanup() {
  [ -n "$WORKER" ] && kill "$WORKER" 2>/dev/null && wait "$WORKER" 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DIR/token"
"$BUILD/bin/plugrt" serve --listen 127.0.0.1:0 --token-file "$DIR/token" > "$DIR/serve.out" &
WORKER=$!
for _ in $(seq 100); do
  grep -q 'listening on' "$DIR/serve.out" 2>/dev/null && break
  sleep 0.1
done
ADDRESS="$(grep -o 'listening on [^ ]*' "$DIR/serve.out" | cut -d' ' -f3)"
[ -n "$ADDRESS" ] || { echo "bench_remote.sh: the worker did not start" >&2; exit 1; }

echo "== local: $BUILD/lib/libplugrt_cpu.so"
"$BUILD/bin/plugrt_transfer_bench" --plugin "$BUILD/lib/libplugrt_cpu.so" "$@"
echo "== remote: $BUILD/lib/libplugrt_remote.so -> worker $ADDRESS (loopback)"
"$BUILD/bin/plugrt_transfer_bench" --plugin "$BUILD/lib/libplugrt_remote.so" \
  --option "address=$ADDRESS" --option "token_file=$DIR/token" "$@"
