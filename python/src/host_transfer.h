// plugrt Python bindings: NumPy arrays -> buffers and buffers -> NumPy
// arrays, zero-copy where the plugin allows it.
#ifndef PLUGRT_PYTHON_HOST_TRANSFER_H_
#define PLUGRT_PYTHON_HOST_TRANSFER_H_

#include <pybind11/numpy.h>

#include <memory>
#include <optional>

#include "client/event.h"
#include "objects.h"

namespace plugrt::python {

// Copies or aliases `array_like` (anything np.asarray takes) into a buffer on
// `device` or, when given, `memory`.
// copy=True: copied during the call. copy=False: the plugin must alias the
// array's memory (an INVALID_ARGUMENT error where it did not); the array stays
// alive until the plugin lets go of it. copy=None: aliased when the array is
// read-only (it cannot change under the buffer) and the plugin can, else
// copied.
PyBuffer BufferFromArray(const std::shared_ptr<Client>& client, const pybind11::object& array_like,
                         const PyDevice* device, const PyMemory* memory,
                         std::optional<bool> copy);

// The buffer's contents as a NumPy array, once ready. copy=False: a read-only
// view of the buffer's memory where the plugin exposes it on the host (a
// dense row-major buffer on a CPU device); the view holds the buffer and an
// external reference, so the memory stays valid while the view lives, even
// after the Buffer object is deleted or donated. Otherwise (or copy=True) a
// new writable array.
pybind11::array BufferToArray(const PyBuffer& buffer, bool copy);

// Keeps `object` alive until `future` completes, then drops it (taking the
// GIL, on whichever thread completes it).
void KeepAliveUntil(Future& future, pybind11::object object);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_HOST_TRANSFER_H_
