// passes::LowerApproxTopK through the CPU plugin: custom_call @ApproxTopK
// (jax.lax.approx_max_k's lowering) gives the exact top k, values and
// indices, along its reduction_dim; what it cannot honour is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

std::string Program(const std::string& config) {
  return R"(
func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %iota = stablehlo.iota dim = 1 : tensor<2x5xi32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %v, %i = stablehlo.custom_call @ApproxTopK(%x, %iota, %init, %none) {called_computations = [@gt], mhlo.backend_config = {)" +
         config + R"(}} : (tensor<2x5xf32>, tensor<2x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
})";
}

TEST(ApproxTopKTest, GivesTheExactTopK) {
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  StatusOr<LoadedExecutable> executable = (*client)->Compile(Program(
      "aggregate_to_topk = true, is_fallback = true, recall_target = 0.95 : f32, "
      "reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 3 : i64"));
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  StatusOr<std::vector<Device>> devices = (*client)->addressable_devices();
  ASSERT_TRUE(devices.ok());
  Buffer x = testing::Upload(**client, devices->front(), PJRT_Buffer_Type_F32, {2, 5},
                             std::vector<float>{3, 9, 1, 7, 5, -1, -5, 2, 8, 0});
  StatusOr<std::vector<std::vector<Buffer>>> out = executable->Execute({{&x}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<float> values(6);
  std::vector<int32_t> indices(6);
  ASSERT_TRUE(out->at(0).at(0).ToHost(values.data(), values.size() * sizeof(float)).ok());
  ASSERT_TRUE(out->at(0).at(1).ToHost(indices.data(), indices.size() * sizeof(int32_t)).ok());
  EXPECT_EQ(values, (std::vector<float>{9, 7, 5, 8, 2, 0}));
  EXPECT_EQ(indices, (std::vector<int32_t>{1, 3, 4, 3, 2, 4}));
}

TEST(ApproxTopKTest, UnaggregatedResultsAreRefused) {
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  StatusOr<LoadedExecutable> executable = (*client)->Compile(
      Program("aggregate_to_topk = false, reduction_dim = 1 : i64, top_k = 3 : i64"));
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(executable.status().message().find("aggregate_to_topk"), std::string::npos)
      << executable.status().ToString();
}

}  // namespace
}  // namespace plugrt
