// The CPU plugin's persistent compilation cache (compilation_cache_dir,
// src/cpu/cpu_compilation_cache.h), through the PJRT C API: a restarted
// client finds what an earlier one compiled and runs it with the same
// results; a broken entry is recompiled and replaced; the cache is off
// unless asked for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "testutil/plugin_env.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::Upload;

constexpr const char* kProgram = R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = stablehlo.add %a, %b : tensor<4xf32>
  %t = stablehlo.multiply %s, %a : tensor<4xf32>
  return %t : tensor<4xf32>
}
)";

using plugrt::testing::TempDir;

StatusOr<std::unique_ptr<Client>> ClientWithCache(const std::string& dir) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"compilation_cache_dir", dir});
  return Client::Create(plugin, options);
}

// Compiles kProgram on `client` and runs it on fixed inputs.
std::vector<float> CompileAndRun(Client& client) {
  StatusOr<LoadedExecutable> executable = client.Compile(kProgram);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  if (!executable.ok()) return {};
  std::vector<Device> devices = *client.addressable_devices();
  Buffer a = Upload<float>(client, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 2, 3, 4});
  Buffer b = Upload<float>(client, devices[0], PJRT_Buffer_Type_F32, {4}, {10, 20, 30, 40});
  auto results = executable->Execute({{&a, &b}});
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  if (!results.ok()) return {};
  std::vector<std::byte> bytes = *(*results)[0][0].ToHostVector();
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Files of `dir` ending in `suffix`.
std::vector<std::string> FilesEndingIn(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().string();
    if (name.ends_with(suffix)) out.push_back(name);
  }
  return out;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

const std::vector<float> kExpected = {11, 44, 99, 176};

TEST(CpuCompilationCacheTest, ARestartedClientLoadsWhatAnEarlierOneCompiled) {
  TempDir dir;
  const std::string cache = dir.path() + "/cache";  // created by the plugin
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache(cache));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  ASSERT_EQ(FilesEndingIn(cache, ".pcc").size(), 1u);
  EXPECT_TRUE(FilesEndingIn(cache, ".used").empty());  // no hit yet
  const std::string entry = FilesEndingIn(cache, ".pcc")[0];
  const std::string stored = Slurp(entry);
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache(cache));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  // The hit stamped the entry's use.
  EXPECT_EQ(FilesEndingIn(cache, ".used").size(), 1u);
  EXPECT_EQ(FilesEndingIn(cache, ".pcc").size(), 1u);

  // A damaged entry is not loaded: the program is compiled again (same
  // results) and the entry written anew.
  std::string damaged = stored;
  damaged[damaged.size() / 2] ^= 0x5a;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << damaged;
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache(cache));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  EXPECT_EQ(Slurp(entry), stored);
  // Truncated, likewise.
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << stored.substr(0, 40);
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache(cache));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  EXPECT_EQ(Slurp(entry), stored);
}

TEST(CpuCompilationCacheTest, OtherClientOptionsGetEntriesOfTheirOwn) {
  TempDir dir;
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache(dir.path()));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
    ClientOptions options;
    options.create_options.push_back({"compilation_cache_dir", dir.path()});
    options.create_options.push_back({"fast_paths", false});
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, Client::Create(plugin, options));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  EXPECT_EQ(FilesEndingIn(dir.path(), ".pcc").size(), 2u);
  EXPECT_TRUE(FilesEndingIn(dir.path(), ".used").empty());
}

TEST(CpuCompilationCacheTest, WorksOnRamAndRefusesUnknownSchemes) {
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, ClientWithCache("ram://plugrt-cache"));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
    EXPECT_EQ(CompileAndRun(*client), kExpected);  // served from ram://
  }
  StatusOr<std::unique_ptr<Client>> bad = ClientWithCache("nosuch://cache");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(bad.status().message(), HasSubstr("scheme 'nosuch'"));
}

TEST(CpuCompilationCacheTest, TheEnvironmentVariableTurnsItOn) {
  TempDir dir;
  setenv("PLUGRT_COMPILATION_CACHE_DIR", dir.path().c_str(), 1);
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, testing::CreateCpuClient(1));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  unsetenv("PLUGRT_COMPILATION_CACHE_DIR");
  EXPECT_EQ(FilesEndingIn(dir.path(), ".pcc").size(), 1u);
  // Off by default: a client without it writes nothing.
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, testing::CreateCpuClient(1));
    EXPECT_EQ(CompileAndRun(*client), kExpected);
  }
  EXPECT_EQ(FilesEndingIn(dir.path(), ".pcc").size(), 1u);
}

}  // namespace
}  // namespace plugrt
