// Compile options: the xla.CompileOptionsProto codec (field numbers pinned by
// hand-encoded bytes) and their effect through the dlopen-loaded CPU plugin
// and the C++ client.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "client/client.h"
#include "compile_options/compile_options.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;

// ---- hand encoding in the protobuf wire format --------------------------------

std::string Varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}
// Tag of field `number` with wire type 0 (varint) or 2 (length-delimited).
std::string VarintField(int number, int64_t value) {
  return Varint(static_cast<uint64_t>(number) << 3 | 0) + Varint(static_cast<uint64_t>(value));
}
std::string BytesField(int number, const std::string& body) {
  return Varint(static_cast<uint64_t>(number) << 3 | 2) + Varint(body.size()) + body;
}
std::string Packed(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t v : values) out += Varint(static_cast<uint64_t>(v));
  return out;
}

// xla.PrimitiveType numbers (xla/xla_data.proto).
constexpr int kF32 = 11;
constexpr int kS32 = 4;
constexpr int kTuple = 13;

// ---- codec ---------------------------------------------------------------------

TEST(CompileOptionsCodecTest, EmptyBytesGiveDefaults) {
  StatusOr<CompileOptions> options = DecodeCompileOptions("");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_FALSE(options->num_replicas.has_value());
  EXPECT_FALSE(options->num_partitions.has_value());
  EXPECT_FALSE(options->use_spmd_partitioning);
  EXPECT_EQ(options->device_ordinal, -1);
  EXPECT_FALSE(options->device_assignment.has_value());
  EXPECT_TRUE(options->argument_layouts.empty());
  EXPECT_EQ(EncodeCompileOptions(CompileOptions{}), "");
}

