#include "common/host_port.h"

#include <algorithm>
#include <cctype>

namespace plugrt {

StatusOr<HostPort> ParseHostPort(std::string_view address, std::string_view what) {
  auto bad = [&](std::string_view why) {
    return InvalidArgument(what, "='", address, "': ", why);
  };
  HostPort out;
  std::string_view port;
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    if (close == std::string_view::npos) return bad("unclosed '['");
    out.host = std::string(address.substr(1, close - 1));
    out.ipv6 = true;
    const std::string_view rest = address.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad("expected ':PORT' after ']'");
      port = rest.substr(1);
      if (port.empty()) return bad("empty port");
    }
  } else if (std::count(address.begin(), address.end(), ':') > 1) {
    out.host = std::string(address);  // a bare IPv6 address
    out.ipv6 = true;
  } else {
    const size_t colon = address.find(':');
    out.host = std::string(address.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = address.substr(colon + 1);
      if (port.empty()) return bad("empty port");
    }
  }
  if (out.host.empty()) return bad("no host");
  if (!port.empty()) {
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(),
                                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return bad("the port is not a number");
    }
    const int value = std::stoi(std::string(port));
    if (value > 65535) return bad("the port is above 65535");
    out.port = value;
  }
  return out;
}

StatusOr<HostPort> ParseHostAndPort(std::string_view address, std::string_view what) {
  PLUGRT_ASSIGN_OR_RETURN(HostPort parsed, ParseHostPort(address, what));
  if (!parsed.port) return InvalidArgument(what, "='", address, "' is not HOST:PORT");
  return parsed;
}

}  // namespace plugrt
