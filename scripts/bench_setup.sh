#!/usr/bin/env bash
# Installs what the benchmarks need: everything scripts/setup.sh installs, plus
# python3-torch (PyTorch, for bench/torch_bench.py and bench/check_programs.py only;
# the build and the tests never use it; it brings python3-numpy). Idempotent, like
# scripts/setup.sh, which does the work.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/setup.sh python3-torch
