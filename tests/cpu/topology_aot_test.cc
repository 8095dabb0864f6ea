// Topologies by name (PJRT_TopologyDescription_*) and ahead-of-time
// compilation for them (PJRT_Compile), through the dlopen-loaded CPU plugin:
// the C API directly, then the client's Compiler.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "client/compiler.h"
#include "client/executable.h"
#include "client/topology.h"
#include "compile_options/compile_options.h"
#include "testutil/capi_helpers.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;

// Two replicas; each squares its input and adds its replica id.
constexpr const char* kTwoReplicaProgram = R"(
module @aot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<3xi32>) -> tensor<3xi32> {
    %sq = stablehlo.multiply %x, %x : tensor<3xi32>
    %r = stablehlo.replica_id : tensor<ui32>
    %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>
    %rb = stablehlo.broadcast_in_dim %ri, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %sum = stablehlo.add %sq, %rb : tensor<3xi32>
    return %sum : tensor<3xi32>
  }
}
)";

std::shared_ptr<Plugin> LoadPlugin() {
  auto plugin = testing::CpuPlugin();
  EXPECT_TRUE(plugin.ok()) << plugin.status().ToString();
  return plugin.ok() ? *plugin : nullptr;
}

const NamedValue* Find(const std::vector<NamedValue>& values, const std::string& name) {
  return FindNamedValue(values, name);
}

// --- Topologies by name ------------------------------------------------------

TEST(TopologyByNameTest, NamesGiveTheirDeviceCounts) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  for (auto [name, count] : std::vector<std::pair<std::string, int>>{
           {"cpu", 1}, {"cpu:1", 1}, {"cpu:2", 2}, {"cpu:4", 4}, {"cpu:1024", 1024}}) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology,
                                TopologyDescription::Create(plugin, name));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> descriptions,
                                topology.device_descriptions());
    ASSERT_EQ(descriptions.size(), static_cast<size_t>(count)) << name;
    for (int i = 0; i < count; ++i) {
      PLUGRT_ASSERT_OK_AND_ASSIGN(int id, descriptions[i].id());
      EXPECT_EQ(id, i) << name;
      PLUGRT_ASSERT_OK_AND_ASSIGN(std::string kind, descriptions[i].kind());
      EXPECT_EQ(kind, "cpu");
    }
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string platform, topology.platform_name());
    EXPECT_EQ(platform, "cpu");
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string version, topology.platform_version());
    EXPECT_FALSE(version.empty());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<NamedValue> attributes, topology.attributes());
    const NamedValue* device_count = Find(attributes, "cpu_device_count");
    ASSERT_NE(device_count, nullptr) << name;
    EXPECT_EQ(std::get<int64_t>(device_count->value), count) << name;
  }
}

TEST(TopologyByNameTest, BadNamesAreInvalidArgumentsNamingThem) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  for (const char* name : {"gpu", "cpu:", "cpu:0", "cpu:1025", "cpu:-1", "cpu:2x", "cpu:x",
                           "cpu:99999999999999999999", "CPU", "cpu:2:3", " cpu"}) {
    auto topology = TopologyDescription::Create(plugin, name);
    ASSERT_FALSE(topology.ok()) << name;
    EXPECT_EQ(topology.status().code(), StatusCode::kInvalidArgument) << name;
    EXPECT_THAT(topology.status().message(), HasSubstr(std::string("'") + name + "'"));
  }
}

