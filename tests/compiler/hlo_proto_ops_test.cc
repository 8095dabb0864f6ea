// The HLO importer, op by op: what each opcode family builds equals what
// the text parser builds for the same StableHLO (the importer's normal
// form), and a few of them run on the CPU plugin with the right numbers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/hlo_proto_builder.h"

namespace plugrt {
namespace {

using namespace hlo_test;  // NOLINT: the builder and checks of these tests

TEST(HloProtoOpsTest, DataMovementAndElementwiseMatchTheParser) {
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

TEST(HloProtoOpsTest, GatherSortAndCustomCallMatchTheParser) {
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

TEST(HloProtoOpsTest, AllReduceMatchesTheParser) {
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

TEST(HloProtoOpsTest, IotaReplicaGroupsAreSpelledOut) {
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

// A scalar computation of `opcode` over two f32 parameters, returning
// `result` (pred for comparisons).
ModuleBuilder::Computation ScalarComputation(ModuleBuilder& m, const std::string& name,
                                             const std::string& opcode,
                                             xla::PrimitiveType result = xla::F32,
                                             const std::string& direction = "") {
  auto c = m.Add(name);
  int64_t a = c.Param(0, Shape(xla::F32, {}));
  int64_t b = c.Param(1, Shape(xla::F32, {}));
  xla::HloInstructionProto* op = c.Add(opcode, Shape(result, {}), {a, b});
  if (!direction.empty()) op->set_comparison_direction(direction);
  return c;
}

void SetWindow(xla::HloInstructionProto* inst, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    xla::WindowDimension* d = inst->mutable_window()->add_dimensions();
    d->set_size(sizes[i]);
    d->set_stride(strides[i]);
    d->set_window_dilation(1);
    d->set_base_dilation(1);
  }
}

TEST(HloProtoOpsTest, ReduceWindow) {
  ModuleBuilder m("reduce_window");
  auto sum = ScalarComputation(m, "sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, Shape(xla::F32, {4, 4}));
  int64_t zero = main.ConstantF32(0);
  xla::HloInstructionProto* rw = main.Add("reduce-window", Shape(xla::F32, {2, 2}), {x, zero});
  rw->add_called_computation_ids(sum.id());
  SetWindow(rw, {2, 2}, {2, 2});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<4x4xf32>) -> tensor<2x2xf32> {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %0 = "stablehlo.reduce_window"(%x, %zero) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>,
          base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>,
          padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    })");
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[i] = static_cast<float>(i);
  auto out = RunF32(m.Bytes(), {{{4, 4}, input}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{10, 18, 42, 50}));
}

TEST(HloProtoOpsTest, ScatterAdd) {
  ModuleBuilder m("scatter");
  auto sum = ScalarComputation(m, "sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, Shape(xla::F32, {4}));
  int64_t u = main.Param(1, Shape(xla::F32, {2}));
  xla::HloInstructionProto* idx = main.Add("constant", Shape(xla::S32, {2, 1}));
  *idx->mutable_literal()->mutable_shape() = idx->shape();
  idx->mutable_literal()->add_s32s(1);
  idx->mutable_literal()->add_s32s(3);
  xla::HloInstructionProto* sc = main.Add("scatter", Shape(xla::F32, {4}), {x, idx->id(), u});
  sc->add_called_computation_ids(sum.id());
  auto* dn = sc->mutable_scatter_dimension_numbers();
  dn->add_inserted_window_dims(0);
  dn->add_scatter_dims_to_operand_dims(0);
  dn->set_index_vector_dim(1);
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<4xf32>, %u: tensor<2xf32>) -> tensor<4xf32> {
      %idx = stablehlo.constant dense<[[1], [3]]> : tensor<2x1xi32>
      %0 = "stablehlo.scatter"(%x, %idx, %u) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {indices_are_sorted = false,
          scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
          unique_indices = false} : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{4}, {1, 2, 3, 4}}, {{2}, {10, 20}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{1, 12, 3, 24}));
}

TEST(HloProtoOpsTest, SelectAndScatter) {
  ModuleBuilder m("select_and_scatter");
  auto ge = ScalarComputation(m, "ge", "compare", xla::PRED, "GE");
  auto sum = ScalarComputation(m, "sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, Shape(xla::F32, {4}));
  int64_t src = main.Param(1, Shape(xla::F32, {2}));
  int64_t zero = main.ConstantF32(0);
  xla::HloInstructionProto* sas = main.Add("select-and-scatter", Shape(xla::F32, {4}), {x, src, zero});
  sas->add_called_computation_ids(ge.id());
  sas->add_called_computation_ids(sum.id());
  SetWindow(sas, {2}, {2});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<4xf32>, %src: tensor<2xf32>) -> tensor<4xf32> {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %0 = "stablehlo.select_and_scatter"(%x, %src, %zero) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
          stablehlo.return %c : tensor<i1>
      }, {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {padding = dense<[[0, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>,
          window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{4}, {1, 3, 2, 0}}, {{2}, {5, 7}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<float>{0, 5, 7, 0}));
}

TEST(HloProtoOpsTest, VariadicReduce) {
  ModuleBuilder m("variadic_reduce");
  const xla::ShapeProto f32 = Shape(xla::F32, {});
  auto body = m.Add("sums");
  {
    int64_t a0 = body.Param(0, f32);
    int64_t a1 = body.Param(1, f32);
    int64_t b0 = body.Param(2, f32);
    int64_t b1 = body.Param(3, f32);
    int64_t s0 = body.Op("add", f32, {a0, b0});
    int64_t s1 = body.Op("add", f32, {a1, b1});
    body.Op("tuple", TupleShape({f32, f32}), {s0, s1});
  }
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  int64_t y = main.Param(1, kF23);
  int64_t z = main.ConstantF32(0);
  const xla::ShapeProto f2 = Shape(xla::F32, {2});
  xla::HloInstructionProto* r = main.Add("reduce", TupleShape({f2, f2}), {x, y, z, z});
  r->add_dimensions(1);
  r->add_called_computation_ids(body.id());
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %0:2 = "stablehlo.reduce"(%x, %y, %z, %z) ({
        ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
          %s0 = stablehlo.add %a0, %b0 : tensor<f32>
          %s1 = stablehlo.add %a1, %b1 : tensor<f32>
          stablehlo.return %s0, %s1 : tensor<f32>, tensor<f32>
      }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
      return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
    })");
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 3, 4, 5, 6}}, {{2, 3}, {1, 1, 1, 2, 2, 2}}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (std::vector<float>{6, 15}));
  EXPECT_EQ(out[1], (std::vector<float>{3, 6}));
}

TEST(HloProtoOpsTest, DynamicSlicesAndMoreElementwiseOps) {
  ModuleBuilder m("dynamic");
  auto add = ScalarComputation(m, "add", "add");
  auto main = m.Add("main");
  const xla::ShapeProto s32 = Shape(xla::S32, {});
  int64_t x = main.Param(0, Shape(xla::F32, {4, 3}));
  int64_t i = main.Param(1, s32);
  int64_t j = main.Param(2, s32);
  xla::HloInstructionProto* ds = main.Add("dynamic-slice", kF23, {x, i, j});
  ds->add_dynamic_slice_sizes(2);
  ds->add_dynamic_slice_sizes(3);
  int64_t dus = main.Op("dynamic-update-slice", Shape(xla::F32, {4, 3}), {x, ds->id(), j, i});
  int64_t clamp = main.Op("clamp", kF23, {ds->id(), ds->id(), ds->id()});
  int64_t bits = main.Op("bitcast-convert", Shape(xla::S32, {2, 3}), {clamp});
  xla::HloInstructionProto* rp = main.Add("reduce-precision", kF23, {clamp});
  rp->set_exponent_bits(5);
  rp->set_mantissa_bits(10);
  int64_t e = main.Op("exponential", kF23, {rp->id()});
  xla::HloInstructionProto* map = main.Add("map", kF23, {e, e});
  map->add_called_computation_ids(add.id());
  main.Op("tuple", TupleShape({Shape(xla::F32, {4, 3}), Shape(xla::S32, {2, 3}), kF23}),
          {dus, bits, map->id()});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<4x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
      %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
      %1 = stablehlo.dynamic_update_slice %x, %0, %j, %i : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
      %2 = stablehlo.clamp %0, %0, %0 : tensor<2x3xf32>
      %3 = stablehlo.bitcast_convert %2 : (tensor<2x3xf32>) -> tensor<2x3xi32>
      %4 = stablehlo.reduce_precision %2, format = e5m10 : tensor<2x3xf32>
      %5 = stablehlo.exponential %4 : tensor<2x3xf32>
      %6 = "stablehlo.map"(%5, %5) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %1, %3, %6 : tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>
    })");
}

