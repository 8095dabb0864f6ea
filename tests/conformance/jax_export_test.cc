// Programs shaped as jax.export writes them (tests/conformance/jax_export/): Shardy and
// GSPMD sharding wrappers, JAX's argument and result attributes, a
// composite, private helpers called with func.call, locations after the
// module. On one device they run with the shardings as identities; a
// sharding that splits a value over several partitions is UNIMPLEMENTED.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "compiler/passes/lower_sharding.h"
#include "stablehlo/verifier.h"
#include "testutil/corpus.h"
#include "testutil/run_command.h"
#include "client/npy.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

namespace fs = std::filesystem;
using plugrt::HostArray;

const fs::path kPrograms = fs::path(PLUGRT_TEST_SOURCE_DIR) / "tests" / "conformance" / "jax_export";

HostArray Floats(std::vector<int64_t> dims, const std::vector<float>& values) {
  HostArray array{PJRT_Buffer_Type_F32, std::move(dims), {}};
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

std::vector<float> ValuesOf(const HostArray& array) {
  std::vector<float> out(array.data.size() / sizeof(float));
  std::memcpy(out.data(), array.data.data(), array.data.size());
  return out;
}

struct Fixture {
  plugrt::testing::TempDir temp_dir;
  fs::path dir = temp_dir.path();
  std::vector<float> x = {0, 1, 2, 3, -1, -2, 0.5f, -0.5f};
  std::vector<float> y = {1, 1, 1, 1, 0, 0, 0, 0};

  explicit Fixture(const std::string& name) : temp_dir("jax-export-" + name) {
    EXPECT_TRUE(WriteNpyFile((dir / "x.npy").string(), Floats({2, 4}, x)).ok());
    EXPECT_TRUE(WriteNpyFile((dir / "y.npy").string(), Floats({2, 4}, y)).ok());
  }
  // `program` with each `from` replaced by `to`, written to the fixture.
  std::string Variant(const std::string& program, const std::vector<std::pair<std::string, std::string>>& edits) {
    std::string text = testutil::ReadFile(kPrograms / program);
    for (const auto& [from, to] : edits) {
      size_t at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    const fs::path path = dir / program;
    std::ofstream(path) << text;
    return path.string();
  }
  CommandResult Run(const std::string& program, const std::string& extra = "") {
    return RunCli("run " + program + " -i " + (dir / "x.npy").string() + " -i " +
                  (dir / "y.npy").string() + " -o " + (dir / "out").string() + " " + extra);
  }
};

// GELU's tanh approximation, which the program's composite decomposes.
double GeluTanh(double z) {
  return 0.5 * z * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (z + 0.044715 * z * z * z)));
}

// The float values of output `index` of the fixture's last run (none when
// it cannot be read).
std::vector<float> OutputValues(const Fixture& f, int index) {
  auto out = ReadNpyFile((f.dir / "out" / ("out" + std::to_string(index) + ".npy")).string());
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? ValuesOf(*out) : std::vector<float>{};
}

void ExpectShardyJitResults(const Fixture& f) {
  std::vector<float> r0 = OutputValues(f, 0), r1 = OutputValues(f, 1);
  ASSERT_EQ(r0.size(), 8u);
  ASSERT_EQ(r1.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(r0[i], GeluTanh(2.0 * f.x[i] + f.y[i]), 2e-6) << i;
    EXPECT_EQ(r1[i], f.x[i] * f.x[i]) << i;
  }
}

