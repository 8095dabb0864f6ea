// Uniform quantized types end to end: the type's text round-trips, the
// verifier refuses what the spec's quantization rules forbid, and programs
// compile (through the quantized lowering) and compute what the spec says:
// round-to-nearest-even, clamping to the storage range, per-axis parameters,
// requantization, and storage element types at the program's boundary.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cpu/cpu_executable.h"
#include "cpu/exec/program.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/quantized_dot.h"
#include "compiler/passes/lower_quantized.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "stablehlo/quant_type.h"
#include "compiler/importers/serialize.h"
#include "stablehlo/verifier.h"

namespace plugrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---------------------------------------------------------------- types

TEST(QuantizedTypeTest, PrintsWhatItParses) {
  for (const char* text : {
           "!quant.uniform<i8:f32, 0.0039188104517319626:-128>",
           "!quant.uniform<i8:f32, 0.5>",
           "!quant.uniform<u8:f32, 0.25:7>",
           "!quant.uniform<i4<-7:7>:f16, 1.5:2>",
           "!quant.uniform<i2:bf16, 0.125:-1>",
           "!quant.uniform<i32:f32, 1.5350925350904778e-05>",
           "tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.1:-5,0.2:3,0.3}>>",
           "tensor<2x!quant.uniform<u16:f32:0, {2.0:100,4.0}>>",
       }) {
    StatusOr<shlo::Type> type = shlo::ParseTypeText(text);
    ASSERT_TRUE(type.ok()) << text << ": " << type.status().ToString();
    StatusOr<shlo::Type> again = shlo::ParseTypeText(type->ToString());
    ASSERT_TRUE(again.ok()) << type->ToString() << ": " << again.status().ToString();
    EXPECT_EQ(*type, *again) << text;
    EXPECT_EQ(type->ToString(), again->ToString());
  }
}

TEST(QuantizedTypeTest, KeepsParameters) {
  StatusOr<shlo::Type> type =
      shlo::ParseTypeText("tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.1:-5, 0.2:3, 0.3}>>");
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  ASSERT_TRUE(type->is_quantized());
  const shlo::UniformQuantParams& q = *type->quant();
  EXPECT_EQ(type->element_type(), shlo::ElementType::kSI8);
  EXPECT_EQ(q.storage_min, -127);
  EXPECT_EQ(q.storage_max, 127);
  EXPECT_EQ(q.expressed, shlo::ElementType::kF32);
  EXPECT_EQ(q.quantized_dimension, 1);
  EXPECT_THAT(q.scales, ElementsAre(0.1, 0.2, 0.3));
  EXPECT_THAT(q.zero_points, ElementsAre(-5, 3, 0));
  // Different scales make different types; the printed default range is
  // left out.
  EXPECT_NE(*shlo::ParseTypeText("!quant.uniform<i8:f32, 0.5>"),
            *shlo::ParseTypeText("!quant.uniform<i8:f32, 0.25>"));
  EXPECT_EQ(shlo::ParseTypeText("!quant.uniform<i8<-128:127>:f32, 0.5:0>")->ToString(),
            "!quant.uniform<i8:f32, 0.5>");
}

TEST(QuantizedTypeTest, RefusesInvalidParameters) {
  struct Case {
    const char* text;
    const char* error;
  };
  for (const Case& c : std::vector<Case>{
           {"!quant.uniform<i64:f32, 0.5>", "storage type"},
           {"!quant.uniform<f32:f32, 0.5>", "storage type"},
           {"!quant.uniform<i8:i32, 0.5>", "float expressed type"},
           {"!quant.uniform<i8:f32, 0.0>", "not positive"},
           {"!quant.uniform<i8:f32, -1.0>", "not positive"},
           {"!quant.uniform<i8:f32, 0.5:200>", "zero point 200"},
           {"!quant.uniform<i8<-200:0>:f32, 0.5>", "storage range"},
           {"!quant.uniform<i8<5:5>:f32, 0.5>", "storage range"},
           {"!quant.uniform<i8:f32, {0.5, 0.25}>", "quantized dimension"},
           {"!quant.uniform<i8:f32, 0.5:1 x>", "unexpected text"},
           {"tensor<3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>", "does not fit"},
           {"tensor<3x!quant.uniform<i8:f32:1, {0.5, 0.25, 1.0}>>", "does not fit"},
       }) {
    StatusOr<shlo::Type> type = shlo::ParseTypeText(c.text);
    ASSERT_FALSE(type.ok()) << c.text;
    EXPECT_EQ(type.status().code(), StatusCode::kInvalidArgument) << c.text;
    EXPECT_THAT(type.status().message(), HasSubstr(c.error)) << c.text;
  }
}

