// Collectives of the CPU executor: the rendezvous hub, process groups, the
// collective ops and interpreter.run_parallel, end to end on the StableHLO
// interpreter corpus.
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "client/client.h"
#include "client/executable.h"
#include "cpu/exec/collective_hub.h"
#include "cpu/exec/process_groups.h"
#include "cpu/exec/program.h"
#include "compiler/importers/mlir/parser.h"
#include "testutil/corpus.h"
#include "testutil/plugin_env.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;

Tensor I64(std::vector<int64_t> values) {
  Tensor t(ElementType::kSI64, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.mutable_as<int64_t>()[i] = values[i];
  return t;
}

std::vector<int64_t> Values(const Tensor& t) {
  return std::vector<int64_t>(t.as<int64_t>(), t.as<int64_t>() + t.num_elements());
}

// ---- CollectiveHub ---------------------------------------------------------

TEST(CollectiveHubTest, ExchangeGivesEveryMemberTheContributionsInGroupOrder) {
  CollectiveHub hub(/*num_replicas=*/3, /*num_partitions=*/1);
  const std::vector<int64_t> group = {2, 0, 1};
  std::vector<StatusOr<std::vector<std::vector<Tensor>>>> got(
      3, Status(StatusCode::kUnknown, "not run"));
  std::vector<std::thread> threads;
  for (int64_t p = 0; p < 3; ++p) {
    threads.emplace_back([&, p] { got[p] = hub.Exchange("op", group, p, {I64({p * 10})}); });
  }
  for (auto& t : threads) t.join();
  for (int64_t p = 0; p < 3; ++p) {
    ASSERT_TRUE(got[p].ok()) << got[p].status().message();
    ASSERT_EQ(got[p]->size(), 3u);
    EXPECT_EQ(Values((*got[p])[0][0]), std::vector<int64_t>{20});
    EXPECT_EQ(Values((*got[p])[1][0]), std::vector<int64_t>{0});
    EXPECT_EQ(Values((*got[p])[2][0]), std::vector<int64_t>{10});
  }
}

TEST(CollectiveHubTest, SuccessiveExchangesPairUpInOrder) {
  CollectiveHub hub(2, 1);
  std::vector<std::vector<int64_t>> seen(2);
  std::vector<std::thread> threads;
  for (int64_t p = 0; p < 2; ++p) {
    threads.emplace_back([&, p] {
      for (int64_t round = 0; round < 20; ++round) {
        auto all = hub.Exchange("op", {0, 1}, p, {I64({round * 100 + p})});
        ASSERT_TRUE(all.ok()) << all.status().message();
        // Both members of one round brought that round's values.
        seen[p].push_back(Values((*all)[0][0])[0] + Values((*all)[1][0])[0]);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int64_t round = 0; round < 20; ++round) {
    EXPECT_EQ(seen[0][round], round * 200 + 1);
    EXPECT_EQ(seen[1][round], round * 200 + 1);
  }
}

TEST(CollectiveHubTest, GroupOfOneNeedsNoPeer) {
  CollectiveHub hub(2, 1);
  auto all = hub.Exchange("op", {1}, 1, {I64({7})});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(Values((*all)[0][0]), std::vector<int64_t>{7});
}

TEST(CollectiveHubTest, BadGroupsAreRejectedWithoutWaiting) {
  CollectiveHub hub(2, 1);
  EXPECT_EQ(hub.Exchange("op", {0, 5}, 0, {}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(hub.Exchange("op", {0, 0}, 0, {}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(hub.Exchange("op", {1}, 0, {}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(hub.abort_status().ok());
}

TEST(CollectiveHubTest, AbortWakesWaitersWithTheReason) {
  CollectiveHub hub(2, 1);
  StatusOr<std::vector<std::vector<Tensor>>> got = Status(StatusCode::kUnknown, "not run");
  std::thread waiter([&] { got = hub.Exchange("op", {0, 1}, 0, {I64({1})}); });
  EXPECT_TRUE(hub.Abort(Status(StatusCode::kInvalidArgument, "process 1 failed")));
  waiter.join();
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(got.status().message(), "process 1 failed");
  EXPECT_FALSE(hub.Abort(Status(StatusCode::kInternal, "second")));  // first reason wins
  EXPECT_EQ(hub.abort_status().message(), "process 1 failed");
  // Later exchanges fail at once.
  EXPECT_EQ(hub.Exchange("op", {0, 1}, 1, {}).status().code(), StatusCode::kInvalidArgument);
}

TEST(CollectiveHubTest, AMissingPeerTurnsIntoDeadlineExceeded) {
  CollectiveHub hub(2, 1, std::chrono::milliseconds(50));
  auto got = hub.Exchange("my_op", {0, 1}, 0, {I64({1})});
  ASSERT_EQ(got.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(got.status().message().find("my_op"), std::string::npos);
  EXPECT_FALSE(hub.abort_status().ok());
}

TEST(CollectiveHubTest, APeerThatFinishedWithoutComingFailsTheExchangeAtOnce) {
  CollectiveHub hub(2, 1);  // the default, long timeout: this must not wait for it
  StatusOr<std::vector<std::vector<Tensor>>> got = Status(StatusCode::kUnknown, "not run");
  std::thread waiter([&] { got = hub.Exchange("my_op", {0, 1}, 0, {I64({1})}); });
  hub.Finished(1);
  waiter.join();
  EXPECT_EQ(got.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(got.status().message().find("finished without entering"), std::string::npos)
      << got.status().message();
}

// Node 0 of a two-node job, whose other node holds process 1 and
// contributes the same values: the all-reduce doubles.
class DoublingExchange final : public RemoteExchange {
 public:
  int node_id() const override { return 0; }
  Status AllGather(std::string_view, const std::vector<int>&, std::string_view,
                   const TakeBytes&) override {
    return Unimplemented("not in this test");
  }
  bool CanReduce(shlo::ElementType type) const override { return type == ElementType::kF32; }
  Status AllReduce(std::string_view, const std::vector<int>&, Reduction, shlo::ElementType,
                   const std::vector<const void*>& inputs, void* output, size_t count,
                   std::shared_ptr<const void>) override {
    const float* in = static_cast<const float*>(inputs[0]);
    for (size_t i = 0; i < count; ++i) static_cast<float*>(output)[i] = 2 * in[i];
    return OkStatus();
  }
  Status Send(std::string_view, int, std::string_view) override { return OkStatus(); }
  StatusOr<std::string> Recv(std::string_view, int, std::chrono::milliseconds) override {
    return Unimplemented("not in this test");
  }
};

// A process alone on its node takes the results of a cross-process
// all-reduce as the only holder of their storage (an output adopts them
// instead of copying), run after run: the hub lets go of a collective once
// every member of this process has left it.
TEST(CollectiveHubTest, ACrossProcessAllReducesResultsAreTheSoleMembersAlone) {
  CrossProcess cross;
  cross.node_of_process = {0, 1};
  cross.exchange = std::make_shared<DoublingExchange>();
  CollectiveHub hub(2, 1, cross, std::chrono::milliseconds(10000));
  for (int run = 0; run < 3; ++run) {
    Tensor operand(ElementType::kF32, {4});
    for (int i = 0; i < 4; ++i) operand.mutable_as<float>()[i] = static_cast<float>(i + run);
    StatusOr<std::vector<Tensor>> reduced = hub.AllReduceAcrossNodes(
        "sum", {0, 1}, 0, {operand}, RemoteExchange::Reduction::kSum);
    ASSERT_TRUE(reduced.ok()) << reduced.status().message();
    ASSERT_EQ(reduced->size(), 1u);
    EXPECT_TRUE((*reduced)[0].HasUniqueStorage()) << "run " << run;
    EXPECT_EQ((*reduced)[0].as<float>()[3], 2.0f * static_cast<float>(3 + run));
  }
}

// ---- process groups ----------------------------------------------------------

std::vector<int64_t> GroupOf(GroupMode mode, std::vector<std::vector<int64_t>> groups,
                             ProcessGrid grid, int64_t replica, int64_t partition) {
  auto group = GroupOfProcess(mode, groups, grid, replica, partition);
  EXPECT_TRUE(group.ok()) << group.status().message();
  if (!group.ok() || !*group) return {};
  return **group;
}

TEST(ProcessGroupsTest, FollowTheSpecExamples) {
  const ProcessGrid grid{4, 2};
  // cross_replica [[0, 1], [2, 3]]: partition by partition.
  EXPECT_EQ(GroupOf(GroupMode::kCrossReplica, {{0, 1}, {2, 3}}, grid, 3, 1),
            (std::vector<int64_t>{grid.Flatten(2, 1), grid.Flatten(3, 1)}));
  // cross_partition [[0, 1]]: replica by replica.
  EXPECT_EQ(GroupOf(GroupMode::kCrossPartition, {{0, 1}}, grid, 2, 0),
            (std::vector<int64_t>{grid.Flatten(2, 0), grid.Flatten(2, 1)}));
  // cross_replica_and_partition [[0, 1], [2, 3]]: (0,0) (1,0) (0,1) (1,1).
  EXPECT_EQ(GroupOf(GroupMode::kCrossReplicaAndPartition, {{0, 1}, {2, 3}}, grid, 1, 1),
            (std::vector<int64_t>{grid.Flatten(0, 0), grid.Flatten(1, 0), grid.Flatten(0, 1),
                                  grid.Flatten(1, 1)}));
  // flattened_ids [[0..3], [4..7]]: ids are flattened already.
  EXPECT_EQ(GroupOf(GroupMode::kFlattenedIds, {{0, 1, 2, 3}, {4, 5, 6, 7}}, grid, 2, 1),
            (std::vector<int64_t>{4, 5, 6, 7}));
  // No groups: one group of all replicas.
  EXPECT_EQ(GroupOf(GroupMode::kCrossReplica, {}, grid, 1, 0),
            (std::vector<int64_t>{0, 2, 4, 6}));
}

TEST(ProcessGroupsTest, OutsideEveryGroupAndBadIds) {
  const ProcessGrid grid{3, 1};
  auto none = GroupOfProcess(GroupMode::kCrossReplica, {{0, 1}}, grid, 2, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(GroupOfProcess(GroupMode::kCrossReplica, {{0, 3}}, grid, 0, 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(GroupOfProcess(GroupMode::kCrossReplica, {{0, 1}, {1, 2}}, grid, 0, 0).status().code(),
            StatusCode::kInvalidArgument);
}

// ---- programs ------------------------------------------------------------------

StatusOr<std::vector<RtValue>> RunText(const std::string& text, ExecContext context = {}) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                          Program::Compile(std::move(module), {.conformance_harness = true}));
  return program->Run({}, context);
}

TEST(CollectiveOpsTest, SingleProcessGroupOfOneReturnsTheOperand) {
  auto results = RunText(R"(
func.func @main() -> tensor<2xi64> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi64>) -> tensor<2xi64>
  return %1 : tensor<2xi64>
})");
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_EQ(Values((*results)[0].tensor), (std::vector<int64_t>{3, 4}));
}

TEST(CollectiveOpsTest, SpanningSeveralProcessesWithoutAHubFails) {
  ExecContext context;
  context.num_replicas = 2;
  auto results = RunText(R"(
func.func @main() -> tensor<4xi64> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
  return %1 : tensor<4xi64>
})",
                         context);
  EXPECT_EQ(results.status().code(), StatusCode::kFailedPrecondition);
}

TEST(CollectiveOpsTest, BadAttributesAreCompileErrors) {
  auto bad_dim = RunText(R"(
func.func @main() -> tensor<2xi64> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 3 : i64,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi64>) -> tensor<2xi64>
  return %1 : tensor<2xi64>
})");
  EXPECT_EQ(bad_dim.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad_dim.status().message().find("all_gather_dim"), std::string::npos)
      << bad_dim.status().message();

  auto repeated_target = RunText(R"(
func.func @main() -> tensor<2xi64> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %1 = "stablehlo.collective_permute"(%0) {
      source_target_pairs = dense<[[0, 1], [1, 1]]> : tensor<2x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
  return %1 : tensor<2xi64>
})");
  EXPECT_EQ(repeated_target.status().code(), StatusCode::kInvalidArgument);
}

// One process fails before the collective its peer waits in: the peer is
// woken and the run reports the failing process's error, not a hang.
TEST(RunParallelTest, AFailingProcessDoesNotStrandItsPeers) {
  auto results = RunText(R"(
module @m {
  func.func @fails() -> tensor<2xi64> {
    %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    check.expect_eq_const %0, dense<[1, 3]> : tensor<2xi64>
    %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
    %2 = "stablehlo.slice"(%1) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>,
        strides = array<i64: 1>} : (tensor<4xi64>) -> tensor<2xi64>
    return %2 : tensor<2xi64>
  }
  func.func @waits() -> tensor<2xi64> {
    %0 = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
    %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
    %2 = "stablehlo.slice"(%1) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>,
        strides = array<i64: 1>} : (tensor<4xi64>) -> tensor<2xi64>
    return %2 : tensor<2xi64>
  }
  func.func @main() -> (tensor<2xi64>, tensor<2xi64>) {
    %r:2 = "interpreter.run_parallel"() {programs = [[@fails], [@waits]]}
        : () -> (tensor<2xi64>, tensor<2xi64>)
    return %r#0, %r#1 : tensor<2xi64>, tensor<2xi64>
  }
})");
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), StatusCode::kAborted) << results.status().message();
  EXPECT_NE(results.status().message().find("replica 0"), std::string::npos)
      << results.status().message();
  EXPECT_NE(results.status().message().find("expect_eq_const"), std::string::npos)
      << results.status().message();
}

TEST(RunParallelTest, ProcessesOfDifferentShapesAreAnError) {
  auto results = RunText(R"(
module @m {
  func.func @f(%x : tensor<2xi64>) -> tensor<2xi64> {
    %0 = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    return %0 : tensor<2xi64>
  }
  func.func @main() -> (tensor<2xi64>, tensor<2xi64>) {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
    %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@f], [@f]]}
        : (tensor<2xi64>, tensor<3xi64>) -> (tensor<2xi64>, tensor<2xi64>)
    return %r#0, %r#1 : tensor<2xi64>, tensor<2xi64>
  }
})");
  EXPECT_FALSE(results.ok());
}

