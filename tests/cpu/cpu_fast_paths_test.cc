// The CPU backend's fast paths (oneDNN dot_general and convolution,
// elementwise fusion with row reductions) must compute what the reference
// kernels compute. Each test compiles one program twice, with the fast paths
// and with the fast_paths option off, runs both on the same random inputs (odd
// shapes, so tails and partial tiles are exercised) and compares. Where the
// CPU has AVX-512 the fused loops run generated code; CTest runs the tests
// again with PLUGRT_CPU_JIT=0 for the interpreted loop.
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/exec/program.h"
#include "cpu/kernels/fast_dot.h"
#include "stablehlo/float_format.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::cpu {
namespace {

// Generated code is used where the CPU runs it, unless this run of the test
// switches it off (CTest's cpu_fast_paths_interpreted_test sets
// PLUGRT_CPU_JIT=0, the same variable the CPU plugin reads as its default).
bool JitWanted() {
  const char* v = std::getenv("PLUGRT_CPU_JIT");
  return v == nullptr || std::strcmp(v, "0") != 0;
}
StatusOr<std::shared_ptr<const Program>> CompileText(const std::string& text, bool fast,
                                                     const passes::PassConfig& passes = {}) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "fast_paths.mlir"));
  ProgramOptions options;
  options.passes = passes;
  options.fast_paths = fast;
  options.jit = JitWanted();
  return Program::Compile(std::shared_ptr<const shlo::Module>(std::move(module)), options);
}

// Random arguments for the entry function: floats uniform in [-scale, scale],
// booleans half true.
std::vector<RtValue> RandomArguments(const Program& program, float scale, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  std::vector<RtValue> args;
  for (const shlo::Type& type : program.entry().input_types) {
    Tensor t(type.element_type(), type.dims());
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      switch (type.element_type()) {
        case ElementType::kF32:
          t.mutable_as<float>()[i] = uniform(rng);
          break;
        case ElementType::kBF16:
          t.mutable_as<uint16_t>()[i] =
              static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kBF16, uniform(rng)));
          break;
        case ElementType::kI1:
          t.mutable_as<uint8_t>()[i] = rng() % 2;
          break;
        default:
          ADD_FAILURE() << "no random values for this element type";
      }
    }
    args.push_back(RtValue::Of(std::move(t)));
  }
  return args;
}

// Whether the fused loops of this run should execute generated code: when
// the build has the code generator (Xbyak), the CPU has AVX-512F and DQ, and
// PLUGRT_CPU_JIT is not 0 (CTest's cpu_fast_paths_interpreted_test sets it).
// Decided here, not by asking the runtime (fused::JitAvailable), so that a
// runtime ignoring the switch, or no longer generating code, fails.
bool GeneratedCodeExpected() {
#if PLUGRT_TEST_BUILD_GENERATES_CODE
  const char* jit = std::getenv("PLUGRT_CPU_JIT");
  if (jit != nullptr && std::strcmp(jit, "0") == 0) return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}

void ExpectGeneratedCodeAsConfigured(const KernelCounters& counters) {
  if (GeneratedCodeExpected()) {
    EXPECT_GT(counters.jit_segments, 0) << "the fused loops ran interpreted";
  } else {
    EXPECT_EQ(counters.jit_segments, 0)
        << "generated code ran though PLUGRT_CPU_JIT=0, the CPU lacks AVX-512 or the build "
           "has no code generator";
  }
}

double Element(const Tensor& t, int64_t i) {
  switch (t.type()) {
    case ElementType::kF32: return t.as<float>()[i];
    case ElementType::kBF16:
      return std::bit_cast<float>(static_cast<uint32_t>(t.as<uint16_t>()[i]) << 16);
    case ElementType::kI1: return t.as<uint8_t>()[i];
    default: return NAN;
  }
}

// Deep copies: tensors nothing else holds, handed to a run (which may then
// write results into them, as into donated inputs).
std::vector<RtValue> OwnCopies(const std::vector<RtValue>& args) {
  std::vector<RtValue> copies;
  for (const RtValue& v : args) copies.push_back(RtValue::Of(v.tensor.Clone()));
  return copies;
}

// Runs `text` both ways on the same inputs; every output element must agree
// within atol + rtol * |reference| (NaNs must match NaNs). With `give_inputs`
// the fast run gets inputs of its own that it may overwrite.
// Returns what the fast run counted, so tests can check the fast path ran.
KernelCounters ExpectFastMatchesReference(const std::string& text, double rtol, double atol,
                                          float scale = 2.0f, uint32_t seed = 1,
                                          bool give_inputs = false) {
  KernelCounters counters;
  [&] {
  auto fast = CompileText(text, true);
  ASSERT_TRUE(fast.ok()) << fast.status().ToString();
  auto reference = CompileText(text, false);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  std::vector<RtValue> args = RandomArguments(**fast, scale, seed);
  ExecContext c1, c2;
  c1.counters = &counters;
  auto got = (*fast)->Run(give_inputs ? OwnCopies(args) : args, c1);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = (*reference)->Run(args, c2);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ASSERT_EQ(got->size(), want->size());
  for (size_t o = 0; o < got->size(); ++o) {
    const Tensor& g = (*got)[o].tensor;
    const Tensor& w = (*want)[o].tensor;
    ASSERT_EQ(g.type(), w.type()) << "output " << o;
    ASSERT_EQ(g.dims(), w.dims()) << "output " << o;
    int reported = 0;
    for (int64_t i = 0; i < g.num_elements(); ++i) {
      const double a = Element(g, i), b = Element(w, i);
      const bool ok = (std::isnan(a) && std::isnan(b)) || a == b ||
                      std::fabs(a - b) <= atol + rtol * std::fabs(b);
      if (!ok && reported++ < 5) {
        ADD_FAILURE() << "output " << o << " element " << i << ": fast " << a << ", reference "
                      << b;
      }
    }
  }
  }();
  return counters;
}

TEST(FastPathsTest, DotGeneralOddShapesAndLayouts) {
  // Plain, transposed rhs, transposed lhs (a copy first), batch dims in the
  // attention layout.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%a: tensor<37x129xf32>, %b: tensor<129x65xf32>, %bt: tensor<65x129xf32>,
                %at: tensor<129x37xf32>, %q: tensor<2x33x3x16xf32>, %k: tensor<2x31x3x16xf32>)
    -> (tensor<37x65xf32>, tensor<37x65xf32>, tensor<37x65xf32>, tensor<2x3x33x31xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<37x129xf32>, tensor<129x65xf32>) -> tensor<37x65xf32>
  %1 = stablehlo.dot_general %a, %bt, contracting_dims = [1] x [1] : (tensor<37x129xf32>, tensor<65x129xf32>) -> tensor<37x65xf32>
  %2 = stablehlo.dot_general %at, %b, contracting_dims = [0] x [0] : (tensor<129x37xf32>, tensor<129x65xf32>) -> tensor<37x65xf32>
  %3 = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<2x33x3x16xf32>, tensor<2x31x3x16xf32>) -> tensor<2x3x33x31xf32>
  func.return %0, %1, %2, %3 : tensor<37x65xf32>, tensor<37x65xf32>, tensor<37x65xf32>, tensor<2x3x33x31xf32>
}
)",
                             1e-5, 1e-4);
  EXPECT_EQ(counters.onednn_calls, 4);
}

TEST(FastPathsTest, DotGeneralBf16InputsF32AndBf16Results) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%a: tensor<48x200xbf16>, %b: tensor<200x40xbf16>) -> (tensor<48x40xf32>, tensor<48x40xbf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<48x200xbf16>, tensor<200x40xbf16>) -> tensor<48x40xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<48x200xbf16>, tensor<200x40xbf16>) -> tensor<48x40xbf16>
  func.return %0, %1 : tensor<48x40xf32>, tensor<48x40xbf16>
}
)",
                             1e-2, 1e-3);
  // oneDNN plans bf16 matmuls only where the CPU has the instructions for
  // them (AVX-512); elsewhere both dots stay on the reference kernel.
  DotDimensions dd;
  dd.lhs_contracting = {1};
  dd.rhs_contracting = {0};
  const bool onednn_bf16 = FastDot::Plan({48, 200}, ElementType::kBF16, {200, 40},
                                         ElementType::kBF16, dd, ElementType::kF32,
                                         /*kernel_threads=*/0) != nullptr;
  EXPECT_EQ(counters.onednn_calls, onednn_bf16 ? 2 : 0);
}

TEST(FastPathsTest, ConvolutionLayoutsStridesDilation) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<3x13x11x8xf32>, %w: tensor<3x3x8x6xf32>, %xc: tensor<2x5x12x9xf32>,
                %wc: tensor<7x5x3x2xf32>) -> (tensor<3x13x11x6xf32>, tensor<3x5x4x6xf32>, tensor<2x7x5x4xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x13x11x8xf32>, tensor<3x3x8x6xf32>) -> tensor<3x13x11x6xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [1, 0]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x13x11x8xf32>, tensor<3x3x8x6xf32>) -> tensor<3x5x4x6xf32>
  %2 = stablehlo.convolution(%xc, %wc) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 3], pad = [[0, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x12x9xf32>, tensor<7x5x3x2xf32>) -> tensor<2x7x5x4xf32>
  func.return %0, %1, %2 : tensor<3x13x11x6xf32>, tensor<3x5x4x6xf32>, tensor<2x7x5x4xf32>
}
)",
                             1e-5, 1e-4);
  EXPECT_EQ(counters.onednn_calls, 3);
}

