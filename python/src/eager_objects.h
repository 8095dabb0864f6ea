// plugrt Python bindings: the C++ objects behind plugrt.eager's Context and
// Tensor, shared by the eager bindings and the autodiff bindings (which take
// and return eager tensors). Each holds the client and the context, so a
// tensor keeps both alive from Python.
#ifndef PLUGRT_PYTHON_EAGER_OBJECTS_H_
#define PLUGRT_PYTHON_EAGER_OBJECTS_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "client/client.h"
#include "eager/context.h"
#include "eager/tensor.h"

namespace plugrt::python {

struct PyContext {
  std::shared_ptr<Client> client;
  std::shared_ptr<eager::Context> context;
};

struct PyTensor {
  std::shared_ptr<Client> client;
  std::shared_ptr<eager::Context> context;
  eager::Tensor tensor;
};

// An op input: a Tensor, or anything np.asarray takes (copied to the default
// device).
eager::Tensor InputOf(const PyContext& ctx, const pybind11::handle& value);

// A Tensor object over `t`, or None for an empty handle (no gradient, no
// tangent).
pybind11::object WrapTensor(const PyContext& ctx, const eager::Tensor& t);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_EAGER_OBJECTS_H_
