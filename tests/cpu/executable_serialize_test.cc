// Executable metadata and serialization through the dlopen-loaded CPU
// plugin: cost analysis, memory stats, fingerprints and the optimized
// program of a known program; serialize -> DeserializeAndLoad -> run, in
// this process and in a separate `plugrt run` process; truncated, corrupted,
// foreign and version-mismatched bytes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "compile_options/compile_options.h"
#include "common/named_value.h"
#include "testutil/plugin_env.h"
#include "testutil/programs.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using plugrt::testing::TempPath;

using ::testing::HasSubstr;
using testing::CreateCpuClient;

using testing::kCostProgram;

// No arguments (so `plugrt run` needs no inputs) and a chlo op the plugin
// lowers.
constexpr const char* kSelfContainedProgram = R"(
module @self_contained {
  func.func @main() -> (tensor<5xf32>, tensor<2x2xi32>) {
    %i = stablehlo.iota dim = 0 : tensor<5xf32>
    %h = stablehlo.constant dense<0.25> : tensor<5xf32>
    %x = stablehlo.multiply %i, %h : tensor<5xf32>
    %e = chlo.erf %x : tensor<5xf32> -> tensor<5xf32>
    %t = stablehlo.tanh %e : tensor<5xf32>
    %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %d = stablehlo.add %c, %c : tensor<2x2xi32>
    return %t, %d : tensor<5xf32>, tensor<2x2xi32>
  }
}
)";

constexpr const char* kReplicatedProgram = R"(
module @replicated attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %sq = stablehlo.multiply %x, %x : tensor<3xi32>
    return %sq : tensor<3xi32>
  }
}
)";

float CostValue(const std::vector<NamedValue>& values, std::string_view name) {
  const NamedValue* value = FindNamedValue(values, name);
  EXPECT_NE(value, nullptr) << name;
  if (value == nullptr) return -1;
  const float* f = std::get_if<float>(&value->value);
  EXPECT_NE(f, nullptr) << name << " is not a float";
  return f == nullptr ? -1 : *f;
}

std::vector<std::vector<std::byte>> RunToHost(const LoadedExecutable& executable) {
  std::vector<std::vector<std::byte>> result;
  StatusOr<std::vector<std::vector<Buffer>>> outputs = executable.Execute({});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return result;
  for (const Buffer& buffer : (*outputs)[0]) {
    StatusOr<std::vector<std::byte>> bytes = buffer.ToHostVector();
    EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    if (bytes.ok()) result.push_back(*bytes);
  }
  return result;
}

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

TEST(ExecutableMetadataTest, KnownProgram) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable, loaded.GetExecutable());

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, executable.name());
  EXPECT_EQ(name, "costly");
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t replicas, executable.num_replicas());
  EXPECT_EQ(replicas, 1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(size_t outputs, executable.num_outputs());
  EXPECT_EQ(outputs, 2u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto types, executable.output_element_types());
  EXPECT_EQ(types, (std::vector<PJRT_Buffer_Type>{PJRT_Buffer_Type_F32, PJRT_Buffer_Type_F32}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto dims, executable.output_dimensions());
  EXPECT_EQ(dims, (std::vector<std::vector<int64_t>>{{2, 4}, {2, 3}}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto kinds, executable.output_memory_kinds());
  EXPECT_EQ(kinds, (std::vector<std::string>{"device", "device"}));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<NamedValue> cost, executable.cost_analysis());
  EXPECT_EQ(CostValue(cost, "flops"), 48.0f);
  EXPECT_EQ(CostValue(cost, "transcendentals"), 6.0f);
  EXPECT_EQ(CostValue(cost, "bytes accessed"), 152.0f);

  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t code_size, executable.size_of_generated_code_in_bytes());
  EXPECT_GT(code_size, 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(CompiledMemoryStats stats, executable.compiled_memory_stats());
  EXPECT_EQ(stats.argument_size_in_bytes, 24 + 48);
  EXPECT_EQ(stats.output_size_in_bytes, 32 + 24);
  EXPECT_EQ(stats.alias_size_in_bytes, 0);
  EXPECT_EQ(stats.temp_size_in_bytes, 32 + 24);
  EXPECT_EQ(stats.generated_code_size_in_bytes, code_size);
  EXPECT_EQ(stats.total_size_in_bytes, code_size + 72 + 56 + 56);

  // The options it was compiled with come back (defaults: they decode).
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string options, executable.serialized_compile_options());
  PLUGRT_ASSERT_OK_AND_ASSIGN(CompileOptions decoded, DecodeCompileOptions(options));
  EXPECT_FALSE(decoded.num_replicas.has_value());

  // The loaded executable's shortcuts agree with the executable's.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fp1, executable.fingerprint());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fp2, loaded.fingerprint());
  EXPECT_EQ(fp1, fp2);
  EXPECT_EQ(fp1.size(), 32u);
}

TEST(ExecutableMetadataTest, FingerprintFollowsProgramAndOptions) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable a, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable b, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable other, client->Compile(kSelfContainedProgram));
  CompileOptions options;
  options.device_ordinal = 1;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable with_options, client->Compile(kCostProgram, options));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fa, a.fingerprint());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fb, b.fingerprint());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fo, other.fingerprint());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fw, with_options.fingerprint());
  EXPECT_EQ(fa, fb);
  EXPECT_NE(fa, fo);
  EXPECT_NE(fa, fw);

  // A fresh client (and a reload) gives the same value; so does the
  // deserialized executable.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client2, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable c, client2->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fc, c.fingerprint());
  EXPECT_EQ(fa, fc);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, a.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client2->DeserializeAndLoad(bytes));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string fl, loaded.fingerprint());
  EXPECT_EQ(fa, fl);
}

