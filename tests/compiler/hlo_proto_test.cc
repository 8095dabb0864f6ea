// The HLO importer (src/compiler/importers/hlo/): HloModuleProtos built here
// with the generated message classes are read into IR that verifies, that
// matches what the text parser builds for the same StableHLO program, and
// that the CPU plugin compiles (format "hlo") and runs with the right
// numbers. Damaged bytes are INVALID_ARGUMENT and unknown opcodes
// UNIMPLEMENTED, never a crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "client/compiler.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/read_program.h"
#include "compiler/hlo_proto_builder.h"
#include "proto/hlo.pb.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/status_matchers.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using namespace hlo_test;  // NOLINT: the builder and checks of these tests

// ----------------------------------------------------------------- programs

std::string AddProgram() {
  ModuleBuilder m("add");
  auto main = m.Add("main.1");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, kF23);
  main.Op("add", kF23, {a, b});
  m.SetEntry(main);
  return m.Bytes();
}

TEST(HloProtoTest, AddOfTwoParameters) {
  ExpectImportsAs(AddProgram(), R"(
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = stablehlo.add %a, %b : tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })");
  auto out = RunF32(AddProgram(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{2, 3}, {10, 20, 30, 40, 50, 60}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{11, 22, 33, 44, 55, 66}));
}

TEST(HloProtoTest, Dot) {
  ModuleBuilder m("dot");
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, Shape(xla::F32, {3, 2}));
  xla::HloInstructionProto* dot = main.Add("dot", Shape(xla::F32, {2, 2}), {a, b});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{3, 2}, {1, 0, 0, 1, 1, 1}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{4, 5, 10, 11}));
}

TEST(HloProtoTest, ReduceWithAddComputation) {
  ModuleBuilder m("reduce");
  auto sum = m.Binary("sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  int64_t zero = main.ConstantF32(0);
  xla::HloInstructionProto* reduce = main.Add("reduce", Shape(xla::F32, {2}), {x, zero});
  reduce->add_dimensions(1);
  reduce->add_called_computation_ids(sum.id());
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2xf32> {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %0 = stablehlo.reduce(%x init: %zero) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
        reducer(%a: tensor<f32>, %b: tensor<f32>) {
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
        }
      return %0 : tensor<2xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{6, 15}));
}

// while (i < 10) { i += 1; acc += x } over the tuple (i, acc): two outputs.
std::string CountingLoop() {
  ModuleBuilder m("loop");
  const xla::ShapeProto s32 = Shape(xla::S32, {});
  const xla::ShapeProto f32 = Shape(xla::F32, {});
  const xla::ShapeProto state = TupleShape({s32, f32, f32});
  auto cond = m.Add("cond");
  {
    int64_t p = cond.Param(0, state);
    xla::HloInstructionProto* i = cond.Add("get-tuple-element", s32, {p});
    i->set_tuple_index(0);
    int64_t ten = cond.ConstantS32(10);
    xla::HloInstructionProto* lt = cond.Add("compare", Shape(xla::PRED, {}), {i->id(), ten});
    lt->set_comparison_direction("LT");
  }
  auto body = m.Add("body");
  {
    int64_t p = body.Param(0, state);
    xla::HloInstructionProto* i = body.Add("get-tuple-element", s32, {p});
    i->set_tuple_index(0);
    xla::HloInstructionProto* acc = body.Add("get-tuple-element", f32, {p});
    acc->set_tuple_index(1);
    xla::HloInstructionProto* x = body.Add("get-tuple-element", f32, {p});
    x->set_tuple_index(2);
    int64_t one = body.ConstantS32(1);
    int64_t next = body.Op("add", s32, {i->id(), one});
    int64_t sum = body.Op("add", f32, {acc->id(), x->id()});
    body.Op("tuple", state, {next, sum, x->id()});
  }
  auto main = m.Add("main");
  int64_t x = main.Param(0, f32);
  int64_t zero_i = main.ConstantS32(0);
  int64_t zero_f = main.ConstantF32(0);
  int64_t init = main.Op("tuple", state, {zero_i, zero_f, x});
  xla::HloInstructionProto* loop = main.Add("while", state, {init});
  loop->add_called_computation_ids(body.id());
  loop->add_called_computation_ids(cond.id());
  xla::HloInstructionProto* acc = main.Add("get-tuple-element", f32, {loop->id()});
  acc->set_tuple_index(1);
  xla::HloInstructionProto* count = main.Add("get-tuple-element", s32, {loop->id()});
  count->set_tuple_index(0);
  xla::HloInstructionProto* as_f32 = main.Add("convert", f32, {count->id()});
  main.Op("tuple", TupleShape({f32, f32}), {acc->id(), as_f32->id()});
  m.SetEntry(main);
  return m.Bytes();
}

