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

#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/importers/read_program.h"
#include "proto/hlo.pb.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/status_matchers.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CreateCpuClient;
using testing::Download;
using testing::Upload;

// ----------------------------------------------------------- proto building

xla::ShapeProto Shape(xla::PrimitiveType type, std::vector<int64_t> dims) {
  xla::ShapeProto s;
  s.set_element_type(type);
  for (int64_t d : dims) s.add_dimensions(d);
  return s;
}

xla::ShapeProto TupleShape(const std::vector<xla::ShapeProto>& elements) {
  xla::ShapeProto s;
  s.set_element_type(xla::TUPLE);
  for (const auto& e : elements) *s.add_tuple_shapes() = e;
  return s;
}

// Builds one module; ids are unique across it, as XLA writes them.
class ModuleBuilder {
 public:
  explicit ModuleBuilder(const std::string& name) { proto_.set_name(name); }

  // A computation; the last instruction added is its root unless SetRoot.
  class Computation {
   public:
    Computation(ModuleBuilder* m, xla::HloComputationProto* c) : m_(m), c_(c) {}
    int64_t id() const { return c_->id(); }

    xla::HloInstructionProto* Add(const std::string& opcode, const xla::ShapeProto& shape,
                                  std::vector<int64_t> operands = {}) {
      xla::HloInstructionProto* inst = c_->add_instructions();
      inst->set_id(m_->next_id_++);
      inst->set_name(opcode + "." + std::to_string(inst->id()));
      inst->set_opcode(opcode);
      *inst->mutable_shape() = shape;
      for (int64_t o : operands) inst->add_operand_ids(o);
      c_->set_root_id(inst->id());
      return inst;
    }
    int64_t Param(int64_t number, const xla::ShapeProto& shape) {
      xla::HloInstructionProto* p = Add("parameter", shape);
      p->set_parameter_number(number);
      return p->id();
    }
    int64_t Op(const std::string& opcode, const xla::ShapeProto& shape,
               std::vector<int64_t> operands) {
      return Add(opcode, shape, std::move(operands))->id();
    }
    int64_t ConstantF32(float value) {
      xla::HloInstructionProto* c = Add("constant", Shape(xla::F32, {}));
      *c->mutable_literal()->mutable_shape() = c->shape();
      c->mutable_literal()->add_f32s(value);
      return c->id();
    }
    int64_t ConstantS32(int32_t value) {
      xla::HloInstructionProto* c = Add("constant", Shape(xla::S32, {}));
      *c->mutable_literal()->mutable_shape() = c->shape();
      c->mutable_literal()->add_s32s(value);
      return c->id();
    }
    void SetRoot(int64_t id) { c_->set_root_id(id); }

   private:
    ModuleBuilder* m_;
    xla::HloComputationProto* c_;
  };

  Computation Add(const std::string& name) {
    xla::HloComputationProto* c = proto_.add_computations();
    c->set_name(name);
    c->set_id(next_id_++);
    return Computation(this, c);
  }
  // A scalar f32 (or other type) binary computation: `opcode`(p0, p1).
  Computation Binary(const std::string& name, const std::string& opcode,
                     xla::PrimitiveType type = xla::F32) {
    Computation c = Add(name);
    int64_t a = c.Param(0, Shape(type, {}));
    int64_t b = c.Param(1, Shape(type, {}));
    c.Op(opcode, Shape(type, {}), {a, b});
    return c;
  }
  void SetEntry(const Computation& c) { proto_.set_entry_computation_id(c.id()); }
  xla::HloModuleProto& proto() { return proto_; }
  std::string Bytes() const { return proto_.SerializeAsString(); }

 private:
  xla::HloModuleProto proto_;
  int64_t next_id_ = 1;
};

// ----------------------------------------------------------- IR comparison

std::vector<shlo::NamedAttribute> Sorted(std::vector<shlo::NamedAttribute> attrs) {
  std::sort(attrs.begin(), attrs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return attrs;
}

// The ops of two regions agree in name, attributes, result types and
// (recursively) regions: the importer builds the parser's normal form.
void ExpectSameOps(const shlo::Region& a, const shlo::Region& b, const std::string& where) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size()) << where;
  for (size_t k = 0; k < a.blocks.size(); ++k) {
    const auto& ops_a = a.blocks[k]->operations;
    const auto& ops_b = b.blocks[k]->operations;
    ASSERT_EQ(ops_a.size(), ops_b.size()) << where;
    for (size_t i = 0; i < ops_a.size(); ++i) {
      const shlo::Operation& x = *ops_a[i];
      const shlo::Operation& y = *ops_b[i];
      const std::string at = where + " op " + std::to_string(i) + " (" + y.name + ")";
      EXPECT_EQ(x.name, y.name) << at;
      auto ax = Sorted(x.attributes), ay = Sorted(y.attributes);
      ASSERT_EQ(ax.size(), ay.size()) << at;
      for (size_t j = 0; j < ax.size(); ++j) {
        EXPECT_EQ(ax[j].first, ay[j].first) << at;
        EXPECT_TRUE(ax[j].second == ay[j].second)
            << at << ": " << ax[j].first << " is " << ax[j].second.ToString() << ", parser says "
            << ay[j].second.ToString();
      }
      ASSERT_EQ(x.results.size(), y.results.size()) << at;
      for (size_t j = 0; j < x.results.size(); ++j) {
        EXPECT_EQ(x.results[j]->type, y.results[j]->type) << at;
      }
      ASSERT_EQ(x.regions.size(), y.regions.size()) << at;
      for (size_t j = 0; j < x.regions.size(); ++j) ExpectSameOps(*x.regions[j], *y.regions[j], at);
    }
  }
}

