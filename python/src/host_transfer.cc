#include "host_transfer.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "common/element_type.h"
#include "common/layout.h"
#include "dtypes.h"
#include "errors.h"
#include "interpreter.h"

namespace plugrt::python {

namespace py = pybind11;

namespace {

// Releases a Python reference from any thread; skipped (leaked) once the
// interpreter is shutting down, when no thread may take the GIL.
void ReleaseObject(py::object* object) {
  if (!InterpreterAlive()) return;
  py::gil_scoped_acquire gil;
  delete object;
}

std::vector<int64_t> ShapeOf(const py::array& array) {
  return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

}  // namespace

void KeepAliveUntil(Future& future, py::object object) {
  auto* held = new py::object(std::move(object));
  Status status = future.OnReady([held](Status) { ReleaseObject(held); });
  if (!status.ok()) {
    // The callback will never run: wait here instead, so the memory is not
    // released while the plugin may still read it.
    {
      py::gil_scoped_release release;
      future.Await().IgnoreError();
    }
    delete held;
    ThrowIfError(status);
  }
}

PyBuffer BufferFromArray(const std::shared_ptr<Client>& client, const py::object& array_like,
                         const PyDevice* device, const PyMemory* memory,
                         std::optional<bool> copy) {
  py::module_ np = py::module_::import("numpy");
  py::array array = np.attr("asarray")(array_like);
  // The plugin takes non-negative byte strides; reversed or broadcast views
  // are made contiguous first (a copy NumPy makes, so never zero-copy).
  bool positive_strides = true;
  for (py::ssize_t d = 0; d < array.ndim(); ++d) {
    if (array.shape(d) > 1 && array.strides(d) <= 0) positive_strides = false;
  }
  if (!positive_strides) {
    if (copy == false) {
      ThrowIfError(Status(StatusCode::kInvalidArgument,
                          "copy=False: an array with zero or negative strides cannot be aliased"));
    }
    array = np.attr("ascontiguousarray")(array);
  }

  Client::HostBuffer host;
  host.type = ElementTypeOf(array.dtype());
  host.data = array.data();
  host.dims = ShapeOf(array);
  // Strides only where the data is not dense row-major: some plugins take
  // dense data only.
  if (!(array.flags() & py::array::c_style)) {
    host.byte_strides = std::vector<int64_t>(array.strides(), array.strides() + array.ndim());
  }
  const bool read_only = !array.writeable();
  const bool alias = copy.has_value() ? !*copy : read_only;
  host.semantics = alias ? PJRT_HostBufferSemantics_kImmutableZeroCopy
                         : PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;

  std::pair<Buffer, Future> made =
      memory != nullptr ? ValueOrThrow(client->BufferFromHostBuffer(host, memory->memory))
                        : ValueOrThrow(client->BufferFromHostBuffer(host, device->device));
  if (alias) KeepAliveUntil(made.second, array);
  PyBuffer result(client, std::move(made.first));
  if (copy == false) {
    // Honest copy=False: the plugin may have copied after all (unaligned
    // data, a packed type, a device that is not host memory).
    StatusOr<bool> on_cpu = result.buffer->is_on_cpu();
    StatusOr<uintptr_t> pointer =
        on_cpu.ok() && *on_cpu ? result.buffer->unsafe_pointer() : StatusOr<uintptr_t>(0);
    if (!pointer.ok() || *pointer != reinterpret_cast<uintptr_t>(array.data())) {
      ThrowIfError(Status(StatusCode::kInvalidArgument,
                          "copy=False: the plugin copied the array instead of aliasing it "
                          "(it aliases only dense, suitably aligned arrays in host memory)"));
    }
  }
  return result;
}

py::array BufferToArray(const PyBuffer& py_buffer, bool copy) {
  Buffer& buffer = *py_buffer.buffer;
  {
    StatusOr<Future> ready = buffer.ReadyFuture();
    ThrowIfError(ready.status());
    py::gil_scoped_release release;
    ThrowIfError(ready->Await());
  }
  const PJRT_Buffer_Type type = ValueOrThrow(buffer.element_type());
  const std::vector<int64_t> dims = ValueOrThrow(buffer.dimensions());
  py::dtype dtype = DtypeOf(type);
  std::vector<py::ssize_t> shape(dims.begin(), dims.end());

  if (!copy && HasByteAlignedElements(type) && ValueOrThrow(buffer.is_on_cpu())) {
    StatusOr<Layout> layout = buffer.layout();
    StatusOr<uintptr_t> pointer = buffer.unsafe_pointer();
    if (layout.ok() && layout->IsRowMajor() && pointer.ok() &&
        buffer.IncreaseExternalReferenceCount().ok()) {
      // The capsule is the view's base: it owns a reference to the Buffer
      // and the external reference, both released when NumPy drops the view.
      auto* holder = new std::shared_ptr<Buffer>(py_buffer.buffer);
      py::capsule base(holder, [](void* p) {
        auto* held = static_cast<std::shared_ptr<Buffer>*>(p);
        (*held)->DecreaseExternalReferenceCount().IgnoreError();
        delete held;
      });
      py::array view(dtype, shape, {}, reinterpret_cast<const void*>(*pointer), base);
      // Buffers are immutable to their users; sharing writable memory is what
      // DLPack is for.
      view.attr("setflags")(py::arg("write") = false);
      return view;
    }
  }
  py::array result(dtype, shape);
  const Layout row_major = Layout::RowMajor(dims.size());
  const size_t bytes = static_cast<size_t>(result.nbytes());
  void* dst = result.mutable_data();
  {
    py::gil_scoped_release release;
    ThrowIfError(buffer.ToHost(dst, bytes, &row_major));
  }
  return result;
}

}  // namespace plugrt::python
