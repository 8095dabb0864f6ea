#include "tools/job_env.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "distributed/key_value_store_url.h"

namespace plugrt::tools {
namespace {

StatusOr<int64_t> ReadCount(const char* name, int64_t min) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return InvalidArgument(name, " is not set");
  const std::string_view digits(text);
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || value < min) {
    return InvalidArgument(name, "='", digits, "' is not a number >= ", min);
  }
  return value;
}

}  // namespace

Status AddJobOptions(ClientOptions& options) {
  const char* nodes_text = std::getenv(kNumNodesEnv);
  if (nodes_text == nullptr || *nodes_text == '\0') return OkStatus();
  PLUGRT_ASSIGN_OR_RETURN(int64_t nodes, ReadCount(kNumNodesEnv, 1));
  PLUGRT_ASSIGN_OR_RETURN(int64_t node, ReadCount(kNodeIdEnv, 0));
  if (node >= nodes) {
    return InvalidArgument(kNodeIdEnv, "=", node, " must be below ", kNumNodesEnv, "=", nodes);
  }
  options.create_options.push_back(NamedValue{"node_id", node});
  options.create_options.push_back(NamedValue{"num_nodes", nodes});
  if (nodes == 1) return OkStatus();
  const char* address = std::getenv(kKvStoreEnv);
  if (address == nullptr || *address == '\0') {
    return InvalidArgument(kNumNodesEnv, "=", nodes, " needs ", kKvStoreEnv,
                           " (redis://HOST:PORT or file:DIR); plugrt launch sets it");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<KeyValueStore> store,
                          distributed::OpenKeyValueStore(address));
  options.kv_store = std::shared_ptr<KeyValueStore>(std::move(store));
  return OkStatus();
}

}  // namespace plugrt::tools