TEST(ExecutableMetadataTest, OptimizedProgramIsLoweredAndCompilesAgain) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client->Compile(kSelfContainedProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable, loaded.GetExecutable());
  std::string format;
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string text, executable.optimized_program(&format));
  EXPECT_EQ(format, "mlir");
  EXPECT_THAT(text, HasSubstr("stablehlo.tanh"));
  EXPECT_EQ(text.find("chlo."), std::string::npos) << text;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable again, client->Compile(text));
  EXPECT_EQ(RunToHost(again), RunToHost(loaded));
}

TEST(ExecutableSerializeTest, RoundTripRunsTheSame) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct, client->Compile(kSelfContainedProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable, direct.GetExecutable());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, executable.Serialize());
  EXPECT_EQ(bytes.substr(0, 8), "PLUGRTEX");

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> other_client, CreateCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, other_client->DeserializeAndLoad(bytes));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name, loaded.name());
  EXPECT_EQ(name, "self_contained");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, loaded.addressable_devices());
  EXPECT_EQ(devices.size(), 1u);
  const auto expected = RunToHost(direct);
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(RunToHost(loaded), expected);
  // Serializing the loaded one again gives the same bytes.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string again, loaded.Serialize());
  EXPECT_EQ(again, bytes);
}

TEST(ExecutableSerializeTest, SeparateProcessGivesIdenticalResults) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct, client->Compile(kSelfContainedProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, direct.Serialize());
  const std::string program_path = TempPath("self_contained.mlir");
  const std::string serialized_path = TempPath("self_contained.plugrtex");
  WriteFile(program_path, kSelfContainedProgram);
  WriteFile(serialized_path, bytes);

  testing::CommandResult from_text = testing::RunCli("run " + program_path);
  testing::CommandResult from_file = testing::RunCli("run " + serialized_path);
  ASSERT_EQ(from_text.exit_code, 0) << from_text.output;
  ASSERT_EQ(from_file.exit_code, 0) << from_file.output;
  EXPECT_THAT(from_file.output, HasSubstr("output 1: s32[2,2]"));
  EXPECT_EQ(from_file.output, from_text.output);

  // --entry does not apply to a compiled file.
  testing::CommandResult entry = testing::RunCli("run --entry other " + serialized_path);
  EXPECT_TRUE(testing::FailedWith(entry, 1, "serialized executable"));
}

Status LoadStatus(const Client& client, std::string_view bytes) {
  return client.DeserializeAndLoad(bytes).status();
}

TEST(ExecutableSerializeTest, EveryTruncationIsAnError) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, direct.Serialize());
  for (size_t n = 0; n < bytes.size(); ++n) {
    Status status = LoadStatus(*client, std::string_view(bytes).substr(0, n));
    ASSERT_EQ(status.code(), StatusCode::kInvalidArgument) << n << ": " << status.ToString();
  }
  Status longer = LoadStatus(*client, bytes + "x");
  EXPECT_EQ(longer.code(), StatusCode::kInvalidArgument) << longer.ToString();
}

TEST(ExecutableSerializeTest, ByteFlipsAreErrors) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, direct.Serialize());
  std::mt19937 rng(20240611);
  for (int i = 0; i < 300; ++i) {
    std::string corrupt = bytes;
    const size_t at = rng() % corrupt.size();
    corrupt[at] = static_cast<char>(corrupt[at] ^ (1 + rng() % 255));
    Status status = LoadStatus(*client, corrupt);
    ASSERT_EQ(status.code(), StatusCode::kInvalidArgument) << at << ": " << status.ToString();
  }
  // A corrupted payload byte reads as corruption.
  std::string corrupt = bytes;
  corrupt[bytes.size() / 2] ^= 0x40;
  EXPECT_THAT(LoadStatus(*client, corrupt).message(), HasSubstr("checksum"));
}

TEST(ExecutableSerializeTest, ForeignAndVersionMismatchedBytes) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, CreateCpuClient(1));
  Status empty = LoadStatus(*client, "");
  EXPECT_EQ(empty.code(), StatusCode::kInvalidArgument);
  Status text = LoadStatus(*client, kCostProgram);
  EXPECT_EQ(text.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(text.message(), HasSubstr("not a plugrt"));

  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, direct.Serialize());
  std::string future = bytes;
  future[8] = 99;  // format version (u32 little-endian at offset 8)
  Status version = LoadStatus(*client, future);
  EXPECT_EQ(version.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(version.message(), HasSubstr("format version 99"));
  EXPECT_THAT(version.message(), HasSubstr("format version 1"));
}

TEST(ExecutableSerializeTest, DevicesAndOverriddenOptions) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> two, CreateCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable replicated, two->Compile(kReplicatedProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, replicated.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable reloaded, two->DeserializeAndLoad(bytes));
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t replicas, reloaded.num_replicas());
  EXPECT_EQ(replicas, 2);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, reloaded.addressable_devices());
  EXPECT_EQ(devices.size(), 2u);

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> one, CreateCpuClient(1));
  Status too_few = LoadStatus(*one, bytes);
  EXPECT_EQ(too_few.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(too_few.message(), HasSubstr("needs 2 devices"));
  EXPECT_THAT(too_few.message(), HasSubstr("has 1"));

  // Overrides may repeat the counts; changing them is refused.
  CompileOptions same;
  same.num_replicas = 2;
  PLUGRT_EXPECT_OK(two->DeserializeAndLoad(bytes, EncodeCompileOptions(same)));
  CompileOptions changed;
  changed.num_replicas = 1;
  Status refused = two->DeserializeAndLoad(bytes, EncodeCompileOptions(changed)).status();
  EXPECT_EQ(refused.code(), StatusCode::kUnimplemented) << refused.ToString();
}

}  // namespace
}  // namespace plugrt
