// plugrt eager: CustomTensorData, what a custom device keeps for a tensor
// that lives on it (custom_device.h). The handle asks it for the tensor's
// dimensions and summary; destroying it is the tensor's deallocation, which
// happens exactly once, when the last handle goes.
#ifndef PLUGRT_EAGER_CUSTOM_TENSOR_H_
#define PLUGRT_EAGER_CUSTOM_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace plugrt::eager {

// Sizes a custom tensor reports for an axis it cannot give one size for (a
// parallel tensor whose components differ there).
inline constexpr int64_t kUnknownDim = -1;

class CustomTensorData {
 public:
  virtual ~CustomTensorData() = default;
  // Dimension sizes (kUnknownDim where not known); the rank is their count.
  virtual StatusOr<std::vector<int64_t>> Dims() const = 0;
  // The device's description of the value ("[1, 2, 3]", or per component).
  virtual StatusOr<std::string> Summary() const = 0;
  // Waits until the value exists; the error that kept it from existing.
  virtual Status Await() const { return OkStatus(); }
  // Whether Await would return without blocking.
  virtual bool IsReady() const { return true; }
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_CUSTOM_TENSOR_H_
