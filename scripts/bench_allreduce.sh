#!/usr/bin/env bash
# Multi-process benchmarks on this machine (loopback), three parts:
# 1. Memory bandwidth: a single-threaded 256 MiB memcpy between buffers already
#    written (Python's slice assignment), bytes read + written per second: the
#    reference the all-reduce is put against.
# 2. Cross-process all-reduce bandwidth: for each size and process count,
#    `plugrt launch -n P -- plugrt run` runs a program of K chained f32 sum
#    all-reduces over all processes and one of a single all-reduce; the difference
#    of the two jobs' wall times over K-1 is the time of one all-reduce (process
#    start, compile and the program's other work cancel out, roughly). Prints
#    algorithm bandwidth (bytes / time), bus bandwidth (x 2(P-1)/P, what a ring
#    moves per process) and bus bandwidth as a fraction of the memcpy bandwidth.
# 3. Data-parallel MLP training (bench/gen_dp_mlp.py: 784 -> 512 -> 512 -> 10,
#    batch 128 per process, gradients summed by all_reduce): steps per second on
#    1 process with all the cores against 2 processes with half the cores each
#    (PLUGRT_THREADS), from jobs of 11 steps against jobs of 1 step.
#
# Usage: scripts/bench_allreduce.sh [--procs "2 4"] [--sizes "1K 64K 1M 16M 256M"] [--no-mlp]
# Builds nothing: needs build/bin/plugrt ($PLUGRT names another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGRT="${PLUGRT:-build/bin/plugrt}"
PROCS="2 4"
SIZES="1K 16K 256K 4M 64M 256M"
MLP=1
while [ $# -gt 0 ]; do
  case "$1" in
    --procs) PROCS="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --no-mlp) MLP=0; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_allreduce.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$PLUGRT" ] || { echo "bench_allreduce.sh: $PLUGRT is missing (scripts/build.sh)" >&2; exit 1; }
DIR="$(mktemp -d "${TMPDIR:-/tmp}/plugrt-allreduce-XXXXXX")"
trap 'rm -rf "$DIR"' EXIT

bytes_of() {
  local s="$1"
  case "$s" in
    *K) echo $(( ${s%K} * 1024 )) ;;
    *M) echo $(( ${s%M} * 1024 * 1024 )) ;;
    *) echo "$s" ;;
  esac
}

# program P N K: K chained sum all-reduces of f32[N] over P replicas.
program() {
  local procs="$1" n="$2" k="$3" ids="" i
  for ((i = 0; i < procs; i++)); do ids+="${ids:+, }$i"; done
  echo "module @allreduce attributes {mhlo.num_replicas = $procs : i32} {"
  echo "  func.func @main() -> tensor<f32> {"
  echo "    %v0 = stablehlo.iota dim = 0 : tensor<${n}xf32>"
  for ((i = 0; i < k; i++)); do
    echo "    %v$((i + 1)) = \"stablehlo.all_reduce\"(%v$i) ({"
    echo "      ^bb0(%p: tensor<f32>, %q: tensor<f32>):"
    echo "        %s = stablehlo.add %p, %q : tensor<f32>"
    echo "        stablehlo.return %s : tensor<f32>"
    echo "    }) {replica_groups = dense<[[$ids]]> : tensor<1x${procs}xi64>} : (tensor<${n}xf32>) -> tensor<${n}xf32>"
  done
  echo "    %z = stablehlo.constant dense<0.0> : tensor<f32>"
  echo "    %r = stablehlo.reduce(%v$k init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<${n}xf32>, tensor<f32>) -> tensor<f32>"
  echo "    return %r : tensor<f32>"
  echo "  }"
  echo "}"
}

