// The CPU plugin's compile pipeline (compiler/pass_runner.h): the built-in
// module passes (algebraic simplification, CSE, dead-code elimination) on the
// IR, their switches (merged from plugins and the user), and the pass report
// and module dumps a compile writes when the compile options ask.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "client/client.h"
#include "compile_options/compile_options.h"
#include "compiler/passes/algebraic_simplify.h"
#include "compiler/passes/cse.h"
#include "compiler/passes/dead_code.h"
#include "compiler/pass_config.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"
#include "testutil/programs.h"

namespace plugrt {
namespace {

using testing::CpuPlugin;
using testing::Upload;

std::unique_ptr<shlo::Module> Parse(const std::string& text) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "passes.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? std::move(*module) : nullptr;
}

// How many ops of each name the entry function's body has.
std::map<std::string, int> OpCounts(const shlo::Module& module) {
  std::map<std::string, int> counts;
  for (const auto& op : module.functions[0]->body->front().operations) ++counts[op->name];
  return counts;
}

constexpr const char* kIdentities = R"(
func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<3x2xf32>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<2x3xf32>
  %pz = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %izero = stablehlo.constant dense<0> : tensor<2x3xi32>
  %a = stablehlo.add %x, %nz : tensor<2x3xf32>
  %b = stablehlo.multiply %one, %a : tensor<2x3xf32>
  %c = stablehlo.divide %b, %one : tensor<2x3xf32>
  %d = stablehlo.subtract %c, %pz : tensor<2x3xf32>
  %e = stablehlo.negate %d : tensor<2x3xf32>
  %f = stablehlo.negate %e : tensor<2x3xf32>
  %g = stablehlo.reshape %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = stablehlo.transpose %g, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %kept = stablehlo.add %x, %pz : tensor<2x3xf32>
  %j = stablehlo.add %izero, %i : tensor<2x3xi32>
  %t = stablehlo.transpose %h, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %h, %kept, %j, %t : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<3x2xf32>
}
)";

TEST(AlgebraicSimplificationTest, RemovesExactIdentitiesOnly) {
  std::unique_ptr<shlo::Module> module = Parse(kIdentities);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::SimplifyAlgebra(*module));
  EXPECT_TRUE(passes::EliminateDeadCode(*module));
  ASSERT_TRUE(shlo::VerifyModule(*module).ok()) << shlo::PrintModule(*module);
  // x + 0.0 stays (it turns -0.0 into +0.0); the real transpose stays.
  EXPECT_EQ(OpCounts(*module), (std::map<std::string, int>{{"func.return", 1},
                                                            {"stablehlo.add", 1},
                                                            {"stablehlo.constant", 1},
                                                            {"stablehlo.transpose", 1}}))
      << shlo::PrintModule(*module);
  // The first result is now %x itself, the third %i.
  const shlo::Operation& ret = *module->functions[0]->body->front().operations.back();
  const shlo::Block& body = module->functions[0]->body->front();
  EXPECT_EQ(ret.operands[0], body.arguments[0].get());
  EXPECT_EQ(ret.operands[2], body.arguments[1].get());
  // Nothing left to do.
  EXPECT_FALSE(passes::SimplifyAlgebra(*module));
}

// JAX's scan writes its outputs [time, batch, features] and transposes them
// to [batch, time, features]: at batch 1 that moves a size-1 dim only.
constexpr const char* kUnitTransposes = R"(
func.func @main(%x: tensor<4x1x3xf32>, %y: tensor<2x1x3xf32>) -> (tensor<4x1x3xf32>, tensor<1x3x4xf32>, tensor<3x1x2xf32>) {
  %a = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
  %b = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<1x4x3xf32>) -> tensor<4x1x3xf32>
  %c = stablehlo.transpose %x, dims = [1, 2, 0] : (tensor<4x1x3xf32>) -> tensor<1x3x4xf32>
  %d = stablehlo.transpose %y, dims = [2, 1, 0] : (tensor<2x1x3xf32>) -> tensor<3x1x2xf32>
  return %b, %c, %d : tensor<4x1x3xf32>, tensor<1x3x4xf32>, tensor<3x1x2xf32>
}
)";

