// XLA's HLO text (src/compiler/importers/hlo/hlo_text_*): programs written
// here as XLA's dumps and tests write them are told from their content,
// read into IR that verifies, compiled by the CPU plugin and run with the
// right numbers. Constants left out of the file are refused unless a fill is
// asked for; malformed text is INVALID_ARGUMENT naming file:line:col.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "compiler/hlo_proto_builder.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/hlo/hlo_text_writer.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/importers/read_program.h"
#include "stablehlo/printer.h"
#include "stablehlo/source_location.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/status_matchers.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CreateCpuClient;

using Args = std::vector<std::pair<std::vector<int64_t>, std::vector<float>>>;

StatusOr<std::unique_ptr<shlo::Module>> Read(const std::string& text,
                                             const shlo::ReadOptions& options = {}) {
  return shlo::ReadProgram(text, "test.hlo", options);
}

// Compiles `text` (format "mlir": the form is told from the content) on one
// CPU device and runs it on f32 arguments.
std::vector<std::vector<float>> RunText(const std::string& text, const Args& args) {
  return hlo_test::RunF32(text, args, "mlir");
}

// A module as TensorFlow's XLA bridge dumps it: layouts on every shape,
// metadata, a reduction computation named before ENTRY, a comment in the
// entry layout.
const char kMeanOfRows[] = R"(HloModule cluster_mean.9, alias_passthrough_params=true, entry_computation_layout={(f32[2,3]{1,0}, /*index=1*/f32[3]{0})->f32[2]{0}}

%sum-reduction.1 (x.1: f32[], y.1: f32[]) -> f32[] {
  %x.1 = f32[] parameter(0)
  %y.1 = f32[] parameter(1)
  ROOT %add.1 = f32[] add(f32[] %x.1, f32[] %y.1)
}

ENTRY %cluster_mean.9 (arg0.1: f32[2,3], arg1.2: f32[3]) -> f32[2] {
  %arg0.1 = f32[2,3]{1,0} parameter(0), parameter_replication={false}, metadata={op_name="XLA_Args"}
  %arg1.2 = f32[3]{0} parameter(1), metadata={op_name="XLA_Args"}
  %bias.3 = f32[2,3]{1,0} broadcast(f32[3]{0} %arg1.2), dimensions={1}, metadata={op_type="BiasAdd" op_name="dense/BiasAdd" source_file="model.py" source_line=12}
  %sum.4 = f32[2,3]{1,0} add(%arg0.1, %bias.3)
  %zero.5 = f32[] constant(0)
  %rows.6 = f32[2]{0} reduce(%sum.4, %zero.5), dimensions={1}, to_apply=%sum-reduction.1
  %three.7 = f32[] constant(3)
  %count.8 = f32[2]{0} broadcast(%three.7), dimensions={}
  ROOT %mean.9 = f32[2]{0} divide(%rows.6, %count.8), metadata={op_type="Mean" op_name="Mean"}
}
)";

TEST(HloText, IsToldFromItsContentAndRuns) {
  EXPECT_TRUE(shlo::IsHloText(kMeanOfRows));
  EXPECT_TRUE(shlo::IsHloText("  // a comment\n/* and another */ HloModule m"));
  EXPECT_FALSE(shlo::IsHloText("module { func.func @main() { return } }"));
  EXPECT_FALSE(shlo::IsHloText("HloModuleX"));
  StatusOr<std::unique_ptr<shlo::Module>> module = Read(kMeanOfRows);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  const shlo::Function* main = (*module)->EntryFunction();
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->name, "main");
  EXPECT_EQ(main->input_types.size(), 2u);
  // Metadata becomes the ops' locations: instruction name, op_name, file:line.
  std::string locations;
  for (const auto& op : main->body->blocks[0]->operations) {
    if (op->location.source) locations += op->location.source->ToMlir() + "\n";
  }
  EXPECT_THAT(locations, HasSubstr("\"model.py\":12"));
  EXPECT_THAT(locations, HasSubstr("dense/BiasAdd"));

  auto out = RunText(kMeanOfRows, {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{3}, {1, 1, 1}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(3.0f, 6.0f));
}

