// The verifier's rules for control flow, tuples, tokens and I/O, the
// collectives, custom_call, composite and the corpus's check.* ops
// (verifier_control.cc): each op is accepted when well formed and rejected,
// with its location and the spec's constraint label, when a rule breaks.
#include <gtest/gtest.h>

#include "testutil/verify_text.h"

namespace plugrt::shlo {
namespace {

using testutil::ExpectValid;
using testutil::ExpectViolation;

// ------------------------------------------------------------------ while

TEST(VerifierWhile, AcceptsAWellTypedLoop) {
  ExpectValid(R"(
func.func @main(%i: tensor<i64>, %s: tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) {
  %0:2 = "stablehlo.while"(%i, %s) ({
  ^bb0(%a: tensor<i64>, %b: tensor<2xf32>):
    %c = stablehlo.constant dense<10> : tensor<i64>
    %p = stablehlo.compare LT, %a, %c : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<2xf32>):
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %a, %one : tensor<i64>
    stablehlo.return %n, %b : tensor<i64>, tensor<2xf32>
  }) : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<i64>, tensor<2xf32>
})");
}

TEST(VerifierWhile, CondReturnsOneI1Scalar) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.while"(%i) ({
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})",
                  "test.mlir:3:3", "stablehlo.while", "(C1)", "cond returns (tensor<i64>)",
                  "expected (tensor<i1>)");
}

TEST(VerifierWhile, CondTakesTheOperandTypes) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.while"(%i) ({
  ^bb0(%a: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})",
                  "test.mlir:3:3", "(C1)", "cond takes (tensor<i32>)");
}

TEST(VerifierWhile, BodyReturnsTheOperandTypes) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.while"(%i) ({
  ^bb0(%a: tensor<i64>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})",
                  "test.mlir:3:3", "(C2)", "body returns (tensor<i1>)");
}

TEST(VerifierWhile, ResultsHaveTheOperandTypes) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i64>) -> tensor<i32> {
  %0 = "stablehlo.while"(%i) ({
  ^bb0(%a: tensor<i64>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i32>
  return %0 : tensor<i32>
})",
                  "test.mlir:3:3", "(C3)", "results (tensor<i32>)");
}

// --------------------------------------------------------------- if, case

TEST(VerifierIf, AcceptsTwoMatchingBranches) {
  ExpectValid(R"(
func.func @main(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})");
}

TEST(VerifierIf, PredIsAnI1Scalar) {
  ExpectViolation(R"(
func.func @main(%p: tensor<2xi1>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<2xi1>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "stablehlo.if", "(I1)", "pred is tensor<2xi1>");
}

TEST(VerifierIf, BranchesTakeNoArguments) {
  ExpectViolation(R"(
func.func @main(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C1)", "branch #0 takes (tensor<f32>)");
}

TEST(VerifierIf, BranchesReturnTheSameTypes) {
  ExpectViolation(R"(
func.func @main(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f64>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<f64>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C2)", "branch #1 returns (tensor<f64>)");
}

TEST(VerifierIf, ResultsAreTheBranchOutputs) {
  ExpectViolation(R"(
func.func @main(%p: tensor<i1>, %a: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                  "test.mlir:3:3", "(C3)", "results (tensor<2xf32>)");
}

TEST(VerifierCase, AcceptsMatchingBranches) {
  ExpectValid(R"(
func.func @main(%i: tensor<i32>, %a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xi64>
  }, {
    stablehlo.return %b : tensor<2xi64>
  }, {
    stablehlo.return %a : tensor<2xi64>
  }) : (tensor<i32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
})");
}

TEST(VerifierCase, IndexIsAnSi32Scalar) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i64>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "stablehlo.case", "(I1)", "index is tensor<i64>");
}

TEST(VerifierCase, NeedsABranch) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i32>) {
  "stablehlo.case"(%i) : (tensor<i32>) -> ()
  return
})",
                  "test.mlir:3:3", "(C1)", "at least one function");
}

TEST(VerifierCase, BranchesTakeNoArguments) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C2)", "branch #1 takes (tensor<f32>)");
}

TEST(VerifierCase, BranchesReturnTheSameTypes) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<2xf32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C3)", "branch #2 returns (tensor<2xf32>)");
}

