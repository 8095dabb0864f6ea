"""DLPack both ways, with NumPy and (where installed) PyTorch."""

import ctypes
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


# DLPack 1.0: the versioned capsule, read through ctypes as a consumer would.
class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class _Versioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER),
                ("flags", ctypes.c_uint64), ("dl_tensor", _Tensor)]


_READ_ONLY, _IS_COPIED = 1, 2
_api = ctypes.pythonapi
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_New.restype = ctypes.py_object


def _versioned_of(capsule):
    assert _api.PyCapsule_IsValid(capsule, b"dltensor_versioned")
    return _Versioned.from_address(_api.PyCapsule_GetPointer(capsule, b"dltensor_versioned"))


def test_a_consumer_asking_for_version_1_gets_a_versioned_capsule(client):
    buffer = client.buffer(np.arange(6, dtype=np.float32).reshape(2, 3))
    capsule = buffer.__dlpack__(max_version=(1, 0))
    managed = _versioned_of(capsule)
    assert (managed.major, managed.minor, managed.flags) == (1, 0, 0)
    tensor = managed.dl_tensor
    assert tensor.data == buffer.unsafe_pointer()
    assert (tensor.ndim, tensor.shape[0], tensor.shape[1]) == (2, 2, 3)
    assert (tensor.dtype.code, tensor.dtype.bits) == (2, 32)  # kDLFloat
    shared = plugrt.from_dlpack(capsule)
    assert shared.unsafe_pointer() == buffer.unsafe_pointer()
    assert not _api.PyCapsule_IsValid(capsule, b"dltensor_versioned")  # consumed


def test_older_max_versions_get_the_unversioned_capsule(client):
    capsule = client.buffer(np.ones(2)).__dlpack__(max_version=(0, 8))
    assert _api.PyCapsule_IsValid(capsule, b"dltensor")
    with pytest.raises(plugrt.Error) as info:
        client.buffer(np.ones(2)).__dlpack__(max_version=(1,))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_a_versioned_copy_is_flagged_as_copied(client):
    buffer = client.buffer(np.arange(3, dtype=np.int64))
    managed = _versioned_of(buffer.__dlpack__(max_version=(1, 2), copy=True))
    assert managed.flags == _IS_COPIED
    assert managed.dl_tensor.data != buffer.unsafe_pointer()


def test_from_dlpack_asks_producers_for_version_1_first(client):
    source = client.buffer(np.arange(4, dtype=np.float32))
    asked = []

    class Producer:
        def __dlpack__(self, *, stream=None, max_version=None):
            asked.append(max_version)
            return source.__dlpack__(max_version=max_version)

        def __dlpack_device__(self):
            return (1, 0)

    imported = plugrt.from_dlpack(Producer())
    assert asked == [(1, 0)]
    assert imported.unsafe_pointer() == source.unsafe_pointer()


def _foreign_versioned_capsule(array, flags, major=1):
    """A 1.x capsule as another library would make it, with a deleter that counts its calls."""
    calls = []
    shape = (ctypes.c_int64 * array.ndim)(*array.shape)
    managed = _Versioned(major=major, minor=3, flags=flags)
    managed.deleter = _DELETER(lambda _: calls.append(1))
    managed.dl_tensor = _Tensor(data=array.ctypes.data, device=_Device(1, 0), ndim=array.ndim,
                                dtype=_DataType(2, 32, 1), shape=shape, strides=None,
                                byte_offset=0)
    capsule = _api.PyCapsule_New(ctypes.addressof(managed), b"dltensor_versioned", None)
    keep = (managed, shape, array)  # the "producer's" memory, alive while the test runs
    return capsule, calls, keep


def test_a_read_only_versioned_tensor_is_copied_and_released(client):
    array = aligned_array(np.arange(8), np.float32)
    capsule, calls, keep = _foreign_versioned_capsule(array, _READ_ONLY)
    buffer = plugrt.from_dlpack(capsule)
    assert buffer.unsafe_pointer() != array.ctypes.data
    np.testing.assert_array_equal(buffer.to_numpy(), np.arange(8))
    gc.collect()
    assert calls == [1]  # the copy no longer needs the producer's memory
    del keep


def test_a_writable_versioned_tensor_is_shared(client):
    array = aligned_array(np.arange(8), np.float32)
    capsule, calls, keep = _foreign_versioned_capsule(array, 0)
    buffer = plugrt.from_dlpack(capsule)
    assert buffer.unsafe_pointer() == array.ctypes.data
    assert calls == []
    del buffer
    gc.collect()
    assert calls == [1]
    del keep


def test_an_unknown_major_version_is_refused_untouched(client):
    array = aligned_array(np.arange(2), np.float32)
    capsule, calls, keep = _foreign_versioned_capsule(array, 0, major=2)
    with pytest.raises(plugrt.Error) as info:
        plugrt.from_dlpack(capsule)
    assert info.value.code == plugrt.ErrorCode.UNIMPLEMENTED
    assert "2.3" in str(info.value)
    assert _api.PyCapsule_IsValid(capsule, b"dltensor_versioned")  # still the producer's
    assert calls == []
    del keep
