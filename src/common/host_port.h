// plugrt common: network addresses as the project writes them: "HOST",
// "HOST:PORT", "[V6]" or "[V6]:PORT" (and a bare IPv6 address, which has no
// port). One reader for the coordinator's address (src/distributed/) and the
// servers' and clients' loopback checks (src/remote/tls.*).
#ifndef PLUGRT_COMMON_HOST_PORT_H_
#define PLUGRT_COMMON_HOST_PORT_H_

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt {

struct HostPort {
  std::string host;  // without brackets
  bool ipv6 = false;  // written in brackets, or a bare IPv6 address
  std::optional<int> port;
};

// INVALID_ARGUMENT, naming `what`, for an empty host, an unclosed bracket or
// a port that is not a number in 0..65535.
StatusOr<HostPort> ParseHostPort(std::string_view address, std::string_view what);

// ParseHostPort with the port required ("HOST:PORT" or "[V6]:PORT").
StatusOr<HostPort> ParseHostAndPort(std::string_view address, std::string_view what);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_HOST_PORT_H_
