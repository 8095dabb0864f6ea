// The eager context over a cluster (eager/cluster_spec.h, eager/cluster.h):
// two `plugrt serve` workers on loopback ports, reached through the remote
// plugin. Remote devices are listed by task name; ops placed there equal
// local ones; copies between the local client and the tasks, and between
// tasks, keep the values; reset releases the old tasks and update keeps
// the untouched ones (connecting again those whose worker stopped answering); the tape records remote ops; heartbeats keep an idle
// task alive, and a killed worker, or one stalled past the keep-alive period,
// is reported with its address; bad specs
// and names are clear errors; the C API sets a cluster too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "autodiff/tape.h"
#include "autodiff/tensor_math.h"
#include "eager/context.h"
#include "plugrt/eager_c_api.h"
#include "remote/worker_server.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"
#include "testutil/remote_worker.h"

namespace plugrt::eager {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::unique_ptr<Context> MakeContext(ContextOptions options = {}) {
  return testing::MakeEagerContext(std::move(options), /*cpu_device_count=*/1);
}

RemoteOptions Remote(int64_t keep_alive_secs = 30) {
  RemoteOptions options;
  options.plugin = PLUGRT_REMOTE_PLUGIN_PATH;
  options.token_file = plugrt::testing::RemoteTokenFile();
  options.keep_alive_secs = keep_alive_secs;
  return options;
}

ClusterSpec Spec(const std::string& text) {
  auto spec = ParseClusterSpec(text);
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
  return spec.ok() ? *spec : ClusterSpec();
}

Tensor F32(Context& ctx, std::vector<float> values, std::optional<std::string> device) {
  const int64_t n = static_cast<int64_t>(values.size());
  auto t = ctx.FromVector<float>(values, {n}, std::move(device));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

std::vector<float> Values(const Tensor& t) {
  auto v = t.ToVector<float>();
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : std::vector<float>();
}

Tensor Must(StatusOr<Tensor> t) {
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

StatusOr<Tensor> Binary(Context& ctx, const std::string& name, const Tensor& a, const Tensor& b,
                        std::optional<std::string> device = std::nullopt) {
  Op op(ctx, name);
  PLUGRT_RETURN_IF_ERROR(op.AddInput(a));
  PLUGRT_RETURN_IF_ERROR(op.AddInput(b));
  if (device) op.SetDevice(*device);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, op.Execute());
  return outputs.at(0);
}

std::vector<std::string> Names(const Context& ctx) {
  std::vector<std::string> names;
  for (const NamedDevice& d : ctx.devices()) names.push_back(d.name);
  return names;
}

constexpr const char* kTask0 = "/job:worker/task:0/device:cpu:0";
constexpr const char* kTask0Second = "/job:worker/task:0/device:cpu:1";
constexpr const char* kTask1 = "/job:worker/task:1/device:cpu:0";

// Two workers of two devices each, shared by the tests that do not stop
// them (each context opens contexts of its own on them).
class EagerClusterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    first_ = new plugrt::testing::RemoteWorker(2);
    second_ = new plugrt::testing::RemoteWorker(2);
  }
  static void TearDownTestSuite() {
    delete first_;
    delete second_;
  }
  void SetUp() override {
    ASSERT_TRUE(first_->ok() && second_->ok()) << "the workers did not start";
    ctx_ = MakeContext();
    ASSERT_NE(ctx_, nullptr);
  }
  static std::string TwoTasks() {
    return "worker=" + first_->address() + "," + second_->address();
  }

  static plugrt::testing::RemoteWorker* first_;
  static plugrt::testing::RemoteWorker* second_;
  std::unique_ptr<Context> ctx_;
};

plugrt::testing::RemoteWorker* EagerClusterTest::first_ = nullptr;
plugrt::testing::RemoteWorker* EagerClusterTest::second_ = nullptr;

