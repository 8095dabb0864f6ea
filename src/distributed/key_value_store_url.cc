#include "distributed/key_value_store_url.h"

#include <charconv>

#include "distributed/file_key_value_store.h"
#include "distributed/redis_key_value_store.h"

namespace plugrt::distributed {

StatusOr<std::unique_ptr<KeyValueStore>> OpenKeyValueStore(std::string_view address) {
  constexpr std::string_view kRedis = "redis://";
  constexpr std::string_view kFile = "file:";
  if (address.substr(0, kFile.size()) == kFile) {
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<FileKeyValueStore> store,
                            FileKeyValueStore::Open(std::string(address.substr(kFile.size()))));
    return std::unique_ptr<KeyValueStore>(std::move(store));
  }
  if (address.substr(0, kRedis.size()) == kRedis) {
    std::string_view rest = address.substr(kRedis.size());
    std::string_view prefix;
    if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
      prefix = rest.substr(slash + 1);
      rest = rest.substr(0, slash);
    }
    const size_t colon = rest.rfind(':');
    int port = 0;
    if (colon == std::string_view::npos || colon == 0) {
      return InvalidArgument("key-value store '", address, "': expected redis://HOST:PORT");
    }
    std::string_view digits = rest.substr(colon + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (error != std::errc() || end != digits.data() + digits.size()) {
      return InvalidArgument("key-value store '", address, "': '", digits, "' is not a port");
    }
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RedisKeyValueStore> store,
                            RedisKeyValueStore::Connect(std::string(rest.substr(0, colon)), port,
                                                        std::string(prefix)));
    return std::unique_ptr<KeyValueStore>(std::move(store));
  }
  return InvalidArgument("key-value store '", address,
                         "': expected redis://HOST:PORT[/PREFIX] or file:DIR");
}

}  // namespace plugrt::distributed
