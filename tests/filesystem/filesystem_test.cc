// The filesystem layer (src/filesystem/): URI schemes, the built-in local,
// ram:// and http:// filesystems, the core's default operations, globs and
// atomic writes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "filesystem/builtin_filesystems.h"
#include "filesystem/file_io.h"
#include "filesystem/glob.h"
#include "filesystem/registry.h"
#include "testutil/http_server.h"
#include "testutil/temp_dir.h"

namespace plugrt::fs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using plugrt::testing::TempDir;

TEST(SchemeTest, SchemesAreParsedAndLowercased) {
  EXPECT_EQ(SchemeOf("/tmp/x"), "");
  EXPECT_EQ(SchemeOf("relative/x.mlir"), "");
  EXPECT_EQ(SchemeOf("file:///tmp/x"), "file");
  EXPECT_EQ(SchemeOf("HTTP://host/x"), "http");
  EXPECT_EQ(SchemeOf("ram://a/b"), "ram");
  EXPECT_EQ(SchemeOf("dir/with://odd"), "");  // '/' before "://": a local path
  EXPECT_FALSE(IsValidScheme("9x"));
  EXPECT_FALSE(IsValidScheme("a_b"));
  EXPECT_TRUE(IsValidScheme("s3+x.y-z"));
}

TEST(PathTest, ParentAndBaseNameKeepTheScheme) {
  EXPECT_EQ(ParentPath("ram://a/b"), "ram://a");
  EXPECT_EQ(ParentPath("ram://a"), "ram://");
  EXPECT_EQ(ParentPath("/x"), "/");
  EXPECT_EQ(ParentPath("/x/y/"), "/x");
  EXPECT_EQ(ParentPath("file:///tmp"), "file:///");
  EXPECT_EQ(BaseName("ram://a/b.npy"), "b.npy");
  EXPECT_EQ(JoinPath("ram://", "a"), "ram://a");
  EXPECT_EQ(JoinPath("/tmp/", "/a"), "/tmp/a");
}

TEST(GlobTest, MatchesWithinOneComponent) {
  EXPECT_TRUE(GlobMatch("*.npy", "x.npy"));
  EXPECT_FALSE(GlobMatch("*.npy", "x.npz"));
  EXPECT_FALSE(GlobMatch("*", "a/b"));
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "a/c"));
  EXPECT_TRUE(GlobMatch("[a-c]x", "bx"));
  EXPECT_FALSE(GlobMatch("[^a-c]x", "bx"));
  EXPECT_TRUE(GlobMatch("\\*", "*"));
  EXPECT_FALSE(GlobMatch("\\*", "a"));
  EXPECT_TRUE(GlobMatch("a*b*c", "aXbYbZc"));
  EXPECT_TRUE(GlobMatch("[x", "[x"));  // unterminated class: literal
}