TEST(VerifierCase, ResultsAreTheBranchOutputs) {
  ExpectViolation(R"(
func.func @main(%i: tensor<i32>, %a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
})",
                  "test.mlir:3:3", "(C4)", "branch #0 returns (tensor<f32>)");
}

// ------------------------------------------------- optimization_barrier, tuples

TEST(VerifierOptimizationBarrier, AcceptsTensorsAndTokens) {
  ExpectValid(R"(
func.func @main(%a: tensor<f32>, %t: !stablehlo.token) -> (tensor<f32>, !stablehlo.token) {
  %0:2 = stablehlo.optimization_barrier %a, %t : tensor<f32>, !stablehlo.token
  return %0#0, %0#1 : tensor<f32>, !stablehlo.token
})");
}

TEST(VerifierOptimizationBarrier, OneResultPerOperand) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C1)", "2 operands, 1 results");
}

TEST(VerifierOptimizationBarrier, ResultsHaveTheOperandTypes) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>) -> tensor<f64> {
  %0 = "stablehlo.optimization_barrier"(%a) : (tensor<f32>) -> tensor<f64>
  return %0 : tensor<f64>
})",
                  "test.mlir:3:3", "(C2)", "operand #0 is tensor<f32>, result is tensor<f64>");
}

TEST(VerifierTuple, AcceptsTupleAndGetTupleElement) {
  ExpectValid(R"(
func.func @main(%a: tensor<2xf64>, %b: tensor<i64>) -> tensor<i64> {
  %t = stablehlo.tuple %b : tuple<tensor<i64>>
  %0 = stablehlo.tuple %a, %t : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<i64>>) -> tensor<i64>
  return %2 : tensor<i64>
})");
}

TEST(VerifierTuple, OneElementPerValue) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = "stablehlo.tuple"(%a) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  return %0 : tuple<tensor<f32>, tensor<f32>>
})",
                  "test.mlir:3:3", "stablehlo.tuple", "(C1)", "1 values");
}

TEST(VerifierTuple, ElementsHaveTheValueTypes) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>, %b: tensor<i32>) -> tuple<tensor<f32>, tensor<i64>> {
  %0 = "stablehlo.tuple"(%a, %b) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i64>>
  return %0 : tuple<tensor<f32>, tensor<i64>>
})",
                  "test.mlir:3:3", "(C2)", "val #1 is tensor<i32>, element #1 is tensor<i64>");
}

TEST(VerifierGetTupleElement, IndexInRange) {
  ExpectViolation(R"(
func.func @main(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %0 = "stablehlo.get_tuple_element"(%t) {index = 2 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "stablehlo.get_tuple_element", "(C1)", "index 2");
}

TEST(VerifierGetTupleElement, ResultIsTheElementType) {
  ExpectViolation(R"(
func.func @main(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(C2)", "element #1 is tensor<i32>, result is tensor<f32>");
}

TEST(VerifierGetTupleElement, OperandIsATuple) {
  ExpectViolation(R"(
func.func @main(%t: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(I1)", "operand is a tuple");
}

// ------------------------------------------------------------- tokens and I/O

TEST(VerifierTokens, AcceptsAfterAllAndCreateToken) {
  ExpectValid(R"(
func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.after_all : !stablehlo.token
  %1 = "stablehlo.create_token"() : () -> !stablehlo.token
  %2 = stablehlo.after_all %t, %0, %1 : !stablehlo.token
  return %2 : !stablehlo.token
})");
}

TEST(VerifierTokens, AfterAllTakesTokens) {
  ExpectViolation(R"(
func.func @main(%t: !stablehlo.token, %a: tensor<f32>) -> !stablehlo.token {
  %0 = "stablehlo.after_all"(%t, %a) : (!stablehlo.token, tensor<f32>) -> !stablehlo.token
  return %0 : !stablehlo.token
})",
                  "test.mlir:3:3", "stablehlo.after_all", "(I1)", "input #1 is tensor<f32>");
}

TEST(VerifierTokens, CreateTokenProducesAToken) {
  ExpectViolation(R"(
func.func @main() -> tensor<f32> {
  %0 = "stablehlo.create_token"() : () -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(structure)", "the result is a token");
}

TEST(VerifierFeeds, AcceptsInfeedAndOutfeed) {
  ExpectValid(R"(
func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %1 = "stablehlo.outfeed"(%0#0, %0#1) {outfeed_config = ""} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  return %1 : !stablehlo.token
})");
}

TEST(VerifierFeeds, InfeedEndsWithAToken) {
  ExpectViolation(R"(
func.func @main(%t: !stablehlo.token) -> tensor<2xi64> {
  %0:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (!stablehlo.token, tensor<2xi64>)
  return %0#1 : tensor<2xi64>
})",
                  "test.mlir:3:3", "stablehlo.infeed", "(C2)", "the last result is tensor<2xi64>");
}

TEST(VerifierFeeds, InfeedHasAResult) {
  ExpectViolation(R"(
func.func @main(%t: !stablehlo.token) {
  "stablehlo.infeed"(%t) : (!stablehlo.token) -> ()
  return
})",
                  "test.mlir:3:3", "(C1)", "size(results) >= 1");
}

TEST(VerifierFeeds, InfeedTakesAToken) {
  ExpectViolation(R"(
func.func @main(%t: tensor<f32>) -> !stablehlo.token {
  %0 = "stablehlo.infeed"(%t) : (tensor<f32>) -> !stablehlo.token
  return %0 : !stablehlo.token
})",
                  "test.mlir:3:3", "(I1)", "got tensor<f32>");
}

TEST(VerifierFeeds, OutfeedTakesATokenLast) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xf32>) -> !stablehlo.token {
  %0 = "stablehlo.outfeed"(%a) : (tensor<2xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
})",
                  "test.mlir:3:3", "stablehlo.outfeed", "(I2)", "it is tensor<2xf32>");
}