TEST(CompileOptionsCodecTest, RoundTrip) {
  CompileOptions options;
  options.num_replicas = 2;
  options.num_partitions = 3;
  options.use_spmd_partitioning = true;
  options.device_ordinal = 0;
  options.device_assignment = DeviceAssignment{2, 3, {5, 4, 3, 2, 1, 0}};
  options.argument_layouts.push_back({PJRT_Buffer_Type_F32, {2, 3}, std::vector<int64_t>{1, 0}});
  options.argument_layouts.push_back({PJRT_Buffer_Type_BF16, {}, std::nullopt});
  options.argument_layouts.push_back({PJRT_Buffer_Type_U4, {7}, std::nullopt});

  StatusOr<CompileOptions> back = DecodeCompileOptions(EncodeCompileOptions(options));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_replicas, std::optional<int64_t>(2));
  EXPECT_EQ(back->num_partitions, std::optional<int64_t>(3));
  EXPECT_TRUE(back->use_spmd_partitioning);
  EXPECT_FALSE(back->use_auto_spmd_partitioning);
  EXPECT_EQ(back->device_ordinal, 0);
  ASSERT_TRUE(back->device_assignment.has_value());
  EXPECT_EQ(back->device_assignment->replicas, 2);
  EXPECT_EQ(back->device_assignment->computations, 3);
  EXPECT_EQ(back->device_assignment->ids, (std::vector<int64_t>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(back->device_assignment->device_id(1, 0), 2);
  ASSERT_EQ(back->argument_layouts.size(), 3u);
  EXPECT_EQ(back->argument_layouts[0].type, PJRT_Buffer_Type_F32);
  EXPECT_EQ(back->argument_layouts[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(back->argument_layouts[0].minor_to_major, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(back->argument_layouts[1].type, PJRT_Buffer_Type_BF16);
  EXPECT_TRUE(back->argument_layouts[1].dims.empty());
  EXPECT_FALSE(back->argument_layouts[1].minor_to_major.has_value());
  EXPECT_EQ(back->argument_layouts[2].type, PJRT_Buffer_Type_U4);
}

// The encoder writes upstream's field numbers: executable_build_options is
// field 3, num_replicas 4, num_partitions 5.
TEST(CompileOptionsCodecTest, EncoderWritesUpstreamFieldNumbers) {
  CompileOptions options;
  options.num_replicas = 2;
  options.num_partitions = 3;
  EXPECT_EQ(EncodeCompileOptions(options), std::string("\x1a\x04\x20\x02\x28\x03", 6));
}

// A message as an upstream framework would send it, written byte by byte.
std::string UpstreamMessage(const std::string& extra_top = "",
                            const std::string& extra_build = "") {
  // ShapeProto (fields: element_type 2, dimensions 3, layout 5 holding
  // minor_to_major 1; repeated fields packed): f32[2,3]{1,0}.
  const std::string shape = std::string("\x10\x0b", 2) +                  // f32
                            std::string("\x1a\x02\x02\x03", 4) +          // dims [2, 3]
                            std::string("\x2a\x04\x0a\x02\x01\x00", 6);  // {1, 0}
  // DeviceAssignmentProto (fields: replica_count 1, computation_count 2,
  // computation_devices 3 holding replica_device_ids 1): 2 replicas x 1
  // computation on devices [1, 0].
  const std::string assignment = std::string("\x08\x02\x10\x01", 4) +
                                 std::string("\x1a\x04\x0a\x02\x01\x00", 6);
  // ExecutableBuildOptionsProto (fields: device_ordinal 1, num_replicas 4,
  // num_partitions 5, use_spmd_partitioning 6, device_assignment 9):
  // device_ordinal -1 (upstream's "unset"), 2 replicas, 1 partition, SPMD.
  const std::string build = std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11) +
                            std::string("\x20\x02\x28\x01\x30\x01", 6) + extra_build +
                            BytesField(9, assignment);
  EXPECT_EQ(shape.size(), 12u);
  // CompileOptionsProto: argument_layouts = 1, executable_build_options = 3.
  return BytesField(1, shape) + extra_top + BytesField(3, build);
}

void ExpectUpstreamMessageDecoded(const CompileOptions& options) {
  EXPECT_EQ(options.num_replicas, std::optional<int64_t>(2));
  EXPECT_EQ(options.num_partitions, std::optional<int64_t>(1));
  EXPECT_TRUE(options.use_spmd_partitioning);
  EXPECT_EQ(options.device_ordinal, -1);
  ASSERT_TRUE(options.device_assignment.has_value());
  EXPECT_EQ(options.device_assignment->replicas, 2);
  EXPECT_EQ(options.device_assignment->computations, 1);
  EXPECT_EQ(options.device_assignment->ids, (std::vector<int64_t>{1, 0}));
  ASSERT_EQ(options.argument_layouts.size(), 1u);
  EXPECT_EQ(options.argument_layouts[0].type, PJRT_Buffer_Type_F32);
  EXPECT_EQ(options.argument_layouts[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(options.argument_layouts[0].minor_to_major, (std::vector<int64_t>{1, 0}));
}

TEST(CompileOptionsCodecTest, DecodesUpstreamBytes) {
  StatusOr<CompileOptions> options = DecodeCompileOptions(UpstreamMessage());
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  ExpectUpstreamMessageDecoded(*options);
  EXPECT_TRUE(options->env_option_overrides.empty());
}

TEST(CompileOptionsCodecTest, UnpackedRepeatedFieldsDecodeToo) {
  // dims as two separate varint fields 3, no layout.
  const std::string shape = VarintField(2, kS32) + VarintField(3, 4) + VarintField(3, 5);
  StatusOr<CompileOptions> options = DecodeCompileOptions(BytesField(1, shape));
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  ASSERT_EQ(options->argument_layouts.size(), 1u);
  EXPECT_EQ(options->argument_layouts[0].type, PJRT_Buffer_Type_S32);
  EXPECT_EQ(options->argument_layouts[0].dims, (std::vector<int64_t>{4, 5}));
  EXPECT_FALSE(options->argument_layouts[0].minor_to_major.has_value());
}

TEST(CompileOptionsCodecTest, UnknownFieldsAreIgnored) {
  // Upstream fields plugrt does not read: profile_version = 5,
  // target_config = 8; in the build options debug_options = 3 and a far
  // future field 1000. An env_option_overrides entry (7) without a value
  // overrides nothing.
  const std::string top = VarintField(5, 7) + BytesField(7, BytesField(1, "x")) +
                          BytesField(8, std::string("\x08\x01", 2));
  const std::string build = BytesField(3, VarintField(1, 1)) + VarintField(1000, 42);
  StatusOr<CompileOptions> options = DecodeCompileOptions(UpstreamMessage(top, build));
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  ExpectUpstreamMessageDecoded(*options);
}

void ExpectInvalid(const std::string& bytes, const std::string& fragment) {
  StatusOr<CompileOptions> options = DecodeCompileOptions(bytes);
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().code(), StatusCode::kInvalidArgument) << options.status().ToString();
  EXPECT_THAT(options.status().message(), HasSubstr(fragment));
}

TEST(CompileOptionsCodecTest, MalformedBytesAreInvalidArgument) {
  ExpectInvalid(std::string("\xff", 1), "invalid field tag");
  ExpectInvalid(std::string("\x00\x01", 2), "invalid field tag at byte 0");
  // executable_build_options claims 100 bytes, 1 follows.
  ExpectInvalid(std::string("\x1a\x64\x20", 3), "executable_build_options");
  // A truncated varint inside executable_build_options.
  ExpectInvalid(BytesField(3, std::string("\x20\xff", 2)), "executable_build_options");
  // A truncated layout inside the second argument layout.
  ExpectInvalid(BytesField(1, VarintField(2, kF32)) +
                    BytesField(1, VarintField(2, kF32) + std::string("\x2a\x05\x0a", 3)),
                "argument_layouts[1]");
  // Random garbage never crashes.
  std::string noise;
  for (int i = 0; i < 64; ++i) noise.push_back(static_cast<char>(i * 37 + 11));
  for (size_t n = 1; n <= noise.size(); ++n) {
    StatusOr<CompileOptions> options = DecodeCompileOptions(noise.substr(0, n));
    if (!options.ok()) {
      EXPECT_EQ(options.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(options.status().message(), "");
    }
  }
}

TEST(CompileOptionsCodecTest, InconsistentValuesAreInvalidArgument) {
  ExpectInvalid(BytesField(3, VarintField(4, -1)), "num_replicas must not be negative");
  ExpectInvalid(BytesField(3, VarintField(5, -3)), "num_partitions must not be negative");
  // replica_count 2 but one device id.
  const std::string short_assignment =
      VarintField(1, 2) + VarintField(2, 1) + BytesField(3, BytesField(1, Packed({0})));
  ExpectInvalid(BytesField(3, BytesField(9, short_assignment)), "lists 1 devices");
  // Huge counts with few ids are refused before anything is allocated.
  const std::string huge =
      VarintField(1, 0x7fffffff) + VarintField(2, 1) + BytesField(3, BytesField(1, Packed({0})));
  ExpectInvalid(BytesField(3, BytesField(9, huge)), "replica_count is 2147483647");
  // computation_count 2 but one computation listed.
  const std::string missing_computation =
      VarintField(1, 1) + VarintField(2, 2) + BytesField(3, BytesField(1, Packed({0})));
  ExpectInvalid(BytesField(3, BytesField(9, missing_computation)), "lists 1 computations");
  // num_replicas 3 against an assignment of 2 replicas.
  const std::string two_replicas =
      VarintField(1, 2) + VarintField(2, 1) + BytesField(3, BytesField(1, Packed({0, 1})));
  ExpectInvalid(BytesField(3, VarintField(4, 3) + BytesField(9, two_replicas)),
                "num_replicas is 3 but the device assignment has 2 replicas");
  // minor_to_major that is not a permutation.
  const std::string bad_layout = VarintField(2, kF32) + BytesField(3, Packed({2, 3})) +
                                 BytesField(5, BytesField(1, Packed({0, 0})));
  ExpectInvalid(BytesField(1, bad_layout), "not a permutation");
  ExpectInvalid(BytesField(1, VarintField(2, 999)), "element type 999");
  ExpectInvalid(BytesField(1, VarintField(2, kF32) + BytesField(3, Packed({-2}))),
                "negative size");
  // A tuple layout is representable upstream but not here.
  StatusOr<CompileOptions> tuple = DecodeCompileOptions(BytesField(1, VarintField(2, kTuple)));
  EXPECT_EQ(tuple.status().code(), StatusCode::kUnimplemented) << tuple.status().ToString();
}

// ---- through the plugin ------------------------------------------------------------

constexpr const char* kReplicaIdProgram = R"(
module @ids {
  func.func public @main() -> tensor<ui32> {
    %r = stablehlo.replica_id : tensor<ui32>
    return %r : tensor<ui32>
  }
}
)";

constexpr const char* kPartitionIdProgram = R"(
module @parts {
  func.func public @main() -> tensor<ui32> {
    %p = stablehlo.partition_id : tensor<ui32>
    return %p : tensor<ui32>
  }
}
)";

constexpr const char* kTwoReplicaProgram = R"(
module @two attributes {mhlo.num_replicas = 2 : i32} {
  func.func public @main() -> tensor<ui32> {
    %r = stablehlo.replica_id : tensor<ui32>
    return %r : tensor<ui32>
  }
}
)";

constexpr const char* kMatrixProgram = R"(
module @neg {
  func.func public @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %y = stablehlo.negate %x : tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
}
)";

class CompileOptionsPluginTest : public testing::CpuClientTest {
 protected:
  // The u32 scalar each device produced, and the id of the device holding it.
  void RunIds(const LoadedExecutable& executable, std::vector<uint32_t>& values,
              std::vector<int>& device_ids) {
    StatusOr<std::vector<std::vector<Buffer>>> results = executable.Execute({});
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    for (const std::vector<Buffer>& outputs : *results) {
      ASSERT_EQ(outputs.size(), 1u);
      StatusOr<std::vector<std::byte>> bytes = outputs[0].ToHostVector();
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      ASSERT_EQ(bytes->size(), sizeof(uint32_t));
      uint32_t value = 0;
      std::memcpy(&value, bytes->data(), sizeof(value));
      values.push_back(value);
      StatusOr<Device> device = outputs[0].device();
      ASSERT_TRUE(device.ok()) << device.status().ToString();
      StatusOr<int> id = device->id();
      ASSERT_TRUE(id.ok()) << id.status().ToString();
      device_ids.push_back(*id);
    }
  }

  static void ExpectError(const StatusOr<LoadedExecutable>& compiled, StatusCode code,
                          const std::vector<std::string>& fragments) {
    ASSERT_FALSE(compiled.ok());
    EXPECT_EQ(compiled.status().code(), code) << compiled.status().ToString();
    for (const std::string& fragment : fragments) {
      EXPECT_THAT(compiled.status().message(), HasSubstr(fragment));
    }
  }
};

TEST_F(CompileOptionsPluginTest, NumReplicasFromOptionsRunsOnThatManyDevices) {
  CompileOptions options;
  options.num_replicas = 2;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kReplicaIdProgram, options));
  EXPECT_EQ(*executable.num_replicas(), 2);
  EXPECT_EQ(*executable.num_partitions(), 1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 2u);
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(ids, (std::vector<int>{0, 1}));
}

