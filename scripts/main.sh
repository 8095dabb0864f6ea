#!/usr/bin/env bash
# The main job: set up, build, and run plugrt on the built-in CPU plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
build/bin/plugrt devices --devices 4