TEST(TopologyByNameTest, CreateOptions) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  // "cpu" takes its count from the option; "cpu:N" must agree with it.
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      TopologyDescription three,
      TopologyDescription::Create(plugin, "cpu", {{"cpu_device_count", int64_t{3}}}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> descriptions,
                              three.device_descriptions());
  EXPECT_EQ(descriptions.size(), 3u);
  PLUGRT_EXPECT_OK(
      TopologyDescription::Create(plugin, "cpu:3", {{"cpu_device_count", int64_t{3}}}));

  auto disagree = TopologyDescription::Create(plugin, "cpu:2", {{"cpu_device_count", int64_t{3}}});
  ASSERT_FALSE(disagree.ok());
  EXPECT_EQ(disagree.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(disagree.status().message(), HasSubstr("cpu:2"));
  EXPECT_THAT(disagree.status().message(), HasSubstr("cpu_device_count"));

  auto unknown = TopologyDescription::Create(plugin, "cpu", {{"no_such_option", int64_t{1}}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(unknown.status().message(), HasSubstr("no_such_option"));

  auto wrong_type =
      TopologyDescription::Create(plugin, "cpu", {{"cpu_device_count", std::string("two")}});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_THAT(wrong_type.status().message(), HasSubstr("cpu_device_count"));

  auto out_of_range =
      TopologyDescription::Create(plugin, "cpu", {{"cpu_device_count", int64_t{0}}});
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_THAT(out_of_range.status().message(), HasSubstr("cpu_device_count"));
}

TEST(TopologyByNameTest, SerializeRoundTripsAndRejectsBadBytes) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology,
                              TopologyDescription::Create(plugin, "cpu:5"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, topology.Serialize());
  ASSERT_FALSE(bytes.empty());
  // Stable: the same topology serializes to the same bytes.
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription again,
                              TopologyDescription::Create(plugin, "cpu:5"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string again_bytes, again.Serialize());
  EXPECT_EQ(bytes, again_bytes);
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription other,
                              TopologyDescription::Create(plugin, "cpu:6"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string other_bytes, other.Serialize());
  EXPECT_NE(bytes, other_bytes);

  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription back,
                              TopologyDescription::Deserialize(plugin, bytes));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> descriptions,
                              back.device_descriptions());
  EXPECT_EQ(descriptions.size(), 5u);

  // Every truncation, every single-bit flip, foreign bytes: clear errors.
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto truncated = TopologyDescription::Deserialize(plugin, bytes.substr(0, n));
    ASSERT_FALSE(truncated.ok()) << n;
    EXPECT_EQ(truncated.status().code(), StatusCode::kInvalidArgument);
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      auto result = TopologyDescription::Deserialize(plugin, flipped);
      EXPECT_FALSE(result.ok()) << "byte " << i << " bit " << bit;
    }
  }
  auto longer = TopologyDescription::Deserialize(plugin, bytes + "x");
  EXPECT_FALSE(longer.ok());
  auto foreign = TopologyDescription::Deserialize(plugin, "definitely not a topology");
  ASSERT_FALSE(foreign.ok());
  EXPECT_THAT(foreign.status().message(), HasSubstr("not a serialized plugrt CPU topology"));
  std::string future = bytes;
  future[8] = 2;  // format version 2
  auto version = TopologyDescription::Deserialize(plugin, future);
  ASSERT_FALSE(version.ok());
  EXPECT_THAT(version.status().message(), HasSubstr("version"));
}

TEST(TopologyByNameTest, ClientTopologyDescribesItsDevicesTheSameWay) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(3));
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription client_topology, client->topology());
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription named,
                              TopologyDescription::Create(plugin, "cpu:3"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string a, client_topology.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string b, named.Serialize());
  EXPECT_EQ(a, b);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> da,
                              client_topology.device_descriptions());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<DeviceDescription> db, named.device_descriptions());
  ASSERT_EQ(da.size(), db.size());
  for (size_t i = 0; i < da.size(); ++i) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string sa, da[i].debug_string());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string sb, db[i].debug_string());
    EXPECT_EQ(sa, sb);
  }
}

// --- PJRT_Compile through the C API -----------------------------------------

class CApiCompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_ = LoadPlugin();
    ASSERT_NE(plugin_, nullptr);
    api_ = plugin_->api();
  }

  PJRT_TopologyDescription* CreateTopology(const std::string& name) {
    auto args = PLUGRT_C_ARGS(PJRT_TopologyDescription_Create);
    args.topology_name = name.data();
    args.topology_name_size = name.size();
    PJRT_Error* error = api_->PJRT_TopologyDescription_Create(&args);
    testing::CErrorInfo info = testing::TakeCError(api_, error);
    EXPECT_TRUE(info.ok) << info.message;
    return args.topology;
  }
  void DestroyTopology(PJRT_TopologyDescription* topology) {
    auto args = PLUGRT_C_ARGS(PJRT_TopologyDescription_Destroy);
    args.topology = topology;
    EXPECT_TRUE(testing::TakeCError(api_, api_->PJRT_TopologyDescription_Destroy(&args)).ok);
  }
  // PJRT_Compile; the executable (null on error) and the error.
  std::pair<PJRT_Executable*, testing::CErrorInfo> Compile(PJRT_TopologyDescription* topology,
                                                           const std::string& code,
                                                           const std::string& options = "",
                                                           const std::string& format = "mlir") {
    auto program = testing::MakeCStruct<PJRT_Program>(PJRT_Program_STRUCT_SIZE);
    program.code = const_cast<char*>(code.data());
    program.code_size = code.size();
    program.format = format.data();
    program.format_size = format.size();
    auto args = PLUGRT_C_ARGS(PJRT_Compile);
    args.topology = topology;
    args.program = &program;
    args.compile_options = options.data();
    args.compile_options_size = options.size();
    testing::CErrorInfo info = testing::TakeCError(api_, api_->PJRT_Compile(&args));
    return {args.executable, info};
  }
  void DestroyExecutable(PJRT_Executable* executable) {
    auto args = PLUGRT_C_ARGS(PJRT_Executable_Destroy);
    args.executable = executable;
    EXPECT_TRUE(testing::TakeCError(api_, api_->PJRT_Executable_Destroy(&args)).ok);
  }

  std::shared_ptr<Plugin> plugin_;
  const PJRT_Api* api_ = nullptr;
};

