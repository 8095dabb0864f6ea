"""Compiling, calling, async results, donation and serialization."""

import os
import subprocess
import sys

import numpy as np
import pytest

import plugrt
from conftest import ADD_F32_2x3, DOUBLE_DONATED, SUM_AND_PRODUCT, aligned_array, corpus_dir

IDENTITY_F32_4 = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
"""


def test_called_like_a_function_on_buffers_and_arrays(client):
    add = client.compile(ADD_F32_2x3)
    assert add.num_outputs == 1
    assert add.output_shapes == [(2, 3)]
    assert add.output_element_types == ["f32"]
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    result = add(client.buffer(a), a + 1)
    assert isinstance(result, plugrt.Buffer)
    np.testing.assert_array_equal(result.to_numpy(), 2 * a + 1)


def test_several_outputs_come_back_as_a_tuple(client):
    both = client.compile(SUM_AND_PRODUCT)
    total, product = both(np.array([1, 2, 3], np.int32), np.array([4, 5, 6], np.int32))
    np.testing.assert_array_equal(total.to_numpy(), [5, 7, 9])
    np.testing.assert_array_equal(product.to_numpy(), [4, 10, 18])


def test_program_as_bytes_and_as_bytecode(client):
    add = client.compile(ADD_F32_2x3.encode())
    np.testing.assert_array_equal(add(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
                                  .to_numpy(), np.full((2, 3), 2.0))
    corpus = corpus_dir()
    if corpus is None:
        pytest.skip("the StableHLO corpus (../shared/stablehlo) is not here")
    artifact = (corpus / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc").read_bytes()
    assert artifact.startswith(b"ML\xefR")
    doubled = client.compile(artifact)  # func @main(x) = x + x
    assert float(doubled(np.float32(3.5)).to_numpy()) == 7.0


def test_compile_options_as_keywords(client):
    on_second = client.compile(IDENTITY_F32_4, device_ordinal=1)
    assert on_second.devices == [client.devices()[1]]
    assert on_second(np.ones(4, np.float32)).device == client.devices()[1]
    replicated = client.compile(IDENTITY_F32_4, num_replicas=2, device_assignment=[[1], [0]])
    assert replicated.num_replicas == 2
    assert replicated.devices == [client.devices()[1], client.devices()[0]]
    with pytest.raises(plugrt.Error) as info:
        client.compile(IDENTITY_F32_4, num_replicas=3)
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    with pytest.raises(TypeError):
        client.compile(IDENTITY_F32_4, no_such_option=1)


def test_execute_sharded_runs_one_argument_list_per_device(client):
    replicated = client.compile(ADD_F32_2x3, num_replicas=2)
    ones = np.ones((2, 3), np.float32)
    outputs = replicated.execute_sharded([[ones, ones], [ones, 2 * ones]])
    assert [o[0].device for o in outputs] == client.devices()
    np.testing.assert_array_equal(outputs[1][0].to_numpy(), 3 * ones)
    with pytest.raises(plugrt.Error) as info:
        replicated(ones, ones)
    assert "execute_sharded" in info.value.message


def test_portable_executable_runs_on_a_chosen_device(client):
    portable = client.compile(IDENTITY_F32_4, compile_portable_executable=True)
    out = portable(np.arange(4, dtype=np.float32), device=client.devices()[1])
    assert out.device == client.devices()[1]
    np.testing.assert_array_equal(out.to_numpy(), np.arange(4))


def test_call_async_returns_an_execution(client):
    add = client.compile(ADD_F32_2x3)
    ones = np.ones((2, 3), np.float32)
    execution = add.call_async(ones, ones)
    assert isinstance(execution.outputs, plugrt.Buffer)
    np.testing.assert_array_equal(execution.result().to_numpy(), 2 * ones)
    assert execution.is_ready()


def test_donated_argument_is_consumed_unless_protected(client):
    double = client.compile(DOUBLE_DONATED)
    donated = client.buffer(np.ones(4, np.float32))
    address = donated.unsafe_pointer()
    out = double(donated)
    assert donated.is_deleted()
    assert out.unsafe_pointer() == address  # the output reused the input's memory
    np.testing.assert_array_equal(out.to_numpy(), np.full(4, 2.0))
    with pytest.raises(plugrt.Error) as info:
        donated.to_numpy()
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION

    kept = client.buffer(np.ones(4, np.float32))
    double(kept, non_donatable=[0])
    assert not kept.is_deleted()
    np.testing.assert_array_equal(kept.to_numpy(), np.ones(4))


def test_a_viewed_buffer_is_not_overwritten_by_donation(client):
    double = client.compile(DOUBLE_DONATED)
    buffer = client.buffer(np.ones(4, np.float32))
    view = buffer.to_numpy()
    out = double(buffer)
    np.testing.assert_array_equal(view, np.ones(4))
    np.testing.assert_array_equal(out.to_numpy(), np.full(4, 2.0))


def test_donating_an_aliased_buffer_leaves_the_array_alone(client):
    double = client.compile(DOUBLE_DONATED)
    array = aligned_array(np.ones(4), np.float32)
    out = double(client.buffer(array, copy=False))
    np.testing.assert_array_equal(out.to_numpy(), np.full(4, 2.0))
    np.testing.assert_array_equal(array, np.ones(4))


def test_serialized_executable_loads_in_another_process(client, tmp_path):
    path = tmp_path / "add.pjrt"
    path.write_bytes(client.compile(ADD_F32_2x3).serialize())
    script = (
        "import sys, numpy as np, plugrt\n"
        "exe = plugrt.Client().deserialize(open(sys.argv[1], 'rb').read())\n"
        "a = np.arange(6, dtype=np.float32).reshape(2, 3)\n"
        "print(exe(a, a).to_numpy().sum())\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, env=os.environ.copy(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == 30.0


def test_serialize_and_deserialize(client):
    add = client.compile(ADD_F32_2x3)
    data = add.serialize()
    assert isinstance(data, bytes) and data
    loaded = client.deserialize(data)
    assert loaded.fingerprint() == add.fingerprint()
    ones = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(loaded(ones, ones).to_numpy(), 2 * ones)
    with pytest.raises(plugrt.Error) as info:
        client.deserialize(b"not an executable")
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_errors_carry_the_pjrt_code(client):
    with pytest.raises(plugrt.Error) as info:
        client.compile("func.func @main( {")
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert isinstance(info.value, RuntimeError)
    add = client.compile(ADD_F32_2x3)
    with pytest.raises(plugrt.Error) as info:
        add(np.ones((2, 3), np.float32))  # one argument short
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    with pytest.raises(plugrt.Error) as info:
        add(np.ones((3, 2), np.float32), np.ones((3, 2), np.float32))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_cost_analysis_and_delete(client):
    add = client.compile(ADD_F32_2x3)
    assert add.cost_analysis()["flops"] == 6.0
    add.delete()
    assert add.is_deleted()
    with pytest.raises(plugrt.Error):
        add(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))


def test_argument_layouts_are_checked_against_the_program(client):
    assert client.compile(IDENTITY_F32_4, argument_layouts=[(np.float32, (4,), (0,))]).num_outputs == 1
    assert client.compile(IDENTITY_F32_4, argument_layouts=[("f32", (4,))]).num_outputs == 1
    with pytest.raises(plugrt.Error) as info:
        client.compile(IDENTITY_F32_4, argument_layouts=[(np.float32, (5,))])
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert "f32[5]" in info.value.message


def test_calls_from_several_threads(client):
    import threading
    add = client.compile(ADD_F32_2x3)
    failures = []

    def work(k):
        a = np.full((2, 3), k, np.float32)
        for _ in range(20):
            if not np.array_equal(add(a, a).to_numpy(), 2 * a):
                failures.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