// ---------------------------------------------------------------- verifier

Status Verify(const std::string& text) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  return shlo::VerifyModule(*module);
}

TEST(QuantizedVerifierTest, RefusesWhatTheSpecForbids) {
  struct Case {
    const char* body;
    const char* error;
  };
  for (const Case& c : std::vector<Case>{
           {"%r = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> "
            "tensor<2xf16>",
            "(C2) element_type(result) = expressed_type(operand)"},
           {"%r = stablehlo.uniform_quantize %f : (tensor<2xf16>) -> "
            "tensor<2x!quant.uniform<i8:f32, 0.5>>",
            "(C2) expressed_type(result)"},
           {"%r = stablehlo.add %q, %u : (tensor<2x!quant.uniform<i8:f32, 0.5>>, "
            "tensor<2x!quant.uniform<u8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>",
            "(C3) storage_type(lhs)"},
           {"%r = stablehlo.and %q, %q : tensor<2x!quant.uniform<i8:f32, 0.5>>",
            "does not take quantized tensors"},
           {"%r = stablehlo.negate %p : tensor<2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>",
            "per-axis quantized"},
           {"%r = stablehlo.reshape %q : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> "
            "tensor<1x2x!quant.uniform<i8:f32, 0.25>>",
            "element_type(operand) = element_type(result)"},
       }) {
    std::string text = std::string(R"(
func.func @main(%q: tensor<2x!quant.uniform<i8:f32, 0.5>>, %u: tensor<2x!quant.uniform<u8:f32, 0.5>>,
                %p: tensor<2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>, %f: tensor<2xf16>) {
  )") + c.body + "\n  func.return\n}\n";
    Status status = Verify(text);
    ASSERT_FALSE(status.ok()) << c.body;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.body;
    EXPECT_THAT(status.message(), HasSubstr(c.error)) << c.body;
  }
}

// ---------------------------------------------------------------- execution

StatusOr<std::vector<cpu::RtValue>> RunQuantized(const std::string& text) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*module));
  PLUGRT_RETURN_IF_ERROR(passes::LowerQuantized(*module));
  EXPECT_FALSE(passes::HasQuantizedTypes(*module));
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*module));
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<const cpu::Program> program,
      cpu::Program::Compile(std::shared_ptr<const shlo::Module>(std::move(module))));
  cpu::ExecContext context;
  return program->Run({}, context);
}

template <typename T>
std::vector<int64_t> Ints(const cpu::RtValue& v) {
  const cpu::Tensor& t = v.tensor;
  return std::vector<int64_t>(t.as<T>(), t.as<T>() + t.num_elements());
}
std::vector<float> Floats(const cpu::RtValue& v) {
  const cpu::Tensor& t = v.tensor;
  return std::vector<float>(t.as<float>(), t.as<float>() + t.num_elements());
}

