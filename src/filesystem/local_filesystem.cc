// The local filesystem: plain paths and file:// URIs over POSIX calls.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "filesystem/builtin_filesystems.h"

namespace plugrt::fs {
namespace {

constexpr std::string_view kFileScheme = "file://";

// The POSIX path of a plain path or file:// URI ("file:///a" -> "/a";
// "file://localhost/a" -> "/a").
std::string PosixPath(const std::string& uri) {
  if (uri.size() >= kFileScheme.size() &&
      strncasecmp(uri.c_str(), kFileScheme.data(), kFileScheme.size()) == 0) {
    std::string rest = uri.substr(kFileScheme.size());
    if (rest.starts_with("localhost/")) rest.erase(0, 9);
    return rest;
  }
  return uri;
}

// errno as a Status naming `what` and the path.
Status ErrnoStatus(int error, std::string_view what, const std::string& path) {
  StatusCode code = StatusCode::kUnknown;
  switch (error) {
    case ENOENT: code = StatusCode::kNotFound; break;
    case EEXIST: code = StatusCode::kAlreadyExists; break;
    case EACCES:
    case EPERM:
    case EROFS: code = StatusCode::kPermissionDenied; break;
    case ENOTDIR:
    case EISDIR:
    case ENOTEMPTY: code = StatusCode::kFailedPrecondition; break;
    case ENOSPC:
    case EDQUOT:
    case EMFILE:
    case ENFILE: code = StatusCode::kResourceExhausted; break;
    case ENAMETOOLONG:
    case EINVAL: code = StatusCode::kInvalidArgument; break;
    default: break;
  }
  return Status(code, StrCat(path, ": ", what, ": ", std::strerror(error)));
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }

  StatusOr<size_t> Read(uint64_t offset, size_t n, char* buffer) const override {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, buffer + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(errno, "read", path_);
      }
      if (got == 0) break;
      done += static_cast<size_t>(got);
    }
    return done;
  }

 private:
  int fd_;
  std::string path_;
};

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(int fd, std::string path, int64_t start)
      : fd_(fd), path_(std::move(path)), position_(start) {}
  ~LocalWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Append(std::string_view data) override {
    if (fd_ < 0) return FailedPrecondition(path_, ": append after close");
    while (!data.empty()) {
      const ssize_t wrote = ::write(fd_, data.data(), data.size());
      if (wrote < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(errno, "write", path_);
      }
      data.remove_prefix(static_cast<size_t>(wrote));
      position_ += wrote;
    }
    return OkStatus();
  }
  StatusOr<int64_t> Tell() override { return position_; }
  Status Sync() override {
    if (fd_ >= 0 && ::fsync(fd_) != 0) return ErrnoStatus(errno, "fsync", path_);
    return OkStatus();
  }
  Status Close() override {
    if (fd_ < 0) return FailedPrecondition(path_, ": the file is closed already");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return ErrnoStatus(errno, "close", path_);
    return OkStatus();
  }

 private:
  int fd_;
  std::string path_;
  int64_t position_;
};

class LocalFileSystem final : public FileSystem {
 public:
  std::string Describe() const override { return "local filesystem"; }

  StatusOr<FileStatistics> Stat(const std::string& uri) override {
    const std::string path = PosixPath(uri);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus(errno, "stat", uri);
    FileStatistics stats;
    stats.is_directory = S_ISDIR(st.st_mode);
    stats.length = stats.is_directory ? 0 : static_cast<int64_t>(st.st_size);
    stats.mtime_nsec = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return stats;
  }

  StatusOr<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& uri) override {
    const std::string path = PosixPath(uri);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(errno, "cannot open the file", uri);
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      return FailedPrecondition(uri, ": is a directory");
    }
    return std::unique_ptr<RandomAccessFile>(new LocalRandomAccessFile(fd, uri));
  }

  StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& uri) override {
    return Open(uri, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
  }
  StatusOr<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& uri) override {
    return Open(uri, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC);
  }

  Status CreateDir(const std::string& uri) override {
    if (::mkdir(PosixPath(uri).c_str(), 0777) != 0) {
      return ErrnoStatus(errno, "cannot create the directory", uri);
    }
    return OkStatus();
  }
  Status DeleteFile(const std::string& uri) override {
    const std::string path = PosixPath(uri);
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return FailedPrecondition(uri, ": is a directory, not a file");
    }
    if (::unlink(path.c_str()) != 0) return ErrnoStatus(errno, "cannot delete", uri);
    return OkStatus();
  }
  Status DeleteDir(const std::string& uri) override {
    if (::rmdir(PosixPath(uri).c_str()) != 0) {
      return ErrnoStatus(errno, "cannot delete the directory", uri);
    }
    return OkStatus();
  }
  Status RenameFile(const std::string& src, const std::string& dst) override {
    if (::rename(PosixPath(src).c_str(), PosixPath(dst).c_str()) != 0) {
      return ErrnoStatus(errno, StrCat("cannot rename to ", dst), src);
    }
    return OkStatus();
  }
  StatusOr<std::vector<std::string>> GetChildren(const std::string& uri) override {
    DIR* dir = ::opendir(PosixPath(uri).c_str());
    if (dir == nullptr) return ErrnoStatus(errno, "cannot list the directory", uri);
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  StatusOr<std::unique_ptr<WritableFile>> Open(const std::string& uri, int flags) {
    const std::string path = PosixPath(uri);
    const int fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0) return ErrnoStatus(errno, "cannot open for writing", uri);
    int64_t start = 0;
    if (flags & O_APPEND) {
      struct stat st;
      if (::fstat(fd, &st) == 0) start = st.st_size;
    }
    return std::unique_ptr<WritableFile>(new LocalWritableFile(fd, uri, start));
  }
};

}  // namespace

std::shared_ptr<FileSystem> NewLocalFileSystem() { return std::make_shared<LocalFileSystem>(); }

}  // namespace plugrt::fs
