// plugrt CPU plugin: the version facts it reports to frameworks, kept in one
// place so the plugin attributes, the client and the topology agree.
#ifndef PLUGRT_CPU_CPU_VERSION_H_
#define PLUGRT_CPU_CPU_VERSION_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace plugrt::cpu {

inline constexpr std::string_view kPlatformName = "cpu";
inline constexpr std::string_view kPlatformVersion = "plugrt-cpu 0.1.0";
inline constexpr std::string_view kPluginVersion = "0.1.0";

// `xla_version` is how a framework learns which revision of the XLA-facing
// plugin contract a plugin follows (for example whether compile options
// arrive as a serialized CompileOptionsProto); XLA's own plugins report 2,
// and so do we because we accept the same inputs.
inline constexpr int64_t kXlaVersion = 2;

// The StableHLO versions (major, minor, patch) we accept. A framework
// serializes its programs for the newest version both sides know, never
// below the minimum, so these bound what Compile will be handed.
struct StableHloVersions {
  std::array<int64_t, 3> current;
  std::array<int64_t, 3> minimum;
};
inline constexpr StableHloVersions kStableHloVersions = {{1, 8, 0}, {0, 9, 0}};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_VERSION_H_
