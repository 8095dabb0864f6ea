// End-to-end tests of the compute ops' compile functions: programs are
// parsed and compiled with the executor, so attribute decoding, the
// reduction fast-path detection and region bodies run as in real programs.
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cpu/exec/program.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::cpu {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

StatusOr<std::vector<RtValue>> RunProgram(const std::string& text) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                          Program::Compile(std::shared_ptr<const shlo::Module>(std::move(module))));
  ExecContext context;
  return program->Run({}, context);
}

template <typename T>
std::vector<T> Values(const RtValue& v) {
  const Tensor& t = v.tensor;
  return std::vector<T>(t.as<T>(), t.as<T>() + t.num_elements());
}

TEST(ComputeOpsTest, ReduceFastPathAndRegionBodyKeepArgumentOrder) {
  auto out = RunProgram(R"(
func.func @main() -> (tensor<2xi64>, tensor<2xi64>) {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %init = stablehlo.constant dense<100> : tensor<i64>
  %sum = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  %diff = "stablehlo.reduce"(%x, %init) ({
    ^bb0(%acc: tensor<i64>, %e: tensor<i64>):
      %d = stablehlo.subtract %acc, %e : tensor<i64>
      stablehlo.return %d : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return %sum, %diff : tensor<2xi64>, tensor<2xi64>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Values<int64_t>((*out)[0]), ElementsAre(106, 115));
  EXPECT_THAT(Values<int64_t>((*out)[1]), ElementsAre(94, 85));
}

TEST(ComputeOpsTest, ReduceWindowSortAndDotGeneral) {
  auto out = RunProgram(R"(
func.func @main() -> (tensor<2xf32>, tensor<4xi64>, tensor<2x2xf32>) {
  %x = stablehlo.constant dense<[1.0, 5.0, 2.0, 4.0]> : tensor<4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %max = "stablehlo.reduce_window"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  %k = stablehlo.constant dense<[3, 1, 4, 1]> : tensor<4xi64>
  %sorted = "stablehlo.sort"(%k) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xi64>) -> tensor<4xi64>
  %l = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %max, %sorted, %d : tensor<2xf32>, tensor<4xi64>, tensor<2x2xf32>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Values<float>((*out)[0]), ElementsAre(5, 4));
  EXPECT_THAT(Values<int64_t>((*out)[1]), ElementsAre(4, 3, 1, 1));
  EXPECT_THAT(Values<float>((*out)[2]), ElementsAre(19, 22, 43, 50));
}

TEST(ComputeOpsTest, RngBitGeneratorThreeFry) {
  auto out = RunProgram(R"(
func.func @main() -> (tensor<2xui64>, tensor<ui64>) {
  %s = stablehlo.constant dense<3> : tensor<2xui64>
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>)
  func.return %state, %bits : tensor<2xui64>, tensor<ui64>
}
)");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Values<uint64_t>((*out)[0]), ElementsAre(3, 4));
  EXPECT_THAT(Values<uint64_t>((*out)[1]), ElementsAre(3349939604322698703ull));
}

TEST(ComputeOpsTest, BadAttributesAreCompileErrors) {
  auto out = RunProgram(R"(
func.func @main() -> tensor<2xi64> {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %init = stablehlo.constant dense<0> : tensor<i64>
  %sum = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [5] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return %sum : tensor<2xi64>
}
)");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr("stablehlo.reduce"));

  auto conv = RunProgram(R"(
func.func @main() -> tensor<1x1x3xf32> {
  %l = stablehlo.constant dense<1.0> : tensor<1x2x4xf32>
  %r = stablehlo.constant dense<1.0> : tensor<1x1x2xf32>
  %c = stablehlo.convolution(%l, %r) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>
  func.return %c : tensor<1x1x3xf32>
}
)");
  ASSERT_FALSE(conv.ok());
  EXPECT_THAT(conv.status().message(), HasSubstr("feature"));
}

}  // namespace
}  // namespace plugrt::cpu
