"""DLPack both ways, with NumPy and (where installed) PyTorch."""

import gc
import weakref

import numpy as np
import pytest

import plugrt
from conftest import aligned_array

try:
    import torch
except ImportError:  # CI images may have no PyTorch: those tests skip
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def test_dlpack_device_is_cpu(client):
    assert client.buffer(np.ones(2)).__dlpack_device__() == (1, 0)


def test_numpy_from_dlpack_shares_the_buffer_memory(client):
    buffer = client.buffer(np.arange(6, dtype=np.float32).reshape(2, 3))
    array = np.from_dlpack(buffer)
    assert array.ctypes.data == buffer.unsafe_pointer()
    np.testing.assert_array_equal(array, np.arange(6).reshape(2, 3))
    # The array outlives the Buffer object.
    del buffer
    gc.collect()
    np.testing.assert_array_equal(array, np.arange(6).reshape(2, 3))


def test_from_dlpack_of_a_numpy_array_is_a_view(client):
    array = aligned_array(np.arange(12).reshape(3, 4), np.int32)
    buffer = plugrt.from_dlpack(array, client.devices()[1])
    assert buffer.device == client.devices()[1]
    assert buffer.unsafe_pointer() == array.ctypes.data
    array[2, 3] = -7
    assert buffer.to_numpy(copy=True)[2, 3] == -7


def test_an_imported_array_is_released_with_the_buffer(client):
    array = aligned_array(np.arange(8), np.float32)
    ref = weakref.ref(array)
    buffer = plugrt.from_dlpack(array)
    del array
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(buffer.to_numpy(copy=True), np.arange(8))
    del buffer
    gc.collect()
    assert ref() is None


def test_from_dlpack_copies_strided_sources(client):
    array = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2]
    buffer = plugrt.from_dlpack(array)
    np.testing.assert_array_equal(buffer.to_numpy(), array)


def test_a_capsule_is_consumed_once(client):
    capsule = client.buffer(np.ones(3, np.float32)).__dlpack__()
    first = plugrt.from_dlpack(capsule)
    np.testing.assert_array_equal(first.to_numpy(), np.ones(3))
    with pytest.raises(plugrt.Error) as info:
        plugrt.from_dlpack(capsule)
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_dlpack_copy_true_exports_separate_memory(client):
    buffer = client.buffer(np.arange(4, dtype=np.float32))
    array = np.from_dlpack(plugrt.from_dlpack(buffer.__dlpack__(copy=True)))
    assert array.ctypes.data != buffer.unsafe_pointer()
    np.testing.assert_array_equal(array, np.arange(4))


def test_objects_without_dlpack_are_refused():
    with pytest.raises(plugrt.Error) as info:
        plugrt.from_dlpack([1, 2, 3])
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


@needs_torch
def test_torch_from_dlpack_shares_memory(client):
    buffer = client.buffer(np.arange(5, dtype=np.float32))
    tensor = torch.from_dlpack(buffer)
    assert tensor.data_ptr() == buffer.unsafe_pointer()
    tensor[1] = 42.0
    assert buffer.to_numpy(copy=True)[1] == 42.0


@needs_torch
def test_plugrt_from_torch_shares_memory(client):
    tensor = torch.arange(10, dtype=torch.float64)
    buffer = plugrt.from_dlpack(tensor)
    assert buffer.unsafe_pointer() == tensor.data_ptr()
    tensor[3] = -1.0
    assert buffer.to_numpy(copy=True)[3] == -1.0
    del tensor
    gc.collect()
    assert buffer.to_numpy(copy=True)[9] == 9.0


@needs_torch
def test_torch_receives_bfloat16(client):
    to_bf16 = client.compile("""
      func.func @main(%a: tensor<2xf32>) -> tensor<2xbf16> {
        %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xbf16>
        return %0 : tensor<2xbf16>
      }""")
    out = to_bf16(np.array([1.5, -2.0], np.float32))
    tensor = torch.from_dlpack(out)
    assert tensor.dtype == torch.bfloat16
    assert tensor.float().tolist() == [1.5, -2.0]
    back = plugrt.from_dlpack(tensor)
    assert back.element_type == "bf16"