TEST(RunParallelTest, ProcessesThatDisagreeAboutCollectivesFailFast) {
  auto results = RunText(R"(
module @m {
  func.func @gathers() -> tensor<4xi64> {
    %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
    return %1 : tensor<4xi64>
  }
  func.func @skips() -> tensor<4xi64> {
    %0 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
    return %0 : tensor<4xi64>
  }
  func.func @main() -> (tensor<4xi64>, tensor<4xi64>) {
    %r:2 = "interpreter.run_parallel"() {programs = [[@gathers], [@skips]]}
        : () -> (tensor<4xi64>, tensor<4xi64>)
    return %r#0, %r#1 : tensor<4xi64>, tensor<4xi64>
  }
})");
  EXPECT_EQ(results.status().code(), StatusCode::kFailedPrecondition)
      << results.status().ToString();
}

TEST(RunParallelTest, ResultsComeInProcessOrder) {
  auto results = RunText(R"(
module @m {
  func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>
  }
  func.func @main() -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>,
                        tensor<ui32>, tensor<ui32>) {
    %r:6 = "interpreter.run_parallel"() {programs = [[@ids, @ids, @ids]]}
        : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
    return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<ui32>, tensor<ui32>, tensor<ui32>,
        tensor<ui32>, tensor<ui32>, tensor<ui32>
  }
})");
  ASSERT_TRUE(results.ok()) << results.status().message();
  ASSERT_EQ(results->size(), 6u);
  for (uint32_t p = 0; p < 3; ++p) {
    EXPECT_EQ(*(*results)[2 * p].tensor.as<uint32_t>(), 0u);
    EXPECT_EQ(*(*results)[2 * p + 1].tensor.as<uint32_t>(), p);
  }
}

