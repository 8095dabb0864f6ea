#!/usr/bin/python3
"""bench/plot.py (scripts/bench.sh --plot): draws one group of bars per workload from the
JSON plugrt bench and bench/torch_bench.py write, leaves PyTorch out when bench/compare.py
would refuse its run, and writes SVG or PNG by the file's suffix."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "plot.py")

PLUGRT = {
    "machine": {"cpu": "test cpu", "threads": 2},
    "ceilings": [{"name": "sgemm_1024", "gflops": 150.0}],
    "workloads": [
        {"name": "gemm_1024", "kind": "execute", "median_ms": 15.0, "metric": "flops",
         "gflops": 143.2, "ceiling_name": "sgemm_1024", "ratio_to_ceiling": 0.5},
        {"name": "softmax_rows", "kind": "execute", "median_ms": 2.0},
    ],
}


def torch_results(reference):
    return {"torch_version": "1.13.1", "threads": 2,
            "blas": {"file": "libblas.so.3", "package": "x", "reference": reference},
            "workloads": [{"name": "gemm_1024", "median_ms": 30.0},
                          {"name": "softmax_rows", "median_ms": 1.0}]}


class PlotTest(unittest.TestCase):
    def run_plot(self, out_name, torch):
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, out_name), os.path.join(tmp, "plugrt.json")]
            with open(paths[1], "w") as f:
                json.dump(PLUGRT, f)
            if torch is not None:
                paths.append(os.path.join(tmp, "torch.json"))
                with open(paths[2], "w") as f:
                    json.dump(torch, f)
            result = subprocess.run([sys.executable, PLOT] + paths, capture_output=True,
                                    text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("(2 workloads)", result.stdout)
            with open(paths[0], "rb") as f:
                return f.read()

    def test_svg_names_each_workload_and_series(self):
        svg = self.run_plot("bench.svg", torch_results(False)).decode()
        self.assertTrue(svg.lstrip().startswith("<?xml"))
        for text in ("gemm_1024", "softmax_rows", "PyTorch eager", "ceiling", "plugrt"):
            self.assertIn(text, svg)

    def test_pytorch_on_the_reference_blas_is_left_out(self):
        svg = self.run_plot("bench.svg", torch_results(True)).decode()
        self.assertIn("PyTorch left out", svg)
        self.assertNotIn("PyTorch eager", svg)

    def test_png_by_suffix(self):
        png = self.run_plot("bench.png", None)
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
