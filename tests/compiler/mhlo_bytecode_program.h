// One MHLO program in two forms, for tests and the bytecode fuzz target's
// seeds: its text (the twin) and MLIR bytecode assembled byte by byte as
// MLIR writes it for TensorFlow and XLA tools (func.func and mhlo ops with
// properties, a reduce region, precision and dimension-number attributes in
// mhlo's own encoding, the weights as a dense_resource blob).
#ifndef PLUGRT_TESTS_COMPILER_MHLO_BYTECODE_PROGRAM_H_
#define PLUGRT_TESTS_COMPILER_MHLO_BYTECODE_PROGRAM_H_

#include <string>
#include <vector>

#include "compiler/bytecode_assembler.h"

namespace plugrt::shlo::bc_test {

// The MHLO program both ways: text (the twin) and bytecode assembled as
// MLIR writes it (bytecode version 6, properties, isolated regions in
// sections of their own, the weights as a dense_resource blob).
inline constexpr float kWeights[8] = {0.5f, -1.0f, 2.0f, 0.0f, 3.5f, 1.0f, -2.0f, 0.25f};

inline std::string WeightsHex() {
  static const char* digits = "0123456789ABCDEF";
  std::string hex = "0x04000000";
  const auto* p = reinterpret_cast<const unsigned char*>(kWeights);
  for (size_t i = 0; i < sizeof(kWeights); ++i) {
    hex += digits[p[i] >> 4];
    hex += digits[p[i] & 15];
  }
  return hex;
}

inline std::string MhloText() {
  return R"(module @tf_model {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> (tensor<2x4xi1>, tensor<2xf32>) {
    %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision HIGHEST>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = "mhlo.constant"() {value = dense_resource<w> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
    %2 = "mhlo.copy"(%1) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %3 = "mhlo.compare"(%0, %2) {compare_type = #mhlo<comparison_type FLOAT>, comparison_direction = #mhlo<comparison_direction GT>} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    %4 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %5 = "mhlo.reduce"(%0, %4) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%s) : (tensor<f32>) -> ()
    }) {dimensions = dense<1> : tensor<1xi64>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    return %3, %5 : tensor<2x4xi1>, tensor<2xf32>
  }
}
{-# dialect_resources: { builtin: { w: ")" +
         WeightsHex() + R"(" } } #-}
)";
}

// `weights`: the blob, or none (declared only), or the key __elided__.
enum class Weights { kBlob, kDeclaredOnly, kElided };