// A 1x1 convolution of a 1x1 input (Keras's MobileNet classifier after
// global pooling) runs as a matrix product: NHWC and NCHW inputs, a kernel
// stored [1, 1, in, out]; one stored [out, in, 1, 1] and a strided 1x1 of a
// larger input stay convolutions. All give the reference kernel's values.
TEST(FastPathsTest, OneByOneConvolutionsOfOneByOneInputsAreProducts) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<16x1x1x96xf32>, %w: tensor<1x1x96x40xf32>, %xc: tensor<5x96x1x1xf32>,
                %wo: tensor<40x96x1x1xf32>, %xs: tensor<2x3x3x96xf32>)
    -> (tensor<16x1x1x40xf32>, tensor<5x40x1x1xf32>, tensor<5x40x1x1xf32>, tensor<2x2x2x40xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<16x1x1x96xf32>, tensor<1x1x96x40xf32>) -> tensor<16x1x1x40xf32>
  %1 = stablehlo.convolution(%xc, %w) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<5x96x1x1xf32>, tensor<1x1x96x40xf32>) -> tensor<5x40x1x1xf32>
  %2 = stablehlo.convolution(%xc, %wo) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<5x96x1x1xf32>, tensor<40x96x1x1xf32>) -> tensor<5x40x1x1xf32>
  %3 = stablehlo.convolution(%xs, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x3x96xf32>, tensor<1x1x96x40xf32>) -> tensor<2x2x2x40xf32>
  func.return %0, %1, %2, %3 : tensor<16x1x1x40xf32>, tensor<5x40x1x1xf32>, tensor<5x40x1x1xf32>, tensor<2x2x2x40xf32>
}
)",
                             1e-5, 1e-4);
  EXPECT_EQ(counters.onednn_calls, 4);
}

// Feature groups on oneDNN: a depthwise convolution as TensorFlow writes it
// (kernel [3, 3, 1, C], feature_group_count = C, stride 2 with TF's
// asymmetric SAME padding), a channel multiplier of 2, and two groups of a
// plain NCHW convolution.
TEST(FastPathsTest, GroupedAndDepthwiseConvolutions) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<2x15x13x24xf32>, %dw: tensor<3x3x1x24xf32>, %dm: tensor<3x3x1x48xf32>,
                %xc: tensor<3x8x11x10xf32>, %wc: tensor<6x4x3x3xf32>)
    -> (tensor<2x15x13x24xf32>, tensor<2x8x7x48xf32>, tensor<3x6x11x10xf32>) {
  %0 = stablehlo.convolution(%x, %dw) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 24 : i64} : (tensor<2x15x13x24xf32>, tensor<3x3x1x24xf32>) -> tensor<2x15x13x24xf32>
  %1 = stablehlo.convolution(%x, %dm) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 24 : i64} : (tensor<2x15x13x24xf32>, tensor<3x3x1x48xf32>) -> tensor<2x8x7x48xf32>
  %2 = stablehlo.convolution(%xc, %wc) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<3x8x11x10xf32>, tensor<6x4x3x3xf32>) -> tensor<3x6x11x10xf32>
  func.return %0, %1, %2 : tensor<2x15x13x24xf32>, tensor<2x8x7x48xf32>, tensor<3x6x11x10xf32>
}
)",
                             1e-5, 1e-4);
  EXPECT_EQ(counters.onednn_calls, 3);
}

// NHWC pooling as exporters write it (Flax's max pool with SAME padding and
// a -inf init, an average pool's window sum with padding, a min window with
// dilation over a 5-D operand, a window over all but 8 trailing channels):
// the row-at-a-time kernel gives the reference kernel's numbers, padding
// read as the init value (a non-identity init 1.5 included).
TEST(FastPathsTest, PoolingWindowsOverChannelRows) {
  ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<2x9x8x16xf32>, %y: tensor<2x3x7x5x8xf32>) -> (tensor<2x5x4x16xf32>, tensor<2x9x8x16xf32>, tensor<2x2x3x2x8xf32>, tensor<1x3x7x5x8xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %init = stablehlo.constant dense<1.5> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x9x8x16xf32>, tensor<f32>) -> tensor<2x5x4x16xf32>
  %1 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x9x8x16xf32>, tensor<f32>) -> tensor<2x9x8x16xf32>
  %2 = "stablehlo.reduce_window"(%y, %zero) <{padding = dense<[[0, 0], [0, 0], [1, 0], [0, 1], [0, 0]]> : tensor<5x2xi64>, window_dimensions = array<i64: 1, 2, 3, 2, 1>, window_strides = array<i64: 1, 1, 3, 2, 1>, window_dilations = array<i64: 1, 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x3x7x5x8xf32>, tensor<f32>) -> tensor<2x2x3x2x8xf32>
  %3 = "stablehlo.reduce_window"(%y, %zero) <{window_dimensions = array<i64: 2, 1, 1, 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x3x7x5x8xf32>, tensor<f32>) -> tensor<1x3x7x5x8xf32>
  func.return %0, %1, %2, %3 : tensor<2x5x4x16xf32>, tensor<2x9x8x16xf32>, tensor<2x2x3x2x8xf32>, tensor<1x3x7x5x8xf32>
}
)",
                             1e-6, 1e-6);
}

// The kernel gradient of a strided patch convolution, as JAX's autodiff
// writes it (batch and feature swapped on the input, the forward stride as
// kernel dilation), and of a padded 3x3 one: layouts oneDNN would run on its
// reference kernel as they lie, so the input and result are laid out its
// way around the convolution. Same numbers as the reference kernel.
TEST(FastPathsTest, ConvolutionKernelGradientsInAutodiffLayouts) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<4x16x16x3xf32>, %dy: tensor<4x4x4x8xf32>, %x2: tensor<2x9x9x5xf32>, %dy2: tensor<2x9x9x6xf32>) -> (tensor<4x4x3x8xf32>, tensor<3x3x5x6xf32>) {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [4, 4], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x3xf32>, tensor<4x4x4x8xf32>) -> tensor<4x4x3x8xf32>
  %1 = stablehlo.convolution(%x2, %dy2) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x5xf32>, tensor<2x9x9x6xf32>) -> tensor<3x3x5x6xf32>
  func.return %0, %1 : tensor<4x4x3x8xf32>, tensor<3x3x5x6xf32>
}
)",
                             1e-5, 1e-4);
  EXPECT_EQ(counters.onednn_calls, 2);
}

TEST(FastPathsTest, FusedElementwiseChainWithConstantsAndScalars) {
  // A GELU-like chain over 5x1001 elements (partial tiles), a scalar
  // argument broadcast into it, and an intermediate also returned.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<5x1001xf32>, %s: tensor<f32>) -> (tensor<5x1001xf32>, tensor<5x1001xf32>) {
  %half = stablehlo.constant dense<0.5> : tensor<5x1001xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %c = stablehlo.constant dense<0.0447> : tensor<5x1001xf32>
  %onev = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<5x1001xf32>
  %sv = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<5x1001xf32>
  %x3 = stablehlo.multiply %x, %x : tensor<5x1001xf32>
  %x3b = stablehlo.multiply %x3, %x : tensor<5x1001xf32>
  %t0 = stablehlo.multiply %c, %x3b : tensor<5x1001xf32>
  %t1 = stablehlo.add %x, %t0 : tensor<5x1001xf32>
  %t2 = stablehlo.multiply %t1, %sv : tensor<5x1001xf32>
  %t3 = stablehlo.tanh %t2 : tensor<5x1001xf32>
  %t4 = stablehlo.add %onev, %t3 : tensor<5x1001xf32>
  %t5 = stablehlo.multiply %half, %x : tensor<5x1001xf32>
  %t6 = stablehlo.multiply %t5, %t4 : tensor<5x1001xf32>
  %e = stablehlo.exponential %x3 : tensor<5x1001xf32>
  %l = stablehlo.logistic %t6 : tensor<5x1001xf32>
  %y = stablehlo.subtract %l, %e : tensor<5x1001xf32>
  func.return %y, %t3 : tensor<5x1001xf32>, tensor<5x1001xf32>
}
)",
                             4e-6, 1e-7);
  EXPECT_EQ(counters.fused_loops, 1);
  ExpectGeneratedCodeAsConfigured(counters);
}

TEST(FastPathsTest, FusedSoftmaxLayerNormAndBroadcastsOfRowsAndColumns) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<67x129xf32>, %g: tensor<129xf32>, %b: tensor<129xf32>)
    -> (tensor<67x129xf32>, tensor<67x129xf32>, tensor<67xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<67x129xf32>, tensor<f32>) -> tensor<67xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<67xf32>) -> tensor<67x129xf32>
  %d = stablehlo.subtract %x, %mb : tensor<67x129xf32>
  %e = stablehlo.exponential %d : tensor<67x129xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<67x129xf32>, tensor<f32>) -> tensor<67xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<67xf32>) -> tensor<67x129xf32>
  %softmax = stablehlo.divide %e, %sb : tensor<67x129xf32>

  %n = stablehlo.constant dense<129.0> : tensor<67xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<67xf32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<67x129xf32>, tensor<f32>) -> tensor<67xf32>
  %mean = stablehlo.divide %sum, %n : tensor<67xf32>
  %meanb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<67xf32>) -> tensor<67x129xf32>
  %xc = stablehlo.subtract %x, %meanb : tensor<67x129xf32>
  %sq = stablehlo.multiply %xc, %xc : tensor<67x129xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<67x129xf32>, tensor<f32>) -> tensor<67xf32>
  %var = stablehlo.divide %ss, %n : tensor<67xf32>
  %ve = stablehlo.add %var, %eps : tensor<67xf32>
  %r = stablehlo.rsqrt %ve : tensor<67xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<67xf32>) -> tensor<67x129xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<129xf32>) -> tensor<67x129xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<129xf32>) -> tensor<67x129xf32>
  %y0 = stablehlo.multiply %xc, %rb : tensor<67x129xf32>
  %y1 = stablehlo.multiply %y0, %gb : tensor<67x129xf32>
  %y = stablehlo.add %y1, %bb : tensor<67x129xf32>
  func.return %softmax, %y, %var : tensor<67x129xf32>, tensor<67x129xf32>, tensor<67xf32>
}
)",
                             2e-5, 1e-6);
  EXPECT_EQ(counters.fused_loops, 1);
}