TEST_F(EagerClusterTest, RemoteDevicesAreListedByTask) {
  EXPECT_THAT(Names(*ctx_), ElementsAre("cpu:0"));
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  EXPECT_THAT(Names(*ctx_), ElementsAre("cpu:0", kTask0, kTask0Second, kTask1,
                                        "/job:worker/task:1/device:cpu:1"));
  EXPECT_EQ(ctx_->default_device().name, "cpu:0");
  EXPECT_EQ(ctx_->cluster_spec().ToString(), TwoTasks());
  // TensorFlow's spellings find the same devices.
  auto tf_style = ctx_->FindDevice("/job:worker/replica:0/task:1/device:CPU:0");
  ASSERT_TRUE(tf_style.ok()) << tf_style.status().ToString();
  EXPECT_EQ(tf_style->name, kTask1);
  auto local = ctx_->FindDevice("/job:localhost/replica:0/task:0/device:CPU:0");
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  EXPECT_EQ(local->name, "cpu:0");
  // A remote default device: tensors are made there.
  ASSERT_TRUE(ctx_->SetDefaultDevice(kTask1).ok());
  Tensor t = F32(*ctx_, {1, 2}, std::nullopt);
  EXPECT_EQ(t.device_name(), kTask1);
  EXPECT_THAT(Values(t), ElementsAre(1, 2));
}

TEST_F(EagerClusterTest, OpsOnRemoteDevicesEqualLocalOnes) {
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  const std::vector<float> a = {1.5f, -2, 3, 40}, b = {0.25f, 8, -3, 2};
  for (const char* device : {kTask0Second, kTask1}) {
    Tensor x = F32(*ctx_, a, device), y = F32(*ctx_, b, device);
    EXPECT_EQ(x.device_name(), device);
    Tensor sum = Must(Binary(*ctx_, "stablehlo.add", x, y));
    Tensor product = Must(Binary(*ctx_, "stablehlo.multiply", sum, x));
    EXPECT_EQ(product.device_name(), device);  // placed by its inputs
    Tensor lx = F32(*ctx_, a, "cpu:0"), ly = F32(*ctx_, b, "cpu:0");
    Tensor local = Must(Binary(*ctx_, "stablehlo.multiply",
                               Must(Binary(*ctx_, "stablehlo.add", lx, ly)), lx));
    EXPECT_EQ(Values(product), Values(local));
    EXPECT_THAT(Values(product), ElementsAre(2.625f, -12, 0, 1680));
  }
  // Local inputs, an op asked for on a remote device: copied there.
  Tensor lx = F32(*ctx_, a, "cpu:0");
  Tensor there = Must(Binary(*ctx_, "stablehlo.subtract", lx, lx, std::string(kTask0)));
  EXPECT_EQ(there.device_name(), kTask0);
  EXPECT_THAT(Values(there), ElementsAre(0, 0, 0, 0));
}

TEST_F(EagerClusterTest, CopiesBetweenLocalAndRemoteDevicesAndBetweenTasks) {
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  const std::vector<float> v = {3, 1, 4, 1, 5};
  Tensor local = F32(*ctx_, v, "cpu:0");
  Tensor on0 = Must(ctx_->CopyToDevice(local, kTask0));  // local -> remote
  EXPECT_EQ(on0.device_name(), kTask0);
  Tensor on0b = Must(ctx_->CopyToDevice(on0, kTask0Second));  // within a task
  EXPECT_EQ(on0b.device_name(), kTask0Second);
  Tensor on1 = Must(ctx_->CopyToDevice(on0b, kTask1));  // task 0 -> task 1
  EXPECT_EQ(on1.device_name(), kTask1);
  Tensor back = Must(ctx_->CopyToDevice(on1, "cpu:0"));  // remote -> local
  EXPECT_EQ(back.device_name(), "cpu:0");
  for (const Tensor& t : {on0, on0b, on1, back}) EXPECT_EQ(Values(t), v);
  // An op whose inputs are on both tasks and the local device runs where
  // its first input is; the others are copied there.
  Tensor mixed = Must(Binary(*ctx_, "stablehlo.add", on1, on0));
  EXPECT_EQ(mixed.device_name(), kTask1);
  EXPECT_THAT(Values(mixed), ElementsAre(6, 2, 8, 2, 10));
  // The refuse policy names both devices.
  ctx_->set_placement_policy(PlacementPolicy::kRefuse);
  auto refused = Binary(*ctx_, "stablehlo.add", on1, local);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr(kTask1));
  EXPECT_THAT(refused.status().message(), HasSubstr("cpu:0"));
}

