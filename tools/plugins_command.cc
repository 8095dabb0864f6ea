// `plugrt plugins`: the PJRT plugins found by name (client/plugin_discovery.h),
// each loaded to show its API version and attributes, or why it failed.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "client/plugin_discovery.h"
#include "tools/commands.h"
#include "tools/json_writer.h"

namespace plugrt::tools {
namespace {

struct PluginsOptions {
  bool json = false;
  bool names = false;
};

// The loaded plugin's facts, or the reason it did not load.
struct Probe {
  std::shared_ptr<Plugin> plugin;
  std::vector<NamedValue> attributes;
  Status error;
};

Probe ProbePlugin(const std::string& path) {
  Probe probe;
  StatusOr<std::shared_ptr<Plugin>> plugin = Plugin::Load(path);
  if (!plugin.ok()) {
    probe.error = plugin.status();
    return probe;
  }
  probe.plugin = *plugin;
  StatusOr<std::vector<NamedValue>> attributes = probe.plugin->attributes();
  if (attributes.ok()) {
    probe.attributes = std::move(*attributes);
  } else {
    probe.error = attributes.status();
  }
  return probe;
}

void PrintText(const PluginDiscovery& discovery) {
  std::ostream& out = std::cout;
  out << "search order: PJRT_NAMES_AND_LIBRARY_PATHS";
  for (const std::string& dir : discovery.directories) out << ", " << dir;
  out << "\n";
  if (discovery.plugins.empty()) out << "no plugins found\n";
  for (const PluginLocation& location : discovery.plugins) {
    out << location.name << ": " << location.path << " (" << location.origin << ")\n";
    if (location.shadowed) {
      out << "  shadowed by an earlier plugin named " << location.name << "\n";
      continue;
    }
    Probe probe = ProbePlugin(location.path);
    if (probe.plugin == nullptr) {
      out << "  failed to load: " << probe.error.ToString() << "\n";
      continue;
    }
    out << "  PJRT C API " << probe.plugin->major_version() << "." << probe.plugin->minor_version()
        << "\n";
    if (!probe.error.ok()) out << "  attributes unavailable: " << probe.error.ToString() << "\n";
    for (const NamedValue& attribute : probe.attributes) {
      out << "  " << NamedValueToString(attribute) << "\n";
    }
  }
  for (const std::string& problem : discovery.problems) out << "problem: " << problem << "\n";
}

void PrintJson(const PluginDiscovery& discovery) {
  JsonWriter json(std::cout);
  json.BeginObject().Key("directories").BeginArray();
  for (const std::string& dir : discovery.directories) json.String(dir);
  json.EndArray().Key("plugins").BeginArray();
  for (const PluginLocation& location : discovery.plugins) {
    json.BeginObject()
        .Key("name").String(location.name)
        .Key("path").String(location.path)
        .Key("origin").String(location.origin)
        .Key("shadowed").Bool(location.shadowed);
    if (!location.shadowed) {
      Probe probe = ProbePlugin(location.path);
      json.Key("loaded").Bool(probe.plugin != nullptr);
      if (probe.plugin != nullptr) {
        json.Key("api_version").BeginObject()
            .Key("major").Int(probe.plugin->major_version())
            .Key("minor").Int(probe.plugin->minor_version())
            .EndObject();
        json.Key("attributes").BeginObject().NamedValues(probe.attributes).EndObject();
      }
      if (!probe.error.ok()) json.Key("error").String(probe.error.ToString());
    }
    json.EndObject();
  }
  json.EndArray().Key("problems").BeginArray();
  for (const std::string& problem : discovery.problems) json.String(problem);
  json.EndArray().EndObject();
}

}  // namespace

void RegisterPluginsCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<PluginsOptions>();
  CLI::App* command = app.add_subcommand(
      "plugins",
      "List the PJRT plugins found by name (PJRT_NAMES_AND_LIBRARY_PATHS, PLUGRT_PLUGIN_PATH, "
      "the install's lib/plugrt/), with API version and attributes, or why one failed to load");
  command->add_flag("--json", options->json, "print one JSON object instead of text");
  command->add_flag("--names", options->names,
                    "print only the names --plugin accepts, one a line, loading nothing "
                    "(for shell completion)");
  command->callback([options, &exit_code] {
    PluginDiscovery discovery = DiscoverPlugins();
    if (options->names) {
      for (const PluginLocation& location : discovery.plugins) {
        if (!location.shadowed) std::cout << location.name << "\n";
      }
    } else if (options->json) {
      PrintJson(discovery);
    } else {
      PrintText(discovery);
    }
    exit_code = 0;  // a plugin that fails to load is reported, not an error of the listing
  });
}

}  // namespace plugrt::tools
