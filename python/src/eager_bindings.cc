// plugrt Python bindings: the eager layer (src/eager/) as plugrt.eager:
// ops one at a time on tensors, over a client.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "common/element_type.h"
#include "dtypes.h"
#include "eager_objects.h"
#include "eager/attribute.h"
#include "eager/cluster_spec.h"
#include "eager/context.h"
#include "eager/op.h"
#include "eager/tensor.h"
#include "errors.h"
#include "interpreter.h"
#include "host_transfer.h"
#include "objects.h"

namespace plugrt::python {

namespace py = pybind11;
using eager::AttrValue;
using eager::Context;
using eager::Tensor;

namespace {

// Deletes a context without the GIL: its destructor waits for queued async
// work, which may need the GIL (placement warnings).
void DeleteContext(Context* context) {
  if (PyGILState_Check()) {
    py::gil_scoped_release release;
    delete context;
  } else {
    delete context;
  }
}

template <typename T>
std::optional<std::vector<T>> ListOf(const py::sequence& seq) {
  std::vector<T> out;
  for (py::handle item : seq) {
    if constexpr (std::is_same_v<T, int64_t>) {
      if (py::isinstance<py::bool_>(item) || !py::isinstance<py::int_>(item)) return std::nullopt;
    } else if constexpr (std::is_same_v<T, double>) {
      if (!py::isinstance<py::float_>(item)) return std::nullopt;
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!py::isinstance<py::bool_>(item)) return std::nullopt;
    } else {
      if (!py::isinstance<py::str>(item)) return std::nullopt;
    }
    out.push_back(item.cast<T>());
  }
  return out;
}

// np.asarray, made C-contiguous (np.ascontiguousarray alone would turn a 0-d
// array into a 1-d one).
py::array DenseArray(const py::handle& value) {
  py::module_ np = py::module_::import("numpy");
  py::array array = np.attr("asarray")(value);
  if (!(array.flags() & py::array::c_style)) array = np.attr("ascontiguousarray")(array);
  return array;
}

bool IsDtypeLike(const py::handle& value) {
  if (py::isinstance<py::dtype>(value)) return true;
  py::object generic = py::module_::import("numpy").attr("generic");
  return PyType_Check(value.ptr()) &&
         PyObject_IsSubclass(value.ptr(), generic.ptr()) == 1;
}

// Python values -> eager attributes: bool, int, float, str; a NumPy dtype or
// scalar type (np.float32) is an element type; a tuple of ints is a shape, a
// list of ints an int list (also lists of floats, bools, strs); an ndarray a
// dense tensor; Function and Reducer regions.
AttrValue ToAttr(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return value.cast<int64_t>();
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<eager::FunctionRef>(value)) return value.cast<eager::FunctionRef>();
  if (py::isinstance<eager::Reducer>(value)) return value.cast<eager::Reducer>();
  if (IsDtypeLike(value)) return ElementTypeOf(py::dtype::from_args(py::reinterpret_borrow<py::object>(value)));
  if (py::isinstance<py::array>(value)) {
    py::array array = DenseArray(value);
    eager::DenseTensor dense;
    dense.type.type = ElementTypeOf(array.dtype());
    dense.type.dims.assign(array.shape(), array.shape() + array.ndim());
    dense.data.resize(static_cast<size_t>(array.nbytes()));
    if (!dense.data.empty()) std::memcpy(dense.data.data(), array.data(), dense.data.size());
    return dense;
  }
  if (py::isinstance<py::tuple>(value)) {
    if (auto ints = ListOf<int64_t>(value.cast<py::sequence>())) return eager::Shape{*ints};
  } else if (py::isinstance<py::list>(value)) {
    py::sequence seq = value.cast<py::sequence>();
    if (auto ints = ListOf<int64_t>(seq)) return *ints;
    if (auto floats = ListOf<double>(seq)) return *floats;
    if (auto bools = ListOf<bool>(seq)) return *bools;
    if (auto strs = ListOf<std::string>(seq)) return *strs;
  }
  throw StatusError(Status(StatusCode::kInvalidArgument,
                           StrCat("attribute ", name, ": cannot use a Python ",
                                  std::string(py::str(value.get_type().attr("__name__"))),
                                  " as an op attribute")));
}

