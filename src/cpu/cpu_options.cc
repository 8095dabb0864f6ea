#include "cpu/cpu_options.h"

namespace plugrt::cpu {

namespace {
std::string_view TypeName(const sdk::AttributeValue& value) {
  switch (value.index()) {
    case 0: return "string";
    case 1: return "int64";
    case 2: return "int64 list";
    case 3: return "float";
    case 4: return "bool";
  }
  return "unknown";
}
}  // namespace

StatusOr<CpuOptions> ParseCpuOptions(const sdk::Attributes& options) {
  CpuOptions result;
  for (const sdk::Attribute& option : options) {
    if (option.name == "cpu_device_count") {
      const int64_t* count = std::get_if<int64_t>(&option.value);
      if (count == nullptr) {
        return InvalidArgument("option cpu_device_count must be an int64, got a ",
                               TypeName(option.value));
      }
      if (*count < 1 || *count > kMaxCpuDevices) {
        return InvalidArgument("option cpu_device_count must be between 1 and ", kMaxCpuDevices,
                               ", got ", *count);
      }
      result.num_devices = static_cast<int>(*count);
    } else if (option.name == "threads") {
      const int64_t* threads = std::get_if<int64_t>(&option.value);
      if (threads == nullptr) {
        return InvalidArgument("option threads must be an int64, got a ", TypeName(option.value));
      }
      if (*threads < 1 || *threads > kMaxThreads) {
        return InvalidArgument("option threads must be between 1 and ", kMaxThreads, ", got ",
                               *threads);
      }
      result.threads = static_cast<int>(*threads);
    } else {
      return InvalidArgument("unknown option '", option.name,
                             "' for the CPU plugin; known options: cpu_device_count, threads");
    }
  }
  return result;
}

}  // namespace plugrt::cpu