TEST_F(CompileOptionsPluginTest, WithoutOptionsTheProgramDecides) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable one, client_->Compile(kReplicaIdProgram));
  EXPECT_EQ(*one.num_replicas(), 1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable two, client_->Compile(kTwoReplicaProgram));
  EXPECT_EQ(*two.num_replicas(), 2);
  // Agreeing options are fine.
  CompileOptions options;
  options.num_replicas = 2;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable agreed,
                              client_->Compile(kTwoReplicaProgram, options));
  EXPECT_EQ(*agreed.num_replicas(), 2);
}

TEST_F(CompileOptionsPluginTest, ConflictingReplicaCountNamesBothValues) {
  CompileOptions options;
  options.num_replicas = 3;
  ExpectError(client_->Compile(kTwoReplicaProgram, options), StatusCode::kInvalidArgument,
              {"mhlo.num_replicas is 2", "num_replicas is 3"});
}

TEST_F(CompileOptionsPluginTest, SpmdPartitionsRunOneCopyEach) {
  CompileOptions options;
  options.num_partitions = 2;
  options.use_spmd_partitioning = true;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kPartitionIdProgram, options));
  EXPECT_EQ(*executable.num_partitions(), 2);
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 1}));
}

TEST_F(CompileOptionsPluginTest, DeviceAssignmentChoosesTheDevices) {
  CompileOptions options;
  options.device_assignment = DeviceAssignment{2, 1, {1, 0}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kReplicaIdProgram, options));
  EXPECT_EQ(*executable.num_replicas(), 2);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(*devices[0].id(), 1);
  EXPECT_EQ(*devices[1].id(), 0);
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  // Replica 0 ran on device 1, replica 1 on device 0.
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(ids, (std::vector<int>{1, 0}));
}