TEST_F(EagerClusterTest, ResetReleasesTheOldTasksAndUpdateKeepsTheUntouchedOnes) {
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  Tensor on0 = F32(*ctx_, {1, 2, 3}, kTask0);
  Tensor on1 = F32(*ctx_, {4, 5, 6}, kTask1);
  Tensor local = F32(*ctx_, {7, 8, 9}, "cpu:0");

  // Update without task 1: task 0 and its tensors stay.
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec("worker=" + first_->address()), ClusterUpdate::kUpdate,
                                   Remote())
                  .ok());
  EXPECT_THAT(Names(*ctx_), ElementsAre("cpu:0", kTask0, kTask0Second));
  EXPECT_THAT(Values(on0), ElementsAre(1, 2, 3));
  EXPECT_THAT(Values(Must(Binary(*ctx_, "stablehlo.add", on0, on0))), ElementsAre(2, 4, 6));
  auto gone = on1.ToVector<float>();
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(gone.status().message(), HasSubstr("/job:worker/task:1"));
  EXPECT_THAT(gone.status().message(), HasSubstr(second_->address()));
  EXPECT_THAT(gone.status().message(), HasSubstr("update"));
  auto as_input = Binary(*ctx_, "stablehlo.add", on1, on1, std::string("cpu:0"));
  ASSERT_FALSE(as_input.ok());
  EXPECT_THAT(as_input.status().message(), HasSubstr("/job:worker/task:1"));
  auto device_gone = ctx_->FindDevice(kTask1);
  EXPECT_EQ(device_gone.status().code(), StatusCode::kNotFound);

  // Task 1 comes back as a new client; task 0 is still the same.
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kUpdate, Remote()).ok());
  EXPECT_THAT(Values(on0), ElementsAre(1, 2, 3));
  EXPECT_FALSE(on1.ToVector<float>().ok());  // a released tensor stays released
  Tensor again = F32(*ctx_, {1, 1, 1}, kTask1);
  EXPECT_THAT(Values(Must(Binary(*ctx_, "stablehlo.add", again, on0))), ElementsAre(2, 3, 4));

  // Reset: every remote tensor of before is released; local ones stay.
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  for (const Tensor& t : {on0, again}) {
    auto released = t.ToVector<float>();
    ASSERT_FALSE(released.ok());
    EXPECT_THAT(released.status().message(), HasSubstr("reset"));
  }
  EXPECT_THAT(Values(local), ElementsAre(7, 8, 9));
  EXPECT_THAT(Values(F32(*ctx_, {5}, kTask0)), ElementsAre(5));
  // The program cache kept no program of a released client.
  EXPECT_THAT(Values(Must(Binary(*ctx_, "stablehlo.add", F32(*ctx_, {1, 2, 3}, kTask0),
                                 F32(*ctx_, {1, 2, 3}, kTask0)))),
              ElementsAre(2, 4, 6));

  // An empty spec removes every task.
  ASSERT_TRUE(ctx_->SetClusterSpec(ClusterSpec(), ClusterUpdate::kReset, Remote()).ok());
  EXPECT_THAT(Names(*ctx_), ElementsAre("cpu:0"));
}

