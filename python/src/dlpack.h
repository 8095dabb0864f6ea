// plugrt Python bindings: the DLPack protocol both ways (Debian's
// libdlpack-dev, dlpack.h 0.6: the unversioned DLManagedTensor capsule that
// NumPy and PyTorch exchange).
#ifndef PLUGRT_PYTHON_DLPACK_H_
#define PLUGRT_PYTHON_DLPACK_H_

#include <pybind11/pybind11.h>

#include <utility>

#include "objects.h"

namespace plugrt::python {

// Buffer.__dlpack__: a "dltensor" capsule sharing the buffer's memory (no
// copy), for buffers a plugin keeps in host memory. The capsule, and the
// tensor a consumer makes of it, hold the Buffer and an external reference,
// so the memory stays valid after the Buffer object goes. copy=True exports
// a fresh copy of the buffer instead.
pybind11::capsule ToDlpack(const PyBuffer& buffer, bool copy);

// Buffer.__dlpack_device__: (kDLCPU, 0) for a buffer in host memory; an
// UNIMPLEMENTED error for any other.
std::pair<int, int> DlpackDevice(const PyBuffer& buffer);

// plugrt.from_dlpack: a buffer on `device` over the memory of `source` (an
// object with __dlpack__, or a "dltensor" capsule). Dense, 16-byte aligned
// CPU tensors become views on a CPU client (mutations show on both sides;
// the producer's tensor is released when the buffer's memory is); others are
// copied.
PyBuffer FromDlpack(const pybind11::object& source, const PyDevice& device);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_DLPACK_H_
