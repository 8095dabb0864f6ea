// Jobs started by the launchers clusters run: `mpirun` (Open MPI), a Slurm
// step's environment and torchrun-style variables set by hand. Each process
// of `plugrt run` finds its rank, its peers and node 0's key-value store with
// no plugrt variables, and a job that cannot form ends as an error naming why.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testutil/corpus.h"
#include "testutil/cross_process_programs.h"
#include "testutil/mpi_launch.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

class CliClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = dir_ + "/sum.mlir";
    std::ofstream(program_) << kTwoProcessSumProgram;
  }

  // Runs `plugrt run` as two processes, each with its own environment
  // prefix, and returns their outputs one after the other, "[task K] "
  // before each line.
  CommandResult RunPair(const std::string& env0, const std::string& env1) {
    const std::string run = std::string(PLUGRT_CLI_PATH) + " run " + program_;
    const std::string out0 = dir_ + "/t0.txt", out1 = dir_ + "/t1.txt";
    return RunCommand("(env -u RANK -u WORLD_SIZE " + env0 + " " + run + " > " + out0 +
                      " 2>&1; echo exit=$? >> " + out0 + ") & (env -u RANK -u WORLD_SIZE " +
                      env1 + " " + run + " > " + out1 + " 2>&1; echo exit=$? >> " + out1 +
                      ") & wait; sed 's/^/[task 0] /' " + out0 + "; sed 's/^/[task 1] /' " +
                      out1);
  }

  static void ExpectBothSummed(const CommandResult& result, const std::string& prefix) {
    for (int task = 0; task < 2; ++task) {
      const std::string p = prefix + std::to_string(task) + "] ";
      EXPECT_NE(result.output.find(p + "array([ 3., 30.], dtype=float32)"), std::string::npos)
          << result.output;
    }
  }

  const TempDir temp_dir_{"cli-cluster"};
  const std::string dir_ = temp_dir_.path();
  std::string program_;
};

TEST_F(CliClusterTest, MpirunStartsAJobWithNoPlugrtVariables) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  CommandResult result =
      RunCommand("env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE timeout 120 " +
                 Mpirun() + "-n 2 " + PLUGRT_CLI_PATH + " run " + program_);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  // --tag-output: "[JOB,RANK]<stdout>:".
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_NE(result.output.find("," + std::to_string(rank) +
                                 "]<stdout>:array([ 3., 30.], dtype=float32)"),
              std::string::npos)
        << result.output;
  }
}

