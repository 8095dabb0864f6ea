// Jobs across simulated hosts: network namespaces made by the test
// (scripts/netns_hosts.sh: one per host, veth pairs to a bridge, addresses in
// 198.18.0.0/24 that exist inside the namespaces only), so the multi-host
// paths run for real on one machine: the coordinator on another host, each
// process's collectives address derived from the route to it, the store
// refused in clear text off loopback without consent, and a host cut off in
// the middle of a job's collectives. Skips, saying why, where namespaces
// cannot be made (not root).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testutil/cross_process_programs.h"
#include "testutil/mpi_launch.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"
#include "testutil/test_certificates.h"

namespace plugrt::testing {
namespace {

const std::string kHosts = std::string(PLUGRT_TEST_SOURCE_DIR) + "/scripts/netns_hosts.sh";

class CliNetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CommandResult check = RunCommand(kHosts + " check");
    if (check.exit_code != 0) GTEST_SKIP() << "no simulated hosts here: " << check.output;
    CommandResult up = RunCommand(kHosts + " up " + name_ + " 2");
    ASSERT_EQ(up.exit_code, 0) << up.output;
    made_ = true;
  }
  void TearDown() override {
    if (made_) RunCommand(kHosts + " down " + name_);
  }

  std::string Program(const char* name, const char* text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // Starts `plugrt run PROGRAM` on both hosts as the two ranks of a
  // torchrun-style job whose coordinator is host 0; `between` runs once both
  // have started (a fault). Each host's output, then "exit=CODE", follows
  // "[host K] ".
  CommandResult RunJob(const std::string& program, const std::string& extra_env,
                       const std::string& between = "", const std::string& host1_env = "") {
    std::string command;
    for (int k = 0; k < 2; ++k) {
      const std::string out = dir_ + "/h" + std::to_string(k) + ".txt";
      command += "(env RANK=" + std::to_string(k) +
                 " WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=198.18.0.1 "
                 "MASTER_PORT=29500 PLUGRT_LOG_LEVEL=info " + extra_env + " " +
                 (k == 1 ? host1_env : std::string()) + " timeout 120 " +
                 kHosts + " exec " + name_ + " " + std::to_string(k) + " " + PLUGRT_CLI_PATH +
                 " run " + program + " > " + out + " 2>&1; echo exit=$? >> " + out + ") & ";
    }
    if (!between.empty()) command += between + "; ";
    command += "wait; sed 's/^/[host 0] /' " + dir_ + "/h0.txt; sed 's/^/[host 1] /' " + dir_ +
               "/h1.txt";
    return RunCommand(command);
  }

  const TempDir temp_dir_{"cli-netns"};
  const std::string dir_ = temp_dir_.path();
  const std::string name_ = "plugrt-t" + std::to_string(::getpid());
  bool made_ = false;
};

TEST_F(CliNetnsTest, ACoordinatorOnAnotherHostSpeaksMutualTls) {
  testing::TestCertificates certs = testing::MakeTestCertificates(dir_);
  if (!certs.error.empty()) GTEST_SKIP() << certs.error;
  // Under the sanitizer build, OpenSSL objects gRPC's TLS channels still hold
  // when a process exits are reported as leaks (in libcrypto, at random with
  // thread timing): leak checking is off in these jobs' processes; the TLS code
  // is leak-checked in-process by the store and worker tests.
  const std::string tls = "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" PLUGRT_TLS_CA=" +
                          certs.ca + " PLUGRT_TLS_CERT=" + certs.server_cert +
                          " PLUGRT_TLS_KEY=" + certs.server_key;
  CommandResult result = RunJob(Program("sum.mlir", kTwoProcessSumProgram), tls);
  for (int k = 0; k < 2; ++k) {
    const std::string host = "[host " + std::to_string(k) + "] ";
    EXPECT_NE(result.output.find(host + "array([ 3., 30.], dtype=float32)"), std::string::npos)
        << result.output;
  }
  // Node 1 with a certificate of another CA: refused, naming node 0's store;
  // node 0 names the node that never came.
  CommandResult refused =
      RunJob(Program("sum.mlir", kTwoProcessSumProgram),
             tls + " PLUGRT_DISTRIBUTED_TIMEOUT_MS=8000", "",
             // Node 1 gives up first, while node 0 still answers.
             "PLUGRT_DISTRIBUTED_TIMEOUT_MS=3000 PLUGRT_TLS_CERT=" + certs.stranger_cert +
                 " PLUGRT_TLS_KEY=" + certs.stranger_key);
  EXPECT_NE(refused.output.find("[host 1] plugrt run: UNAUTHENTICATED: the peer at "
                                "198.18.0.1:29500 answers but refused the secure connection"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("[host 0] plugrt run: DEADLINE_EXCEEDED"), std::string::npos)
      << refused.output;
}

TEST_F(CliNetnsTest, ACoordinatorOnAnotherHostServesInClearTextOnlyWithConsent) {
  const std::string program = Program("sum.mlir", kTwoProcessSumProgram);
  CommandResult refused = RunJob(program, "PLUGRT_DISTRIBUTED_TIMEOUT_MS=3000");
  EXPECT_NE(refused.output.find("[host 0] plugrt run: FAILED_PRECONDITION: the job's key-value "
                                "store (from 198.18.0.1:29500 from MASTER_ADDR/MASTER_PORT) "
                                "would listen on 0.0.0.0:29500"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("PLUGRT_ALLOW_INSECURE=1"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("[host 1] exit=1"), std::string::npos) << refused.output;

  CommandResult result = RunJob(program, "PLUGRT_ALLOW_INSECURE=1");
  for (int k = 0; k < 2; ++k) {
    const std::string host = "[host " + std::to_string(k) + "] ";
    EXPECT_NE(result.output.find(host + "array([ 3., 30.], dtype=float32)"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find(host + "exit=0"), std::string::npos) << result.output;
    // Each host is its own: the whole machine's threads, not a share.
    EXPECT_NE(result.output.find(host + "plugrt cpu: node " + std::to_string(k) +
                                 " of 2: collectives over gloo"),
              std::string::npos)
        << result.output;
  }
}

TEST_F(CliNetnsTest, AJobSurvivesPacketLossABandwidthCapAndAddedLatency) {
  // A tenth of every host's incoming packets dropped at random, host 1's
  // outgoing traffic capped and 30 ms added each way to every connection:
  // TCP retransmits, and the job's answer is the same.
  for (int k = 0; k < 2; ++k) {
    const std::string host = " " + name_ + " " + std::to_string(k);
    ASSERT_EQ(RunCommand(kHosts + " delay" + host + " 30").exit_code, 0);
    ASSERT_EQ(RunCommand(kHosts + " loss" + host + " 10").exit_code, 0);
  }
  ASSERT_EQ(RunCommand(kHosts + " cap " + name_ + " 1 50mbit").exit_code, 0);
  // The latency is there: a round trip from host 1 to an echo server on
  // host 0 takes at least the 60 ms the relay holds it back.
  const std::string echo =
      "import socket; s = socket.create_server(('198.18.0.1', 29600)); c, _ = s.accept(); "
      "c.sendall(c.recv(1))";
  const std::string ping =
      "import socket, time; s = socket.create_connection(('198.18.0.1', 29600), 10); "
      "t = time.monotonic(); s.sendall(b'x'); s.recv(1); "
      "print('rtt_ms', round((time.monotonic() - t) * 1e3))";
  CommandResult rtt = RunCommand("(timeout 30 " + kHosts + " exec " + name_ + " 0 python3 -c \"" +
                                 echo + "\" &) ; sleep 0.5; timeout 30 " + kHosts + " exec " +
                                 name_ + " 1 python3 -c \"" + ping + "\"");
  ASSERT_EQ(rtt.exit_code, 0) << rtt.output;
  const size_t at = rtt.output.find("rtt_ms ");
  ASSERT_NE(at, std::string::npos) << rtt.output;
  EXPECT_GE(std::stoi(rtt.output.substr(at + 7)), 60) << rtt.output;
  CommandResult result = RunJob(Program("sum.mlir", kTwoProcessSumProgram), "PLUGRT_ALLOW_INSECURE=1");
  for (int k = 0; k < 2; ++k) {
    const std::string host = "[host " + std::to_string(k) + "] ";
    EXPECT_NE(result.output.find(host + "array([ 3., 30.], dtype=float32)"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find(host + "exit=0"), std::string::npos) << result.output;
  }
}

// The numbers of the first "array([...])" after `after` in `output`.
std::vector<double> ArrayAfter(const std::string& output, const std::string& after) {
  std::vector<double> values;
  size_t at = output.find(after);
  if (at == std::string::npos) return values;
  at = output.find("array([", at);
  const size_t end = output.find(']', at);
  if (at == std::string::npos || end == std::string::npos) return values;
  std::istringstream in(output.substr(at + 7, end - at - 7));
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stod(item));
  return values;
}

// What mpirun --tag-output shows of `rank`'s standard output, tags removed.
std::string RankOutput(const std::string& output, int rank) {
  const std::string tag = "," + std::to_string(rank) + "]<stdout>:";
  std::string text;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find(tag);
    if (!line.empty() && line[0] == '[' && at != std::string::npos) {
      text += line.substr(at + tag.size()) + "\n";
    }
  }
  return text;
}

TEST_F(CliNetnsTest, DataParallelTrainingAcrossHostsUnderMpirunMatchesOneProcess) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  // 4 processes on 2 hosts, each training on its own block of 16 rows with
  // gradients summed across them; one process trains on all 4 blocks at once.
  const std::string generator = std::string(PLUGRT_TEST_SOURCE_DIR) + "/bench/gen_dp_mlp.py";
  const std::string sizes = " --steps 8 --batch 16 --hidden 32 --inputs 24 --lr 2 --loss-curve";
  const std::string dp = dir_ + "/dp4.mlir", one = dir_ + "/dp1.mlir";
  ASSERT_EQ(RunCommand("python3 " + generator + " --replicas 4" + sizes + " > " + dp).exit_code, 0);
  ASSERT_EQ(RunCommand("python3 " + generator + " --replicas 1 --data-blocks 4" + sizes + " > " +
                       one).exit_code,
            0);
  CommandResult reference = RunCli("run " + one);
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const std::vector<double> expected = ArrayAfter(reference.output, "output 0");
  ASSERT_EQ(expected.size(), 8u) << reference.output;
  EXPECT_LT(expected.back(), expected.front() - 0.02) << reference.output;  // it learns
  for (const char* backend : {"mpi", "gloo"}) {
    SCOPED_TRACE(backend);
    CommandResult job = RunCommand(
        "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE PLUGRT_NETNS_NAME=" + name_ +
        " PLUGRT_ALLOW_INSECURE=1 PLUGRT_LOG_LEVEL=info PLUGRT_COLLECTIVES=" + backend +
        " timeout 120 " + kHosts + " exec " + name_ + " 0 " + Mpirun() +
        "--host 198.18.0.1:2,198.18.0.2:2 --mca plm_rsh_agent '" + kHosts +
        " agent' -x PLUGRT_NETNS_NAME -x PLUGRT_ALLOW_INSECURE -x PLUGRT_LOG_LEVEL " +
        "-x PLUGRT_COLLECTIVES -n 4 " + PLUGRT_CLI_PATH + " run " + dp);
    ASSERT_EQ(job.exit_code, 0) << job.output;
    EXPECT_NE(job.output.find(std::string("node 3 of 4: collectives over ") + backend),
              std::string::npos)
        << job.output;
    for (int rank = 0; rank < 4; ++rank) {
      const std::vector<double> got = ArrayAfter(RankOutput(job.output, rank), "output 0");
      ASSERT_EQ(got.size(), expected.size()) << job.output;
      for (size_t step = 0; step < got.size(); ++step) {
        EXPECT_NEAR(got[step], expected[step], 1e-5 * std::abs(expected[step])) << step;
      }
    }
  }
}

TEST_F(CliNetnsTest, AHostCutOffMidJobIsNamedAndNoProcessHangs) {
  const std::string program = Program("long.mlir", kAllReduceLoopProgram);
  // Host 1 is cut off once the job has run its collectives for a while.
  CommandResult result = RunJob(
      program,
      "PLUGRT_ALLOW_INSECURE=1 PLUGRT_HEARTBEAT_INTERVAL_MS=200 PLUGRT_HEARTBEAT_TIMEOUT_MS=2000",
      "sleep 3; " + kHosts + " partition " + name_ + " 1");
  // Both end with an error (the outer timeout would say 124), node 0 naming
  // node 1 as lost and node 1 its lost store.
  EXPECT_NE(result.output.find("[host 0] exit=1"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("[host 1] exit=1"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("node 1 (host 198.18.0.2"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace plugrt::testing
