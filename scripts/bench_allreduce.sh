#!/usr/bin/env bash
# Multi-process benchmarks on this machine (loopback), three parts:
# 1. Memory bandwidth: a single-threaded 256 MiB memcpy between buffers already
#    written (Python's slice assignment), bytes read + written per second: the
#    reference the all-reduce is put against.
# 2. Cross-process all-reduce, for each collectives backend (gloo and mpi,
#    both under Open MPI's mpirun with its default core binding; without mpirun,
#    gloo under `plugrt launch`): for each process count P and size, a job of P
#    processes of `plugrt bench` (one device and one kernel thread each) times
#    in every process a program of one f32 sum all-reduce over all of them
#    (--repeats runs after warm-up ones, so connections are up); node 0's
#    median is reported as time per all-reduce (the program's output included),
#    with algorithm bandwidth (bytes / time), bus bandwidth (x 2(P-1)/P, what a
#    ring moves per process) and bus bandwidth as a fraction of the memcpy's.
# 3. Data-parallel MLP training (bench/gen_dp_mlp.py: 784 -> 512 -> 512 -> 10,
#    batch 128 per process, gradients summed by all_reduce, 4 steps per execute):
#    steps per second on 1 process with all the cores, on 1 process with half of
#    them, and on 2 processes with half of them each (per backend), timed the
#    same way.
#
# Usage: scripts/bench_allreduce.sh [--procs "2 4"] [--sizes "1K 64K 1M 16M 256M"]
#                                   [--backends "gloo mpi"] [--no-mlp]
# Builds nothing: needs build/bin/plugrt ($PLUGRT names another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGRT="${PLUGRT:-build/bin/plugrt}"
PROCS="2 4"
SIZES="1K 16K 256K 4M 64M 256M"
MLP=1
BACKENDS="gloo mpi"
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none --tag-output)
command -v mpirun >/dev/null || { BACKENDS="gloo"; MPIRUN=(); }
while [ $# -gt 0 ]; do
  case "$1" in
    --procs) PROCS="$2"; shift 2 ;;
    --backends) BACKENDS="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --no-mlp) MLP=0; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_allreduce.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. scripts/job_bench_lib.sh
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

# workload P N: one f32 sum all-reduce of the argument f32[N] over P replicas.
workload() {
  local procs="$1" n="$2" ids="" i
  for ((i = 0; i < procs; i++)); do ids+="${ids:+, }$i"; done
  echo "// plugrt-bench: kind=execute metric=bytes"
  echo "// One f32 sum all-reduce over $procs processes (scripts/bench_allreduce.sh)."
  echo "module @allreduce attributes {mhlo.num_replicas = $procs : i32} {"
  echo "  func.func @main(%x: tensor<${n}xf32>) -> tensor<${n}xf32> {"
  echo "    %r = \"stablehlo.all_reduce\"(%x) ({"
  echo "      ^bb0(%p: tensor<f32>, %q: tensor<f32>):"
  echo "        %s = stablehlo.add %p, %q : tensor<f32>"
  echo "        stablehlo.return %s : tensor<f32>"
  echo "    }) {replica_groups = dense<[[$ids]]> : tensor<1x${procs}xi64>} : (tensor<${n}xf32>) -> tensor<${n}xf32>"
  echo "    return %r : tensor<${n}xf32>"
  echo "  }"
  echo "}"
}

# median_ms BACKEND PROCS THREADS DIR NAME REPEATS: node 0's median execute
# time of workload DIR/NAME.mlir in a job of PROCS processes (1: no job) whose
# collectives run on BACKEND (gloo or mpi).
median_ms() {
  local backend="$1" procs="$2" threads="$3" dir="$4" name="$5" repeats="$6"
  local bench=(bench --dir "$dir" --repeats "$repeats" --warmup 2 --no-ceilings
               --threads "$threads" --json - "$name")
  if [ "$procs" = 1 ]; then
    "$PLUGRT" "${bench[@]}" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt" >&2; exit 1; }
  elif [ ${#MPIRUN[@]} -gt 0 ]; then
    PLUGRT_COLLECTIVES="$backend" "${MPIRUN[@]}" -n "$procs" -x PLUGRT_COLLECTIVES \
      "$PLUGRT" "${bench[@]}" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt" >&2; exit 1; }
  else
    "$PLUGRT" launch -n "$procs" -- plugrt "${bench[@]}" > "$DIR/out.txt" 2>&1 ||
      { cat "$DIR/out.txt" >&2; exit 1; }
  fi
  node0_median_ms "$DIR/out.txt"
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
printf '%-8s %-6s %-8s %12s %14s %14s %12s\n' backend procs size "us/op" "algbw MB/s" "busbw MB/s" "of memcpy"
for backend in $BACKENDS; do
for procs in $PROCS; do
  mkdir -p "$DIR/p$procs"
  for size in $SIZES; do
    bytes=$(bytes_of "$size")
    n=$(( bytes / 4 ))
    [ "$n" -ge 1 ] || n=1
    workload "$procs" "$n" > "$DIR/p$procs/ar_$size.mlir"
    if [ "$bytes" -le $((16 * 1024 * 1024)) ]; then repeats=20; else repeats=5; fi
    ms=$(median_ms "$backend" "$procs" 1 "$DIR/p$procs" "ar_$size" "$repeats")
    python3 - "$backend" "$procs" "$size" "$bytes" "$ms" "$MEMCPY_MBPS" <<'PY'
import sys
backend, procs, size, nbytes, ms, memcpy = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
per_op = ms / 1e3
algbw = nbytes / per_op / 1e6
busbw = algbw * 2 * (procs - 1) / procs
print(f"{backend:<8} {procs:<6} {size:<8} {per_op * 1e6:12.0f} {algbw:14.1f} {busbw:14.1f} {busbw / memcpy:12.3f}")
PY
  done
done
done

[ "$MLP" = 1 ] || exit 0
CORES="$(nproc)"
HALF=$(( CORES / 2 ))
[ "$HALF" -ge 1 ] || HALF=1
STEPS=4
echo
echo "== data-parallel MLP training (784-512-512-10, batch 128 per process, $CORES cores)"
printf '%-8s %-6s %-8s %12s %12s %14s\n' backend procs threads "ms/step" "steps/s" "samples/s"
# One process with all the cores, one with as many as each of the two gets
# (the per-process baseline of the scaling), then the two.
RUNS="-:1:$CORES"
[ "$HALF" = "$CORES" ] || RUNS="$RUNS -:1:$HALF"
for backend in $BACKENDS; do RUNS="$RUNS $backend:2:$HALF"; done
for run in $RUNS; do
  backend=${run%%:*}
  rest=${run#*:}
  procs=${rest%%:*}
  threads=${rest##*:}
  mkdir -p "$DIR/mlp$procs"
  { echo "// plugrt-bench: kind=execute metric=flops"
    echo "// $STEPS data-parallel SGD steps over $procs processes (bench/gen_dp_mlp.py)."
    python3 bench/gen_dp_mlp.py --replicas "$procs" --steps "$STEPS"; } > "$DIR/mlp$procs/dp_mlp.mlir"
  ms=$(median_ms "$backend" "$procs" "$threads" "$DIR/mlp$procs" dp_mlp 5)
  python3 - "$backend" "$procs" "$threads" "$ms" "$STEPS" <<'PY'
import sys
backend, procs, threads, ms, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
step = ms / 1e3 / steps
print(f"{backend:<8} {procs:<6} {threads:<8} {step * 1e3:12.1f} {1 / step:12.2f} {procs * 128 / step:14.0f}")
PY
done