// Every kind of cross-process all-reduce (f32 sum, f32 max with a NaN, s32
// sums that wrap, u8 products that wrap, f64 min) and an all-gather, over 4
// replicas on 2 processes of 2 devices each, on each backend, against one
// process holding all 4.
constexpr const char* kMixedProgram = R"(
module @mix attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main() -> (tensor<2xf32>, tensor<2xf32>, tensor<i32>, tensor<ui8>, tensor<f64>, tensor<4xf32>) {
    %r = stablehlo.replica_id : tensor<ui32>
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
    %two = stablehlo.constant dense<2> : tensor<ui32>
    %is2 = stablehlo.compare EQ, %r, %two : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %maybe = stablehlo.select %is2, %nan, %rf : tensor<i1>, tensor<f32>
    %rf1 = stablehlo.reshape %rf : (tensor<f32>) -> tensor<1xf32>
    %maybe1 = stablehlo.reshape %maybe : (tensor<f32>) -> tensor<1xf32>
    %pair = stablehlo.concatenate %rf1, %maybe1, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
    %max = "stablehlo.all_reduce"(%pair) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2xf32>) -> tensor<2xf32>
    %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>
    %onei = stablehlo.constant dense<1> : tensor<i32>
    %rip1 = stablehlo.add %ri, %onei : tensor<i32>
    %big = stablehlo.constant dense<1073741824> : tensor<i32>
    %xi = stablehlo.multiply %rip1, %big : tensor<i32>
    %isum = "stablehlo.all_reduce"(%xi) ({
      ^bb0(%p: tensor<i32>, %q: tensor<i32>):
        %s = stablehlo.add %p, %q : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<i32>) -> tensor<i32>
    %ru = stablehlo.convert %r : (tensor<ui32>) -> tensor<ui8>
    %seven = stablehlo.constant dense<7> : tensor<ui8>
    %xu = stablehlo.add %ru, %seven : tensor<ui8>
    %prod = "stablehlo.all_reduce"(%xu) ({
      ^bb0(%p: tensor<ui8>, %q: tensor<ui8>):
        %s = stablehlo.multiply %p, %q : tensor<ui8>
        stablehlo.return %s : tensor<ui8>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<ui8>) -> tensor<ui8>
    %rd = stablehlo.convert %r : (tensor<ui32>) -> tensor<f64>
    %nd = stablehlo.negate %rd : tensor<f64>
    %min = "stablehlo.all_reduce"(%nd) ({
      ^bb0(%p: tensor<f64>, %q: tensor<f64>):
        %s = stablehlo.minimum %p, %q : tensor<f64>
        stablehlo.return %s : tensor<f64>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<f64>) -> tensor<f64>
    %all = "stablehlo.all_gather"(%rf1) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<1xf32>) -> tensor<4xf32>
    return %sum, %max, %isum, %prod, %min, %all : tensor<2xf32>, tensor<2xf32>, tensor<i32>, tensor<ui8>, tensor<f64>, tensor<4xf32>
  }
}
)";

// The lines holding arrays, in order; with `tag`, only those mpirun tagged
// so ("[JOB,RANK]<stdout>:" ending in `tag`), the tag removed.
std::vector<std::string> ArrayLines(const std::string& output, const std::string& tag = "") {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!tag.empty()) {
      const size_t at = line.find(tag);
      if (at == std::string::npos || line[0] != '[') continue;
      line = line.substr(at + tag.size());
    }
    if (line.rfind("array(", 0) == 0) lines.push_back(line);
  }
  return lines;
}

TEST_F(CliClusterTest, EveryReductionOnBothBackendsMatchesOneProcess) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  const std::string program = dir_ + "/mix.mlir";
  std::ofstream(program) << kMixedProgram;
  CommandResult reference = RunCli("run --devices 4 " + program);
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  std::vector<std::string> expected = ArrayLines(reference.output);
  ASSERT_EQ(expected.size(), 24u) << reference.output;
  expected.resize(6);  // every device's outputs are the same
  EXPECT_EQ(expected[1], "array([ 3., nan], dtype=float32)");  // NaN wins the max
  EXPECT_EQ(expected[2], "array(-2147483648, dtype=int32)");  // 10 * 2^30 wraps
  EXPECT_EQ(expected[3], "array(176, dtype=uint8)");           // 7*8*9*10 mod 256
  // Each backend alone, then shared memory (the default on one host: the
  // all-reduces and the all_gather) under each.
  for (const auto& [backend, shared_memory] : std::vector<std::pair<std::string, int>>{
           {"gloo", 0}, {"mpi", 0}, {"mpi", 1}, {"gloo", 1}}) {
    SCOPED_TRACE(backend + (shared_memory ? " + shared memory" : ""));
    CommandResult result = RunCommand(
        "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE PLUGRT_LOG_LEVEL=info "
        "PLUGRT_COLLECTIVES=" + backend + " PLUGRT_SHARED_MEMORY_COLLECTIVES=" +
        std::to_string(shared_memory) + " timeout 120 " + Mpirun() +
        "-n 2 -x PLUGRT_COLLECTIVES -x PLUGRT_SHARED_MEMORY_COLLECTIVES -x PLUGRT_LOG_LEVEL " +
        PLUGRT_CLI_PATH + " run --devices 2 " + program);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("collectives over " + backend), std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("collectives of processes on this host through shared memory") !=
                  std::string::npos,
              shared_memory == 1)
        << result.output;
    for (int rank = 0; rank < 2; ++rank) {
      std::vector<std::string> got =
          ArrayLines(result.output, "," + std::to_string(rank) + "]<stdout>:");
      ASSERT_EQ(got.size(), 12u) << result.output;
      for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i % 6]) << i;
    }
  }
}

