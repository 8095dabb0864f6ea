#include "remote/token.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace plugrt::remote {

StatusOr<std::string> LoadToken(const std::string& token_file) {
  std::string path = token_file;
  if (path.empty()) {
    if (const char* env = std::getenv(kTokenFileEnv); env != nullptr) path = env;
  }
  std::string token;
  if (!path.empty()) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return NotFound("cannot read the token file '", path, "'");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    token = bytes.str();
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
    if (token.empty()) return InvalidArgument("the token file '", path, "' is empty");
  } else if (const char* env = std::getenv(kTokenEnv); env != nullptr) {
    token = env;
  }
  if (token.empty()) {
    return InvalidArgument("no remote token: give a token file (--token-file, the token_file "
                           "option or $",
                           kTokenFileEnv, ") or set $", kTokenEnv);
  }
  // gRPC refuses metadata values outside printable ASCII.
  for (char c : token) {
    if (c < 0x20 || c > 0x7e) {
      return InvalidArgument("the remote token must be printable ASCII (no control characters)");
    }
  }
  return token;
}

bool TokenMatches(std::string_view expected, std::string_view given) {
  if (expected.empty()) return false;
  unsigned char diff = expected.size() == given.size() ? 0 : 1;
  for (size_t i = 0; i < given.size(); ++i) {
    diff |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
  }
  return diff == 0;
}

}  // namespace plugrt::remote
