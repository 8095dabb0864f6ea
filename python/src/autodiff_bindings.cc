// plugrt Python bindings: the gradient tape and the forward accumulator
// (src/autodiff/) in plugrt.eager, beside the tensors they differentiate, as
// TensorFlow keeps GradientTape beside its eager tensors.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "autodiff/forward_accumulator.h"
#include "autodiff/tape.h"
#include "bindings.h"
#include "eager_objects.h"
#include "errors.h"

namespace plugrt::python {

namespace py = pybind11;
using autodiff::ForwardAccumulator;
using autodiff::Tape;
using autodiff::UnconnectedGradients;
using eager::Tensor;

namespace {

// Both hold the context before the recorder, so the recorder (which refers
// to the context) is destroyed first. A recorder is one of its thread's op
// observers: it is made on __enter__ and used on that thread only.
struct PyGradientTape {
  PyContext ctx;
  bool persistent = false;
  std::thread::id thread;
  std::unique_ptr<Tape> tape;
};

struct PyForwardAccumulator {
  PyContext ctx;
  std::thread::id thread;
  std::unique_ptr<ForwardAccumulator> acc;
};

void CheckThread(std::thread::id made_on, const char* what) {
  if (std::this_thread::get_id() != made_on) {
    ThrowIfError(Status(StatusCode::kFailedPrecondition,
                        StrCat(what, " is used on another thread than the one that entered it: "
                                     "it records only the ops of that thread")));
  }
}

template <typename Recorder>
Recorder& Entered(const std::unique_ptr<Recorder>& recorder, std::thread::id thread,
                  const char* what) {
  if (!recorder) {
    ThrowIfError(Status(StatusCode::kFailedPrecondition,
                        StrCat(what, " is not recording: use it in a `with` block")));
  }
  CheckThread(thread, what);
  return *recorder;
}

UnconnectedGradients UnconnectedOf(const std::string& name) {
  if (name == "none") return UnconnectedGradients::kNone;
  if (name == "zero") return UnconnectedGradients::kZero;
  throw StatusError(Status(StatusCode::kInvalidArgument,
                           StrCat("unconnected_gradients must be \"none\" or \"zero\", got \"",
                                  name, "\"")));
}

const Tensor& TensorArg(const py::handle& value, const char* what) {
  if (!py::isinstance<PyTensor>(value)) {
    throw StatusError(Status(StatusCode::kInvalidArgument,
                             StrCat(what, " must be a plugrt.eager.Tensor, got a Python ",
                                    std::string(py::str(value.get_type().attr("__name__"))))));
  }
  return value.cast<const PyTensor&>().tensor;
}

// A Tensor, or a list/tuple of them; `single` says which it was.
std::vector<Tensor> TensorsArg(const py::handle& value, const char* what, bool* single) {
  std::vector<Tensor> out;
  *single = !(py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value));
  if (*single) {
    out.push_back(TensorArg(value, what));
  } else {
    for (py::handle item : value) out.push_back(TensorArg(item, what));
  }
  return out;
}

py::object Gradient(PyGradientTape& self, const py::handle& target, const py::handle& sources,
                    const py::object& output_gradients, const std::string& unconnected) {
  Tape& tape = Entered(self.tape, self.thread, "GradientTape");
  bool single_target = false;
  bool single_source = false;
  std::vector<Tensor> targets = TensorsArg(target, "target", &single_target);
  std::vector<Tensor> srcs = TensorsArg(sources, "sources", &single_source);
  std::vector<Tensor> seeds;
  if (!output_gradients.is_none()) {
    // One per target: a Tensor, an array, or None for ones.
    py::list given;
    if (single_target) {
      given.append(output_gradients);
    } else {
      given = py::list(output_gradients);
    }
    for (py::handle g : given) seeds.push_back(g.is_none() ? Tensor() : InputOf(self.ctx, g));
  }
  const UnconnectedGradients mode = UnconnectedOf(unconnected);
  std::vector<Tensor> grads = ValueOrThrow([&] {
    py::gil_scoped_release release;
    return tape.Gradient(targets, srcs, seeds, mode);
  }());
  if (single_source) return WrapTensor(self.ctx, grads.at(0));
  py::list out;
  for (const Tensor& g : grads) out.append(WrapTensor(self.ctx, g));
  return out;
}

// While entered, no tape or accumulator on the entering thread records.
struct PyStopRecording {
  std::thread::id thread;
  std::unique_ptr<autodiff::StopRecording> pause;
};

}  // namespace