TEST(HloProtoTest, WhileLoopCountingToTen) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(CountingLoop(), "loop");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  auto out = RunF32(CountingLoop(), {{{}, {2.5f}}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (std::vector<float>{25}));
  EXPECT_EQ(out[1], (std::vector<float>{10}));
}

TEST(HloProtoTest, TupleResultsAndTupleParametersAreFlattened) {
  ModuleBuilder m("tuples");
  auto main = m.Add("main");
  int64_t p = main.Param(0, TupleShape({kF23, kF23}));
  xla::HloInstructionProto* a = main.Add("get-tuple-element", kF23, {p});
  a->set_tuple_index(0);
  xla::HloInstructionProto* b = main.Add("get-tuple-element", kF23, {p});
  b->set_tuple_index(1);
  int64_t sum = main.Op("add", kF23, {a->id(), b->id()});
  int64_t product = main.Op("multiply", kF23, {a->id(), b->id()});
  main.Op("tuple", TupleShape({kF23, kF23}), {sum, product});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %0 = stablehlo.add %a, %b : tensor<2x3xf32>
      %1 = stablehlo.multiply %a, %b : tensor<2x3xf32>
      return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{2, 3}, {2, 2, 2, 2, 2, 2}}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (std::vector<float>{3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(out[1], (std::vector<float>{2, 4, 6, 8, 10, 12}));
}

TEST(HloProtoTest, FusionIsInlined) {
  ModuleBuilder m("fusion");
  auto fused = m.Add("fused_computation");
  {
    int64_t p0 = fused.Param(0, kF23);
    int64_t p1 = fused.Param(1, kF23);
    int64_t mul = fused.Op("multiply", kF23, {p0, p1});
    fused.Op("add", kF23, {mul, p0});
  }
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, kF23);
  xla::HloInstructionProto* fusion = main.Add("fusion", kF23, {a, b});
  fusion->set_fusion_kind("kLoop");
  fusion->add_called_computation_ids(fused.id());
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = stablehlo.multiply %a, %b : tensor<2x3xf32>
      %1 = stablehlo.add %0, %a : tensor<2x3xf32>
      return %1 : tensor<2x3xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{2, 3}, {1, 1, 1, 2, 2, 2}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{2, 4, 6, 12, 15, 18}));
}

TEST(HloProtoTest, Convolution) {
  // NHWC input 1x4x4x1, HWIO kernel 2x2x1x1 of ones: sums of 2x2 windows.
  ModuleBuilder m("conv");
  auto main = m.Add("main");
  int64_t x = main.Param(0, Shape(xla::F32, {1, 4, 4, 1}));
  int64_t k = main.Param(1, Shape(xla::F32, {2, 2, 1, 1}));
  xla::HloInstructionProto* conv = main.Add("convolution", Shape(xla::F32, {1, 3, 3, 1}), {x, k});
  for (int i = 0; i < 2; ++i) {
    xla::WindowDimension* d = conv->mutable_window()->add_dimensions();
    d->set_size(2);
    d->set_stride(1);
    d->set_window_dilation(1);
    d->set_base_dilation(1);
  }
  xla::ConvolutionDimensionNumbers* dn = conv->mutable_convolution_dimension_numbers();
  dn->set_input_batch_dimension(0);
  dn->set_input_feature_dimension(3);
  dn->add_input_spatial_dimensions(1);
  dn->add_input_spatial_dimensions(2);
  dn->set_kernel_input_feature_dimension(2);
  dn->set_kernel_output_feature_dimension(3);
  dn->add_kernel_spatial_dimensions(0);
  dn->add_kernel_spatial_dimensions(1);
  dn->set_output_batch_dimension(0);
  dn->set_output_feature_dimension(3);
  dn->add_output_spatial_dimensions(1);
  dn->add_output_spatial_dimensions(2);
  conv->set_feature_group_count(1);
  conv->set_batch_group_count(1);
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<1x4x4x1xf32>, %k: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
      %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
             window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
             {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
             : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
      return %0 : tensor<1x3x3x1xf32>
    })");
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[i] = static_cast<float>(i);
  auto out = RunF32(m.Bytes(), {{{1, 4, 4, 1}, input}, {{2, 2, 1, 1}, {1, 1, 1, 1}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{10, 14, 18, 26, 30, 34, 42, 46, 50}));
}