TEST_F(CApiCompileTest, CompilesForATopologyWithoutAClient) {
  PJRT_TopologyDescription* topology = CreateTopology("cpu:2");
  ASSERT_NE(topology, nullptr);
  auto [executable, error] = Compile(topology, kTwoReplicaProgram);
  ASSERT_TRUE(error.ok) << error.message;
  ASSERT_NE(executable, nullptr);
  auto replicas = PLUGRT_C_ARGS(PJRT_Executable_NumReplicas);
  replicas.executable = executable;
  ASSERT_TRUE(testing::TakeCError(api_, api_->PJRT_Executable_NumReplicas(&replicas)).ok);
  EXPECT_EQ(replicas.num_replicas, 2u);
  auto outputs = PLUGRT_C_ARGS(PJRT_Executable_NumOutputs);
  outputs.executable = executable;
  ASSERT_TRUE(testing::TakeCError(api_, api_->PJRT_Executable_NumOutputs(&outputs)).ok);
  EXPECT_EQ(outputs.num_outputs, 1u);
  DestroyExecutable(executable);
  // The executable does not depend on the topology staying alive.
  DestroyTopology(topology);
}

TEST_F(CApiCompileTest, CompileErrorsAreClear) {
  PJRT_TopologyDescription* one = CreateTopology("cpu");
  ASSERT_NE(one, nullptr);
  // Needs two devices; the topology has one.
  auto [too_big, e1] = Compile(one, kTwoReplicaProgram);
  EXPECT_EQ(too_big, nullptr);
  ASSERT_FALSE(e1.ok);
  EXPECT_EQ(e1.code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_THAT(e1.message, HasSubstr("needs 2 devices"));
  EXPECT_THAT(e1.message, HasSubstr("cpu:1"));

  auto [bad_format, e2] = Compile(one, kTwoReplicaProgram, "", "hlo-proto");
  EXPECT_EQ(bad_format, nullptr);
  EXPECT_EQ(e2.code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_THAT(e2.message, HasSubstr("hlo-proto"));

  auto [bad_options, e3] = Compile(one, kTwoReplicaProgram, "\xff\xff\xff");
  EXPECT_EQ(bad_options, nullptr);
  EXPECT_EQ(e3.code, PJRT_Error_Code_INVALID_ARGUMENT);

  auto [bad_text, e4] = Compile(one, "module { this is not stablehlo");
  EXPECT_EQ(bad_text, nullptr);
  EXPECT_FALSE(e4.ok);

  // A device assignment naming a device outside the topology.
  PJRT_TopologyDescription* two = CreateTopology("cpu:2");
  ASSERT_NE(two, nullptr);
  CompileOptions options;
  options.num_replicas = 2;
  options.num_partitions = 1;
  options.device_assignment = DeviceAssignment{2, 1, {0, 7}};
  auto [bad_assignment, e5] = Compile(two, kTwoReplicaProgram, EncodeCompileOptions(options));
  EXPECT_EQ(bad_assignment, nullptr);
  EXPECT_EQ(e5.code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_THAT(e5.message, HasSubstr("device 7"));

  // A null topology.
  auto [null_topology, e6] = Compile(nullptr, kTwoReplicaProgram);
  EXPECT_EQ(null_topology, nullptr);
  EXPECT_FALSE(e6.ok);
  DestroyTopology(one);
  DestroyTopology(two);
}

// --- Compiler: compile ahead of time, serialize, load, run --------------------

std::vector<int32_t> ReadInts(const Buffer& buffer) {
  auto bytes = buffer.ToHostVector();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  std::vector<int32_t> values(bytes->size() / sizeof(int32_t));
  std::memcpy(values.data(), bytes->data(), values.size() * sizeof(int32_t));
  return values;
}

// Runs `executable` on every device it is loaded on with input x.
std::vector<std::vector<int32_t>> RunOnEveryDevice(const Client& client,
                                                   const LoadedExecutable& executable,
                                                   const std::vector<int32_t>& x) {
  auto devices = executable.addressable_devices();
  EXPECT_TRUE(devices.ok()) << devices.status().ToString();
  if (!devices.ok()) return {};
  std::vector<Buffer> inputs;
  for (const Device& device : *devices) {
    auto uploaded = client.BufferFromHostBuffer(
        Client::HostBuffer(x.data(), PJRT_Buffer_Type_S32, {static_cast<int64_t>(x.size())}),
        device);
    EXPECT_TRUE(uploaded.ok()) << uploaded.status().ToString();
    if (!uploaded.ok()) return {};
    EXPECT_TRUE(uploaded->second.Await().ok());
    inputs.push_back(std::move(uploaded->first));
  }
  std::vector<std::vector<Buffer*>> argument_lists;
  for (Buffer& input : inputs) argument_lists.push_back({&input});
  auto outputs = executable.Execute(argument_lists);
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  std::vector<std::vector<int32_t>> results;
  for (const auto& row : *outputs) {
    EXPECT_EQ(row.size(), 1u);
    if (row.size() == 1) results.push_back(ReadInts(row[0]));
  }
  return results;
}

TEST(CompilerTest, AheadOfTimeExecutableLoadsAndRunsLikeADirectCompile) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Compiler compiler, Compiler::Create(plugin, "cpu:2"));
  CompileOptions options;
  options.num_replicas = 2;
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable,
                              compiler.Compile(kTwoReplicaProgram, options));
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t replicas, executable.num_replicas());
  EXPECT_EQ(replicas, 2);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, executable.Serialize());
  ASSERT_FALSE(bytes.empty());

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client->DeserializeAndLoad(bytes));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable direct,
                              client->Compile(kTwoReplicaProgram, options));
  const std::vector<int32_t> x = {3, -4, 5};
  std::vector<std::vector<int32_t>> aot = RunOnEveryDevice(*client, loaded, x);
  std::vector<std::vector<int32_t>> expected = RunOnEveryDevice(*client, direct, x);
  ASSERT_EQ(aot.size(), 2u);
  EXPECT_EQ(aot, expected);
  EXPECT_EQ(aot[0], (std::vector<int32_t>{9, 16, 25}));
  EXPECT_EQ(aot[1], (std::vector<int32_t>{10, 17, 26}));
}

