// Programs that are one elementwise op over their arguments (what an eager
// runtime sends, op by op) run straight from the argument buffers into the
// output buffer (Program::single_op). They must give what the interpreter
// gives: same results for every kind of elementwise kernel, arguments used
// in any order or twice, scalar operands of clamp; allocation failures end
// as RESOURCE_EXHAUSTED with nothing leaked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/plugin.h"
#include "cpu/cpu_plugin.h"
#include "cpu/exec/program.h"
#include "cpu/kernels/host_memory.h"
#include "sdk/plugin.h"
#include "compiler/importers/mlir/parser.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

bool IsSingleOp(const std::string& text) {
  auto module = shlo::ParseModule(text, "single_op.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return false;
  auto program = cpu::Program::Compile(std::shared_ptr<const shlo::Module>(std::move(*module)));
  EXPECT_TRUE(program.ok()) << program.status().ToString();
  return program.ok() && (*program)->single_op() != nullptr;
}

TEST(SingleOpProgramTest, OnlyOneOpOverTheArgumentsReturningItsResultQualifies) {
  EXPECT_TRUE(IsSingleOp(R"(
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
})"));
  EXPECT_TRUE(IsSingleOp(R"(
func.func @main(%a: tensor<4xi32>) -> tensor<4xf32> {
  %0 = stablehlo.convert %a : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})"));
  // Two ops; an argument returned as well; a constant operand; a non-elementwise op.
  EXPECT_FALSE(IsSingleOp(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %a : tensor<f32>
  %1 = stablehlo.negate %0 : tensor<f32>
  return %1 : tensor<f32>
})"));
  EXPECT_FALSE(IsSingleOp(R"(
func.func @main(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = stablehlo.negate %a : tensor<f32>
  return %0, %a : tensor<f32>, tensor<f32>
})"));
  EXPECT_FALSE(IsSingleOp(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %0 = stablehlo.multiply %a, %c : tensor<f32>
  return %0 : tensor<f32>
})"));
  EXPECT_FALSE(IsSingleOp(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
})"));
}

class SingleOpRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto plugin = testing::CpuPlugin();
    PLUGRT_ASSERT_OK(plugin);
    auto client = Client::Create(*plugin);
    PLUGRT_ASSERT_OK(client);
    client_ = std::move(*client);
    PLUGRT_ASSERT_OK_AND_ASSIGN(devices_, client_->addressable_devices());
  }

  template <typename Out>
  std::vector<Out> Run(const std::string& text, const std::vector<Buffer*>& args, size_t n) {
    auto executable = client_->Compile(text);
    EXPECT_TRUE(executable.ok()) << executable.status().ToString();
    if (!executable.ok()) return {};
    auto outputs = executable->Execute({args});
    EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
    if (!outputs.ok()) return {};
    std::vector<Out> values(n);
    Status read = (*outputs)[0][0].ToHost(values.data(), n * sizeof(Out));
    EXPECT_TRUE(read.ok()) << read.ToString();
    return values;
  }

  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

TEST_F(SingleOpRunTest, EachKernelKindGivesTheInterpretersResult) {
  Buffer a = testing::Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {2, 2},
                                    {1.0f, -2.0f, 3.5f, 8.0f});
  Buffer b = testing::Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {2, 2},
                                    {0.5f, 4.0f, -1.0f, 2.0f});
  // Operands in the other order, and one argument read twice.
  EXPECT_THAT(Run<float>(R"(
func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.subtract %b, %a : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})", {&a, &b}, 4), ElementsAre(-0.5f, 6.0f, -4.5f, -6.0f));
  EXPECT_THAT(Run<float>(R"(
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})", {&a}, 4), ElementsAre(1.0f, 4.0f, 12.25f, 64.0f));
  // Scalar bounds of clamp.
  Buffer lo = testing::Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {}, {0.0f});
  Buffer hi = testing::Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {}, {4.0f});
  EXPECT_THAT(Run<float>(R"(
func.func @main(%lo: tensor<f32>, %a: tensor<2x2xf32>, %hi: tensor<f32>) -> tensor<2x2xf32> {
  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})", {&lo, &a, &hi}, 4), ElementsAre(1.0f, 0.0f, 3.5f, 4.0f));
  // Select and convert.
  Buffer p = testing::Upload<uint8_t>(*client_, devices_[0], PJRT_Buffer_Type_PRED, {2, 2},
                                      {1, 0, 0, 1});
  EXPECT_THAT(Run<float>(R"(
func.func @main(%p: tensor<2x2xi1>, %a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.select %p, %a, %b : tensor<2x2xi1>, tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})", {&p, &a, &b}, 4), ElementsAre(1.0f, 4.0f, -1.0f, 8.0f));
  EXPECT_THAT(Run<int32_t>(R"(
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xi32> {
  %0 = stablehlo.convert %a : (tensor<2x2xf32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
})", {&a}, 4), ElementsAre(1, -2, 3, 8));
}

TEST(SingleOpProgramFailureTest, EveryAllocationOfARunFailsCleanly) {
  // The plugin built into this process, so that the hook reaches its allocator.
  static const PJRT_Api* api = sdk::BuildApi(std::make_unique<cpu::CpuPlugin>());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin,
                              Plugin::FromApi(api, "in-process CPU plugin"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  std::vector<float> x(1000, 1.5f);
  Buffer xb = testing::Upload(*client, devices[0], PJRT_Buffer_Type_F32, {1000}, x);
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(R"(
func.func @main(%a: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = stablehlo.add %a, %a : tensor<1000xf32>
  return %0 : tensor<1000xf32>
})"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats before, devices[0].memory_stats());
  cpu::InjectHostAllocationFailure(std::numeric_limits<int64_t>::max());
  PLUGRT_ASSERT_OK(executable.Execute({{&xb}}));
  const int64_t calls = cpu::InjectHostAllocationFailure(0);
  ASSERT_GE(calls, 1) << "the output needs memory of its own";
  for (int64_t n = 1; n <= calls; ++n) {
    cpu::InjectHostAllocationFailure(n);
    auto outputs = executable.Execute({{&xb}});
    cpu::InjectHostAllocationFailure(0);
    ASSERT_FALSE(outputs.ok()) << "allocation " << n;
    EXPECT_EQ(outputs.status().code(), StatusCode::kResourceExhausted) << outputs.status().ToString();
    EXPECT_THAT(outputs.status().message(), HasSubstr("cannot allocate"));
    PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats after, devices[0].memory_stats());
    EXPECT_EQ(after.bytes_in_use, before.bytes_in_use) << "allocation " << n;
  }
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&xb}}));
  std::vector<float> y(1000);
  PLUGRT_ASSERT_OK(outputs[0][0].ToHost(y.data(), y.size() * sizeof(float)));
  EXPECT_EQ(y[0], 3.0f);
  EXPECT_EQ(y[999], 3.0f);
}

}  // namespace
}  // namespace plugrt