PyTensor TensorFromArray(const PyContext& ctx, const py::object& array_like,
                         const std::optional<std::string>& device) {
  py::array array = DenseArray(array_like);
  const PJRT_Buffer_Type type = ElementTypeOf(array.dtype());
  std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
  Tensor t = ValueOrThrow(ctx.context->FromHost(array.data(), type, std::move(dims), device));
  return PyTensor{ctx.client, ctx.context, std::move(t)};
}

}  // namespace

Tensor InputOf(const PyContext& ctx, const py::handle& value) {
  if (py::isinstance<PyTensor>(value)) return value.cast<const PyTensor&>().tensor;
  return TensorFromArray(ctx, py::reinterpret_borrow<py::object>(value), std::nullopt).tensor;
}

py::object WrapTensor(const PyContext& ctx, const Tensor& t) {
  if (!t) return py::none();
  return py::cast(PyTensor{ctx.client, ctx.context, t});
}

namespace {

py::object RunOp(const PyContext& ctx, const std::string& name, const py::args& inputs,
                 const std::optional<std::string>& device, const py::kwargs& attrs) {
  eager::Op op(*ctx.context, name);
  if (device) op.SetDevice(*device);
  for (auto [key, value] : attrs) {
    const std::string attr = py::str(key);
    ThrowIfError(op.SetAttr(attr, ToAttr(attr, value)));
  }
  for (py::handle input : inputs) {
    // A Python list is a list input (reduce's inputs, concatenate's).
    if (py::isinstance<py::list>(input)) {
      std::vector<Tensor> list;
      for (py::handle item : input) list.push_back(InputOf(ctx, item));
      ThrowIfError(op.AddInputList(list));
    } else {
      ThrowIfError(op.AddInput(InputOf(ctx, input)));
    }
  }
  StatusOr<std::vector<Tensor>> outputs = [&] {
    py::gil_scoped_release release;
    return op.Execute();
  }();
  std::vector<Tensor> results = ValueOrThrow(std::move(outputs));
  if (results.size() == 1) return py::cast(PyTensor{ctx.client, ctx.context, results[0]});
  py::tuple out(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    out[i] = py::cast(PyTensor{ctx.client, ctx.context, results[i]});
  }
  return out;
}

void AwaitTensor(const Tensor& t) {
  Status status;
  {
    py::gil_scoped_release release;
    status = t.Await();
  }
  ThrowIfError(status);
}

// The tensor's buffer, shared with the tensor (physical tensors only).
PyBuffer BufferOf(const PyTensor& t) {
  if (t.tensor.is_custom()) {
    ThrowIfError(Status(StatusCode::kFailedPrecondition,
                        StrCat("tensor on custom device ", t.tensor.device_name(),
                               " has no buffer: copy it to a physical device first")));
  }
  AwaitTensor(t.tensor);
  const std::shared_ptr<eager::internal::TensorState>& state = t.tensor.state();
  // Aliasing shared_ptr: the buffer lives as long as the tensor's state.
  std::shared_ptr<Buffer> buffer(state, const_cast<Buffer*>(&state->buffer()));
  return PyBuffer(t.client, std::move(buffer));
}

py::array TensorToArray(const PyTensor& t) {
  AwaitTensor(t.tensor);
  const PJRT_Buffer_Type type = ValueOrThrow(t.tensor.dtype());
  std::vector<int64_t> dims = ValueOrThrow(t.tensor.dims());
  py::array result(DtypeOf(type), std::vector<py::ssize_t>(dims.begin(), dims.end()));
  const size_t bytes = static_cast<size_t>(result.nbytes());
  void* dst = result.mutable_data();
  Status status;
  {
    py::gil_scoped_release release;
    status = t.tensor.ToHost(dst, bytes);
  }
  ThrowIfError(status);
  return result;
}

}  // namespace

