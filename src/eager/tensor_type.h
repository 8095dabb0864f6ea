// plugrt eager: TensorType, an element type with static dimensions, and its
// StableHLO spelling (tensor<2x3xf32>).
#ifndef PLUGRT_EAGER_TENSOR_TYPE_H_
#define PLUGRT_EAGER_TENSOR_TYPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::eager {

struct TensorType {
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;

  friend bool operator==(const TensorType&, const TensorType&) = default;
};

// "tensor<2x3xf32>"; an error for element types StableHLO cannot spell.
StatusOr<std::string> StablehloTypeText(const TensorType& type);
// "f32"; an error as above.
StatusOr<std::string> StablehloElementText(PJRT_Buffer_Type type);
// "f32[2,3]" (an unknown size: "?"), for messages.
std::string ShortTypeText(const TensorType& type);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_TENSOR_TYPE_H_
