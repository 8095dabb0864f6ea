#!/usr/bin/env bash
# The main job: set up, build, then run a real model as frameworks export it on the built-in
# CPU plugin. First a small StableHLO program (an MLP forward pass, examples/mlp.mlir) with its
# printed output; then a BERT-base encoder in the form PyTorch exports it (12 layers, width 768,
# embeddings and attention mask; batch 1, sequence 128), generated on the spot with seeded
# weights that are passed as pre-placed device buffers, timed by `plugrt bench` against this
# machine's limit for it, measured in the same run (the larger of its FLOPs at oneDNN's sgemm
# rate and the bytes it must move at the measured memory bandwidth), with each stage and run
# shown as it happens.
#   MODEL=<name>  another model of the set (bench/models/gen_models.py --list)
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL="${MODEL:-bert_base_b1_s128}"
echo "== [1/4] set-up (Debian packages)"
scripts/setup.sh
echo "== [2/4] build"
scripts/build.sh build
echo "== [3/4] a small program: examples/mlp.mlir"
build/bin/plugrt run examples/mlp.mlir
echo "== [4/4] a real model: $MODEL, generated with seeded weights (bench/models/)"
rm -rf build/main_model
/usr/bin/python3 bench/models/gen_models.py --out build/main_model --args "$MODEL"
build/bin/plugrt bench --dir build/main_model --progress
