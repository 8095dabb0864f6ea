// Client::Compile and LoadedExecutable over the CPU plugin: compile, query,
// execute on one and on two devices, errors from bad programs and bad
// arguments, and the client-side argument checks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CreateCpuClient;

constexpr const char* kAddProgram = R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
)";

// Two outputs of different types, and two replicas.
constexpr const char* kReplicatedProgram = R"(
module @replicated attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi1>) {
    %sq = stablehlo.multiply %x, %x : tensor<3xi32>
    %zero = stablehlo.constant dense<0> : tensor<3xi32>
    %neg = stablehlo.compare LT, %x, %zero : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    return %sq, %neg : tensor<3xi32>, tensor<3xi1>
  }
}
)";

// Compiles `text`; an UNIMPLEMENTED compile fails the test.
#define COMPILE_OR_FAIL(lhs, client, text)                                         \
  StatusOr<LoadedExecutable> lhs##_or = (client).Compile(text);                     \
  if (!lhs##_or.ok() && lhs##_or.status().code() == StatusCode::kUnimplemented) {   \
    GTEST_FAIL() << "plugin does not compile: " << lhs##_or.status().ToString();     \
  }                                                                                 \
  ASSERT_TRUE(lhs##_or.ok()) << lhs##_or.status().ToString();                       \
  LoadedExecutable lhs = std::move(lhs##_or).value()

using testing::Download;
using testing::Upload;

TEST(ClientExecutableTest, CompileQueryAndExecuteOnOneDevice) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  COMPILE_OR_FAIL(executable, *client, kAddProgram);

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, executable.name());
  EXPECT_FALSE(name.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t replicas, executable.num_replicas());
  EXPECT_EQ(replicas, 1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t partitions, executable.num_partitions());
  EXPECT_EQ(partitions, 1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(size_t outputs, executable.num_outputs());
  EXPECT_EQ(outputs, 1u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto types, executable.output_element_types());
  EXPECT_EQ(types, std::vector<PJRT_Buffer_Type>{PJRT_Buffer_Type_F32});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto dims, executable.output_dimensions());
  EXPECT_EQ(dims, (std::vector<std::vector<int64_t>>{{2, 3}}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 1u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, executable.is_deleted());
  EXPECT_FALSE(deleted);

  Buffer a = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Buffer b = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {2, 3},
                           {10, 20, 30, 40, 50, 60.5f});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&a, &b}}));
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].size(), 1u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(PJRT_Buffer_Type type, results[0][0].element_type());
  EXPECT_EQ(type, PJRT_Buffer_Type_F32);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> out_dims, results[0][0].dimensions());
  EXPECT_EQ(out_dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Download<float>(results[0][0]), (std::vector<float>{11, 22, 33, 44, 55, 66.5f}));

  // The asynchronous form hands out one completion per device.
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult async, executable.ExecuteAsync({{&b, &b}}));
  ASSERT_EQ(async.device_complete.size(), 1u);
  PLUGRT_ASSERT_OK(async.device_complete[0].Await());
  EXPECT_EQ(Download<float>(async.outputs[0][0]), (std::vector<float>{20, 40, 60, 80, 100, 121}));
}

TEST(ClientExecutableTest, ExecutesEveryReplicaOnItsOwnDevice) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(2));
  COMPILE_OR_FAIL(executable, *client, kReplicatedProgram);
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t replicas, executable.num_replicas());
  EXPECT_EQ(replicas, 2);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto types, executable.output_element_types());
  EXPECT_EQ(types, (std::vector<PJRT_Buffer_Type>{PJRT_Buffer_Type_S32, PJRT_Buffer_Type_PRED}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 2u);

  Buffer x0 = Upload<int32_t>(*client, devices[0], PJRT_Buffer_Type_S32, {3}, {1, -2, 3});
  Buffer x1 = Upload<int32_t>(*client, devices[1], PJRT_Buffer_Type_S32, {3}, {-4, 5, 0});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&x0}, {&x1}}));
  ASSERT_EQ(results.size(), 2u);
  ASSERT_EQ(results[0].size(), 2u);
  EXPECT_EQ(Download<int32_t>(results[0][0]), (std::vector<int32_t>{1, 4, 9}));
  EXPECT_EQ(Download<int32_t>(results[1][0]), (std::vector<int32_t>{16, 25, 0}));
  EXPECT_EQ(Download<uint8_t>(results[0][1]), (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(Download<uint8_t>(results[1][1]), (std::vector<uint8_t>{1, 0, 0}));
  for (size_t d = 0; d < 2; ++d) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(Device device, results[d][0].device());
    EXPECT_EQ(device, devices[d]) << "device " << d;
  }
}

