#include "cpu/exec/literal.h"

#include <cstring>

namespace plugrt::cpu {

StatusOr<Tensor> TensorFromAttribute(const shlo::Attribute& attr) {
  if (attr.kind != shlo::Attribute::Kind::kDenseElements || attr.dense == nullptr) {
    return InvalidArgument("expected a dense elements attribute");
  }
  const shlo::Type& type = attr.type;
  if (!type.is_tensor()) {
    return attr.type.kind() == shlo::Type::Kind::kUnsupported
               ? Unimplemented("literal of type ", type.unsupported_text(), " is not supported")
               : InvalidArgument("a dense literal must have a tensor type, not ", type.ToString());
  }
  if (!type.has_static_shape()) {
    return InvalidArgument("a dense literal needs a static shape, not ", type.ToString());
  }
  Tensor tensor(type.element_type(), type.dims());
  const size_t element_bytes = shlo::StorageBytes(type.element_type());
  const std::vector<std::byte>& bytes = attr.dense->bytes;
  if (attr.dense->splat) {
    if (bytes.size() != element_bytes) {
      return InvalidArgument("splat literal holds ", bytes.size(), " bytes, expected ",
                             element_bytes);
    }
    std::byte* out = tensor.MutableData();
    for (int64_t i = 0; i < tensor.num_elements(); ++i) {
      std::memcpy(out + i * element_bytes, bytes.data(), element_bytes);
    }
  } else {
    if (bytes.size() != tensor.byte_size()) {
      return InvalidArgument("literal holds ", bytes.size(), " bytes, ", type.ToString(),
                             " needs ", tensor.byte_size());
    }
    if (!bytes.empty()) std::memcpy(tensor.MutableData(), bytes.data(), bytes.size());
  }
  return tensor;
}

bool TensorMatchesType(const Tensor& tensor, const shlo::Type& type) {
  return type.is_tensor() && tensor.type() == type.element_type() && tensor.dims() == type.dims();
}

std::string TensorTypeString(const Tensor& tensor) {
  return shlo::Type::Tensor(tensor.type(), tensor.dims()).ToString();
}

}  // namespace plugrt::cpu
