// Multi-process CPU jobs: this test program starts copies of itself as the
// job's processes (node_id / num_nodes create options, a key-value store in
// a fresh directory or on a redis-server of the test's own), and checks what
// each process printed: the global device list, collectives across
// processes (Gloo on loopback), the program check, and what a lost process
// does to the others. Every child runs under a deadline and is killed past
// it, so no test can hang.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "distributed/key_value_store_url.h"
#include "testutil/plugin_env.h"
#include "testutil/redis_server.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

// ---- the child side: one process of the job --------------------------------

// 4 replicas over 2 processes of 2 devices each: every group below mixes
// local members with remote ones. The f32 and i64 all-reduces take Gloo's
// all-reduce; the i1 `or` (a type Gloo lacks) and the other collectives
// gather operands. %x comes back unchanged.
constexpr const char* kCollectives = R"(
module @collectives attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main() -> (tensor<2xf32>, tensor<2xf32>, tensor<8xi32>, tensor<1xi32>, tensor<2xi32>,
                        tensor<4xi32>, tensor<2xf32>, tensor<i64>, tensor<i1>, tensor<2xf32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>
    %rl = stablehlo.convert %r : (tensor<ui32>) -> tensor<i64>
    %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %rp1 = stablehlo.add %rf, %one : tensor<f32>
    %b = stablehlo.broadcast_in_dim %rp1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %scale = stablehlo.constant dense<[1.0, 10.0]> : tensor<2xf32>
    %x = stablehlo.multiply %b, %scale : tensor<2xf32>
    %sum = "stablehlo.all_reduce"(%x) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    %max = "stablehlo.all_reduce"(%x) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    %two = stablehlo.constant dense<2> : tensor<i32>
    %r2 = stablehlo.multiply %ri, %two : tensor<i32>
    %r2b = stablehlo.broadcast_in_dim %r2, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %io2 = stablehlo.iota dim = 0 : tensor<2xi32>
    %pair = stablehlo.add %r2b, %io2 : tensor<2xi32>
    %gathered = "stablehlo.all_gather"(%pair) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xi32>) -> tensor<8xi32>
    %rb4 = stablehlo.broadcast_in_dim %ri, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %io4 = stablehlo.iota dim = 0 : tensor<4xi32>
    %v = stablehlo.add %rb4, %io4 : tensor<4xi32>
    %scattered = "stablehlo.reduce_scatter"(%v) ({
      ^bb0(%p: tensor<i32>, %q: tensor<i32>):
        %s = stablehlo.add %p, %q : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {scatter_dimension = 0 : i64,
        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xi32>) -> tensor<1xi32>
    %permuted = "stablehlo.collective_permute"(%pair) {
        source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}
        : (tensor<2xi32>) -> tensor<2xi32>
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %r10 = stablehlo.multiply %ri, %ten : tensor<i32>
    %r10b = stablehlo.broadcast_in_dim %r10, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %w = stablehlo.add %r10b, %io4 : tensor<4xi32>
    %exchanged = "stablehlo.all_to_all"(%w) {split_dimension = 0 : i64, concat_dimension = 0 : i64,
        split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}
        : (tensor<4xi32>) -> tensor<4xi32>
    %broadcast = "stablehlo.collective_broadcast"(%x) {
        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    %pairs = "stablehlo.all_reduce"(%rl) ({
      ^bb0(%p: tensor<i64>, %q: tensor<i64>):
        %s = stablehlo.add %p, %q : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<i64>) -> tensor<i64>
    %c1 = stablehlo.constant dense<1> : tensor<ui32>
    %low = stablehlo.and %r, %c1 : tensor<ui32>
    %odd = stablehlo.compare EQ, %low, %c1 : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %any = "stablehlo.all_reduce"(%odd) ({
      ^bb0(%p: tensor<i1>, %q: tensor<i1>):
        %s = stablehlo.or %p, %q : tensor<i1>
        stablehlo.return %s : tensor<i1>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<i1>) -> tensor<i1>
    return %sum, %max, %gathered, %scattered, %permuted, %exchanged, %broadcast, %pairs, %any, %x
        : tensor<2xf32>, tensor<2xf32>, tensor<8xi32>, tensor<1xi32>, tensor<2xi32>,
          tensor<4xi32>, tensor<2xf32>, tensor<i64>, tensor<i1>, tensor<2xf32>
  }
}
)";

constexpr const char* kOtherProgram = R"(
module @collectives attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main() -> tensor<i32> {
    %c = stablehlo.constant dense<7> : tensor<i32>
    return %c : tensor<i32>
  }
}
)";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Prints every element of `buffer` (f32, i32 or i64) separated by ','.
std::string Values(const Buffer& buffer) {
  StatusOr<std::vector<std::byte>> bytes = buffer.ToHostVector();
  StatusOr<PJRT_Buffer_Type> type = buffer.element_type();
  if (!bytes.ok() || !type.ok()) return "error";
  std::ostringstream out;
  auto print = [&](auto sample) {
    using T = decltype(sample);
    for (size_t i = 0; i < bytes->size() / sizeof(T); ++i) {
      T value;
      std::memcpy(&value, bytes->data() + i * sizeof(T), sizeof(T));
      out << (i ? "," : "") << value;
    }
  };
  if (*type == PJRT_Buffer_Type_F32) print(float{});
  if (*type == PJRT_Buffer_Type_S32) print(int32_t{});
  if (*type == PJRT_Buffer_Type_S64) print(int64_t{});
  if (*type == PJRT_Buffer_Type_PRED) {
    for (size_t i = 0; i < bytes->size(); ++i) out << (i ? "," : "") << int{bytes->at(i) != std::byte{0}};
  }
  return out.str();
}

