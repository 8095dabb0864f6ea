// Transposes folded into dot_general (compiler/passes/transpose_folding.h):
// PyTorch's nn.Linear (a weight stored [out, in]) and attention's K^T fold,
// so does a transpose of a product into the product of swapped operands,
// a transpose that would reorder the result's free dimensions stays, and
// programs compute what they compute unfolded, on the exporters' layouts
// and on random shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "client/client.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/transpose_folding.h"
#include "stablehlo/printer.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

std::unique_ptr<shlo::Module> Folded(const std::string& text, bool* changed) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "fold.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return nullptr;
  *changed = passes::FoldTransposesIntoDots(**module);
  passes::EliminateDeadCode(**module);
  return std::move(*module);
}

TEST(TransposeFoldingTest, LinearLayersAndKeyTransposesFold) {
  bool changed = false;
  std::unique_ptr<shlo::Module> m = Folded(R"(
func.func @main(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>, %q: tensor<2x3x7x8xf32>, %k: tensor<2x3x7x8xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x7x7xf32>) {
  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %y = stablehlo.dot_general %x, %wt, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %kt = stablehlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<2x3x7x8xf32>) -> tensor<2x3x8x7xf32>
  %s = stablehlo.dot_general %q, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x7x8xf32>, tensor<2x3x8x7xf32>) -> tensor<2x3x7x7xf32>
  return %y, %s : tensor<2x3x5xf32>, tensor<2x3x7x7xf32>
})",
                                           &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  const std::string printed = shlo::PrintModule(*m);
  EXPECT_EQ(printed.find("transpose"), std::string::npos) << printed;
  EXPECT_NE(printed.find("rhs_contracting_dimensions = [1]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], "
                         "rhs_contracting_dimensions = [3]"),
            std::string::npos)
      << printed;
}

TEST(TransposeFoldingTest, ATransposeThatReordersFreeDimensionsStays) {
  bool changed = true;
  std::unique_ptr<shlo::Module> m = Folded(R"(
func.func @main(%x: tensor<3x4xf32>, %w: tensor<4x5x6xf32>) -> tensor<3x6x5xf32> {
  %wt = stablehlo.transpose %w, dims = [0, 2, 1] : (tensor<4x5x6xf32>) -> tensor<4x6x5xf32>
  %y = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x6x5xf32>) -> tensor<3x6x5xf32>
  return %y : tensor<3x6x5xf32>
})",
                                           &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(changed);
  EXPECT_NE(shlo::PrintModule(*m).find("stablehlo.transpose"), std::string::npos);
}