TEST(HloText, InstructionsMayBeNamedBeforeTheirLineAndWithoutPercent) {
  // No ENTRY mark (the last computation is the entry), no ROOT mark (the
  // last instruction is the root), operands used before their line.
  const char text[] = R"(HloModule m
main {
  c = f32[2] multiply(b, b)
  a = f32[2] parameter(0)
  b = f32[2] add(a, a)
  d = f32[2] subtract(c, a)
}
)";
  auto out = RunText(text, {{{2}, {1, 2}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(3.0f, 14.0f));  // (2a)^2 - a
}

TEST(HloText, DotTransposeAndLiterals) {
  // The linear layer as PyTorch/XLA writes it: weights [out, in] transposed
  // into the dot, a nested-brace constant, a bf16 round trip.
  const char text[] = R"(HloModule linear
ENTRY %main (x: f32[2,3]) -> f32[2,2] {
  %x = f32[2,3]{1,0} parameter(0)
  %w = f32[2,3]{1,0} constant({ {1, 0, -1}, {0.5, 0.5, 0.5} })
  %wt = f32[3,2]{0,1} transpose(%w), dimensions={1,0}
  %y = f32[2,2]{1,0} dot(%x, %wt), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={default,default}
  %b = bf16[2]{0} constant({0.5, -inf})
  %bf = f32[2]{0} convert(%b)
  %zero = f32[] constant(0)
  %bb = f32[2,2]{1,0} broadcast(%bf), dimensions={1}
  %sum = f32[2,2]{1,0} add(%y, %bb)
  %z = f32[2,2]{1,0} broadcast(%zero), dimensions={}
  ROOT %r = f32[2,2]{1,0} maximum(%sum, %z)
}
)";
  auto out = RunText(text, {{{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_EQ(out.size(), 1u);
  // x.w^T = [[-2, 3], [-2, 7.5]]; + [0.5, -inf]; relu.
  EXPECT_THAT(out[0], ::testing::ElementsAre(0.0f, 0.0f, 0.0f, 0.0f));
  const char text2[] = R"(HloModule linear2
ENTRY %main (x: f32[2,3]) -> f32[2,2] {
  %x = f32[2,3]{1,0} parameter(0)
  %w = f32[2,3]{1,0} constant({ {1, 0, -1}, {0.5, 0.5, 0.5} })
  ROOT %y = f32[2,2]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
}
)";
  out = RunText(text2, {{{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(-2.0f, 3.0f, -2.0f, 7.5f));
}

TEST(HloText, WhileLoopOverATuple) {
  const char text[] = R"(HloModule loop, entry_computation_layout={(f32[2]{0})->f32[2]{0}}

%cond (p: (s32[], f32[2])) -> pred[] {
  %p = (s32[], f32[2]{0}) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (p: (s32[], f32[2])) -> (s32[], f32[2]) {
  %p = (s32[], f32[2]{0}) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %v = f32[2]{0} get-tuple-element(%p), index=1
  %twice = f32[2]{0} add(%v, %v)
  ROOT %t = (s32[], f32[2]{0}) tuple(%next, %twice)
}

ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[2]{0}) tuple(%zero, %x)
  %w = (s32[], f32[2]{0}) while(%init), condition=%cond, body=%body
  ROOT %r = f32[2]{0} get-tuple-element(%w), index=1
}
)";
  auto out = RunText(text, {{{2}, {1, -0.5}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(8.0f, -4.0f));
}

TEST(HloText, ConvolutionWindowAndDimensionLabels) {
  // NHWC input, HWIO kernel of ones, stride 2, asymmetric padding: what
  // TensorFlow's Conv2D with SAME padding writes.
  const char text[] = R"(HloModule conv
ENTRY %main (x: f32[1,4,4,1]) -> f32[1,2,2,1] {
  %x = f32[1,4,4,1]{3,2,1,0} parameter(0)
  %k = f32[3,3,1,1]{3,2,1,0} constant({ { { {1} }, { {1} }, { {1} } }, { { {1} }, { {1} }, { {1} } }, { { {1} }, { {1} }, { {1} } } })
  ROOT %c = f32[1,2,2,1]{3,2,1,0} convolution(%x, %k), window={size=3x3 stride=2x2 pad=0_1x0_1}, dim_labels=b01f_01io->b01f
}
)";
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  auto out = RunText(text, {{{1, 4, 4, 1}, x}});
  ASSERT_EQ(out.size(), 1u);
  // Windows at rows/cols {0,2}: sums of 3x3 blocks (with zero padding at the
  // far edge).
  EXPECT_THAT(out[0], ::testing::ElementsAre(45.0f, 39.0f, 66.0f, 50.0f));
}

TEST(HloText, GatherSlicePadConcatenateIota) {
  const char text[] = R"(HloModule data_movement
ENTRY %main (table: f32[4,2]) -> f32[10] {
  %table = f32[4,2]{1,0} parameter(0)
  %idx = s32[2]{0} constant({3, 1})
  %rows = f32[2,2]{1,0} gather(%table, %idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
  %flat = f32[4]{0} reshape(%rows)
  %s = f32[2]{0} slice(%flat), slice={[1:4:2]}
  %zero = f32[] constant(0)
  %p = f32[4]{0} pad(%s, %zero), padding=1_0_1
  %io = f32[2]{0} iota(), iota_dimension=0
  %rev = f32[2]{0} reverse(%io), dimensions={0}
  ROOT %cat = f32[10]{0} concatenate(%flat, %p, %rev), dimensions={0}
}
)";
  auto out = RunText(text, {{{4, 2}, {0, 1, 10, 11, 20, 21, 30, 31}}});
  ASSERT_EQ(out.size(), 1u);
  // rows 3 and 1: [30 31 10 11]; slice 1:4:2 -> [31 11]; pad 1 low,
  // interior 1 -> [0 31 0 11]; iota reversed [1 0].
  EXPECT_THAT(out[0], ::testing::ElementsAre(30, 31, 10, 11, 0, 31, 0, 11, 1, 0));
}

TEST(HloText, ElidedConstantsAreRefusedUnlessAFillIsAsked) {
  const char text[] = R"(HloModule weights
ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  %w.7 = f32[2]{0} constant({...}), metadata={op_name="dense/kernel"}
  ROOT %y = f32[2]{0} add(%x, %w.7)
}
)";
  StatusOr<std::unique_ptr<shlo::Module>> refused = Read(text);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("test.hlo:4:"));
  EXPECT_THAT(refused.status().message(), HasSubstr("'w.7' were left out of the file"));
  EXPECT_THAT(refused.status().message(), HasSubstr("--fill-elided"));

  shlo::ReadOptions zeros;
  zeros.elided.mode = shlo::ElidedConstantFill::Mode::kZeros;
  PLUGRT_EXPECT_OK(Read(text, zeros).status());

  // Seeded random values: the same seed gives the same program, another
  // seed another one.
  auto printed = [&](uint64_t seed) {
    shlo::ReadOptions random;
    random.elided.mode = shlo::ElidedConstantFill::Mode::kRandom;
    random.elided.seed = seed;
    StatusOr<std::unique_ptr<shlo::Module>> m = Read(text, random);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? shlo::PrintModule(**m) : std::string();
  };
  EXPECT_EQ(printed(7), printed(7));
  EXPECT_NE(printed(7), printed(8));

  StatusOr<shlo::ElidedConstantFill> parsed = shlo::ElidedConstantFill::Parse("random:42");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->seed, 42u);
  EXPECT_FALSE(shlo::ElidedConstantFill::Parse("ones").ok());
  EXPECT_FALSE(shlo::ElidedConstantFill::Parse("random:-1").ok());
}

TEST(HloText, NonRowMajorEntryLayoutsAreRefused) {
  const char text[] = R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{1,0}}
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  ROOT %x = f32[2,3]{1,0} parameter(0)
}
)";
  StatusOr<std::unique_ptr<shlo::Module>> module = Read(text);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(module.status().message(), HasSubstr("parameter 0 has layout {0,1}"));
  // Layouts of values inside the program (and tiling) are fine.
  const char inner[] = R"(HloModule m