TEST(QuantizedExecutionTest, QuantizeRoundsHalfToEvenAndClampsToTheStorageRange) {
  auto out = RunQuantized(R"(
func.func @main() -> (tensor<8xi8>, tensor<4xi8>, tensor<4xui8>) {
  %x = stablehlo.constant dense<[0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1000.0, -1000.0]> : tensor<8xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<8xf32>) -> tensor<8x!quant.uniform<i8<-127:127>:f32, 1.0>>
  %s = stablehlo.bitcast_convert %q : (tensor<8x!quant.uniform<i8<-127:127>:f32, 1.0>>) -> tensor<8xi8>
  %y = stablehlo.constant dense<[0.0, 0.25, 3.0, -3.0]> : tensor<4xf32>
  %q2 = stablehlo.uniform_quantize %y : (tensor<4xf32>) -> tensor<4x!quant.uniform<i4:f32, 0.5:-3>>
  %s2 = stablehlo.bitcast_convert %q2 : (tensor<4x!quant.uniform<i4:f32, 0.5:-3>>) -> tensor<4xi4>
  %w2 = stablehlo.convert %s2 : (tensor<4xi4>) -> tensor<4xi8>
  %q3 = stablehlo.uniform_quantize %y : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.5:10>>
  %s3 = stablehlo.bitcast_convert %q3 : (tensor<4x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<4xui8>
  func.return %s, %w2, %s3 : tensor<8xi8>, tensor<4xi8>, tensor<4xui8>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // Ties go to the even integer; the declared range [-127, 127] clamps.
  EXPECT_THAT(Ints<int8_t>((*out)[0]), ElementsAre(0, 2, 2, 0, -2, -2, 127, -127));
  // i4 [-8, 7]: 0/0.5-3 = -3, 0.25/0.5-3 = -2.5 -> -2, 3/0.5-3 = 3, -3/0.5-3 = -9 -> -8.
  EXPECT_THAT(Ints<int8_t>((*out)[1]), ElementsAre(-3, -2, 3, -8));
  // u8: zero point 10; -3/0.5+10 = 4.
  EXPECT_THAT(Ints<uint8_t>((*out)[2]), ElementsAre(10, 10, 16, 4));
}

TEST(QuantizedExecutionTest, PerAxisRequantizeDequantizeAndAdd) {
  auto out = RunQuantized(R"(
func.func @main() -> (tensor<2xi8>, tensor<2xi8>, tensor<2xf32>, tensor<2xi8>) {
  %x = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %s = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xi8>
  %r = stablehlo.uniform_quantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
  %rs = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>) -> tensor<2xi8>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = stablehlo.uniform_quantize %b : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %sum = stablehlo.add %qa, %qb : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %ss = stablehlo.bitcast_convert %sum : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  func.return %s, %rs, %d, %ss : tensor<2xi8>, tensor<2xi8>, tensor<2xf32>, tensor<2xi8>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Ints<int8_t>((*out)[0]), ElementsAre(10, 10));
  EXPECT_THAT(Ints<int8_t>((*out)[1]), ElementsAre(20, 45));
  EXPECT_THAT(Floats((*out)[2]), ElementsAre(4.0f, 15.0f));
  // (1 + 3) / 0.5 - 20 = -12, (2 + 4) / 0.5 - 20 = -8.
  EXPECT_THAT(Ints<int8_t>((*out)[3]), ElementsAre(-12, -8));
}

TEST(QuantizedExecutionTest, ElementwiseOpsComputeOnDequantizedValues) {
  auto out = RunQuantized(R"(
func.func @main() -> tensor<3xf32> {
  %x = stablehlo.constant dense<[-1.0, 0.5, 2.0]> : tensor<3xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %t = stablehlo.transpose %q, dims = [0] : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %m = stablehlo.multiply %t, %t : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.25:1>>
  %d = stablehlo.uniform_dequantize %m : (tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3xf32>
  func.return %d : tensor<3xf32>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Floats((*out)[0]), ElementsAre(1.0f, 0.25f, 4.0f));
}

TEST(QuantizedExecutionTest, HybridDotDequantizesTheWeights) {
  auto out = RunQuantized(R"(
func.func @main() -> tensor<1x2xf32> {
  %lhs = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %w = stablehlo.constant dense<[[1.0, -1.0], [0.5, 2.0]]> : tensor<2x2xf32>
  %qw = stablehlo.uniform_quantize %w : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:4}>>
  %r = stablehlo.dot_general %lhs, %qw, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:4}>>) -> tensor<1x2xf32>
  func.return %r : tensor<1x2xf32>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // 1*1 + 2*0.5 = 2, 1*-1 + 2*2 = 3.
  EXPECT_THAT(Floats((*out)[0]), ElementsAre(2.0f, 3.0f));
}

TEST(QuantizedExecutionTest, ProgramBoundaryCarriesStorageTypes) {
  StatusOr<std::shared_ptr<cpu::CpuExecutable>> executable = cpu::CpuExecutable::Compile(R"(
func.func @main(%x: tensor<2x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<i16:f32, 0.25>> {
  %r = stablehlo.uniform_quantize %x : (tensor<2x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<i16:f32, 0.25>>
  func.return %r : tensor<2x!quant.uniform<i16:f32, 0.25>>
}
)",
                                                                                         "test.mlir");
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  StatusOr<std::vector<PJRT_Buffer_Type>> types = (*executable)->output_element_types();
  ASSERT_TRUE(types.ok());
  EXPECT_THAT(*types, ElementsAre(PJRT_Buffer_Type_S16));
  EXPECT_EQ((*executable)->program().entry().input_types[0],
            shlo::Type::Tensor(shlo::ElementType::kUI8, {2}));
}

constexpr char kQuantizedConstant[] = R"(
func.func @main() -> tensor<3xf32> {
  %c = stablehlo.constant dense<[-2, 0, 7]> : tensor<3x!quant.uniform<i8:f32:0, {0.5:1, 1.0, 2.0:-1}>>
  %d = stablehlo.uniform_dequantize %c : (tensor<3x!quant.uniform<i8:f32:0, {0.5:1, 1.0, 2.0:-1}>>) -> tensor<3xf32>
  func.return %d : tensor<3xf32>
}
)";

TEST(QuantizedExecutionTest, QuantizedConstantsHoldStorageValues) {
  auto out = RunQuantized(kQuantizedConstant);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Floats((*out)[0]), ElementsAre(-1.5f, 0.0f, 16.0f));
}

TEST(QuantizedExecutionTest, SerializedModulesKeepQuantizedTypes) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(kQuantizedConstant, "t.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  std::string bytes = shlo::SerializeModule(**module);
  StatusOr<std::unique_ptr<shlo::Module>> back = shlo::DeserializeModule(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(shlo::PrintModule(**back), shlo::PrintModule(**module));
  EXPECT_TRUE(passes::HasQuantizedTypes(**back));
}

TEST(QuantizedExecutionTest, ExecutorRefusesUnloweredPrograms) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(kQuantizedConstant, "t.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto program = cpu::Program::Compile(std::shared_ptr<const shlo::Module>(std::move(*module)));
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(program.status().message(), HasSubstr("quantized"));
}

// The int8 fast path (oneDNN's int8 matmul with VNNI; without it, where
// oneDNN's int8 kernels saturate 16-bit pair sums, plugrt's AVX2 kernel or
// f32 sgemm) equals the exact integer product, the extreme values included.
TEST(QuantizedExecutionTest, Int8FastDotIsExact) {
  // k = 2500 runs in three chunks on the f32 path, in two k blocks on the
  // AVX2 kernel.
  for (int64_t k : {256, 2500}) {
    SCOPED_TRACE(k);
    const int64_t m = 48, n = 40;
    cpu::Tensor lhs(shlo::ElementType::kSI8, {m, k}), rhs(shlo::ElementType::kSI8, {k, n});
    std::mt19937 generator(7);
    std::uniform_int_distribution<int> value(-128, 127);
    int8_t* l = lhs.mutable_as<int8_t>();
    int8_t* r = rhs.mutable_as<int8_t>();
    for (int64_t i = 0; i < m * k; ++i) l[i] = static_cast<int8_t>(value(generator));
    for (int64_t i = 0; i < k * n; ++i) r[i] = static_cast<int8_t>(value(generator));
    for (int64_t j = 0; j < k; ++j) {
      l[0 * k + j] = -128, l[1 * k + j] = 127, l[2 * k + j] = -128;
      r[j * n + 0] = -128, r[j * n + 1] = -128, r[j * n + 2] = 127;
  }
  const cpu::DotDimensions dims{{}, {}, {1}, {0}};
  auto fast = cpu::FastDot::Plan(lhs.dims(), shlo::ElementType::kSI8, rhs.dims(),
                                 shlo::ElementType::kSI8, dims, shlo::ElementType::kSI32,
                                 /*kernel_threads=*/2);
  ASSERT_NE(fast, nullptr);
  StatusOr<cpu::Tensor> got = fast->Run(lhs, rhs, /*kernel_threads=*/2);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  cpu::Tensor want = cpu::DotGeneral(lhs, rhs, dims, shlo::ElementType::kSI32);
  int mismatches = 0;
  for (int64_t i = 0; i < m * n; ++i) {
    if (got->as<int32_t>()[i] != want.as<int32_t>()[i] && mismatches++ < 5) {
      ADD_FAILURE() << "element " << i << ": " << got->as<int32_t>()[i] << " vs "
                    << want.as<int32_t>()[i];
    }
  }
  EXPECT_EQ(mismatches, 0);
  // The reference agrees with a direct sum at the extremes.
  EXPECT_EQ(want.as<int32_t>()[0 * n + 0], k * 128 * 128);
  EXPECT_EQ(want.as<int32_t>()[1 * n + 1], -k * 127 * 128);
  }
}

// plugrt.quantized_dot as one oneDNN int8 matmul (lhs zero point, per-tensor
// or per-column scales, result zero point, rounding and saturation inside
// oneDNN) gives the same integers as the product rescaled by plugrt's own
// loop, ties (scale 0.5) and saturation included. Skipped where the CPU has
// no VNNI: there is no fused plan to compare.
TEST(QuantizedExecutionTest, FusedInt8RescalingEqualsTheReferenceLoop) {
  const int64_t m = 64, k = 300, n = 48;
  std::mt19937 generator(5);
  std::uniform_int_distribution<int> value(-128, 127);
  std::uniform_real_distribution<float> spread(0.001f, 0.05f);
  struct Case {
    shlo::ElementType lhs, out;
    int64_t lhs_zp, out_zp;
    bool per_column;
    float scale;  // 0: random per column
  };
  const Case cases[] = {
      {shlo::ElementType::kSI8, shlo::ElementType::kSI8, -3, 5, false, 0.5f},
      {shlo::ElementType::kSI8, shlo::ElementType::kSI8, 7, -2, true, 0.0f},
      {shlo::ElementType::kSI8, shlo::ElementType::kSI8, 0, 0, false, 0.0013f},
      {shlo::ElementType::kUI8, shlo::ElementType::kUI8, 128, 100, false, 0.25f},
      {shlo::ElementType::kSI8, shlo::ElementType::kSI32, -100, 3, true, 0.0f},
  };
  int compared = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(shlo::ElementTypeName(c.lhs)) + " -> " +
                 std::string(shlo::ElementTypeName(c.out)));
    cpu::Tensor lhs(c.lhs, {m, k}), rhs(shlo::ElementType::kSI8, {k, n});
    auto* l = reinterpret_cast<uint8_t*>(lhs.MutableData());
    int8_t* r = rhs.mutable_as<int8_t>();
    for (int64_t i = 0; i < m * k; ++i) l[i] = static_cast<uint8_t>(value(generator));
    for (int64_t i = 0; i < k * n; ++i) r[i] = static_cast<int8_t>(value(generator));
    for (int64_t j = 0; j < k; ++j) l[j] = 0x80, r[j * n] = -128;  // the extremes
    cpu::QuantizedDotParams params;
    params.lhs_zero_point = c.lhs_zp;
    const size_t channels = c.per_column ? static_cast<size_t>(n) : 1;
    for (size_t i = 0; i < channels; ++i) {
      params.scales.push_back(c.scale != 0 ? c.scale : spread(generator));
      params.zero_points.push_back(c.out_zp);
    }
    params.scale_dimension = c.per_column ? 1 : -1;
    params.storage = c.out;
    params.storage_min = shlo::StorageTypeMin(c.out);
    params.storage_max = shlo::StorageTypeMax(c.out);
    params.full_range = true;
    const cpu::DotDimensions dims{{}, {}, {1}, {0}};
    auto plan = [&](bool fast) {
      return cpu::QuantizedDot::Plan(lhs.dims(), c.lhs, rhs.dims(), shlo::ElementType::kSI8,
                                     dims, params, fast, /*kernel_threads=*/2);
    };
    auto fused = plan(true);
    auto reference = plan(false);
    ASSERT_TRUE(fused.ok()) << fused.status().ToString();
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    ASSERT_FALSE((*reference)->fused());
    if (!(*fused)->fused()) continue;
    StatusOr<cpu::Tensor> got = (*fused)->Run(lhs, rhs, 2);
    StatusOr<cpu::Tensor> want = (*reference)->Run(lhs, rhs, 2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    const size_t bytes = static_cast<size_t>(m * n * shlo::StorageBytes(c.out));
    int mismatches = 0;
    for (int64_t i = 0; i < m * n; ++i) {
      const size_t w = static_cast<size_t>(shlo::StorageBytes(c.out));
      if (std::memcmp(reinterpret_cast<const std::byte*>(got->data()) + i * w,
                      reinterpret_cast<const std::byte*>(want->data()) + i * w, w) != 0 &&
          mismatches++ < 5) {
        ADD_FAILURE() << "element " << i;
      }
    }
    EXPECT_EQ(mismatches, 0) << "of " << bytes / shlo::StorageBytes(c.out);
    ++compared;
  }
  if (compared == 0) GTEST_SKIP() << "no fused int8 plan on this CPU (no VNNI)";
  EXPECT_EQ(compared, static_cast<int>(std::size(cases))) << "a case did not fuse";
}

// The reference path of plugrt.quantized_dot with batching dimensions, a
// transposed rhs, scales along a middle rhs free dimension or along an lhs
// free dimension, and a narrow storage range, against a direct computation.
TEST(QuantizedExecutionTest, QuantizedDotReferenceAgreesWithADirectSum) {
  const int64_t b = 2, m = 5, k = 7, p = 3, q = 4;
  cpu::Tensor lhs(shlo::ElementType::kSI8, {b, m, k});
  cpu::Tensor rhs(shlo::ElementType::kSI8, {b, p, k, q});  // free p, contracted k, free q
  std::mt19937 generator(3);
  std::uniform_int_distribution<int> value(-128, 127);
  for (int64_t i = 0; i < lhs.num_elements(); ++i) {
    lhs.mutable_as<int8_t>()[i] = static_cast<int8_t>(value(generator));
  }
  for (int64_t i = 0; i < rhs.num_elements(); ++i) {
    rhs.mutable_as<int8_t>()[i] = static_cast<int8_t>(value(generator));
  }
  const cpu::DotDimensions dims{{0}, {0}, {2}, {2}};
  for (int64_t scale_dimension : {1, 2}) {
    SCOPED_TRACE(scale_dimension);
    cpu::QuantizedDotParams params;
    params.lhs_zero_point = 9;
    const int64_t channels = scale_dimension == 1 ? m : p;
    for (int64_t c = 0; c < channels; ++c) {
      params.scales.push_back(0.01f * static_cast<float>(c + 1));
      params.zero_points.push_back(c - 2);
    }
    params.scale_dimension = scale_dimension;
    params.storage = shlo::ElementType::kSI8;
    params.storage_min = -100;
    params.storage_max = 100;
    auto plan = cpu::QuantizedDot::Plan(lhs.dims(), shlo::ElementType::kSI8, rhs.dims(),
                                        shlo::ElementType::kSI8, dims, params, true, 2);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    StatusOr<cpu::Tensor> got = (*plan)->Run(lhs, rhs, 2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(got->dims(), (std::vector<int64_t>{b, m, p, q}));
    int clamped = 0;
    for (int64_t bi = 0; bi < b; ++bi) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t pi = 0; pi < p; ++pi) {
          for (int64_t qi = 0; qi < q; ++qi) {
            int64_t sum = 0;
            for (int64_t c = 0; c < k; ++c) {
              sum += (int64_t{lhs.as<int8_t>()[(bi * m + i) * k + c]} - 9) *
                     rhs.as<int8_t>()[((bi * p + pi) * k + c) * q + qi];
            }
            const int64_t ch = scale_dimension == 1 ? i : pi;
            const float scaled = static_cast<float>(sum) * params.scales[ch];
            const float x = scaled + static_cast<float>(params.zero_points[ch]);
            const float want = std::nearbyint(std::min(100.0f, std::max(-100.0f, x)));
            clamped += std::abs(want) == 100.0f;
            EXPECT_EQ(got->as<int8_t>()[((bi * m + i) * p + pi) * q + qi], want)
                << bi << "," << i << "," << pi << "," << qi;
          }
        }
      }
    }
    EXPECT_GT(clamped, 0);  // the narrow range was reached
  }
}

