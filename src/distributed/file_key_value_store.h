// plugrt distributed: a key-value store in a shared directory (one machine,
// or a filesystem every process mounts). Each key is one file; a value is
// written to a temporary file and renamed into place, so a reader sees the
// whole value or nothing.
#ifndef PLUGRT_DISTRIBUTED_FILE_KEY_VALUE_STORE_H_
#define PLUGRT_DISTRIBUTED_FILE_KEY_VALUE_STORE_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"

namespace plugrt::distributed {

class FileKeyValueStore final : public KeyValueStore {
 public:
  // Creates `directory` (and its parents) when missing; UNAVAILABLE naming it
  // when it cannot be created or written.
  static StatusOr<std::unique_ptr<FileKeyValueStore>> Open(std::string directory);

  // Polls the key's file until it appears (a shared filesystem may not
  // deliver change notifications).
  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override;
  StatusOr<std::string> TryGet(std::string_view key) override;
  Status Put(std::string_view key, std::string_view value) override;

  const std::string& directory() const { return directory_; }
  // The file that holds `key`: the key with every byte outside
  // [A-Za-z0-9._-] written as %XX, so any key is one file name.
  std::string PathOf(std::string_view key) const;

 private:
  explicit FileKeyValueStore(std::string directory) : directory_(std::move(directory)) {}
  std::string directory_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_FILE_KEY_VALUE_STORE_H_