TEST_F(CompileOptionsPluginTest, DeviceAssignmentOverPartitions) {
  CompileOptions options;
  options.num_replicas = 1;
  options.num_partitions = 2;
  options.use_spmd_partitioning = true;
  options.device_assignment = DeviceAssignment{1, 2, {3, 2}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kPartitionIdProgram, options));
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(ids, (std::vector<int>{3, 2}));
}

TEST_F(CompileOptionsPluginTest, BadDeviceAssignmentsAreInvalidArgument) {
  CompileOptions missing;
  missing.device_assignment = DeviceAssignment{2, 1, {0, 7}};
  ExpectError(client_->Compile(kReplicaIdProgram, missing), StatusCode::kInvalidArgument,
              {"replica 1, partition 0 on device 7"});
  CompileOptions twice;
  twice.device_assignment = DeviceAssignment{2, 1, {1, 1}};
  ExpectError(client_->Compile(kReplicaIdProgram, twice), StatusCode::kInvalidArgument,
              {"both replica 0, partition 0 and replica 1, partition 0 on device 1"});
  // The program says 2 replicas; the assignment has 3.
  CompileOptions wrong_shape;
  wrong_shape.device_assignment = DeviceAssignment{3, 1, {0, 1, 2}};
  ExpectError(client_->Compile(kTwoReplicaProgram, wrong_shape), StatusCode::kInvalidArgument,
              {"mhlo.num_replicas is 2", "replica count is 3"});
  // Ids that do not cover replicas x computations.
  CompileOptions short_ids;
  short_ids.device_assignment = DeviceAssignment{2, 1, {0}};
  ExpectError(client_->Compile(kReplicaIdProgram, short_ids), StatusCode::kInvalidArgument,
              {"device_assignment"});
}

