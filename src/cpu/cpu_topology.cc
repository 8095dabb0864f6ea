#include "cpu/cpu_topology.h"

#include <unistd.h>

#include <charconv>
#include <cstring>
#include <thread>

#include "common/byte_io.h"
#include "common/content_hash.h"
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
  if (num_nodes_ > 1) {
    return Unimplemented("the topology of a multi-process CPU job (", num_nodes_,
                         " processes) does not serialize; serialize a single-process one (cpu:N)");
  }
  std::string out(kMagic, sizeof(kMagic));
  ByteWriter writer(out);
  writer.U32(kFormatVersion);
  writer.U32(static_cast<uint32_t>(num_devices()));
  writer.U32(Checksum32(out));
  return out;
}

StatusOr<std::unique_ptr<CpuTopology>> CpuTopology::Deserialize(std::string_view bytes) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return InvalidArgument("not a serialized plugrt CPU topology (", bytes.size(),
                           " bytes without the PRTCPUTP header)");
  }
  ByteReader reader(bytes.substr(sizeof(kMagic)), "serialized CPU topology", sizeof(kMagic));
  uint32_t version = 0;
  PLUGRT_RETURN_IF_ERROR(reader.U32(&version, "format version"));
  if (version != kFormatVersion) {
    return InvalidArgument("serialized CPU topology has format version ", version,
                           "; this plugin reads version ", kFormatVersion);
  }
  if (bytes.size() != kSerializedSize) {
    return InvalidArgument("serialized CPU topology is ", bytes.size(), " bytes; version ",
                           kFormatVersion, " is ", kSerializedSize, " bytes");
  }
  uint32_t count = 0;
  uint32_t checksum = 0;
  PLUGRT_RETURN_IF_ERROR(reader.U32(&count, "device count"));
  PLUGRT_RETURN_IF_ERROR(reader.U32(&checksum, "checksum"));
  if (checksum != Checksum32(bytes.substr(0, kSerializedSize - 4))) {
    return InvalidArgument("serialized CPU topology is corrupted (checksum mismatch)");
  }
  if (count < 1 || count > static_cast<uint32_t>(kMaxCpuDevices)) {
    return InvalidArgument("serialized CPU topology has ", count, " devices; expected 1..",
                           kMaxCpuDevices);
  }
  return std::make_unique<CpuTopology>(static_cast<int>(count));
}

CpuTopology::CpuTopology(int num_devices) : CpuTopology(std::vector<int>{num_devices}) {}

CpuTopology::CpuTopology(const std::vector<int>& devices_per_node)
    : num_nodes_(static_cast<int>(devices_per_node.size())) {
  const int64_t cores = HostCoreCount();
  const int64_t memory_bytes = HostMemoryBytes();
  int id = 0;
  for (int node = 0; node < num_nodes_; ++node) {
    // Other nodes' hosts are described by what this host has: the CPU
    // plugin exchanges device counts only.
    for (int ordinal = 0; ordinal < devices_per_node[static_cast<size_t>(node)]; ++ordinal, ++id) {
      sdk::Attributes attributes = {
          {"core_count", cores},
          {"host_memory_bytes", memory_bytes},
          {"device_ordinal", static_cast<int64_t>(ordinal)},
      };
      descriptions_.push_back(
          std::make_unique<CpuDeviceDescription>(id, std::move(attributes), node));
    }
  }
  const int num_devices = id;
  attributes_ = {
      {"cpu_device_count", static_cast<int64_t>(num_devices)},
      {"core_count", cores},
      {"host_memory_bytes", memory_bytes},
  };
  if (num_nodes_ > 1) attributes_.push_back({"num_nodes", static_cast<int64_t>(num_nodes_)});
}

std::string_view CpuTopology::platform_name() const { return kPlatformName; }
std::string_view CpuTopology::platform_version() const { return kPlatformVersion; }

std::vector<const sdk::DeviceDescription*> CpuTopology::device_descriptions() const {
  std::vector<const sdk::DeviceDescription*> result;
  for (const auto& description : descriptions_) result.push_back(description.get());
  return result;
}

}  // namespace plugrt::cpu
