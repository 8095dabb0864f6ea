// plugrt Python bindings: the extension module plugrt._plugrt, re-exported
// by the plugrt package (python/plugrt/__init__.py).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "default_plugin.h"
#include "errors.h"
#include "pjrt_c_api.h"

namespace py = pybind11;

PYBIND11_MODULE(_plugrt, m) {
  using namespace plugrt::python;
  m.doc() = "plugrt: PJRT plugins, buffers and executables from Python";
  m.attr("PJRT_API_MAJOR") = PJRT_API_MAJOR;
  m.attr("PJRT_API_MINOR") = PJRT_API_MINOR;
  m.def("default_plugin_path", &DefaultCpuPluginPath,
        "The built-in CPU plugin's path ($PLUGRT_CPU_PLUGIN overrides it).");
  RegisterErrors(m);
  ClientClass client(m, "Client", "A PJRT client over one plugin.");
  RegisterClient(m, client);
  RegisterBuffer(m, client);
  RegisterExecutable(m, client);
  RegisterProfiler(m);
  RegisterEager(m);
  pybind11::module_ eager = m.attr("eager");
  RegisterAutodiff(eager);
  RegisterCustomRules(eager);
}
