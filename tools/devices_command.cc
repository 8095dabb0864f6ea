// `plugrt devices`: what a plugin offers: platform, attributes, devices with
// their memories and memory statistics.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>

#include "tools/commands.h"

namespace plugrt::tools {
namespace {

// Joins "name=value" pairs for one line.
std::string JoinNamedValues(const std::vector<NamedValue>& values) {
  std::string out;
  for (const NamedValue& value : values) {
    if (!out.empty()) out += ", ";
    out += NamedValueToString(value);
  }
  return out.empty() ? "(none)" : out;
}

std::string FormatStats(const MemoryStats& stats) {
  std::ostringstream out;
  out << "bytes_in_use=" << stats.bytes_in_use;
  auto put = [&out](const char* name, const std::optional<int64_t>& value) {
    if (value) out << ' ' << name << '=' << *value;
  };
  put("peak_bytes_in_use", stats.peak_bytes_in_use);
  put("num_allocs", stats.num_allocs);
  put("largest_alloc_size", stats.largest_alloc_size);
  put("bytes_limit", stats.bytes_limit);
  put("bytes_reserved", stats.bytes_reserved);
  put("peak_bytes_reserved", stats.peak_bytes_reserved);
  put("bytes_reservable_limit", stats.bytes_reservable_limit);
  put("largest_free_block_bytes", stats.largest_free_block_bytes);
  put("pool_bytes", stats.pool_bytes);
  put("peak_pool_bytes", stats.peak_pool_bytes);
  return out.str();
}

Status PrintMemory(std::ostream& out, const Memory& memory, bool is_default) {
  PLUGRT_ASSIGN_OR_RETURN(int id, memory.id());
  PLUGRT_ASSIGN_OR_RETURN(std::string kind, memory.kind());
  PLUGRT_ASSIGN_OR_RETURN(int kind_id, memory.kind_id());
  PLUGRT_ASSIGN_OR_RETURN(std::string text, memory.to_string());
  out << "      memory " << id << ": " << kind << " (kind id " << kind_id << ")"
      << (is_default ? " [default]" : "") << "  " << text << "\n";
  return OkStatus();
}

Status PrintDevice(std::ostream& out, const Device& device) {
  PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
  PLUGRT_ASSIGN_OR_RETURN(std::string kind, device.kind());
  PLUGRT_ASSIGN_OR_RETURN(std::string text, device.to_string());
  PLUGRT_ASSIGN_OR_RETURN(std::string debug, device.debug_string());
  PLUGRT_ASSIGN_OR_RETURN(int process, device.process_index());
  PLUGRT_ASSIGN_OR_RETURN(bool addressable, device.is_addressable());
  out << "  device " << id << ": " << kind << "  " << text << "\n"
      << "    debug: " << debug << "\n"
      << "    process: " << process << ", addressable: " << (addressable ? "yes" : "no");
  if (addressable) {
    PLUGRT_ASSIGN_OR_RETURN(int hardware_id, device.local_hardware_id());
    out << ", local hardware id: " << hardware_id;
  }
  out << "\n";
  PLUGRT_ASSIGN_OR_RETURN(std::vector<NamedValue> attributes, device.attributes());
  out << "    attributes: " << JoinNamedValues(attributes) << "\n";
  if (!addressable) return OkStatus();

  PLUGRT_ASSIGN_OR_RETURN(std::vector<Memory> memories, device.memories());
  StatusOr<Memory> default_memory = device.default_memory();
  out << "    memories: " << memories.size() << "\n";
  for (const Memory& memory : memories) {
    PLUGRT_RETURN_IF_ERROR(
        PrintMemory(out, memory, default_memory.ok() && *default_memory == memory));
  }
  StatusOr<MemoryStats> stats = device.memory_stats();
  if (stats.ok()) {
    out << "    memory stats: " << FormatStats(*stats) << "\n";
  } else {
    out << "    memory stats: unavailable (" << stats.status().ToString() << ")\n";
  }
  return OkStatus();
}

Status RunDevices(const PluginOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options));
  std::ostream& out = std::cout;
  const Plugin& plugin = *client->plugin();
  PLUGRT_ASSIGN_OR_RETURN(std::string platform, client->platform_name());
  PLUGRT_ASSIGN_OR_RETURN(std::string version, client->platform_version());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<NamedValue> attributes, plugin.attributes());
  PLUGRT_ASSIGN_OR_RETURN(int process, client->process_index());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->devices());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> addressable, client->addressable_devices());

  out << "plugin: " << plugin.path() << " (PJRT C API " << plugin.major_version() << "."
      << plugin.minor_version() << ")\n"
      << "platform: " << platform << "\n"
      << "platform version: " << version << "\n"
      << "process index: " << process << "\n"
      << "plugin attributes:\n";
  for (const NamedValue& attribute : attributes) out << "  " << NamedValueToString(attribute) << "\n";
  out << "devices: " << devices.size() << " (" << addressable.size() << " addressable)\n";
  for (const Device& device : devices) PLUGRT_RETURN_IF_ERROR(PrintDevice(out, device));
  return OkStatus();
}

}  // namespace

void RegisterDevicesCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<PluginOptions>();
  CLI::App* command = app.add_subcommand(
      "devices", "Print the plugin's platform, attributes, devices, memories and memory stats");
  AddPluginOptions(*command, *options);
  command->callback([options, &exit_code] {
    Status status = RunDevices(*options);
    if (!status.ok()) {
      std::cerr << "plugrt devices: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
