// `plugrt devices`: what a plugin offers: platform, attributes, devices with
// their memories and memory statistics.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>

#include "tools/commands.h"
#include "tools/json_writer.h"

namespace plugrt::tools {
namespace {

struct DevicesOptions : PluginOptions {
  bool json = false;
};

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

void JsonStats(JsonWriter& json, const MemoryStats& stats) {
  json.BeginObject().Key("bytes_in_use").Int(stats.bytes_in_use);
  json.OptionalInt("peak_bytes_in_use", stats.peak_bytes_in_use)
      .OptionalInt("num_allocs", stats.num_allocs)
      .OptionalInt("largest_alloc_size", stats.largest_alloc_size)
      .OptionalInt("bytes_limit", stats.bytes_limit)
      .OptionalInt("bytes_reserved", stats.bytes_reserved)
      .OptionalInt("peak_bytes_reserved", stats.peak_bytes_reserved)
      .OptionalInt("bytes_reservable_limit", stats.bytes_reservable_limit)
      .OptionalInt("largest_free_block_bytes", stats.largest_free_block_bytes)
      .OptionalInt("pool_bytes", stats.pool_bytes)
      .OptionalInt("peak_pool_bytes", stats.peak_pool_bytes);
  json.EndObject();
}

Status JsonDevice(JsonWriter& json, const Device& device) {
  PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
  PLUGRT_ASSIGN_OR_RETURN(std::string kind, device.kind());
  PLUGRT_ASSIGN_OR_RETURN(std::string text, device.to_string());
  PLUGRT_ASSIGN_OR_RETURN(std::string debug, device.debug_string());
  PLUGRT_ASSIGN_OR_RETURN(int process, device.process_index());
  PLUGRT_ASSIGN_OR_RETURN(bool addressable, device.is_addressable());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<NamedValue> attributes, device.attributes());
  json.BeginObject()
      .Key("id").Int(id)
      .Key("kind").String(kind)
      .Key("to_string").String(text)
      .Key("debug_string").String(debug)
      .Key("process_index").Int(process)
      .Key("addressable").Bool(addressable)
      .Key("attributes").BeginObject().NamedValues(attributes).EndObject();
  if (addressable) {
    PLUGRT_ASSIGN_OR_RETURN(int hardware_id, device.local_hardware_id());
    json.Key("local_hardware_id").Int(hardware_id);
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Memory> memories, device.memories());
    StatusOr<Memory> default_memory = device.default_memory();
    json.Key("memories").BeginArray();
    for (const Memory& memory : memories) {
      PLUGRT_ASSIGN_OR_RETURN(int memory_id, memory.id());
      PLUGRT_ASSIGN_OR_RETURN(std::string memory_kind, memory.kind());
      PLUGRT_ASSIGN_OR_RETURN(int kind_id, memory.kind_id());
      PLUGRT_ASSIGN_OR_RETURN(std::string memory_text, memory.to_string());
      json.BeginObject()
          .Key("id").Int(memory_id)
          .Key("kind").String(memory_kind)
          .Key("kind_id").Int(kind_id)
          .Key("default").Bool(default_memory.ok() && *default_memory == memory)
          .Key("to_string").String(memory_text)
          .EndObject();
    }
    json.EndArray();
    // Statistics are optional for plugins: null when unavailable.
    StatusOr<MemoryStats> stats = device.memory_stats();
    json.Key("memory_stats");
    if (stats.ok()) {
      JsonStats(json, *stats);
    } else {
      json.Null();
    }
  }
  json.EndObject();
  return OkStatus();
}

Status RunDevices(const DevicesOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options));
  std::ostream& out = std::cout;
  const Plugin& plugin = *client->plugin();
  PLUGRT_ASSIGN_OR_RETURN(std::string platform, client->platform_name());
  PLUGRT_ASSIGN_OR_RETURN(std::string version, client->platform_version());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<NamedValue> attributes, plugin.attributes());
  PLUGRT_ASSIGN_OR_RETURN(int process, client->process_index());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->devices());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> addressable, client->addressable_devices());

  if (options.json) {
    // Devices are gathered first so that an error prints no partial object.
    std::ostringstream devices_json;
    {
      JsonWriter json(devices_json);
      json.BeginArray();
      for (const Device& device : devices) PLUGRT_RETURN_IF_ERROR(JsonDevice(json, device));
      json.EndArray();
    }
    std::string devices_text = devices_json.str();
    devices_text.pop_back();  // the writer's newline
    JsonWriter json(out);
    json.BeginObject()
        .Key("plugin").String(plugin.path())
        .Key("api_version").BeginObject()
        .Key("major").Int(plugin.major_version())
        .Key("minor").Int(plugin.minor_version())
        .EndObject()
        .Key("platform").String(platform)
        .Key("platform_version").String(version)
        .Key("process_index").Int(process)
        .Key("attributes").BeginObject().NamedValues(attributes).EndObject()
        .Key("addressable_devices").Int(static_cast<int64_t>(addressable.size()))
        .Key("devices").Raw(devices_text)
        .EndObject();
    return OkStatus();
  }
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
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app.add_subcommand(
      "devices", "Print the plugin's platform, attributes, devices, memories and memory stats");
  command->add_flag("--json", options->json, "print one JSON object instead of text");
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