ENTRY %main (x: f32[2,3]) -> f32[2,3] {
  %x = f32[2,3]{1,0:T(8,128)} parameter(0)
  %t = f32[3,2]{0,1} transpose(%x), dimensions={1,0}
  ROOT %back = f32[2,3]{1,0} transpose(%t), dimensions={1,0}
}
)";
  PLUGRT_EXPECT_OK(Read(inner).status());
}

TEST(HloText, ErrorsNameFileLineAndColumn) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] constant(1), colour=red\n}\n",
       "test.hlo:3:32: attribute 'colour' of instruction 'c' (constant) is not known"},
      {"HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] add(%a, %b)\n}\n",
       "test.hlo:3:23: operand 'a' names no instruction"},
      {"HloModule m\nENTRY %main () -> f32[] {\n  %a = f32[] add(%b, %b)\n  ROOT %b = f32[] add(%a, %a)\n}\n",
       "depends on itself"},
      {"HloModule m\nENTRY %main (x: f32[2]) -> f32[] {\n  %x = f32[2] parameter(0)\n"
       "  %z = f32[] constant(0)\n  ROOT %r = f32[] reduce(%x, %z), dimensions={0}, to_apply=%nowhere\n}\n",
       "test.hlo:5:60: computation 'nowhere' is not defined"},
      {"HloModule m\nENTRY %main () -> f32[2] {\n  ROOT %c = f32[2] constant({1, 2, 3})\n}\n",
       "test.hlo:3:29: literal dimension 0 has 3 elements; the shape says 2"},
      {"HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f33[] constant(1)\n}\n",
       "test.hlo:3:13: expected a shape"},
      {"HloModule m\nENTRY %main (x: f32[1,4,4,1], k: f32[1,1,1,1]) -> f32[1,4,4,1] {\n"
       "  %x = f32[1,4,4,1] parameter(0)\n  %k = f32[1,1,1,1] parameter(1)\n"
       "  ROOT %c = f32[1,4,4,1] convolution(%x, %k), window={size=1x1}, dim_labels=b01f_01io->bx1f\n}\n",
       "dim_labels 'b01f_01io->bx1f'"},
      {"HloModule m\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] constant(1)\n",
       "computation 'main' is not closed"},
      {"HloModule m\nENTRY %a () -> f32[] {\n  ROOT %c = f32[] constant(1)\n}\n"
       "ENTRY %b () -> f32[] {\n  ROOT %c = f32[] constant(1)\n}\n",
       "a second ENTRY computation ('b')"},
      {"HloModule m\n", "the HLO module has no computations"},
  };
  for (const Case& c : cases) {
    StatusOr<std::unique_ptr<shlo::Module>> module = Read(c.text);
    ASSERT_FALSE(module.ok()) << c.text;
    EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument) << c.text;
    EXPECT_THAT(module.status().message(), HasSubstr(c.message)) << c.text;
  }
}