TEST(VerifierSendRecv, AcceptsHostTransfers) {
  ExpectValid(R"(
func.func @main(%a: tensor<2xi64>, %t: !stablehlo.token) -> (tensor<2xi64>, !stablehlo.token) {
  %0 = "stablehlo.send"(%a, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>,
    is_host_transfer = true
  } : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  %1:2 = "stablehlo.recv"(%0) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>,
    is_host_transfer = true
  } : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %2 = "stablehlo.send"(%a, %1#1) {
    channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>
  } : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  return %1#0, %2 : tensor<2xi64>, !stablehlo.token
})");
}

TEST(VerifierSendRecv, SendChannelTypeFollowsIsHostTransfer) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%a, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>,
    is_host_transfer = true
  } : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
})",
                  "test.mlir:3:3", "stablehlo.send", "(C1)", "DEVICE_TO_HOST",
                  "channel type 3 (expected 2)");
}

TEST(VerifierSendRecv, RecvChannelTypeFollowsIsHostTransfer) {
  ExpectViolation(R"(
func.func @main(%t: !stablehlo.token) -> (tensor<2xi64>, !stablehlo.token) {
  %0:2 = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>
  } : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  return %0#0, %0#1 : tensor<2xi64>, !stablehlo.token
})",
                  "test.mlir:3:3", "stablehlo.recv", "(C1)", "is_host_transfer = false");
}

TEST(VerifierSendRecv, RecvEndsWithAToken) {
  ExpectViolation(R"(
func.func @main(%t: !stablehlo.token) -> tensor<2xi64> {
  %0 = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>
  } : (!stablehlo.token) -> tensor<2xi64>
  return %0 : tensor<2xi64>
})",
                  "test.mlir:3:3", "(C3)", "the last result is tensor<2xi64>");
}

TEST(VerifierProcessIds, AcceptsUi32Scalars) {
  ExpectValid(R"(
func.func @main() -> (tensor<ui32>, tensor<ui32>) {
  %0 = stablehlo.replica_id : tensor<ui32>
  %1 = stablehlo.partition_id : tensor<ui32>
  return %0, %1 : tensor<ui32>, tensor<ui32>
})");
}

TEST(VerifierProcessIds, ResultIsAUi32Scalar) {
  ExpectViolation(R"(
func.func @main() -> tensor<i32> {
  %0 = "stablehlo.partition_id"() : () -> tensor<i32>
  return %0 : tensor<i32>
})",
                  "test.mlir:3:3", "stablehlo.partition_id", "(structure)", "got tensor<i32>");
}

// ------------------------------------------------------------------ all_reduce

