"""A Python process started by a cluster launcher joins its job: two processes
with torchrun-style variables (and, where Open MPI's mpirun is installed, two
started by it) see each other's devices and sum across processes."""
import os
import shutil
import socket
import subprocess
import sys
import textwrap

import pytest

import plugrt

SCRIPT = textwrap.dedent("""
    import numpy as np
    import plugrt
    client = plugrt.Client()
    program = '''
    module @sum attributes {mhlo.num_replicas = 2 : i32} {
      func.func @main() -> tensor<2xf32> {
        %r = stablehlo.replica_id : tensor<ui32>
        %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
        %b = stablehlo.broadcast_in_dim %rf, dims = [] : (tensor<f32>) -> tensor<2xf32>
        %sum = "stablehlo.all_reduce"(%b) ({
          ^bb0(%p: tensor<f32>, %q: tensor<f32>):
            %s = stablehlo.add %p, %q : tensor<f32>
            stablehlo.return %s : tensor<f32>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
        return %sum : tensor<2xf32>
      }
    }
    '''
    outputs = client.compile(program, num_replicas=2).execute_sharded([[]])
    print("process", client.process_index, "of", len(client.devices()), "devices:",
          outputs[0][0].to_numpy().tolist(), flush=True)
""")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_pair(envs):
    env_base = dict(os.environ)
    for key in ("RANK", "WORLD_SIZE", "PLUGRT_NODE_ID", "PLUGRT_NUM_NODES", "PLUGRT_KV_STORE"):
        env_base.pop(key, None)
    processes = [subprocess.Popen([sys.executable, "-c", SCRIPT], env={**env_base, **env},
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for env in envs]
    return [p.communicate(timeout=120)[0] for p in processes], [p.returncode for p in processes]


def test_torchrun_style_processes_join_one_job():
    port = free_port()
    outputs, codes = run_pair([{"RANK": str(r), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1",
                                "MASTER_PORT": str(port)} for r in range(2)])
    assert codes == [0, 0], outputs
    for rank, output in enumerate(outputs):
        assert f"process {rank} of 2 devices: [1.0, 1.0]" in output, output


def test_a_partial_environment_is_an_error_and_join_job_false_ignores_it(monkeypatch):
    monkeypatch.setenv("RANK", "0")
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    with pytest.raises(plugrt.Error) as info:
        plugrt.Client()
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert "WORLD_SIZE" in info.value.message
    assert len(plugrt.Client(join_job=False).devices()) == 1