// What a child prints: "key=value" lines the parent reads.
void Say(const std::string& key, const std::string& value) {
  std::printf("%s=%s\n", key.c_str(), value.c_str());
  std::fflush(stdout);
}

int ChildMain() {
  const std::string scenario = Env("PLUGRT_MP_SCENARIO");
  const int node = std::atoi(Env("PLUGRT_MP_NODE").c_str());
  const int nodes = std::atoi(Env("PLUGRT_MP_NODES").c_str());
  auto store = distributed::OpenKeyValueStore(Env("PLUGRT_MP_STORE"));
  if (!store.ok()) {
    Say("error", store.status().ToString());
    return 2;
  }
  auto plugin = testing::CpuPlugin();
  if (!plugin.ok()) {
    Say("error", plugin.status().ToString());
    return 2;
  }
  ClientOptions options;
  options.create_options = {{"node_id", int64_t{node}},
                            {"num_nodes", int64_t{nodes}},
                            {"cpu_device_count", int64_t{2}},
                            {"distributed_timeout_ms",
                             int64_t{std::atoll(Env("PLUGRT_MP_TIMEOUT_MS").c_str())}}};
  if (!Env("PLUGRT_MP_HEARTBEAT_TIMEOUT_MS").empty()) {
    options.create_options.push_back(
        {"heartbeat_timeout_ms", int64_t{std::atoll(Env("PLUGRT_MP_HEARTBEAT_TIMEOUT_MS").c_str())}});
    options.create_options.push_back({"heartbeat_interval_ms", int64_t{200}});
  }
  options.kv_store = std::shared_ptr<KeyValueStore>(std::move(*store));
  auto client = Client::Create(*plugin, options);
  if (!client.ok()) {
    Say("create", client.status().ToString());
    return 3;
  }
  Say("process_index", std::to_string(*(*client)->process_index()));
  auto devices = (*client)->devices();
  auto addressable = (*client)->addressable_devices();
  std::string listing;
  for (const Device& device : *devices) {
    listing += StrCat(listing.empty() ? "" : ";", *device.id(), ":", *device.process_index(), ":",
                      *device.is_addressable() ? "local" : "remote");
  }
  Say("devices", listing);
  Say("addressable", std::to_string(addressable->size()));
  if (scenario == "topology") return 0;
  if (scenario == "store_gone" && node == 0) {
    // The job's Redis server goes away once node 0 has joined.
    ::kill(static_cast<pid_t>(std::atoll(Env("PLUGRT_MP_KILL_PID").c_str())), SIGKILL);
  }
  if (scenario == "die_before_compile" && node == 1) std::_Exit(0);

  const char* program = scenario == "mismatch" && node == 1 ? kOtherProgram : kCollectives;
  auto executable = (*client)->Compile(program);
  if (!executable.ok()) {
    Say("compile", executable.status().ToString());
    return 4;
  }
  if (scenario == "die_before_execute" && node == 1) std::_Exit(0);
  // A process that hangs without closing anything (as a stopped or wedged
  // one does): only the heartbeat tells the others.
  if (scenario == "stop_before_execute" && node == 1) ::raise(SIGSTOP);
  for (int run = 0; run < 2; ++run) {  // twice: the second reuses the connections
    if (scenario == "die_between_runs" && node == 1 && run == 1) std::_Exit(0);
    if (scenario == "stop_between_runs" && node == 1 && run == 1) ::raise(SIGSTOP);
    auto results = executable->Execute({});
    if (!results.ok()) {
      Say("execute", results.status().ToString());
      return 5;
    }
    for (size_t d = 0; d < results->size(); ++d) {
      for (size_t o = 0; o < (*results)[d].size(); ++o) {
        Say(StrCat("run", run, ".device", d, ".out", o), Values((*results)[d][o]));
      }
    }
  }
  return 0;
}

