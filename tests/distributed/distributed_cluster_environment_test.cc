// Where a process of a job stands, read from the variables real launchers
// set (Open MPI's mpirun, MPICH's Hydra, Slurm's srun, torchrun and
// Kubernetes jobs), with plugrt's own settings winning and partial or
// contradictory environments named. Environments are given as maps: no test
// depends on the variables of the process that runs it.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "distributed/cluster_environment.h"

namespace plugrt::distributed {
namespace {

using Env = std::map<std::string, std::string, std::less<>>;

EnvironmentLookup Lookup(const Env& env) {
  return [env](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

ClusterEnvironment Detect(const Env& env) {
  StatusOr<std::optional<ClusterEnvironment>> found = DetectCluster(Lookup(env));
  EXPECT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found.ok() && found->has_value()) << "no job detected";
  return found.ok() && found->has_value() ? **found : ClusterEnvironment{};
}

// The error's message, or "" when detection succeeded.
std::string DetectError(const Env& env) {
  StatusOr<std::optional<ClusterEnvironment>> found = DetectCluster(Lookup(env));
  if (found.ok()) return "";
  EXPECT_EQ(found.status().code(), StatusCode::kInvalidArgument);
  return std::string(found.status().message());
}

// What mpirun -n 2 set on one machine (Open MPI 4.1).
Env OpenMpi(int rank, int size, int local_size) {
  return {{"OMPI_COMM_WORLD_RANK", std::to_string(rank)},
          {"OMPI_COMM_WORLD_SIZE", std::to_string(size)},
          {"OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(rank % local_size)},
          {"OMPI_COMM_WORLD_LOCAL_SIZE", std::to_string(local_size)},
          {"OMPI_MCA_orte_hnp_uri", "995819520.0;tcp://10.1.2.3,192.0.2.2:52915;tcp6://[fd00::2]:37107"},
          {"PMIX_RANK", std::to_string(rank)}};
}

TEST(ClusterEnvironmentTest, APlainRunIsNoJob) {
  StatusOr<std::optional<ClusterEnvironment>> found = DetectCluster(Lookup({{"HOME", "/root"}}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_FALSE(found->has_value());
}

TEST(ClusterEnvironmentTest, OpenMpiOnOneHostServesTheStoreOnLoopback) {
  const ClusterEnvironment job = Detect(OpenMpi(1, 2, 2));
  EXPECT_EQ(job.launcher, "openmpi");
  EXPECT_EQ(job.node_id, 1);
  EXPECT_EQ(job.num_nodes, 2);
  EXPECT_EQ(job.local_rank, 1);
  EXPECT_EQ(job.local_size, 2);
  EXPECT_FALSE(job.multi_host);
  // Job ids are multiples of 4096: 995819520 / 4096 = 243120, % 4096 = 1456.
  EXPECT_EQ(job.coordinator, "127.0.0.1:" + std::to_string(kDerivedPortBase + 1456));
  EXPECT_EQ(job.coordinator_source, "OMPI_MCA_orte_hnp_uri");
}

TEST(ClusterEnvironmentTest, OpenMpiAcrossHostsUsesTheLaunchersAddress) {
  const ClusterEnvironment job = Detect(OpenMpi(3, 4, 2));
  EXPECT_TRUE(job.multi_host);
  EXPECT_EQ(job.local_rank, 1);
  EXPECT_EQ(job.coordinator, "10.1.2.3:" + std::to_string(kDerivedPortBase + 1456));
  // An IPv6-only launcher.
  Env env = OpenMpi(0, 4, 2);
  env["OMPI_MCA_orte_hnp_uri"] = "8192.0;tcp6://[fd00::7,fe80::1]:41000";
  EXPECT_EQ(Detect(env).coordinator, "[fd00::7]:" + std::to_string(kDerivedPortBase + 2));
  env["OMPI_MCA_orte_hnp_uri"] = "not-a-uri";
  EXPECT_NE(DetectError(env).find("OMPI_MCA_orte_hnp_uri"), std::string::npos);
}

TEST(ClusterEnvironmentTest, MpichOnOneHostAndAcrossHosts) {
  Env env = {{"PMI_RANK", "2"}, {"PMI_SIZE", "3"}, {"MPI_LOCALRANKID", "2"},
             {"MPI_LOCALNRANKS", "3"}, {"PMI_PORT", "localhost:40001"}};
  const ClusterEnvironment job = Detect(env);
  EXPECT_EQ(job.launcher, "mpich");
  EXPECT_EQ(job.node_id, 2);
  EXPECT_EQ(job.local_size, 3);
  EXPECT_EQ(job.coordinator.substr(0, 10), "127.0.0.1:");
  // Every process of the host derives the same port from the same proxy.
  env["PMI_RANK"] = "0";
  env["MPI_LOCALRANKID"] = "0";
  EXPECT_EQ(Detect(env).coordinator, job.coordinator);
  // Hydra names no first host: across hosts the user must.
  env["MPI_LOCALNRANKS"] = "1";
  const std::string error = DetectError(env);
  EXPECT_NE(error.find("PLUGRT_COORDINATOR"), std::string::npos) << error;
  env["PLUGRT_COORDINATOR"] = "head:7000";
  EXPECT_EQ(Detect(env).coordinator, "head:7000");
}

TEST(ClusterEnvironmentTest, SlurmStepsUseTheirFirstNode) {
  Env env = {{"SLURM_JOB_ID", "1234"},        {"SLURM_STEP_ID", "0"},
             {"SLURM_PROCID", "3"},           {"SLURM_NTASKS", "4"},
             {"SLURM_LOCALID", "1"},          {"SLURM_NODEID", "1"},
             {"SLURM_STEP_NODELIST", "gpu[007-008]"}, {"SLURM_STEP_NUM_NODES", "2"},
             {"SLURM_STEP_TASKS_PER_NODE", "2(x2)"}};
  const ClusterEnvironment job = Detect(env);
  EXPECT_EQ(job.launcher, "slurm");
  EXPECT_EQ(job.node_id, 3);
  EXPECT_EQ(job.num_nodes, 4);
  EXPECT_EQ(job.local_rank, 1);
  EXPECT_EQ(job.local_size, 2);
  EXPECT_TRUE(job.multi_host);
  EXPECT_EQ(job.coordinator.substr(0, 7), "gpu007:");
  const int port = std::stoi(job.coordinator.substr(7));
  EXPECT_GE(port, kDerivedPortBase);
  EXPECT_LE(port, 65535);
  // Another step of the job gets another port (usually); one node: loopback.
  env["SLURM_STEP_NUM_NODES"] = "1";
  env["SLURM_STEP_NODELIST"] = "gpu007";
  env["SLURM_NODEID"] = "0";
  const ClusterEnvironment one = Detect(env);
  EXPECT_FALSE(one.multi_host);
  EXPECT_EQ(one.local_size, 4);
  EXPECT_EQ(one.coordinator, "127.0.0.1:" + std::to_string(port));
}

TEST(ClusterEnvironmentTest, ABatchScriptIsNotATask) {
  // sbatch's script has SLURM_PROCID but no step variables: a plain run.
  StatusOr<std::optional<ClusterEnvironment>> found = DetectCluster(
      Lookup({{"SLURM_JOB_ID", "77"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_FALSE(found->has_value());
}

TEST(ClusterEnvironmentTest, TorchrunAndKubernetesJobs) {
  Env env = {{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "1"},
             {"LOCAL_WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "29500"}};
  ClusterEnvironment job = Detect(env);
  EXPECT_EQ(job.launcher, "torchrun");
  EXPECT_EQ(job.node_id, 1);
  EXPECT_EQ(job.coordinator, "127.0.0.1:29500");
  EXPECT_FALSE(job.multi_host);
  // A Kubernetes indexed job: no local variables, a service name.
  env = {{"RANK", "0"}, {"WORLD_SIZE", "4"}, {"MASTER_ADDR", "job-0.svc"}, {"MASTER_PORT", "1234"}};
  job = Detect(env);
  EXPECT_TRUE(job.multi_host);
  EXPECT_EQ(job.coordinator, "job-0.svc:1234");
  // torchrun's agent may hold MASTER_PORT: the port comes from the run id.
  env["TORCHELASTIC_RUN_ID"] = "run-5";
  job = Detect(env);
  EXPECT_EQ(job.coordinator.substr(0, 10), "job-0.svc:");
  EXPECT_GE(std::stoi(job.coordinator.substr(10)), kDerivedPortBase);
  env.erase("MASTER_PORT");
  EXPECT_NE(DetectError(env).find("MASTER_PORT"), std::string::npos);
}

TEST(ClusterEnvironmentTest, PartialEnvironmentsNameTheMissingVariable) {
  std::string error = DetectError({{"RANK", "0"}});
  EXPECT_NE(error.find("RANK is set but WORLD_SIZE is not"), std::string::npos) << error;
  error = DetectError({{"OMPI_COMM_WORLD_SIZE", "2"}});
  EXPECT_NE(error.find("OMPI_COMM_WORLD_SIZE is set but OMPI_COMM_WORLD_RANK is not"),
            std::string::npos)
      << error;
  error = DetectError({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "1"}});
  EXPECT_NE(error.find("SLURM_NTASKS"), std::string::npos) << error;
  error = DetectError({{"PLUGRT_NODE_ID", "1"}});
  EXPECT_NE(error.find("PLUGRT_NUM_NODES"), std::string::npos) << error;
  error = DetectError({{"PMI_RANK", "4"}, {"PMI_SIZE", "4"}});
  EXPECT_NE(error.find("PMI_RANK=4 must be below PMI_SIZE=4"), std::string::npos) << error;
  error = DetectError({{"RANK", "x"}, {"WORLD_SIZE", "2"}});
  EXPECT_NE(error.find("RANK='x'"), std::string::npos) << error;
  // A job of several processes with nowhere to meet.
  error = DetectError({{"PLUGRT_NODE_ID", "0"}, {"PLUGRT_NUM_NODES", "2"}});
  EXPECT_NE(error.find("PLUGRT_KV_STORE"), std::string::npos) << error;
}

TEST(ClusterEnvironmentTest, LaunchersThatDisagreeAreNamed) {
  Env env = OpenMpi(1, 2, 2);
  env["RANK"] = "0";
  env["WORLD_SIZE"] = "2";
  std::string error = DetectError(env);
  EXPECT_NE(error.find("OMPI_COMM_WORLD_RANK=1"), std::string::npos) << error;
  EXPECT_NE(error.find("RANK=0"), std::string::npos) << error;
  env = OpenMpi(1, 2, 2);
  env["PMI_RANK"] = "1";
  env["PMI_SIZE"] = "3";
  error = DetectError(env);
  EXPECT_NE(error.find("PMI_SIZE=3"), std::string::npos) << error;
  // mpirun inside an srun step of one task is not a disagreement.
  env = OpenMpi(1, 2, 2);
  env["SLURM_STEP_ID"] = "0";
  env["SLURM_PROCID"] = "0";
  env["SLURM_NTASKS"] = "1";
  EXPECT_EQ(Detect(env).launcher, "openmpi");
}

TEST(ClusterEnvironmentTest, ExplicitSettingsWin) {
  Env env = OpenMpi(0, 2, 2);
  env["PLUGRT_NODE_ID"] = "1";
  env["PLUGRT_NUM_NODES"] = "2";
  ClusterEnvironment job = Detect(env);
  EXPECT_EQ(job.node_id, 1);
  env["PLUGRT_KV_STORE"] = "redis://127.0.0.1:6379/job:";
  job = Detect(env);
  EXPECT_EQ(job.store, "redis://127.0.0.1:6379/job:");
  EXPECT_EQ(job.coordinator, "");
  env["PLUGRT_KV_STORE"] = "grpc://127.0.0.1:5000";
  job = Detect(env);
  EXPECT_EQ(job.store, "");
  EXPECT_EQ(job.coordinator, "127.0.0.1:5000");
  env.erase("PLUGRT_KV_STORE");
  env["PLUGRT_COORDINATOR"] = "127.0.0.1:6000";
  EXPECT_EQ(Detect(env).coordinator, "127.0.0.1:6000");
  env["PLUGRT_COORDINATOR"] = "no-port";
  EXPECT_NE(DetectError(env).find("PLUGRT_COORDINATOR='no-port' is not HOST:PORT"),
            std::string::npos);
}

TEST(ClusterEnvironmentTest, FirstSlurmHostOfAHostList) {
  EXPECT_EQ(*FirstSlurmHost("node001"), "node001");
  EXPECT_EQ(*FirstSlurmHost("node001,host2"), "node001");
  EXPECT_EQ(*FirstSlurmHost("node[001-0015],host2"), "node001");
  EXPECT_EQ(*FirstSlurmHost("node[9,007-015]"), "node9");
  EXPECT_EQ(*FirstSlurmHost("rack[2-3]-n[01-04]"), "rack2-n01");
  EXPECT_FALSE(FirstSlurmHost("node[1-2").ok());
  EXPECT_FALSE(FirstSlurmHost("node]").ok());
  EXPECT_FALSE(FirstSlurmHost("").ok());
}

}  // namespace
}  // namespace plugrt::distributed
