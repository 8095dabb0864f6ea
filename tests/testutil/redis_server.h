// plugrt tests: a redis-server of the test's own on a free 127.0.0.1 port,
// without persistence, stopped when the object goes.
#ifndef PLUGRT_TESTS_TESTUTIL_REDIS_SERVER_H_
#define PLUGRT_TESTS_TESTUTIL_REDIS_SERVER_H_

#include <sys/types.h>

#include <string>

namespace plugrt::testing {

class RedisServer {
 public:
  // Starts the server and waits (up to 10 s) until it accepts connections.
  // On failure, ok() is false and error() says why (redis-server missing
  // from PATH, or it did not come up).
  RedisServer();
  ~RedisServer() { Stop(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  bool ok() const { return pid_ > 0; }
  const std::string& error() const { return error_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string address() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  // Terminates the server (a store using it then fails); idempotent.
  void Stop();

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string error_;
};

// A TCP port on 127.0.0.1 nobody listens on right now (0 when none).
int FreeLoopbackPort();

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_REDIS_SERVER_H_