// Rows shorter than a tile with per-column inputs (a bias or a batch norm
// over the channels of NHWC data) run several rows to a tile: every row
// count, including a last tile of fewer rows, a bf16 column, and rows that
// do not divide the tile.
TEST(FastPathsTest, FusedColumnsOverShortRowsSeveralRowsToATile) {
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{
           {1, 3}, {5, 7}, {333, 3}, {1000, 64}, {77, 129}, {41, 500}, {9, 512}, {3000, 96}}) {
    const std::string T = "tensor<" + std::to_string(rows) + "x" + std::to_string(cols) + "xf32>";
    const std::string C = "tensor<" + std::to_string(cols) + "xf32>";
    const std::string B = "tensor<" + std::to_string(cols) + "xbf16>";
    const std::string text = "func.func @main(%x: " + T + ", %g: " + C + ", %h: " + B +
                             ") -> (" + T + ", " + T + ") {\n"
                             "  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (" + C + ") -> " + T + "\n"
                             "  %hf = stablehlo.convert %h : (" + B + ") -> " + C + "\n"
                             "  %hb = stablehlo.broadcast_in_dim %hf, dims = [1] : (" + C + ") -> " + T + "\n"
                             "  %d = stablehlo.subtract %x, %gb : " + T + "\n"
                             "  %m = stablehlo.multiply %d, %hb : " + T + "\n"
                             "  %e = stablehlo.exponential %m : " + T + "\n"
                             "  %z = stablehlo.constant dense<0.0> : " + T + "\n"
                             "  %y = stablehlo.maximum %m, %z : " + T + "\n"
                             "  func.return %y, %e : " + T + ", " + T + "\n}\n";
    SCOPED_TRACE(text);
    const KernelCounters counters = ExpectFastMatchesReference(text, 2e-6, 1e-6);
    if (int64_t{rows} * cols >= 1024) EXPECT_EQ(counters.fused_loops, 1);
  }
}

// Per-channel vectors of channels-first data (PyTorch's NCHW: batch norm
// and a convolution's bias along dim 1, written as broadcasts of [C] or of
// [C, 1, 1]) and a per-batch vector are loaded in the loop, not copied out
// to full size first: rows of [N, C] over tiles of H x W, or of the 5-D
// [N, C] over D x H x W; with a last-dim vector or a row reduction in the
// same loop, rows of [N, C, H] over W.
TEST(FastPathsTest, FusedChannelsFirstBroadcasts) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<4x5x9x7xf32>, %m: tensor<5xf32>, %s: tensor<5x1x1xf32>,
                %n: tensor<4xf32>, %w: tensor<7xf32>, %v: tensor<2x6x3x5x8xf32>,
                %g: tensor<6xf32>)
    -> (tensor<4x5x9x7xf32>, tensor<4x5x9x7xf32>, tensor<4x5x9xf32>, tensor<2x6x3x5x8xf32>) {
  %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<5xf32>) -> tensor<4x5x9x7xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1, 2, 3] : (tensor<5x1x1xf32>) -> tensor<4x5x9x7xf32>
  %nb = stablehlo.broadcast_in_dim %n, dims = [0] : (tensor<4xf32>) -> tensor<4x5x9x7xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x5x9x7xf32>
  %e = stablehlo.multiply %d, %sb : tensor<4x5x9x7xf32>
  %f = stablehlo.add %e, %nb : tensor<4x5x9x7xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4x5x9x7xf32>
  %r = stablehlo.maximum %f, %z : tensor<4x5x9x7xf32>
  %wb = stablehlo.broadcast_in_dim %w, dims = [3] : (tensor<7xf32>) -> tensor<4x5x9x7xf32>
  %p = stablehlo.multiply %x, %wb : tensor<4x5x9x7xf32>
  %q = stablehlo.add %p, %mb : tensor<4x5x9x7xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<4x5x9x7xf32>, tensor<f32>) -> tensor<4x5x9xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<6xf32>) -> tensor<2x6x3x5x8xf32>
  %h = stablehlo.multiply %v, %gb : tensor<2x6x3x5x8xf32>
  %o = stablehlo.tanh %h : tensor<2x6x3x5x8xf32>
  func.return %r, %q, %sum, %o : tensor<4x5x9x7xf32>, tensor<4x5x9x7xf32>, tensor<4x5x9xf32>, tensor<2x6x3x5x8xf32>
}
)",
                             2e-6, 1e-6);
  // The [4, 5, 9, 7] loops and the 5-D one; no broadcast ran on its own.
  EXPECT_GE(counters.fused_loops, 2);
  EXPECT_LE(counters.fused_loops, 3);
}

TEST(FastPathsTest, FusedCompareSelectAndPredicateOutputs) {
  // ReLU and its gradient mask, a predicate returned as i1, a converted
  // predicate, bf16 inputs converted on load, max/min with NaN semantics.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<71x97xf32>, %g: tensor<71x97xf32>, %h: tensor<71x97xbf16>)
    -> (tensor<71x97xf32>, tensor<71x97xi1>, tensor<71x97xf32>, tensor<71x97xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<71x97xf32>
  %relu = stablehlo.maximum %x, %zero : tensor<71x97xf32>
  %pos = stablehlo.compare GT, %x, %zero, FLOAT : (tensor<71x97xf32>, tensor<71x97xf32>) -> tensor<71x97xi1>
  %grad = stablehlo.select %pos, %g, %zero : tensor<71x97xi1>, tensor<71x97xf32>
  %mask = stablehlo.convert %pos : (tensor<71x97xi1>) -> tensor<71x97xf32>
  %hf = stablehlo.convert %h : (tensor<71x97xbf16>) -> tensor<71x97xf32>
  %m = stablehlo.minimum %relu, %hf : tensor<71x97xf32>
  %y = stablehlo.add %m, %mask : tensor<71x97xf32>
  func.return %grad, %pos, %y, %relu : tensor<71x97xf32>, tensor<71x97xi1>, tensor<71x97xf32>, tensor<71x97xf32>
}
)",
                             0, 0);
  EXPECT_EQ(counters.fused_loops, 1);
}

// A quantized program's last steps (lower_quantized.h's requantization): an
// i32 product converted to f32 on load, scaled, clamped, rounded half to
// even and stored as i8 or u8, in one fused loop, bit for bit as the
// reference kernels: ties, NaN (to 0), infinities and out-of-range values
// (saturated), negative zero, the i32 extremes.
TEST(FastPathsTest, FusedRequantizationToIntegers) {
  const std::string text = R"(
func.func @main(%acc: tensor<64x128xi32>, %x: tensor<64x128xf32>)
    -> (tensor<64x128xi8>, tensor<64x128xui8>, tensor<64x128xf32>) {
  %f = stablehlo.convert %acc : (tensor<64x128xi32>) -> tensor<64x128xf32>
  %scale = stablehlo.constant dense<0.5> : tensor<64x128xf32>
  %m = stablehlo.multiply %f, %scale : tensor<64x128xf32>
  %zp = stablehlo.constant dense<5.0> : tensor<64x128xf32>
  %a = stablehlo.add %m, %zp : tensor<64x128xf32>
  %lo = stablehlo.constant dense<-128.0> : tensor<64x128xf32>
  %hi = stablehlo.constant dense<127.0> : tensor<64x128xf32>
  %c = stablehlo.clamp %lo, %a, %hi : tensor<64x128xf32>
  %r = stablehlo.round_nearest_even %c : tensor<64x128xf32>
  %q = stablehlo.convert %r : (tensor<64x128xf32>) -> tensor<64x128xi8>
  %u = stablehlo.convert %x : (tensor<64x128xf32>) -> tensor<64x128xui8>
  %xr = stablehlo.round_nearest_even %x : tensor<64x128xf32>
  func.return %q, %u, %xr : tensor<64x128xi8>, tensor<64x128xui8>, tensor<64x128xf32>
}
)";
  auto fast = CompileText(text, true);
  ASSERT_TRUE(fast.ok()) << fast.status().ToString();
  auto reference = CompileText(text, false);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  Tensor acc(ElementType::kSI32, {64, 128}), x(ElementType::kF32, {64, 128});
  const int32_t special_ints[] = {std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max(), 0, 1, -1, 3, -3, 245,
                                  -267, 16777217, -16777219};
  const float special_floats[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f,
                                  -2.5f, 254.5f, 255.5f, 255.9f, 256.0f, -0.7f, 1e10f, -1e10f};
  std::mt19937 rng(3);
  std::uniform_int_distribution<int32_t> any_int(std::numeric_limits<int32_t>::min(),
                                                 std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> near(-600, 600);
  std::uniform_real_distribution<float> uniform(-300.0f, 300.0f);
  for (int64_t i = 0; i < acc.num_elements(); ++i) {
    acc.mutable_as<int32_t>()[i] = i < 11 ? special_ints[i] : (i % 2 ? near(rng) : any_int(rng));
    x.mutable_as<float>()[i] =
        i < 16 ? special_floats[i] : (i % 2 ? uniform(rng) : std::round(uniform(rng)) + 0.5f);
  }
  const std::vector<RtValue> args = {RtValue::Of(acc), RtValue::Of(x)};
  KernelCounters counters;
  ExecContext c1, c2;
  c1.counters = &counters;
  auto got = (*fast)->Run(args, c1);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = (*reference)->Run(args, c2);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  ASSERT_EQ(got->size(), 3u);
  for (size_t o = 0; o < got->size(); ++o) {
    const Tensor& g = (*got)[o].tensor;
    const Tensor& w = (*want)[o].tensor;
    ASSERT_EQ(g.type(), w.type()) << "output " << o;
    ASSERT_EQ(g.byte_size(), w.byte_size()) << "output " << o;
    EXPECT_EQ(std::memcmp(g.data(), w.data(), g.byte_size()), 0) << "output " << o;
  }
  // Spot values: 3 -> 6.5 -> 6 (a tie, to even); -3 -> 3.5 -> 4; 245 ->
  // 127.5 -> 127 (clamped); -267 -> -128.5 -> -128; to u8: NaN -> 0, 255.9
  // -> 255, 256 -> 255 (saturated), -0.7 -> 0, 1e10 -> 255.
  const int8_t* q = (*got)[0].tensor.as<int8_t>();
  EXPECT_EQ(q[5], 6);
  EXPECT_EQ(q[6], 4);
  EXPECT_EQ(q[7], 127);
  EXPECT_EQ(q[8], -128);
  const uint8_t* u = (*got)[1].tensor.as<uint8_t>();
  EXPECT_EQ(u[0], 0);
  EXPECT_EQ(u[11], 255);
  EXPECT_EQ(u[12], 255);
  EXPECT_EQ(u[13], 0);
  EXPECT_EQ(u[14], 255);
  EXPECT_EQ(counters.fused_loops, 1);
}

