// plugrt Python bindings: one registration function per area, called in
// order by module.cc. Areas that add methods to Client receive its class.
#ifndef PLUGRT_PYTHON_BINDINGS_H_
#define PLUGRT_PYTHON_BINDINGS_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "client/client.h"

namespace plugrt::python {

using ClientClass = pybind11::class_<Client, std::shared_ptr<Client>>;

// Plugin, Device, Memory, and Client's constructor and queries.
void RegisterClient(pybind11::module_& m, ClientClass& client);
// Buffer, Client.buffer, Client.from_dlpack.
void RegisterBuffer(pybind11::module_& m, ClientClass& client);
// Executable, Execution, Client.compile, Client.deserialize.
void RegisterExecutable(pybind11::module_& m, ClientClass& client);
// ProfilerSession (client/profiler_session.h).
void RegisterProfiler(pybind11::module_& m);
// The submodule `eager`: Context, Tensor, Function, Reducer (src/eager/).
void RegisterEager(pybind11::module_& m);
// In that submodule `e`: GradientTape, ForwardAccumulator, stop_gradient
// (src/autodiff/).
void RegisterAutodiff(pybind11::module_& e);
// In that submodule: register_vjp / register_jvp, rules written in Python.
void RegisterCustomRules(pybind11::module_& e);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_BINDINGS_H_
