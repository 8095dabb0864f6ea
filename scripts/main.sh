#!/usr/bin/env bash
# The main job: set up, build, and run a StableHLO program (an MLP forward
# pass, examples/mlp.mlir) on the built-in CPU plugin, printing its output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
build/bin/plugrt run examples/mlp.mlir
