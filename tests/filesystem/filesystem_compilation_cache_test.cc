// The persistent compilation cache (src/filesystem/compilation_cache.h):
// entries round-trip on any scheme, broken entries are never returned and
// are removed, the size cap evicts the least recently used, and processes
// sharing a directory do not corrupt it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "filesystem/compilation_cache.h"
#include "filesystem/file_io.h"
#include "testutil/temp_dir.h"

namespace plugrt::fs {
namespace {

using ::testing::HasSubstr;

using plugrt::testing::TempDir;

std::string PayloadFor(int key) { return std::string(1000 + key, static_cast<char>('A' + key)); }

// Lets modification times differ between steps (the LRU order is by them).
void Tick() { std::this_thread::sleep_for(std::chrono::milliseconds(5)); }

TEST(CompilationCacheTest, RoundTripsOnLocalAndRamDirectories) {
  TempDir dir;
  for (const std::string& where : {dir.path() + "/nested/cache", std::string("ram://cache/a")}) {
    auto cache = CompilationCache::Open(where, 1 << 20);
    ASSERT_TRUE(cache.ok()) << cache.status().ToString();
    EXPECT_FALSE((*cache)->Lookup("key one").has_value());
    ASSERT_TRUE((*cache)->Store("key one", "executable bytes").ok());
    std::optional<std::string> hit = (*cache)->Lookup("key one");
    ASSERT_TRUE(hit.has_value()) << where;
    EXPECT_EQ(*hit, "executable bytes");
    EXPECT_FALSE((*cache)->Lookup("key two").has_value());
    const CompilationCache::Stats stats = (*cache)->stats();
    EXPECT_EQ(stats.hits, 1);
    EXPECT_EQ(stats.misses, 2);
    EXPECT_EQ(stats.stores, 1);
    // A second cache object on the same directory (another process, or a
    // restarted one) finds the entry.
    auto again = CompilationCache::Open(where, 1 << 20);
    EXPECT_EQ((*again)->Lookup("key one").value_or(""), "executable bytes");
  }
}

TEST(CompilationCacheTest, BrokenEntriesAreIgnoredAndRemoved) {
  TempDir dir;
  auto cache = *CompilationCache::Open(dir.path(), 1 << 20);
  const std::string path = cache->EntryPath("k");
  auto rewrite = [&](const std::function<void(std::string&)>& damage) {
    ASSERT_TRUE(cache->Store("k", PayloadFor(3)).ok());
    std::string bytes = *ReadFile(path);
    damage(bytes);
    ASSERT_TRUE(WriteFile(path, bytes).ok());
  };
  int64_t corrupt = 0;
  // A flipped payload byte (checksum), a truncated entry, trailing bytes,
  // foreign bytes, an empty file.
  for (auto damage : std::vector<std::function<void(std::string&)>>{
           [](std::string& b) { b[b.size() - 10] ^= 1; },
           [](std::string& b) { b.resize(b.size() - 100); },
           [](std::string& b) { b += "x"; },
           [](std::string& b) { b = "not an entry at all"; },
           [](std::string& b) { b.clear(); }}) {
    rewrite(damage);
    EXPECT_FALSE(cache->Lookup("k").has_value());
    EXPECT_EQ(cache->stats().corrupt, ++corrupt);
    EXPECT_FALSE(std::filesystem::exists(path)) << "a broken entry must be removed";
  }
  // An intact entry of another key under this key's name is not this key's.
  ASSERT_TRUE(cache->Store("other", PayloadFor(1)).ok());
  std::filesystem::copy_file(cache->EntryPath("other"), path);
  EXPECT_FALSE(cache->Lookup("k").has_value());
  // After removal the entry is stored and found again.
  ASSERT_TRUE(cache->Store("k", PayloadFor(3)).ok());
  EXPECT_EQ(cache->Lookup("k").value_or(""), PayloadFor(3));
}

TEST(CompilationCacheTest, TheCapEvictsTheLeastRecentlyUsed) {
  // Room for three entries of about 1 KB (header included), not four.
  auto cache = *CompilationCache::Open("ram://lru", 3 * 1100);
  ASSERT_TRUE(cache->Store("a", PayloadFor(0)).ok());
  Tick();
  ASSERT_TRUE(cache->Store("b", PayloadFor(1)).ok());
  Tick();
  ASSERT_TRUE(cache->Store("c", PayloadFor(2)).ok());
  Tick();
  ASSERT_TRUE(cache->Lookup("a").has_value());  // a is now the most recent use
  Tick();
  ASSERT_TRUE(cache->Store("d", PayloadFor(3)).ok());
  EXPECT_EQ(cache->stats().evictions, 1);
  EXPECT_FALSE(cache->Lookup("b").has_value());  // least recently used
  EXPECT_TRUE(cache->Lookup("a").has_value());
  EXPECT_TRUE(cache->Lookup("c").has_value());
  EXPECT_TRUE(cache->Lookup("d").has_value());
  // A payload larger than the whole cap is not stored.
  ASSERT_TRUE(cache->Store("huge", std::string(10000, 'z')).ok());
  EXPECT_FALSE(cache->Lookup("huge").has_value());
  EXPECT_EQ(CompilationCache::Open("ram://lru", 0).status().code(), StatusCode::kInvalidArgument);
}

TEST(CompilationCacheTest, ProcessesSharingADirectoryDoNotCorruptIt) {
  TempDir dir;
  constexpr int kProcesses = 4;
  constexpr int kKeys = 7;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Small cap: stores evict each other's entries all the time.
      auto cache = CompilationCache::Open(dir.path(), 4 * 1100);
      if (!cache.ok()) _exit(2);
      for (int i = 0; i < 60; ++i) {
        const int key = (i * (p + 1)) % kKeys;
        if (!(*cache)->Store("key" + std::to_string(key), PayloadFor(key)).ok()) _exit(3);
        const int probe = (i + p) % kKeys;
        std::optional<std::string> got = (*cache)->Lookup("key" + std::to_string(probe));
        if (got.has_value() && *got != PayloadFor(probe)) _exit(4);  // a wrong or partial entry
        if ((*cache)->stats().corrupt != 0) _exit(5);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: open, 3: store, 4: wrong payload, 5: corrupt entry";
  }
  // What is left is whole entries (no temporaries), each intact.
  auto cache = *CompilationCache::Open(dir.path(), 1 << 20);
  int entries = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = file.path().filename().string();
    EXPECT_THAT(name, ::testing::Not(HasSubstr(".tmp."))) << name;
    if (name.ends_with(".pcc")) ++entries;
  }
  EXPECT_GT(entries, 0);
  for (int key = 0; key < kKeys; ++key) {
    std::optional<std::string> got = cache->Lookup("key" + std::to_string(key));
    if (got.has_value()) {
      EXPECT_EQ(*got, PayloadFor(key));
    }
  }
  EXPECT_EQ(cache->stats().corrupt, 0);
}

}  // namespace
}  // namespace plugrt::fs
