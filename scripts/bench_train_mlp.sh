#!/usr/bin/env bash
# Training speed of examples/train_mlp.cc (an MLP 784-256-256-10, SGD with momentum) in each of
# its modes against PyTorch eager training the same model on the same data
# (bench/torch_train_mlp.py), all in one run with the same threads: steps per second and the
# final loss of each, and each mode's speed as a ratio to PyTorch's (above 1: plugrt is faster).
#
# Usage: scripts/bench_train_mlp.sh [--threads N] [--epochs N] [--samples N] [--batch N] [--no-torch]
#   modes: eager tape on 1 device; tape data-parallel over 2 CPU devices; compiled gradient
#   program on 1 device; compiled, data-parallel over 2.
# Builds build/bin/train_mlp with scripts/build.sh first if it is missing. PyTorch comes from
# Debian's python3-torch (scripts/bench_setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

THREADS="$(nproc)"
EPOCHS=3
SAMPLES=4096
BATCH=128
TORCH=1
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) THREADS="$2"; shift 2 ;;
    --epochs) EPOCHS="$2"; shift 2 ;;
    --samples) SAMPLES="$2"; shift 2 ;;
    --batch) BATCH="$2"; shift 2 ;;
    --no-torch) TORCH=0; shift ;;
    *) echo "bench_train_mlp: unknown argument $1" >&2; exit 2 ;;
  esac
done

BIN="${TRAIN_MLP:-build/bin/train_mlp}"
if [ ! -x "$BIN" ]; then scripts/build.sh >/dev/null; fi
COMMON=(--epochs "$EPOCHS" --samples "$SAMPLES" --batch "$BATCH" --max-loss 1e9)
export PLUGRT_THREADS="$THREADS"

# "<steps/s> <final loss>" from a run's summary line.
summary() {
  sed -n 's/.* \([0-9.]*\) steps\/s; final loss \([0-9.]*\).*/\1 \2/p' | tail -1
}

declare -A RATE LOSS
run_mode() {
  local name="$1"
  shift
  local line
  line="$("$@" | tr '\r' '\n' | summary)"
  if [ -z "$line" ]; then
    echo "bench_train_mlp: $name printed no summary" >&2
    exit 1
  fi
  RATE[$name]="${line% *}"
  LOSS[$name]="${line#* }"
}

MODES=(eager eager_2_devices compiled compiled_2_devices)
run_mode eager "$BIN" "${COMMON[@]}"
run_mode eager_2_devices "$BIN" "${COMMON[@]}" --devices 2
run_mode compiled "$BIN" "${COMMON[@]}" --compiled
run_mode compiled_2_devices "$BIN" "${COMMON[@]}" --compiled --devices 2
if [ "$TORCH" = 1 ]; then
  run_mode pytorch /usr/bin/python3 bench/torch_train_mlp.py --epochs "$EPOCHS" \
    --samples "$SAMPLES" --batch "$BATCH" --threads "$THREADS"
fi

echo "train_mlp: $EPOCHS epochs of $SAMPLES samples, batch $BATCH, $THREADS threads"
printf '%-22s %12s %12s %14s\n' mode "steps/s" "final loss" "vs pytorch"
for mode in "${MODES[@]}" ${TORCH:+pytorch}; do
  [ -n "${RATE[$mode]:-}" ] || continue
  versus="-"
  if [ -n "${RATE[pytorch]:-}" ]; then
    versus="$(awk -v a="${RATE[$mode]}" -v b="${RATE[pytorch]}" 'BEGIN { printf "%.2fx", a / b }')"
  fi
  printf '%-22s %12s %12s %14s\n' "$mode" "${RATE[$mode]}" "${LOSS[$mode]}" "$versus"
done
