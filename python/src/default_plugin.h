// plugrt Python bindings: where the built-in CPU plugin is.
#ifndef PLUGRT_PYTHON_DEFAULT_PLUGIN_H_
#define PLUGRT_PYTHON_DEFAULT_PLUGIN_H_

#include <string>

namespace plugrt::python {

// $PLUGRT_CPU_PLUGIN if set; else the plugin at PLUGRT_CPU_PLUGIN_RELATIVE
// (a path relative to the folder of this extension module, fixed by the
// build: in the build tree build/python/plugrt/ -> build/lib/).
std::string DefaultCpuPluginPath();

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_DEFAULT_PLUGIN_H_
