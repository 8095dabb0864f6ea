#include "client/element_type.h"

namespace plugrt {

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
  return ElementCount(dims) * HostElementByteSize(type);
}

}  // namespace plugrt