// Reads `bytes` as format "hlo", verifies it and compares @main with the
// parsed `text`.
void ExpectImportsAs(const std::string& bytes, const std::string& text) {
  StatusOr<std::unique_ptr<shlo::Module>> imported = shlo::ReadHloModuleProto(bytes, "test.hlo");
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**imported));
  StatusOr<std::unique_ptr<shlo::Module>> parsed = shlo::ParseModule(text, "test.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const shlo::Function* a = (*imported)->EntryFunction();
  const shlo::Function* b = (*parsed)->EntryFunction();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->name, "main");
  EXPECT_EQ(a->input_types, b->input_types);
  EXPECT_EQ(a->result_types, b->result_types);
  ExpectSameOps(*a->body, *b->body, "@main");
}

// Compiles `bytes` as `format` on one CPU device, runs it on f32 arguments
// and returns each output's values.
std::vector<std::vector<float>> RunF32(const std::string& bytes,
                                       const std::vector<std::pair<std::vector<int64_t>, std::vector<float>>>& args,
                                       const std::string& format = "hlo") {
  StatusOr<std::unique_ptr<Client>> client = CreateCpuClient(1);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  if (!client.ok()) return {};
  StatusOr<LoadedExecutable> executable = (*client)->Compile(bytes, format);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  if (!executable.ok()) return {};
  StatusOr<std::vector<Device>> devices = executable->addressable_devices();
  EXPECT_TRUE(devices.ok());
  if (!devices.ok()) return {};
  std::vector<Buffer> buffers;
  for (const auto& [dims, values] : args) {
    buffers.push_back(Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, dims, values));
  }
  std::vector<Buffer*> list;
  for (Buffer& b : buffers) list.push_back(&b);
  StatusOr<std::vector<std::vector<Buffer>>> outputs = executable->Execute({list});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  std::vector<std::vector<float>> result;
  for (const Buffer& out : (*outputs)[0]) result.push_back(Download<float>(out));
  return result;
}

const xla::ShapeProto kF23 = Shape(xla::F32, {2, 3});

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

TEST(HloProtoTest, DataMovementAndElementwiseMatchTheParser) {
  ModuleBuilder m("movement");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  int64_t y = main.Param(1, kF23);
  xla::HloInstructionProto* bcast = main.Add("broadcast", Shape(xla::F32, {4, 2, 3}), {x});
  bcast->add_dimensions(1);
  bcast->add_dimensions(2);
  xla::HloInstructionProto* tr = main.Add("transpose", Shape(xla::F32, {3, 2}), {x});
  tr->add_dimensions(1);
  tr->add_dimensions(0);
  int64_t flat = main.Op("reshape", Shape(xla::F32, {6}), {x});
  xla::HloInstructionProto* sl = main.Add("slice", Shape(xla::F32, {2, 2}), {x});
  for (auto [start, limit] : {std::pair<int, int>{0, 2}, {1, 3}}) {
    auto* d = sl->add_slice_dimensions();
    d->set_start(start);
    d->set_limit(limit);
    d->set_stride(1);
  }
  int64_t zero = main.ConstantF32(0);
  xla::HloInstructionProto* pad = main.Add("pad", Shape(xla::F32, {3, 4}), {x, zero});
  for (auto [low, high] : {std::pair<int, int>{0, 1}, {1, 0}}) {
    auto* d = pad->mutable_padding_config()->add_dimensions();
    d->set_edge_padding_low(low);
    d->set_edge_padding_high(high);
  }
  xla::HloInstructionProto* rev = main.Add("reverse", kF23, {x});
  rev->add_dimensions(0);
  xla::HloInstructionProto* cat = main.Add("concatenate", Shape(xla::F32, {4, 3}), {x, y});
  cat->add_dimensions(0);
  xla::HloInstructionProto* iota = main.Add("iota", Shape(xla::S32, {4}), {});
  iota->add_dimensions(0);
  xla::HloInstructionProto* gt = main.Add("compare", Shape(xla::PRED, {2, 3}), {x, y});
  gt->set_comparison_direction("GT");
  int64_t max = main.Op("select", kF23, {gt->id(), x, y});
  int64_t as_int = main.Op("convert", Shape(xla::S32, {2, 3}), {max});
  main.Op("tuple",
          TupleShape({Shape(xla::F32, {4, 2, 3}), Shape(xla::F32, {3, 2}), Shape(xla::F32, {6}),
                      Shape(xla::F32, {2, 2}), Shape(xla::F32, {3, 4}), kF23,
                      Shape(xla::F32, {4, 3}), Shape(xla::S32, {4}), Shape(xla::S32, {2, 3})}),
          {bcast->id(), tr->id(), flat, sl->id(), pad->id(), rev->id(), cat->id(), iota->id(),
           as_int});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xi32>, tensor<2x3xi32>) {
      %0 = stablehlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
      %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
      %2 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
      %3 = stablehlo.slice %x [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %4 = stablehlo.pad %x, %zero, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
      %5 = stablehlo.reverse %x, dims = [0] : tensor<2x3xf32>
      %6 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
      %7 = stablehlo.iota dim = 0 : tensor<4xi32>
      %8 = stablehlo.compare GT, %x, %y, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
      %9 = stablehlo.select %8, %x, %y : tensor<2x3xi1>, tensor<2x3xf32>
      %10 = stablehlo.convert %9 : (tensor<2x3xf32>) -> tensor<2x3xi32>
      return %0, %1, %2, %3, %4, %5, %6, %7, %10 : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xi32>, tensor<2x3xi32>
    })");
}

