"""plugrt.profile: a trace of what runs inside a with block, and its summary."""

import json

import numpy as np

import plugrt
import plugrt.eager as eager

from conftest import ADD_F32_2x3

SOFTMAX_ROWS = """
func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = stablehlo.exponential %x : tensor<64x128xf32> loc("model.py":4:8)
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32> loc("model.py":5:8)
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %d = stablehlo.divide %e, %b : tensor<64x128xf32> loc("model.py":6:8)
  return %d : tensor<64x128xf32>
}
"""


def _events(trace, category):
    return [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") == category]


def test_profile_writes_a_chrome_trace_and_a_summary(client, tmp_path):
    program = client.compile(SOFTMAX_ROWS)
    x = np.random.default_rng(0).standard_normal((64, 128)).astype(np.float32)
    path = tmp_path / "trace.json"
    with plugrt.profile(path, client) as p:
        for _ in range(3):
            program(x).to_numpy()
    trace = json.loads(path.read_text())
    kernels = _events(trace, "kernel")
    executes = _events(trace, "execute")
    assert len(executes) == 3
    # Each kernel belongs to an execution, and names where its ops came from.
    flows = {e["args"]["flow_id"] for e in executes}
    assert kernels and all(k["args"]["flow_id"] in flows for k in kernels)
    assert any("model.py:6:8" in k["args"].get("location", "") for k in kernels)
    assert all(k["args"]["bytes_written"] > 0 for k in kernels)
    # Client calls join the plugin's executions by their trace context id.
    calls = [e for e in _events(trace, "client") if e["name"] == "execute"]
    assert {c["args"]["flow_id"] for c in calls} == flows
    names = {m["args"]["name"] for m in trace["traceEvents"] if m.get("name") == "process_name"}
    assert names == {"plugrt CPU plugin", "plugrt client"}
    summary = (tmp_path / "trace.summary.txt").read_text()
    assert summary == p.summary
    assert "3 executions" in summary and "By op kind:" in summary and "model.py" in summary


def test_eager_ops_are_slices_with_their_cached_program(client, tmp_path):
    ctx = eager.Context(client)
    a = ctx.tensor(np.ones((2, 3), np.float32))
    ctx.op("stablehlo.add", a, a).numpy()  # compiled here, before the profile
    with plugrt.profile(tmp_path / "eager.json", client):
        ctx.op("stablehlo.add", a, a).numpy()
        ctx.op("stablehlo.multiply", a, a).numpy()
    trace = json.loads((tmp_path / "eager.json").read_text())
    ops = {e["name"]: e["args"] for e in _events(trace, "eager")}
    assert ops["stablehlo.add"]["cache_hit"] == 1
    assert ops["stablehlo.multiply"]["cache_hit"] == 0
    assert "stablehlo.multiply" in ops["stablehlo.multiply"]["program"]
    # The op's program ran as one kernel in the plugin.
    assert {"stablehlo.add", "stablehlo.multiply"} <= {k["name"] for k in _events(trace, "kernel")}


def test_nothing_is_recorded_outside_a_profile(client, tmp_path):
    add = client.compile(ADD_F32_2x3)
    a = np.ones((2, 3), np.float32)
    add(a, a).to_numpy()
    with plugrt.profile(tmp_path / "empty.json", client):
        pass
    trace = json.loads((tmp_path / "empty.json").read_text())
    assert _events(trace, "kernel") == [] and _events(trace, "execute") == []
