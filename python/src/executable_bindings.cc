// plugrt Python bindings: compiling, calling and serializing executables.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "common/element_type.h"
#include "compile_options/compile_options.h"
#include "dtypes.h"
#include "errors.h"
#include "host_transfer.h"
#include "named_values.h"
#include "objects.h"

namespace plugrt::python {

namespace py = pybind11;

namespace {

// One launch in flight: its outputs exist at once (their data becomes ready
// later); `done[d]` completes when device d's run ends.
struct PyExecution {
  std::vector<std::vector<PyBuffer>> outputs;
  std::shared_ptr<std::vector<Future>> done;
  // The arguments (buffers made from arrays included), held while the
  // Execution lives so that no plugin sees an input freed mid-run.
  std::vector<std::shared_ptr<Buffer>> inputs;
};

PJRT_Buffer_Type ElementTypeFrom(const py::object& spec) {
  if (py::isinstance<py::str>(spec)) {
    StatusOr<PJRT_Buffer_Type> named = ParseElementType(spec.cast<std::string>());
    if (named.ok()) return *named;  // "f32", "s8", ...
  }
  return ElementTypeOf(py::dtype::from_args(spec));  // np.float32, "float32", ...
}

CompileOptions OptionsFrom(std::optional<int64_t> num_replicas,
                           std::optional<int64_t> num_partitions, bool use_spmd_partitioning,
                           bool use_auto_spmd_partitioning, std::optional<int64_t> device_ordinal,
                           bool compile_portable_executable, bool parameter_is_tupled_arguments,
                           const py::object& device_assignment,
                           const py::object& argument_layouts) {
  CompileOptions options;
  options.num_replicas = num_replicas;
  options.num_partitions = num_partitions;
  options.use_spmd_partitioning = use_spmd_partitioning;
  options.use_auto_spmd_partitioning = use_auto_spmd_partitioning;
  options.device_ordinal = device_ordinal.value_or(-1);
  options.compile_portable_executable = compile_portable_executable;
  options.parameter_is_tupled_arguments = parameter_is_tupled_arguments;
  if (!device_assignment.is_none()) {
    // [[device id per partition] per replica]
    auto rows = device_assignment.cast<std::vector<std::vector<int64_t>>>();
    DeviceAssignment assignment;
    assignment.replicas = static_cast<int>(rows.size());
    assignment.computations = rows.empty() ? 0 : static_cast<int>(rows[0].size());
    for (const auto& row : rows) {
      if (static_cast<int>(row.size()) != assignment.computations) {
        ThrowIfError(Status(StatusCode::kInvalidArgument,
                            "device_assignment: every replica needs the same number of partitions"));
      }
      assignment.ids.insert(assignment.ids.end(), row.begin(), row.end());
    }
    options.device_assignment = std::move(assignment);
  }
  if (!argument_layouts.is_none()) {
    // [(dtype, shape) or (dtype, shape, minor_to_major)] per argument
    for (py::handle item : argument_layouts) {
      py::tuple spec = py::reinterpret_borrow<py::object>(item).cast<py::tuple>();
      if (spec.size() != 2 && spec.size() != 3) {
        ThrowIfError(Status(StatusCode::kInvalidArgument,
                            "argument_layouts: each entry is (dtype, shape[, minor_to_major])"));
      }
      ArgumentLayout layout;
      layout.type = ElementTypeFrom(spec[0]);
      layout.dims = spec[1].cast<std::vector<int64_t>>();
      if (spec.size() == 3 && !spec[2].is_none()) {
        layout.minor_to_major = spec[2].cast<std::vector<int64_t>>();
      }
      options.argument_layouts.push_back(std::move(layout));
    }
  }
  return options;
}

std::vector<PyDevice> ExecutableDevices(const PyExecutable& e) {
  std::vector<PyDevice> out;
  for (const Device& d : ValueOrThrow(e.executable->addressable_devices())) {
    out.push_back(PyDevice{e.client, d});
  }
  return out;
}

// Buffers stay as they are; anything else becomes a copied buffer on `device`.
// Every argument is also appended to `held`.
std::vector<Buffer*> ArgumentList(const PyExecutable& e, const py::sequence& args,
                                  const PyDevice& device,
                                  std::vector<std::shared_ptr<Buffer>>& held) {
  std::vector<Buffer*> list;
  for (py::handle arg : args) {
    std::shared_ptr<Buffer> buffer =
        py::isinstance<PyBuffer>(arg)
            ? arg.cast<PyBuffer&>().buffer
            : BufferFromArray(e.client, py::reinterpret_borrow<py::object>(arg), &device, nullptr,
                              /*copy=*/true)
                  .buffer;
    list.push_back(buffer.get());
    held.push_back(std::move(buffer));
  }
  return list;
}

PyExecution Launch(const PyExecutable& e, const std::vector<py::sequence>& argument_lists,
                   const std::vector<PyDevice>& devices, const ExecuteOptions& options) {
  PyExecution execution;
  std::vector<std::vector<Buffer*>> lists;
  for (size_t d = 0; d < argument_lists.size(); ++d) {
    lists.push_back(ArgumentList(e, argument_lists[d], devices[d], execution.inputs));
  }
  StatusOr<ExecuteResult> result = [&] {
    py::gil_scoped_release release;
    return e.executable->ExecuteAsync(lists, options);
  }();
  ThrowIfError(result.status());
  for (auto& device_outputs : result->outputs) {
    std::vector<PyBuffer> wrapped;
    for (Buffer& b : device_outputs) wrapped.emplace_back(e.client, std::move(b));
    execution.outputs.push_back(std::move(wrapped));
  }
  execution.done = std::make_shared<std::vector<Future>>(std::move(result->device_complete).ToVector());
  return execution;
}

void Wait(const PyExecution& execution) {
  Status first;
  {
    py::gil_scoped_release release;
    for (Future& f : *execution.done) {
      Status s = f.Await();
      if (first.ok() && !s.ok()) first = s;
    }
  }
  ThrowIfError(first);
}

// One device's outputs the way a function returns: one value, or a tuple.
py::object AsReturnValue(const std::vector<PyBuffer>& outputs) {
  if (outputs.size() == 1) return py::cast(outputs[0]);
  py::tuple t(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) t[i] = py::cast(outputs[i]);
  return t;
}

// A single-device launch: on `device` (a portable executable) or on the
// executable's one device.
PyExecution CallOne(const PyExecutable& e, const py::args& args, const py::object& device,
                    const std::vector<int64_t>& non_donatable) {
  ExecuteOptions options;
  options.non_donatable_input_indices = non_donatable;
  PyDevice target;
  if (!device.is_none()) {
    target = device.cast<PyDevice>();
    options.execute_device = target.device;
  } else {
    std::vector<PyDevice> devices = ExecutableDevices(e);
    if (devices.size() != 1) {
      ThrowIfError(Status(StatusCode::kInvalidArgument,
                          StrCat("the executable runs on ", devices.size(),
                                 " devices: call execute_sharded with one argument list per "
                                 "device, or pass device= for a portable executable")));
    }
    target = devices[0];
  }
  return Launch(e, {args}, {target}, options);
}

}  // namespace

void RegisterExecutable(py::module_& m, ClientClass& client) {
  py::class_<PyExecution>(m, "Execution",
                          "A launch in flight: outputs exist at once, their data follows.")
      .def_property_readonly("outputs",
                             [](const PyExecution& x) {
                               return x.outputs.size() == 1 ? AsReturnValue(x.outputs[0])
                                                            : py::cast(x.outputs);
                             })
      .def("is_ready",
           [](const PyExecution& x) {
             for (const Future& f : *x.done) {
               if (!ValueOrThrow(f.IsReady())) return false;
             }
             return true;
           })
      .def("wait", &Wait, "Waits for every device; raises the first device's error.")
      .def("result",
           [](const PyExecution& x) {
             Wait(x);
             return x.outputs.size() == 1 ? AsReturnValue(x.outputs[0]) : py::cast(x.outputs);
           },
           "wait(), then the outputs.");

  py::class_<PyExecutable>(m, "Executable",
                           "A program compiled and loaded on a client's devices; call it like a "
                           "function.")
      .def_property_readonly("name",
                             [](const PyExecutable& e) { return ValueOrThrow(e.executable->name()); })
      .def_property_readonly(
          "num_replicas", [](const PyExecutable& e) { return ValueOrThrow(e.executable->num_replicas()); })
      .def_property_readonly("num_partitions",
                             [](const PyExecutable& e) {
                               return ValueOrThrow(e.executable->num_partitions());
                             })
      .def_property_readonly(
          "num_outputs", [](const PyExecutable& e) { return ValueOrThrow(e.executable->num_outputs()); })
      .def_property_readonly("output_shapes",
                             [](const PyExecutable& e) {
                               py::list shapes;
                               for (const auto& dims : ValueOrThrow(e.executable->output_dimensions())) {
                                 shapes.append(py::tuple(py::cast(dims)));
                               }
                               return shapes;
                             })
      .def_property_readonly("output_element_types",
                             [](const PyExecutable& e) {
                               std::vector<std::string> names;
                               for (PJRT_Buffer_Type t : ValueOrThrow(e.executable->output_element_types())) {
                                 names.emplace_back(ElementTypeName(t));
                               }
                               return names;
                             })
      .def_property_readonly("devices", &ExecutableDevices)
      .def_property_readonly("client", [](const PyExecutable& e) { return e.client; })
      .def("fingerprint",
           [](const PyExecutable& e) { return py::bytes(ValueOrThrow(e.executable->fingerprint())); })
      .def("cost_analysis",
           [](const PyExecutable& e) {
             return ToDict(ValueOrThrow(ValueOrThrow(e.executable->GetExecutable()).cost_analysis()));
           })
      .def("serialize",
           [](const PyExecutable& e) { return py::bytes(ValueOrThrow(e.executable->Serialize())); },
           "Bytes Client.deserialize turns back into this executable (in this or another process).")
      .def("delete", [](const PyExecutable& e) { ThrowIfError(e.executable->Delete()); })
      .def("is_deleted",
           [](const PyExecutable& e) { return ValueOrThrow(e.executable->is_deleted()); })
      .def("__call__",
           [](const PyExecutable& e, const py::args& args, const py::object& device,
              const std::vector<int64_t>& non_donatable) {
             PyExecution x = CallOne(e, args, device, non_donatable);
             Wait(x);
             return AsReturnValue(x.outputs[0]);
           },
           py::arg("device") = py::none(),
           py::arg("non_donatable") = std::vector<int64_t>{},
           "Runs the program on Buffers or arrays and waits: one output is returned as a "
           "Buffer, several as a tuple. Arguments the program donates (tf.aliasing_output, "
           "jax.buffer_donor) are consumed unless listed in non_donatable.")
      .def("call_async",
           [](const PyExecutable& e, const py::args& args, const py::object& device,
              const std::vector<int64_t>& non_donatable) {
             return CallOne(e, args, device, non_donatable);
           },
           py::arg("device") = py::none(),
           py::arg("non_donatable") = std::vector<int64_t>{},
           "Like calling, but returns an Execution as soon as the work is enqueued.")
      .def("execute_sharded",
           [](const PyExecutable& e, const std::vector<py::sequence>& argument_lists,
              const std::vector<int64_t>& non_donatable) {
             std::vector<PyDevice> devices = ExecutableDevices(e);
             if (argument_lists.size() != devices.size()) {
               ThrowIfError(Status(StatusCode::kInvalidArgument,
                                   StrCat("execute_sharded: ", argument_lists.size(),
                                          " argument lists for ", devices.size(), " devices")));
             }
             ExecuteOptions options;
             options.non_donatable_input_indices = non_donatable;
             PyExecution x = Launch(e, argument_lists, devices, options);
             Wait(x);
             return x.outputs;
           },
           py::arg("argument_lists"), py::kw_only(),
           py::arg("non_donatable") = std::vector<int64_t>{},
           "Runs on every device of the executable, argument_lists[d] on devices[d]; returns "
           "outputs[d][i].");

  client
      .def("compile",
           [](const std::shared_ptr<Client>& c, const py::object& program, const std::string& format,
              std::optional<int64_t> num_replicas, std::optional<int64_t> num_partitions,
              bool use_spmd_partitioning, bool use_auto_spmd_partitioning,
              std::optional<int64_t> device_ordinal, bool compile_portable_executable,
              bool parameter_is_tupled_arguments, const py::object& device_assignment,
              const py::object& argument_layouts) {
             // str: StableHLO text; bytes: text or MLIR bytecode (the plugin
             // tells them apart).
             std::string code = py::isinstance<py::str>(program) ? program.cast<std::string>()
                                                                  : std::string(program.cast<py::bytes>());
             CompileOptions options = OptionsFrom(
                 num_replicas, num_partitions, use_spmd_partitioning, use_auto_spmd_partitioning,
                 device_ordinal, compile_portable_executable, parameter_is_tupled_arguments,
                 device_assignment, argument_layouts);
             StatusOr<LoadedExecutable> loaded = [&] {
               py::gil_scoped_release release;
               return c->Compile(code, options, format);
             }();
             return PyExecutable{c, std::make_shared<LoadedExecutable>(ValueOrThrow(std::move(loaded)))};
           },
           py::arg("program"), py::kw_only(), py::arg("format") = "mlir",
           py::arg("num_replicas") = py::none(), py::arg("num_partitions") = py::none(),
           py::arg("use_spmd_partitioning") = false, py::arg("use_auto_spmd_partitioning") = false,
           py::arg("device_ordinal") = py::none(), py::arg("compile_portable_executable") = false,
           py::arg("parameter_is_tupled_arguments") = false,
           py::arg("device_assignment") = py::none(), py::arg("argument_layouts") = py::none(),
           "Compiles a program (StableHLO text as str, or text or MLIR bytecode as bytes) with the "
           "compile options given as keywords; device_assignment is [[device id per partition] "
           "per replica], argument_layouts [(dtype, shape[, minor_to_major])].")
      .def("deserialize",
           [](const std::shared_ptr<Client>& c, const py::bytes& data) {
             std::string bytes = data;
             StatusOr<LoadedExecutable> loaded = [&] {
               py::gil_scoped_release release;
               return c->DeserializeAndLoad(bytes);
             }();
             return PyExecutable{c, std::make_shared<LoadedExecutable>(ValueOrThrow(std::move(loaded)))};
           },
           py::arg("data"), "Loads bytes from Executable.serialize onto this client's devices.");
}

}  // namespace plugrt::python
