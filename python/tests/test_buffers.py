"""Buffers from and to NumPy arrays: values, zero-copy and lifetimes."""

import gc
import weakref

import numpy as np
import pytest

import plugrt
from conftest import aligned_array


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64,
                                   np.float16, np.float32, np.float64, np.complex64])
def test_round_trip_keeps_values_shape_and_dtype(client, dtype):
    array = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    buffer = client.buffer(array)
    assert buffer.shape == (3, 4)
    assert buffer.ndim == 2 and buffer.size == 12
    assert buffer.dtype == np.dtype(dtype)
    back = buffer.to_numpy()
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, array)
    np.testing.assert_array_equal(np.asarray(buffer), array)


def test_buffer_on_a_chosen_device_and_memory(client):
    device = client.devices()[1]
    buffer = client.buffer(np.ones(3, np.float32), device)
    assert buffer.device == device
    pinned = [m for m in device.memories() if m.kind == "pinned_host"][0]
    on_pinned = client.buffer(np.ones(3, np.float32), pinned)
    assert on_pinned.memory == pinned
    moved = buffer.copy_to(client.devices()[0])
    assert moved.device == client.devices()[0]
    np.testing.assert_array_equal(moved.to_numpy(), np.ones(3))


def test_strided_and_reversed_arrays_are_copied_correctly(client):
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    for view in (base[:, ::2], base[::-1], base.T, np.broadcast_to(np.arange(3), (2, 3))):
        np.testing.assert_array_equal(client.buffer(view).to_numpy(), view)


def test_copy_false_aliases_the_array(client):
    array = aligned_array(np.arange(16), np.float32)
    buffer = client.buffer(array, copy=False)
    assert buffer.unsafe_pointer() == array.ctypes.data
    # The caller broke the promise not to write: the buffer shows it, which
    # proves the memory is shared.
    array[0] = 99
    assert buffer.to_numpy(copy=True)[0] == 99


def test_copy_true_does_not_alias(client):
    array = aligned_array(np.arange(16), np.float32)
    buffer = client.buffer(array, copy=True)
    assert buffer.unsafe_pointer() != array.ctypes.data
    array[0] = 99
    assert buffer.to_numpy()[0] == 0


def test_read_only_arrays_alias_by_default_writable_ones_copy(client):
    array = aligned_array(np.arange(16), np.float32)
    assert client.buffer(array).unsafe_pointer() != array.ctypes.data
    array.setflags(write=False)
    assert client.buffer(array).unsafe_pointer() == array.ctypes.data


def test_copy_false_refuses_what_cannot_be_aliased(client):
    misaligned = aligned_array(np.arange(17), np.float32)[1:]
    with pytest.raises(plugrt.Error) as info:
        client.buffer(misaligned, copy=False)
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    with pytest.raises(plugrt.Error):
        client.buffer(np.arange(10, dtype=np.float32)[::-1], copy=False)


def test_an_aliased_array_lives_as_long_as_the_buffer(client):
    array = aligned_array(np.arange(1000), np.float64)
    buffer = client.buffer(array, copy=False)
    del array
    gc.collect()
    # Allocate over any freed memory; the buffer's data must be intact.
    _ = [np.full(1000, -1.0) for _ in range(50)]
    np.testing.assert_array_equal(buffer.to_numpy(copy=True), np.arange(1000))


def test_an_aliased_array_is_released_when_the_plugin_lets_go(client):
    array = aligned_array(np.arange(16), np.float32)
    ref = weakref.ref(array)
    buffer = client.buffer(array, copy=False)
    del array
    gc.collect()
    assert ref() is not None
    del buffer
    gc.collect()
    assert ref() is None


def test_numpy_view_shares_memory_and_keeps_the_buffer(client):
    buffer = client.buffer(np.arange(8, dtype=np.int64))
    view = buffer.to_numpy()
    assert view.ctypes.data == buffer.unsafe_pointer()
    assert not view.flags.writeable
    copy = buffer.to_numpy(copy=True)
    assert copy.ctypes.data != buffer.unsafe_pointer() and copy.flags.writeable
    # The view holds the memory even once the buffer is deleted and dropped.
    buffer.delete()
    assert buffer.is_deleted()
    del buffer
    gc.collect()
    np.testing.assert_array_equal(view, np.arange(8))


def test_deleted_buffer_raises_with_a_code(client):
    buffer = client.buffer(np.zeros(2, np.float32))
    buffer.delete()
    with pytest.raises(plugrt.Error) as info:
        buffer.to_numpy()
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION
    assert "deleted" in repr(buffer)


def test_unsupported_dtype_is_invalid_argument(client):
    with pytest.raises(plugrt.Error) as info:
        client.buffer(np.array(["a", "b"]))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_empty_and_scalar_arrays(client):
    empty = client.buffer(np.zeros((0, 3), np.float32))
    assert empty.shape == (0, 3)
    assert empty.to_numpy().shape == (0, 3)
    scalar = client.buffer(np.float64(2.5))
    assert scalar.shape == ()
    assert float(scalar.to_numpy()) == 2.5


def test_block_until_ready_returns_the_buffer(client):
    buffer = client.buffer(np.ones(4, np.float32))
    assert buffer.block_until_ready() is buffer
    assert buffer.is_ready()


def test_types_numpy_lacks_say_so(client):
    to_bf16 = client.compile("""
      func.func @main(%a: tensor<2xf32>) -> tensor<2xbf16> {
        %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xbf16>
        return %0 : tensor<2xbf16>
      }""")
    out = to_bf16(np.array([1.5, -2.0], np.float32))
    assert out.element_type == "bf16"
    try:
        import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)
    except ImportError:
        with pytest.raises(plugrt.Error) as info:
            out.to_numpy()
        assert info.value.code == plugrt.ErrorCode.UNIMPLEMENTED
        assert "bfloat16" in info.value.message
    else:
        np.testing.assert_array_equal(out.to_numpy().astype(np.float32), [1.5, -2.0])


def test_array_protocol_takes_a_dtype(client):
    converted = np.asarray(client.buffer(np.arange(3, dtype=np.int32)), dtype=np.float64)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted, [0.0, 1.0, 2.0])
