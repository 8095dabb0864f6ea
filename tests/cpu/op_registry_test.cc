// The op registry: every op of the table in stablehlo/op_code.h has an entry
// in every stage (verifier check, executor compile function, cost rule,
// fusion kernel), or is on an allow-list below that says why not; and the
// conformance harness's ops compile only where the harness is enabled.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "client/client.h"
#include "client/executable.h"
#include "cpu/exec/fusion.h"
#include "cpu/exec/op_registry.h"
#include "cpu/exec/program.h"
#include "cpu/exec/constant_folding.h"
#include "compiler/passes/dead_code.h"
#include "kernels_abi/custom_call_targets.h"
#include "stablehlo/check_targets.h"
#include "kernels_abi/lapack_targets.h"
#include "compiler/passes/cost_analysis.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/verifier_util.h"
#include "testutil/plugin_env.h"
#include "testutil/programs.h"

namespace plugrt::cpu {
namespace {

using shlo::OpCode;
using ::testing::HasSubstr;

std::vector<OpCode> AllOps() {
  std::vector<OpCode> codes;
  for (size_t i = 1; i < shlo::kNumOpCodes; ++i) codes.push_back(static_cast<OpCode>(i));
  return codes;
}

std::string Name(OpCode code) { return std::string(shlo::OpCodeName(code)); }

// Ops without a check in the verifier's CheckTable, and why.
const std::map<OpCode, std::string>& NoVerifierCheck() {
  static const std::map<OpCode, std::string> list = {
      {OpCode::kReturn, "terminators: the region and function rules check them"},
      {OpCode::kFuncReturn, "terminators: the region and function rules check them"},
      {OpCode::kFuncCall, "needs the module: ModuleVerifier::VerifyCall checks the callee"},
      {OpCode::kCrossReplicaSum, "legacy op outside the StableHLO spec (no rules to check)"},
      {OpCode::kCollectiveReduce, "an interpreter-corpus op outside the StableHLO spec"},
      {OpCode::kUniformQuantize, "always quantized: verifier_quantized.cc checks it"},
      {OpCode::kUniformDequantize, "always quantized: verifier_quantized.cc checks it"},
      {OpCode::kInterpreterProbe, "harness op: its compile function checks it"},
      {OpCode::kInterpreterRunParallel, "harness op: its compile function checks it"},
  };
  return list;
}

// Ops the executor never compiles as a step, and why.
const std::map<OpCode, std::string>& NotCompiled() {
  static const std::map<OpCode, std::string> list = {
      {OpCode::kReturn, "a block's terminator: the interpreter reads it itself"},
      {OpCode::kFuncReturn, "a block's terminator: the interpreter reads it itself"},
  };
  return list;
}

// Only the conformance harness provides these (see op_registry.h).
bool HarnessOnly(OpCode code) {
  const shlo::OpGroup group = shlo::TraitsOf(code).group;
  return group == shlo::OpGroup::kHarness || group == shlo::OpGroup::kFeed;
}

TEST(OpRegistryTest, NamesAndCodesRoundTrip) {
  std::set<std::string> names;
  for (OpCode code : AllOps()) {
    const std::string name = Name(code);
    EXPECT_FALSE(name.empty()) << static_cast<int>(code);
    EXPECT_TRUE(names.insert(name).second) << name << " is listed twice";
    EXPECT_EQ(shlo::LookupOpCode(name), code) << name;
  }
  EXPECT_EQ(shlo::LookupOpCode("chlo.lgamma"), OpCode::kUnknown);
}

TEST(OpRegistryTest, EveryOpHasAVerifierCheckOrAReason) {
  const shlo::verify::CheckTable& checks = shlo::verify::RegisteredChecks();
  for (OpCode code : AllOps()) {
    const bool listed = NoVerifierCheck().count(code) > 0;
    EXPECT_NE(checks.Get(code) != nullptr, listed)
        << Name(code) << (listed ? " has a check but is on the allow-list"
                                 : " has no verifier check (register one in verifier_*.cc)");
  }
}

TEST(OpRegistryTest, EveryOpHasACompileFunctionOrAReason) {
  const OpRegistry& programs = OpRegistry::Programs();
  const OpRegistry& harness = OpRegistry::ConformanceHarness();
  for (OpCode code : AllOps()) {
    if (NotCompiled().count(code) > 0) {
      EXPECT_EQ(harness.Find(code), nullptr) << Name(code) << " is on the allow-list";
      continue;
    }
    EXPECT_NE(harness.Find(code), nullptr)
        << Name(code) << " has no compile function (register one in its group's file)";
    if (HarnessOnly(code)) {
      EXPECT_EQ(programs.Find(code), nullptr) << Name(code) << " is a harness op";
    } else {
      EXPECT_NE(programs.Find(code), nullptr) << Name(code);
      EXPECT_EQ(programs.Find(code), harness.Find(code)) << Name(code);
    }
  }
}

TEST(OpRegistryTest, CustomCallTargetsAreRegisteredByName) {
  const auto& programs = OpRegistry::Programs().custom_calls();
  const auto& harness = OpRegistry::ConformanceHarness().custom_calls();
  for (const kernels_abi::MathTargetInfo& info : kernels_abi::kMathTargets) {
    EXPECT_NE(programs.Find(info.target), nullptr) << info.target;
    EXPECT_EQ(info.target, std::string(kernels_abi::kMathTargetPrefix) + std::string(info.name));
  }
  for (std::string_view target : shlo::kCheckTargets) {
    EXPECT_EQ(programs.Find(target), nullptr) << target;
    EXPECT_NE(harness.Find(target), nullptr) << target;
  }
  // jaxlib's LAPACK targets, FFI and earlier spellings, and the FFT targets
  // refused by name (src/cpu/custom_calls/lapack_custom_calls.cc).
  size_t lapack = std::size(kernels_abi::kDuccFftTargets);
  for (const kernels_abi::LapackFamilyInfo& info : kernels_abi::kLapackFamilies) {
    for (char letter : kernels_abi::kLapackTypeLetters) {
      EXPECT_NE(programs.Find(kernels_abi::LapackFfiTarget(info, letter)), nullptr)
          << kernels_abi::LapackFfiTarget(info, letter);
      ++lapack;
      if (std::optional<std::string> legacy = kernels_abi::LapackLegacyTarget(info, letter)) {
        EXPECT_NE(programs.Find(*legacy), nullptr) << *legacy;
        ++lapack;
      }
    }
  }
  // The quantized lowering's integer dot (compute_ops_linear.cc).
  EXPECT_NE(programs.Find(kernels_abi::kQuantizedDotTarget), nullptr);
  EXPECT_EQ(programs.Names().size(), std::size(kernels_abi::kMathTargets) + lapack + 1);
}

// A kFormula op without a formula in cost_analysis.cc answers INTERNAL "no
// formula"; an op that has one fails on its missing operands instead.
TEST(OpRegistryTest, EveryFormulaOpHasACostFormula) {
  for (OpCode code : AllOps()) {
    if (shlo::TraitsOf(code).cost != shlo::OpCost::kFormula) continue;
    const std::string text =
        "func.func @main() {\n  \"" + Name(code) + "\"() : () -> ()\n  return\n}\n";
    StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "cost.mlir");
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    StatusOr<shlo::CostEstimate> cost = shlo::EstimateCost(**module);
    if (!cost.ok()) {
      EXPECT_THAT(std::string(cost.status().message()), ::testing::Not(HasSubstr("no formula")))
          << Name(code);
    }
  }
}

TEST(OpRegistryTest, FusionKindsHaveKernelsAndEffectsAreConsistent) {
  for (OpCode code : AllOps()) {
    const shlo::OpTraits& traits = shlo::TraitsOf(code);
    switch (traits.fusion) {
      case shlo::OpFusion::kUnary:
      case shlo::OpFusion::kBinary:
      case shlo::OpFusion::kLogic:
        EXPECT_TRUE(FusedElementwiseOp(code).has_value()) << Name(code);
        [[fallthrough]];
      case shlo::OpFusion::kCompare:
      case shlo::OpFusion::kSelect:
      case shlo::OpFusion::kClamp:
      case shlo::OpFusion::kConvert:
        EXPECT_TRUE(shlo::IsElementwise(code)) << Name(code);
        [[fallthrough]];
      case shlo::OpFusion::kBroadcast:
      case shlo::OpFusion::kRowReduce:
        EXPECT_EQ(traits.effect, shlo::OpEffect::kNone) << Name(code);
        break;
      case shlo::OpFusion::kNone:
        EXPECT_FALSE(FusedElementwiseOp(code).has_value()) << Name(code);
        break;
    }
    // Ops that talk to the world are never dropped or folded.
    switch (traits.group) {
      case shlo::OpGroup::kCollective:
      case shlo::OpGroup::kCustomCall:
      case shlo::OpGroup::kFeed:
      case shlo::OpGroup::kHostTransfer:
      case shlo::OpGroup::kHarness:
        EXPECT_TRUE(traits.effect == shlo::OpEffect::kIO ||
                    traits.effect == shlo::OpEffect::kNested)
            << Name(code);
        EXPECT_FALSE(shlo::MayRemove(code)) << Name(code);
        EXPECT_FALSE(shlo::MayFold(code)) << Name(code);
        break;
      case shlo::OpGroup::kControl:
      case shlo::OpGroup::kElementwise:
      case shlo::OpGroup::kDataMovement:
      case shlo::OpGroup::kCompute:
        break;
    }
  }
}

// A new side-effecting op must not be dropped as dead code: what is removed
// follows the table, not a default.
TEST(OpRegistryTest, DeadCodeRemovalKeepsOpsWithEffects) {
  StatusOr<std::unique_ptr<shlo::Module>> module =
      shlo::ParseModule(plugrt::testing::kDeadAddBesideSendProgram, "dce.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Block& block = (*module)->functions[0]->body->front();
  const std::unordered_set<const shlo::Operation*> dead = passes::DeadOps(block);
  std::set<std::string> dropped;
  for (const shlo::Operation* op : dead) dropped.insert(op->name);
  EXPECT_EQ(dropped, (std::set<std::string>{"stablehlo.add"}));
}

constexpr const char* kCheckingProgram = R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %x, dense<[1, 2]> : tensor<2xi32>
  return %x : tensor<2xi32>
}
)";