// An all_reduce of `types` with `attrs` and a region over `element`.
std::string AllReduce(const std::string& attrs, const std::string& element = "f32",
                      const std::string& result = "tensor<4xf32>") {
  return R"(
func.func @main(%a: tensor<4xf32>) -> )" + result + R"( {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<)" + element + R"(>, %y: tensor<)" + element + R"(>):
    %s = stablehlo.add %x, %y : tensor<)" + element + R"(>
    stablehlo.return %s : tensor<)" + element + R"(>
  }) {)" + attrs + R"(} : (tensor<4xf32>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

TEST(VerifierAllReduce, AcceptsReplicaGroupsAndChannels) {
  ExpectValid(AllReduce("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"));
  ExpectValid(AllReduce("replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>"));
  ExpectValid(AllReduce(
      "replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>, "
      "channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids"));
  ExpectValid(AllReduce("replica_groups = dense<> : tensor<0x0xi64>"));
}

TEST(VerifierAllReduce, AcceptsVariadicOperands) {
  ExpectValid(R"(
func.func @main(%a: tensor<4xi64>, %b: tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>) {
  %0:2 = "stablehlo.all_reduce"(%a, %b) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
  return %0#0, %0#1 : tensor<4xi64>, tensor<5xi64>
})");
}

TEST(VerifierAllReduce, ReplicaIdsAreUnique) {
  ExpectViolation(AllReduce("replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"),
                  "test.mlir:3:3", "stablehlo.all_reduce", "(C1)",
                  "replica_groups [0, 1, 1, 2]");
}

TEST(VerifierAllReduce, ReplicaIdsCoverTheProcesses) {
  ExpectViolation(AllReduce("replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>"),
                  "test.mlir:3:3", "(C3)", "holds 2 among 2 ids");
  ExpectViolation(AllReduce("replica_groups = dense<[[0, -3]]> : tensor<1x2xi64>"),
                  "test.mlir:3:3", "(C3)", "holds -3");
}

TEST(VerifierAllReduce, ReplicaGroupsAreTwoDimensional) {
  ExpectViolation(AllReduce("replica_groups = dense<[0, 1]> : tensor<2xi64>"), "test.mlir:3:3",
                  "(structure)", "2-dimensional", "tensor<2xi64>");
}

TEST(VerifierAllReduce, GlobalDeviceIdsNeedAChannel) {
  ExpectViolation(AllReduce("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "
                            "use_global_device_ids"),
                  "test.mlir:3:3", "(C4)", "channel_id is 0");
}

TEST(VerifierAllReduce, ComputationWorksOnTheElementType) {
  ExpectViolation(AllReduce("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>", "f64"),
                  "test.mlir:3:3", "(C5)", "computation takes (tensor<f64>, tensor<f64>)");
}

TEST(VerifierAllReduce, ResultHasTheOperandType) {
  ExpectViolation(
      AllReduce("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>", "f32", "tensor<2xf32>"),
      "test.mlir:3:3", "(C6)", "operand #0 is tensor<4xf32>, result is tensor<2xf32>");
}

// ------------------------------------------------------------------ all_gather

std::string AllGather(const std::string& attrs, const std::string& result) {
  return R"(
func.func @main(%a: tensor<2x2xi64>) -> )" + result + R"( {
  %0 = "stablehlo.all_gather"(%a) {)" + attrs + R"(} : (tensor<2x2xi64>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

TEST(VerifierAllGather, AcceptsGroupsOfTwo) {
  ExpectValid(AllGather(
      "all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>",
      "tensor<2x4xi64>"));
  // Across replicas and partitions the group size depends on num_partitions.
  ExpectValid(AllGather(
      "all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "
      "channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>",
      "tensor<2x8xi64>"));
  ExpectValid(AllGather(
      "all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>",
      "tensor<?x2xi64>"));
}

TEST(VerifierAllGather, DimensionInRange) {
  ExpectViolation(AllGather("all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : "
                            "tensor<1x2xi64>",
                            "tensor<2x4xi64>"),
                  "test.mlir:3:3", "stablehlo.all_gather", "(C1)", "all_gather_dim is 2");
}

TEST(VerifierAllGather, NeedsTheDimension) {
  ExpectViolation(AllGather("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>",
                            "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(structure)", "'all_gather_dim' is required");
}

TEST(VerifierAllGather, ReplicaIdsAreUnique) {
  ExpectViolation(AllGather("all_gather_dim = 1 : i64, replica_groups = dense<[[0, 0]]> : "
                            "tensor<1x2xi64>",
                            "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(C2)", "replica_groups [0, 0]");
}

TEST(VerifierAllGather, GlobalDeviceIdsNeedAChannel) {
  ExpectViolation(AllGather("all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : "
                            "tensor<1x2xi64>, use_global_device_ids",
                            "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(C5)", "channel_id is 0");
}

TEST(VerifierAllGather, ResultDimensionIsMultipliedByTheGroupSize) {
  ExpectViolation(AllGather("all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1, 2]]> : "
                            "tensor<1x3xi64>",
                            "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(C6)", "dim(operand, all_gather_dim) * 3",
                  "result is tensor<2x4xi64>");
}

// ------------------------------------------------------------------ all_to_all

std::string AllToAll(const std::string& attrs, const std::string& result) {
  return R"(
func.func @main(%a: tensor<2x4xi64>) -> )" + result + R"( {
  %0 = "stablehlo.all_to_all"(%a) {)" + attrs + R"(} : (tensor<2x4xi64>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

// `attributes` followed by replica groups {0, 1}. (A function rather than
// `std::string(...) + kGroups`: g++ 12 warns falsely, -Warray-bounds, on
// that concatenation inlined into the tests; so not inlined.)
[[gnu::noinline]] std::string WithGroups2(std::string attributes) {
  attributes.append(", replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>");
  return attributes;
}

TEST(VerifierAllToAll, AcceptsASplitAndConcat) {
  ExpectValid(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                                    "split_count = 2 : i64"),
                       "tensor<4x2xi64>"));
  ExpectValid(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 1 : i64, "
                                   "split_count = 2 : i64"),
                       "tensor<2x4xi64>"));
}

TEST(VerifierAllToAll, SplitDimensionInRange) {
  ExpectViolation(AllToAll(WithGroups2("split_dimension = -1 : i64, concat_dimension = 0 : i64, "
                                       "split_count = 2 : i64"),
                           "tensor<4x2xi64>"),
                  "test.mlir:3:3", "stablehlo.all_to_all", "(C1)", "split_dimension is -1");
}

TEST(VerifierAllToAll, SplitCountDividesTheDimension) {
  ExpectViolation(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                                       "split_count = 3 : i64"),
                           "tensor<6x1xi64>"),
                  "test.mlir:3:3", "(C2)", "has 4 along dimension 1, split_count 3");
}

TEST(VerifierAllToAll, ConcatDimensionInRange) {
  ExpectViolation(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 2 : i64, "
                                       "split_count = 2 : i64"),
                           "tensor<4x2xi64>"),
                  "test.mlir:3:3", "(C3)", "concat_dimension is 2");
}

TEST(VerifierAllToAll, SplitCountIsPositive) {
  ExpectViolation(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                                       "split_count = 0 : i64"),
                           "tensor<4x2xi64>"),
                  "test.mlir:3:3", "(C4)", "split_count is 0");
}

TEST(VerifierAllToAll, ReplicaIdsAreUniqueAndCoverTheProcesses) {
  ExpectViolation(AllToAll("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                           "split_count = 2 : i64, replica_groups = dense<[[1, 1]]> : "
                           "tensor<1x2xi64>",
                           "tensor<4x2xi64>"),
                  "test.mlir:3:3", "(C5)");
  ExpectViolation(AllToAll("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                           "split_count = 2 : i64, replica_groups = dense<[[1, 5]]> : "
                           "tensor<1x2xi64>",
                           "tensor<4x2xi64>"),
                  "test.mlir:3:3", "(C7)", "holds 5");
}

TEST(VerifierAllToAll, ResultShape) {
  ExpectViolation(AllToAll(WithGroups2("split_dimension = 1 : i64, concat_dimension = 0 : i64, "
                                       "split_count = 2 : i64"),
                           "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(C8)", "result is tensor<2x4xi64> (split_count 2)");
}

// -------------------------------------------------------------- reduce_scatter

std::string ReduceScatter(const std::string& attrs, const std::string& result,
                          const std::string& element = "i64") {
  return R"(
func.func @main(%a: tensor<2x4xi64>) -> )" + result + R"( {
  %0 = "stablehlo.reduce_scatter"(%a) ({
  ^bb0(%x: tensor<)" + element + R"(>, %y: tensor<)" + element + R"(>):
    %s = stablehlo.add %x, %y : tensor<)" + element + R"(>
    stablehlo.return %s : tensor<)" + element + R"(>
  }) {)" + attrs + R"(} : (tensor<2x4xi64>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

TEST(VerifierReduceScatter, AcceptsAScatter) {
  ExpectValid(ReduceScatter(WithGroups2("scatter_dimension = 1 : i64"),
                            "tensor<2x2xi64>"));
  ExpectValid(ReduceScatter(
      "scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
      "channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids",
      "tensor<2x1xi64>"));
}

TEST(VerifierReduceScatter, GroupSizeDividesTheDimension) {
  ExpectViolation(ReduceScatter("scatter_dimension = 1 : i64, replica_groups = "
                                "dense<[[0, 1, 2]]> : tensor<1x3xi64>",
                                "tensor<2x1xi64>"),
                  "test.mlir:3:3", "stablehlo.reduce_scatter", "(C1)",
                  "has 4 along dimension 1, groups of 3");
}

TEST(VerifierReduceScatter, DimensionInRange) {
  ExpectViolation(ReduceScatter(WithGroups2("scatter_dimension = 3 : i64"),
                                "tensor<2x2xi64>"),
                  "test.mlir:3:3", "(C2)", "scatter_dimension is 3");
}

TEST(VerifierReduceScatter, GlobalDeviceIdsNeedAChannel) {
  ExpectViolation(ReduceScatter(WithGroups2("scatter_dimension = 1 : i64, "
                                            "use_global_device_ids"),
                                "tensor<2x2xi64>"),
                  "test.mlir:3:3", "(C6)");
}

TEST(VerifierReduceScatter, ComputationWorksOnTheElementType) {
  ExpectViolation(ReduceScatter(WithGroups2("scatter_dimension = 1 : i64"),
                                "tensor<2x2xi64>", "i32"),
                  "test.mlir:3:3", "(C7)", "computation takes (tensor<i32>, tensor<i32>)");
}

TEST(VerifierReduceScatter, ResultDimensionIsDividedByTheGroupSize) {
  ExpectViolation(ReduceScatter(WithGroups2("scatter_dimension = 1 : i64"),
                                "tensor<2x4xi64>"),
                  "test.mlir:3:3", "(C8)", "dim(operand, scatter_dimension) / 2");
}

// --------------------------------------------------------- collective_permute

std::string Permute(const std::string& pairs, const std::string& result = "tensor<2xf32>") {
  return R"(
func.func @main(%a: tensor<2xf32>) -> )" + result + R"( {
  %0 = "stablehlo.collective_permute"(%a) {source_target_pairs = )" + pairs +
         R"(} : (tensor<2xf32>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

TEST(VerifierCollectivePermute, AcceptsPairs) {
  ExpectValid(Permute("dense<[[0, 1], [1, 2], [3, 3], [4, 4]]> : tensor<4x2xi64>"));
  ExpectValid(Permute("dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>"));
}

TEST(VerifierCollectivePermute, PairsHaveTwoEntries) {
  ExpectViolation(Permute("dense<[[0, 1, 2]]> : tensor<1x3xi64>"), "test.mlir:3:3",
                  "stablehlo.collective_permute", "(C1)", "tensor<1x3xi64>");
}

TEST(VerifierCollectivePermute, SourcesAreUnique) {
  ExpectViolation(Permute("dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>"), "test.mlir:3:3",
                  "(C2)", "sources [0, 0]");
}

TEST(VerifierCollectivePermute, TargetsAreUnique) {
  ExpectViolation(Permute("dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>"), "test.mlir:3:3",
                  "(C3)", "targets [1, 1]");
}

TEST(VerifierCollectivePermute, IdsAreNonNegative) {
  ExpectViolation(Permute("dense<[[0, -1]]> : tensor<1x2xi64>"), "test.mlir:3:3", "(C4)",
                  "holds -1");
}

TEST(VerifierCollectivePermute, ResultHasTheOperandType) {
  ExpectViolation(Permute("dense<[[0, 1]]> : tensor<1x2xi64>", "tensor<2xf64>"),
                  "test.mlir:3:3", "(C5)", "result is tensor<2xf64>");
}

TEST(VerifierCollectivePermute, NeedsThePairs) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_permute"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                  "test.mlir:3:3", "(structure)", "'source_target_pairs' is required");
}

// ------------------------------------------------------- collective_broadcast

std::string Broadcast(const std::string& groups, const std::string& result = "tensor<1x2xi64>") {
  return R"(
func.func @main(%a: tensor<1x2xi64>) -> )" + result + R"( {
  %0 = "stablehlo.collective_broadcast"(%a) {replica_groups = )" + groups +
         R"(} : (tensor<1x2xi64>) -> )" + result + R"(
  return %0 : )" + result + R"(
})";
}

TEST(VerifierCollectiveBroadcast, AcceptsGroupsThatLeaveProcessesOut) {
  ExpectValid(Broadcast("dense<[[2, 1]]> : tensor<1x2xi64>"));
  ExpectValid(R"(
func.func @main(%a: tensor<1x2xi64>, %b: tensor<1x2xi64>, %r: tensor<2xi32>) -> (tensor<1x2xi64>, tensor<1x2xi64>) {
  %0:2 = "stablehlo.collective_broadcast"(%a, %b, %r) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root
  } : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<2xi32>) -> (tensor<1x2xi64>, tensor<1x2xi64>)
  return %0#0, %0#1 : tensor<1x2xi64>, tensor<1x2xi64>
})");
}

TEST(VerifierCollectiveBroadcast, ReplicaIdsAreUnique) {
  ExpectViolation(Broadcast("dense<[[2, 2]]> : tensor<1x2xi64>"), "test.mlir:3:3",
                  "stablehlo.collective_broadcast", "(C1)", "replica_groups [2, 2]");
}

TEST(VerifierCollectiveBroadcast, ReplicaIdsAreNonNegative) {
  ExpectViolation(Broadcast("dense<[[0, -2]]> : tensor<1x2xi64>"), "test.mlir:3:3", "(C2)",
                  "holds -2");
}

TEST(VerifierCollectiveBroadcast, ResultHasTheOperandType) {
  ExpectViolation(Broadcast("dense<[[0, 1]]> : tensor<1x2xi64>", "tensor<2x1xi64>"),
                  "test.mlir:3:3", "(C3)", "result is tensor<2x1xi64>");
}

TEST(VerifierCollectiveBroadcast, DynamicRootIsARank1IntegerTensor) {
  ExpectViolation(R"(
func.func @main(%a: tensor<1x2xi64>, %r: tensor<3xi32>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_broadcast"(%a, %r) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root
  } : (tensor<1x2xi64>, tensor<3xi32>) -> tensor<1x2xi64>
  return %0 : tensor<1x2xi64>
})",
                  "test.mlir:3:3", "(structure)", "root is tensor<3xi32> for 1 operands");
}

// ------------------------------------------------------------------ custom_call

TEST(VerifierCustomCall, AcceptsTargetsLayoutsAndConfigs) {
  ExpectValid(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<3x2xf32> {
  %0 = stablehlo.custom_call @foo(%a, %b) {
    api_version = 2 : i32, backend_config = "cfg", has_side_effect = false,
    operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<> : tensor<0xindex>],
    result_layouts = [dense<[0, 1]> : tensor<2xindex>]
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x2xf32>
  %1 = "stablehlo.custom_call"(%0) {call_target_name = "bar", api_version = 4 : i32,
    backend_config = {x = 1 : i64}} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
})");
}

TEST(VerifierCustomCall, NeedsACallTargetName) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = 3 : i64} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "stablehlo.custom_call", "(structure)",
                  "call_target_name is a string");
}

