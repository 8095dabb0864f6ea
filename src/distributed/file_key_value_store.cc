#include "distributed/file_key_value_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "distributed/poll_backoff.h"

namespace plugrt::distributed {
namespace {

// File names longer than this exceed common filesystems' limit (255, less
// room for the temporary's prefix).
constexpr size_t kMaxNameBytes = 200;

std::string Escape(std::string_view key) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string name;
  for (unsigned char c : key) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
      name += static_cast<char>(c);
    } else {
      name += '%';
      name += kHex[c >> 4];
      name += kHex[c & 15];
    }
  }
  // "." and ".." are not files; a leading '.' marks temporaries.
  if (!name.empty() && name[0] == '.') name.replace(0, 1, "%2E");
  return name;
}

Status CheckKey(std::string_view key) {
  if (key.empty()) return InvalidArgument("key-value store: the key is empty");
  if (Escape(key).size() > kMaxNameBytes) {
    return InvalidArgument("file key-value store: key '", key.substr(0, 40), "...' is too long (",
                           key.size(), " bytes) to be a file name");
  }
  return OkStatus();
}

// NOT_FOUND when the file does not exist.
StatusOr<std::string> ReadWhole(const std::string& path, std::string_view key) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound("key '", key, "' not found");
    return MakeError(StatusCode::kUnavailable, "file key-value store: cannot read ", path, ": ",
                     std::strerror(errno));
  }
  std::string value;
  char chunk[65536];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return MakeError(StatusCode::kUnavailable, "file key-value store: cannot read ", path,
                       ": ", std::strerror(error));
    }
    if (n == 0) break;
    value.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  return value;
}

}  // namespace

StatusOr<std::unique_ptr<FileKeyValueStore>> FileKeyValueStore::Open(std::string directory) {
  if (directory.empty()) return InvalidArgument("file key-value store: no directory given");
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory)) {
    return MakeError(StatusCode::kUnavailable, "file key-value store: cannot create directory ",
                     directory, error ? ": " + error.message() : std::string());
  }
  if (::access(directory.c_str(), W_OK | R_OK) != 0) {
    return MakeError(StatusCode::kUnavailable, "file key-value store: directory ", directory,
                     " is not readable and writable: ", std::strerror(errno));
  }
  return std::unique_ptr<FileKeyValueStore>(new FileKeyValueStore(std::move(directory)));
}

std::string FileKeyValueStore::PathOf(std::string_view key) const {
  return directory_ + "/" + Escape(key);
}

StatusOr<std::string> FileKeyValueStore::TryGet(std::string_view key) {
  PLUGRT_RETURN_IF_ERROR(CheckKey(key));
  return ReadWhole(PathOf(key), key);
}

StatusOr<std::string> FileKeyValueStore::Get(std::string_view key, int timeout_ms) {
  PLUGRT_RETURN_IF_ERROR(CheckKey(key));
  const std::string path = PathOf(key);
  PollBackoff poll(timeout_ms);
  while (true) {
    StatusOr<std::string> value = ReadWhole(path, key);
    if (value.ok() || value.status().code() != StatusCode::kNotFound) return value;
    if (!poll.Wait()) {
      return MakeError(StatusCode::kDeadlineExceeded, "key '", key, "' did not appear within ",
                       timeout_ms, " ms (file store ", directory_, ")");
    }
  }
}

Status FileKeyValueStore::Put(std::string_view key, std::string_view value) {
  PLUGRT_RETURN_IF_ERROR(CheckKey(key));
  // Unique per process and call, so concurrent writers never share one.
  static std::atomic<uint64_t> counter{0};
  const std::string temporary =
      StrCat(directory_, "/.tmp.", ::getpid(), ".", counter.fetch_add(1), ".", Escape(key));
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return MakeError(StatusCode::kUnavailable, "file key-value store: cannot write ", temporary,
                     ": ", std::strerror(errno));
  }
  size_t written = 0;
  while (written < value.size()) {
    ssize_t n = ::write(fd, value.data() + written, value.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      return MakeError(StatusCode::kUnavailable, "file key-value store: cannot write ", temporary,
                       ": ", std::strerror(error));
    }
    written += static_cast<size_t>(n);
  }
  ::close(fd);
  const std::string path = PathOf(key);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return MakeError(StatusCode::kUnavailable, "file key-value store: cannot rename into ", path,
                     ": ", std::strerror(error));
  }
  return OkStatus();
}

}  // namespace plugrt::distributed
