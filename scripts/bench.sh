#!/usr/bin/env bash
# Runs the benchmark suite: `plugrt bench` (the StableHLO programs in bench/ on the
# built-in CPU plugin, with oneDNN matmul and memory-bandwidth ceilings), the same
# workloads in PyTorch eager mode (bench/torch_bench.py), both with the same
# number of threads, and prints the comparison (bench/compare.py).
#
# Then the model set (bench/models/: whole models as frameworks export them, generated on the
# spot with seeded weights): plugrt against each model's physical limit, PyTorch eager
# (bench/torch_models.py) and ONNX Runtime (bench/ort_models.js on the models PyTorch exports to
# ONNX), all in this run, after checking on the models' small twins that the three agree with
# a NumPy reference (bench/models/compare_peers.py); table by bench/models/compare_models.py.
#
# Usage: scripts/bench.sh [--threads N] [--out DIR] [--no-torch] [--no-hugepages] [--plot [FILE]] [--distributed]
#                         [--no-models | --models-only] [--models NAME,...] [WORKLOAD...]
#   WORKLOAD        bench/<name>.mlir stems (default: all)
#   --no-models     skip the model set; --models-only: only the model set
#   --models LIST   model or family names (gen_models.py --list; default: all)
#   --threads       threads for both (default: the online cores)
#   --out           where the two JSON files go (default: a new folder under /tmp)
#   --no-torch      plugrt only
#   --no-hugepages  do not set GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (see below)
#   --plot [FILE]   also draw plugrt vs PyTorch vs ceiling per workload (bench/plot.py,
#                   matplotlib) into FILE (.svg or .png; default DIR/bench.svg)
#   --distributed   then the multi-process benchmarks (scripts/bench_allreduce.sh: memcpy
#                   bandwidth, cross-process all-reduce bandwidth, data-parallel MLP steps/s)
# XLA's own CPU benchmark programs (HLO text, openxla/xla
# xla/backends/cpu/benchmarks/hlo/: graphsage_tf.hlo, ssd_mobilenet_tf.hlo, ...;
# not shipped here, their weights are left out of the files) join the run when
# PLUGRT_XLA_HLO_DIR names a folder holding them: `plugrt bench --dir DIR
# --fill-elided=random:0` times them with seeded random weights.
# Builds build/bin/plugrt with scripts/build.sh first if it is missing ($PLUGRT
# names another binary). Run scripts/bench_setup.sh once before (python3-torch and
# OpenBLAS). First prints PyTorch's build, thread, BLAS and oneDNN configuration, and
# stops there when PyTorch would run its matmuls on the reference BLAS: ratios
# against that would flatter plugrt on every GEMM-heavy row.
# Both sides run with glibc's malloc asking for transparent huge pages for large
# blocks (glibc.malloc.hugetlb=1): on VMs where a 4 KiB page fault is slow, fresh
# large buffers otherwise cost more than the arithmetic (PyTorch eager allocates
# one per op); bench/torch_bench.py explains.
set -euo pipefail
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."

THREADS="$(nproc)"
OUT=""
TORCH=1
HUGEPAGES=1
PLOT=""
DISTRIBUTED=0
MODELS=1
HANDWRITTEN=1
MODEL_NAMES=""
NAMES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) THREADS="$2"; shift 2 ;;
    --threads=*) THREADS="${1#*=}"; shift ;;
    --out) OUT="$2"; shift 2 ;;
    --out=*) OUT="${1#*=}"; shift ;;
    --no-torch) TORCH=0; shift ;;
    --no-hugepages) HUGEPAGES=0; shift ;;
    --plot)
      case "${2:-}" in
        *.svg|*.png) PLOT="$2"; shift 2 ;;
        *) PLOT=default; shift ;;
      esac ;;
    --plot=*) PLOT="${1#*=}"; shift ;;
    --distributed) DISTRIBUTED=1; shift ;;
    --no-models) MODELS=0; shift ;;
    --models-only) HANDWRITTEN=0; shift ;;
    --models) MODEL_NAMES="$2"; shift 2 ;;
    --models=*) MODEL_NAMES="${1#*=}"; shift ;;
    -h|--help) sed -n '2,35p' "$SELF" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
    *) NAMES+=("$1"); shift ;;
  esac
done
[ -n "$OUT" ] || OUT="$(mktemp -d /tmp/plugrt_bench.XXXXXX)"
mkdir -p "$OUT"
rm -f "$OUT/plugrt.json" "$OUT/torch.json"

TORCH_FLAGS=()
if [ "$HUGEPAGES" = 1 ]; then
  case ":${GLIBC_TUNABLES:-}:" in
    *:glibc.malloc.hugetlb=1:*) ;;
    *) export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" ;;
  esac
else
  TORCH_FLAGS+=(--no-hugepages)
fi

PY=/usr/bin/python3
if [ "$TORCH" = 1 ] && ! "$PY" -c "import torch" 2>/dev/null; then
  echo "bench.sh: $PY cannot import torch: run scripts/bench_setup.sh (or pass --no-torch)" >&2
  exit 1
fi

if [ "$TORCH" = 1 ]; then
  echo "== PyTorch configuration ($THREADS threads)"
  if ! "$PY" bench/torch_bench.py --config --threads "$THREADS" "${TORCH_FLAGS[@]}"; then
    echo "bench.sh: no comparison against this PyTorch (see above); --no-torch runs plugrt alone" >&2
    exit 1
  fi
  echo
fi

