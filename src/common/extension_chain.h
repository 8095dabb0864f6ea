// plugrt common: finding an extension in a PJRT extension chain (the
// PJRT_Api's, or the one an argument struct carries in extension_start).
#ifndef PLUGRT_COMMON_EXTENSION_CHAIN_H_
#define PLUGRT_COMMON_EXTENSION_CHAIN_H_

#include <cstddef>
#include <cstring>

#include "pjrt_c_api.h"

namespace plugrt {

// The first extension of `type` whose struct_size is at least `min_size`,
// or null. The type is read as an int: a chain may hold types this header
// does not know. At most 256 links are followed, so a chain that loops ends.
inline const PJRT_Extension_Base* FindExtension(const PJRT_Extension_Base* start,
                                                PJRT_Extension_Type type, size_t min_size) {
  int hops = 0;
  for (const PJRT_Extension_Base* e = start; e != nullptr && hops < 256; e = e->next, ++hops) {
    int found = 0;
    std::memcpy(&found, &e->type, sizeof(found));
    if (found == static_cast<int>(type) && e->struct_size >= min_size) return e;
  }
  return nullptr;
}

}  // namespace plugrt

#endif  // PLUGRT_COMMON_EXTENSION_CHAIN_H_