TEST_F(CliClusterTest, MpirunRunsTheConformanceGridsAsItsProcesses) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  // Two processes run every grid section of two members (send_recv's host
  // transfers cross processes; its grid of four is left out) and node 0
  // reports once.
  const std::string interpret = (testutil::CorpusDir() / "interpret").string() + "/";
  CommandResult result = RunCommand(
      "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE timeout 300 " + Mpirun() +
      "-n 2 " + PLUGRT_CLI_PATH + " conformance --processes " + interpret + "send_recv.mlir " +
      interpret + "all_reduce.mlir " + interpret + "all_to_all.mlir");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("sections: 10 passed, 0 failed"), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("sections:"), result.output.rfind("sections:")) << result.output;
  // Without --processes a launcher's job is refused, naming the flag.
  CommandResult plain = RunCommand(
      "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE timeout 120 " + Mpirun() +
      "-n 2 " + PLUGRT_CLI_PATH + " conformance " + interpret + "send_recv.mlir");
  EXPECT_NE(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("runs with --processes only"), std::string::npos) << plain.output;
}

TEST_F(CliClusterTest, MpiCollectivesOutsideAnMpiJobAreRefused) {
  CommandResult result = RunCommand(MpiEnv() + "PLUGRT_COLLECTIVES=mpi " + PLUGRT_CLI_PATH +
                                    " launch -n 2 -- plugrt run " + program_);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("collectives=mpi: MPI's world (rank 0 of 1) is not this job"),
            std::string::npos)
      << result.output;
}

TEST_F(CliClusterTest, ARankThatDiesEndsTheMpiJob) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  // Rank 1 exits before joining: rank 0 waits for it, and mpirun ends the
  // job instead of leaving rank 0 waiting (the outer timeout would say 124).
  CommandResult result = RunCommand(
      "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE timeout 60 " + Mpirun() +
      "-n 1 " + PLUGRT_CLI_PATH + " run " + program_ + " : -n 1 sh -c 'exit 3'");
  EXPECT_NE(result.exit_code, 0) << result.output;
  EXPECT_NE(result.exit_code, 124) << result.output;
}

