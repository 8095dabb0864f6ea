// A local HTTP server for tests: `python3 -m http.server` serving a
// directory on a free 127.0.0.1 port, started by the constructor and
// stopped by the destructor.
#ifndef PLUGRT_TESTS_TESTUTIL_HTTP_SERVER_H_
#define PLUGRT_TESTS_TESTUTIL_HTTP_SERVER_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

#include <chrono>
#include <string>
#include <thread>

namespace plugrt::testing {

class LocalHttpServer {
 public:
  // Serves `directory`. ok() says whether it answered within a few seconds.
  explicit LocalHttpServer(const std::string& directory) {
    port_ = FreePort();
    if (port_ <= 0) return;
    const std::string port = std::to_string(port_);
    pid_ = fork();
    if (pid_ == 0) {
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
      }
      execlp("python3", "python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory",
             directory.c_str(), port.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // Ready once it accepts connections (python starts in well under 5 s).
    for (int i = 0; i < 100 && !ready_; ++i) {
      if (Accepts()) {
        ready_ = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }
  ~LocalHttpServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  bool ok() const { return ready_; }
  int port() const { return port_; }
  // "http://127.0.0.1:PORT/" + path.
  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
  }

  // A port on 127.0.0.1 that nothing listened on a moment ago.
  static int FreePort() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof(addr);
    int port = -1;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port = ntohs(addr.sin_port);
    }
    close(fd);
    return port;
  }

 private:
  bool Accepts() const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    return ok;
  }

  int port_ = -1;
  pid_t pid_ = -1;
  bool ready_ = false;
};

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_HTTP_SERVER_H_