TEST(VerifierCustomCall, ApiVersionIsKnown) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.custom_call @foo(%a) {api_version = 7 : i32} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(structure)", "api_version is one of", "got 7");
}

TEST(VerifierCustomCall, DictionaryConfigNeedsTypedFfi) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.custom_call @foo(%a) {backend_config = {x = 1 : i64}} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "(structure)", "backend_config is a string");
}

TEST(VerifierCustomCall, OneLayoutPerOperand) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @foo(%a) {
    operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>],
    result_layouts = [dense<[1, 0]> : tensor<2xindex>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})",
                  "test.mlir:3:3", "(structure)", "2 layouts for 1 values");
}

TEST(VerifierCustomCall, LayoutsArePermutations) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @foo(%a) {
    operand_layouts = [dense<[1, 0]> : tensor<2xi64>],
    result_layouts = [dense<[1, 1]> : tensor<2xi64>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})",
                  "test.mlir:3:3", "(structure)", "entry #0 is [1, 1] for tensor<2x3xf32>");
}

TEST(VerifierCustomCall, LayoutsComeTogether) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @foo(%a) {
    operand_layouts = [dense<[1, 0]> : tensor<2xindex>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})",
                  "test.mlir:3:3", "(structure)", "only operand_layouts is present");
}

TEST(VerifierCustomCall, CheckTargetsCompareValuesOfOneType) {
  ExpectValid(R"(
func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
  return
})");
  ExpectViolation(R"(
func.func @main(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf64>) -> ()
  return
})",
                  "test.mlir:3:3", "(structure)",
                  "actual is tensor<3xf32>, expected is tensor<3xf64>");
}

