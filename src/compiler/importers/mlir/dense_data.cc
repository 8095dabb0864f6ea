#include "compiler/importers/mlir/dense_data.h"

#include <cstring>

namespace plugrt::shlo {

Status CheckDenseLiteralType(const Type& type) {
  if (!type.is_tensor()) {
    return InvalidArgument("a dense literal needs a tensor type, not ", type.ToString());
  }
  if (!type.has_static_shape()) {
    return InvalidArgument("a dense literal needs a static shape, not ", type.ToString());
  }
  if (type.num_elements() < 0 || type.num_elements() > (int64_t{1} << 40)) {
    return InvalidArgument("dense literal type ", type.ToString(), " is too large");
  }
  return OkStatus();
}

StatusOr<std::shared_ptr<const DenseData>> DenseDataFromBytes(const Type& type,
                                                              std::string_view bytes,
                                                              std::string_view what) {
  auto data = std::make_shared<DenseData>();
  const ElementType et = type.element_type();
  const int eb = StorageBytes(et);
  const int64_t n = type.num_elements();
  const size_t size = bytes.size();
  if (size == static_cast<size_t>(eb) && n != 1) {
    data->splat = true;
  } else if (size != static_cast<size_t>(n) * eb) {
    return InvalidArgument(what, " has ", size, " bytes but ", type.ToString(), " needs ",
                           static_cast<uint64_t>(n) * eb, " (", n, " elements of ", eb,
                           " bytes)");
  }
  data->bytes.resize(size);
  if (size > 0) std::memcpy(data->bytes.data(), bytes.data(), size);
  // Keep the storage format: i1 as 0/1, sub-byte integers extended.
  if (et == ElementType::kI1) {
    for (auto& b : data->bytes) b = static_cast<std::byte>(b != std::byte{0});
  } else if (IsInteger(et) && BitWidth(et) < 8) {
    const int bits = BitWidth(et);
    for (auto& b : data->bytes) {
      unsigned v = static_cast<unsigned>(b) & ((1u << bits) - 1);
      if (IsSignedInteger(et) && (v >> (bits - 1))) v |= ~((1u << bits) - 1);
      b = static_cast<std::byte>(v & 0xFF);
    }
  }
  return std::shared_ptr<const DenseData>(data);
}

}  // namespace plugrt::shlo