constexpr const char* kCustomCallCheck = R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return %x : tensor<2xi32>
}
)";

StatusOr<std::shared_ptr<const Program>> CompileText(const char* text, bool harness) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::ParseModule(text, "h.mlir"));
  return Program::Compile(std::shared_ptr<const shlo::Module>(std::move(module)),
                          {.conformance_harness = harness});
}

TEST(OpRegistryTest, HarnessOpsCompileOnlyWithTheHarness) {
  for (const char* text : {kCheckingProgram, kCustomCallCheck}) {
    StatusOr<std::shared_ptr<const Program>> plain = CompileText(text, /*harness=*/false);
    ASSERT_FALSE(plain.ok());
    EXPECT_EQ(plain.status().code(), StatusCode::kUnimplemented);
    EXPECT_THAT(std::string(plain.status().message()), HasSubstr("check.expect_eq"));
    EXPECT_THAT(std::string(plain.status().message()), HasSubstr("conformance test harness"));

    StatusOr<std::shared_ptr<const Program>> harness =
        CompileText(text, /*harness=*/true);
    ASSERT_TRUE(harness.ok()) << harness.status().ToString();
    ExecContext context;
    EXPECT_TRUE((*harness)->Run({}, context).ok());
  }
}

StatusOr<std::unique_ptr<Client>> ClientWith(std::vector<NamedValue> create_options) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  ClientOptions options;
  options.create_options = std::move(create_options);
  return Client::Create(plugin, options);
}

TEST(OpRegistryTest, ThePluginEnablesTheHarnessByCreateOption) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<NamedValue> attributes, plugin->attributes());
  const NamedValue* announced = FindNamedValue(attributes, "conformance_harness");
  ASSERT_NE(announced, nullptr);
  EXPECT_EQ(std::get<bool>(announced->value), true);

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> plain, ClientWith({}));
  StatusOr<LoadedExecutable> rejected = plain->Compile(kCheckingProgram);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(rejected.status().message()), HasSubstr("check.expect_eq_const"));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> harness,
                              ClientWith({NamedValue{"conformance_harness", true}}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, harness->Compile(kCheckingProgram));
  PLUGRT_EXPECT_OK(executable.Execute({}).status());

  StatusOr<std::unique_ptr<Client>> wrong_type =
      ClientWith({NamedValue{"conformance_harness", int64_t{1}}});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(wrong_type.status().message()), HasSubstr("conformance_harness"));
}

}  // namespace
}  // namespace plugrt::cpu
