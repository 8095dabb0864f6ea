#include "remote/wire.h"

#include "common/element_type.h"

#include <limits>

namespace plugrt::remote {

StatusOr<int64_t> HostArrayBytes(int type, const std::vector<int64_t>& dims) {
  const int64_t element = HostElementByteSize(static_cast<PJRT_Buffer_Type>(
      FindElementType(type) == nullptr ? PJRT_Buffer_Type_INVALID : type));
  if (element == 0) {
    return InvalidArgument("element type ", type, " (", ElementTypeName(type),
                           ") has no host array form");
  }
  int64_t bytes = element;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) return InvalidArgument("dimension ", i, " is negative (", dims[i], ")");
    if (dims[i] != 0 && bytes > std::numeric_limits<int64_t>::max() / dims[i]) {
      return InvalidArgument("the array's size overflows 64 bits");
    }
    bytes *= dims[i];
  }
  return bytes;
}

grpc::Status ToGrpc(const Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), status.message());
}

Status FromGrpc(const grpc::Status& status) {
  if (status.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(status.error_code()), status.error_message());
}

}  // namespace plugrt::remote
