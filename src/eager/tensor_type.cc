#include "eager/tensor_type.h"

#include "common/element_type.h"

namespace plugrt::eager {

StatusOr<std::string> StablehloElementText(PJRT_Buffer_Type type) {
  const ElementTypeInfo* info = FindElementType(type);
  if (info == nullptr || info->stablehlo.empty()) {
    return InvalidArgument("element type ", ElementTypeName(type), " has no StableHLO spelling");
  }
  return std::string(info->stablehlo);
}

StatusOr<std::string> StablehloTypeText(const TensorType& type) {
  PLUGRT_ASSIGN_OR_RETURN(std::string element, StablehloElementText(type.type));
  std::string text = "tensor<";
  for (int64_t d : type.dims) {
    if (d < 0) return InvalidArgument("negative dimension ", d, " in ", ShortTypeText(type));
    text += std::to_string(d) + "x";
  }
  return text + element + ">";
}

std::string ShortTypeText(const TensorType& type) {
  std::string text(ElementTypeName(type.type));
  text += "[";
  for (size_t i = 0; i < type.dims.size(); ++i) {
    if (i > 0) text += ",";
    // Negative: a size a custom tensor does not know (custom_tensor.h).
    text += type.dims[i] < 0 ? "?" : std::to_string(type.dims[i]);
  }
  return text + "]";
}

}  // namespace plugrt::eager