TEST(HloProtoOpsTest, CollectivesAndRandomBits) {
  ModuleBuilder m("collectives");
  auto sum = ScalarComputation(m, "sum", "add");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  int64_t state = main.Param(1, Shape(xla::U64, {2}));
  xla::HloInstructionProto* ag = main.Add("all-gather", kF23, {x});
  ag->add_dimensions(0);
  ag->add_replica_groups()->add_replica_ids(0);
  xla::HloInstructionProto* rs = main.Add("reduce-scatter", kF23, {ag->id()});
  rs->add_dimensions(0);
  rs->add_replica_groups()->add_replica_ids(0);
  rs->add_called_computation_ids(sum.id());
  xla::HloInstructionProto* a2a = main.Add("all-to-all", kF23, {rs->id()});
  a2a->add_dimensions(0);
  a2a->add_replica_groups()->add_replica_ids(0);
  xla::HloInstructionProto* cp = main.Add("collective-permute", kF23, {a2a->id()});
  auto* pair = cp->add_source_target_pairs();
  pair->set_source(0);
  pair->set_target(0);
  cp->set_channel_id(3);
  int64_t id = main.Op("replica-id", Shape(xla::U32, {}), {});
  const xla::ShapeProto rng_shape = TupleShape({Shape(xla::U64, {2}), Shape(xla::U32, {2, 3})});
  xla::HloInstructionProto* rng = main.Add("rng-bit-generator", rng_shape, {state});
  rng->set_rng_algorithm(xla::RNG_DEFAULT);
  xla::HloInstructionProto* bits = main.Add("get-tuple-element", Shape(xla::U32, {2, 3}), {rng->id()});
  bits->set_tuple_index(1);
  main.Op("tuple", TupleShape({kF23, Shape(xla::U32, {}), Shape(xla::U32, {2, 3})}),
          {cp->id(), id, bits->id()});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xui64>) -> (tensor<2x3xf32>, tensor<ui32>, tensor<2x3xui32>) {
      %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %1 = "stablehlo.reduce_scatter"(%0) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, scatter_dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %2 = "stablehlo.all_to_all"(%1) {concat_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %3 = "stablehlo.collective_permute"(%2) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %4 = stablehlo.replica_id : tensor<ui32>
      %5:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
      return %3, %4, %5#1 : tensor<2x3xf32>, tensor<ui32>, tensor<2x3xui32>
    })");
}