// ---- the parent side --------------------------------------------------------

struct ChildResult {
  int exit_code = -1;  // -1: killed at the deadline or by a signal
  std::map<std::string, std::string> said;
  std::string output;
};

// Runs `nodes` copies of this program as the processes of one job and waits
// for them (killing any still running after `deadline`).
// `started`: how many of them to start (nodes 0.. started-1; -1: all).
// `timeout_ms`: the processes' distributed_timeout_ms: long where all go
// well (a loaded machine may start them slowly), short where the test waits
// for it to pass.
// `heartbeat_timeout_ms`: 0 keeps the default. Once node 0 has ended, the
// others are killed when `kill_rest` (a stopped process never ends alone).
std::vector<ChildResult> RunJob(const std::string& scenario, int nodes, const std::string& store,
                                int started = -1, int timeout_ms = 20000,
                                int heartbeat_timeout_ms = 0, bool kill_rest = false) {
  const auto deadline = std::chrono::seconds(60);
  const int job = nodes;
  if (started >= 0) nodes = started;
  std::vector<pid_t> pids(nodes);
  std::vector<int> pipes(nodes);
  for (int n = 0; n < nodes; ++n) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      ::setenv("PLUGRT_MP_SCENARIO", scenario.c_str(), 1);
      ::setenv("PLUGRT_MP_NODE", std::to_string(n).c_str(), 1);
      ::setenv("PLUGRT_MP_NODES", std::to_string(job).c_str(), 1);
      ::setenv("PLUGRT_MP_STORE", store.c_str(), 1);
      ::setenv("PLUGRT_MP_TIMEOUT_MS", std::to_string(timeout_ms).c_str(), 1);
      if (heartbeat_timeout_ms > 0) {
        ::setenv("PLUGRT_MP_HEARTBEAT_TIMEOUT_MS", std::to_string(heartbeat_timeout_ms).c_str(), 1);
      }
      ::execl("/proc/self/exe", "distributed_multiprocess_test", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    pids[n] = pid;
    pipes[n] = fds[0];
  }
  std::vector<ChildResult> results(nodes);
  const auto end = std::chrono::steady_clock::now() + deadline;
  int open = nodes;
  while (open > 0) {
    std::vector<pollfd> fds;
    for (int n = 0; n < nodes; ++n) {
      if (pipes[n] >= 0) fds.push_back({pipes[n], POLLIN, 0});
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    for (int n = 0; n < nodes; ++n) {
      if (pipes[n] < 0) continue;
      pollfd probe{pipes[n], POLLIN, 0};
      if (::poll(&probe, 1, 0) <= 0) continue;
      char chunk[4096];
      ssize_t got = ::read(pipes[n], chunk, sizeof(chunk));
      if (got <= 0) {
        ::close(pipes[n]);
        pipes[n] = -1;
        --open;
        if (n == 0 && kill_rest) {
          for (int other = 1; other < nodes; ++other) ::kill(pids[other], SIGKILL);
        }
      } else {
        results[n].output.append(chunk, static_cast<size_t>(got));
      }
    }
  }
  for (int n = 0; n < nodes; ++n) {
    if (pipes[n] >= 0) {
      ADD_FAILURE() << "node " << n << " of scenario " << scenario << " passed the deadline";
      ::kill(pids[n], SIGKILL);
      ::close(pipes[n]);
    }
    int status = 0;
    ::waitpid(pids[n], &status, 0);
    results[n].exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::istringstream lines(results[n].output);
    std::string line;
    while (std::getline(lines, line)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) results[n].said[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
  return results;
}

class MultiProcessTest : public ::testing::Test {
 protected:
  std::string FileStore() const { return "file:" + dir_; }
  const plugrt::testing::TempDir temp_dir_{"dist-mp"};
  const std::string dir_ = temp_dir_.path();
};

TEST_F(MultiProcessTest, EveryProcessSeesTheSameGlobalDevices) {
  auto results = RunJob("topology", 3, FileStore());
  for (int n = 0; n < 3; ++n) {
    SCOPED_TRACE(results[n].output);
    EXPECT_EQ(results[n].exit_code, 0);
    EXPECT_EQ(results[n].said["process_index"], std::to_string(n));
    EXPECT_EQ(results[n].said["addressable"], "2");
    // Ids 2n and 2n+1 are this node's, the others remote, with their owner.
    std::string expected;
    for (int id = 0; id < 6; ++id) {
      expected += StrCat(id ? ";" : "", id, ":", id / 2, ":", id / 2 == n ? "local" : "remote");
    }
    EXPECT_EQ(results[n].said["devices"], expected);
  }
}

// The expected outputs of kCollectives for replica r.
std::vector<std::string> Expected(int r) {
  const int from = (r + 3) % 4;
  return {"10,100",
          "4,40",
          "0,1,2,3,4,5,6,7",
          std::to_string(6 + 4 * r),
          StrCat(2 * from, ",", 2 * from + 1),
          StrCat(r, ",", 10 + r, ",", 20 + r, ",", 30 + r),
          "1,10",
          std::to_string(r % 2 == 0 ? 2 : 4),
          r % 2 == 0 ? "0" : "1",
          StrCat(r + 1, ",", 10 * (r + 1))};
}

void ExpectCollectiveResults(const std::vector<ChildResult>& results) {
  for (int n = 0; n < 2; ++n) {
    SCOPED_TRACE(results[n].output);
    EXPECT_EQ(results[n].exit_code, 0);
    for (int run = 0; run < 2; ++run) {
      for (int d = 0; d < 2; ++d) {
        const int replica = 2 * n + d;
        const std::vector<std::string> expected = Expected(replica);
        for (size_t o = 0; o < expected.size(); ++o) {
          auto it = results[n].said.find(StrCat("run", run, ".device", d, ".out", o));
          ASSERT_NE(it, results[n].said.end()) << "output " << o << " of replica " << replica;
          EXPECT_EQ(it->second, expected[o]) << "output " << o << " of replica " << replica;
        }
      }
    }
  }
}

TEST_F(MultiProcessTest, CollectivesSpanProcessesThroughAFileStore) {
  ExpectCollectiveResults(RunJob("collectives", 2, FileStore()));
}

TEST_F(MultiProcessTest, CollectivesSpanProcessesThroughRedis) {
  testing::RedisServer server;
  if (!server.ok()) GTEST_SKIP() << server.error();
  ExpectCollectiveResults(RunJob("collectives", 2, server.address() + "/job:"));
}

TEST_F(MultiProcessTest, ARedisServerThatGoesAwayGivesClearErrors) {
  testing::RedisServer server;
  if (!server.ok()) GTEST_SKIP() << server.error();
  ::setenv("PLUGRT_MP_KILL_PID", std::to_string(server.pid()).c_str(), 1);
  auto results = RunJob("store_gone", 2, server.address() + "/job:");
  ::unsetenv("PLUGRT_MP_KILL_PID");
  const std::string address = "127.0.0.1:" + std::to_string(server.port());
  for (int n = 0; n < 2; ++n) {
    SCOPED_TRACE(results[n].output);
    // Node 1 may lose the store while joining, or both at the program check.
    const std::string error = results[n].said.count("create") ? results[n].said["create"]
                                                              : results[n].said["compile"];
    EXPECT_NE(results[n].exit_code, 0);
    EXPECT_NE(error.find("UNAVAILABLE"), std::string::npos);
    EXPECT_NE(error.find(address), std::string::npos);
  }
}

TEST_F(MultiProcessTest, DifferentProgramsAreRefusedOnEveryProcess) {
  auto results = RunJob("mismatch", 2, FileStore());
  for (int n = 0; n < 2; ++n) {
    SCOPED_TRACE(results[n].output);
    EXPECT_EQ(results[n].exit_code, 4);
    EXPECT_NE(results[n].said["compile"].find("INVALID_ARGUMENT"), std::string::npos);
    EXPECT_NE(results[n].said["compile"].find("differs between processes"), std::string::npos);
  }
}

TEST_F(MultiProcessTest, AProcessThatNeverComesIsNamed) {
  // A job of 3 processes of which only nodes 0 and 1 start.
  auto results = RunJob("topology", 3, FileStore(), /*started=*/2, /*timeout_ms=*/4000);
  for (int n = 0; n < 2; ++n) {
    SCOPED_TRACE(results[n].output);
    EXPECT_EQ(results[n].exit_code, 3);
    EXPECT_NE(results[n].said["create"].find("DEADLINE_EXCEEDED"), std::string::npos);
    EXPECT_NE(results[n].said["create"].find("node(s) [2]"), std::string::npos);
  }
}

TEST_F(MultiProcessTest, AProcessLostBeforeTheProgramCheckIsNamed) {
  // The heartbeat finds node 1's process gone (same machine) before the
  // program check's own timeout.
  auto results = RunJob("die_before_compile", 2, FileStore(), -1, /*timeout_ms=*/40000);
  SCOPED_TRACE(results[0].output);
  EXPECT_EQ(results[0].exit_code, 4);
  EXPECT_NE(results[0].said["compile"].find("UNAVAILABLE"), std::string::npos);
  EXPECT_NE(results[0].said["compile"].find("node 1 (host 127.0.0.1, pid "), std::string::npos);
}

TEST_F(MultiProcessTest, AProcessLostBeforeACollectiveFailsTheOthersWithoutHanging) {
  auto results = RunJob("die_before_execute", 2, FileStore(), -1, /*timeout_ms=*/4000);
  SCOPED_TRACE(results[0].output);
  EXPECT_EQ(results[0].exit_code, 5);
  EXPECT_NE(results[0].said["execute"].find("UNAVAILABLE"), std::string::npos);
  EXPECT_NE(results[0].said["execute"].find("nodes [0, 1]"), std::string::npos);
  EXPECT_NE(results[0].said["execute"].find("node 1 (host 127.0.0.1, pid "), std::string::npos);
}

// Node 1 stops (SIGSTOP) with its sockets open: before the first
// collective's rendezvous, or between runs with its connections up, where
// node 0's collective is in flight inside Gloo. The heartbeat (2 s here)
// ends node 0's wait, naming node 1, long before distributed_timeout_ms
// (60 s, past the test's deadline).
void ExpectStoppedNodeNamed(const std::string& scenario, const std::string& store) {
  auto results = RunJob(scenario, 2, store, -1, /*timeout_ms=*/60000,
                        /*heartbeat_timeout_ms=*/2000, /*kill_rest=*/true);
  SCOPED_TRACE(results[0].output);
  EXPECT_EQ(results[0].exit_code, 5);
  const std::string& error = results[0].said["execute"];
  EXPECT_NE(error.find("UNAVAILABLE"), std::string::npos);
  EXPECT_NE(error.find("node 1 (host 127.0.0.1, pid "), std::string::npos);
  EXPECT_NE(error.find("stopped answering: no heartbeat for"), std::string::npos);
}

TEST_F(MultiProcessTest, AStoppedProcessIsNamedByTheHeartbeatBeforeItsFirstCollective) {
  ExpectStoppedNodeNamed("stop_before_execute", FileStore());
}

TEST_F(MultiProcessTest, AStoppedProcessEndsACollectiveInFlight) {
  ExpectStoppedNodeNamed("stop_between_runs", FileStore());
}

TEST(MultiProcessOptionsTest, AJobNeedsAStoreAndANodeIdBelowItsSize) {
  auto plugin = testing::CpuPlugin();
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  ClientOptions options;
  options.create_options = {{"node_id", int64_t{0}}, {"num_nodes", int64_t{2}}};
  auto client = Client::Create(*plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(client.status().message().find("key-value"), std::string::npos)
      << client.status().message();
  options.create_options = {{"node_id", int64_t{2}}, {"num_nodes", int64_t{2}}};
  options.kv_store = std::make_shared<InMemoryKeyValueStore>();
  client = Client::Create(*plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(client.status().message().find("node_id"), std::string::npos)
      << client.status().message();
}

TEST(MultiProcessOptionsTest, AHeartbeatTimeoutMustExceedItsInterval) {
  auto plugin = testing::CpuPlugin();
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  ClientOptions options;
  options.create_options = {{"heartbeat_interval_ms", int64_t{500}},
                            {"heartbeat_timeout_ms", int64_t{500}}};
  auto client = Client::Create(*plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(client.status().message().find("heartbeat_timeout_ms"), std::string::npos)
      << client.status().message();
}

TEST(MultiProcessOptionsTest, AJobOfOneIsASingleProcess) {
  auto plugin = testing::CpuPlugin();
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  ClientOptions options;
  options.create_options = {{"node_id", int64_t{0}}, {"num_nodes", int64_t{1}},
                            {"cpu_device_count", int64_t{2}}};
  auto client = Client::Create(*plugin, options);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ(*(*client)->process_index(), 0);
  EXPECT_EQ((*client)->devices()->size(), 2u);
  EXPECT_EQ((*client)->addressable_devices()->size(), 2u);
}

TEST_F(MultiProcessTest, AProcessLostBetweenExecutionsFailsTheOthersWithoutHanging) {
  // The connections of the first run are up; node 1 goes away before the
  // second, whose collectives on node 0 then fail.
  auto results = RunJob("die_between_runs", 2, FileStore());
  SCOPED_TRACE(results[0].output);
  EXPECT_EQ(results[0].exit_code, 5);
  EXPECT_EQ(results[0].said["run0.device0.out0"], "10,100");
  EXPECT_NE(results[0].said["execute"].find("UNAVAILABLE"), std::string::npos);
  EXPECT_NE(results[0].said["execute"].find("nodes [0, 1]"), std::string::npos);
}

}  // namespace
}  // namespace plugrt

int main(int argc, char** argv) {
  if (std::getenv("PLUGRT_MP_SCENARIO") != nullptr) return plugrt::ChildMain();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
