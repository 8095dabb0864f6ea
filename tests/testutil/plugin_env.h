// plugrt tests: the CPU plugin loaded through dlopen, as a user would load
// it, once per test program, and clients created over it.
#ifndef PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_
#define PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "client/client.h"
#include "client/plugin.h"
#include "common/status.h"
#include "testutil/status_matchers.h"

namespace plugrt::testing {

// The path the build gave (PLUGRT_CPU_PLUGIN_PATH).
const char* CpuPluginPath();

// Plugin::Load(CpuPluginPath()) done once; later calls return the same
// result.
StatusOr<std::shared_ptr<Plugin>> CpuPlugin();

// A new client over the CPU plugin; `device_count` > 0 passes
// cpu_device_count.
StatusOr<std::unique_ptr<Client>> CreateCpuClient(int device_count = 0);
// The same with the conformance_harness create option: its programs may use
// the conformance corpus' check.* and interpreter.* ops.
StatusOr<std::unique_ptr<Client>> CreateHarnessCpuClient(int device_count = 0);

// A fixture with `client_` over a CPU plugin of `kDeviceCount` devices and
// its addressable devices in `devices_`.
class CpuClientTest : public ::testing::Test {
 protected:
  static constexpr int kDeviceCount = 4;
  void SetUp() override;
  void TearDown() override;

  std::shared_ptr<Plugin> plugin_;
  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

// Uploads `values` as an array of `type` and `dims` to `device` and waits for
// the transfer; an empty Buffer (and a test failure) when that fails.
template <typename T>
Buffer Upload(const Client& client, const Device& device, PJRT_Buffer_Type type,
              const std::vector<int64_t>& dims, const std::vector<T>& values) {
  auto result = client.BufferFromHostBuffer(Client::HostBuffer(values.data(), type, dims), device);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return Buffer();
  EXPECT_TRUE(result->second.Await().ok());
  return std::move(result->first);
}

// The contents of `buffer` as values of T (empty, and a test failure, when
// the copy to the host fails).
template <typename T>
std::vector<T> Download(const Buffer& buffer) {
  StatusOr<std::vector<std::byte>> bytes = buffer.ToHostVector();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::vector<T> values(bytes.ok() ? bytes->size() / sizeof(T) : 0);
  if (!values.empty()) std::memcpy(values.data(), bytes->data(), values.size() * sizeof(T));
  return values;
}

// Compiles `program` (with the pass switches `passes`, as PLUGRT_PASSES
// spells them, when not empty), runs it once on the first device with f32
// `inputs` (dims, values) and returns each result's values; empty, and a
// test failure, when a step fails.
using F32Input = std::pair<std::vector<int64_t>, std::vector<float>>;
std::vector<std::vector<float>> RunF32Program(const Client& client, const std::string& program,
                                              const std::vector<F32Input>& inputs,
                                              const std::string& passes = "");

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_