TEST(HloProtoOpsTest, TypedFfiCustomCallKeepsItsDictionary) {
  ModuleBuilder m("ffi");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  xla::HloInstructionProto* cc = main.Add("custom-call", kF23, {x});
  cc->set_custom_call_target("my_ffi");
  cc->set_custom_call_api_version(xla::API_VERSION_TYPED_FFI);
  cc->set_backend_config("{scale = 2.0 : f32, n = 3 : i64}");
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = stablehlo.custom_call @my_ffi(%x) {api_version = 4 : i32, backend_config = {scale = 2.0 : f32, n = 3 : i64}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      return %0 : tensor<2x3xf32>
    })");
}

TEST(HloProtoOpsTest, IndexedConditionalBecomesCase) {
  // branch = convert(p0): 0 negates p1, 1 doubles it, 2 (and beyond) adds 1.
  ModuleBuilder m("case");
  const xla::ShapeProto f32 = Shape(xla::F32, {});
  auto neg = m.Add("neg");
  neg.Op("negate", f32, {neg.Param(0, f32)});
  auto twice = m.Add("twice");
  {
    int64_t p = twice.Param(0, f32);
    twice.Op("add", f32, {p, p});
  }
  auto inc = m.Add("inc");
  {
    int64_t p = inc.Param(0, f32);
    inc.Op("add", f32, {p, inc.ConstantF32(1)});
  }
  auto main = m.Add("main");
  int64_t which = main.Param(0, f32);
  int64_t x = main.Param(1, f32);
  int64_t index = main.Op("convert", Shape(xla::S32, {}), {which});
  xla::HloInstructionProto* cond = main.Add("conditional", f32, {index, x, x, x});
  for (int64_t id : {neg.id(), twice.id(), inc.id()}) cond->add_called_computation_ids(id);
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "case");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  const auto& ops = (*module)->EntryFunction()->body->front().operations;
  ASSERT_GE(ops.size(), 2u);
  EXPECT_EQ(ops[1]->name, "stablehlo.case");
  EXPECT_EQ(ops[1]->regions.size(), 3u);
  for (auto [branch, expected] : {std::pair<float, float>{0, -5}, {1, 10}, {2, 6}}) {
    auto out = RunF32(m.Bytes(), {{{}, {branch}}, {{}, {5}}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], (std::vector<float>{expected})) << "branch " << branch;
  }
}

