// plugrt tests: `plugrt serve` workers started on loopback ports they pick,
// with a shared token, for the tests of remote execution (remote_test,
// eager_cluster_test). Header-only: it needs PLUGRT_CLI_PATH, and the
// tests that use it carry compile definitions of their own.
#ifndef PLUGRT_TESTS_TESTUTIL_REMOTE_WORKER_H_
#define PLUGRT_TESTS_TESTUTIL_REMOTE_WORKER_H_

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define PLUGRT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLUGRT_TEST_ASAN 1
#endif
#endif

namespace plugrt::testing {

inline constexpr const char* kRemoteToken = "remote-test-token-0123456789";

// A directory of this test process under the test's temporary directory.
inline std::string RemoteTestDir() {
  std::string dir = ::testing::TempDir() + "/remote_test_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

// Writes `text` to RemoteTestDir()/name; its path.
inline std::string WriteRemoteTestFile(const std::string& name, const std::string& text) {
  std::string path = RemoteTestDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A file holding kRemoteToken.
inline std::string RemoteTokenFile() {
  return WriteRemoteTestFile("token", std::string(kRemoteToken) + "\n");
}

// A `plugrt serve` process on 127.0.0.1, port chosen by the worker, serving
// `devices` CPU devices with kRemoteToken (and `extra` flags: TLS files).
// Stopped (SIGTERM) when destroyed.
class RemoteWorker {
 public:
  explicit RemoteWorker(int devices = 2, const std::vector<std::string>& extra = {}) {
    int out[2];
    if (::pipe(out) != 0) return;
    // Everything the child needs is built before fork: after it, a child of
    // a threaded process may only exec.
    std::string token_file = RemoteTokenFile();
    std::string count = std::to_string(devices);
    std::vector<const char*> argv = {PLUGRT_CLI_PATH, "serve", "--listen", "127.0.0.1:0",
                                     "--token-file", token_file.c_str(), "--devices",
                                     count.c_str()};
    for (const std::string& flag : extra) argv.push_back(flag.c_str());
    argv.push_back(nullptr);
    std::vector<std::string> environment;
    for (char** e = environ; *e != nullptr; ++e) {
      if (std::strncmp(*e, "ASAN_OPTIONS=", 13) != 0) environment.push_back(*e);
    }
#ifdef PLUGRT_TEST_ASAN
    // Freed blocks would stay resident in the sanitizer's quarantine and
    // hide the worker's own memory use (LargeArraysStreamWithoutASecondCopy).
    const char* asan = std::getenv("ASAN_OPTIONS");
    environment.push_back(std::string("ASAN_OPTIONS=") + (asan != nullptr ? asan : "") +
                          ":quarantine_size_mb=0");
#else
    if (const char* asan = std::getenv("ASAN_OPTIONS")) {
      environment.push_back(std::string("ASAN_OPTIONS=") + asan);
    }
#endif
    std::vector<char*> envp;
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      ::execve(PLUGRT_CLI_PATH, const_cast<char* const*>(argv.data()), envp.data());
      ::_exit(127);
    }
    ::close(out[1]);
    // The first line names the port.
    std::string line;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    // Kept open: the worker's last line must not meet a closed pipe.
    stdout_ = out[0];
    size_t colon = line.rfind(':', line.find(" ("));
    if (line.find("listening on") != std::string::npos && colon != std::string::npos) {
      port_ = std::atoi(line.c_str() + colon + 1);
    }
  }
  ~RemoteWorker() { Stop(SIGTERM); }
  RemoteWorker(const RemoteWorker&) = delete;
  RemoteWorker& operator=(const RemoteWorker&) = delete;

  bool ok() const { return port_ > 0; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }
  // Returns the exit status.
  int Stop(int signal) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    ::close(stdout_);
    return status;
  }
  // The worker's peak resident memory (VmHWM), in bytes; reset by ResetPeak.
  int64_t PeakBytes() const { return StatusField("VmHWM:"); }
  int64_t ResidentBytes() const { return StatusField("VmRSS:"); }
  void ResetPeak() const {
    std::ofstream("/proc/" + std::to_string(pid_) + "/clear_refs") << "5";
  }

 private:
  int64_t StatusField(const std::string& field) const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind(field, 0) == 0) return std::atoll(line.c_str() + field.size()) * 1024;
    }
    return -1;
  }

  pid_t pid_ = -1;
  int port_ = 0;
  int stdout_ = -1;
};

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_REMOTE_WORKER_H_