void RegisterAutodiff(py::module_& e) {
  py::class_<PyGradientTape>(
      e, "GradientTape",
      "GradientTape(ctx, persistent=False): reverse-mode differentiation of the eager ops run "
      "on this thread. It records from `with` on, every op on a watched tensor or on one a "
      "recorded op made, until it is deleted (a non-persistent tape: until its gradient).")
      .def(py::init([](const PyContext& ctx, bool persistent) {
             return PyGradientTape{ctx, persistent, {}, nullptr};
           }),
           py::arg("ctx"), py::arg("persistent") = false)
      .def("__enter__",
           [](PyGradientTape& self) -> PyGradientTape& {
             if (self.tape) {
               ThrowIfError(Status(StatusCode::kFailedPrecondition,
                                   "GradientTape entered twice: make a new tape"));
             }
             self.thread = std::this_thread::get_id();
             self.tape = std::make_unique<Tape>(*self.ctx.context, self.persistent);
             return self;
           },
           py::return_value_policy::reference)
      .def("__exit__",
           [](PyGradientTape&, const py::object&, const py::object&, const py::object&) {
             return false;
           })
      .def("watch",
           [](PyGradientTape& self, const py::handle& tensors) {
             Tape& tape = Entered(self.tape, self.thread, "GradientTape");
             bool single = false;
             for (const Tensor& t : TensorsArg(tensors, "watch's argument", &single)) tape.Watch(t);
           },
           py::arg("tensor"), "Records the ops on a Tensor (or on each of a list of them).")
      .def("gradient", &Gradient, py::arg("target"), py::arg("sources"),
           py::arg("output_gradients") = py::none(), py::arg("unconnected_gradients") = "none",
           "gradient(target, sources, output_gradients=None, unconnected_gradients='none'): "
           "d(target)/d(sources). target: a Tensor or a list; sources: a Tensor (one gradient "
           "back) or a list (a list back). output_gradients weight the targets (one each; None: "
           "ones). A source no target depends on gets None, or zeros with "
           "unconnected_gradients='zero'. A non-persistent tape gives one gradient.")
      .def_property_readonly("persistent", [](const PyGradientTape& self) { return self.persistent; })
      .def_property_readonly("num_recorded",
                             [](const PyGradientTape& self) {
                               return self.tape ? self.tape->num_recorded() : int64_t{0};
                             })
      .def_property_readonly(
          "stats",
          [](const PyGradientTape& self) {
            autodiff::GradientStats s;
            if (self.tape) s = self.tape->last_stats();
            py::dict d;
            d["ops_on_tape"] = s.ops_on_tape;
            d["vjps_run"] = s.vjps_run;
            d["ops_pruned"] = s.ops_pruned;
            return d;
          },
          "Counts of the last gradient: ops_on_tape, vjps_run, ops_pruned (on no path from a "
          "source to a target).");

  py::class_<PyForwardAccumulator>(
      e, "ForwardAccumulator",
      "ForwardAccumulator(ctx): forward-mode differentiation. Inside `with`, watch(x, tangent) "
      "and every later op on this thread with a tangent on an input gets output tangents at "
      "once; jvp(y) is J v.")
      .def(py::init([](const PyContext& ctx) { return PyForwardAccumulator{ctx, {}, nullptr}; }),
           py::arg("ctx"))
      .def("__enter__",
           [](PyForwardAccumulator& self) -> PyForwardAccumulator& {
             if (self.acc) {
               ThrowIfError(Status(StatusCode::kFailedPrecondition,
                                   "ForwardAccumulator entered twice: make a new one"));
             }
             self.thread = std::this_thread::get_id();
             self.acc = std::make_unique<ForwardAccumulator>(*self.ctx.context);
             return self;
           },
           py::return_value_policy::reference)
      .def("__exit__",
           [](PyForwardAccumulator&, const py::object&, const py::object&, const py::object&) {
             return false;
           })
      .def("watch",
           [](PyForwardAccumulator& self, const py::handle& primal, const py::handle& tangent) {
             ForwardAccumulator& acc = Entered(self.acc, self.thread, "ForwardAccumulator");
             ThrowIfError(acc.Watch(TensorArg(primal, "primal"), InputOf(self.ctx, tangent)));
           },
           py::arg("primal"), py::arg("tangent"),
           "Gives `primal` the tangent `tangent` (a Tensor or an array of its dtype and shape).")
      .def("jvp",
           [](PyForwardAccumulator& self, const py::handle& t, const std::string& unconnected) {
             ForwardAccumulator& acc = Entered(self.acc, self.thread, "ForwardAccumulator");
             return WrapTensor(self.ctx, ValueOrThrow(acc.Jvp(TensorArg(t, "jvp's argument"),
                                                        UnconnectedOf(unconnected))));
           },
           py::arg("tensor"), py::arg("unconnected_gradients") = "none",
           "The tangent of `tensor`: None (or zeros with unconnected_gradients='zero') where no "
           "watched tensor leads to it.")
      .def_property_readonly("num_jvps", [](const PyForwardAccumulator& self) {
        return self.acc ? self.acc->num_jvps() : int64_t{0};
      });

  py::class_<PyStopRecording>(
      e, "stop_recording",
      "with plugrt.eager.stop_recording(): no tape or accumulator of this thread records the "
      "ops run inside.")
      .def(py::init([] { return PyStopRecording{}; }))
      .def("__enter__",
           [](PyStopRecording& self) {
             if (self.pause) {
               ThrowIfError(Status(StatusCode::kFailedPrecondition,
                                   "stop_recording entered twice: make a new one"));
             }
             self.thread = std::this_thread::get_id();
             self.pause = std::make_unique<autodiff::StopRecording>();
           })
      .def("__exit__", [](PyStopRecording& self, const py::object&, const py::object&,
                          const py::object&) {
        // The pause belongs to the thread that entered; exiting elsewhere
        // would resume another thread's recorders.
        CheckThread(self.thread, "stop_recording");
        self.pause.reset();
        return false;
      });

  e.def("stop_gradient",
        [](const PyTensor& t) {
          Tensor stopped = ValueOrThrow([&] {
            py::gil_scoped_release release;
            return autodiff::StopGradient(*t.context, t.tensor);
          }());
          return PyTensor{t.client, t.context, std::move(stopped)};
        },
        py::arg("tensor"), "A tensor equal to `tensor` through which no gradient flows.");
}

}  // namespace plugrt::python