// Integer elementwise ops and broadcasts of large tensors (here 327,680
// elements, what the quantized dot's zero-point correction runs) are split
// over the kernel threads; every element must be what one thread computes.
TEST(FastPathsTest, LargeIntegerElementwiseAndBroadcastsSplitOverThreads) {
  const std::string text = R"(
func.func @main(%x: tensor<640x512xi32>, %v: tensor<512xi32>, %w: tensor<640xi32>)
    -> (tensor<640x512xi32>, tensor<640x512xi32>, tensor<640x512xf32>) {
  %bv = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<512xi32>) -> tensor<640x512xi32>
  %bw = stablehlo.broadcast_in_dim %w, dims = [0] : (tensor<640xi32>) -> tensor<640x512xi32>
  %d = stablehlo.subtract %x, %bv : tensor<640x512xi32>
  %p = stablehlo.multiply %d, %bw : tensor<640x512xi32>
  %f = stablehlo.convert %p : (tensor<640x512xi32>) -> tensor<640x512xf32>
  func.return %d, %p, %f : tensor<640x512xi32>, tensor<640x512xi32>, tensor<640x512xf32>
}
)";
  for (bool fast : {true, false}) {
    SCOPED_TRACE(fast ? "fast paths" : "reference");
    auto program = CompileText(text, fast);
    ASSERT_TRUE(program.ok()) << program.status().ToString();
    Tensor x(ElementType::kSI32, {640, 512}), v(ElementType::kSI32, {512}),
        w(ElementType::kSI32, {640});
    for (int64_t i = 0; i < 640; ++i) {
      w.mutable_as<int32_t>()[i] = static_cast<int32_t>(i % 13) - 6;
      for (int64_t j = 0; j < 512; ++j) {
        x.mutable_as<int32_t>()[i * 512 + j] = static_cast<int32_t>(i * 1000 - j * 7);
      }
    }
    for (int64_t j = 0; j < 512; ++j) v.mutable_as<int32_t>()[j] = static_cast<int32_t>(3 * j - 100);
    ExecContext context;
    context.kernel_threads = 2;
    auto got = (*program)->Run({RtValue::Of(x), RtValue::Of(v), RtValue::Of(w)}, context);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(got->size(), 3u);
    const int32_t* d = (*got)[0].tensor.as<int32_t>();
    const int32_t* p = (*got)[1].tensor.as<int32_t>();
    const float* f = (*got)[2].tensor.as<float>();
    int reported = 0;
    for (int64_t i = 0; i < 640; ++i) {
      for (int64_t j = 0; j < 512; ++j) {
        const int64_t at = i * 512 + j;
        const int32_t want_d = static_cast<int32_t>(i * 1000 - j * 7 - (3 * j - 100));
        const int32_t want_p = want_d * (static_cast<int32_t>(i % 13) - 6);
        if ((d[at] != want_d || p[at] != want_p || f[at] != static_cast<float>(want_p)) &&
            reported++ < 5) {
          ADD_FAILURE() << "element (" << i << ", " << j << "): " << d[at] << ", " << p[at]
                        << ", " << f[at] << "; want " << want_d << ", " << want_p;
        }
      }
    }
  }
}

TEST(FastPathsTest, FusedTranscendentalsStayWithinAFewUlpOverTheirRange) {
  // exp, tanh and logistic over [-100, 100] (overflow to inf, underflow to
  // subnormals and 0, the tanh series/exp switch at 0.4).
  EXPECT_EQ(ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<64x257xf32>) -> (tensor<64x257xf32>, tensor<64x257xf32>, tensor<64x257xf32>) {
  %e = stablehlo.exponential %x : tensor<64x257xf32>
  %t = stablehlo.tanh %x : tensor<64x257xf32>
  %l = stablehlo.logistic %x : tensor<64x257xf32>
  func.return %e, %t, %l : tensor<64x257xf32>, tensor<64x257xf32>, tensor<64x257xf32>
}
)",
                             4e-7, 1e-37, 100.0f)
                .fused_loops,
            1);
  ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<64x257xf32>) -> (tensor<64x257xf32>, tensor<64x257xf32>) {
  %e = stablehlo.exponential %x : tensor<64x257xf32>
  %t = stablehlo.tanh %x : tensor<64x257xf32>
  func.return %e, %t : tensor<64x257xf32>, tensor<64x257xf32>
}
)",
                             4e-7, 1e-37, 1.0f, 7);
}

// 2^20 floats spread over every bit pattern: both signs, subnormals,
// infinities, NaNs.
void FillEveryBitPattern(float* x) {
  for (uint32_t i = 0; i < (1u << 20); ++i) {
    x[i] = std::bit_cast<float>(i * 4096u + (i * 2654435761u) % 4096u);
  }
}

// Runs `program` on the one argument `x`, counting its kernels.
StatusOr<std::vector<RtValue>> RunCounted(const Program& program, const Tensor& x,
                                          KernelCounters& counters) {
  std::vector<RtValue> args = {RtValue::Of(x)};
  ExecContext context;
  context.counters = &counters;
  return program.Run(args, context);
}

// got[i] against want(x[i]) computed in double and rounded to float: the same
// value (NaN for NaN), or within max(3 ulp, abs_tolerance) of it. Reports the
// first five elements that are not.
void ExpectNearDoubleResults(const char* what, const float* x, const float* got, int64_t n,
                             double (*want_fn)(double), float abs_tolerance) {
  int reported = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float want = static_cast<float>(want_fn(x[i]));
    const float g = got[i];
    bool ok = (std::isnan(want) && std::isnan(g)) ||
              std::bit_cast<uint32_t>(g) == std::bit_cast<uint32_t>(want) || g == want;
    if (!ok && std::isfinite(want) && std::isfinite(g)) {
      const float ulp = std::nextafter(std::fabs(want), INFINITY) - std::fabs(want);
      ok = std::fabs(g - want) <= std::max(3 * ulp, abs_tolerance);
    }
    if (!ok && reported++ < 5) {
      ADD_FAILURE() << what << " at x = " << x[i] << ": got " << g << ", want " << want;
    }
  }
}

// exp, tanh and logistic of 2^20 floats spread over every bit pattern (both
// signs, subnormals, infinities, NaNs) against double-precision results
// rounded to float: within 3 ulp, or 2e-45 where the result is subnormal.
TEST(FastPathsTest, FusedTranscendentalsOverTheWholeFloatRange) {
  auto program = CompileText(R"(
func.func @main(%x: tensor<1048576xf32>) -> (tensor<1048576xf32>, tensor<1048576xf32>, tensor<1048576xf32>) {
  %e = stablehlo.exponential %x : tensor<1048576xf32>
  %t = stablehlo.tanh %x : tensor<1048576xf32>
  %l = stablehlo.logistic %x : tensor<1048576xf32>
  func.return %e, %t, %l : tensor<1048576xf32>, tensor<1048576xf32>, tensor<1048576xf32>
}
)",
                             true);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  Tensor x(ElementType::kF32, {1 << 20});
  FillEveryBitPattern(x.mutable_as<float>());
  KernelCounters counters;
  auto out = RunCounted(**program, x, counters);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(counters.fused_loops, 1);
  ExpectGeneratedCodeAsConfigured(counters);
  const char* names[3] = {"exp", "tanh", "logistic"};
  double (*const want_fns[3])(double) = {[](double v) { return std::exp(v); },
                                         [](double v) { return std::tanh(v); },
                                         [](double v) { return 1.0 / (1.0 + std::exp(-v)); }};
  for (int o = 0; o < 3; ++o) {
    ExpectNearDoubleResults(names[o], x.as<float>(), (*out)[o].tensor.as<float>(), 1 << 20,
                            want_fns[o], 2e-45f);
  }
}

