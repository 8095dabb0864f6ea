// plugrt eager (internal): what the eager C API's handles hold, for the C
// APIs built on it (the autodiff one, src/autodiff/c_api.cc) to reach the
// C++ objects behind them. Not installed; C callers see opaque handles.
#ifndef PLUGRT_EAGER_C_API_INTERNAL_H_
#define PLUGRT_EAGER_C_API_INTERNAL_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eager/context.h"
#include "eager/custom_device.h"
#include "eager/variable.h"
#include "plugrt/eager_c_api.h"

struct PLUGRT_EagerStatus {
  plugrt::Status status;
};

struct PLUGRT_EagerExecutor {
  plugrt::eager::Context* ctx = nullptr;
};

struct PLUGRT_EagerCustomDevice {
  std::string name;
  plugrt::eager::CustomDevice* device = nullptr;  // owned by the context
  std::string last;  // the string a name query lends
};

struct PLUGRT_EagerContext {
  std::unique_ptr<plugrt::eager::Context> ctx;
  PLUGRT_EagerExecutor executor;
  std::mutex mu;  // guards devices
  std::vector<std::unique_ptr<PLUGRT_EagerCustomDevice>> devices;
};

struct PLUGRT_EagerOp {
  std::optional<plugrt::eager::Op> owned;
  // &*owned, or an op lent (to a custom device, a VJP callback).
  const plugrt::eager::Op* op = nullptr;
  PLUGRT_EagerContext* ctx = nullptr;
};

struct PLUGRT_EagerTensorHandle {
  plugrt::eager::Tensor tensor;
};

struct PLUGRT_EagerVariable {
  plugrt::eager::Variable variable;
};

#endif  // PLUGRT_EAGER_C_API_INTERNAL_H_
