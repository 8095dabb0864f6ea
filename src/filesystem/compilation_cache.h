// plugrt filesystems: a persistent compilation cache on any scheme.
//
// Entries are opaque payloads (a backend's serialized executables) under a
// key the backend computes (what the compiled program depends on: its
// bytes, the compile options, the plugin version, the backend's own
// options). Each entry is one file "<digest>.pcc" in the cache directory:
//
//   "PLUGRTCC" | u32 format version | 32-char key digest | u64 payload size
//   | u64 Checksum64(payload) | payload
//
// written under a temporary name and renamed into place, so readers in
// other threads and processes see a whole entry or none. An entry that
// fails any check (foreign bytes, other format version, other key,
// truncated, checksum) is ignored, deleted and reported as a miss. When the
// entries' total size passes the cap, the least recently used go: a hit
// touches "<digest>.used", and an entry's last use is the newer of its own
// and its stamp's modification times.
#ifndef PLUGRT_FILESYSTEM_COMPILATION_CACHE_H_
#define PLUGRT_FILESYSTEM_COMPILATION_CACHE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "filesystem/filesystem.h"

namespace plugrt::fs {

// The environment variables giving the CPU plugin's create options
// compilation_cache_dir and compilation_cache_max_bytes their defaults.
inline constexpr const char* kCompilationCacheDirEnv = "PLUGRT_COMPILATION_CACHE_DIR";
inline constexpr const char* kCompilationCacheMaxBytesEnv = "PLUGRT_COMPILATION_CACHE_MAX_BYTES";
inline constexpr int64_t kDefaultCompilationCacheMaxBytes = int64_t{1} << 30;

class CompilationCache {
 public:
  struct Stats {
    int64_t hits = 0;
    int64_t misses = 0;     // corrupt entries count here too
    int64_t corrupt = 0;    // entries found broken and deleted
    int64_t stores = 0;
    int64_t evictions = 0;  // entries deleted to stay under the cap
  };

  // A cache in `directory` (any registered scheme; created with its
  // ancestors when missing), holding at most `max_bytes` of entries.
  static StatusOr<std::shared_ptr<CompilationCache>> Open(const std::string& directory,
                                                          int64_t max_bytes);

  // The digest naming the entry of `key` (32 hex characters).
  static std::string KeyDigest(std::string_view key);

  // The payload stored for `key`, or nullopt. Never an error: a cache that
  // cannot be read is a miss (the caller compiles).
  std::optional<std::string> Lookup(std::string_view key);
  // Stores `payload` for `key`, replacing an entry there, then evicts down
  // to the cap. A payload larger than the cap is not stored (OK).
  Status Store(std::string_view key, std::string_view payload);

  Stats stats() const;
  const std::string& directory() const { return directory_; }
  int64_t max_bytes() const { return max_bytes_; }

  // The file of `key`'s entry (for tests and tools).
  std::string EntryPath(std::string_view key) const;

 private:
  CompilationCache(std::string directory, int64_t max_bytes, FileSystem* fs)
      : directory_(std::move(directory)), max_bytes_(max_bytes), fs_(fs) {}
  void Evict(const std::string& keep);

  std::string directory_;
  int64_t max_bytes_;
  FileSystem* fs_;
  std::atomic<int64_t> hits_{0}, misses_{0}, corrupt_{0}, stores_{0}, evictions_{0};
};

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_COMPILATION_CACHE_H_
