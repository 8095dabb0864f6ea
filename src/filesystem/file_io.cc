#include "filesystem/file_io.h"

#include <unistd.h>

#include <atomic>
#include <functional>
#include <random>
#include <thread>

#include "filesystem/registry.h"

namespace plugrt::fs {

StatusOr<std::string> ReadFile(const std::string& uri) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  StatusOr<std::unique_ptr<RandomAccessFile>> file = fs->NewRandomAccessFile(uri);
  if (!file.ok()) {
    if (file.status().code() == StatusCode::kFailedPrecondition) {
      StatusOr<bool> dir = fs->IsDirectory(uri);
      if (dir.ok() && *dir) return InvalidArgument(uri, ": is a directory, not a file");
    }
    return file.status();
  }
  std::string bytes;
  constexpr size_t kChunk = 1 << 20;
  for (;;) {
    const size_t old = bytes.size();
    bytes.resize(old + kChunk);
    PLUGRT_ASSIGN_OR_RETURN(size_t got, (*file)->Read(old, kChunk, bytes.data() + old));
    bytes.resize(old + got);
    if (got == 0) break;
  }
  return bytes;
}

Status WriteFile(const std::string& uri, std::string_view bytes) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(uri));
  PLUGRT_RETURN_IF_ERROR(file->Append(bytes));
  return file->Close();
}

std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t random = std::random_device{}();
  return StrCat(::getpid(), ".", std::hash<std::thread::id>{}(std::this_thread::get_id()) % 100000,
                ".", counter.fetch_add(1), ".", random % 1000000);
}

Status WriteFileAtomically(const std::string& uri, std::string_view bytes) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  const std::string temp = StrCat(uri, ".tmp.", UniqueSuffix());
  Status status = [&]() -> Status {
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs->NewWritableFile(temp));
    PLUGRT_RETURN_IF_ERROR(file->Append(bytes));
    return file->Close();
  }();
  if (status.ok()) status = fs->RenameFile(temp, uri);
  if (!status.ok()) fs->DeleteFile(temp).IgnoreError();
  return status;
}

Status DeleteFile(const std::string& uri) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  return fs->DeleteFile(uri);
}

Status RecursivelyCreateDir(const std::string& uri) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  return fs->RecursivelyCreateDir(uri);
}

StatusOr<FileStatistics> Stat(const std::string& uri) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  return fs->Stat(uri);
}

StatusOr<std::vector<std::string>> GetChildren(const std::string& uri) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(uri));
  return fs->GetChildren(uri);
}

StatusOr<std::vector<std::string>> GetMatchingPaths(const std::string& pattern) {
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(pattern));
  return fs->GetMatchingPaths(pattern);
}

}  // namespace plugrt::fs