TEST(HloProtoTest, CompareSelectAndConditional) {
  // max(a, b) by compare + select, and a conditional on a predicate.
  ModuleBuilder m("cond");
  const xla::ShapeProto f32 = Shape(xla::F32, {});
  auto on_true = m.Add("negate_branch");
  {
    int64_t p = on_true.Param(0, f32);
    on_true.Op("negate", f32, {p});
  }
  auto on_false = m.Add("double_branch");
  {
    int64_t p = on_false.Param(0, f32);
    on_false.Op("add", f32, {p, p});
  }
  auto main = m.Add("main");
  int64_t a = main.Param(0, f32);
  int64_t b = main.Param(1, f32);
  xla::HloInstructionProto* gt = main.Add("compare", Shape(xla::PRED, {}), {a, b});
  gt->set_comparison_direction("GT");
  int64_t max = main.Op("select", f32, {gt->id(), a, b});
  xla::HloInstructionProto* cond = main.Add("conditional", f32, {gt->id(), max, max});
  cond->add_called_computation_ids(on_true.id());
  cond->add_called_computation_ids(on_false.id());
  m.SetEntry(main);
  auto first = RunF32(m.Bytes(), {{{}, {3}}, {{}, {1}}});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (std::vector<float>{-3}));
  auto second = RunF32(m.Bytes(), {{{}, {1}}, {{}, {4}}});
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0], (std::vector<float>{8}));
}

TEST(HloProtoTest, CallBecomesAPrivateFunction) {
  ModuleBuilder m("call");
  auto callee = m.Binary("times", "multiply");
  auto main = m.Add("main");
  const xla::ShapeProto f32 = Shape(xla::F32, {});
  int64_t a = main.Param(0, f32);
  xla::HloInstructionProto* call = main.Add("call", f32, {a, a});
  call->add_called_computation_ids(callee.id());
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "call");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  ASSERT_EQ((*module)->functions.size(), 2u);
  EXPECT_EQ((*module)->functions[0]->name, "main");
  EXPECT_FALSE((*module)->functions[1]->is_public);
  auto out = RunF32(m.Bytes(), {{{}, {7}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{49}));
}

TEST(HloProtoTest, InputOutputAliasBecomesDonation) {
  ModuleBuilder m("alias");
  xla::HloModuleProto& proto = m.proto();
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, kF23);
  main.Op("add", kF23, {a, b});
  m.SetEntry(main);
  auto* entry = proto.mutable_input_output_alias()->add_entries();
  entry->set_parameter_number(1);
  entry->set_kind(xla::MAY_ALIAS);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "alias");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Function* f = (*module)->EntryFunction();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(shlo::FindAttribute(f->arg_attributes[0], "tf.aliasing_output"), nullptr);
  const shlo::Attribute* alias = shlo::FindAttribute(f->arg_attributes[1], "tf.aliasing_output");
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->int_value, 0);
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 1, 1, 1, 1, 1}}, {{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{2, 3, 4, 5, 6, 7}));
}

TEST(HloProtoTest, HloWithConfigGivesDeviceCounts) {
  xla::HloModuleProtoWithConfig wrapped;
  ASSERT_TRUE(wrapped.mutable_hlo_module()->ParseFromString(AddProgram()));
  wrapped.mutable_config()->set_replica_count(1);
  wrapped.mutable_config()->set_num_partitions(1);
  const std::string bytes = wrapped.SerializeAsString();
  StatusOr<std::unique_ptr<shlo::Module>> module =
      shlo::ReadProgram(bytes, "with_config", "hlo_with_config");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Attribute* replicas = shlo::FindAttribute((*module)->attributes, "mhlo.num_replicas");
  ASSERT_NE(replicas, nullptr);
  EXPECT_EQ(replicas->int_value, 1);
  auto out = RunF32(bytes, {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{2, 3}, {1, 2, 3, 4, 5, 6}}},
                    "hlo_with_config");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{2, 4, 6, 8, 10, 12}));
}