TEST(AlgebraicSimplificationTest, TransposesOfUnitDimsAreReshapes) {
  std::unique_ptr<shlo::Module> module = Parse(kUnitTransposes);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::SimplifyAlgebra(*module));
  EXPECT_TRUE(passes::EliminateDeadCode(*module));
  ASSERT_TRUE(shlo::VerifyModule(*module).ok()) << shlo::PrintModule(*module);
  // %a and %b: reshapes, and the pair is %x again. %c and %d reorder
  // elements and stay transposes.
  EXPECT_EQ(OpCounts(*module), (std::map<std::string, int>{{"func.return", 1},
                                                            {"stablehlo.transpose", 2}}))
      << shlo::PrintModule(*module);
  const shlo::Operation& ret = *module->functions[0]->body->front().operations.back();
  EXPECT_EQ(ret.operands[0], module->functions[0]->body->front().arguments[0].get());
}

// Compiles `text` with the pass switches `passes`, runs it on the f32
// arguments (dims, values) and returns every result's values, in order.
std::vector<float> RunF32(Client& client, const char* text, const char* passes,
                          const std::vector<std::pair<std::vector<int64_t>, std::vector<float>>>& args) {
  CompileOptions options;
  options.env_option_overrides[kPassesOverride] = std::string(passes);
  StatusOr<LoadedExecutable> executable = client.Compile(text, options);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  std::vector<float> out;
  if (!executable.ok()) return out;
  StatusOr<std::vector<Device>> devices = client.addressable_devices();
  std::vector<Buffer> buffers;
  for (const auto& [dims, values] : args) {
    buffers.push_back(Upload<float>(client, (*devices)[0], PJRT_Buffer_Type_F32, dims, values));
  }
  std::vector<Buffer*> pointers;
  for (Buffer& b : buffers) pointers.push_back(&b);
  StatusOr<std::vector<std::vector<Buffer>>> results = executable->Execute({pointers});
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  if (!results.ok()) return out;
  for (Buffer& result : (*results)[0]) {
    StatusOr<std::vector<std::byte>> bytes = result.ToHostVector();
    EXPECT_TRUE(bytes.ok());
    std::vector<float> values(bytes->size() / sizeof(float));
    std::memcpy(values.data(), bytes->data(), bytes->size());
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

TEST(AlgebraicSimplificationTest, UnitTransposesKeepTheirValues) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, {}));
  std::vector<float> x(12), y(6);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) + 0.5f;
  for (size_t i = 0; i < y.size(); ++i) y[i] = -static_cast<float>(i);
  auto run = [&](const char* passes) {
    return RunF32(*client, kUnitTransposes, passes, {{{4, 1, 3}, x}, {{2, 1, 3}, y}});
  };
  const std::vector<float> with = run("algebraic-simplification=on");
  const std::vector<float> without = run("algebraic-simplification=off");
  ASSERT_EQ(with.size(), 30u);
  EXPECT_EQ(with, without);
  EXPECT_EQ(std::vector<float>(with.begin(), with.begin() + 12), x);
  // %c[0, j, i] is x[i, 0, j]; %d[j, 0, i] is y[i, 0, j].
  EXPECT_EQ(with[12 + 1 * 4 + 2], x[2 * 3 + 1]);
  EXPECT_EQ(with[24 + 2 * 2 + 1], y[1 * 3 + 2]);
}