// Rank 1 stopped (SIGSTOP) or killed in the middle of a loop of
// collectives, on MPI's own all-reduce and on shared memory: rank 0 names it
// within the heartbeat timeout (1.5 s here), skips MPI_Finalize (whose fence
// would wait for rank 1 forever) and the job ends; never a hang (the outer
// timeout would say 124).
TEST_F(CliClusterTest, ARankStoppedOrKilledMidCollectiveIsNamedAndTheJobEnds) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  struct Case {
    const char* signal;
    int shared_memory;
  };
  int index = 0;
  for (const Case& c : {Case{"STOP", 0}, Case{"STOP", 1}, Case{"KILL", 1}}) {
    SCOPED_TRACE(std::string(c.signal) + (c.shared_memory ? " on shared memory" : " on MPI"));
    // A program file of each case's own: no process of an earlier case can
    // be taken for this one's rank 1.
    const std::string program = dir_ + "/loop" + std::to_string(index++) + ".mlir";
    std::ofstream(program) << kAllReduceLoopProgram;
    const std::string out = program + ".out";
    const std::string job =
        "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE PLUGRT_LOG_LEVEL=info "
        "PLUGRT_SHARED_MEMORY_COLLECTIVES=" + std::to_string(c.shared_memory) +
        " PLUGRT_HEARTBEAT_INTERVAL_MS=200 PLUGRT_HEARTBEAT_TIMEOUT_MS=1500 timeout 90 " +
        Mpirun() + "-n 2 -x PLUGRT_LOG_LEVEL -x PLUGRT_SHARED_MEMORY_COLLECTIVES "
        "-x PLUGRT_HEARTBEAT_INTERVAL_MS -x PLUGRT_HEARTBEAT_TIMEOUT_MS " + PLUGRT_CLI_PATH +
        " run " + program + " > " + out + " 2>&1";
    // Rank 1 is the process whose environment says so. It is signalled a
    // second after it said it joined (MPI is up, the heartbeat beats), by
    // then in the loop: a rank stopped inside MPI_Init would hold the others
    // in MPI_Init's own fence, which nothing can interrupt.
    const std::string rank1 =
        "rank1() { for p in $(pgrep -f ' run " + program + "'); do "
        "tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && "
        "echo $p; done; }; ";
    CommandResult result = RunCommand(
        rank1 + "(" + job + ") & job=$!; for i in $(seq 600); do "
        "grep -q 'node 1 of 2: collectives over' " + out + " && break; sleep 0.1; done; "
        "sleep 1; kill -" + c.signal + " $(rank1); wait $job; echo exit=$?; cat " + out +
        "; pkill -KILL -f ' run " + program + "'");
    EXPECT_EQ(result.output.find("exit=0"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("exit=124"), std::string::npos) << result.output;
    if (std::string(c.signal) == "STOP") {
      EXPECT_NE(result.output.find("node 1 (host "), std::string::npos) << result.output;
      EXPECT_NE(result.output.find("stopped answering"), std::string::npos) << result.output;
    }
  }
}

