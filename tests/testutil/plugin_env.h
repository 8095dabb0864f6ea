// plugrt tests: the CPU plugin loaded through dlopen, as a user would load
// it, once per test program, and clients created over it.
#ifndef PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_
#define PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "client/client.h"
#include "client/plugin.h"
#include "common/status.h"

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

}  // namespace plugrt::testing

// Test-side checks on Status / StatusOr.
#define PLUGRT_EXPECT_OK(expr)                                \
  do {                                                        \
    const ::plugrt::Status plugrt_s_ = ::plugrt::testing::ToStatus(expr); \
    EXPECT_TRUE(plugrt_s_.ok()) << plugrt_s_.ToString();      \
  } while (0)
#define PLUGRT_ASSERT_OK(expr)                                \
  do {                                                        \
    const ::plugrt::Status plugrt_s_ = ::plugrt::testing::ToStatus(expr); \
    ASSERT_TRUE(plugrt_s_.ok()) << plugrt_s_.ToString();      \
  } while (0)
#define PLUGRT_ASSERT_OK_AND_ASSIGN(lhs, expr) \
  PLUGRT_ASSERT_OK_AND_ASSIGN_IMPL_(PLUGRT_CONCAT_(plugrt_test_or_, __LINE__), lhs, expr)
#define PLUGRT_ASSERT_OK_AND_ASSIGN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                      \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString();       \
  lhs = std::move(tmp).value()

namespace plugrt::testing {
inline Status ToStatus(const Status& s) { return s; }
template <typename T>
Status ToStatus(const StatusOr<T>& s) {
  return s.status();
}
}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_PLUGIN_ENV_H_
