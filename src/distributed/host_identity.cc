#include "distributed/host_identity.h"

#include <unistd.h>

#include <fstream>

#include "common/status.h"

namespace plugrt::distributed {

std::string BootAndNamespace(const char* kind) {
  std::string boot;
  std::ifstream("/proc/sys/kernel/random/boot_id") >> boot;
  char link[128] = {0};
  const ssize_t n = ::readlink(StrCat("/proc/self/ns/", kind).c_str(), link, sizeof(link) - 1);
  if (boot.empty() || n <= 0) return "";
  return StrCat(boot, "/", std::string_view(link, static_cast<size_t>(n)));
}

}  // namespace plugrt::distributed
