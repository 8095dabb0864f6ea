"""plugrt.eager: ops one at a time on tensors."""

import warnings

import numpy as np
import pytest

import plugrt
import plugrt.eager as eager


@pytest.fixture(scope="module")
def ctx(client):
    return eager.Context(client)


def test_ops_compute_and_results_come_back(ctx):
    x = ctx.tensor(np.array([[1, -2, 3], [4, 5, -6]], np.float32))
    w = ctx.tensor(np.array([[1, 0], [0, 1], [1, 1]], np.float32))
    xw = ctx.op("stablehlo.dot_general", x, w,
                lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])
    assert xw.shape == (2, 2) and xw.dtype == np.float32 and xw.device == "cpu:0"
    np.testing.assert_array_equal(xw.numpy(), [[4, 1], [-2, -1]])
    relu = ctx.op("stablehlo.maximum", xw, np.zeros((2, 2), np.float32))  # arrays as inputs
    sums = ctx.op("stablehlo.reduce", [relu], [np.float32(0)], dimensions=[1],
                  body=eager.Reducer.ADD)  # lists are list inputs
    np.testing.assert_array_equal(np.asarray(sums), [5, 0])


def test_attribute_kinds(ctx):
    x = ctx.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert ctx.op("stablehlo.reshape", x, shape=(3, 2)).shape == (3, 2)  # tuple: a shape
    as_int = ctx.op("stablehlo.convert", x, element_type=np.int32)  # dtype: an element type
    assert as_int.dtype == np.int32
    iota = ctx.op("stablehlo.iota", shape=(4,), element_type=np.int64, iota_dimension=0)
    np.testing.assert_array_equal(iota.numpy(), np.arange(4))
    const = ctx.op("stablehlo.constant", value=np.array([[1.5, 2.5]], np.float64))  # ndarray
    np.testing.assert_array_equal(const.numpy(), [[1.5, 2.5]])
    with pytest.raises(plugrt.Error) as info:
        ctx.op("stablehlo.reshape", x, shape=object())
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert "shape" in info.value.message


def test_loaded_functions_run_as_ops(ctx):
    ctx.load_functions("""
      func.func @square(%a: tensor<3xi32>) -> tensor<3xi32> {
        %0 = stablehlo.multiply %a, %a : tensor<3xi32>
        return %0 : tensor<3xi32>
      }""")
    np.testing.assert_array_equal(ctx.op("square", np.array([1, 2, 3], np.int32)).numpy(), [1, 4, 9])


def test_errors_name_the_op_and_carry_a_code(ctx):
    a = ctx.tensor(np.ones((2, 3), np.float32))
    with pytest.raises(plugrt.Error) as info:
        ctx.op("stablehlo.add", a, ctx.tensor(np.ones((3, 2), np.float32)))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert "stablehlo.add" in info.value.message
    with pytest.raises(plugrt.Error) as info:
        ctx.op("stablehlo.no_such_op", a)
    assert info.value.code == plugrt.ErrorCode.UNIMPLEMENTED


def test_devices_and_placement(client):
    ctx = eager.Context(client)
    assert ctx.devices == ["cpu:0", "cpu:1"]
    on_1 = ctx.tensor(np.ones(2, np.float32), "cpu:1")
    assert on_1.device == "cpu:1"
    assert ctx.op("stablehlo.add", on_1, on_1).device == "cpu:1"  # follows its input
    assert on_1.copy_to("cpu:0").device == "cpu:0"
    ctx.default_device = "cpu:1"
    assert ctx.tensor(np.ones(1)).device == "cpu:1"

    refusing = eager.Context(client, placement="refuse")
    t = refusing.tensor(np.ones(2, np.float32), "cpu:1")
    with pytest.raises(plugrt.Error) as info:
        refusing.op("stablehlo.add", t, t, device="cpu:0")
    assert "cpu:1" in info.value.message

    warning = eager.Context(client, placement="warn")
    t = warning.tensor(np.ones(2, np.float32), "cpu:1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = warning.op("stablehlo.add", t, t, device="cpu:0")
    assert out.device == "cpu:0"
    assert any("cpu:1 to cpu:0" in str(w.message) for w in caught)
    with pytest.raises(plugrt.Error):
        eager.Context(client, placement="sometimes")


def test_async_context_queues_ops(client):
    ctx = eager.Context(client, asynchronous=True)
    assert ctx.is_async
    a = ctx.tensor(np.arange(3, dtype=np.float32))
    b = ctx.op("stablehlo.add", a, a)
    c = ctx.op("stablehlo.multiply", b, b)
    ctx.wait()
    assert c.is_ready()
    np.testing.assert_array_equal(c.numpy(), [0, 4, 16])


def test_program_cache_is_reused(client):
    ctx = eager.Context(client)
    a = ctx.tensor(np.ones(4, np.float32))
    for _ in range(3):
        ctx.op("stablehlo.add", a, a)
    stats = ctx.cache_stats()
    assert stats["misses"] == 1 and stats["hits"] == 2


def test_tensors_share_memory_through_buffers_and_dlpack(ctx):
    t = ctx.op("stablehlo.add", np.ones(3, np.float32), np.ones(3, np.float32))
    buffer = t.to_buffer()
    assert isinstance(buffer, plugrt.Buffer)
    shared = np.from_dlpack(t)
    assert shared.ctypes.data == buffer.unsafe_pointer()
    np.testing.assert_array_equal(shared, [2, 2, 2])