TEST_F(CompileOptionsPluginTest, DeviceOrdinalPlacesASingleDeviceProgram) {
  CompileOptions options;
  options.device_ordinal = 2;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kReplicaIdProgram, options));
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  EXPECT_EQ(ids, (std::vector<int>{2}));
  options.device_ordinal = 9;
  ExpectError(client_->Compile(kReplicaIdProgram, options), StatusCode::kInvalidArgument,
              {"device_ordinal 9"});
}

TEST_F(CompileOptionsPluginTest, ArgumentLayoutsMustMatchTheParameters) {
  CompileOptions matching;
  matching.argument_layouts.push_back(
      {PJRT_Buffer_Type_F32, {2, 3}, std::vector<int64_t>{1, 0}});
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kMatrixProgram, matching));
  const std::vector<float> input = {1, 2, 3, 4, 5, 6};
  auto buffer = client_->BufferFromHostBuffer(
      Client::HostBuffer(input.data(), PJRT_Buffer_Type_F32, {2, 3}), devices_[0]);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&buffer->first}}));
  std::vector<float> output(6);
  PLUGRT_ASSERT_OK(results[0][0].ToHost(output.data(), output.size() * sizeof(float)));
  EXPECT_EQ(output, (std::vector<float>{-1, -2, -3, -4, -5, -6}));

  CompileOptions transposed_dims;
  transposed_dims.argument_layouts.push_back({PJRT_Buffer_Type_F32, {3, 2}, std::nullopt});
  ExpectError(client_->Compile(kMatrixProgram, transposed_dims), StatusCode::kInvalidArgument,
              {"argument 0", "f32[3,2]", "tensor<2x3xf32>"});
  CompileOptions wrong_type;
  wrong_type.argument_layouts.push_back({PJRT_Buffer_Type_S32, {2, 3}, std::nullopt});
  ExpectError(client_->Compile(kMatrixProgram, wrong_type), StatusCode::kInvalidArgument,
              {"argument 0", "s32[2,3]", "tensor<2x3xf32>"});
  CompileOptions too_many = matching;
  too_many.argument_layouts.push_back(matching.argument_layouts[0]);
  ExpectError(client_->Compile(kMatrixProgram, too_many), StatusCode::kInvalidArgument,
              {"2 argument layouts", "takes 1 arguments"});
  CompileOptions column_major;
  column_major.argument_layouts.push_back(
      {PJRT_Buffer_Type_F32, {2, 3}, std::vector<int64_t>{0, 1}});
  ExpectError(client_->Compile(kMatrixProgram, column_major), StatusCode::kUnimplemented,
              {"argument 0", "f32[2,3]{0,1}", "row-major"});
}

