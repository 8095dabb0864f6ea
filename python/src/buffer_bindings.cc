// plugrt Python bindings: Buffer, and Client.buffer / Client.from_dlpack.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bindings.h"
#include "common/element_type.h"
#include "dlpack.h"
#include "dtypes.h"
#include "errors.h"
#include "host_transfer.h"
#include "objects.h"

namespace plugrt::python {

namespace py = pybind11;

namespace {

// `device` may be a Device, a Memory, or None (the client's first
// addressable device).
PyBuffer Put(const std::shared_ptr<Client>& client, const py::object& array,
             const py::object& where, std::optional<bool> copy) {
  if (py::isinstance<PyMemory>(where)) {
    PyMemory memory = where.cast<PyMemory>();
    return BufferFromArray(client, array, nullptr, &memory, copy);
  }
  PyDevice device;
  if (where.is_none()) {
    std::vector<Device> devices = ValueOrThrow(client->addressable_devices());
    if (devices.empty()) {
      ThrowIfError(Status(StatusCode::kFailedPrecondition, "the client has no addressable device"));
    }
    device = PyDevice{client, devices[0]};
  } else {
    device = where.cast<PyDevice>();
  }
  return BufferFromArray(client, array, &device, nullptr, copy);
}

py::tuple Shape(const PyBuffer& b) {
  return py::cast(ValueOrThrow(b.buffer->dimensions()));
}

}  // namespace

void RegisterBuffer(py::module_& m, ClientClass& client) {
  py::class_<PyBuffer>(m, "Buffer",
                       "An array on a device. Works with np.asarray, np.from_dlpack and "
                       "torch.from_dlpack.")
      .def_property_readonly("shape", &Shape)
      .def_property_readonly("ndim",
                             [](const PyBuffer& b) { return ValueOrThrow(b.buffer->dimensions()).size(); })
      .def_property_readonly("size",
                             [](const PyBuffer& b) {
                               int64_t n = 1;
                               for (int64_t d : ValueOrThrow(b.buffer->dimensions())) n *= d;
                               return n;
                             })
      .def_property_readonly("dtype",
                             [](const PyBuffer& b) { return DtypeOf(ValueOrThrow(b.buffer->element_type())); })
      .def_property_readonly("element_type",
                             [](const PyBuffer& b) {
                               return std::string(ElementTypeName(ValueOrThrow(b.buffer->element_type())));
                             })
      .def_property_readonly("nbytes",
                             [](const PyBuffer& b) { return ValueOrThrow(b.buffer->on_device_size()); },
                             "Bytes the buffer takes on its device.")
      .def_property_readonly("device",
                             [](const PyBuffer& b) {
                               return PyDevice{b.client, ValueOrThrow(b.buffer->device())};
                             })
      .def_property_readonly("memory",
                             [](const PyBuffer& b) {
                               return PyMemory{b.client, ValueOrThrow(b.buffer->memory())};
                             })
      .def_property_readonly("client", [](const PyBuffer& b) { return b.client; })
      .def_property_readonly("is_on_cpu",
                             [](const PyBuffer& b) { return ValueOrThrow(b.buffer->is_on_cpu()); })
      .def("unsafe_pointer",
           [](const PyBuffer& b) { return ValueOrThrow(b.buffer->unsafe_pointer()); },
           "The address of the buffer's memory on its device.")
      .def("is_deleted", [](const PyBuffer& b) { return ValueOrThrow(b.buffer->is_deleted()); })
      .def("delete", [](const PyBuffer& b) { ThrowIfError(b.buffer->Delete()); },
           "Frees the device memory now (NumPy views and DLPack tensors keep theirs).")
      .def("is_ready",
           [](const PyBuffer& b) { return ValueOrThrow(ValueOrThrow(b.buffer->ReadyFuture()).IsReady()); })
      .def("block_until_ready",
           [](const py::object& self) {
             const PyBuffer& b = self.cast<const PyBuffer&>();
             Future ready = ValueOrThrow(b.buffer->ReadyFuture());
             Status status;
             {
               py::gil_scoped_release release;
               status = ready.Await();
             }
             ThrowIfError(status);
             return self;
           },
           "Waits until the buffer's data is computed and returns the buffer; raises the error "
           "that computing it met.")
      .def("to_numpy", &BufferToArray, py::arg("copy") = false,
           "The contents as a NumPy array: a read-only view of the buffer's memory where the "
           "plugin allows (copy=False), else a copy.")
      .def("__array__",
           [](const PyBuffer& b, const py::object& dtype, std::optional<bool> copy) {
             py::array array = BufferToArray(b, copy.value_or(false));
             if (!dtype.is_none()) return py::array(array.attr("astype")(dtype));
             return array;
           },
           py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def("copy_to",
           [](const PyBuffer& b, const py::object& where) {
             if (py::isinstance<PyMemory>(where)) {
               return PyBuffer(b.client, ValueOrThrow(b.buffer->CopyToMemory(where.cast<PyMemory>().memory)));
             }
             return PyBuffer(b.client, ValueOrThrow(b.buffer->CopyToDevice(where.cast<PyDevice>().device)));
           },
           py::arg("device_or_memory"), "A copy on another device or memory.")
      .def("__dlpack__",
           [](const PyBuffer& b, const py::object& stream, const py::object& max_version,
              const py::object& dl_device, std::optional<bool> copy) {
             if (!stream.is_none()) {
               ThrowIfError(Status(StatusCode::kInvalidArgument,
                                   "__dlpack__: stream must be None for CPU memory"));
             }
             if (!dl_device.is_none() && dl_device.cast<std::pair<int, int>>() != DlpackDevice(b)) {
               ThrowIfError(Status(StatusCode::kUnimplemented,
                                   "__dlpack__: cannot export to another device"));
             }
             return ToDlpack(b, copy.value_or(false), WantsVersionedCapsule(max_version));
           },
           py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
           py::arg("dl_device") = py::none(), py::arg("copy") = py::none())
      .def("__dlpack_device__", &DlpackDevice)
      .def("__repr__", [](const PyBuffer& b) {
        if (ValueOrThrow(b.buffer->is_deleted())) return std::string("<plugrt.Buffer deleted>");
        std::string dims;
        for (int64_t d : ValueOrThrow(b.buffer->dimensions())) {
          dims += (dims.empty() ? "" : ",") + std::to_string(d);
        }
        return StrCat("<plugrt.Buffer ", ElementTypeName(ValueOrThrow(b.buffer->element_type())),
                      "[", dims, "] on ", ValueOrThrow(ValueOrThrow(b.buffer->device()).to_string()),
                      ">");
      });

  client
      .def("buffer", &Put, py::arg("array"), py::arg("device") = py::none(), py::kw_only(),
           py::arg("copy") = py::none(),
           "A buffer holding `array` (anything np.asarray takes) on `device` (a Device or "
           "Memory; default: the first addressable device). copy=True copies; copy=False "
           "aliases the array's memory or raises; copy=None aliases read-only arrays where the "
           "plugin can and copies writable ones. An aliased array stays alive as long as the "
           "plugin uses it.")
      .def("from_dlpack",
           [](const std::shared_ptr<Client>& c, const py::object& source, const py::object& device) {
             PyDevice target;
             if (device.is_none()) {
               std::vector<Device> devices = ValueOrThrow(c->addressable_devices());
               if (devices.empty()) {
                 ThrowIfError(Status(StatusCode::kFailedPrecondition, "the client has no addressable device"));
               }
               target = PyDevice{c, devices[0]};
             } else {
               target = device.cast<PyDevice>();
             }
             return FromDlpack(source, target);
           },
           py::arg("source"), py::arg("device") = py::none(),
           "A buffer sharing the memory of a DLPack producer (np.ndarray, torch.Tensor, ...) "
           "where it can, else a copy.");
}

}  // namespace plugrt::python