TEST(HloProtoTest, AheadOfTimeCompileTakesHloToo) {
  // PJRT_Compile (a topology, no client) reads the same formats.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, testing::CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Compiler compiler, Compiler::Create(plugin, "cpu:1"));
  StatusOr<Executable> executable = compiler.Compile(CountingLoop(), {}, "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  PLUGRT_ASSERT_OK_AND_ASSIGN(size_t outputs, executable->num_outputs());
  EXPECT_EQ(outputs, 2u);
  StatusOr<Executable> bad = compiler.Compile("\xff\xff", {}, "hlo");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

// ------------------------------------------------------------------ errors

TEST(HloProtoTest, MalformedBytesAreInvalidArgument) {
  const std::string garbage("\xff\xff\xff\xff\x0f\x12", 6);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(garbage, "bad");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(shlo::ReadHloModuleProtoWithConfig(garbage, "bad").ok());
  // Every prefix of a good module, and every one-byte change of it, either
  // reads (and then verifies or not) or fails cleanly.
  const std::string good = CountingLoop();
  for (size_t n = 0; n < good.size(); ++n) {
    (void)shlo::ReadHloModuleProto(good.substr(0, n), "prefix");
    for (unsigned char mask : {0x01, 0x04, 0x80, 0xff}) {
      std::string changed = good;
      changed[n] = static_cast<char>(static_cast<unsigned char>(changed[n]) ^ mask);
      StatusOr<std::unique_ptr<shlo::Module>> m = shlo::ReadHloModuleProto(changed, "changed");
      if (m.ok()) (void)shlo::VerifyModule(**m);
    }
  }
  // An empty module names what is missing.
  StatusOr<std::unique_ptr<shlo::Module>> empty = shlo::ReadHloModuleProto("", "empty");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);

  // Through the plugin: an error, never a crash.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  StatusOr<LoadedExecutable> executable = client->Compile(garbage, "hlo");
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
}

TEST(HloProtoTest, DanglingIdsAreInvalidArgument) {
  ModuleBuilder m("dangling");
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  main.Op("add", kF23, {a, 999});
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "dangling");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(module.status().message(), HasSubstr("999"));

  // A computation id that names nothing.
  ModuleBuilder m2("no_callee");
  auto main2 = m2.Add("main");
  int64_t x = main2.Param(0, Shape(xla::F32, {}));
  xla::HloInstructionProto* call = main2.Add("call", Shape(xla::F32, {}), {x});
  call->add_called_computation_ids(12345);
  m2.SetEntry(main2);
  module = shlo::ReadHloModuleProto(m2.Bytes(), "no_callee");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);

  // Wrong operand counts are caught, by the importer or the verifier.
  ModuleBuilder m3("arity");
  auto main3 = m3.Add("main");
  int64_t y = main3.Param(0, kF23);
  main3.Op("add", kF23, {y});
  m3.SetEntry(main3);
  module = shlo::ReadHloModuleProto(m3.Bytes(), "arity");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
}

TEST(HloProtoTest, MetadataBecomesSourceLocationsThatErrorsName) {
  // f32[2,3] + f32[3,2]: the verifier's error names the instruction and the
  // user's source line.
  ModuleBuilder m("mismatch");
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, Shape(xla::F32, {3, 2}));
  xla::HloInstructionProto* add = main.Add("add", kF23, {a, b});
  add->set_name("bad_add");
  add->mutable_metadata()->set_op_name("jit(f)/add");
  add->mutable_metadata()->set_source_file("model.py");
  add->mutable_metadata()->set_source_line(12);
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "mismatch");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Operation& op = *(*module)->EntryFunction()->body->front().operations[0];
  EXPECT_THAT(op.location.ToString(), HasSubstr("model.py:12"));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  StatusOr<LoadedExecutable> executable = client->Compile(m.Bytes(), "hlo");
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(executable.status().message(), HasSubstr("bad_add"));
  EXPECT_THAT(executable.status().message(), HasSubstr("model.py:12"));
}

TEST(HloProtoTest, UnknownOpcodesAreUnimplementedNamingThem) {
  for (const std::string opcode : {"frobnicate", "infeed"}) {
    ModuleBuilder m("unknown");
    auto main = m.Add("main");
    int64_t a = main.Param(0, kF23);
    main.Add(opcode, kF23, {a})->set_name("my_instruction");
    m.SetEntry(main);
    StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "unknown");
    ASSERT_FALSE(module.ok());
    EXPECT_EQ(module.status().code(), StatusCode::kUnimplemented) << module.status().ToString();
    EXPECT_THAT(module.status().message(), HasSubstr(opcode));
    EXPECT_THAT(module.status().message(), HasSubstr("my_instruction"));
  }
}

TEST(HloProtoTest, UnknownFormatsAreStillRefused) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  StatusOr<LoadedExecutable> executable = client->Compile(AddProgram(), "hlo_text");
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace plugrt