// Keras's ZeroPadding2D before a `valid` stride-2 convolution, a pad on
// both sides added to the convolution's own padding, and pads that must stay:
// by 1.0, by -0.0, of the batch dim, with interior padding.
const char* kPaddedConvolutions = R"(
func.func @main(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4x8xf32>)
    -> (tensor<2x4x4x8xf32>, tensor<2x6x5x8xf32>, tensor<2x4x4x8xf32>, tensor<2x4x4x8xf32>,
        tensor<4x4x4x8xf32>, tensor<2x8x8x8xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %nzero = stablehlo.constant dense<-0.0> : tensor<f32>
  %p = stablehlo.pad %x, %zero, low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<2x10x10x4xf32>
  %a = stablehlo.convolution(%p, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  %q = stablehlo.pad %x, %zero, low = [0, 1, 2, 0], high = [0, 2, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<2x12x11x4xf32>
  %b = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x11x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x5x8xf32>
  %r = stablehlo.pad %x, %one, low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<2x10x10x4xf32>
  %c = stablehlo.convolution(%r, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  %s = stablehlo.pad %x, %nzero, low = [0, 0, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<2x10x10x4xf32>
  %d = stablehlo.convolution(%s, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  %t = stablehlo.pad %x, %zero, low = [1, 0, 0, 0], high = [1, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<4x10x10x4xf32>
  %e = stablehlo.convolution(%t, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<4x4x4x8xf32>
  %u = stablehlo.pad %x, %zero, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 1, 0, 0] : (tensor<2x9x9x4xf32>, tensor<f32>) -> tensor<2x17x9x4xf32>
  %f = stablehlo.convolution(%u, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x17x9x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x7x8xf32>
  %g = stablehlo.pad %f, %zero, low = [0, 0, 1, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x8x7x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
  func.return %a, %b, %c, %d, %e, %g : tensor<2x4x4x8xf32>, tensor<2x6x5x8xf32>, tensor<2x4x4x8xf32>, tensor<2x4x4x8xf32>, tensor<4x4x4x8xf32>, tensor<2x8x8x8xf32>
}
)";

TEST(AlgebraicSimplificationTest, ZeroPadsOfSpatialDimsFoldIntoTheConvolution) {
  std::unique_ptr<shlo::Module> module = Parse(kPaddedConvolutions);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::SimplifyAlgebra(*module));
  EXPECT_TRUE(passes::EliminateDeadCode(*module));
  ASSERT_TRUE(shlo::VerifyModule(*module).ok()) << shlo::PrintModule(*module);
  // %p and %q are gone; %r, %s, %t, %u and %g (not before a convolution) stay.
  EXPECT_EQ(OpCounts(*module)["stablehlo.pad"], 5) << shlo::PrintModule(*module);
  std::vector<std::vector<int64_t>> paddings;
  for (const auto& op : module->functions[0]->body->front().operations) {
    if (op->code != shlo::OpCode::kConvolution) continue;
    const shlo::Attribute* padding = op->attribute("padding");
    StatusOr<std::vector<int64_t>> values =
        padding != nullptr ? shlo::AttrToIntList(*padding) : std::vector<int64_t>{};
    ASSERT_TRUE(values.ok());
    paddings.push_back(*values);
  }
  ASSERT_EQ(paddings.size(), 6u);
  EXPECT_EQ(paddings[0], (std::vector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(paddings[1], (std::vector<int64_t>{1, 3, 3, 0}));
  EXPECT_EQ(paddings[2], (std::vector<int64_t>{}));
}

TEST(AlgebraicSimplificationTest, FoldedPadsGiveTheConvolutionsTheirValues) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, {}));
  std::vector<float> x(2 * 9 * 9 * 4), w(3 * 3 * 4 * 8);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) / 11.0f - 1.0f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 53) % 19) / 9.0f - 1.0f;
  auto run = [&](const char* passes) {
    return RunF32(*client, kPaddedConvolutions, passes, {{{2, 9, 9, 4}, x}, {{3, 3, 4, 8}, w}});
  };
  const std::vector<float> with = run("algebraic-simplification=on");
  const std::vector<float> without = run("algebraic-simplification=off");
  ASSERT_EQ(with.size(), without.size());
  ASSERT_EQ(with.size(), size_t{2 * 4 * 4 * 8 * 3 + 2 * 6 * 5 * 8 + 4 * 4 * 4 * 8 + 2 * 8 * 8 * 8});
  for (size_t i = 0; i < with.size(); ++i) {
    ASSERT_NEAR(with[i], without[i], 1e-4f * (1.0f + std::abs(without[i]))) << i;
  }
}

TEST(CommonSubexpressionTest, MergesEqualPureOpsAndKeepsTheRest) {
  std::unique_ptr<shlo::Module> module = Parse(R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %c1 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %e1 = stablehlo.exponential %x : tensor<4xf32>
  %e2 = stablehlo.exponential %x : tensor<4xf32>
  %m1 = stablehlo.multiply %e1, %c1 : tensor<4xf32>
  %m2 = stablehlo.multiply %e2, %c2 : tensor<4xf32>
  %s = stablehlo.add %m1, %m2 : tensor<4xf32>
  %lt = stablehlo.compare LT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %gt = stablehlo.compare GT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %b = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<4xf32>
  return %s, %lt, %gt, %b : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::EliminateCommonSubexpressions(*module));
  passes::EliminateDeadCode(*module);
  ASSERT_TRUE(shlo::VerifyModule(*module).ok()) << shlo::PrintModule(*module);
  const std::map<std::string, int> counts = OpCounts(*module);
  EXPECT_EQ(counts.at("stablehlo.exponential"), 1);
  EXPECT_EQ(counts.at("stablehlo.multiply"), 1);
  EXPECT_EQ(counts.at("stablehlo.constant"), 2);  // 2.0 once, and the init
  EXPECT_EQ(counts.at("stablehlo.compare"), 2);  // LT and GT differ
  EXPECT_EQ(counts.at("stablehlo.reduce"), 1);
  // The add now reads one value twice.
  for (const auto& op : module->functions[0]->body->front().operations) {
    if (op->name == "stablehlo.add") {
      EXPECT_EQ(op->operands[0], op->operands[1]);
    }
  }
}

// The op table marks add, multiply, maximum, ... commutative: swapped
// operands are the same value; subtract and compare are not.
TEST(CommonSubexpressionTest, MergesCommutativeOpsWithSwappedOperands) {
  std::unique_ptr<shlo::Module> module = Parse(R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a1 = stablehlo.add %x, %y : tensor<4xf32>
  %a2 = stablehlo.add %y, %x : tensor<4xf32>
  %m1 = stablehlo.maximum %x, %y : tensor<4xf32>
  %m2 = stablehlo.maximum %y, %x : tensor<4xf32>
  %s1 = stablehlo.subtract %x, %y : tensor<4xf32>
  %s2 = stablehlo.subtract %y, %x : tensor<4xf32>
  return %a1, %a2, %m1, %m2, %s1, %s2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(shlo::IsCommutative(shlo::OpCode::kAdd));
  EXPECT_FALSE(shlo::IsCommutative(shlo::OpCode::kSubtract));
  EXPECT_TRUE(passes::EliminateCommonSubexpressions(*module));
  passes::EliminateDeadCode(*module);
  const std::map<std::string, int> counts = OpCounts(*module);
  EXPECT_EQ(counts.at("stablehlo.add"), 1);
  EXPECT_EQ(counts.at("stablehlo.maximum"), 1);
  EXPECT_EQ(counts.at("stablehlo.subtract"), 2);
}

TEST(DeadCodeTest, KeepsOpsWithEffects) {
  std::unique_ptr<shlo::Module> module = Parse(plugrt::testing::kDeadAddBesideSendProgram);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(passes::EliminateDeadCode(*module));
  EXPECT_EQ(OpCounts(*module).count("stablehlo.add"), 0u);
  EXPECT_EQ(OpCounts(*module).count("stablehlo.send"), 1u);
}

TEST(PassSwitchesTest, ParsesAndNamesMistakes) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(passes::PassSwitches switches,
                              passes::ParsePassSwitches(" cse=off, algebraic-simplification = on",
                                                        "test"));
  EXPECT_EQ(switches[passes::BuiltinPass::common_subexpression_elimination], PLUGRT_PassSwitch_OFF);
  EXPECT_EQ(switches[passes::BuiltinPass::algebraic_simplification], PLUGRT_PassSwitch_ON);
  EXPECT_EQ(switches[passes::BuiltinPass::dead_code_elimination], PLUGRT_PassSwitch_DEFAULT);
  StatusOr<passes::PassSwitches> bad = passes::ParsePassSwitches("cse=maybe", "PLUGRT_PASSES");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("PLUGRT_PASSES: pass 'cse' set to 'maybe'"),
            std::string::npos)
      << bad.status().ToString();
  bad = passes::ParsePassSwitches("fold=off", "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no built-in pass 'fold'; the passes are: "
                                        "algebraic-simplification, cse,"),
            std::string::npos)
      << bad.status().ToString();
}