TEST(HloText, DamagedTextNeverCrashes) {
  // Every prefix of a real module, and the module with single bytes
  // replaced: each is read or refused with an error.
  const std::string text = kMeanOfRows;
  for (size_t n = 0; n < text.size(); n += 7) {
    StatusOr<std::unique_ptr<shlo::Module>> module = Read(text.substr(0, n));
    if (module.ok()) PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  }
  const char replacements[] = {'{', '}', '(', ')', ',', '=', '%', '0', '"', ' ', 'x'};
  for (size_t i = 0; i < text.size(); i += 5) {
    std::string damaged = text;
    damaged[i] = replacements[i % sizeof(replacements)];
    StatusOr<std::unique_ptr<shlo::Module>> module = Read(damaged);
    if (module.ok()) (void)shlo::VerifyModule(**module);
  }
}

TEST(HloText, EntryShardingsBecomeArgumentAndResultShardings) {
  const char text[] = R"(HloModule sharded, num_partitions=2
ENTRY %main (x: f32[4,2], y: (f32[2], s32[])) -> f32[4,2] {
  %x = f32[4,2] parameter(0), sharding={devices=[2,1]<=[2]}
  %y = (f32[2], s32[]) parameter(1), sharding={{replicated}, {maximal device=1}}
  ROOT %r = f32[4,2] negate(%x), sharding={devices=[1,1,2]0,1 last_tile_dim_replicate}
}
)";
  StatusOr<std::unique_ptr<shlo::Module>> module = Read(text);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Function* main = (*module)->EntryFunction();
  ASSERT_EQ(main->arg_attributes.size(), 3u);
  auto sharding = [](const std::vector<shlo::NamedAttribute>& attrs) {
    const shlo::Attribute* a = shlo::FindAttribute(attrs, "mhlo.sharding");
    return a == nullptr ? std::string("none") : a->str;
  };
  EXPECT_EQ(sharding(main->arg_attributes[0]), "{devices=[2,1]<=[2]}");
  EXPECT_EQ(sharding(main->arg_attributes[1]), "{replicated}");
  EXPECT_EQ(sharding(main->arg_attributes[2]), "{maximal device=1}");
  EXPECT_EQ(sharding(main->result_attributes[0]), "{devices=[1,1,2]0,1 last_tile_dim_replicate}");
  // On two partitions a split argument is refused by the sharding lowering,
  // as for StableHLO: the CPU backend has no SPMD partitioner.
  StatusOr<std::unique_ptr<Client>> client = CreateCpuClient(2);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  CompileOptions options;
  options.num_partitions = 2;
  options.use_spmd_partitioning = true;
  StatusOr<LoadedExecutable> compiled = (*client)->Compile(text, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_THAT(compiled.status().message(), HasSubstr("splits the value"));
}

