// Filesystem plugins (include/plugrt/filesystem_c_api.h): the C test plugin
// of tests/filesystem/filesystem_plugins/sandbox_fs.c, loaded from its own shared
// library, serves sandbox:// with the core's defaults for what it leaves out;
// versions, table sizes, required operations and scheme conflicts are
// checked at load.
#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "filesystem/registry.h"
#include "testutil/temp_dir.h"

namespace plugrt::fs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FilesystemPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("PLUGRT_TEST_SANDBOX_ROOT", root_.c_str(), 1);
    unsetenv("PLUGRT_TEST_SANDBOX_MODE");
  }

  // Loads the plugin in `mode` into a fresh registry, from a copy of the
  // library at a path of its own (so each load runs init again).
  Status Load(Registry& registry, const std::string& mode, std::string* copy_path = nullptr) {
    if (mode.empty()) {
      unsetenv("PLUGRT_TEST_SANDBOX_MODE");
    } else {
      setenv("PLUGRT_TEST_SANDBOX_MODE", mode.c_str(), 1);
    }
    const std::string copy = root_ + "/../" + std::filesystem::path(root_).filename().string() +
                             "-plugin-" + std::to_string(copies_++) + ".so";
    std::filesystem::copy_file(PLUGRT_TEST_SANDBOX_FS, copy,
                               std::filesystem::copy_options::overwrite_existing);
    copies_made_.push_back(copy);
    if (copy_path != nullptr) *copy_path = copy;
    return registry.LoadPlugin(copy);
  }
  ~FilesystemPluginTest() override {
    for (const std::string& copy : copies_made_) std::filesystem::remove(copy);
  }

  const plugrt::testing::TempDir root_dir_{"fs-sandbox"};
  const std::string root_ = root_dir_.path();
  int copies_ = 0;
  std::vector<std::string> copies_made_;
};

TEST_F(FilesystemPluginTest, ServesItsSchemeWithTheCoreDefaults) {
  Registry registry;
  ASSERT_TRUE(Load(registry, "").ok());
  StatusOr<FileSystem*> fs = registry.Lookup("sandbox://x");
  ASSERT_TRUE(fs.ok()) << fs.status().ToString();
  // Recursive mkdir: the core's default over stat + create_dir.
  ASSERT_TRUE((*fs)->RecursivelyCreateDir("sandbox://a/b/c").ok());
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/a/b/c"));
  {
    auto file = (*fs)->NewWritableFile("sandbox://a/b/c/data.txt");
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    ASSERT_TRUE((*file)->Append("plugin bytes").ok());
    EXPECT_EQ(*(*file)->Tell(), 12);  // default tell: the core counts
    ASSERT_TRUE((*file)->Close().ok());
  }
  std::ifstream local(root_ + "/a/b/c/data.txt");
  std::string contents((std::istreambuf_iterator<char>(local)), {});
  EXPECT_EQ(contents, "plugin bytes");
  // Reads: OUT_OF_RANGE at the end is a short read, not an error.
  auto reader = (*fs)->NewRandomAccessFile("sandbox://a/b/c/data.txt");
  ASSERT_TRUE(reader.ok());
  char buffer[64];
  EXPECT_EQ(*(*reader)->Read(7, 64, buffer), 5u);
  EXPECT_EQ(std::string(buffer, 5), "bytes");
  // Rename: copy (read + write) and delete, the core's defaults.
  ASSERT_TRUE((*fs)->RenameFile("sandbox://a/b/c/data.txt", "sandbox://a/moved.txt").ok());
  EXPECT_FALSE(std::filesystem::exists(root_ + "/a/b/c/data.txt"));
  EXPECT_TRUE(std::filesystem::exists(root_ + "/a/moved.txt"));
  // Glob by listing (get_children from the plugin, allocated by it).
  EXPECT_THAT(*(*fs)->GetMatchingPaths("sandbox://a/*.txt"), ElementsAre("sandbox://a/moved.txt"));
  EXPECT_THAT(*(*fs)->GetChildren("sandbox://a"), ElementsAre("b", "moved.txt"));
  // Memory region: the default reads the file.
  auto region = (*fs)->NewReadOnlyMemoryRegion("sandbox://a/moved.txt");
  ASSERT_TRUE(region.ok());
  EXPECT_EQ((*region)->length(), 12u);
  // Errors carry the plugin's code and message, and name plugin and scheme.
  StatusOr<FileStatistics> missing = (*fs)->Stat("sandbox://nope");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("scheme 'sandbox'"));
  EXPECT_THAT(missing.status().message(), HasSubstr("stat: No such file"));
  // What it neither supplies nor has a default for is UNIMPLEMENTED by name.
  Status no_rmdir = (*fs)->DeleteDir("sandbox://a/b/c");
  EXPECT_EQ(no_rmdir.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(no_rmdir.message(), HasSubstr("deleting a directory"));
  EXPECT_EQ((*fs)->NewAppendableFile("sandbox://a/x").status().code(), StatusCode::kUnimplemented);
}

