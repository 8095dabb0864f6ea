// Jobs started by the launchers clusters run: `mpirun` (Open MPI), a Slurm
// step's environment and torchrun-style variables set by hand. Each process
// of `plugrt run` finds its rank, its peers and node 0's key-value store with
// no plugrt variables, and a job that cannot form ends as an error naming why.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>

#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

// Two replicas, one per process: all_reduce sums [r+1, 10(r+1)] to [3, 30].
constexpr const char* kProgram = R"(
module @sum attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main() -> tensor<2xf32> {
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
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %sum : tensor<2xf32>
  }
}
)";

class CliClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = dir_ + "/sum.mlir";
    std::ofstream(program_) << kProgram;
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
      RunCommand("env -u PLUGRT_NODE_ID -u PLUGRT_NUM_NODES -u PLUGRT_KV_STORE timeout 120 "
                 "mpirun -n 2 --allow-run-as-root --oversubscribe --tag-output " +
                 std::string(PLUGRT_CLI_PATH) + " run " + program_);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  // --tag-output: "[JOB,RANK]<stdout>:".
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_NE(result.output.find("," + std::to_string(rank) +
                                 "]<stdout>:array([ 3., 30.], dtype=float32)"),
              std::string::npos)
        << result.output;
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
