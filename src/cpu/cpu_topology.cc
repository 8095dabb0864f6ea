#include "cpu/cpu_topology.h"

#include <unistd.h>

#include <charconv>
#include <cstring>
#include <thread>

#include "cpu/cpu_options.h"
#include "cpu/cpu_version.h"

namespace plugrt::cpu {

namespace {
int64_t HostCoreCount() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int64_t>(cores);
}

int64_t HostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page_size);
}
constexpr char kMagic[8] = {'P', 'R', 'T', 'C', 'P', 'U', 'T', 'P'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kSerializedSize = 20;

uint32_t Fnv1a(std::string_view bytes) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

void PutU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint32_t GetU32(std::string_view bytes, size_t offset) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  }
  return value;
}
}  // namespace

StatusOr<int> CpuTopology::DeviceCountFromName(std::string_view name) {
  if (name == kPlatformName) return 1;
  const std::string prefix = std::string(kPlatformName) + ":";
  if (name.substr(0, prefix.size()) == prefix) {
    const std::string_view digits = name.substr(prefix.size());
    int count = 0;
    const char* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, count);
    const bool all_digits =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
    if (all_digits && ec == std::errc() && ptr == end && count >= 1 && count <= kMaxCpuDevices) {
      return count;
    }
    return InvalidArgument("topology '", name, "': the device count after \"", prefix,
                           "\" must be a number from 1 to ", kMaxCpuDevices);
  }
  return InvalidArgument("the CPU plugin has no topology named '", name, "'; use \"",
                         kPlatformName, "\" (one device) or \"", kPlatformName,
                         ":N\" (N devices, 1..", kMaxCpuDevices, ")");
}

StatusOr<std::string> CpuTopology::Serialize() const {
  std::string out(kMagic, sizeof(kMagic));
  PutU32(out, kFormatVersion);
  PutU32(out, static_cast<uint32_t>(num_devices()));
  PutU32(out, Fnv1a(out));
  return out;
}

StatusOr<std::unique_ptr<CpuTopology>> CpuTopology::Deserialize(std::string_view bytes) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return InvalidArgument("not a serialized plugrt CPU topology (", bytes.size(),
                           " bytes without the PRTCPUTP header)");
  }
  if (bytes.size() < sizeof(kMagic) + 4) {
    return InvalidArgument("serialized CPU topology is truncated (", bytes.size(), " bytes)");
  }
  const uint32_t version = GetU32(bytes, 8);
  if (version != kFormatVersion) {
    return InvalidArgument("serialized CPU topology has format version ", version,
                           "; this plugin reads version ", kFormatVersion);
  }
  if (bytes.size() != kSerializedSize) {
    return InvalidArgument("serialized CPU topology is ", bytes.size(), " bytes; version ",
                           kFormatVersion, " is ", kSerializedSize, " bytes");
  }
  if (GetU32(bytes, 16) != Fnv1a(bytes.substr(0, 16))) {
    return InvalidArgument("serialized CPU topology is corrupted (checksum mismatch)");
  }
  const uint32_t count = GetU32(bytes, 12);
  if (count < 1 || count > static_cast<uint32_t>(kMaxCpuDevices)) {
    return InvalidArgument("serialized CPU topology has ", count, " devices; expected 1..",
                           kMaxCpuDevices);
  }
  return std::make_unique<CpuTopology>(static_cast<int>(count));
}

CpuTopology::CpuTopology(int num_devices) {
  const int64_t cores = HostCoreCount();
  const int64_t memory_bytes = HostMemoryBytes();
  for (int id = 0; id < num_devices; ++id) {
    sdk::Attributes attributes = {
        {"core_count", cores},
        {"host_memory_bytes", memory_bytes},
        {"device_ordinal", static_cast<int64_t>(id)},
    };
    descriptions_.push_back(std::make_unique<CpuDeviceDescription>(id, std::move(attributes)));
  }
  attributes_ = {
      {"cpu_device_count", static_cast<int64_t>(num_devices)},
      {"core_count", cores},
      {"host_memory_bytes", memory_bytes},
  };
}

std::string_view CpuTopology::platform_name() const { return kPlatformName; }
std::string_view CpuTopology::platform_version() const { return kPlatformVersion; }

std::vector<const sdk::DeviceDescription*> CpuTopology::device_descriptions() const {
  std::vector<const sdk::DeviceDescription*> result;
  for (const auto& description : descriptions_) result.push_back(description.get());
  return result;
}

}  // namespace plugrt::cpu