TEST(PassSwitchesTest, OffWinsAndConflictsWithTheUserAreReported) {
  passes::PassSwitches plugin_a, plugin_b, user;
  plugin_a[passes::BuiltinPass::common_subexpression_elimination] = PLUGRT_PassSwitch_ON;
  plugin_b[passes::BuiltinPass::common_subexpression_elimination] = PLUGRT_PassSwitch_OFF;
  plugin_a[passes::BuiltinPass::constant_folding] = PLUGRT_PassSwitch_ON;
  user[passes::BuiltinPass::constant_folding] = PLUGRT_PassSwitch_OFF;
  passes::PassConfig config = passes::MergePassSwitches(
      {{"optimizer 'a'", plugin_a, false}, {"optimizer 'b'", plugin_b, false}, {"the user", user, true}});
  EXPECT_FALSE(config.on(passes::BuiltinPass::common_subexpression_elimination));
  EXPECT_FALSE(config.on(passes::BuiltinPass::constant_folding));
  EXPECT_TRUE(config.on(passes::BuiltinPass::dead_code_elimination));
  // Two plugins disagreeing is the rule at work; the user's off against a
  // plugin's on is worth a warning naming both.
  ASSERT_EQ(config.warnings.size(), 1u);
  EXPECT_EQ(config.warnings[0], "pass constant-folding: optimizer 'a' turns it on, the user turns "
                                "it off; off wins");
}