TEST_F(CompileOptionsPluginTest, UnsupportedRequestsAreUnimplemented) {
  CompileOptions automatic;
  automatic.use_auto_spmd_partitioning = true;
  ExpectError(client_->Compile(kReplicaIdProgram, automatic), StatusCode::kUnimplemented,
              {"use_auto_spmd_partitioning"});
  CompileOptions tupled;
  tupled.parameter_is_tupled_arguments = true;
  ExpectError(client_->Compile(kMatrixProgram, tupled), StatusCode::kUnimplemented,
              {"parameter_is_tupled_arguments"});
}

TEST_F(CompileOptionsPluginTest, PortableExecutablesRunOnOneDevice) {
  CompileOptions portable;
  portable.compile_portable_executable = true;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kReplicaIdProgram, portable));
  ExecuteOptions on_three;
  on_three.execute_device = devices_[3];
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{}}, on_three));
  ASSERT_EQ(results.size(), 1u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Device device, results[0][0].device());
  EXPECT_EQ(*device.id(), 3);
  // A program of two replicas cannot be portable.
  ExpectError(client_->Compile(kTwoReplicaProgram, portable), StatusCode::kInvalidArgument,
              {"portable", "2 replicas"});
  // Nor can options that pin devices.
  portable.device_assignment = DeviceAssignment{1, 1, {0}};
  ExpectError(client_->Compile(kReplicaIdProgram, portable), StatusCode::kInvalidArgument,
              {"portable", "device assignment"});
}

TEST_F(CompileOptionsPluginTest, RawUpstreamBytesThroughThePlugin) {
  // The hand-encoded upstream message: 2 replicas on devices [1, 0] and an
  // f32[2,3] argument, which the replica-id program does not take.
  ExpectError(client_->Compile(kReplicaIdProgram, "mlir", UpstreamMessage()),
              StatusCode::kInvalidArgument, {"1 argument layouts", "takes 0 arguments"});
  // Malformed bytes come back as INVALID_ARGUMENT through the C ABI.
  ExpectError(client_->Compile(kReplicaIdProgram, "mlir", std::string("\x1a\x64\x20", 3)),
              StatusCode::kInvalidArgument, {"executable_build_options"});
  // Upstream's bytes without the argument layouts, for a program with none.
  const std::string assignment = VarintField(1, 2) + VarintField(2, 1) +
                                 BytesField(3, BytesField(1, Packed({1, 0})));
  const std::string bytes =
      BytesField(3, VarintField(4, 2) + VarintField(5, 1) + BytesField(9, assignment)) +
      VarintField(5, 1);  // profile_version, unknown here
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client_->Compile(kReplicaIdProgram, "mlir", bytes));
  std::vector<uint32_t> values;
  std::vector<int> ids;
  RunIds(executable, values, ids);
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(ids, (std::vector<int>{1, 0}));
}

}  // namespace
}  // namespace plugrt