TEST(RamFileSystemTest, FilesAndDirectories) {
  std::shared_ptr<FileSystem> ram = NewRamFileSystem();
  EXPECT_EQ(ram->Stat("ram://nope").status().code(), StatusCode::kNotFound);
  // The parent must exist; the core's recursive mkdir makes it.
  EXPECT_EQ(ram->NewWritableFile("ram://d/e/f.txt").status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(ram->RecursivelyCreateDir("ram://d/e").ok());
  ASSERT_TRUE(ram->RecursivelyCreateDir("ram://d/e").ok());  // exists: fine
  {
    auto file = ram->NewWritableFile("ram://d/e/f.txt");
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    ASSERT_TRUE((*file)->Append("hello ").ok());
    ASSERT_TRUE((*file)->Append("world").ok());
    EXPECT_EQ(*(*file)->Tell(), 11);
    ASSERT_TRUE((*file)->Close().ok());
  }
  EXPECT_EQ(*ram->GetFileSize("ram://d/e/f.txt"), 11);
  EXPECT_TRUE(*ram->IsDirectory("ram://d"));
  EXPECT_THAT(*ram->GetChildren("ram://d/e"), ElementsAre("f.txt"));
  // Reading past the end gives the bytes there are.
  auto reader = ram->NewRandomAccessFile("ram://d/e/f.txt");
  ASSERT_TRUE(reader.ok());
  char buffer[16];
  EXPECT_EQ(*(*reader)->Read(6, 16, buffer), 5u);
  EXPECT_EQ(std::string(buffer, 5), "world");
  EXPECT_EQ(*(*reader)->Read(100, 4, buffer), 0u);
  // A reader keeps the bytes it opened even when the file is replaced.
  ASSERT_TRUE(ram->RenameFile("ram://d/e/f.txt", "ram://d/g.txt").ok());
  EXPECT_EQ(ram->Stat("ram://d/e/f.txt").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(*(*reader)->Read(0, 5, buffer), 5u);
  EXPECT_EQ(ram->DeleteDir("ram://d").code(), StatusCode::kFailedPrecondition);  // not empty
  EXPECT_EQ(ram->DeleteFile("ram://d").code(), StatusCode::kFailedPrecondition);  // a directory
  EXPECT_EQ(ram->CreateDir("ram://d").code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(ram->CopyFile("ram://d/g.txt", "ram://d/h.txt").ok());  // default: read + write
  auto region = ram->NewReadOnlyMemoryRegion("ram://d/h.txt");  // default: read into memory
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(std::string(static_cast<const char*>((*region)->data()), (*region)->length()),
            "hello world");
  EXPECT_THAT(*ram->GetMatchingPaths("ram://d/*.txt"), ElementsAre("ram://d/g.txt", "ram://d/h.txt"));
  EXPECT_THAT(*ram->GetMatchingPaths("ram://*/e"), ElementsAre("ram://d/e"));
  EXPECT_EQ(ram->Stat("ram://a/../b").status().code(), StatusCode::kInvalidArgument);
}

TEST(LocalFileSystemTest, PlainPathsAndFileUris) {
  TempDir dir;
  const std::string path = dir.path() + "/a/b/c.bin";
  ASSERT_TRUE(RecursivelyCreateDir("file://" + dir.path() + "/a/b").ok());
  ASSERT_TRUE(WriteFile(path, std::string("\0\1\2", 3)).ok());
  EXPECT_EQ(*ReadFile("file://" + path), std::string("\0\1\2", 3));
  EXPECT_EQ(*ReadFile(path), std::string("\0\1\2", 3));
  EXPECT_EQ(Stat(path)->length, 3);
  EXPECT_GT(Stat(path)->mtime_nsec, 0);
  StatusOr<std::string> missing = ReadFile(dir.path() + "/nope");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(dir.path() + "/nope"));
  StatusOr<std::string> directory = ReadFile(dir.path());
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(directory.status().message(), HasSubstr("is a directory"));
  EXPECT_THAT(*GetMatchingPaths(dir.path() + "/a/*/*.bin"), ElementsAre(path));
}

TEST(FileIoTest, AtomicWriteReplacesWholeAndLeavesNoTemporary) {
  TempDir dir;
  const std::string path = dir.path() + "/entry";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  EXPECT_EQ(*ReadFile(path), "second");
  EXPECT_THAT(*GetChildren(dir.path()), ElementsAre("entry"));
  // A write that cannot happen leaves nothing behind.
  EXPECT_FALSE(WriteFileAtomically(dir.path() + "/missing/entry", "x").ok());
  EXPECT_THAT(*GetChildren(dir.path()), ElementsAre("entry"));
  ASSERT_TRUE(WriteFileAtomically("ram://atomic", "in memory").ok());
  EXPECT_EQ(*ReadFile("ram://atomic"), "in memory");
}

TEST(RegistryTest, UnknownSchemesAndConflictsAreNamed) {
  StatusOr<std::string> unknown = ReadFile("nosuch://x");
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(unknown.status().message(), HasSubstr("scheme 'nosuch'"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("ram"));
  Registry registry;
  Status taken = registry.Register("ram", NewRamFileSystem(), "test 'second ram'");
  EXPECT_EQ(taken.code(), StatusCode::kAlreadyExists);
  EXPECT_THAT(taken.message(), HasSubstr("built-in"));
  EXPECT_THAT(taken.message(), HasSubstr("test 'second ram'"));
  EXPECT_TRUE(registry.Register("mem2", NewRamFileSystem(), "test").ok());
  EXPECT_EQ(registry.Register("Bad_Scheme", NewRamFileSystem(), "test").code(),
            StatusCode::kInvalidArgument);
}

TEST(HttpFileSystemTest, ReadsFromALocalServerAndRefusesWrites) {
  TempDir dir;
  std::string body(100000, 'x');
  for (size_t i = 0; i < body.size(); ++i) body[i] = static_cast<char>('a' + i % 26);
  std::ofstream(dir.path() + "/data.bin", std::ios::binary) << body;
  plugrt::testing::LocalHttpServer server(dir.path());
  ASSERT_TRUE(server.ok()) << "python3 -m http.server did not start";
  EXPECT_EQ(*ReadFile(server.Url("data.bin")), body);
  StatusOr<FileStatistics> stats = Stat(server.Url("data.bin"));
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->length, static_cast<int64_t>(body.size()));
  EXPECT_EQ(ReadFile(server.Url("missing.bin")).status().code(), StatusCode::kNotFound);
  Status write = WriteFile(server.Url("new.bin"), "x");
  EXPECT_EQ(write.code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(write.message(), HasSubstr("read-only"));
}

TEST(HttpFileSystemTest, ARefusedConnectionIsUnavailable) {
  // A free port: nothing listens there.
  const int port = plugrt::testing::LocalHttpServer::FreePort();
  ASSERT_GT(port, 0);
  StatusOr<std::string> read = ReadFile("http://127.0.0.1:" + std::to_string(port) + "/x");
  EXPECT_EQ(read.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace plugrt::fs