// sin and cos in fused loops: a polynomial after reduction by pi/2 within
// |x| <= 4096, double precision beyond (and for infinities and NaN). Over
// 2^20 floats spread over every bit pattern, and 2^20 more dense in
// [-4096, 4096] where the reduction matters: within 3 ulp of the
// double-precision result rounded to float, or within 1e-12 of it (results
// near zero at large x, where the input itself is uncertain by ulp(x)).
TEST(FastPathsTest, FusedSineAndCosineOverTheWholeFloatRange) {
  auto program = CompileText(R"(
func.func @main(%x: tensor<2097152xf32>) -> (tensor<2097152xf32>, tensor<2097152xf32>) {
  %s = stablehlo.sine %x : tensor<2097152xf32>
  %c = stablehlo.cosine %x : tensor<2097152xf32>
  func.return %s, %c : tensor<2097152xf32>, tensor<2097152xf32>
}
)",
                             true);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  const int64_t n = int64_t{1} << 21;
  Tensor x(ElementType::kF32, {n});
  float* xs = x.mutable_as<float>();
  FillEveryBitPattern(xs);
  for (uint32_t i = 0; i < (1u << 20); ++i) {
    xs[(1u << 20) + i] = -4096.0f + 8192.0f * (static_cast<float>(i) + 0.37f) / (1u << 20);
  }
  xs[5] = -0.0f;
  KernelCounters counters;
  auto out = RunCounted(**program, x, counters);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(counters.fused_loops, 1);
  ExpectNearDoubleResults("sin", xs, (*out)[0].tensor.as<float>(), n,
                          [](double v) { return std::sin(v); }, 1e-12f);
  ExpectNearDoubleResults("cos", xs, (*out)[1].tensor.as<float>(), n,
                          [](double v) { return std::cos(v); }, 1e-12f);
}

TEST(FastPathsTest, FusedLoopsWithOutputsLargerThanTheCaches) {
  // 32 MiB and more: outputs are written with streaming stores where rows
  // are 64-byte aligned (1024 columns) and with plain stores where they are
  // not (1031 columns); a row reduction reads values the loop just wrote.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<8192x1024xf32>, %y: tensor<8200x1031xf32>)
    -> (tensor<8192x1024xf32>, tensor<8200x1031xf32>, tensor<8200xf32>) {
  %two = stablehlo.constant dense<2.0> : tensor<8192x1024xf32>
  %a = stablehlo.multiply %x, %two : tensor<8192x1024xf32>
  %b = stablehlo.add %a, %x : tensor<8192x1024xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ey = stablehlo.abs %y : tensor<8200x1031xf32>
  %s = stablehlo.reduce(%ey init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8200x1031xf32>, tensor<f32>) -> tensor<8200xf32>
  func.return %b, %ey, %s : tensor<8192x1024xf32>, tensor<8200x1031xf32>, tensor<8200xf32>
}
)",
                             1e-5, 1e-5);
  EXPECT_EQ(counters.fused_loops, 2);
}

// An optimizer's update as JAX writes it: one traced scalar broadcast (and
// shared after CSE) to every parameter of a large shape, each op done for
// every parameter before the next. Each parameter's update is a loop of its
// own, reading the scalar as a scalar; one loop over all of them would
// stream every parameter's arrays at once.
TEST(FastPathsTest, IndependentLargeUpdatesRunAsOneLoopEach) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%s: tensor<f32>, %p0: tensor<1024x512xf32>, %g0: tensor<1024x512xf32>,
                %p1: tensor<1024x512xf32>, %g1: tensor<1024x512xf32>,
                %p2: tensor<1024x512xf32>, %g2: tensor<1024x512xf32>)
    -> (tensor<1024x512xf32>, tensor<1024x512xf32>, tensor<1024x512xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1024x512xf32>
  %u0 = stablehlo.multiply %b, %g0 : tensor<1024x512xf32>
  %u1 = stablehlo.multiply %b, %g1 : tensor<1024x512xf32>
  %u2 = stablehlo.multiply %b, %g2 : tensor<1024x512xf32>
  %n0 = stablehlo.subtract %p0, %u0 : tensor<1024x512xf32>
  %n1 = stablehlo.subtract %p1, %u1 : tensor<1024x512xf32>
  %n2 = stablehlo.subtract %p2, %u2 : tensor<1024x512xf32>
  func.return %n0, %n1, %n2 : tensor<1024x512xf32>, tensor<1024x512xf32>, tensor<1024x512xf32>
}
)",
                                                             1e-6, 1e-6);
  EXPECT_EQ(counters.fused_loops, 3);
}

// Two chains that meet are one loop: the older one's members join the
// newer's where an op reads both, instead of writing its value out for the
// other loop to read back; values read after the loop are still its outputs.
TEST(FastPathsTest, ChainsThatMeetShareOneLoop) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%s: tensor<f32>, %x0: tensor<1024x512xf32>, %y0: tensor<1024x512xf32>,
                %x1: tensor<1024x512xf32>, %y1: tensor<1024x512xf32>)
    -> (tensor<1024x512xf32>, tensor<1024x512xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1024x512xf32>
  %a0 = stablehlo.multiply %b, %x0 : tensor<1024x512xf32>
  %a1 = stablehlo.multiply %b, %x1 : tensor<1024x512xf32>
  %c0 = stablehlo.add %a0, %y0 : tensor<1024x512xf32>
  %c1 = stablehlo.tanh %a1 : tensor<1024x512xf32>
  %d = stablehlo.subtract %c0, %c1 : tensor<1024x512xf32>
  func.return %d, %c0 : tensor<1024x512xf32>, tensor<1024x512xf32>
}
)",
                                                             1e-6, 1e-6);
  EXPECT_EQ(counters.fused_loops, 1);
}

TEST(FastPathsTest, FusedReductionOfAUniformValueAndColumnSum) {
  // A row sum of a broadcast scalar (uniform inside the loop) and a reduce
  // over the leading dim (not fused: reference kernel) side by side.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<40x300xf32>, %s: tensor<f32>) -> (tensor<40xf32>, tensor<300xf32>, tensor<40xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sv = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<40x300xf32>
  %r = stablehlo.reduce(%sv init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<40x300xf32>, tensor<f32>) -> tensor<40xf32>
  %c = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<40x300xf32>, tensor<f32>) -> tensor<300xf32>
  %m = stablehlo.reduce(%x init: %zero) applies stablehlo.maximum across dimensions = [1] : (tensor<40x300xf32>, tensor<f32>) -> tensor<40xf32>
  func.return %r, %c, %m : tensor<40xf32>, tensor<300xf32>, tensor<40xf32>
}
)",
                             2e-5, 1e-5);
  EXPECT_EQ(counters.fused_loops, 1);
}

TEST(FastPathsTest, ColumnReductionsKeepNaNsAndOddRowCounts) {
  // Reductions over the leading dim (rows combined four at a time, then one
  // by one): 257 rows split over two threads' bands, and three slices of
  // 129 rows; about one element in a thousand is a NaN, which max, min and
  // sum must carry into its column, and only its column.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<257x600xf32>, %z: tensor<3x129x500xf32>)
    -> (tensor<600xf32>, tensor<600xf32>, tensor<600xf32>, tensor<3x500xf32>, tensor<3x500xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<257x600xf32>
  %edge = stablehlo.constant dense<1.996> : tensor<257x600xf32>
  %big = stablehlo.compare GT, %x, %edge : (tensor<257x600xf32>, tensor<257x600xf32>) -> tensor<257x600xi1>
  %y = stablehlo.select %big, %nan, %x : tensor<257x600xi1>, tensor<257x600xf32>
  %max = stablehlo.reduce(%y init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<257x600xf32>, tensor<f32>) -> tensor<600xf32>
  %min = stablehlo.reduce(%y init: %pinf) applies stablehlo.minimum across dimensions = [0] : (tensor<257x600xf32>, tensor<f32>) -> tensor<600xf32>
  %sum = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<257x600xf32>, tensor<f32>) -> tensor<600xf32>
  %zmax = stablehlo.reduce(%z init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x129x500xf32>, tensor<f32>) -> tensor<3x500xf32>
  %zsum = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x129x500xf32>, tensor<f32>) -> tensor<3x500xf32>
  func.return %max, %min, %sum, %zmax, %zsum : tensor<600xf32>, tensor<600xf32>, tensor<600xf32>, tensor<3x500xf32>, tensor<3x500xf32>
}
)",
                             2e-5, 2e-5);
  EXPECT_GE(counters.fused_loops, 1);
}

