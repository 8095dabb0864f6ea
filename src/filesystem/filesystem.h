// plugrt filesystems: the C++ interface every scheme implements (built-in
// local, ram://, http(s)://, and plugins through include/plugrt/
// filesystem_c_api.h). Paths are full URIs as the user wrote them; the
// registry (registry.h) picks the filesystem by scheme.
//
// The operations and their errors follow the C ABI's: NOT_FOUND for a
// missing path, FAILED_PRECONDITION for a file/directory mix-up,
// UNIMPLEMENTED for what a scheme cannot do. The defaults below build the
// optional operations from the required ones, so every filesystem, plugin or
// not, gets the same recursive mkdir, copy, rename fallback and glob.
#ifndef PLUGRT_FILESYSTEM_FILESYSTEM_H_
#define PLUGRT_FILESYSTEM_FILESYSTEM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plugrt::fs {

struct FileStatistics {
  int64_t length = 0;
  int64_t mtime_nsec = 0;  // 0 when the storage does not know
  bool is_directory = false;
};

// The wall-clock time in mtime_nsec's unit (nanoseconds since the epoch).
int64_t NowNanoseconds();

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Up to `n` bytes at `offset` into `buffer`; the count read. Reading past
  // the end is not an error: the count is then smaller (0 at or past it).
  virtual StatusOr<size_t> Read(uint64_t offset, size_t n, char* buffer) const = 0;
};

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(std::string_view data) = 0;
  virtual StatusOr<int64_t> Tell() = 0;
  virtual Status Flush() { return OkStatus(); }
  virtual Status Sync() { return OkStatus(); }
  // Makes the contents visible at the path. A file dropped without Close
  // may leave nothing, or a part, behind.
  virtual Status Close() = 0;
};

class ReadOnlyMemoryRegion {
 public:
  virtual ~ReadOnlyMemoryRegion() = default;
  virtual const void* data() const = 0;
  virtual uint64_t length() const = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Required.
  virtual StatusOr<FileStatistics> Stat(const std::string& path) = 0;
  virtual StatusOr<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& path) = 0;
  virtual StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& path) = 0;

  // Optional; the defaults say what they are built from.
  virtual StatusOr<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& path);
  // Default: the whole file read into memory.
  virtual StatusOr<std::unique_ptr<ReadOnlyMemoryRegion>> NewReadOnlyMemoryRegion(
      const std::string& path);
  virtual Status CreateDir(const std::string& path);
  // Default: Stat and CreateDir from the first missing ancestor down.
  virtual Status RecursivelyCreateDir(const std::string& path);
  virtual Status DeleteFile(const std::string& path);
  virtual Status DeleteDir(const std::string& path);
  // Default: CopyFile, then DeleteFile of `src` (not atomic).
  virtual Status RenameFile(const std::string& src, const std::string& dst);
  // Default: read `src`, write `dst` through NewWritableFile.
  virtual Status CopyFile(const std::string& src, const std::string& dst);
  // Entry names of a directory, sorted.
  virtual StatusOr<std::vector<std::string>> GetChildren(const std::string& path);
  // Paths matching a glob pattern (glob.h), sorted. Default: GetChildren and
  // Stat below the pattern's fixed prefix.
  virtual StatusOr<std::vector<std::string>> GetMatchingPaths(const std::string& pattern);

  // Built on Stat.
  Status FileExists(const std::string& path);
  StatusOr<bool> IsDirectory(const std::string& path);
  StatusOr<int64_t> GetFileSize(const std::string& path);

  // The name errors use for this filesystem ("local", "ram", "plugin
  // 'lib.so' scheme myfs", ...).
  virtual std::string Describe() const = 0;

 protected:
  // UNIMPLEMENTED naming the operation and this filesystem.
  Status NotSupported(std::string_view operation) const;
};

// The parent of a URI path ("ram://a/b" -> "ram://a"; "/x" -> "/"; "a" ->
// ""), and its last component.
std::string ParentPath(std::string_view path);
std::string_view BaseName(std::string_view path);
// `dir` and `name` joined with one '/'.
std::string JoinPath(std::string_view dir, std::string_view name);

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_FILESYSTEM_H_