TEST(ClientExecutableTest, CompileErrorsCarryALocation) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  StatusOr<LoadedExecutable> bad = client->Compile(
      "func.func @main() -> tensor<2xf32> {\n"
      "  %0 = stablehlo.no_such_op : tensor<2xf32>\n"
      "  return %0 : tensor<2xf32>\n"
      "}\n");
  ASSERT_FALSE(bad.ok());
  if (bad.status().code() == StatusCode::kUnimplemented &&
      bad.status().message().find("PJRT_Client_Compile") != std::string::npos) {
    GTEST_FAIL() << "plugin does not compile: " << bad.status().ToString();
  }
  EXPECT_TRUE(std::regex_search(bad.status().message(), std::regex(":2:[0-9]+")))
      << bad.status().ToString();

  // A format the plugin does not take is an error too, never a crash.
  StatusOr<LoadedExecutable> hlo = client->Compile(kAddProgram, "no-such-format");
  EXPECT_FALSE(hlo.ok());
}

TEST(ClientExecutableTest, WrongArgumentsAreInvalidArgumentNamingTheArgument) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  COMPILE_OR_FAIL(executable, *client, kAddProgram);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  Buffer a = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Buffer wrong = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {3, 2},
                               {1, 2, 3, 4, 5, 6});

  StatusOr<std::vector<std::vector<Buffer>>> too_few = executable.Execute({{&a}});
  ASSERT_FALSE(too_few.ok());
  EXPECT_EQ(too_few.status().code(), StatusCode::kInvalidArgument) << too_few.status().ToString();
  EXPECT_THAT(too_few.status().message(), HasSubstr("argument"));

  StatusOr<std::vector<std::vector<Buffer>>> bad_shape = executable.Execute({{&a, &wrong}});
  ASSERT_FALSE(bad_shape.ok());
  EXPECT_EQ(bad_shape.status().code(), StatusCode::kInvalidArgument)
      << bad_shape.status().ToString();
  EXPECT_THAT(bad_shape.status().message(), HasSubstr("argument 1"));

  // Checked on the client side before the plugin is called.
  StatusOr<std::vector<std::vector<Buffer>>> ragged = executable.Execute({{&a, &a}, {&a}});
  ASSERT_FALSE(ragged.ok());
  EXPECT_EQ(ragged.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ragged.status().message(), HasSubstr("argument list 1 has 1 arguments"));
  StatusOr<std::vector<std::vector<Buffer>>> null_arg = executable.Execute({{&a, nullptr}});
  ASSERT_FALSE(null_arg.ok());
  EXPECT_THAT(null_arg.status().message(), HasSubstr("argument 1 for device 0 is null"));
  Buffer empty;
  StatusOr<std::vector<std::vector<Buffer>>> empty_arg = executable.Execute({{&empty, &a}});
  ASSERT_FALSE(empty_arg.ok());
  EXPECT_THAT(empty_arg.status().message(), HasSubstr("argument 0 for device 0"));
}

TEST(ClientExecutableTest, ExecuteDeviceDeleteAndLifetime) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  COMPILE_OR_FAIL(executable, *client, kAddProgram);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  Buffer a = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 1, 1, 1, 1, 1});

  // The executable keeps the client's PJRT_Client alive.
  client.reset();
  ExecuteOptions on_device;
  on_device.execute_device = devices[0];
  StatusOr<std::vector<std::vector<Buffer>>> results = executable.Execute({{&a, &a}}, on_device);
  if (results.ok()) {
    EXPECT_EQ(Download<float>((*results)[0][0]), std::vector<float>(6, 2.0f));
  } else {
    // execute_device is optional in PJRT; refusing it must be a clear error.
    EXPECT_EQ(results.status().code(), StatusCode::kUnimplemented) << results.status().ToString();
  }
  PLUGRT_ASSERT_OK(executable.Execute({{&a, &a}}));

  PLUGRT_ASSERT_OK(executable.Delete());
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, executable.is_deleted());
  EXPECT_TRUE(deleted);
  EXPECT_FALSE(executable.Execute({{&a, &a}}).ok());

  LoadedExecutable moved = std::move(executable);
  EXPECT_FALSE(static_cast<bool>(executable));
  StatusOr<std::string> name = executable.name();
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_FALSE(executable.Execute({}).ok());
}

TEST(ClientExecutableTest, PluginsWithoutCompileSayUnimplemented) {
  // The example SDK plugin implements no compiler: Compile must report that
  // (the argument structs are still built and checked by the SDK).
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin,
                              Plugin::Load(PLUGRT_EXAMPLE_PLUGIN_PATH));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin));
  StatusOr<LoadedExecutable> executable = client->Compile(kAddProgram);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(executable.status().message(), HasSubstr("PJRT_Client_Compile"));
}

}  // namespace
}  // namespace plugrt
