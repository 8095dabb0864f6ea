"""Fixtures shared by the plugrt Python tests (run with PYTHONPATH=build/python)."""

import os
import pathlib

import numpy as np
import pytest

import plugrt

ADD_F32_2x3 = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""

# Argument 0 may be donated: its memory can become the output's.
DOUBLE_DONATED = """
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

SUM_AND_PRODUCT = """
func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = stablehlo.add %a, %b : tensor<3xi32>
  %1 = stablehlo.multiply %a, %b : tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}
"""


@pytest.fixture(scope="session")
def client():
    return plugrt.Client(cpu_device_count=2)


def aligned_array(values, dtype, alignment=64):
    """A writable copy of `values` whose data starts on an `alignment` boundary."""
    values = np.asarray(values, dtype=dtype)
    raw = np.empty(values.nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    out = raw[offset:offset + values.nbytes].view(dtype).reshape(values.shape)
    out[...] = values
    return out


def corpus_dir():
    """The shared StableHLO corpus, or None where this checkout has none."""
    env = os.environ.get("PLUGRT_STABLEHLO_CORPUS")
    candidates = [pathlib.Path(env)] if env else []
    candidates.append(pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "stablehlo")
    for candidate in candidates:
        if (candidate / "vhlo").is_dir():
            return candidate
    return None