TEST_F(FilesystemPluginTest, TheRuntimeFreesWhatThePluginAllocated) {
  std::string path;
  long before_unload = -1;
  {
    Registry registry;
    ASSERT_TRUE(Load(registry, "", &path).ok());
    FileSystem* fs = *registry.Lookup("sandbox://");
    ASSERT_TRUE(fs->CreateDir("sandbox://d").ok());
    ASSERT_TRUE(fs->GetChildren("sandbox://").ok());
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(library, nullptr);
    auto live = reinterpret_cast<long (*)()>(dlsym(library, "SandboxFs_LiveAllocations"));
    ASSERT_NE(live, nullptr);
    // Only the filesystem's own state is still allocated: the ops array,
    // scheme and tables and every listing were handed back.
    before_unload = live();
    dlclose(library);
  }
  EXPECT_EQ(before_unload, 1);
}

TEST_F(FilesystemPluginTest, ANewerPluginWithLargerTablesIsServed) {
  Registry registry;
  Status status = Load(registry, "large_tables");
  ASSERT_TRUE(status.ok()) << status.ToString();
  FileSystem* fs = *registry.Lookup("sandbox://");
  ASSERT_TRUE(fs->RecursivelyCreateDir("sandbox://x/y").ok());
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/x/y"));
}

TEST_F(FilesystemPluginTest, AnOlderPluginIsServedFromTheOperationsItHas) {
  Registry registry;
  ASSERT_TRUE(Load(registry, "small_tables").ok());
  FileSystem* fs = *registry.Lookup("sandbox://");
  // It has stat and files, not create_dir (past its table's end).
  {
    auto file = fs->NewWritableFile("sandbox://f");
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("old").ok());
    ASSERT_TRUE((*file)->Close().ok());
  }
  EXPECT_EQ(fs->GetFileSize("sandbox://f").value(), 3);
  Status mkdir = fs->CreateDir("sandbox://d");
  EXPECT_EQ(mkdir.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(mkdir.message(), HasSubstr("creating a directory"));
}

TEST_F(FilesystemPluginTest, WithoutStatTheCoreAnswersFromReadsAndListings) {
  Registry registry;
  ASSERT_TRUE(Load(registry, "missing_stat").ok());
  FileSystem* fs = *registry.Lookup("sandbox://");
  std::filesystem::create_directory(root_ + "/dir");
  std::ofstream(root_ + "/dir/f.bin", std::ios::binary) << std::string(200000, 'q');
  StatusOr<FileStatistics> file = fs->Stat("sandbox://dir/f.bin");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->length, 200000);
  EXPECT_FALSE(file->is_directory);
  EXPECT_TRUE(*fs->IsDirectory("sandbox://dir"));
  EXPECT_EQ(fs->Stat("sandbox://nope").status().code(), StatusCode::kNotFound);
  // Recursive mkdir works from the default stat too.
  ASSERT_TRUE(fs->RecursivelyCreateDir("sandbox://dir/a/b").ok());
  EXPECT_TRUE(std::filesystem::is_directory(root_ + "/dir/a/b"));
}

TEST_F(FilesystemPluginTest, BrokenPluginsAreRefusedByName) {
  struct Case {
    const char* mode;
    StatusCode code;
    const char* says;
  };
  const Case cases[] = {
      {"abi_mismatch", StatusCode::kFailedPrecondition, "filesystem table has ABI version 99"},
      {"missing_cleanup", StatusCode::kFailedPrecondition,
       "required operation filesystem.cleanup"},
      {"no_allocator", StatusCode::kFailedPrecondition, "plugin_memory_free"},
  };
  for (const Case& c : cases) {
    Registry registry;
    Status status = Load(registry, c.mode);
    EXPECT_EQ(status.code(), c.code) << c.mode << ": " << status.ToString();
    EXPECT_THAT(status.message(), HasSubstr(c.says)) << c.mode;
    EXPECT_THAT(status.message(), HasSubstr("filesystem plugin '")) << c.mode;
    EXPECT_FALSE(registry.Lookup("sandbox://x").ok()) << c.mode;
  }
  Registry registry;
  Status missing = registry.LoadPlugin("/nonexistent/fs.so");
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
}

TEST_F(FilesystemPluginTest, TwoOwnersOfOneSchemeAreRefusedNamingBoth) {
  Registry registry;
  std::string first, second;
  ASSERT_TRUE(Load(registry, "", &first).ok());
  Status twin = Load(registry, "", &second);
  EXPECT_EQ(twin.code(), StatusCode::kAlreadyExists);
  EXPECT_THAT(twin.message(), HasSubstr(first));
  EXPECT_THAT(twin.message(), HasSubstr(second));
  // A plugin cannot take a built-in scheme either.
  Status ram = Load(registry, "scheme_ram");
  EXPECT_EQ(ram.code(), StatusCode::kAlreadyExists);
  EXPECT_THAT(ram.message(), HasSubstr("built-in"));
  // Loading the same path again is a no-op, not a conflict.
  EXPECT_TRUE(registry.LoadPlugin(first).ok());
}

}  // namespace
}  // namespace plugrt::fs
