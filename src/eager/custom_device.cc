#include "eager/custom_device.h"

namespace plugrt::eager {

StatusOr<Tensor> CustomDevice::Pack(Context& /*context*/, const std::vector<Tensor>& /*tensors*/) {
  return Unimplemented("this custom device cannot pack tensors");
}

StatusOr<bool> CustomDevice::ShallPinToThisDevice(const Op& /*op*/) { return false; }

}  // namespace plugrt::eager