PLUGRT="${PLUGRT:-build/bin/plugrt}"
if [ ! -x "$PLUGRT" ]; then
  if [ "$PLUGRT" != build/bin/plugrt ]; then
    echo "bench.sh: PLUGRT=$PLUGRT is not an executable" >&2
    exit 1
  fi
  scripts/build.sh
fi

status=0
if [ "$HANDWRITTEN" = 1 ]; then
  echo "== plugrt bench ($THREADS threads, GLIBC_TUNABLES=${GLIBC_TUNABLES:-})"
  "$PLUGRT" bench --threads "$THREADS" --json "$OUT/plugrt.json" "${NAMES[@]}" || status=$?
  if [ ! -f "$OUT/plugrt.json" ]; then
    echo "bench.sh: plugrt bench wrote no results" >&2
    exit 1
  fi

  if [ -n "${PLUGRT_XLA_HLO_DIR:-}" ]; then
    echo
    echo "== XLA's CPU benchmark programs in $PLUGRT_XLA_HLO_DIR (seeded random weights)"
    "$PLUGRT" bench --threads "$THREADS" --dir "$PLUGRT_XLA_HLO_DIR" --fill-elided=random:0 \
      --json "$OUT/plugrt_xla_hlo.json" || status=$?
  fi

  if [ "$TORCH" = 1 ]; then
    echo
    echo "== PyTorch eager ($THREADS threads)"
    "$PY" bench/torch_bench.py --threads "$THREADS" --json "$OUT/torch.json" "${TORCH_FLAGS[@]}" \
      "${NAMES[@]}"
    echo
    echo "== comparison"
    "$PY" bench/compare.py "$OUT/plugrt.json" "$OUT/torch.json" || status=$?
  else
    echo
    "$PY" bench/compare.py "$OUT/plugrt.json" || status=$?
  fi
  if [ -n "$PLOT" ]; then
    [ "$PLOT" = default ] && PLOT="$OUT/bench.svg"
    echo
    if [ "$TORCH" = 1 ]; then
      "$PY" bench/plot.py "$PLOT" "$OUT/plugrt.json" "$OUT/torch.json" || status=$?
    else
      "$PY" bench/plot.py "$PLOT" "$OUT/plugrt.json" || status=$?
    fi
  fi
fi

# The model set: generated here (seeded; the weights are the programs' arguments, which
# `plugrt bench` reads from NAME.args/ and uploads once, as a service passes pre-placed
# weights: the same values the peers run on), then each peer on the same models, shapes and
# threads.
if [ "$MODELS" = 1 ]; then
  MODEL_ARGS=()
  [ -n "$MODEL_NAMES" ] && IFS=, read -r -a MODEL_ARGS <<< "$MODEL_NAMES"
  MODEL_DIR="$OUT/models"
  rm -rf "$MODEL_DIR"
  mkdir -p "$MODEL_DIR"
  echo
  echo "== model set: generating (bench/models/gen_models.py)"
  "$PY" bench/models/gen_models.py --out "$MODEL_DIR" --args "${MODEL_ARGS[@]}" > /dev/null
  ORT_DIR="${PLUGRT_ORT_DIR:-build/ort}"
  ORT=0
  if [ "$TORCH" = 1 ]; then
    if ! command -v node > /dev/null || [ ! -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
      echo "bench.sh: no ONNX Runtime in $ORT_DIR (node + npm onnxruntime-node): run scripts/bench_setup.sh, or pass --no-torch" >&2
      exit 1
    fi
    ORT_DIR="$(cd "$ORT_DIR" && pwd)"  # node resolves the package from an absolute path
    ORT=1
    echo
    echo "== model set: do plugrt, PyTorch and ONNX Runtime agree? (the models' small twins against NumPy)"
    PLUGRT="$PLUGRT" "$PY" bench/models/compare_peers.py "$OUT/models_small" --generate --small \
      --threads "$THREADS" --plugrt "$PLUGRT" || status=$?
  fi
  echo
  echo "== model set: plugrt bench ($THREADS threads)"
  "$PLUGRT" bench --threads "$THREADS" --dir "$MODEL_DIR" --json "$OUT/plugrt_models.json" || status=$?
  PEER_JSON=()
  if [ "$TORCH" = 1 ]; then
    echo
    echo "== model set: PyTorch eager ($THREADS threads), and its ONNX export"
    "$PY" bench/torch_models.py --threads "$THREADS" --json "$OUT/torch_models.json" \
      --onnx "$MODEL_DIR/onnx" "${TORCH_FLAGS[@]}" "${MODEL_ARGS[@]}" || status=$?
    PEER_JSON+=(--torch "$OUT/torch_models.json")
  fi
  if [ "$ORT" = 1 ]; then
    echo
    echo "== model set: ONNX Runtime ($THREADS threads)"
    PLUGRT_ORT_DIR="$ORT_DIR" node bench/ort_models.js --dir "$MODEL_DIR/onnx" --threads "$THREADS" \
      --json "$OUT/ort_models.json" || status=$?
    PEER_JSON+=(--ort "$OUT/ort_models.json")
  fi
  echo
  echo "== model set: comparison"
  MODEL_PLOT=()
  [ -n "$PLOT" ] && MODEL_PLOT=(--plot "$OUT/models.svg")
  "$PY" bench/models/compare_models.py "$OUT/plugrt_models.json" "${PEER_JSON[@]}" \
    "${MODEL_PLOT[@]}" || status=$?
fi
if [ "$DISTRIBUTED" = 1 ]; then
  echo
  PLUGRT="$PLUGRT" scripts/bench_allreduce.sh || status=$?
fi
echo
echo "results in $OUT"
exit "$status"