TEST_F(EagerClusterTest, TheTapeRecordsRemoteOps) {
  ASSERT_TRUE(ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, Remote()).ok());
  autodiff::TensorMath m(*ctx_);
  // y = x*x*x + 2x on a remote task and locally: dy/dx = 3x^2 + 2.
  auto gradient = [&](const std::string& device, std::string* y_device) {
    Tensor x = F32(*ctx_, {1, -2, 3}, device);
    autodiff::Tape tape(*ctx_);
    tape.Watch(x);
    Tensor y = Must(m.Add(Must(m.Mul(Must(m.Mul(x, x)), x)), Must(m.Scale(x, 2))));
    *y_device = y.device_name();
    EXPECT_GE(tape.num_recorded(), 4);
    auto g = tape.Gradient({y}, {x});
    EXPECT_TRUE(g.ok()) << g.status().ToString();
    return g.ok() ? Values((*g)[0]) : std::vector<float>();
  };
  std::string remote_y, local_y;
  std::vector<float> remote = gradient(kTask1, &remote_y);
  std::vector<float> local = gradient("cpu:0", &local_y);
  EXPECT_EQ(remote_y, kTask1);
  EXPECT_EQ(local_y, "cpu:0");
  EXPECT_THAT(remote, ElementsAre(5, 14, 29));
  EXPECT_EQ(remote, local);
}

