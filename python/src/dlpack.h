// plugrt Python bindings: the DLPack protocol both ways (Debian's
// libdlpack-dev, dlpack.h 0.6: the unversioned DLManagedTensor capsule that
// NumPy 1.x and PyTorch 1.x exchange), and DLPack 1.0's versioned capsules
// ("dltensor_versioned", with read-only and copied flags) for producers and
// consumers that ask for them through max_version.
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
// a fresh copy of the buffer instead (flagged as copied in a 1.x capsule).
// `versioned` makes a DLPack 1.0 "dltensor_versioned" capsule.
pybind11::capsule ToDlpack(const PyBuffer& buffer, bool copy, bool versioned);

// Whether a consumer's __dlpack__(max_version=...) lets us answer with a 1.x
// capsule (major >= 1); INVALID_ARGUMENT for anything but a pair.
bool WantsVersionedCapsule(const pybind11::object& max_version);

// Buffer.__dlpack_device__: (kDLCPU, 0) for a buffer in host memory; an
// UNIMPLEMENTED error for any other.
std::pair<int, int> DlpackDevice(const PyBuffer& buffer);

// plugrt.from_dlpack: a buffer on `device` over the memory of `source` (an
// object with __dlpack__, asked for a 1.x capsule first, or a "dltensor" /
// "dltensor_versioned" capsule). Dense, writable, 16-byte aligned CPU
// tensors become views on a CPU client (mutations show on both sides;
// the producer's tensor is released when the buffer's memory is); others are
// copied.
PyBuffer FromDlpack(const pybind11::object& source, const PyDevice& device);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_DLPACK_H_
