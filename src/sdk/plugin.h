// plugrt SDK: the plugin entry point. A vendor implements Plugin and exports
//
//   extern "C" const PJRT_Api* GetPjrtApi() {
//     return plugrt::sdk::BuildApi(std::make_unique<MyPlugin>());
//   }
//
// BuildApi returns a complete PJRT_Api table: every slot of the ABI version
// in include/pjrt_c_api.h is filled; slots the backend does not implement
// return UNIMPLEMENTED errors naming the function.
#ifndef PLUGRT_SDK_PLUGIN_H_
#define PLUGRT_SDK_PLUGIN_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/client.h"
#include "sdk/executable.h"
#include "sdk/topology.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// The key-value store a framework may give PJRT_Client_Create (for
// multi-process clients). Thread-safe.
using plugrt::KeyValueStore;  // common/key_value_store.h

struct ClientOptions {
  Attributes create_options;
  // Null when the caller gave no key-value callbacks.
  std::shared_ptr<KeyValueStore> kv_store;
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  // Called by PJRT_Plugin_Initialize (which the SDK runs at most once).
  virtual Status Initialize() { return OkStatus(); }
  // Attributes of the plugin; must not change once initialized.
  virtual const Attributes& attributes() const = 0;
  // The head of the plugin's PJRT extension chain (PJRT_Api::extension_start:
  // PJRT_Extension_Base structs linked through `next`), or null. Read once
  // by BuildApi; the structs must live for the rest of the process.
  virtual PJRT_Extension_Base* extensions() const { return nullptr; }
  virtual StatusOr<std::unique_ptr<Client>> CreateClient(const ClientOptions& options) = 0;
  virtual StatusOr<std::unique_ptr<TopologyDescription>> CreateTopology(
      std::string_view name, const Attributes& options) {
    (void)name, (void)options;
    return Unimplemented("PJRT_TopologyDescription_Create is not supported by this plugin");
  }
  // Rebuilds a topology from TopologyDescription::Serialize output
  // (PJRT_TopologyDescription_Deserialize).
  virtual StatusOr<std::unique_ptr<TopologyDescription>> DeserializeTopology(
      std::string_view serialized) {
    (void)serialized;
    return Unimplemented("PJRT_TopologyDescription_Deserialize is not supported by this plugin");
  }
  // Ahead-of-time compilation for a topology (PJRT_Compile). `topology` is
  // one this plugin made (CreateTopology, DeserializeTopology or a client's).
  virtual StatusOr<std::shared_ptr<Executable>> CompileForTopology(
      const TopologyDescription& topology, const Program& program,
      std::string_view compile_options) {
    (void)topology, (void)program, (void)compile_options;
    return Unimplemented("PJRT_Compile is not supported by this plugin");
  }
};

// Builds the PJRT_Api table around `plugin`. The table and the plugin live
// for the rest of the process. Calling it again returns the first table.
const PJRT_Api* BuildApi(std::unique_ptr<Plugin> plugin);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_PLUGIN_H_
