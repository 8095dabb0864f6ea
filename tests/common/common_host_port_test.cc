// The one reader of network addresses: host names, IPv4, bracketed and bare
// IPv6, with and without ports, and what it refuses.
#include <gtest/gtest.h>

#include "common/host_port.h"

namespace plugrt {
namespace {

TEST(HostPortTest, ReadsEveryFormTheProjectWrites) {
  struct Case {
    const char* text;
    const char* host;
    bool ipv6;
    std::optional<int> port;
  };
  for (const Case& c : {Case{"node01", "node01", false, std::nullopt},
                        Case{"node01:29500", "node01", false, 29500},
                        Case{"198.18.0.1:0", "198.18.0.1", false, 0},
                        Case{"[::1]:65535", "::1", true, 65535},
                        Case{"[fe80::1]", "fe80::1", true, std::nullopt},
                        Case{"fe80::1", "fe80::1", true, std::nullopt}}) {
    SCOPED_TRACE(c.text);
    StatusOr<HostPort> parsed = ParseHostPort(c.text, "ADDR");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(parsed->host, c.host);
    EXPECT_EQ(parsed->ipv6, c.ipv6);
    EXPECT_EQ(parsed->port, c.port);
  }
}

TEST(HostPortTest, RefusesWhatIsNoAddressNamingIt) {
  for (const char* text : {"", ":80", "host:", "host:http", "host:65536", "host:123456",
                           "[::1", "[::1]80", "[]:80"}) {
    SCOPED_TRACE(text);
    StatusOr<HostPort> parsed = ParseHostPort(text, "PLUGRT_COORDINATOR");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find("PLUGRT_COORDINATOR='"), std::string::npos)
        << parsed.status().message();
  }
  StatusOr<HostPort> no_port = ParseHostAndPort("node01", "X");
  ASSERT_FALSE(no_port.ok());
  EXPECT_NE(no_port.status().message().find("X='node01' is not HOST:PORT"), std::string::npos);
  EXPECT_TRUE(ParseHostAndPort("[::1]:1", "X").ok());
}

}  // namespace
}  // namespace plugrt