TEST(HloProtoOpsTest, TupleCallsSortsAndBarriers) {
  // A call returning a tuple, a two-operand sort and an optimization
  // barrier over a tuple: all flattened into plain values.
  ModuleBuilder m("tuple_calls");
  auto pair = m.Add("sum_and_difference");
  {
    int64_t a = pair.Param(0, kF23);
    int64_t b = pair.Param(1, kF23);
    int64_t s = pair.Op("add", kF23, {a, b});
    int64_t d = pair.Op("subtract", kF23, {a, b});
    pair.Op("tuple", TupleShape({kF23, kF23}), {s, d});
  }
  auto less = m.Add("less");
  {
    const xla::ShapeProto f32 = Shape(xla::F32, {});
    int64_t a = less.Param(0, f32);
    int64_t b = less.Param(1, f32);
    less.Param(2, f32);
    less.Param(3, f32);
    less.Add("compare", Shape(xla::PRED, {}), {a, b})->set_comparison_direction("LT");
  }
  auto main = m.Add("main");
  int64_t a = main.Param(0, kF23);
  int64_t b = main.Param(1, kF23);
  xla::HloInstructionProto* call = main.Add("call", TupleShape({kF23, kF23}), {a, b});
  call->add_called_computation_ids(pair.id());
  int64_t barrier = main.Op("opt-barrier", TupleShape({kF23, kF23}), {call->id()});
  xla::HloInstructionProto* s = main.Add("get-tuple-element", kF23, {barrier});
  s->set_tuple_index(0);
  xla::HloInstructionProto* d = main.Add("get-tuple-element", kF23, {barrier});
  d->set_tuple_index(1);
  xla::HloInstructionProto* sort = main.Add("sort", TupleShape({kF23, kF23}), {s->id(), d->id()});
  sort->add_dimensions(1);
  sort->set_is_stable(true);
  sort->add_called_computation_ids(less.id());
  m.SetEntry(main);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "tuples");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  PLUGRT_EXPECT_OK(shlo::VerifyModule(**module));
  // s = [5, 2, 9 | 1, 1, 1], d = [-3, 2, -7 | 1, 1, 1] sorted by s per row.
  auto out = RunF32(m.Bytes(), {{{2, 3}, {1, 2, 1, 1, 1, 1}}, {{2, 3}, {4, 0, 8, 0, 0, 0}}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (std::vector<float>{2, 5, 9, 1, 1, 1}));
  EXPECT_EQ(out[1], (std::vector<float>{2, -3, -7, 1, 1, 1}));
}

TEST(HloProtoOpsTest, AliasingIntoTupleParametersUsesFlatIndices) {
  ModuleBuilder m("tuple_alias");
  auto main = m.Add("main");
  int64_t p = main.Param(0, TupleShape({kF23, kF23}));
  int64_t q = main.Param(1, kF23);
  xla::HloInstructionProto* second = main.Add("get-tuple-element", kF23, {p});
  second->set_tuple_index(1);
  int64_t sum = main.Op("add", kF23, {second->id(), q});
  main.Op("tuple", TupleShape({kF23, kF23}), {q, sum});
  m.SetEntry(main);
  auto* alias = m.proto().mutable_input_output_alias()->add_entries();
  alias->set_parameter_number(0);
  alias->add_parameter_shape_index(1);
  alias->add_output_shape_index(1);
  m.proto().mutable_buffer_donor()->add_entries()->set_parameter_number(1);
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ReadHloModuleProto(m.Bytes(), "alias");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Function* f = (*module)->EntryFunction();
  ASSERT_EQ(f->input_types.size(), 3u);
  EXPECT_TRUE(f->arg_attributes[0].empty());
  const shlo::Attribute* aliased = shlo::FindAttribute(f->arg_attributes[1], "tf.aliasing_output");
  ASSERT_NE(aliased, nullptr);
  EXPECT_EQ(aliased->int_value, 1);
  EXPECT_NE(shlo::FindAttribute(f->arg_attributes[2], "jax.buffer_donor"), nullptr);

  // An alias naming a piece that does not exist is INVALID_ARGUMENT.
  alias->set_parameter_number(7);
  module = shlo::ReadHloModuleProto(m.Bytes(), "bad_alias");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
}