TEST(JaxExport, ShardyJitRunsOnOneDevice) {
  Fixture f("one");
  CommandResult result = f.Run((kPrograms / "shardy_jit.mlir").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  ExpectShardyJitResults(f);
}

// Shardy's round-trip form, which XLA and older JAX write when sdy ops
// travel as plain StableHLO: custom calls mark results, manual-computation
// bounds and sharding groups, with the shardings in frontend attributes.
TEST(JaxExport, ShardyRoundTripCustomCallsRunOnOneDevice) {
  Fixture f("round-trip");
  std::string program = f.Variant(
      "shardy_jit.mlir",
      {{"@annotate_device_placement(%9) {has_side_effect = true, mhlo.frontend_attributes = "
        "{_xla_buffer_placement = \"device\"}}",
        "@xla.sdy.FuncResultSharding(%9) {has_side_effect = true, mhlo.frontend_attributes = "
        "{xla.sdy.sharding = \"#sdy.sharding_per_value<[<@mesh, [{\\22data\\22}, {}]>]>\"}}"},
       {"@SPMDFullToShardShape(%3)", "@xla.sdy.GlobalToLocalShape(%3)"},
       {"@SPMDShardToFullShape(%4)", "@xla.sdy.LocalToGlobalShape(%4)"},
       {"sdy.sharding_group %8 group_id=0 : tensor<2x4xf32>",
        "stablehlo.custom_call @xla.sdy.ShardingGroup(%8) {has_side_effect = true, "
        "mhlo.frontend_attributes = {xla.sdy.sharding_group_id = \"0 : i64\"}} : "
        "(tensor<2x4xf32>) -> ()"}});
  CommandResult result = f.Run(program);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  ExpectShardyJitResults(f);
}

// An older export's tuple signature runs with its leaves as the arguments
// and results, as XLA flattens them.
TEST(JaxExport, TupleSignatureRunsOnItsLeaves) {
  Fixture f("tuples");
  const fs::path program = f.dir / "tuples.mlir";
  std::ofstream(program) << R"mlir(
func.func @main(%arg0: tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>> {
  %0 = mhlo.get_tuple_element %arg0[0] : (tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4xf32>
  %1 = mhlo.get_tuple_element %arg0[1] : (tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4xf32>
  %2 = mhlo.add %0, %1 : tensor<2x4xf32>
  %3 = mhlo.tuple %2, %0 : tuple<tensor<2x4xf32>, tensor<2x4xf32>>
  return %3 : tuple<tensor<2x4xf32>, tensor<2x4xf32>>
}
)mlir";
  CommandResult result = f.Run(program.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::vector<float> r0 = OutputValues(f, 0), r1 = OutputValues(f, 1);
  ASSERT_EQ(r0.size(), 8u);
  ASSERT_EQ(r1.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(r0[i], f.x[i] + f.y[i]) << i;
    EXPECT_EQ(r1[i], f.x[i]) << i;
  }
}

// stablehlo.dynamic_reduce_window, which JAX emitted for TPU only, with a
// variadic body that is not associative and init values that are not its
// identities: plugrt reduces as TPU did (each element combined with the
// init values, then one window dimension at a time, last to first, each
// from the init values), so an export gives the values JAX recorded.
TEST(JaxExport, DynamicReduceWindowFollowsTheTpuSchedule) {
  Fixture f("reduce-window");
  const fs::path program = f.dir / "reduce_window.mlir";
  std::ofstream(program) << R"mlir(
func.func private @reducer(%a: tensor<f32>, %b: tensor<i32>, %x: tensor<f32>, %y: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0 = stablehlo.add %a, %x : tensor<f32>
  %1 = stablehlo.subtract %b, %y : tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xi32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %init_f = stablehlo.constant dense<1.0> : tensor<f32>
  %init_i = stablehlo.constant dense<2> : tensor<i32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %window = stablehlo.concatenate %two, %b1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %ones = stablehlo.constant dense<1> : tensor<2xi32>
  %pad = stablehlo.constant dense<0> : tensor<2x2xi32>
  %r:2 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %y, %init_f, %init_i, %window, %ones, %ones, %ones, %pad) {api_version = 2 : i32, called_computations = [@reducer]} : (tensor<?x4xf32>, tensor<?x4xi32>, tensor<f32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
  return %r#0, %r#1 : tensor<?x?xf32>, tensor<?x?xi32>
}
)mlir";
  std::vector<float> x(12);
  std::vector<int32_t> y(12);
  for (int i = 0; i < 12; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 100 + i;
  }
  HostArray ys{PJRT_Buffer_Type_S32, {3, 4}, {}};
  ys.data.resize(y.size() * sizeof(int32_t));
  std::memcpy(ys.data.data(), y.data(), ys.data.size());
  ASSERT_TRUE(WriteNpyFile((f.dir / "x34.npy").string(), Floats({3, 4}, x)).ok());
  ASSERT_TRUE(WriteNpyFile((f.dir / "y34.npy").string(), ys).ok());
  CommandResult result = RunCli("run " + program.string() + " -i " + (f.dir / "x34.npy").string() +
                                " -i " + (f.dir / "y34.npy").string() + " -o " +
                                (f.dir / "out").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(OutputValues(f, 0), (std::vector<float>{27, 33, 51, 57}));
  auto out1 = ReadNpyFile((f.dir / "out" / "out1.npy").string());
  ASSERT_TRUE(out1.ok());
  std::vector<int32_t> got(4);
  ASSERT_EQ(out1->data.size(), got.size() * sizeof(int32_t));
  std::memcpy(got.data(), out1->data.data(), out1->data.size());
  EXPECT_EQ(got, (std::vector<int32_t>{-608, -614, -632, -638}));
}

TEST(JaxExport, ReplicatedShardingsRunOnEveryPartition) {
  // Two partitions over a mesh of size 1: every value is whole on each.
  Fixture f("replicated");
  std::string program = f.Variant(
      "shardy_jit.mlir", {{"mhlo.num_partitions = 1 : i32", "mhlo.num_partitions = 2 : i32"}});
  CommandResult result = f.Run(program, "--devices 2");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("output 0 (device 1)"), std::string::npos) << result.output;
}

TEST(JaxExport, SplitShardingsOnSeveralPartitionsAreUnimplemented) {
  Fixture f("split");
  std::string sdy = f.Variant("shardy_jit.mlir",
                              {{"mhlo.num_partitions = 1 : i32", "mhlo.num_partitions = 2 : i32"},
                               {"\"data\"=1", "\"data\"=2"}});
  CommandResult result = f.Run(sdy, "--devices 2");
  EXPECT_TRUE(FailedWith(result, 1, "UNIMPLEMENTED"));
  EXPECT_NE(result.output.find("@main argument 0: sdy.sharding = #sdy.sharding<@mesh, "
                               "[{\"data\"}, {}]> splits the value over 2 partitions"),
            std::string::npos)
      << result.output;
  // GSPMD's spelling, on a custom call that carries the op's user location.
  std::string gspmd = f.Variant(
      "shardy_jit.mlir",
      {{"mhlo.num_partitions = 1 : i32", "mhlo.num_partitions = 2 : i32"},
       {"sdy.sharding = #sdy.sharding<@mesh, [{\"data\"}, {}]>} loc(\"x\")", "mhlo.sharding = \"{replicated}\"} loc(\"x\")"},
       {"{mhlo.sharding = \"{devices=[1,1]<=[1]}\"}", "{mhlo.sharding = \"{devices=[2,1]<=[2]}\"}"}});
  result = f.Run(gspmd, "--devices 2");
  EXPECT_TRUE(FailedWith(result, 1, "UNIMPLEMENTED"));
  EXPECT_NE(result.output.find("(jit(f)/jit(main)/shard_map at /home/user/model.py:21:8 in f, "
                               "called from /home/user/model.py:30:2 in <module>): "
                               "stablehlo.custom_call: mhlo.sharding = \"{devices=[2,1]<=[2]}\" "
                               "splits the value over 2 partitions"),
            std::string::npos)
      << result.output;
}

TEST(JaxExport, ShardShapedBodiesAreUnimplementedOnOneDevice) {
  Fixture f("manual");
  // A shard_map body written on half of each value (a 2-way split).
  std::string program = f.Variant(
      "shardy_jit.mlir", {{"(%arg2: tensor<2x4xf32> loc(\"x\"))", "(%arg2: tensor<1x4xf32> loc(\"x\"))"}});
  CommandResult result = f.Run(program);
  EXPECT_TRUE(FailedWith(result, 1, "sdy.manual_computation: the body works on per-device shards "
                                    "(tensor<1x4xf32> of tensor<2x4xf32>)"));
}

TEST(JaxExport, ExplicitLayoutsMustBeRowMajor) {
  Fixture f("layout");
  std::string program =
      f.Variant("shardy_jit.mlir", {{"mhlo.layout_mode = \"{1,0}\"", "mhlo.layout_mode = \"{0,1}\""}});
  CommandResult result = f.Run(program);
  EXPECT_TRUE(FailedWith(result, 1, "@main argument 1: mhlo.layout_mode \"{0,1}\""));
}

TEST(JaxExport, ShardyProgramPrintsAndParsesBack) {
  // The printed form keeps the mesh and the sdy ops (generic form), so a
  // printed program lowers as the original does.
  const std::string text = testutil::ReadFile(kPrograms / "shardy_jit.mlir");
  auto module = shlo::ParseModule(text, "shardy_jit.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_EQ((*module)->meshes.size(), 1u);
  const std::string printed = shlo::PrintModule(**module);
  auto reparsed = shlo::ParseModule(printed, "printed.mlir");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().ToString() << "\n" << printed;
  EXPECT_EQ(shlo::PrintModule(**reparsed), printed);
  ASSERT_TRUE(shlo::LowerShardingOps(**reparsed, 1).ok());
  const std::string lowered = shlo::PrintModule(**reparsed);
  EXPECT_EQ(lowered.find("\"sdy."), std::string::npos) << lowered;  // no sdy op
  EXPECT_EQ(lowered.find("@Sharding"), std::string::npos) << lowered;
  EXPECT_TRUE(shlo::VerifyModule(**reparsed).ok());
}

TEST(JaxExport, HloShardingStrings) {
  using shlo::ClassifyHloSharding;
  using shlo::HloShardingKind;
  EXPECT_EQ(ClassifyHloSharding("{replicated}"), HloShardingKind::kReplicated);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,1]0}"), HloShardingKind::kReplicated);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,1,4]<=[4] last_tile_dim_replicate}"),
            HloShardingKind::kReplicated);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,1,2]<=[2] last_tile_dims={manual}}"),
            HloShardingKind::kManual);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,2,2]<=[4] last_tile_dims={manual}}"),
            HloShardingKind::kSplit);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}"),
            HloShardingKind::kManual);
  EXPECT_EQ(ClassifyHloSharding("{devices=[2,1]0,1}"), HloShardingKind::kSplit);
  EXPECT_EQ(ClassifyHloSharding("{devices=[1,2,2]<=[4] last_tile_dim_replicate}"),
            HloShardingKind::kSplit);
  EXPECT_EQ(ClassifyHloSharding("{maximal device=1}"), HloShardingKind::kSplit);
  EXPECT_EQ(ClassifyHloSharding("{manual}"), HloShardingKind::kManual);
  EXPECT_EQ(ClassifyHloSharding("{{replicated}, {devices=[4]<=[4]}}"), HloShardingKind::kSplit);
}

}  // namespace
}  // namespace plugrt::testing
