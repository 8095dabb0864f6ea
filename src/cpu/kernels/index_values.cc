#include "cpu/kernels/index_values.h"

#include <limits>
#include <type_traits>

namespace plugrt::cpu {
namespace {

template <typename T>
std::vector<int64_t> Widen(const Tensor& tensor) {
  const T* data = tensor.as<T>();
  std::vector<int64_t> out(static_cast<size_t>(tensor.num_elements()));
  for (size_t i = 0; i < out.size(); ++i) {
    if constexpr (std::is_same_v<T, uint64_t>) {
      constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
      out[i] = data[i] > kMax ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(data[i]);
    } else {
      out[i] = static_cast<int64_t>(data[i]);
    }
  }
  return out;
}

}  // namespace

StatusOr<std::vector<int64_t>> IndexValues(const Tensor& tensor) {
  switch (tensor.type()) {
    case ElementType::kI1:
    case ElementType::kUI2:
    case ElementType::kUI4:
    case ElementType::kUI8: return Widen<uint8_t>(tensor);
    case ElementType::kSI2:
    case ElementType::kSI4:
    case ElementType::kSI8: return Widen<int8_t>(tensor);
    case ElementType::kSI16: return Widen<int16_t>(tensor);
    case ElementType::kUI16: return Widen<uint16_t>(tensor);
    case ElementType::kSI32: return Widen<int32_t>(tensor);
    case ElementType::kUI32: return Widen<uint32_t>(tensor);
    case ElementType::kSI64: return Widen<int64_t>(tensor);
    case ElementType::kUI64: return Widen<uint64_t>(tensor);
    default:
      return InvalidArgument("index tensor must have an integer element type, got ",
                             shlo::ElementTypeName(tensor.type()));
  }
}

StatusOr<int64_t> ScalarIndexValue(const Tensor& tensor) {
  if (tensor.num_elements() != 1) {
    return InvalidArgument("expected a one-element index tensor, got ", tensor.num_elements(),
                           " elements");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> values, IndexValues(tensor));
  return values[0];
}

}  // namespace plugrt::cpu