// A region of several elementwise ops folds whole chunks at a time; one
// with a constant folds element by element. Both must give the fold in group
// order, across chunk boundaries (40002 elements: 3 chunks, the last short).
TEST(RunParallelTest, ReductionRegionsOfSeveralOpsFoldEveryElementInGroupOrder) {
  auto results = RunText(R"(
module @m {
  func.func @f() -> (tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %r64 = stablehlo.convert %r : (tensor<ui32>) -> tensor<i64>
    %seven = stablehlo.constant dense<7> : tensor<i64>
    %shift = stablehlo.multiply %r64, %seven : tensor<i64>
    %shift_b = stablehlo.broadcast_in_dim %shift, dims = [] : (tensor<i64>) -> tensor<40002xi64>
    %io = stablehlo.iota dim = 0 : tensor<40002xi64>
    %x = stablehlo.add %io, %shift_b : tensor<40002xi64>
    %min = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        %m = stablehlo.maximum %a, %b : tensor<i64>
        %d = stablehlo.subtract %s, %m : tensor<i64>
        stablehlo.return %d : tensor<i64>
    }) {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} : (tensor<40002xi64>) -> tensor<40002xi64>
    %plus = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %one = stablehlo.constant dense<1> : tensor<i64>
        %s = stablehlo.add %a, %b : tensor<i64>
        %t = stablehlo.add %s, %one : tensor<i64>
        stablehlo.return %t : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<40002xi64>) -> tensor<40002xi64>
    %scattered = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        %m = stablehlo.maximum %a, %b : tensor<i64>
        %d = stablehlo.subtract %s, %m : tensor<i64>
        stablehlo.return %d : tensor<i64>
    }) {scatter_dimension = 0 : i64,
        replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<40002xi64>) -> tensor<13334xi64>
    return %min, %plus, %scattered : tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>
  }
  func.func @main() -> (tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
                        tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
                        tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>) {
    %r:9 = "interpreter.run_parallel"() {programs = [[@f], [@f], [@f]]}
        : () -> (tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
                 tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
                 tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>)
    return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8
        : tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
          tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>,
          tensor<40002xi64>, tensor<40002xi64>, tensor<13334xi64>
  }
})");
  ASSERT_TRUE(results.ok()) << results.status().message();
  ASSERT_EQ(results->size(), 9u);
  for (int64_t p = 0; p < 3; ++p) {
    const std::vector<int64_t> min = Values((*results)[3 * p].tensor);
    const std::vector<int64_t> plus = Values((*results)[3 * p + 1].tensor);
    const std::vector<int64_t> scattered = Values((*results)[3 * p + 2].tensor);
    ASSERT_EQ(min.size(), 40002u);
    ASSERT_EQ(scattered.size(), 13334u);
    for (int64_t i = 0; i < 40002; ++i) {
      // Member p holds i + 7p: the minimum is member 0's; (x0 + x1 + 1) + x2 + 1.
      ASSERT_EQ(min[i], i) << "element " << i << " of replica " << p;
      ASSERT_EQ(plus[i], 3 * i + 21 + 2) << "element " << i << " of replica " << p;
    }
    for (int64_t i = 0; i < 13334; ++i) {
      ASSERT_EQ(scattered[i], p * 13334 + i) << "element " << i << " of replica " << p;
    }
  }
}

