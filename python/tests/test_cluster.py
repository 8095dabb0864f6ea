"""plugrt.eager clusters: a `plugrt serve` worker on a loopback port it picks, its devices in
an eager context, ops run there, and specs removed and refused."""
import os
import subprocess

import numpy as np
import pytest

import plugrt
import plugrt.eager


@pytest.fixture
def worker(tmp_path):
    cli = os.environ.get("PLUGRT_CLI")
    remote = os.environ.get("PLUGRT_REMOTE_PLUGIN")
    if not cli or not remote:
        pytest.skip("PLUGRT_CLI and PLUGRT_REMOTE_PLUGIN name the tool and the remote plugin")
    token = tmp_path / "token"
    token.write_text("python-cluster-test-token-0123456789\n")
    process = subprocess.Popen([cli, "serve", "--listen", "127.0.0.1:0", "--token-file",
                                str(token)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        line = process.stdout.readline()  # "plugrt serve: listening on 127.0.0.1:PORT (...)"
        assert "listening on" in line, line
        port = int(line.split("listening on ")[1].split()[0].rsplit(":", 1)[1])
        yield {"address": f"127.0.0.1:{port}", "token": str(token), "plugin": remote}
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_ops_run_on_a_remote_task(worker):
    ctx = plugrt.eager.Context()
    ctx.set_cluster_spec(f"worker={worker['address']}", token_file=worker["token"],
                         plugin=worker["plugin"])
    remote = "/job:worker/task:0/device:cpu:0"
    assert remote in ctx.devices
    assert ctx.cluster_spec == f"worker={worker['address']}"
    x = ctx.tensor(np.array([1.5, -2.0, 3.0], np.float32), device=remote)
    y = ctx.op("stablehlo.multiply", x, x, device=remote)
    np.testing.assert_array_equal(y.numpy(), [2.25, 4.0, 9.0])
    # An empty spec removes the task; its tensors then say why they cannot be read.
    ctx.set_cluster_spec("")
    assert not any(name.startswith("/job:") for name in ctx.devices)
    with pytest.raises(plugrt.Error) as info:
        y.numpy()
    assert "worker" in info.value.message


def test_bad_specs_are_refused(worker):
    ctx = plugrt.eager.Context()
    with pytest.raises(plugrt.Error) as info:
        ctx.set_cluster_spec("worker=no-port", token_file=worker["token"], plugin=worker["plugin"])
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    # A wrong token: the worker refuses before anything runs, and the context keeps no task.
    wrong = os.path.join(os.path.dirname(worker["token"]), "wrong")
    with open(wrong, "w") as f:
        f.write("not-the-token-0123456789\n")
    with pytest.raises(plugrt.Error):
        ctx.set_cluster_spec(f"worker={worker['address']}", token_file=wrong,
                             plugin=worker["plugin"])
    assert not any(name.startswith("/job:") for name in ctx.devices)