// ------------------------------------------------------------------ composite

TEST(VerifierComposite, AcceptsANamespacedComposite) {
  ExpectValid(R"(
func.func @add_n.impl(%x: tensor<i64>) -> tensor<i64> {
  return %x : tensor<i64>
}
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.composite "stablehlo.add_n" %a {
    composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl, version = 1 : i32
  } : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})");
}

TEST(VerifierComposite, NameIsNamespaced) {
  ExpectViolation(R"(
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.composite"(%a) {name = "add_n", decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})",
                  "test.mlir:3:3", "stablehlo.composite", "(C1)", "name is \"add_n\"");
}

TEST(VerifierComposite, NamesADecomposition) {
  ExpectViolation(R"(
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.composite"(%a) {name = "my.add"} : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
})",
                  "test.mlir:3:3", "(C2)", "decomposition names a function", "got none");
}

// -------------------------------------------------------------- check dialect

TEST(VerifierCheckOps, AcceptsTheCorpusChecks) {
  ExpectValid(R"(
func.func @main(%a: tensor<3xi64>, %f: tensor<f64>, %h: tensor<f16>) {
  check.expect_eq %a, %a : tensor<3xi64>
  check.expect_eq_const %a, dense<[-2, 0, 2]> : tensor<3xi64>
  check.expect_almost_eq %f, %f, tolerance = 0.1 : tensor<f64>
  check.expect_almost_eq_const %f, dense<5.1> : tensor<f64> {tolerance = 0.1 : f64}
  check.expect_close %h, %h, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  check.expect_serialized_eq %a, probe_id = "p" : tensor<3xi64>
  return
})");
}