TEST(FastPathsTest, FastPathsCanBeSwitchedOff) {
  // With the fast paths off a NaN-free exp goes through the reference
  // kernel, which computes in double and rounds once: bit-exact against
  // std::exp in double.
  auto program = CompileText(R"(
func.func @main(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %e = stablehlo.exponential %x : tensor<64x100xf32>
  func.return %e : tensor<64x100xf32>
}
)",
                             false);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  std::vector<RtValue> args = RandomArguments(**program, 3.0f, 3);
  ExecContext context;
  auto out = (*program)->Run(args, context);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const float* x = args[0].tensor.as<float>();
  const float* y = (*out)[0].tensor.as<float>();
  for (int i = 0; i < 6400; ++i) {
    ASSERT_EQ(y[i], static_cast<float>(std::exp(static_cast<double>(x[i])))) << i;
  }
}

}  // namespace
}  // namespace plugrt::cpu

namespace plugrt::cpu {
namespace {

TEST(FastPathsTest, RowReductionsInGeneratedLoopsKeepNaNsInfinitiesAndTails) {
  // Rows of 101 elements: unrolled vectors, a single vector and a partial
  // one (64 rows: enough elements to be fused). Some rows hold a NaN (in
  // each of those parts), infinities or only zeros; max/min must propagate
  // NaN, sum must too, and no reduction may count the lanes past a row's
  // end (exp(0) = 1 there).
  const std::string text = R"(
func.func @main(%x: tensor<64x101xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x101xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<64x101xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x101xf32>, tensor<f32>) -> tensor<64xf32>
  %max = stablehlo.reduce(%e init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x101xf32>, tensor<f32>) -> tensor<64xf32>
  %min = stablehlo.reduce(%e init: %pinf) applies stablehlo.minimum across dimensions = [1] : (tensor<64x101xf32>, tensor<f32>) -> tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<64xf32>) -> tensor<64x101xf32>
  %y = stablehlo.divide %e, %mb : tensor<64x101xf32>
  func.return %max, %min, %sum, %y : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x101xf32>
}
)";
  auto fast = CompileText(text, true);
  ASSERT_TRUE(fast.ok()) << fast.status().ToString();
  auto reference = CompileText(text, false);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  std::vector<RtValue> args = RandomArguments(**fast, 3.0f, 21);
  float* x = args[0].tensor.mutable_as<float>();
  const float nan = std::nanf("");
  x[1 * 101 + 5] = nan;    // in the unrolled part
  x[2 * 101 + 97] = nan;   // in the single vector
  x[3 * 101 + 100] = nan;  // in the partial vector (last element)
  x[4 * 101 + 0] = INFINITY;
  x[5 * 101 + 100] = -INFINITY;
  for (int i = 0; i < 101; ++i) x[6 * 101 + i] = (i % 2 == 0) ? 0.0f : -0.0f;
  x[7 * 101 + 99] = 80.0f;  // the row's max sits in the partial vector
  KernelCounters counters;
  ExecContext c1, c2;
  c1.counters = &counters;
  auto got = (*fast)->Run(args, c1);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = (*reference)->Run(args, c2);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  EXPECT_EQ(counters.fused_loops, 1);
  ExpectGeneratedCodeAsConfigured(counters);
  for (size_t o = 0; o < got->size(); ++o) {
    const Tensor& g = (*got)[o].tensor;
    const Tensor& w = (*want)[o].tensor;
    for (int64_t i = 0; i < g.num_elements(); ++i) {
      const float a = g.as<float>()[i], b = w.as<float>()[i];
      if (std::isnan(b)) {
        EXPECT_TRUE(std::isnan(a)) << "output " << o << " element " << i;
      } else if (a != b) {
        EXPECT_NEAR(a, b, 1e-5 * std::fabs(b) + 1e-6) << "output " << o << " element " << i;
      }
    }
  }
}

// Buffer reuse from liveness: a result may be computed into the memory of
// an operand whose value dies at that step (a donated input, an intermediate
// at its last use). Each program runs with inputs it owns and must match the
// reference run, which keeps its inputs.
TEST(InPlaceTest, FusedLoopsWriteIntoInputsTheyOwn) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<37x129xf32>, %y: tensor<37x129xf32>) -> tensor<37x129xf32> {
  %e = stablehlo.exponential %x : tensor<37x129xf32>
  %m = stablehlo.multiply %e, %y : tensor<37x129xf32>
  %z = stablehlo.add %m, %x : tensor<37x129xf32>
  func.return %z : tensor<37x129xf32>
}
)",
                                                             1e-6, 1e-6, 2.0f, 11, true);
  EXPECT_EQ(counters.fused_loops, 1);
  EXPECT_EQ(counters.in_place_outputs, 1);
}

// dynamic_update_slice writes into its operand when the operand dies there
// (a scan's outputs buffer carried through a while loop: one row per
// iteration, not a copy of the buffer), and copies it when the operand is
// still read afterwards or is an argument the caller keeps.
TEST(InPlaceTest, DynamicUpdateSliceWritesIntoADyingOperandOnly) {
  auto program = CompileText(R"(
func.func @main(%x: tensor<4x3xf32>, %u: tensor<1x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<5x3xf32>, tensor<4x3xf32>) {
  %two = stablehlo.constant dense<2> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %x, %u, %two, %zero : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  %1 = stablehlo.add %x, %x : tensor<4x3xf32>
  %buf = stablehlo.constant dense<0.0> : tensor<5x3xf32>
  %r:2 = stablehlo.while(%i = %zero, %b = %buf) : tensor<i32>, tensor<5x3xf32>
    cond {
      %n = stablehlo.constant dense<5> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
      %nb = stablehlo.dynamic_update_slice %b, %row, %i, %z : (tensor<5x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x3xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %ni = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %ni, %nb : tensor<i32>, tensor<5x3xf32>
    }
  %2 = stablehlo.dynamic_update_slice %x, %u, %zero, %zero : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  func.return %0, %1, %r#1, %2 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<5x3xf32>, tensor<4x3xf32>
}
)",
                             true);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  Tensor x(ElementType::kF32, {4, 3}), u(ElementType::kF32, {1, 3});
  for (int i = 0; i < 12; ++i) x.mutable_as<float>()[i] = static_cast<float>(i);
  for (int i = 0; i < 3; ++i) u.mutable_as<float>()[i] = -1.0f - static_cast<float>(i);
  KernelCounters counters;
  ExecContext context;
  context.counters = &counters;
  auto got = (*program)->Run({RtValue::Of(x), RtValue::Of(u)}, context);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const float* updated = (*got)[0].tensor.as<float>();
  const float* doubled = (*got)[1].tensor.as<float>();
  const float* rows = (*got)[2].tensor.as<float>();
  const float* first = (*got)[3].tensor.as<float>();
  for (int i = 0; i < 12; ++i) {
    const int row = i / 3, col = i % 3;
    EXPECT_EQ(updated[i], row == 2 ? -1.0f - col : static_cast<float>(i)) << i;
    EXPECT_EQ(doubled[i], 2.0f * static_cast<float>(i)) << i;  // x itself unchanged
    EXPECT_EQ(first[i], row == 0 ? -1.0f - col : static_cast<float>(i)) << i;
    EXPECT_EQ(x.as<float>()[i], static_cast<float>(i)) << "the caller's argument was written";
  }
  for (int i = 0; i < 15; ++i) EXPECT_EQ(rows[i], static_cast<float>(i / 3)) << i;
  // The loop's five updates went into the carried buffer (the other ops
  // here write at most three results in place).
  EXPECT_GE(counters.in_place_outputs, 5) << "in place: " << counters.in_place_outputs;
}

TEST(InPlaceTest, InputsStillReadAfterAnOutputIsWrittenAreNotOverwritten) {
  // Softmax reads x in three passes over each row, the second output reads
  // it again after the first is computed, and x itself is returned: every
  // output must still see x's original values.
  ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<19x301xf32>, %w: tensor<19x301xf32>) -> (tensor<19x301xf32>, tensor<19x301xf32>, tensor<19x301xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<19x301xf32>, tensor<f32>) -> tensor<19xf32>
  %mb = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<19xf32>) -> tensor<19x301xf32>
  %d = stablehlo.subtract %x, %mb : tensor<19x301xf32>
  %e = stablehlo.exponential %d : tensor<19x301xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<19x301xf32>, tensor<f32>) -> tensor<19xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<19xf32>) -> tensor<19x301xf32>
  %p = stablehlo.divide %e, %sb : tensor<19x301xf32>
  %q = stablehlo.multiply %p, %w : tensor<19x301xf32>
  %r = stablehlo.add %q, %x : tensor<19x301xf32>
  func.return %p, %r, %x : tensor<19x301xf32>, tensor<19x301xf32>, tensor<19x301xf32>
}
)",
                             1e-5, 1e-6, 2.0f, 12, true);
}

TEST(InPlaceTest, TwoOutputsOfOneLoopNeverShareAnInput) {
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %a = stablehlo.multiply %x, %y : tensor<1000xf32>
  %b = stablehlo.add %x, %y : tensor<1000xf32>
  %c = stablehlo.subtract %x, %y : tensor<1000xf32>
  func.return %a, %b, %c : tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}
)",
                                                             0, 0, 2.0f, 13, true);
  // x and y are read until the last output is computed: only that one may
  // take an input's memory.
  EXPECT_EQ(counters.in_place_outputs, 1);
}