// JAX's weight gradient: dot_general(x, dy) contracting the batch, then a
// transpose to the kernel's [in, out] layout: the product with its operands
// swapped. A transposed product something else also reads stays.
TEST(TransposeFoldingTest, ATransposedProductIsTheProductOfSwappedOperands) {
  bool changed = false;
  std::unique_ptr<shlo::Module> m = Folded(R"(
func.func @main(%dy: tensor<2x8x5xf32>, %x: tensor<2x8x3xf32>) -> (tensor<2x3x5xf32>, tensor<2x5x3xf32>, tensor<2x3x5xf32>) {
  %g = stablehlo.dot_general %dy, %x, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x8x5xf32>, tensor<2x8x3xf32>) -> tensor<2x5x3xf32>
  %gt = stablehlo.transpose %g, dims = [0, 2, 1] : (tensor<2x5x3xf32>) -> tensor<2x3x5xf32>
  %h = stablehlo.dot_general %dy, %x, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x8x5xf32>, tensor<2x8x3xf32>) -> tensor<2x5x3xf32>
  %ht = stablehlo.transpose %h, dims = [0, 2, 1] : (tensor<2x5x3xf32>) -> tensor<2x3x5xf32>
  return %gt, %h, %ht : tensor<2x3x5xf32>, tensor<2x5x3xf32>, tensor<2x3x5xf32>
})",
                                           &changed);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(changed);
  const std::string printed = shlo::PrintModule(*m);
  const shlo::Block& body = m->functions[0]->body->front();
  ASSERT_EQ(body.operations.size(), 4u) << printed;  // %g folded; %h and %ht stay
  const shlo::Operation& g = *body.operations[0];
  EXPECT_EQ(g.code, shlo::OpCode::kDotGeneral);
  EXPECT_EQ(g.operands[0], body.arguments[1].get()) << printed;
  EXPECT_EQ(g.operands[1], body.arguments[0].get()) << printed;
  EXPECT_EQ(g.result(0)->type.dims(), (std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(body.operations.back()->operands[0], g.result(0));
  EXPECT_NE(printed.find("precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]"),
            std::string::npos)
      << printed;
  EXPECT_EQ(body.operations[2]->code, shlo::OpCode::kTranspose) << printed;
}

std::string Dims(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s;
}

// Linear layers ([out, in] weights, either operand), batched products with
// a transposed rhs (attention's Q K^T) or lhs, on random shapes: folded and
// unfolded programs agree to f32 rounding of the sums.
TEST(TransposeFoldingTest, FoldedProgramsComputeWhatUnfoldedOnesDo) {
  StatusOr<std::shared_ptr<Plugin>> plugin = testing::CpuPlugin();
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  StatusOr<std::unique_ptr<Client>> client = Client::Create(*plugin, {});
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::mt19937 rng(7);
  auto size = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto values = [&](const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : v) x = u(rng);
    return v;
  };
  for (int round = 0; round < 6; ++round) {
    const int64_t b = size(1, 3), m = size(1, 70), k = size(1, 90), n = size(1, 70);
    // y = x W^T (W: [n, k]); z = A^T B batched (A: [b, k, m], B: [b, k, n]);
    // g = (x^T y)^T, a weight gradient in the kernel's layout.
    const std::string program =
        "func.func @main(%x: tensor<" + Dims({b, m, k}) + "f32>, %w: tensor<" + Dims({n, k}) +
        "f32>, %a: tensor<" + Dims({b, k, m}) + "f32>, %c: tensor<" + Dims({b, n, k}) +
        "f32>) -> (tensor<" + Dims({b, m, n}) + "f32>, tensor<" + Dims({b, m, n}) +
        "f32>, tensor<" + Dims({b, n, k}) + "f32>) {\n"
        "  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<" + Dims({n, k}) +
        "f32>) -> tensor<" + Dims({k, n}) + "f32>\n"
        "  %y = stablehlo.dot_general %x, %wt, contracting_dims = [2] x [0] : (tensor<" +
        Dims({b, m, k}) + "f32>, tensor<" + Dims({k, n}) + "f32>) -> tensor<" + Dims({b, m, n}) +
        "f32>\n"
        "  %at = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<" + Dims({b, k, m}) +
        "f32>) -> tensor<" + Dims({b, m, k}) + "f32>\n"
        "  %ct = stablehlo.transpose %c, dims = [0, 2, 1] : (tensor<" + Dims({b, n, k}) +
        "f32>) -> tensor<" + Dims({b, k, n}) + "f32>\n"
        "  %z = stablehlo.dot_general %at, %ct, batching_dims = [0] x [0], contracting_dims = "
        "[2] x [1] : (tensor<" + Dims({b, m, k}) + "f32>, tensor<" + Dims({b, k, n}) +
        "f32>) -> tensor<" + Dims({b, m, n}) + "f32>\n"
        "  %g = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = "
        "[1] x [1] : (tensor<" + Dims({b, m, k}) + "f32>, tensor<" + Dims({b, m, n}) +
        "f32>) -> tensor<" + Dims({b, k, n}) + "f32>\n"
        "  %gt = stablehlo.transpose %g, dims = [0, 2, 1] : (tensor<" + Dims({b, k, n}) +
        "f32>) -> tensor<" + Dims({b, n, k}) + "f32>\n"
        "  return %y, %z, %gt : tensor<" + Dims({b, m, n}) + "f32>, tensor<" + Dims({b, m, n}) +
        "f32>, tensor<" + Dims({b, n, k}) + "f32>\n}\n";
    const std::vector<testing::F32Input> inputs = {
        {{b, m, k}, values({b, m, k})},
        {{n, k}, values({n, k})},
        {{b, k, m}, values({b, k, m})},
        {{b, n, k}, values({b, n, k})}};
    const auto folded = testing::RunF32Program(**client, program, inputs);
    const auto unfolded =
        testing::RunF32Program(**client, program, inputs, "transpose-folding=off");
    ASSERT_EQ(folded.size(), 3u);
    ASSERT_EQ(unfolded.size(), 3u);
    for (size_t r = 0; r < 3; ++r) {
      ASSERT_EQ(folded[r].size(), unfolded[r].size());
      // Each element of y and z sums k products of values in [-1, 1]; each
      // of g sums m products of such values and elements of y.
      const double bound = r < 2 ? 1e-5 * static_cast<double>(k)
                                 : 1e-5 * static_cast<double>(k) * static_cast<double>(m);
      for (size_t i = 0; i < folded[r].size(); ++i) {
        ASSERT_NEAR(folded[r][i], unfolded[r][i], bound)
            << "round " << round << " (b=" << b << " m=" << m << " k=" << k << " n=" << n
            << ") result " << r << " element " << i;
      }
    }
  }
}

}  // namespace
}  // namespace plugrt