// A quantized dot_general with per-axis weights computes in integers and
// agrees with the float (dequantize -> dot -> quantize) result.
TEST(QuantizedExecutionTest, IntegerDotMatchesTheFloatComputation) {
  auto out = RunQuantized(R"(
func.func @main() -> (tensor<2x3xi8>, tensor<2x3xi8>) {
  %a = stablehlo.constant dense<[[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.75, 1.0]]> : tensor<2x4xf32>
  %w = stablehlo.constant dense<[[1.0, -0.5, 0.25], [0.5, 1.0, -1.0], [-1.0, 0.25, 0.5], [0.75, 0.5, 1.0]]> : tensor<4x3xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 0.0625:-3>>
  %qw = stablehlo.uniform_quantize %w : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8:f32:1, {0.03125, 0.0625, 0.125}>>
  %r = stablehlo.dot_general %qa, %qw, contracting_dims = [1] x [0] : (tensor<2x4x!quant.uniform<i8:f32, 0.0625:-3>>, tensor<4x3x!quant.uniform<i8:f32:1, {0.03125, 0.0625, 0.125}>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.125:2>>
  %s = stablehlo.bitcast_convert %r : (tensor<2x3x!quant.uniform<i8:f32, 0.125:2>>) -> tensor<2x3xi8>
  %da = stablehlo.uniform_dequantize %qa : (tensor<2x4x!quant.uniform<i8:f32, 0.0625:-3>>) -> tensor<2x4xf32>
  %dw = stablehlo.uniform_dequantize %qw : (tensor<4x3x!quant.uniform<i8:f32:1, {0.03125, 0.0625, 0.125}>>) -> tensor<4x3xf32>
  %f = stablehlo.dot_general %da, %dw, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %qf = stablehlo.uniform_quantize %f : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.125:2>>
  %sf = stablehlo.bitcast_convert %qf : (tensor<2x3x!quant.uniform<i8:f32, 0.125:2>>) -> tensor<2x3xi8>
  func.return %s, %sf : tensor<2x3xi8>, tensor<2x3xi8>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Ints<int8_t>((*out)[0]), Ints<int8_t>((*out)[1]));
  // Row 0, column 0: 0.5 - 0.5 - 2 + 0.1875 = -1.8125 -> -14.5 + 2 -> -12 (even).
  EXPECT_EQ(Ints<int8_t>((*out)[0])[0], -12);
}

// The lhs zero-point correction: up to a depth where every product sum and
// offset is exact in f32 it is subtracted in f32 inside the rescaling,
// beyond it in i32 first. Both give the exact integer result's requantized
// value: checked against sum((l - zp) * r) computed here in integers,
// rescaled in f32 as the lowering does (a result may differ by one where a
// fused multiply-add rounds once instead of twice).
TEST(QuantizedExecutionTest, ZeroPointCorrectionIsExactOnBothSidesOfTheF32Bound) {
  for (int64_t k : {1024, 1100}) {
    SCOPED_TRACE(k);
    const int64_t m = 3, n = 4;
    std::mt19937 generator(11);
    std::uniform_int_distribution<int> value(-128, 127);
    std::vector<int> l(m * k), r(k * n);
    for (int& v : l) v = value(generator);
    for (int& v : r) v = value(generator);
    // Row 0 at the extremes: the largest product sums the depth allows.
    for (int64_t j = 0; j < k; ++j) l[j] = -128, r[j * n] = -128;
    auto dense = [](const std::vector<int>& values, int64_t rows, int64_t cols) {
      std::string text = "dense<[";
      for (int64_t i = 0; i < rows; ++i) {
        text += i == 0 ? "[" : ", [";
        for (int64_t j = 0; j < cols; ++j) {
          text += (j == 0 ? "" : ", ") + std::to_string(values[i * cols + j]);
        }
        text += "]";
      }
      return text + "]>";
    };
    const std::string ks = std::to_string(k);
    const std::string lt = "tensor<3x" + ks + "x!quant.uniform<i8:f32, 0.02:-3>>";
    const std::string rt = "tensor<" + ks + "x4x!quant.uniform<i8:f32, 0.01>>";
    const std::string ot = "tensor<3x4x!quant.uniform<i8:f32, 40.0:5>>";
    const std::string text =
        "func.func @main() -> tensor<3x4xi8> {\n"
        "  %l = stablehlo.constant " + dense(l, m, k) + " : tensor<3x" + ks + "xi8>\n"
        "  %r = stablehlo.constant " + dense(r, k, n) + " : tensor<" + ks + "x4xi8>\n"
        "  %ql = stablehlo.bitcast_convert %l : (tensor<3x" + ks + "xi8>) -> " + lt + "\n"
        "  %qr = stablehlo.bitcast_convert %r : (tensor<" + ks + "x4xi8>) -> " + rt + "\n"
        "  %d = stablehlo.dot_general %ql, %qr, contracting_dims = [1] x [0] : (" + lt + ", " +
        rt + ") -> " + ot + "\n"
        "  %s = stablehlo.bitcast_convert %d : (" + ot + ") -> tensor<3x4xi8>\n"
        "  func.return %s : tensor<3x4xi8>\n}\n";
    auto out = RunQuantized(text);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    const std::vector<int64_t> got = Ints<int8_t>((*out)[0]);
    const float scale = static_cast<float>(0.02 * 0.01 / 40.0);
    int exact = 0;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        int64_t acc = 0;
        for (int64_t c = 0; c < k; ++c) acc += int64_t{l[i * k + c] + 3} * r[c * n + j];
        float f = static_cast<float>(acc) * scale + 5.0f;
        f = std::nearbyint(std::min(127.0f, std::max(-128.0f, f)));
        const int64_t want = static_cast<int64_t>(f);
        EXPECT_LE(std::abs(got[i * n + j] - want), 1) << "element " << i << "," << j;
        exact += got[i * n + j] == want;
      }
    }
    EXPECT_GE(exact, 11);
    // Row 0, column 0, the largest sum: (-128 + 3) * -128 * k, of which the
    // correction is 3 * -128 * k (about two steps of the result's scale).
    EXPECT_EQ(got[0], static_cast<int64_t>(std::nearbyint(
                          std::min(127.0f, static_cast<float>(125 * 128 * k) * scale + 5.0f))));
  }
}