TEST(HloText, CollectiveAndShardingAnnotationsAreRead) {
  // All-reduce over iota replica groups with a channel, shardings,
  // frontend attributes and control predecessors: read and converted on one
  // replica.
  const char text[] = R"(HloModule collectives, replica_count=1, num_partitions=1

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0), sharding={replicated}
  %y = f32[4]{0} all-reduce(%x), channel_id=1, replica_groups=[1,1]<=[1], use_global_device_ids=true, to_apply=%sum, frontend_attributes={_xla_stream="1"}
  %z = f32[4]{0} multiply(%y, %y), sharding={devices=[1]0}, control-predecessors={%x}
  ROOT %r = f32[4]{0} copy(%z), sharding={maximal device=0}
}
)";
  auto out = RunText(text, {{{4}, {1, 2, 3, 4}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(1, 4, 9, 16));
  // The instructions' shardings and frontend attributes stay on the ops
  // they became, as mhlo.sharding and mhlo.frontend_attributes.
  StatusOr<std::unique_ptr<shlo::Module>> module = Read(text);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const std::string printed = shlo::PrintModule(**module);
  EXPECT_THAT(printed, HasSubstr("mhlo.frontend_attributes = {_xla_stream = \"1\"}"));
  EXPECT_THAT(printed, HasSubstr("mhlo.sharding = \"{devices=[1]0}\""));
  EXPECT_THAT(printed, HasSubstr("mhlo.sharding = \"{maximal device=0}\""));
}

TEST(HloText, AsynchronousPairsAndBitcastsComputeWhatTheirSyncFormsDo) {
  // What XLA's scheduled dumps hold: X-start/X-done pairs, an async-start
  // calling a computation, and bitcasts between row-major shapes.
  const char text[] = R"(HloModule async, replica_count=1, num_partitions=1

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%wrapped (p: f32[2,2]) -> f32[4] {
  %p = f32[2,2]{1,0} parameter(0)
  ROOT %flat = f32[4]{0} bitcast(%p)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %ars = f32[4]{0} all-reduce-start(%x), replica_groups={}, to_apply=%sum
  %ard = f32[4]{0} all-reduce-done(%ars)
  %cps = (f32[4]{0}, f32[4]{0}, u32[], u32[]) collective-permute-start(%ard), source_target_pairs={{0,0}}
  %cpd = f32[4]{0} collective-permute-done(%cps)
  %cs = (f32[4]{0}, f32[4]{0}, u32[]) copy-start(%cpd)
  %cd = f32[4]{0} copy-done(%cs)
  %square = f32[2,2]{1,0} bitcast(%cd)
  %as = ((f32[2,2]{1,0}), f32[4]{0}, s32[]) async-start(%square), calls=%wrapped
  %ad = f32[4]{0} async-done(%as)
  ROOT %out = f32[4]{0} multiply(%ad, %ad)
}
)";
  auto out = RunText(text, {{{4}, {1, 2, 3, 4}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_THAT(out[0], ::testing::ElementsAre(1, 4, 9, 16));

  // A bitcast that moves data between layouts, and a start read by
  // anything but its done, are refused by name.
  const char column_major[] = R"(HloModule b
ENTRY %main (x: f32[2,3]) -> f32[3,2] {
  %x = f32[2,3]{1,0} parameter(0)
  %t = f32[3,2]{0,1} bitcast(%x)
  ROOT %c = f32[3,2]{1,0} copy(%t)
}
)";
  StatusOr<std::unique_ptr<shlo::Module>> refused = Read(column_major);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(refused.status().message(), HasSubstr("bitcast"));
  const char peeking[] = R"(HloModule p
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %cs = (f32[4]{0}, f32[4]{0}, u32[]) copy-start(%x)
  ROOT %g = f32[4]{0} get-tuple-element(%cs), index=1
}
)";
  refused = Read(peeking);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(refused.status().message(), HasSubstr("asynchronous start"));
}

