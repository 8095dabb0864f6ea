#include "eager/program_cache.h"

namespace plugrt::eager {

std::shared_ptr<const CompiledProgram> ProgramCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

StatusOr<std::shared_ptr<const CompiledProgram>> ProgramCache::GetOrCompile(
    const std::string& key, const Compile& compile) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      ++stats_.hits;
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;
    }
    ++stats_.misses;
  }
  StatusOr<CompiledProgram> compiled = compile();
  if (!compiled.ok()) return compiled.status();
  auto executable = std::make_shared<const CompiledProgram>(std::move(compiled).value());
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second->second;  // another thread won the race
  lru_.emplace_front(key, executable);
  index_[key] = lru_.begin();
  while (lru_.size() > capacity_) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
    ++stats_.evictions;
  }
  return executable;
}

CacheStats ProgramCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  CacheStats stats = stats_;
  stats.entries = lru_.size();
  stats.capacity = capacity_;
  return stats;
}

void ProgramCache::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  index_.clear();
  lru_.clear();
}

size_t ProgramCache::EraseIf(const std::function<bool(const CompiledProgram&)>& drop) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t erased = 0;
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (drop(*it->second)) {
      index_.erase(it->first);
      it = lru_.erase(it);
      ++erased;
    } else {
      ++it;
    }
  }
  return erased;
}

}  // namespace plugrt::eager
