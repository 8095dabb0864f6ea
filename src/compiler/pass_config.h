// plugrt passes: the switches of the built-in compile passes.
//
// The passes a switch can turn off are named once, in the optimizer ABI's
// PLUGRT_OPTIMIZER_BUILTIN_PASSES (include/plugrt/optimizer_c_api.h), so the
// C configs, the user's "name=on|off" text and the pass report agree. Every
// pass is on unless some party turns it off: switches from the optimizer
// plugins of a device type and the user's merge, any explicit off winning.
#ifndef PLUGRT_COMPILER_PASS_CONFIG_H_
#define PLUGRT_COMPILER_PASS_CONFIG_H_

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "plugrt/optimizer_c_api.h"

namespace plugrt::passes {

enum class BuiltinPass : int {
#define PLUGRT_BUILTIN_PASS_ENUM_(field, name) field,
  PLUGRT_OPTIMIZER_BUILTIN_PASSES(PLUGRT_BUILTIN_PASS_ENUM_)
#undef PLUGRT_BUILTIN_PASS_ENUM_
};
inline constexpr int kNumBuiltinPasses = 0
#define PLUGRT_BUILTIN_PASS_COUNT_(field, name) +1
    PLUGRT_OPTIMIZER_BUILTIN_PASSES(PLUGRT_BUILTIN_PASS_COUNT_)
#undef PLUGRT_BUILTIN_PASS_COUNT_
    ;

// "cse", "dead-code-elimination", ...
std::string_view BuiltinPassName(BuiltinPass pass);
// The pass of that name, or NOT_FOUND listing the names.
StatusOr<BuiltinPass> FindBuiltinPass(std::string_view name);

// One party's switches (a plugin's configs, or the user's).
struct PassSwitches {
  std::array<PLUGRT_PassSwitch, kNumBuiltinPasses> values{};  // all DEFAULT
  PLUGRT_PassSwitch operator[](BuiltinPass pass) const { return values[static_cast<int>(pass)]; }
  PLUGRT_PassSwitch& operator[](BuiltinPass pass) { return values[static_cast<int>(pass)]; }
};

// "cse=off,algebraic-simplification=on" (also "default"; spaces ignored);
// errors name the bad entry. `origin` ("PLUGRT_PASSES", "compile option
// plugrt_passes") prefixes them.
StatusOr<PassSwitches> ParsePassSwitches(std::string_view text, std::string_view origin);

// A plugin's C configs: fields beyond the plugin's struct_size stay DEFAULT;
// a value outside the enum is INVALID_ARGUMENT naming the field.
StatusOr<PassSwitches> SwitchesFromConfigs(const PLUGRT_OptimizerConfigs& configs);

// Which built-in passes run, after merging, with the warnings the merge gave.
struct PassConfig {
  std::array<bool, kNumBuiltinPasses> enabled;
  std::vector<std::string> warnings;

  PassConfig() { enabled.fill(true); }
  bool on(BuiltinPass pass) const { return enabled[static_cast<int>(pass)]; }
};

// Whose switches they are, for warnings: "optimizer 'fold-less' (libx.so)",
// "the user".
struct SwitchSource {
  std::string who;
  PassSwitches switches;
  bool is_user = false;
};

// Any OFF wins; a pass nobody turns off runs. An ON from one source against
// an OFF from another is a warning when one of them is the user's.
PassConfig MergePassSwitches(const std::vector<SwitchSource>& sources);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASS_CONFIG_H_