TEST(CompilerTest, TooSmallClientIsAClearError) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Compiler compiler, Compiler::Create(plugin, "cpu:2"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable, compiler.Compile(kTwoReplicaProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, executable.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> small, testing::CreateCpuClient(1));
  auto loaded = small->DeserializeAndLoad(bytes);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(loaded.status().message(), HasSubstr("2 devices"));
}

TEST(CompilerTest, ErrorsFromTopologyAndCompile) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  auto bad = Compiler::Create(plugin, "tpu:8");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("tpu:8"));
  EXPECT_FALSE(Compiler::Create(nullptr, "cpu").ok());

  PLUGRT_ASSERT_OK_AND_ASSIGN(Compiler one, Compiler::Create(plugin, "cpu"));
  auto too_big = one.Compile(kTwoReplicaProgram);
  ASSERT_FALSE(too_big.ok());
  EXPECT_THAT(too_big.status().message(), HasSubstr("needs 2 devices"));
  // Options that contradict the program.
  PLUGRT_ASSERT_OK_AND_ASSIGN(Compiler four, Compiler::Create(plugin, "cpu:4"));
  CompileOptions three;
  three.num_replicas = 3;
  EXPECT_FALSE(four.Compile(kTwoReplicaProgram, three).ok());
}

TEST(CompilerTest, CompilerForADeserializedTopology) {
  std::shared_ptr<Plugin> plugin = LoadPlugin();
  ASSERT_NE(plugin, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription client_topology, client->topology());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string topology_bytes, client_topology.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(TopologyDescription topology,
                              TopologyDescription::Deserialize(plugin, topology_bytes));
  Compiler compiler(plugin, std::move(topology));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Executable executable, compiler.Compile(kTwoReplicaProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, executable.Serialize());
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client->DeserializeAndLoad(bytes));
  std::vector<std::vector<int32_t>> results = RunOnEveryDevice(*client, loaded, {1, 2, 3});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1], (std::vector<int32_t>{2, 5, 10}));
}

}  // namespace
}  // namespace plugrt