inline std::string MhloBytecode(Weights weights = Weights::kBlob) {
  BytecodeAssembler as;
  auto B = [&](const std::string& bytes) { return as.Attr("builtin", bytes); };
  auto T = [&](const std::string& bytes) { return as.Type("builtin", bytes); };
  auto M = [&](const std::string& bytes) { return as.Attr("mhlo", bytes); };
  // Op names (builtin first: the module).
  const uint64_t op_module = as.OpName("builtin", "module");
  const uint64_t op_func = as.OpName("func", "func");
  const uint64_t op_return = as.OpName("func", "return");
  const uint64_t op_dot = as.OpName("mhlo", "dot_general");
  const uint64_t op_const = as.OpName("mhlo", "constant");
  const uint64_t op_copy = as.OpName("mhlo", "copy");
  const uint64_t op_compare = as.OpName("mhlo", "compare");
  const uint64_t op_reduce = as.OpName("mhlo", "reduce");
  const uint64_t op_add = as.OpName("mhlo", "add");
  const uint64_t op_mreturn = as.OpName("mhlo", "return");
  // Types.
  const uint64_t f32 = T(VarInt(5));
  const uint64_t i1 = T(VarInt(0) + VarInt(1 << 2));
  const uint64_t i64 = T(VarInt(0) + VarInt(64 << 2));
  auto tensor = [&](std::vector<int64_t> dims, uint64_t element) {
    return T(VarInt(13) + SignedList(dims) + VarInt(element));
  };
  const uint64_t t2x3 = tensor({2, 3}, f32), t3x4 = tensor({3, 4}, f32);
  const uint64_t t2x4 = tensor({2, 4}, f32), t2x4i1 = tensor({2, 4}, i1);
  const uint64_t scalar = tensor({}, f32), t2 = tensor({2}, f32), t1xi64 = tensor({1}, i64);
  const uint64_t fn = T(VarInt(2) + List({t2x3, t3x4}) + List({t2x4i1, t2}));
  // Attributes.
  const uint64_t unknown_loc = B(VarInt(15));
  const uint64_t module_name = B(VarInt(2) + VarInt(as.Str("tf_model")));
  const uint64_t main_name = B(VarInt(2) + VarInt(as.Str("main")));
  const uint64_t fn_type = B(VarInt(6) + VarInt(fn));
  const uint64_t dot_dims =
      M(VarInt(5) + SignedList({}) + SignedList({}) + SignedList({1}) + SignedList({0}));
  const uint64_t p_default = M(VarInt(8) + VarInt(0)), p_highest = M(VarInt(8) + VarInt(2));
  const uint64_t precision = B(VarInt(0) + List({p_default, p_highest}));
  const std::string key = weights == Weights::kElided ? "__elided__" : "w";
  const std::string blob(reinterpret_cast<const char*>(kWeights), sizeof(kWeights));
  const uint64_t handle = as.Resource("builtin", key, blob, weights != Weights::kBlob);
  const uint64_t w = B(VarInt(16) + VarInt(t2x4) + VarInt(handle));
  const uint64_t gt = M(VarInt(2) + VarInt(3)), fl = M(VarInt(3) + VarInt(1));
  const uint64_t zero = B(VarInt(18) + VarInt(scalar) + VarInt(4) + std::string(4, '\0'));
  std::string one(8, '\0');
  one[0] = 1;
  const uint64_t dims = B(VarInt(18) + VarInt(t1xi64) + VarInt(8) + one);
  // Properties, each op's inherent attributes in name order ('?': flagged).
  auto flag = [](uint64_t i) { return VarInt((i << 1) | 1); };
  const uint64_t pr_module = as.Properties(flag(module_name) + VarInt(0));
  // func.func as MLIR wrote it before no_inline: arg_attrs? function_type
  // res_attrs? sym_name sym_visibility?.
  const uint64_t pr_func =
      as.Properties(VarInt(0) + VarInt(fn_type) + VarInt(0) + VarInt(main_name) + VarInt(0));
  const uint64_t pr_dot = as.Properties(VarInt(0) + VarInt(dot_dims) + flag(precision));
  const uint64_t pr_w = as.Properties(VarInt(w));
  const uint64_t pr_copy = as.Properties(VarInt(0));
  const uint64_t pr_compare = as.Properties(flag(fl) + VarInt(gt));
  const uint64_t pr_zero = as.Properties(VarInt(zero));
  const uint64_t pr_reduce = as.Properties(VarInt(dims));

  auto op = [&](uint64_t name, uint8_t mask, std::string rest) {
    return VarInt(name) + Byte(mask) + VarInt(unknown_loc) + rest;
  };
  auto operands = [](std::vector<uint64_t> values) { return List(values); };
  // The reduce body: values 8 (a), 9 (b), 10 (a + b), after the function's 0-7.
  const std::string body_block =
      VarInt((2 << 1) | 1) + VarInt(2) + VarInt(scalar << 1) + VarInt(scalar << 1) + Byte(0) +
      op(op_add, kOpHasResults | kOpHasOperands, VarInt(1) + VarInt(scalar) + operands({8, 9})) +
      op(op_mreturn, kOpHasOperands, operands({10}));
  const std::string reduce_region = VarInt(1) + VarInt(3) + body_block;
  // The function body: arguments 0 and 1, then results 2-7.
  std::string fn_block = VarInt((7 << 1) | 1) + VarInt(2) + VarInt(t2x3 << 1) +
                         VarInt(t3x4 << 1) + Byte(0);
  const uint8_t props_results = kOpHasProperties | kOpHasResults;
  fn_block += op(op_dot, props_results | kOpHasOperands,
                 VarInt(pr_dot) + VarInt(1) + VarInt(t2x4) + operands({0, 1}));
  fn_block += op(op_const, props_results, VarInt(pr_w) + VarInt(1) + VarInt(t2x4));
  fn_block += op(op_copy, props_results | kOpHasOperands,
                 VarInt(pr_copy) + VarInt(1) + VarInt(t2x4) + operands({3}));
  fn_block += op(op_compare, props_results | kOpHasOperands,
                 VarInt(pr_compare) + VarInt(1) + VarInt(t2x4i1) + operands({2, 4}));
  fn_block += op(op_const, props_results, VarInt(pr_zero) + VarInt(1) + VarInt(scalar));
  fn_block += op(op_reduce, props_results | kOpHasOperands | kOpHasRegions,
                 VarInt(pr_reduce) + VarInt(1) + VarInt(t2) + operands({2, 6}) +
                     VarInt(1 << 1) + reduce_region);
  fn_block += op(op_return, kOpHasOperands, operands({5, 7}));
  const std::string fn_region = VarInt(1) + VarInt(8) + fn_block;
  const std::string func = op(op_func, kOpHasProperties | kOpHasRegions,
                              VarInt(pr_func) + VarInt((1 << 1) | 1) +
                                  Section(4, fn_region));
  const std::string module_region = VarInt(1) + VarInt(0) + VarInt(1 << 1) + func;
  const std::string module = op(op_module, kOpHasProperties | kOpHasRegions,
                                VarInt(pr_module) + VarInt((1 << 1) | 1) +
                                    Section(4, module_region));
  return as.Finish(VarInt(1 << 1) + module);
}

}  // namespace plugrt::shlo::bc_test

#endif  // PLUGRT_TESTS_COMPILER_MHLO_BYTECODE_PROGRAM_H_