// With batching dimensions the column sums come from a reduction.
TEST(QuantizedExecutionTest, BatchedIntegerDotMatchesTheFloatComputation) {
  auto out = RunQuantized(R"(
func.func @main() -> (tensor<2x1x2xi8>, tensor<2x1x2xi8>) {
  %a = stablehlo.constant dense<[[[0.5, -1.0, 2.0]], [[1.5, 0.0, -0.75]]]> : tensor<2x1x3xf32>
  %w = stablehlo.constant dense<[[[1.0, -0.5], [0.5, 1.0], [-1.0, 0.25]], [[0.75, 0.5], [1.0, -1.0], [0.25, 0.5]]]> : tensor<2x3x2xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2x1x3xf32>) -> tensor<2x1x3x!quant.uniform<i8:f32, 0.0625:5>>
  %qw = stablehlo.uniform_quantize %w : (tensor<2x3x2xf32>) -> tensor<2x3x2x!quant.uniform<i8:f32, 0.03125>>
  %r = stablehlo.dot_general %qa, %qw, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x1x3x!quant.uniform<i8:f32, 0.0625:5>>, tensor<2x3x2x!quant.uniform<i8:f32, 0.03125>>) -> tensor<2x1x2x!quant.uniform<i8:f32, 0.0625:-1>>
  %s = stablehlo.bitcast_convert %r : (tensor<2x1x2x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<2x1x2xi8>
  %da = stablehlo.uniform_dequantize %qa : (tensor<2x1x3x!quant.uniform<i8:f32, 0.0625:5>>) -> tensor<2x1x3xf32>
  %dw = stablehlo.uniform_dequantize %qw : (tensor<2x3x2x!quant.uniform<i8:f32, 0.03125>>) -> tensor<2x3x2xf32>
  %f = stablehlo.dot_general %da, %dw, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x1x3xf32>, tensor<2x3x2xf32>) -> tensor<2x1x2xf32>
  %qf = stablehlo.uniform_quantize %f : (tensor<2x1x2xf32>) -> tensor<2x1x2x!quant.uniform<i8:f32, 0.0625:-1>>
  %sf = stablehlo.bitcast_convert %qf : (tensor<2x1x2x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<2x1x2xi8>
  func.return %s, %sf : tensor<2x1x2xi8>, tensor<2x1x2xi8>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Ints<int8_t>((*out)[0]), Ints<int8_t>((*out)[1]));
}

}  // namespace
}  // namespace plugrt