// ---- through PJRT: one program on several devices -----------------------------

// 2 replicas x 2 partitions: an all_reduce across replicas, then an
// all_gather across partitions (channel 1 with flattened ids).
constexpr const char* kDeviceProgram = R"(
module @collectives attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2xi64>) -> tensor<4xi64> {
    %sum = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    %all = "stablehlo.all_gather"(%sum) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
        use_global_device_ids} : (tensor<2xi64>) -> tensor<4xi64>
    return %all : tensor<4xi64>
  }
}
)";

TEST(PjrtCollectivesTest, DevicesOfOneExecutionMeetInTheirCollectives) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(4));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kDeviceProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 4u);
  // Device d is (replica d / 2, partition d % 2) and holds [d, 10 d].
  std::vector<Buffer> inputs;
  for (int64_t d = 0; d < 4; ++d) {
    const std::vector<int64_t> values = {d, 10 * d};
    auto buffer = client->BufferFromHostBuffer(
        Client::HostBuffer(values.data(), PJRT_Buffer_Type_S64, {2}), devices[d]);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    ASSERT_TRUE(buffer->second.Await().ok());
    inputs.push_back(std::move(buffer->first));
  }
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto results, executable.Execute({{&inputs[0]}, {&inputs[1]}, {&inputs[2]}, {&inputs[3]}}));
  ASSERT_EQ(results.size(), 4u);
  // Partition 0 sums devices 0 and 2: [2, 20]; partition 1 sums 1 and 3:
  // [4, 40]. Each device then gathers the sums of its replica's partitions.
  for (size_t d = 0; d < 4; ++d) {
    ASSERT_EQ(results[d].size(), 1u);
    StatusOr<std::vector<std::byte>> bytes = results[d][0].ToHostVector();
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    ASSERT_EQ(bytes->size(), 4 * sizeof(int64_t));
    std::vector<int64_t> values(4);
    std::memcpy(values.data(), bytes->data(), bytes->size());
    EXPECT_EQ(values, (std::vector<int64_t>{2, 20, 4, 40})) << "device " << d;
  }
}