// Reads `text`, writes it as HLO text, reads that back: the same IR.
void ExpectWriterRoundTrip(const std::string& text) {
  StatusOr<std::unique_ptr<shlo::Module>> first = Read(text);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  StatusOr<std::string> written = shlo::WriteHloText(**first);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  StatusOr<std::unique_ptr<shlo::Module>> second = Read(*written);
  ASSERT_TRUE(second.ok()) << second.status().ToString() << "\n" << *written;
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**second));
  // Names differ (the module's, the instructions'); the ops do not.
  std::string a = shlo::PrintModule(**first), b = shlo::PrintModule(**second);
  a = a.substr(a.find('\n'));
  b = b.substr(b.find('\n'));
  EXPECT_EQ(a, b) << *written;
}

TEST(HloTextWriter, ProgramsRoundTripThroughHloText) {
  ExpectWriterRoundTrip(kMeanOfRows);
  const char loop[] = R"(HloModule loop
%cond (p: (s32[], f32[2])) -> pred[] {
  %p = (s32[], f32[2]) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}
%body (p: (s32[], f32[2])) -> (s32[], f32[2]) {
  %p = (s32[], f32[2]) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %v = f32[2] get-tuple-element(%p), index=1
  %twice = f32[2] add(%v, %v)
  ROOT %t = (s32[], f32[2]) tuple(%next, %twice)
}
ENTRY %main (x: f32[2]) -> f32[2] {
  %x = f32[2] parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[2]) tuple(%zero, %x)
  %w = (s32[], f32[2]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[2] get-tuple-element(%w), index=1
}
)";
  ExpectWriterRoundTrip(loop);
  const char conv[] = R"(HloModule conv
