#!/usr/bin/python3
"""bench/compare.py: ratios against PyTorch only when PyTorch ran on a known, non-reference
BLAS, and dispatch stated as a ratio to torch.add from the same run. Standard library only;
runs compare.py as scripts/bench.sh does, on JSON shaped like what plugrt bench and
bench/torch_bench.py write."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

COMPARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "compare.py")

PLUGRT = {
    "machine": {"cpu": "test cpu", "threads": 2},
    "ceilings": [{"name": "sgemm_1024", "gflops": 150.0}],
    "workloads": [
        {"name": "gemm_1024", "kind": "execute", "median_ms": 15.0, "metric": "flops",
         "gflops": 143.2, "ceiling_name": "sgemm_1024", "ratio_to_ceiling": 0.95},
        {"name": "dispatch_scalar_add", "kind": "dispatch", "median_ms": 0.00127},
    ],
}

OPENBLAS = {"file": "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3",
            "package": "libopenblas0-pthread", "name": "OpenBLAS (pthreads)", "details": None,
            "reference": False, "libblas_so_3": [], "mapped": []}
REFERENCE = {"file": "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0", "package": "libblas3",
             "name": "reference BLAS (netlib)", "details": None, "reference": True,
             "libblas_so_3": [], "mapped": []}


def torch_results(blas):
    result = {"torch_version": "1.13.1", "threads": 2, "workloads": [
        {"name": "gemm_1024", "median_ms": 30.0},
        {"name": "dispatch_scalar_add", "median_ms": 0.00103},
    ]}
    if blas is not None:
        result["blas"] = blas
    return result


class CompareTest(unittest.TestCase):
    def run_compare(self, *documents):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, doc in enumerate(documents):
                paths.append(os.path.join(tmp, f"{i}.json"))
                with open(paths[-1], "w") as f:
                    json.dump(doc, f)
            return subprocess.run([sys.executable, COMPARE] + paths, capture_output=True,
                                  text=True, timeout=60)

    def test_optimized_blas_gets_ratios_and_dispatch_against_torch_add(self):
        out = self.run_compare(PLUGRT, torch_results(OPENBLAS))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("pytorch BLAS: OpenBLAS (pthreads) [libopenblas0-pthread]", out.stdout)
        self.assertIn("2.00x", out.stdout)  # gemm: 30 ms / 15 ms
        self.assertIn("plugrt takes 1.23x the time of PyTorch's torch.add", out.stdout)
        self.assertIn("1.270 us per execute against 1.030 us per call", out.stdout)

    def test_reference_blas_gets_no_ratio(self):
        out = self.run_compare(PLUGRT, torch_results(REFERENCE))
        self.assertEqual(out.returncode, 1)
        self.assertIn("reference BLAS", out.stderr)
        self.assertIn("scripts/bench_setup.sh", out.stderr)
        self.assertNotIn("2.00x", out.stdout)
        self.assertNotIn("30.000 ms", out.stdout)  # no PyTorch time beside plugrt's either
        self.assertNotIn("torch.add", out.stdout)

    def test_unrecorded_blas_gets_no_ratio(self):
        out = self.run_compare(PLUGRT, torch_results(None))
        self.assertEqual(out.returncode, 1)
        self.assertIn("do not say which BLAS", out.stderr)
        self.assertNotIn("2.00x", out.stdout)

    def test_plugrt_alone_says_dispatch_has_nothing_to_compare_with(self):
        out = self.run_compare(PLUGRT)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("dispatch (scalar add): plugrt 1.270 us per execute; no PyTorch figure",
                      out.stdout)

    def test_eager_rows_against_torch_add_and_fused(self):
        plugrt = json.loads(json.dumps(PLUGRT))
        plugrt["workloads"] += [
            {"name": "eager_add", "kind": "eager", "median_ms": 0.0025, "iterations": 100000,
             "ops": 1, "us_per_op": 2.5, "fused_median_ms": 0.0012, "eager_vs_fused": 2.08},
            {"name": "eager_chain20", "kind": "eager", "median_ms": 60.0, "iterations": 1,
             "ops": 20, "us_per_op": 3000.0, "fused_median_ms": 40.0, "eager_vs_fused": 1.5},
        ]
        torch = torch_results(OPENBLAS)
        torch["workloads"] += [{"name": "eager_add", "median_ms": 0.002},
                               {"name": "eager_chain20", "median_ms": 90.0}]
        out = self.run_compare(plugrt, torch)
        self.assertEqual(out.returncode, 0, out.stderr)
        # eager_add is per op in us, like dispatch, in the table and below it.
        self.assertIn("2.500 us", out.stdout)
        self.assertIn("eager (eager_add): plugrt 2.500 us per eager op (the same program "
                      "compiled: 1.200 us per execute); 1.25x the time of PyTorch's torch.add",
                      out.stdout)
        self.assertIn("eager (eager_chain20): plugrt eager 60.000 ms for 20 ops, fused 40.000 ms "
                      "(eager/fused 1.50); PyTorch eager 90.000 ms", out.stdout)
        self.assertIn("1.50x", out.stdout)  # speed-up column: 90 ms / 60 ms


if __name__ == "__main__":
    unittest.main()