seconds_of_job() {
  local procs="$1" file="$2" start end
  start=$(date +%s.%N)
  "$PLUGRT" launch -n "$procs" -- plugrt run "$file" > "$DIR/out.txt" 2>&1 ||
    { cat "$DIR/out.txt" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

MEMCPY_MBPS=$(python3 - <<'PY'
import time
size = 256 << 20
# Both buffers written once first: the timed copies fault in no pages.
src = bytearray(b"\x01") * size
dst = bytearray(size)
dst[:] = src
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    dst[:] = src  # one memcpy
    best = min(best, time.perf_counter() - start)
print(f"{2 * size / best / 1e6:.0f}")
PY
)
echo "== memory bandwidth: single-threaded 256 MiB memcpy, read + written: $MEMCPY_MBPS MB/s"
echo
echo "== cross-process all-reduce (f32 sum, loopback)"
printf '%-6s %-8s %12s %14s %14s %12s\n' procs size "us/op" "algbw MB/s" "busbw MB/s" "of memcpy"
for procs in $PROCS; do
  for size in $SIZES; do
    bytes=$(bytes_of "$size")
    n=$(( bytes / 4 ))
    [ "$n" -ge 1 ] || n=1
    # Enough repetitions that the difference stands above the noise of
    # starting processes, without piling up memory for the large sizes.
    if [ "$bytes" -le $((4 * 1024 * 1024)) ]; then k=21; else k=5; fi
    program "$procs" "$n" 1 > "$DIR/one.mlir"
    program "$procs" "$n" "$k" > "$DIR/many.mlir"
    t1=$(seconds_of_job "$procs" "$DIR/one.mlir")
    tk=$(seconds_of_job "$procs" "$DIR/many.mlir")
    python3 - "$procs" "$size" "$bytes" "$k" "$t1" "$tk" "$MEMCPY_MBPS" <<'PY'
import sys
procs, size, nbytes, k, t1, tk = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
memcpy = float(sys.argv[7])
per_op = max((tk - t1) / (k - 1), 1e-9)
algbw = nbytes / per_op / 1e6
busbw = algbw * 2 * (int(procs) - 1) / int(procs)
print(f"{procs:<6} {size:<8} {per_op * 1e6:12.0f} {algbw:14.1f} {busbw:14.1f} {busbw / memcpy:12.3f}")
PY
  done
done

[ "$MLP" = 1 ] || exit 0
CORES="$(nproc)"
HALF=$(( CORES / 2 ))
[ "$HALF" -ge 1 ] || HALF=1
mlp_seconds() {  # procs steps threads
  python3 bench/gen_dp_mlp.py --replicas "$1" --steps "$2" > "$DIR/mlp.mlir"
  local start end
  start=$(date +%s.%N)
  if [ "$1" = 1 ]; then
    PLUGRT_THREADS="$3" "$PLUGRT" run "$DIR/mlp.mlir" > "$DIR/out.txt" 2>&1 ||
      { cat "$DIR/out.txt" >&2; exit 1; }
  else
    PLUGRT_THREADS="$3" "$PLUGRT" launch -n "$1" -- plugrt run "$DIR/mlp.mlir" > "$DIR/out.txt" 2>&1 ||
      { cat "$DIR/out.txt" >&2; exit 1; }
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
echo
echo "== data-parallel MLP training (784-512-512-10, batch 128 per process, $CORES cores)"
printf '%-6s %-8s %12s %12s %14s\n' procs threads "ms/step" "steps/s" "samples/s"
for procs in 1 2; do
  threads=$CORES
  [ "$procs" = 1 ] || threads=$HALF
  t1=$(mlp_seconds "$procs" 1 "$threads")
  tk=$(mlp_seconds "$procs" 11 "$threads")
  python3 - "$procs" "$threads" "$t1" "$tk" <<'PY'
import sys
procs, threads, t1, tk = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
step = max((tk - t1) / 10, 1e-9)
print(f"{procs:<6} {threads:<8} {step * 1e3:12.1f} {1 / step:12.2f} {procs * 128 / step:14.0f}")
PY
done