void RegisterEager(py::module_& m) {
  py::module_ e = m.def_submodule("eager", "Ops one at a time on tensors (src/eager/).");

  py::class_<eager::FunctionRef>(e, "Function",
                                 "A region attribute naming a function loaded with "
                                 "Context.load_functions.")
      .def(py::init([](std::string name) { return eager::FunctionRef{std::move(name)}; }),
           py::arg("name"))
      .def_readonly("name", &eager::FunctionRef::name);
  py::enum_<eager::Reducer>(e, "Reducer", "A built-in region (reduce's body ...).")
      .value("ADD", eager::Reducer::kAdd)
      .value("MUL", eager::Reducer::kMul)
      .value("MAX", eager::Reducer::kMax)
      .value("MIN", eager::Reducer::kMin)
      .value("AND", eager::Reducer::kAnd)
      .value("OR", eager::Reducer::kOr);

  py::class_<PyTensor>(e, "Tensor", "A tensor on a device, made by an op or from an array.")
      .def_property_readonly("shape",
                             [](const PyTensor& t) { return py::tuple(py::cast(ValueOrThrow(t.tensor.dims()))); })
      .def_property_readonly("dtype",
                             [](const PyTensor& t) { return DtypeOf(ValueOrThrow(t.tensor.dtype())); })
      .def_property_readonly("device", [](const PyTensor& t) { return t.tensor.device_name(); })
      .def("is_ready", [](const PyTensor& t) { return t.tensor.IsReady(); })
      .def("wait", [](const PyTensor& t) { AwaitTensor(t.tensor); },
           "Waits until the data is computed; raises the error of the op that failed to make it.")
      .def("numpy", &TensorToArray, "A copy of the data as a NumPy array.")
      .def("__array__",
           [](const PyTensor& t, const py::object& dtype, const py::object& /*copy*/) {
             py::array a = TensorToArray(t);
             return dtype.is_none() ? a : py::array(a.attr("astype")(dtype));
           },
           py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def("to_buffer", &BufferOf,
           "The tensor's plugrt.Buffer, sharing its memory (DLPack goes through it).")
      .def("__dlpack__",
           [](const PyTensor& t, const py::kwargs& kwargs) {
             return py::cast(BufferOf(t)).attr("__dlpack__")(**kwargs);
           })
      .def("__dlpack_device__",
           [](const PyTensor& t) { return py::cast(BufferOf(t)).attr("__dlpack_device__")(); })
      .def("copy_to",
           [](const PyTensor& t, const std::string& device) {
             Tensor copy = ValueOrThrow([&] {
               py::gil_scoped_release release;
               return t.context->CopyToDevice(t.tensor, device);
             }());
             return PyTensor{t.client, t.context, std::move(copy)};
           },
           py::arg("device"))
      .def("__repr__", [](const PyTensor& t) {
        py::gil_scoped_release release;
        return StrCat("<plugrt.eager.Tensor ", t.tensor.Summary(), ">");
      });

  py::class_<PyContext>(e, "Context", "The eager runtime over one client.")
      .def(py::init([](std::shared_ptr<Client> client, bool asynchronous,
                       const std::string& placement, size_t cache_capacity) {
             if (!client) {
               client = py::module_::import("plugrt").attr("default_client")().cast<std::shared_ptr<Client>>();
             }
             eager::ContextOptions options;
             options.async = asynchronous;
             options.cache_capacity = cache_capacity;
             if (placement == "copy") {
               options.placement = eager::PlacementPolicy::kCopy;
             } else if (placement == "warn") {
               options.placement = eager::PlacementPolicy::kWarn;
               // Python warnings, from whichever thread places the op.
               options.warn = [](const std::string& message) {
                 if (!InterpreterAlive()) return;
                 py::gil_scoped_acquire gil;
                 try {
                   py::module_::import("warnings").attr("warn")(message);
                 } catch (const py::error_already_set&) {
                   // warnings turned into errors cannot fail the op here
                 }
               };
             } else if (placement == "refuse") {
               options.placement = eager::PlacementPolicy::kRefuse;
             } else {
               ThrowIfError(Status(StatusCode::kInvalidArgument,
                                   StrCat("placement must be \"copy\", \"warn\" or \"refuse\", got \"",
                                          placement, "\"")));
             }
             std::unique_ptr<Context> made = ValueOrThrow(Context::Create(client, options));
             return PyContext{client, std::shared_ptr<Context>(made.release(), &DeleteContext)};
           }),
           py::arg("client") = py::none(), py::kw_only(), py::arg("asynchronous") = false,
           py::arg("placement") = "copy", py::arg("cache_capacity") = 512,
           "Context(client=None, *, asynchronous=False, placement='copy', cache_capacity=512); "
           "client None: plugrt.default_client().")
      .def_property_readonly("client", [](const PyContext& c) { return c.client; })
      .def_property_readonly("devices",
                             [](const PyContext& c) {
                               std::vector<std::string> names;
                               for (const eager::NamedDevice& d : c.context->devices()) names.push_back(d.name);
                               return names;
                             })
      .def_property(
          "default_device", [](const PyContext& c) { return c.context->default_device().name; },
          [](const PyContext& c, const std::string& name) {
            ThrowIfError(c.context->SetDefaultDevice(name));
          })
      .def("tensor", &TensorFromArray, py::arg("array"), py::arg("device") = py::none(),
           "A tensor holding a copy of `array` on `device` (a name such as \"cpu:1\"; default: "
           "the default device).")
      .def("op", &RunOp, py::arg("name"), py::kw_only(), py::arg("device") = py::none(),
           "op(name, *inputs, device=None, **attributes): runs a StableHLO op by name "
           "(\"stablehlo.add\") or a loaded function. Inputs are Tensors or arrays; a list is a "
           "list input. Attributes: bool, int, float, str; a NumPy dtype is an element type; a "
           "tuple of ints is a shape, a list of ints an int list; an ndarray a dense tensor; "
           "Function/Reducer regions. One output is returned as a Tensor, several as a tuple.")
      .def("load_functions",
           [](const PyContext& c, const std::string& text) { ThrowIfError(c.context->LoadFunctions(text)); },
           py::arg("text"), "Loads StableHLO functions; each becomes an op and a region.")
      .def("wait",
           [](const PyContext& c) {
             Status status;
             {
               py::gil_scoped_release release;
               status = c.context->Wait();
             }
             ThrowIfError(status);
           },
           "Waits for queued ops; raises the first error since the last wait.")
      .def("set_cluster_spec",
           [](const PyContext& c, const std::string& spec, bool reset,
              const std::string& token_file, int64_t keep_alive_secs,
              const std::string& plugin) {
             StatusOr<eager::ClusterSpec> parsed = eager::ParseClusterSpec(spec);
             ThrowIfError(parsed.status());
             eager::RemoteOptions options;
             options.plugin = plugin;
             options.token_file = token_file;
             options.keep_alive_secs = keep_alive_secs;
             Status status;
             {
               py::gil_scoped_release release;
               status = c.context->SetClusterSpec(
                   *parsed, reset ? eager::ClusterUpdate::kReset : eager::ClusterUpdate::kUpdate,
                   options);
             }
             ThrowIfError(status);
           },
           py::arg("spec"), py::kw_only(), py::arg("reset") = true, py::arg("token_file") = "",
           py::arg("keep_alive_secs") = 60, py::arg("plugin") = "remote",
           "set_cluster_spec(spec, *, reset=True, token_file='', keep_alive_secs=60, "
           "plugin='remote'): remote tasks (`plugrt serve` workers) whose devices join the "
           "context as \"/job:JOB/task:T/device:cpu:N\"; spec \"worker=host:port,host:port;"
           "ps=host:port\" ('' removes every task). reset=False updates: unchanged tasks keep "
           "their tensors. token_file empty: $PLUGRT_REMOTE_TOKEN_FILE or $PLUGRT_REMOTE_TOKEN.")
      .def_property_readonly(
          "cluster_spec", [](const PyContext& c) { return c.context->cluster_spec().ToString(); },
          "The cluster spec set last, in set_cluster_spec's form ('' for none).")
      .def_property_readonly("is_async", [](const PyContext& c) { return c.context->is_async(); })
      .def("set_async",
           [](const PyContext& c, bool asynchronous) {
             Status status;
             {
               py::gil_scoped_release release;
               status = c.context->SetAsync(asynchronous);
             }
             ThrowIfError(status);
           },
           py::arg("asynchronous"))
      .def("cache_stats", [](const PyContext& c) {
        eager::CacheStats s = c.context->cache_stats();
        py::dict d;
        d["hits"] = s.hits;
        d["misses"] = s.misses;
        d["evictions"] = s.evictions;
        d["entries"] = s.entries;
        d["capacity"] = s.capacity;
        return d;
      });
}

}  // namespace plugrt::python
