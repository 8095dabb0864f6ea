// plugrt Python bindings: plugrt::Status -> the Python exception plugrt.Error,
// which carries the PJRT error code.
#ifndef PLUGRT_PYTHON_ERRORS_H_
#define PLUGRT_PYTHON_ERRORS_H_

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <utility>

#include "common/status.h"

namespace plugrt::python {

// Thrown by the bindings; translated into plugrt.Error (code, code_name,
// message) at the Python boundary.
class StatusError : public std::runtime_error {
 public:
  explicit StatusError(Status status)
      : std::runtime_error(status.ToString()), status_(std::move(status)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw StatusError(status);
}

template <typename T>
T ValueOrThrow(StatusOr<T> value) {
  if (!value.ok()) throw StatusError(value.status());
  return std::move(value).value();
}

// Defines plugrt.ErrorCode and plugrt.Error in `m` and installs the
// translator.
void RegisterErrors(pybind11::module_& m);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_ERRORS_H_
