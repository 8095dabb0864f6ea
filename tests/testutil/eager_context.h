// plugrt tests: an eager context over the CPU plugin (tests that link
// plugrt_eager).
#ifndef PLUGRT_TESTS_TESTUTIL_EAGER_CONTEXT_H_
#define PLUGRT_TESTS_TESTUTIL_EAGER_CONTEXT_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "eager/context.h"
#include "testutil/plugin_env.h"

namespace plugrt::testing {

// A context over the plugin at `plugin` (the CPU plugin when empty) with
// `options`; over the CPU plugin, `cpu_device_count` > 0 passes
// cpu_device_count. nullptr, and a test failure, when creation fails.
inline std::unique_ptr<eager::Context> MakeEagerContext(eager::ContextOptions options = {},
                                                        int cpu_device_count = 2,
                                                        std::string plugin = "") {
  if (plugin.empty()) plugin = CpuPluginPath();
  ClientOptions client_options;
  if (plugin == CpuPluginPath() && cpu_device_count > 0) {
    client_options.create_options.push_back({"cpu_device_count", int64_t{cpu_device_count}});
  }
  auto context = eager::Context::Create(plugin, client_options, std::move(options));
  EXPECT_TRUE(context.ok()) << context.status().ToString();
  return context.ok() ? std::move(context).value() : nullptr;
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_EAGER_CONTEXT_H_