ENTRY %main (x: f32[1,4,4,2], k: f32[3,3,1,2], t: f32[4,2], i: s32[3]) -> (f32[1,2,2,2], f32[3,2], bf16[2,0]) {
  %x = f32[1,4,4,2] parameter(0)
  %k = f32[3,3,1,2] parameter(1)
  %c = f32[1,2,2,2] convolution(%x, %k), window={size=3x3 stride=2x2 pad=0_1x0_1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  %t = f32[4,2] parameter(2)
  %i = s32[3] parameter(3)
  %g = f32[3,2] gather(%t, %i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
  %e = bf16[2,0] constant({ {}, {} })
  ROOT %r = (f32[1,2,2,2], f32[3,2], bf16[2,0]) tuple(%c, %g, %e)
}
)";
  ExpectWriterRoundTrip(conv);
}

TEST(HloTextWriter, BranchesCarryTheValuesTheyUseAsOneTuple) {
  // stablehlo.if and stablehlo.case read values of the enclosing block;
  // HLO's conditional hands them to each branch as a tuple parameter.
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(R"(
func.func @main(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r = "stablehlo.if"(%p) ({
    %s = stablehlo.add %x, %y : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    stablehlo.return %y : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  %c:2 = "stablehlo.case"(%i) ({
    stablehlo.return %x, %y : tensor<2xf32>, tensor<2xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<2xf32>
    stablehlo.return %m, %r : tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %c#0, %c#1 : tensor<2xf32>, tensor<2xf32>
}
)", "branches.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  StatusOr<std::string> written = shlo::WriteHloText(**module);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_THAT(*written, HasSubstr("conditional("));
  EXPECT_THAT(*written, HasSubstr("true_computation="));
  EXPECT_THAT(*written, HasSubstr("branch_computations={"));
  StatusOr<std::unique_ptr<shlo::Module>> back = Read(*written);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *written;
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**back));
  // Run both ways: predicate true, index 1.
  StatusOr<std::unique_ptr<Client>> client = CreateCpuClient(1);
  ASSERT_TRUE(client.ok());
  for (const std::string& program : {shlo::PrintModule(**module), *written}) {
    StatusOr<LoadedExecutable> executable = (*client)->Compile(program);
    ASSERT_TRUE(executable.ok()) << executable.status().ToString();
    StatusOr<std::vector<Device>> devices = executable->addressable_devices();
    ASSERT_TRUE(devices.ok());
    const Device& d = (*devices)[0];
    std::vector<Buffer> in;
    in.push_back(testing::Upload<uint8_t>(**client, d, PJRT_Buffer_Type_PRED, {}, {1}));
    in.push_back(testing::Upload<int32_t>(**client, d, PJRT_Buffer_Type_S32, {}, {1}));
    in.push_back(testing::Upload<float>(**client, d, PJRT_Buffer_Type_F32, {2}, {1, 2}));
    in.push_back(testing::Upload<float>(**client, d, PJRT_Buffer_Type_F32, {2}, {10, 20}));
    std::vector<Buffer*> list;
    for (Buffer& b : in) list.push_back(&b);
    StatusOr<std::vector<std::vector<Buffer>>> out = executable->Execute({list});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_THAT(testing::Download<float>((*out)[0][0]), ::testing::ElementsAre(1, 4));
    EXPECT_THAT(testing::Download<float>((*out)[0][1]), ::testing::ElementsAre(11, 22));
  }
}

TEST(HloTextWriter, StableHloWithoutAnHloFormIsUnimplemented) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(R"(
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
)", "all_reduce.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  StatusOr<std::string> written = shlo::WriteHloText(**module);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(written.status().message(), HasSubstr("stablehlo.all_reduce"));
}

}  // namespace
}  // namespace plugrt