TEST(VerifierCheckOps, ComparedValuesHaveOneType) {
  ExpectViolation(R"(
func.func @main(%a: tensor<3xi64>, %b: tensor<3xi32>) {
  "check.expect_eq"(%a, %b) : (tensor<3xi64>, tensor<3xi32>) -> ()
  return
})",
                  "test.mlir:3:3", "check.expect_eq", "(structure)",
                  "actual is tensor<3xi64>, expected is tensor<3xi32>");
  ExpectViolation(R"(
func.func @main(%a: tensor<f16>, %b: tensor<2xf16>) {
  check.expect_close %a, %b : tensor<f16>, tensor<2xf16>
  return
})",
                  "test.mlir:3:3", "check.expect_close", "expected is tensor<2xf16>");
}

TEST(VerifierCheckOps, ConstantHasTheValueType) {
  ExpectViolation(R"(
func.func @main(%a: tensor<3xi64>) {
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
  return
})",
                  "test.mlir:3:3", "check.expect_eq_const", "(structure)",
                  "expected is tensor<2xi64>");
}

TEST(VerifierCheckOps, PairChecksTakeTwoOperands) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f64>) {
  "check.expect_almost_eq"(%a) : (tensor<f64>) -> ()
  return
})",
                  "test.mlir:3:3", "(structure)", "number of operands", "expected 2, got 1");
}

TEST(VerifierCheckOps, SerializedEqNeedsAProbeId) {
  ExpectViolation(R"(
func.func @main(%a: tensor<f64>) {
  "check.expect_serialized_eq"(%a) : (tensor<f64>) -> ()
  return
})",
                  "test.mlir:3:3", "check.expect_serialized_eq", "probe_id is a string");
}

}  // namespace
}  // namespace plugrt::shlo