TEST_F(EagerClusterTest, BadSpecsAndNamesAreClearErrors) {
  auto bad_address = ParseClusterSpec("worker=nonsense");
  ASSERT_FALSE(bad_address.ok());
  EXPECT_EQ(bad_address.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_address.status().message(), HasSubstr("'nonsense'"));
  EXPECT_THAT(ParseClusterSpec("worker=a:1;worker=b:2").status().message(),
              HasSubstr("listed twice"));
  EXPECT_THAT(ParseClusterSpec("worker=a:1,a:1").status().message(),
              HasSubstr("same address"));
  EXPECT_THAT(ParseClusterSpec("localhost=a:1").status().message(), HasSubstr("localhost"));
  EXPECT_THAT(ParseClusterSpec("worker=a:70000").status().message(), HasSubstr("1-65535"));
  ClusterSpec twice;
  ASSERT_TRUE(twice.AddTask("worker", 0, "a:1").ok());
  Status duplicate = twice.AddTask("worker", 0, "b:2");
  EXPECT_EQ(duplicate.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(duplicate.message(), HasSubstr("/job:worker/task:0 is given twice"));

  ASSERT_TRUE(ctx_->SetClusterSpec(Spec("worker=" + first_->address()), ClusterUpdate::kReset,
                                   Remote())
                  .ok());
  // A task nobody serves: the error names it; the cluster is unchanged.
  Status unreachable = ctx_->SetClusterSpec(Spec(TwoTasks() + ";ps=127.0.0.1:1"),
                                            ClusterUpdate::kUpdate, Remote());
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(unreachable.code(), StatusCode::kUnavailable);
  EXPECT_THAT(unreachable.message(), HasSubstr("/job:ps/task:0 at 127.0.0.1:1"));
  EXPECT_THAT(Names(*ctx_), ElementsAre("cpu:0", kTask0, kTask0Second));
  // The wrong token.
  RemoteOptions wrong = Remote();
  wrong.token_file = plugrt::testing::WriteRemoteTestFile("wrong_token", "not-the-token");
  Status refused = ctx_->SetClusterSpec(Spec(TwoTasks()), ClusterUpdate::kReset, wrong);
  EXPECT_EQ(refused.code(), StatusCode::kUnauthenticated);
  EXPECT_THAT(Names(*ctx_), Contains(kTask0));

  // Names of jobs and tasks the cluster lacks, and malformed ones.
  auto unknown_job = ctx_->FindDevice("/job:ps/task:0/device:cpu:0");
  EXPECT_EQ(unknown_job.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(unknown_job.status().message(), HasSubstr("no job 'ps'"));
  EXPECT_THAT(unknown_job.status().message(), HasSubstr("worker (task 0)"));
  auto unknown_task = ctx_->FindDevice("/job:worker/task:7/device:cpu:0");
  EXPECT_THAT(unknown_task.status().message(), HasSubstr("no task 7"));
  auto unknown_device = ctx_->FindDevice("/job:worker/task:0/device:cpu:9");
  EXPECT_EQ(unknown_device.status().code(), StatusCode::kNotFound);
  auto malformed = ctx_->FindDevice("/job:worker/device:cpu:0");
  EXPECT_EQ(malformed.status().code(), StatusCode::kInvalidArgument);
  auto op = Binary(*ctx_, "stablehlo.add", F32(*ctx_, {1}, "cpu:0"), F32(*ctx_, {1}, "cpu:0"),
                   std::string("/job:ps/task:0/device:cpu:0"));
  ASSERT_FALSE(op.ok());
  EXPECT_THAT(op.status().message(), HasSubstr("no job 'ps'"));
}

TEST_F(EagerClusterTest, TheCApiSetsACluster) {
  PLUGRT_EagerStatus* status = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContextOptions options = {};
  options.struct_size = PLUGRT_EagerContextOptions_STRUCT_SIZE;
  options.plugin_path = plugrt::testing::CpuPluginPath();
  PLUGRT_EagerContext* ctx = PLUGRT_EagerNewContext(&options, status);
  ASSERT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_OK) << PLUGRT_EagerMessage(status);
  const int local = PLUGRT_EagerContextNumDevices(ctx);
  const std::string token = plugrt::testing::RemoteTokenFile();
  PLUGRT_EagerRemoteOptions remote = {};
  remote.struct_size = PLUGRT_EagerRemoteOptions_STRUCT_SIZE;
  remote.plugin = PLUGRT_REMOTE_PLUGIN_PATH;
  remote.token_file = token.c_str();
  PLUGRT_EagerContextSetClusterSpec(ctx, TwoTasks().c_str(), PLUGRT_EAGER_CLUSTER_RESET, &remote,
                                    status);
  ASSERT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_OK) << PLUGRT_EagerMessage(status);
  EXPECT_EQ(PLUGRT_EagerContextNumDevices(ctx), local + 4);
  EXPECT_STREQ(PLUGRT_EagerContextDeviceName(ctx, local + 2), kTask1);
  float value = 2.5f;
  int64_t dim = 1;
  PLUGRT_EagerTensorHandle* h =
      PLUGRT_EagerNewTensorHandle(ctx, &value, PJRT_Buffer_Type_F32, &dim, 1, kTask1, status);
  ASSERT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_OK) << PLUGRT_EagerMessage(status);
  EXPECT_STREQ(PLUGRT_EagerTensorHandleDeviceName(h), kTask1);
  // A bad spec and a bad mode are errors; the cluster stays.
  PLUGRT_EagerContextSetClusterSpec(ctx, "worker=nonsense", PLUGRT_EAGER_CLUSTER_UPDATE, &remote,
                                    status);
  EXPECT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerContextSetClusterSpec(ctx, "", static_cast<PLUGRT_EagerClusterUpdate>(7), &remote,
                                    status);
  EXPECT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_INVALID_ARGUMENT);
  EXPECT_EQ(PLUGRT_EagerContextNumDevices(ctx), local + 4);
  // Update to no tasks: the handle's task is released.
  PLUGRT_EagerContextSetClusterSpec(ctx, "", PLUGRT_EAGER_CLUSTER_UPDATE, nullptr, status);
  ASSERT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_OK) << PLUGRT_EagerMessage(status);
  EXPECT_EQ(PLUGRT_EagerContextNumDevices(ctx), local);
  float back = 0;
  PLUGRT_EagerTensorHandleToHost(h, &back, sizeof(back), status);
  EXPECT_EQ(PLUGRT_EagerGetCode(status), PLUGRT_EAGER_FAILED_PRECONDITION);
  EXPECT_THAT(PLUGRT_EagerMessage(status), HasSubstr("/job:worker/task:1"));
  PLUGRT_EagerDeleteTensorHandle(h);
  PLUGRT_EagerDeleteContext(ctx);
  PLUGRT_EagerDeleteStatus(status);
}