// MPI_Init ends with a fence over the whole world, which nothing can
// interrupt. Rank 1 here forms the job through the store but is told to use
// Gloo, so it never starts MPI; rank 0 (MPI, as the launcher is MPI's) waits
// in MPI_Init. Then rank 1 is stopped: rank 0 must name it within the
// heartbeat timeout and end, leaving MPI_Init behind; and with rank 1 alive
// but never starting MPI, rank 0 gives up after distributed_timeout_ms.
TEST_F(CliClusterTest, ARankThatNeverStartsMpiIsNamedNotWaitedForForever) {
  if (RunCommand("command -v mpirun").exit_code != 0) GTEST_SKIP() << "mpirun is not installed";
  for (const bool stop : {true, false}) {
    SCOPED_TRACE(stop ? "rank 1 stopped" : "rank 1 alive");
    const std::string program = dir_ + (stop ? "/init_stopped.mlir" : "/init_alive.mlir");
    std::ofstream(program) << kAllReduceLoopProgram;
    const std::string out = program + ".out";
    const std::string job =
        "env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE PLUGRT_LOG_LEVEL=info "
        "PLUGRT_HEARTBEAT_INTERVAL_MS=200 PLUGRT_HEARTBEAT_TIMEOUT_MS=1500 "
        "PLUGRT_DISTRIBUTED_TIMEOUT_MS=" + std::string(stop ? "60000" : "4000") +
        " timeout 90 " + Mpirun() +
        "-x PLUGRT_LOG_LEVEL -x PLUGRT_HEARTBEAT_INTERVAL_MS -x PLUGRT_HEARTBEAT_TIMEOUT_MS "
        "-x PLUGRT_DISTRIBUTED_TIMEOUT_MS -n 1 " + PLUGRT_CLI_PATH + " run " + program +
        // Rank 1 waits longer than rank 0, which must be the one to give up.
        " : -n 1 env PLUGRT_COLLECTIVES=gloo PLUGRT_DISTRIBUTED_TIMEOUT_MS=60000 " +
        PLUGRT_CLI_PATH + " run " + program + " > " +
        out + " 2>&1";
    const std::string rank1 =
        "rank1() { for p in $(pgrep -f ' run " + program + "'); do "
        "tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && "
        "echo $p; done; }; ";
    CommandResult result = RunCommand(
        rank1 + "(" + job + ") & job=$!; " +
        (stop ? "for i in $(seq 600); do grep -q 'node 0 of 2: starting MPI' " + out +
                    " && break; sleep 0.1; done; sleep 0.5; kill -STOP $(rank1); "
              : std::string()) +
        "wait $job; echo exit=$?; cat " + out + "; pkill -KILL -f ' run " + program + "'");
    EXPECT_EQ(result.output.find("exit=0"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("exit=124"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("starting MPI (MPI_Init_thread, node 0 of 2) abandoned"),
              std::string::npos)
        << result.output;
    if (stop) {
      EXPECT_NE(result.output.find("node 1 (host "), std::string::npos) << result.output;
      EXPECT_NE(result.output.find("stopped answering"), std::string::npos) << result.output;
    } else {
      EXPECT_NE(result.output.find("no result within 4000 ms"), std::string::npos)
          << result.output;
    }
  }
}

TEST_F(CliClusterTest, ASlurmStepsEnvironmentSetByHand) {
  // A job id of this test's own, so concurrent runs derive different ports.
  const std::string common = "SLURM_JOB_ID=" + std::to_string(::getpid()) +
                             " SLURM_STEP_ID=0 SLURM_NTASKS=2 SLURM_STEP_NODELIST=node[01-02] "
                             "SLURM_STEP_NUM_NODES=1";
  CommandResult result = RunPair(common + " SLURM_PROCID=0 SLURM_LOCALID=0",
                                 common + " SLURM_PROCID=1 SLURM_LOCALID=1");
  ExpectBothSummed(result, "[task ");
  EXPECT_NE(result.output.find("[task 0] exit=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("[task 1] exit=0"), std::string::npos) << result.output;
}

TEST_F(CliClusterTest, TorchrunStyleVariables) {
  // A port the kernel just handed out and took back.
  CommandResult port = RunCommand(
      "/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); "
      "print(s.getsockname()[1])'");
  ASSERT_EQ(port.exit_code, 0) << port.output;
  const std::string common =
      "WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port.output.substr(0, port.output.find('\n'));
  ExpectBothSummed(RunPair(common + " RANK=0", common + " RANK=1"), "[task ");
}

TEST_F(CliClusterTest, APartialEnvironmentNamesWhatIsMissing) {
  CommandResult result = RunCommand("env -u WORLD_SIZE SLURM_STEP_ID=0 SLURM_PROCID=1 " +
                                    std::string(PLUGRT_CLI_PATH) + " run " + program_);
  EXPECT_TRUE(FailedWith(result, 1, "SLURM_PROCID is set but SLURM_NTASKS is not"))
      << result.output;
  result = RunCommand("env -u WORLD_SIZE OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 "
                      "RANK=1 WORLD_SIZE=2 " + std::string(PLUGRT_CLI_PATH) + " run " + program_);
  EXPECT_TRUE(FailedWith(result, 1, "describes two different jobs")) << result.output;
}

TEST_F(CliClusterTest, ATaskWhosePeerNeverComesFailsWithinTheTimeout) {
  // Only task 0 of 2 starts: the job cannot form, and it says so.
  CommandResult result = RunCommand(
      "timeout 60 env PLUGRT_DISTRIBUTED_TIMEOUT_MS=1500 SLURM_JOB_ID=" +
      std::to_string(::getpid() + 1) +
      " SLURM_STEP_ID=0 SLURM_NTASKS=2 SLURM_STEP_NODELIST=n1 SLURM_STEP_NUM_NODES=1 "
      "SLURM_PROCID=0 " + std::string(PLUGRT_CLI_PATH) + " run " + program_);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("node(s) [1] did not answer"), std::string::npos)
      << result.output;
}

}  // namespace
}  // namespace plugrt::testing
