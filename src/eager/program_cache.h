// plugrt eager: compiled programs kept by key (program_key.h: an injective
// encoding of what decides the program, so two programs never share an
// entry), least recently used evicted first.
#ifndef PLUGRT_EAGER_PROGRAM_CACHE_H_
#define PLUGRT_EAGER_PROGRAM_CACHE_H_

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "client/executable.h"
#include "common/status.h"
#include "eager/tensor_type.h"

namespace plugrt::eager {

struct CacheStats {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t evictions = 0;
  size_t entries = 0;
  size_t capacity = 0;
};

// A compiled program and its result types as the executable reports them.
struct CompiledProgram {
  LoadedExecutable executable;
  std::vector<TensorType> results;
  // The client it was compiled on (for EraseIf when a context lets a
  // client go).
  const void* client = nullptr;
};

// Thread-safe. Entries are shared: an evicted executable lives on while a
// run holds it.
class ProgramCache {
 public:
  explicit ProgramCache(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The entry for `key`, counted as a hit; null when absent (not counted:
  // the GetOrCompile that follows counts the miss). Allocates nothing.
  std::shared_ptr<const CompiledProgram> Find(const std::string& key);

  using Compile = std::function<StatusOr<CompiledProgram>()>;
  // The entry for `key`; on a miss, `compile` makes it (outside the lock).
  // Failed compiles are not kept.
  StatusOr<std::shared_ptr<const CompiledProgram>> GetOrCompile(const std::string& key,
                                                                 const Compile& compile);
  CacheStats stats() const;
  void Clear();
  // Drops the entries `drop` answers true for (not counted as evictions);
  // how many.
  size_t EraseIf(const std::function<bool(const CompiledProgram&)>& drop);

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const CompiledProgram>>;
  mutable std::mutex mu_;
  size_t capacity_;
  std::list<Entry> lru_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  CacheStats stats_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PROGRAM_CACHE_H_