TEST(PjrtCollectivesTest, AFailingDeviceFailsTheExecutionWithoutHanging) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateHarnessCpuClient(2));
  // Replica 1 fails its check before the all_reduce replica 0 waits in.
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(R"(
module @fails attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<i64>) -> tensor<i64> {
    check.expect_eq_const %x, dense<0> : tensor<i64>
    %sum = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>
    return %sum : tensor<i64>
  }
}
)"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 2u);
  std::vector<Buffer> inputs;
  for (int64_t d = 0; d < 2; ++d) {
    auto buffer = client->BufferFromHostBuffer(
        Client::HostBuffer(&d, PJRT_Buffer_Type_S64, {}), devices[d]);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    ASSERT_TRUE(buffer->second.Await().ok());
    inputs.push_back(std::move(buffer->first));
  }
  auto results = executable.Execute({{&inputs[0]}, {&inputs[1]}});
  ASSERT_FALSE(results.ok());
  // The cause (replica 1's failed check), not an echo or a timeout.
  EXPECT_EQ(results.status().code(), StatusCode::kAborted) << results.status().ToString();
  EXPECT_NE(results.status().message().find("expect_eq_const"), std::string::npos)
      << results.status().ToString();
}

// ---- the interpreter corpus ---------------------------------------------------