// A worker in this process, whose contexts the test counts: a released task's
// worker context closes at once, though its tensors still hold buffers.
TEST(EagerClusterReleaseTest, ReleasedTasksCloseTheirWorkerContexts) {
  auto cpu = plugrt::testing::CreateCpuClient(1);
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
  remote::WorkerOptions worker_options;
  worker_options.token = plugrt::testing::kRemoteToken;
  auto server = remote::WorkerServer::Start(std::move(cpu).value(), worker_options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::string spec = "worker=127.0.0.1:" + std::to_string((*server)->port());
  auto ctx = MakeContext();
  ASSERT_NE(ctx, nullptr);
  ASSERT_TRUE(ctx->SetClusterSpec(Spec(spec), ClusterUpdate::kReset, Remote()).ok());
  Tensor old = F32(*ctx, {1, 2}, kTask0);
  Tensor sum = Must(Binary(*ctx, "stablehlo.add", old, old));  // an executable there too
  EXPECT_THAT(Values(sum), ElementsAre(2, 4));
  EXPECT_EQ((*server)->live_contexts(), 1u);
  // Update with the same task keeps its context.
  ASSERT_TRUE(ctx->SetClusterSpec(Spec(spec), ClusterUpdate::kUpdate, Remote()).ok());
  EXPECT_EQ((*server)->live_contexts(), 1u);
  EXPECT_THAT(Values(old), ElementsAre(1, 2));
  // Reset: a new context replaces the old one, which `old` does not keep.
  ASSERT_TRUE(ctx->SetClusterSpec(Spec(spec), ClusterUpdate::kReset, Remote()).ok());
  EXPECT_EQ((*server)->live_contexts(), 1u);
  // Past the lease, the buffer itself: the plugin knows its context closed.
  auto raw = old.state()->buffer().ToHostVector();
  ASSERT_FALSE(raw.ok());
  EXPECT_EQ(raw.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(raw.status().message(), HasSubstr("closed its context"));
  EXPECT_THAT(Values(Must(Binary(*ctx, "stablehlo.add", F32(*ctx, {3}, kTask0),
                                 F32(*ctx, {4}, kTask0)))),
              ElementsAre(7));
  // No tasks: no contexts.
  ASSERT_TRUE(ctx->SetClusterSpec(ClusterSpec(), ClusterUpdate::kUpdate, Remote()).ok());
  EXPECT_EQ((*server)->live_contexts(), 0u);
  EXPECT_FALSE(sum.ToVector<float>().ok());
}

// Workers of its own: one is killed.
TEST(EagerClusterLivenessTest, HeartbeatsKeepTasksAliveAndADeadWorkerIsReported) {
  plugrt::testing::RemoteWorker kept(1), killed(1);
  ASSERT_TRUE(kept.ok() && killed.ok());
  ContextOptions options;
  options.async = true;
  auto ctx = MakeContext(options);
  ASSERT_NE(ctx, nullptr);
  const std::string spec = "worker=" + kept.address() + "," + killed.address();
  // keep_alive_secs 1: the workers drop contexts idle for a second.
  ASSERT_TRUE(ctx->SetClusterSpec(Spec(spec), ClusterUpdate::kReset, Remote(1)).ok());
  Tensor on0 = F32(*ctx, {1, 2}, kTask0);
  Tensor on1 = F32(*ctx, {3, 4}, kTask1);
  // Idle for twice the keep-alive period: the heartbeats kept both alive.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  EXPECT_THAT(Values(on0), ElementsAre(1, 2));
  EXPECT_THAT(Values(Must(Binary(*ctx, "stablehlo.add", on1, on1))), ElementsAre(6, 8));
  ASSERT_TRUE(ctx->Wait().ok());

  const std::string address = killed.address();
  killed.Stop(SIGKILL);
  // The heartbeats (three per keep-alive period) find the worker gone: after
  // twice the period the next op fails with their report, without a call
  // of its own reaching the worker.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  Tensor failed = Must(Binary(*ctx, "stablehlo.add", on1, on1));  // async: queued
  Status waited = ctx->Wait();
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(waited.code(), StatusCode::kUnavailable);
  EXPECT_THAT(waited.message(), HasSubstr(address));
  EXPECT_THAT(waited.message(), HasSubstr("heartbeat"));
  auto read = failed.ToVector<float>();
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr(address));
  // The other task and the local device go on.
  EXPECT_THAT(Values(Must(Binary(*ctx, "stablehlo.add", on0, on0))), ElementsAre(2, 4));
  EXPECT_TRUE(ctx->Wait().ok());
  // Updating the dead task away leaves a working cluster.
  ASSERT_TRUE(
      ctx->SetClusterSpec(Spec("worker=" + kept.address()), ClusterUpdate::kUpdate, Remote(1))
          .ok());
  EXPECT_THAT(Values(on0), ElementsAre(1, 2));
  EXPECT_THAT(Names(*ctx), Not(Contains(kTask1)));
}

// A worker that stops answering (stopped, not killed) past the keep-alive
// period: its context is lost, and using it is an error naming the worker,
// never a hang; a reset connects afresh once it answers again.
TEST(EagerClusterLivenessTest, AStalledWorkersContextIsReportedLost) {
  plugrt::testing::RemoteWorker worker(1);
  ASSERT_TRUE(worker.ok());
  auto ctx = MakeContext();
  ASSERT_NE(ctx, nullptr);
  const ClusterSpec spec = Spec("worker=" + worker.address());
  ASSERT_TRUE(ctx->SetClusterSpec(spec, ClusterUpdate::kReset, Remote(1)).ok());
  Tensor t = F32(*ctx, {1, 2}, kTask0);
  ASSERT_EQ(::kill(worker.pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ASSERT_EQ(::kill(worker.pid(), SIGCONT), 0);
  auto lost = t.ToVector<float>();
  ASSERT_FALSE(lost.ok());
  EXPECT_THAT(lost.status().message(), HasSubstr(worker.address()));
  EXPECT_THAT(lost.status().message(), HasSubstr("heartbeat"));
  auto op = Binary(*ctx, "stablehlo.add", t, t);
  ASSERT_FALSE(op.ok());
  EXPECT_THAT(op.status().message(), HasSubstr(worker.address()));
  ASSERT_TRUE(ctx->SetClusterSpec(spec, ClusterUpdate::kReset, Remote(1)).ok());
  EXPECT_THAT(Values(F32(*ctx, {3}, kTask0)), ElementsAre(3));
}

// An update naming a task whose worker stopped answering, at the same
// address, connects it again instead of keeping the lost client; the old
// tensors say why they went. A live task is kept as before.
TEST(EagerClusterLivenessTest, AnUpdateReconnectsATaskWhoseWorkerStoppedAnswering) {
  plugrt::testing::RemoteWorker worker(1), other(1);
  ASSERT_TRUE(worker.ok() && other.ok());
  auto ctx = MakeContext();
  ASSERT_NE(ctx, nullptr);
  const ClusterSpec spec = Spec("worker=" + worker.address() + "," + other.address());
  ASSERT_TRUE(ctx->SetClusterSpec(spec, ClusterUpdate::kReset, Remote(1)).ok());
  Tensor lost = F32(*ctx, {1, 2}, kTask0);
  Tensor kept = F32(*ctx, {5, 6}, kTask1);
  ASSERT_EQ(::kill(worker.pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ASSERT_EQ(::kill(worker.pid(), SIGCONT), 0);
  ASSERT_FALSE(lost.ToVector<float>().ok());
  Status updated = ctx->SetClusterSpec(spec, ClusterUpdate::kUpdate, Remote(1));
  ASSERT_TRUE(updated.ok()) << updated.ToString();
  EXPECT_THAT(Values(Must(Binary(*ctx, "stablehlo.add", F32(*ctx, {3}, kTask0),
                                 F32(*ctx, {4}, kTask0)))),
              ElementsAre(7));
  EXPECT_THAT(Values(kept), ElementsAre(5, 6));  // the other task's context was kept
  auto old = lost.ToVector<float>();
  ASSERT_FALSE(old.ok());
  EXPECT_THAT(old.status().message(), HasSubstr("stopped answering"));
}

}  // namespace
}  // namespace plugrt::eager
