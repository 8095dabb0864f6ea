#include "compiler/pass_config.h"

#include <cstring>

namespace plugrt::passes {
namespace {

constexpr std::string_view kNames[] = {
#define PLUGRT_BUILTIN_PASS_NAME_(field, name) name,
    PLUGRT_OPTIMIZER_BUILTIN_PASSES(PLUGRT_BUILTIN_PASS_NAME_)
#undef PLUGRT_BUILTIN_PASS_NAME_
};
static_assert(std::size(kNames) == kNumBuiltinPasses);

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string AllNames() {
  std::string names;
  for (std::string_view name : kNames) names += StrCat(names.empty() ? "" : ", ", name);
  return names;
}

}  // namespace

std::string_view BuiltinPassName(BuiltinPass pass) { return kNames[static_cast<int>(pass)]; }

StatusOr<BuiltinPass> FindBuiltinPass(std::string_view name) {
  for (int i = 0; i < kNumBuiltinPasses; ++i) {
    if (kNames[i] == name) return static_cast<BuiltinPass>(i);
  }
  return NotFound("no built-in pass '", name, "'; the passes are: ", AllNames());
}

StatusOr<PassSwitches> ParsePassSwitches(std::string_view text, std::string_view origin) {
  PassSwitches switches;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view entry = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) {
      return InvalidArgument(origin, ": '", entry, "' is not name=on|off|default");
    }
    std::string_view name = Trim(entry.substr(0, equals));
    std::string_view value = Trim(entry.substr(equals + 1));
    StatusOr<BuiltinPass> pass = FindBuiltinPass(name);
    if (!pass.ok()) return InvalidArgument(origin, ": ", pass.status().message());
    if (value == "on") {
      switches[*pass] = PLUGRT_PassSwitch_ON;
    } else if (value == "off") {
      switches[*pass] = PLUGRT_PassSwitch_OFF;
    } else if (value == "default") {
      switches[*pass] = PLUGRT_PassSwitch_DEFAULT;
    } else {
      return InvalidArgument(origin, ": pass '", name, "' set to '", value,
                             "'; the values are on, off and default");
    }
  }
  return switches;
}

StatusOr<PassSwitches> SwitchesFromConfigs(const PLUGRT_OptimizerConfigs& configs) {
  PassSwitches switches;
  int index = 0;
#define PLUGRT_BUILTIN_PASS_READ_(field, name)                                             \
  if (configs.struct_size >= PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerConfigs, field)) { \
    const int value = static_cast<int>(configs.field);                                      \
    if (value < PLUGRT_PassSwitch_DEFAULT || value > PLUGRT_PassSwitch_OFF) {               \
      return InvalidArgument("configs." #field " is ", value,                               \
                             "; a PLUGRT_PassSwitch is 0 (default), 1 (on) or 2 (off)");    \
    }                                                                                      \
    switches.values[index] = static_cast<PLUGRT_PassSwitch>(value);                         \
  }                                                                                        \
  ++index;
  PLUGRT_OPTIMIZER_BUILTIN_PASSES(PLUGRT_BUILTIN_PASS_READ_)
#undef PLUGRT_BUILTIN_PASS_READ_
  return switches;
}

PassConfig MergePassSwitches(const std::vector<SwitchSource>& sources) {
  PassConfig config;
  for (int i = 0; i < kNumBuiltinPasses; ++i) {
    const SwitchSource* first_off = nullptr;
    for (const SwitchSource& source : sources) {
      if (source.switches.values[i] == PLUGRT_PassSwitch_OFF && first_off == nullptr) {
        first_off = &source;
      }
    }
    if (first_off == nullptr) continue;
    config.enabled[i] = false;
    for (const SwitchSource& source : sources) {
      if (source.switches.values[i] != PLUGRT_PassSwitch_ON) continue;
      // Conflicts that involve the user are worth telling; two plugins
      // disagreeing is the documented rule at work.
      const SwitchSource* off = first_off;
      if (!source.is_user) {
        for (const SwitchSource& other : sources) {
          if (other.is_user && other.switches.values[i] == PLUGRT_PassSwitch_OFF) off = &other;
        }
      }
      if (!source.is_user && !off->is_user) continue;
      config.warnings.push_back(StrCat("pass ", kNames[i], ": ", source.who, " turns it on, ",
                                       off->who, " turns it off; off wins"));
    }
  }
  return config;
}

}  // namespace plugrt::passes