TEST(CompileOptionsTest, EnvOptionOverridesRoundTripInKeyOrder) {
  CompileOptions a, b;
  a.env_option_overrides["plugrt_passes"] = std::string("cse=off");
  a.env_option_overrides["other_flag"] = true;
  a.env_option_overrides["other_int"] = int64_t{7};
  a.env_option_overrides["other_real"] = 0.5;
  b.env_option_overrides["other_real"] = 0.5;
  b.env_option_overrides["other_int"] = int64_t{7};
  b.env_option_overrides["other_flag"] = true;
  b.env_option_overrides["plugrt_passes"] = std::string("cse=off");
  const std::string bytes = EncodeCompileOptions(a);
  EXPECT_EQ(bytes, EncodeCompileOptions(b));
  PLUGRT_ASSERT_OK_AND_ASSIGN(CompileOptions decoded, DecodeCompileOptions(bytes));
  EXPECT_EQ(decoded.env_option_overrides, a.env_option_overrides);
}

using plugrt::testing::TempDir;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<float> RunIdentities(const Client& client, const CompileOptions& options,
                                 const std::vector<float>& x) {
  StatusOr<LoadedExecutable> executable = client.Compile(kIdentities, options);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  if (!executable.ok()) return {};
  StatusOr<std::vector<Device>> devices = client.addressable_devices();
  Buffer xb = Upload<float>(client, (*devices)[0], PJRT_Buffer_Type_F32, {2, 3}, x);
  Buffer ib = Upload<int32_t>(client, (*devices)[0], PJRT_Buffer_Type_S32, {2, 3},
                              {1, -2, 3, -4, 5, -6});
  StatusOr<std::vector<std::vector<Buffer>>> results = executable->Execute({{&xb, &ib}});
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  std::vector<float> out;
  for (int r : {0, 1, 3}) {
    StatusOr<std::vector<std::byte>> bytes = (*results)[0][r].ToHostVector();
    EXPECT_TRUE(bytes.ok());
    std::vector<float> values(bytes->size() / sizeof(float));
    std::memcpy(values.data(), bytes->data(), bytes->size());
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

TEST(CompilePipelineTest, SameBitsWithPassesOnAndOffAndAReportNamingEachPass) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, {}));
  const std::vector<float> x = {-0.0f, 0.0f, 1.5f, -2.25f, std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::quiet_NaN()};
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  CompileOptions on;
  on.env_option_overrides[kDumpToOverride] = dir.path();
  on.env_option_overrides[kPrintAfterOverride] = std::string("cse,dead-code-elimination");
  const std::vector<float> with = RunIdentities(*client, on, x);
  CompileOptions off;
  off.env_option_overrides[kPassesOverride] =
      std::string("algebraic-simplification=off,cse=off,dead-code-elimination=off,"
                  "constant-folding=off,elementwise-fusion=off,in-place-reuse=off");
  const std::vector<float> without = RunIdentities(*client, off, x);
  ASSERT_EQ(with.size(), without.size());
  ASSERT_EQ(with.size(), 18u);
  EXPECT_EQ(std::memcmp(with.data(), without.data(), with.size() * sizeof(float)), 0);
  EXPECT_TRUE(std::signbit(with[0]));   // -0.0 passes through the identities
  EXPECT_FALSE(std::signbit(with[6]));  // -0.0 + 0.0 is +0.0

  const std::string report = ReadAll(dir.path() + "/passes.txt");
  for (const char* pass : {"read", "lower-sharding", "verify", "lower-chlo",
                           "algebraic-simplification", "cse", "dead-code-elimination", "plan"}) {
    EXPECT_NE(report.find(pass), std::string::npos) << pass << " missing from\n" << report;
  }
  EXPECT_NE(report.find("constant-folding on, elementwise-fusion on, in-place-reuse on"),
            std::string::npos)
      << report;
  const std::string after_dce = ReadAll(dir.path() + "/after.01.dead-code-elimination.mlir");
  ASSERT_FALSE(after_dce.empty());
  EXPECT_EQ(after_dce.find("stablehlo.negate"), std::string::npos) << after_dce;
  EXPECT_TRUE(shlo::ParseModule(after_dce, "after.mlir").ok());
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/after.00.algebraic-simplification.mlir"));
}

