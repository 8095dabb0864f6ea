#!/usr/bin/env python3
"""Writes bench/bert_base_encoder.mlir: the hand-written set's BERT-base encoder (12 layers, width
768, 12 heads of 64, MLP 3072, post-layer-norm, erf GELU), f32, batch 8, sequence 128, from the
embedded sequence [8, 128, 768] (no embeddings, no mask), in the form PyTorch's exporters write
it. The program is the model set's (bench/models/bert.py, an `encoder_only` config: each nn.Linear
as a transpose of its [out, in] weight + dot_general + bias, layer norms as reduce chains, named
locations per module); this row compares it with the sgemm ceiling, as the hand-written set's
matmul rows do, where the model set states its limit.

Usage: gen_bert_encoder.py [OUTPUT] [--layers N] [--batch B] [--seq S]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "models"))
import bert  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output", nargs="?", default=os.path.join(HERE, "bert_base_encoder.mlir"))
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=128)
    a = parser.parse_args()
    cfg = dict(bert.BASE, layers=a.layers, batch=a.batch, seq=a.seq, encoder_only=True)
    lines = bert.program(cfg).split("\n")
    lines[0] = "// plugrt-bench: kind=execute metric=flops ceiling=sgemm"
    lines[1] = lines[1].replace("written by bench/models/bert.py", "written by bench/gen_bert_encoder.py "
                                "(bench/models/bert.py)")
    with open(a.output, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
