// plugrt client (internal): wraps a plugin's array of raw handles.
#ifndef PLUGRT_CLIENT_HANDLE_LIST_H_
#define PLUGRT_CLIENT_HANDLE_LIST_H_

#include <cstddef>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::internal {

// One Handle(api, raw) per entry; INVALID_ARGUMENT for a null array with a
// non-zero count or a null entry.
template <typename Handle, typename Raw>
StatusOr<std::vector<Handle>> WrapHandles(const PJRT_Api* api, Raw* const* raw, size_t count,
                                          const char* what) {
  std::vector<Handle> out;
  if (count == 0) return out;
  if (raw == nullptr) return InvalidArgument("plugin returned ", count, " ", what, " but no array");
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (raw[i] == nullptr) return InvalidArgument("plugin returned a null ", what, " at index ", i);
    out.emplace_back(api, raw[i]);
  }
  return out;
}

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_HANDLE_LIST_H_