TEST(InPlaceTest, ElementwiseOpsReuseIntermediatesAtTheirLastUse) {
  // remainder is not a fused op: each runs on its own, the second into the
  // first's result (dead after it), the third into the second's.
  const KernelCounters counters = ExpectFastMatchesReference(R"(
func.func @main(%x: tensor<5x7xf32>, %y: tensor<5x7xf32>) -> (tensor<5x7xf32>, tensor<5x7xf32>) {
  %r = stablehlo.remainder %x, %y : tensor<5x7xf32>
  %s = stablehlo.remainder %r, %y : tensor<5x7xf32>
  %t = stablehlo.remainder %s, %x : tensor<5x7xf32>
  func.return %t, %y : tensor<5x7xf32>, tensor<5x7xf32>
}
)",
                                                             0, 0, 2.0f, 14);
  EXPECT_GE(counters.in_place_outputs, 2);
}

TEST(CompileTimeSimplificationTest, DeadOpsDoNotRunAndConstantChainsFold) {
  // The dot_general's result is never used: dead-code elimination drops it
  // (no oneDNN call). The iota/convert/multiply/add chain over constants is
  // evaluated at compile time; its values must still be right.
  auto program = CompileText(R"(
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<8xf32>, tensor<64x64xf32>) {
  %unused = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %f = stablehlo.convert %i : (tensor<8xi32>) -> tensor<8xf32>
  %two = stablehlo.constant dense<2.0> : tensor<8xf32>
  %one = stablehlo.constant dense<1.0> : tensor<8xf32>
  %m = stablehlo.multiply %f, %two : tensor<8xf32>
  %y = stablehlo.add %m, %one : tensor<8xf32>
  %s = stablehlo.add %a, %b : tensor<64x64xf32>
  func.return %y, %s : tensor<8xf32>, tensor<64x64xf32>
}
)",
                             true);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  std::vector<RtValue> args = RandomArguments(**program, 1.0f, 5);
  KernelCounters counters;
  ExecContext context;
  context.counters = &counters;
  auto out = (*program)->Run(args, context);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(counters.onednn_calls, 0);
  const float* y = (*out)[0].tensor.as<float>();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[i], 2.0f * i + 1.0f) << i;
  const float* s = (*out)[1].tensor.as<float>();
  for (int i = 0; i < 64 * 64; ++i) {
    ASSERT_EQ(s[i], args[0].tensor.as<float>()[i] + args[1].tensor.as<float>()[i]);
  }
}

// Index values (iota and what is computed from iotas alone: JAX's tril mask
// here) are folded at compile time up to 2^20 elements, far above the 4096
// of other constants: the mask of a 600x600 `tril` is one constant every run
// returns (the same storage), and the masked select reads it. With constant
// folding off the same values are computed on every run.
TEST(CompileTimeSimplificationTest, IndexMasksAreFoldedUpToAMillionElements) {
  const std::string text = R"(
func.func @main(%x: tensor<600x600xf32>) -> (tensor<600x600xf32>, tensor<600x600xi1>) {
  %i = stablehlo.iota dim = 0 : tensor<600x600xi32>
  %j = stablehlo.iota dim = 1 : tensor<600x600xi32>
  %m = stablehlo.compare GE, %i, %j : (tensor<600x600xi32>, tensor<600x600xi32>) -> tensor<600x600xi1>
  %z = stablehlo.constant dense<0.0> : tensor<600x600xf32>
  %r = stablehlo.select %m, %x, %z : tensor<600x600xi1>, tensor<600x600xf32>
  func.return %r, %m : tensor<600x600xf32>, tensor<600x600xi1>
}
)";
  for (bool fold : {true, false}) {
    passes::PassConfig config;
    config.enabled[static_cast<int>(passes::BuiltinPass::constant_folding)] = fold;
    auto program = CompileText(text, true, config);
    ASSERT_TRUE(program.ok()) << program.status().ToString();
    std::vector<RtValue> args = RandomArguments(**program, 1.0f, 9);
    const std::vector<float> x(args[0].tensor.as<float>(), args[0].tensor.as<float>() + 600 * 600);
    ExecContext context;
    auto first = (*program)->Run(args, context);
    auto second = (*program)->Run(args, context);
    ASSERT_TRUE(first.ok() && second.ok());
    for (const auto* out : {&*first, &*second}) {
      const float* r = (*out)[0].tensor.as<float>();
      const uint8_t* m = (*out)[1].tensor.as<uint8_t>();
      for (int i = 0; i < 600; ++i) {
        for (int j = 0; j < 600; ++j) {
          ASSERT_EQ(m[i * 600 + j] != 0, i >= j) << i << ", " << j;
          ASSERT_EQ(r[i * 600 + j], i >= j ? x[i * 600 + j] : 0.0f) << i << ", " << j;
        }
      }
    }
    EXPECT_EQ((*first)[1].tensor.data() == (*second)[1].tensor.data(), fold)
        << "the mask is one folded constant exactly when folding is on";
  }
}

// The planning passes obey their switches (compiler/pass_config.h): with one
// off, what it does is not done, and the results stay the same.
// A convolution followed by batch norm in Flax's inference form (the
// per-channel factor computed between the subtract and the multiply), an
// optional residual add, and relu or relu6 (clamp), NHWC: the chain a
// convolution applies as its epilogue.
struct EpilogueCase {
  int n, h, w, ci, co, k, stride;
  bool residual = false;
  bool clamp = false;           // relu6 as clamp(0, x, 6) instead of max(x, 0)
  bool result_read_too = false;  // the plain convolution is also returned
  bool operand_first = false;    // mean - conv: not a chain oneDNN applies
  bool batch_norm = true;        // else only the activation (and the residual)
  bool residual_conv = false;    // the residual is a 1x1 projection: a value dying there
  bool projection_batch_norm = false;  // with a batch norm of its own (a ResNet shortcut)
};

std::string EpilogueProgram(const EpilogueCase& c) {
  const int pad = c.k / 2;
  const int oh = (c.h + 2 * pad - c.k) / c.stride + 1, ow = (c.w + 2 * pad - c.k) / c.stride + 1;
  auto t = [](std::vector<int> dims) {
    std::string s = "tensor<";
    for (int d : dims) s += std::to_string(d) + "x";
    return s + "f32>";
  };
  const std::string X = t({c.n, c.h, c.w, c.ci}), W = t({c.k, c.k, c.ci, c.co});
  const std::string T = t({c.n, oh, ow, c.co}), S = t({1, 1, 1, c.co}), V = t({c.co});
  std::string p = "func.func @main(%x: " + X + ", %w: " + W + ", %mean: " + V + ", %var: " + V +
                  ", %scale: " + V + ", %bias: " + V;
  if (c.residual && !c.residual_conv) p += ", %res: " + T;
  if (c.residual_conv) p += ", %wp: " + t({1, 1, c.ci, c.co});
  if (c.projection_batch_norm) p += ", %mp: " + V + ", %sp: " + V;
  p += ") -> (" + T + (c.result_read_too ? ", " + T : "") + ") {\n";
  const std::string k = std::to_string(c.k), s = std::to_string(c.stride),
                    q = std::to_string(pad);
  p += "  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, "
       "f], window = {stride = [" + s + ", " + s + "], pad = [[" + q + ", " + q + "], [" + q +
       ", " + q + "]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (" + X +
       ", " + W + ") -> " + T + "\n";
  if (!c.batch_norm) {
    p += "  %h = stablehlo.constant dense<1.5> : " + T + "\n";
    p += "  %y2 = stablehlo.multiply %c, %h : " + T + "\n";
  }
  if (c.batch_norm) {
  if (c.residual_conv) {
    p += "  %res = stablehlo.convolution(%x, %wp) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, "
         "0, 1, f], window = {stride = [" + s + ", " + s + "]} {batch_group_count = 1 : i64, "
         "feature_group_count = 1 : i64} : (" + X + ", " + t({1, 1, c.ci, c.co}) + ") -> " + T +
         "\n";
  }
  if (c.projection_batch_norm) {
    // Its own mean and factor; the shift shares the main path's vector.
    p += "  %pm = stablehlo.broadcast_in_dim %mp, dims = [3] : (" + V + ") -> " + T + "\n";
    p += "  %p0 = stablehlo.subtract %res, %pm : " + T + "\n";
    p += "  %ps = stablehlo.broadcast_in_dim %sp, dims = [3] : (" + V + ") -> " + T + "\n";
    p += "  %p1 = stablehlo.multiply %p0, %ps : " + T + "\n";
    p += "  %pb = stablehlo.broadcast_in_dim %bias, dims = [3] : (" + V + ") -> " + T + "\n";
    p += "  %p2 = stablehlo.add %pb, %p1 : " + T + "\n";
  }
  p += "  %m = stablehlo.broadcast_in_dim %mean, dims = [3] : (" + V + ") -> " + S + "\n";
  p += "  %v = stablehlo.broadcast_in_dim %var, dims = [3] : (" + V + ") -> " + S + "\n";
  p += "  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2, 3] : (" + S + ") -> " + T + "\n";
  p += c.operand_first ? "  %y0 = stablehlo.subtract %mb, %c : " + T + "\n"
                       : "  %y0 = stablehlo.subtract %c, %mb : " + T + "\n";
  p += "  %half = stablehlo.constant dense<0.5> : " + S + "\n";
  p += "  %va = stablehlo.abs %v : " + S + "\n";
  p += "  %ve = stablehlo.add %va, %half : " + S + "\n";
  p += "  %r = stablehlo.rsqrt %ve : " + S + "\n";
  p += "  %sc = stablehlo.reshape %scale : (" + V + ") -> " + S + "\n";
  p += "  %f = stablehlo.multiply %r, %sc : " + S + "\n";
  p += "  %fb = stablehlo.broadcast_in_dim %f, dims = [0, 1, 2, 3] : (" + S + ") -> " + T + "\n";
  p += "  %y1 = stablehlo.multiply %y0, %fb : " + T + "\n";
  p += "  %bi = stablehlo.reshape %bias : (" + V + ") -> " + S + "\n";
  p += "  %bb = stablehlo.broadcast_in_dim %bi, dims = [0, 1, 2, 3] : (" + S + ") -> " + T + "\n";
  p += "  %y2 = stablehlo.add %y1, %bb : " + T + "\n";
  }
  std::string y = "%y2";
  if (c.residual) {
    p += "  %y3 = stablehlo.add " + std::string(c.projection_batch_norm ? "%p2" : "%res") +
         ", %y2 : " + T + "\n";
    y = "%y3";
  }
  p += "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n";
  p += "  %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> " + T + "\n";
  if (c.clamp) {
    p += "  %six = stablehlo.constant dense<0.75> : tensor<f32>\n";
    p += "  %sb = stablehlo.broadcast_in_dim %six, dims = [] : (tensor<f32>) -> " + T + "\n";
    p += "  %out = stablehlo.clamp %zb, " + y + ", %sb : " + T + "\n";
  } else {
    p += "  %out = stablehlo.maximum " + y + ", %zb : " + T + "\n";
  }
  p += "  func.return %out" + std::string(c.result_read_too ? ", %c" : "") + " : " + T +
       (c.result_read_too ? ", " + T : "") + "\n}\n";
  return p;
}

