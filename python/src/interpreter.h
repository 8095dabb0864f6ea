// plugrt Python bindings: whether a plugin thread may still take the GIL.
#ifndef PLUGRT_PYTHON_INTERPRETER_H_
#define PLUGRT_PYTHON_INTERPRETER_H_

#include <Python.h>

namespace plugrt::python {

// False once the interpreter is shutting down: callbacks from plugin threads
// then leak the Python objects they hold rather than take a GIL that no
// longer exists.
inline bool InterpreterAlive() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_INTERPRETER_H_
