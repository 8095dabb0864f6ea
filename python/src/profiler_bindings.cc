// plugrt Python bindings: ProfilerSession (client/profiler_session.h), which
// plugrt.profile (python/plugrt/__init__.py) wraps as a context manager.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "bindings.h"
#include "client/profiler_session.h"
#include "errors.h"

namespace py = pybind11;

namespace plugrt::python {

namespace {

// The session and the plugin it profiles (kept loaded while it records).
struct PySession {
  std::shared_ptr<Plugin> plugin;
  std::unique_ptr<ProfilerSession> session;
};

}  // namespace

void RegisterProfiler(py::module_& m) {
  py::class_<PySession>(m, "ProfilerSession",
                        "Records the client's calls and, through PJRT's profiler extension, the "
                        "plugin's kernels; started when made.")
      .def(py::init([](std::shared_ptr<Plugin> plugin) {
             auto made = std::make_unique<PySession>();
             made->plugin = std::move(plugin);
             made->session = ValueOrThrow(ProfilerSession::Start(made->plugin.get()));
             return made;
           }),
           py::arg("plugin"))
      .def_property_readonly("plugin_profiled",
                             [](const PySession& s) { return s.session->plugin_profiled(); })
      .def("stop", [](PySession& s) { ThrowIfError(s.session->Stop()); },
           "Stops recording (the plugin's and the client's).")
      .def(
          "write",
          [](PySession& s, const std::string& path, double gflops, double gbps) {
            profiler::SummaryOptions options;
            options.ceilings.gflops = gflops;
            options.ceilings.gbps = gbps;
            py::gil_scoped_release release;
            return ValueOrThrow(s.session->WriteFiles(path, options));
          },
          py::arg("path"), py::arg("gflops") = 0.0, py::arg("gbps") = 0.0,
          "Writes the Chrome trace to path and the summary beside it; returns the summary. "
          "gflops / gbps: the machine's ceilings, for the summary's ratios (0: unknown).");
}

}  // namespace plugrt::python