TEST(HloProtoTest, GatherSortAndCustomCallMatchTheParser) {
  ModuleBuilder m("gather");
  auto less = m.Add("less");
  {
    int64_t a = less.Param(0, Shape(xla::F32, {}));
    int64_t b = less.Param(1, Shape(xla::F32, {}));
    less.Add("compare", Shape(xla::PRED, {}), {a, b})->set_comparison_direction("LT");
  }
  auto main = m.Add("main");
  int64_t x = main.Param(0, Shape(xla::F32, {3, 3}));
  int64_t idx = main.Param(1, Shape(xla::S32, {2, 1}));
  xla::HloInstructionProto* g = main.Add("gather", Shape(xla::F32, {2, 3}), {x, idx});
  auto* gd = g->mutable_gather_dimension_numbers();
  gd->add_offset_dims(1);
  gd->add_collapsed_slice_dims(0);
  gd->add_start_index_map(0);
  gd->set_index_vector_dim(1);
  g->add_gather_slice_sizes(1);
  g->add_gather_slice_sizes(3);
  xla::HloInstructionProto* sort = main.Add("sort", Shape(xla::F32, {2, 3}), {g->id()});
  sort->add_dimensions(1);
  sort->add_called_computation_ids(less.id());
  xla::HloInstructionProto* cc = main.Add("custom-call", Shape(xla::F32, {2, 3}), {sort->id()});
  cc->set_custom_call_target("my_target");
  cc->set_backend_config("opaque");
  cc->set_custom_call_api_version(xla::API_VERSION_STATUS_RETURNING);
  cc->set_custom_call_has_side_effect(true);
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<3x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
      %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
      %1 = "stablehlo.sort"(%0) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
          stablehlo.return %c : tensor<i1>
      }) {dimension = 1 : i64, is_stable = false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %2 = stablehlo.custom_call @my_target(%1) {api_version = 2 : i32, backend_config = "opaque", has_side_effect = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      return %2 : tensor<2x3xf32>
    })");
}

TEST(HloProtoTest, AllReduceMatchesTheParser) {
  ModuleBuilder m("all_reduce");
  auto sum = m.Binary("sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  xla::HloInstructionProto* ar = main.Add("all-reduce", kF23, {x});
  ar->add_called_computation_ids(sum.id());
  ar->add_replica_groups()->add_replica_ids(0);
  ar->set_channel_id(1);
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = "stablehlo.all_reduce"(%x) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(HloProtoTest, IotaReplicaGroupsAreSpelledOut) {
  // 2 groups of 2: iota(4) as [2, 2], transposed: [[0, 2], [1, 3]].
  ModuleBuilder m("iota_groups");
  auto sum = m.Binary("sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  xla::HloInstructionProto* ar = main.Add("all-reduce", kF23, {x});
  ar->add_called_computation_ids(sum.id());
  auto* iota = ar->mutable_collective_device_list()->mutable_iota_replica_group_list();
  iota->set_num_replica_groups(2);
  iota->set_num_devices_per_group(2);
  iota->add_iota_reshape_dims(2);
  iota->add_iota_reshape_dims(2);
  iota->add_iota_transpose_perm(1);
  iota->add_iota_transpose_perm(0);
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "iota");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Operation& op = *(*module)->EntryFunction()->body->front().operations[0];
  const shlo::Attribute* groups = op.attribute("replica_groups");
  ASSERT_NE(groups, nullptr);
  EXPECT_EQ(groups->type.dims(), (std::vector<int64_t>{2, 2}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> ids, shlo::AttrToIntList(*groups));
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 2, 1, 3}));
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
