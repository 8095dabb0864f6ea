#!/usr/bin/env bash
# run_fuzzer.sh FUZZER SEED_DIR[:SEED_DIR...] WORK_DIR RUNS [libFuzzer flags...]
# One fixed-budget libFuzzer run for CTest: RUNS inputs from a fixed random
# seed, starting from the seed folders, so a failure reproduces with the same
# command.
# New inputs and any crash reproducer go to WORK_DIR (emptied first, so every
# run starts from the same corpus). libFuzzer exits non-zero on a crash, a
# leak, a sanitizer report or an abort() in the target.
set -euo pipefail
fuzzer="$1" seeds="$2" work="$3" runs="$4"
shift 4
IFS=: read -r -a seed_dirs <<< "$seeds"
for dir in "${seed_dirs[@]}"; do
  if [ -z "$(ls -A "$dir" 2>/dev/null)" ]; then
    echo "run_fuzzer.sh: no seeds in $dir" >&2
    exit 1
  fi
done
rm -rf "$work"
mkdir -p "$work"
exec "$fuzzer" -runs="$runs" -seed=1 -print_final_stats=1 -artifact_prefix="$work/" "$@" \
  "$work" "${seed_dirs[@]}"