TEST(CompilePipelineTest, SwitchedOffPassesAreReportedAndBadSwitchesRefused) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, {}));
  TempDir dir;
  CompileOptions options;
  options.env_option_overrides[kDumpToOverride] = dir.path();
  options.env_option_overrides[kPassesOverride] = std::string("cse=off,elementwise-fusion=off");
  ASSERT_TRUE(client->Compile(kIdentities, options).ok());
  const std::string report = ReadAll(dir.path() + "/passes.txt");
  EXPECT_NE(report.find("skipped: switched off"), std::string::npos) << report;
  EXPECT_NE(report.find("elementwise-fusion off"), std::string::npos) << report;

  CompileOptions bad;
  bad.env_option_overrides[kPassesOverride] = std::string("cse=sometimes");
  StatusOr<LoadedExecutable> refused = client->Compile(kIdentities, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("compile option plugrt_passes: pass 'cse' set to "
                                            "'sometimes'"),
            std::string::npos)
      << refused.status().ToString();
  CompileOptions unknown;
  unknown.env_option_overrides["plugrt_fast_math"] = true;
  refused = client->Compile(kIdentities, unknown);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("no option 'plugrt_fast_math'"), std::string::npos);
  // Other backends' options are not ours to judge.
  CompileOptions foreign;
  foreign.env_option_overrides["xla_cpu_enable_fast_math"] = false;
  EXPECT_TRUE(client->Compile(kIdentities, foreign).ok());
}

TEST(CompilePipelineTest, UserSwitchesFromTheCreateOption) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions client_options;
  client_options.create_options.push_back({"passes", std::string("dead-code-elimination=off")});
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, client_options));
  TempDir dir;
  CompileOptions options;
  options.env_option_overrides[kDumpToOverride] = dir.path();
  ASSERT_TRUE(client->Compile(kIdentities, options).ok());
  const std::string report = ReadAll(dir.path() + "/passes.txt");
  EXPECT_NE(report.find("dead-code-elimination"), std::string::npos);
  EXPECT_NE(report.find("skipped: switched off"), std::string::npos) << report;

  ClientOptions bad;
  bad.create_options.push_back({"passes", std::string("dce=off")});
  StatusOr<std::unique_ptr<Client>> refused = Client::Create(plugin, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("no built-in pass 'dce'"), std::string::npos)
      << refused.status().ToString();
}

TEST(CompilePipelineTest, CliShowsPassesAndModulesAfterThem) {
  TempDir dir;
  const std::string program = dir.path() + "/identities.mlir";
  std::ofstream(program) << kIdentities;
  testing::CommandResult result = testing::RunCli(
      "compile " + program + " -o " + dir.path() + "/out.bin --passes --print-after cse "
      "--pass algebraic-simplification=off");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("// ----- module after cse -----"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("stablehlo.negate"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("algebraic-simplification     built-in     skipped: switched off"),
            std::string::npos)
      << result.output;
  result = testing::RunCli("compile " + program + " -o " + dir.path() + "/out.bin --pass cse=no");
  EXPECT_TRUE(testing::FailedWith(result, 1, "pass 'cse' set to 'no'")) << result.output;
}

}  // namespace
}  // namespace plugrt