// Every run_parallel section of these files uses only collectives, ids and
// the ops around them; each must run with its checks passing.
class CollectiveCorpusTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CollectiveCorpusTest, EverySectionPasses) {
  const std::filesystem::path path = testutil::CorpusDir() / "interpret" / GetParam();
  if (!std::filesystem::exists(path)) GTEST_FAIL() << "corpus not found at " << path;
  const std::string text = testutil::ReadFile(path);
  int sections = 0;
  int passed = 0;
  for (const shlo::SourceSection& section : shlo::SplitSections(text)) {
    if (section.text.find("interpreter.run_parallel") == std::string_view::npos) continue;
    ++sections;
    StatusOr<std::unique_ptr<shlo::Module>> module =
        shlo::ParseModule(section.text, path.string(), section.first_line);
    if (!module.ok()) {
      ADD_FAILURE() << "parse: " << module.status().message();
      continue;
    }
    StatusOr<std::shared_ptr<const Program>> program =
        Program::Compile(std::move(*module), {.conformance_harness = true});
    if (!program.ok()) {
      ADD_FAILURE() << "compile: " << program.status().message();
      continue;
    }
    ExecContext context;
    StatusOr<std::vector<RtValue>> results = (*program)->Run({}, context);
    if (!results.ok()) {
      ADD_FAILURE() << "run: " << results.status().message();
      continue;
    }
    ++passed;
  }
  EXPECT_GT(sections, 0);
  std::printf("%s: %d of %d run_parallel sections pass\n", GetParam(), passed, sections);
}

INSTANTIATE_TEST_SUITE_P(Interpret, CollectiveCorpusTest,
                         ::testing::Values("all_reduce.mlir", "all_gather.mlir",
                                           "all_to_all.mlir", "reduce_scatter.mlir",
                                           "collective_permute.mlir",
                                           "collective_broadcast.mlir",
                                           "collective_reduce.mlir", "replica_id.mlir",
                                           "partition_id.mlir"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace plugrt::cpu
