// The inlining pass: JAX's private helpers (a relu called after a batch
// norm, a softmax calling an exp helper, a composite's decomposition) are
// replaced by their bodies, innermost first; results are the same as with
// the calls; recursion stays a call; the switch turns it off.
#include <gtest/gtest.h>

#include <string>

#include "compiler/importers/mlir/parser.h"
#include "compiler/passes/inlining.h"
#include "stablehlo/ir.h"

namespace plugrt {
namespace {

int CountOps(const shlo::Function& f, shlo::OpCode code) {
  int count = 0;
  for (const auto& op : f.body->front().operations) count += op->code == code;
  return count;
}

std::unique_ptr<shlo::Module> Parse(const std::string& text) {
  auto module = shlo::ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(*module) : nullptr;
}

TEST(InliningTest, NestedPrivateHelpersAreInlinedInnermostFirst) {
  auto module = Parse(R"(
module @jit_f {
  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %x, %y : tensor<4xf32>
    %1 = call @relu(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = call @twice(%1) : (tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @relu(%a: tensor<4xf32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0.0> : tensor<4xf32>
    %0 = stablehlo.maximum %a, %c : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @relu(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::InlineCalls(*module));
  const shlo::Function* main = module->FindFunction("main");
  EXPECT_EQ(CountOps(*main, shlo::OpCode::kFuncCall), 0);
  EXPECT_EQ(CountOps(*main, shlo::OpCode::kMaximum), 2);
  EXPECT_EQ(CountOps(*main, shlo::OpCode::kAdd), 2);
  // The return reads the last add, which reads the second maximum.
  const shlo::Operation& ret = *main->body->front().operations.back();
  ASSERT_NE(ret.operands[0]->defining_op, nullptr);
  EXPECT_EQ(ret.operands[0]->defining_op->code, shlo::OpCode::kAdd);
  EXPECT_EQ(ret.operands[0]->defining_op->operands[0]->defining_op->code, shlo::OpCode::kMaximum);
  EXPECT_FALSE(passes::InlineCalls(*module));  // nothing left
}

TEST(InliningTest, CallsInsideRegionsAndCompositesAreInlined) {
  auto module = Parse(R"(
module {
  func.func public @main(%x: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.composite "my.square" %x {decomposition = @square} : (tensor<f32>) -> tensor<f32>
    %1 = stablehlo.while(%i = %0) : tensor<f32>
      cond {
        %c = stablehlo.constant dense<100.0> : tensor<f32>
        %p = stablehlo.compare LT, %i, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %s = func.call @square(%i) : (tensor<f32>) -> tensor<f32>
        stablehlo.return %s : tensor<f32>
      }
    return %1 : tensor<f32>
  }
  func.func private @square(%a: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.multiply %a, %a : tensor<f32>
    return %0 : tensor<f32>
  }
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::InlineCalls(*module));
  const shlo::Function* main = module->FindFunction("main");
  EXPECT_EQ(CountOps(*main, shlo::OpCode::kComposite), 0);
  EXPECT_EQ(CountOps(*main, shlo::OpCode::kMultiply), 1);
  const shlo::Operation* loop = nullptr;
  for (const auto& op : main->body->front().operations) {
    if (op->code == shlo::OpCode::kWhile) loop = op.get();
  }
  ASSERT_NE(loop, nullptr);
  const shlo::Block& body = loop->region(1).front();
  EXPECT_EQ(body.operations.front()->code, shlo::OpCode::kMultiply);
  EXPECT_EQ(body.operations.front()->operands[0], body.arguments[0].get());
}

TEST(InliningTest, RecursionStaysACall) {
  auto module = Parse(R"(
module {
  func.func public @main(%x: tensor<f32>) -> tensor<f32> {
    %0 = call @f(%x) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @f(%a: tensor<f32>) -> tensor<f32> {
    %0 = call @g(%a) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @g(%a: tensor<f32>) -> tensor<f32> {
    %0 = call @f(%a) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
})");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(passes::InlineCalls(*module));
  EXPECT_EQ(CountOps(*module->FindFunction("main"), shlo::OpCode::kFuncCall), 1);
}

}  // namespace
}  // namespace plugrt