TEST(HloProtoOpsTest, LinearAlgebraFftRngAndTopK) {
  ModuleBuilder m("linalg");
  auto main = m.Add("main");
  const xla::ShapeProto f33 = Shape(xla::F32, {3, 3});
  int64_t a = main.Param(0, f33);
  int64_t c = main.Param(1, Shape(xla::C64, {4}));
  xla::HloInstructionProto* chol = main.Add("cholesky", f33, {a});
  chol->mutable_cholesky_options()->set_lower(true);
  xla::HloInstructionProto* ts = main.Add("triangular-solve", f33, {chol->id(), a});
  ts->mutable_triangular_solve_options()->set_left_side(true);
  ts->mutable_triangular_solve_options()->set_lower(true);
  ts->mutable_triangular_solve_options()->set_transpose_a(xla::TriangularSolveOptions::NO_TRANSPOSE);
  xla::HloInstructionProto* dot = main.Add("dot", f33, {ts->id(), a});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
  dot->mutable_precision_config()->add_operand_precision(xla::PrecisionConfig::DEFAULT);
  dot->mutable_precision_config()->add_operand_precision(xla::PrecisionConfig::HIGHEST);
  xla::HloInstructionProto* fft = main.Add("fft", Shape(xla::C64, {4}), {c});
  fft->set_fft_type(xla::FFT);
  fft->add_fft_length(4);
  int64_t lo = main.ConstantF32(0);
  int64_t hi = main.ConstantF32(1);
  xla::HloInstructionProto* rng = main.Add("rng", Shape(xla::F32, {2, 2}), {lo, hi});
  rng->set_distribution(xla::RNG_UNIFORM);
  const xla::ShapeProto topk_shape = TupleShape({Shape(xla::F32, {3, 2}), Shape(xla::S32, {3, 2})});
  xla::HloInstructionProto* topk = main.Add("topk", topk_shape, {dot->id()});
  topk->set_k(2);
  topk->set_largest(true);
  xla::HloInstructionProto* values = main.Add("get-tuple-element", Shape(xla::F32, {3, 2}), {topk->id()});
  values->set_tuple_index(0);
  main.Op("tuple", TupleShape({Shape(xla::F32, {3, 2}), Shape(xla::C64, {4}), Shape(xla::F32, {2, 2})}),
          {values->id(), fft->id(), rng->id()});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%a: tensor<3x3xf32>, %c: tensor<4xcomplex<f32>>) -> (tensor<3x2xf32>, tensor<4xcomplex<f32>>, tensor<2x2xf32>) {
      %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
      %1 = "stablehlo.triangular_solve"(%0, %a) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
      %2 = stablehlo.dot_general %1, %a, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
      %3 = "stablehlo.fft"(%c) {fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
      %lo = stablehlo.constant dense<0.0> : tensor<f32>
      %hi = stablehlo.constant dense<1.0> : tensor<f32>
      %shape = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
      %4 = "stablehlo.rng"(%lo, %hi, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x2xf32>
      %5:2 = "chlo.top_k"(%2) {k = 2 : i64} : (tensor<3x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
      return %5#0, %3, %4 : tensor<3x2xf32>, tensor<4xcomplex<f32>>, tensor<2x2xf32>
    })");
}

TEST(HloProtoOpsTest, CollectiveBroadcastTokensAndIds) {
  ModuleBuilder m("broadcast");
  auto main = m.Add("main");
  int64_t x = main.Param(0, kF23);
  xla::HloInstructionProto* cb = main.Add("collective-broadcast", kF23, {x});
  cb->add_replica_groups()->add_replica_ids(0);
  cb->set_channel_id(2);
  int64_t t0 = main.Op("after-all", Shape(xla::TOKEN, {}), {});
  main.Op("after-all", Shape(xla::TOKEN, {}), {t0, t0});
  int64_t pid = main.Op("partition-id", Shape(xla::U32, {}), {});
  main.Op("tuple", TupleShape({kF23, Shape(xla::U32, {})}), {cb->id(), pid});
  m.SetEntry(main);
  ExpectImportsAs(m.Bytes(), R"(
    func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<ui32>) {
      %0 = "stablehlo.collective_broadcast"(%x) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %1 = stablehlo.create_token : !stablehlo.token
      %2 = stablehlo.after_all %1, %1 : !stablehlo.token
      %3 = stablehlo.partition_id : tensor<ui32>
      return %0, %3 : tensor<2x3xf32>, tensor<ui32>
    })");
}

}  // namespace
}  // namespace plugrt
