// plugrt Python bindings: VJPs and JVPs written in Python
// (plugrt.eager.register_vjp / register_jvp), entered in the process-wide
// registries of src/autodiff/ beside the built-in rules, as the C API's
// PLUGRT_RegisterVjp does for C.
#include <pybind11/pybind11.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "autodiff/jvp_registry.h"
#include "autodiff/vjp_registry.h"
#include "bindings.h"
#include "eager_objects.h"
#include "errors.h"
#include "interpreter.h"

namespace plugrt::python {

namespace py = pybind11;
using eager::Tensor;

namespace {

// A Python callable kept by a registry that outlives the interpreter: its
// reference is dropped under the GIL while Python runs, leaked after.
class HeldCallable {
 public:
  explicit HeldCallable(py::function f) : f_(f.release().ptr()) {}
  ~HeldCallable() {
    if (!InterpreterAlive()) return;
    py::gil_scoped_acquire gil;
    Py_DECREF(f_);
  }
  HeldCallable(const HeldCallable&) = delete;
  HeldCallable& operator=(const HeldCallable&) = delete;
  py::handle get() const { return f_; }

 private:
  PyObject* f_;
};

// The registration's view of its context: weak, so that registering a rule
// does not keep a context (and its client) alive for the whole process.
struct RuleContext {
  std::weak_ptr<Client> client;
  std::weak_ptr<eager::Context> context;
  const eager::Context* owner;
};

StatusOr<PyContext> Live(const RuleContext& rc, const eager::Context& running,
                         const std::string& what) {
  if (&running != rc.owner) {
    return FailedPrecondition("the Python ", what, " was registered for another context");
  }
  PyContext ctx{rc.client.lock(), rc.context.lock()};
  if (!ctx.client || !ctx.context) {
    return FailedPrecondition("the Python ", what, " cannot run: its context is gone");
  }
  return ctx;
}

py::list WrapAll(const PyContext& ctx, std::span<const Tensor> tensors) {
  py::list out;
  for (const Tensor& t : tensors) out.append(WrapTensor(ctx, t));
  return out;
}

// Runs the callable with the GIL; a Python exception becomes an error that
// names the rule (a plugrt.Error keeps its code), the result one tensor (or
// None) per expected slot.
StatusOr<std::vector<Tensor>> CallRule(const HeldCallable& fn, const PyContext& ctx,
                                       const std::string& what, size_t expected,
                                       const py::list& a, const py::list& b, const py::list& c) {
  try {
    py::object result = fn.get()(a, b, c);
    if (expected == 1 && !py::isinstance<py::list>(result) && !py::isinstance<py::tuple>(result)) {
      result = py::make_tuple(result);
    }
    py::sequence seq = result.cast<py::sequence>();
    if (seq.size() != expected) {
      return InvalidArgument("the Python ", what, " returned ", seq.size(), " values for ",
                             expected, " slots");
    }
    std::vector<Tensor> out;
    for (py::handle item : seq) out.push_back(item.is_none() ? Tensor() : InputOf(ctx, item));
    return out;
  } catch (const StatusError& e) {
    return Status(e.status().code(), StrCat("in the Python ", what, ": ", e.status().message()));
  } catch (py::error_already_set& e) {
    // A plugrt.Error keeps its code; any other exception is UNKNOWN.
    StatusCode code = StatusCode::kUnknown;
    if (e.value() && py::hasattr(e.value(), "code")) {
      py::object given = e.value().attr("code");
      if (py::isinstance<StatusCode>(given)) code = given.cast<StatusCode>();
    }
    return Status(code, StrCat("the Python ", what, " raised ", e.what()));
  } catch (const py::cast_error& e) {
    return InvalidArgument("the Python ", what, " must return a sequence of tensors or None: ",
                           e.what());
  }
}

void RegisterVjpFromPython(const PyContext& ctx, const std::string& op, py::function fn,
                           bool replace) {
  auto held = std::make_shared<HeldCallable>(std::move(fn));
  RuleContext rc{ctx.client, ctx.context, ctx.context.get()};
  const std::string what = StrCat("VJP for ", op);
  auto call = [held, rc, what](const autodiff::VjpCall& c) -> StatusOr<std::vector<Tensor>> {
    if (!InterpreterAlive()) return FailedPrecondition("the Python ", what, " cannot run: Python is gone");
    if (!InterpreterAlive()) return FailedPrecondition("the Python ", what, " cannot run: Python is gone");
    py::gil_scoped_acquire gil;
    PLUGRT_ASSIGN_OR_RETURN(PyContext live, Live(rc, c.context(), what));
    return CallRule(*held, live, what, c.op.inputs().size(), WrapAll(live, c.op.inputs()),
                    WrapAll(live, c.outputs), WrapAll(live, c.output_grads));
  };
  ThrowIfError(autodiff::RegisterVjp(op, std::move(call), replace));
}

void RegisterJvpFromPython(const PyContext& ctx, const std::string& op, py::function fn,
                           bool replace) {
  auto held = std::make_shared<HeldCallable>(std::move(fn));
  RuleContext rc{ctx.client, ctx.context, ctx.context.get()};
  const std::string what = StrCat("JVP for ", op);
  auto call = [held, rc, what](const autodiff::JvpCall& c) -> StatusOr<std::vector<Tensor>> {
    if (!InterpreterAlive()) return FailedPrecondition("the Python ", what, " cannot run: Python is gone");
    if (!InterpreterAlive()) return FailedPrecondition("the Python ", what, " cannot run: Python is gone");
    py::gil_scoped_acquire gil;
    PLUGRT_ASSIGN_OR_RETURN(PyContext live, Live(rc, c.context(), what));
    return CallRule(*held, live, what, c.outputs.size(), WrapAll(live, c.op.inputs()),
                    WrapAll(live, c.outputs), WrapAll(live, c.input_tangents));
  };
  ThrowIfError(autodiff::RegisterJvp(op, std::move(call), replace));
}

}  // namespace

void RegisterCustomRules(py::module_& e) {
  e.def("register_vjp", &RegisterVjpFromPython, py::arg("context"), py::arg("op"), py::arg("fn"),
        py::kw_only(), py::arg("replace") = false,
        "register_vjp(context, op, fn, *, replace=False): gradients of `op` (a loaded "
        "function's name, a custom call's op, or a stablehlo.* op to override) on `context`. "
        "fn(inputs, outputs, output_gradients) gets lists of Tensors (a gradient is None for "
        "an integer output) and returns one gradient per input (Tensor, array or None), "
        "computed with context.op so that an outer tape records it. Process-wide, for as long "
        "as the context lives; a second registration needs replace=True.");
  e.def("register_jvp", &RegisterJvpFromPython, py::arg("context"), py::arg("op"), py::arg("fn"),
        py::kw_only(), py::arg("replace") = false,
        "register_jvp(context, op, fn, *, replace=False): as register_vjp, for forward mode: "
        "fn(inputs, outputs, input_tangents) returns one tangent per output.");
}

}  // namespace plugrt::python