TEST(ConvolutionEpilogueTest, BatchNormResidualAndReluRunAsTheConvolutionsEpilogue) {
  const EpilogueCase cases[] = {
      {2, 13, 11, 8, 24, 3, 1},
      {1, 16, 16, 16, 32, 1, 1, /*residual=*/true},
      {3, 15, 9, 5, 40, 3, 2, false, /*clamp=*/true},
      {1, 12, 12, 32, 64, 3, 1, /*residual=*/true, /*clamp=*/true},
      {2, 14, 10, 16, 48, 3, 2, /*residual=*/true, false, false, false, true,
       /*residual_conv=*/true},
      // A projection shortcut with a batch norm of its own: both convolutions
      // run in the group's step, the projection first.
      {2, 14, 10, 16, 48, 3, 2, /*residual=*/true, false, false, false, true,
       /*residual_conv=*/true, /*projection_batch_norm=*/true},
      {1, 16, 16, 16, 64, 1, 1, /*residual=*/true, false, false, false, true,
       /*residual_conv=*/true, /*projection_batch_norm=*/true},
      // Results over 8 MiB: the residual add and what follows run as a loop
      // after the convolution, not as its sum post-op.
      {8, 34, 34, 16, 256, 1, 1, /*residual=*/true, /*clamp=*/true},
      {8, 34, 34, 16, 256, 1, 1, /*residual=*/true, false, false, false, true,
       /*residual_conv=*/true, /*projection_batch_norm=*/true},
  };
  for (const EpilogueCase& c : cases) {
    SCOPED_TRACE(EpilogueProgram(c));
    const KernelCounters counters =
        ExpectFastMatchesReference(EpilogueProgram(c), 1e-4, 1e-4, 1.0f, 7);
    const int convolutions = c.residual_conv ? 2 : 1;
    EXPECT_EQ(counters.onednn_calls, convolutions);
    // Either the convolutions applied the group, or (where oneDNN would
    // switch to a slower kernel for those post-ops) the group ran as its loop.
    EXPECT_EQ(counters.convolution_epilogues + convolutions * counters.fused_loops, convolutions);
  }
  // Post-ops of constants only (1.5 x, then relu or relu6) keep every oneDNN
  // kernel: those are always taken.
  for (bool clamp : {false, true}) {
    EpilogueCase c{2, 13, 11, 8, 24, 3, 1, false, clamp};
    c.batch_norm = false;
    SCOPED_TRACE(EpilogueProgram(c));
    const KernelCounters counters =
        ExpectFastMatchesReference(EpilogueProgram(c), 1e-4, 1e-4, 1.0f, 9);
    EXPECT_EQ(counters.convolution_epilogues, 1);
    EXPECT_EQ(counters.fused_loops, 0) << "the group ran as a loop of its own";
  }
}

// Random NHWC shapes, windows and strides: the epilogue gives what the
// convolution and the loop after it give apart.
TEST(ConvolutionEpilogueTest, RandomShapesMatchTheReferenceKernels) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 8; ++trial) {
    EpilogueCase c{pick(1, 3), pick(6, 19), pick(6, 19), pick(1, 24), pick(8, 48),
                   pick(0, 1) ? 3 : 1, pick(1, 2), pick(0, 1) == 1, pick(0, 1) == 1};
    SCOPED_TRACE(EpilogueProgram(c));
    const KernelCounters counters =
        ExpectFastMatchesReference(EpilogueProgram(c), 1e-4, 1e-4, 1.0f, 100 + trial);
    const int pad = c.k / 2;
    const int64_t out = int64_t{c.n} * ((c.h + 2 * pad - c.k) / c.stride + 1) *
                        ((c.w + 2 * pad - c.k) / c.stride + 1) * c.co;
    const int64_t multiply_adds = out * c.k * c.k * c.ci;
    // Groups under kMinFusedElements and products too small for oneDNN run
    // apart on the reference kernels.
    if (out >= 1024 && multiply_adds >= 4096) {
      EXPECT_EQ(counters.convolution_epilogues + counters.fused_loops, 1);
    }
  }
}

// Not taken: a convolution whose plain result is read elsewhere, and a chain
// where the convolution's result is the subtrahend. Both still compute the
// reference kernels' values; and the pass can be switched off.
TEST(ConvolutionEpilogueTest, OtherReadersAndNonChainsRunApart) {
  EpilogueCase read_too{2, 13, 11, 8, 24, 3, 1};
  read_too.result_read_too = true;
  KernelCounters counters = ExpectFastMatchesReference(EpilogueProgram(read_too), 1e-4, 1e-4, 1.0f);
  EXPECT_EQ(counters.convolution_epilogues, 0);
  EXPECT_EQ(counters.fused_loops, 1);
  EpilogueCase reversed{2, 13, 11, 8, 24, 3, 1};
  reversed.operand_first = true;
  counters = ExpectFastMatchesReference(EpilogueProgram(reversed), 1e-4, 1e-4, 1.0f);
  EXPECT_EQ(counters.convolution_epilogues, 0);
  EXPECT_EQ(counters.fused_loops, 1);

  passes::PassConfig off;
  off.enabled[static_cast<int>(passes::BuiltinPass::convolution_epilogue)] = false;
  auto program = CompileText(EpilogueProgram({2, 13, 11, 8, 24, 3, 1}), true, off);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  KernelCounters switched_off;
  ExecContext context;
  context.counters = &switched_off;
  auto out = (*program)->Run(RandomArguments(**program, 1.0f, 5), context);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(switched_off.convolution_epilogues, 0);
  EXPECT_EQ(switched_off.fused_loops, 1);
}

TEST(CompileTimeSimplificationTest, PlanningPassesFollowTheirSwitches) {
  const std::string text = R"(
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %unused = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = stablehlo.add %a, %b : tensor<64x64xf32>
  %t = stablehlo.multiply %s, %a : tensor<64x64xf32>
  %u = stablehlo.subtract %t, %b : tensor<64x64xf32>
  func.return %u : tensor<64x64xf32>
}
)";
  auto run = [&](passes::BuiltinPass off) {
    passes::PassConfig config;
    config.enabled[static_cast<int>(off)] = false;
    auto program = CompileText(text, true, config);
    EXPECT_TRUE(program.ok()) << program.status().ToString();
    KernelCounters counters;
    if (!program.ok()) return counters;
    std::vector<RtValue> args = OwnCopies(RandomArguments(**program, 1.0f, 3));
    std::vector<float> a(args[0].tensor.as<float>(), args[0].tensor.as<float>() + 64 * 64);
    std::vector<float> b(args[1].tensor.as<float>(), args[1].tensor.as<float>() + 64 * 64);
    ExecContext context;
    context.counters = &counters;
    auto out = (*program)->Run(std::move(args), context);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    if (!out.ok()) return counters;
    const float* u = (*out)[0].tensor.as<float>();
    for (int i = 0; i < 64 * 64; ++i) {
      EXPECT_EQ(u[i], (a[i] + b[i]) * a[i] - b[i]) << i;
      if (u[i] != (a[i] + b[i]) * a[i] - b[i]) break;
    }
    return counters;
  };
  const KernelCounters no_dce = run(passes::BuiltinPass::dead_code_elimination);
  EXPECT_EQ(no_dce.onednn_calls, 1);  // the unused dot_general ran
  const KernelCounters no_fusion = run(passes::BuiltinPass::elementwise_fusion);
  EXPECT_EQ(no_fusion.fused_loops, 0);
  EXPECT_EQ(no_fusion.onednn_calls, 0);
  const KernelCounters no_reuse = run(passes::BuiltinPass::in_place_reuse);
  EXPECT_EQ(no_reuse.in_place_outputs, 0);
  EXPECT_GE(no_reuse.fused_loops, 1);
  const KernelCounters all_on = run(passes::BuiltinPass::constant_folding);
  EXPECT_GE(all_on.in_place_outputs, 1);  // the fused loop wrote into an input
}

}  // namespace
}  // namespace plugrt::cpu
