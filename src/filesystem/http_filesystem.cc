// http:// and https://: read-only, over libcurl.
#include <curl/curl.h>

#include <cstring>
#include <mutex>

#include "filesystem/builtin_filesystems.h"

namespace plugrt::fs {
namespace {

// A transfer that moves less than 1 byte/s for this long fails, so a server
// that stops answering cannot hang a read.
constexpr long kStallSeconds = 30;
constexpr long kConnectTimeoutSeconds = 30;

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t AppendBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

struct Response {
  long code = 0;
  std::string body;
  int64_t length = -1;  // Content-Length, -1 if unknown
  int64_t mtime_nsec = 0;
};

// One request; `head` asks for the headers only. Errors of the transfer
// itself are UNAVAILABLE; HTTP status codes are left to the caller.
StatusOr<Response> Request(const std::string& url, bool head) {
  GlobalInit();
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return Internal(url, ": curl_easy_init failed");
  Response response;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, kConnectTimeoutSeconds);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, kStallSeconds);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_FILETIME, 1L);
  if (head) {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  }
  const CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK) {
    curl_easy_cleanup(curl);
    return MakeError(StatusCode::kUnavailable, url, ": ",
                     error[0] != '\0' ? error : curl_easy_strerror(result));
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.code);
  curl_off_t length = -1;
  if (curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK) {
    response.length = length;
  }
  curl_off_t filetime = -1;
  if (curl_easy_getinfo(curl, CURLINFO_FILETIME_T, &filetime) == CURLE_OK && filetime > 0) {
    response.mtime_nsec = static_cast<int64_t>(filetime) * 1000000000;
  }
  curl_easy_cleanup(curl);
  return response;
}

Status CheckCode(const std::string& url, long code) {
  if (code >= 200 && code < 300) return OkStatus();
  if (code == 404 || code == 410) return NotFound(url, ": HTTP ", code, " (no such file)");
  if (code == 401 || code == 403) return MakeError(StatusCode::kPermissionDenied, url, ": HTTP ", code);
  return MakeError(StatusCode::kUnavailable, url, ": HTTP ", code);
}

class HttpFile final : public RandomAccessFile {
 public:
  explicit HttpFile(std::string body) : body_(std::move(body)) {}
  StatusOr<size_t> Read(uint64_t offset, size_t n, char* buffer) const override {
    if (offset >= body_.size()) return size_t{0};
    const size_t count = std::min<uint64_t>(n, body_.size() - offset);
    std::memcpy(buffer, body_.data() + offset, count);
    return count;
  }

 private:
  std::string body_;
};

class HttpFileSystem final : public FileSystem {
 public:
  std::string Describe() const override { return "http filesystem (read-only)"; }

  StatusOr<FileStatistics> Stat(const std::string& url) override {
    PLUGRT_ASSIGN_OR_RETURN(Response response, Request(url, /*head=*/true));
    PLUGRT_RETURN_IF_ERROR(CheckCode(url, response.code));
    FileStatistics stats;
    if (response.length < 0) {
      // No Content-Length: the size is what a GET brings.
      PLUGRT_ASSIGN_OR_RETURN(Response full, Request(url, /*head=*/false));
      PLUGRT_RETURN_IF_ERROR(CheckCode(url, full.code));
      response.length = static_cast<int64_t>(full.body.size());
    }
    stats.length = response.length;
    stats.mtime_nsec = response.mtime_nsec;
    // HTTP has no directories; a URL ending in '/' names an index page.
    stats.is_directory = false;
    return stats;
  }

  StatusOr<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& url) override {
    PLUGRT_ASSIGN_OR_RETURN(Response response, Request(url, /*head=*/false));
    PLUGRT_RETURN_IF_ERROR(CheckCode(url, response.code));
    return std::unique_ptr<RandomAccessFile>(new HttpFile(std::move(response.body)));
  }

  StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& url) override {
    return ReadOnly(url);
  }
  StatusOr<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& url) override {
    return ReadOnly(url);
  }
  Status CreateDir(const std::string& url) override { return ReadOnly(url); }
  Status RecursivelyCreateDir(const std::string& url) override { return ReadOnly(url); }
  Status DeleteFile(const std::string& url) override { return ReadOnly(url); }
  Status DeleteDir(const std::string& url) override { return ReadOnly(url); }
  Status RenameFile(const std::string& src, const std::string&) override { return ReadOnly(src); }
  Status CopyFile(const std::string&, const std::string& dst) override { return ReadOnly(dst); }

 private:
  static Status ReadOnly(const std::string& url) {
    return MakeError(StatusCode::kPermissionDenied, url,
                     ": http:// and https:// are read-only in plugrt");
  }
};

}  // namespace

std::shared_ptr<FileSystem> NewHttpFileSystem() { return std::make_shared<HttpFileSystem>(); }

}  // namespace plugrt::fs
