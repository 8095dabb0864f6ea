// plugrt_transfer_bench: the fixed cost of one execute (a + b on f32
// scalars, waited for) and host<->device bandwidth (BufferFromHostBuffer,
// ToHost) through any plugin. scripts/bench_remote.sh runs it on the CPU
// plugin and on the remote plugin against a loopback worker.
//
//   plugrt_transfer_bench --plugin PATH [--option NAME=VALUE ...]
//                         [--sizes-mib 1,16,256] [--dispatch 2000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "client/plugin.h"

namespace {

using plugrt::Status;
using Clock = std::chrono::steady_clock;

constexpr const char* kScalarAdd = R"(
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
)";

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int Fail(const std::string& what, const Status& status) {
  std::fprintf(stderr, "plugrt_transfer_bench: %s: %s\n", what.c_str(), status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string plugin_path;
  std::vector<plugrt::NamedValue> options;
  std::vector<int64_t> sizes_mib = {1, 16, 256};
  int dispatch = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--plugin") {
      plugin_path = value;
    } else if (flag == "--option") {
      size_t eq = value.find('=');
      if (eq == std::string::npos) return Fail("--option", plugrt::InvalidArgument("NAME=VALUE"));
      std::string name = value.substr(0, eq), text = value.substr(eq + 1);
      char* end = nullptr;
      long long number = std::strtoll(text.c_str(), &end, 10);
      if (!text.empty() && *end == '\0') {
        options.push_back(plugrt::NamedValue{name, static_cast<int64_t>(number)});
      } else {
        options.push_back(plugrt::NamedValue{name, text});
      }
    } else if (flag == "--sizes-mib") {
      sizes_mib.clear();
      for (size_t start = 0; start < value.size();) {
        size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        sizes_mib.push_back(std::atoll(value.substr(start, comma - start).c_str()));
        start = comma + 1;
      }
    } else if (flag == "--dispatch") {
      dispatch = std::max(1, std::atoi(value.c_str()));
    } else {
      return Fail(flag, plugrt::InvalidArgument("unknown flag"));
    }
  }
  if (plugin_path.empty()) return Fail("usage", plugrt::InvalidArgument("--plugin PATH is needed"));
  auto plugin = plugrt::Plugin::Load(plugin_path);
  if (!plugin.ok()) return Fail(plugin_path, plugin.status());
  plugrt::ClientOptions client_options;
  client_options.create_options = options;
  auto client = plugrt::Client::Create(*plugin, client_options);
  if (!client.ok()) return Fail("client", client.status());
  auto devices = (*client)->addressable_devices();
  if (!devices.ok() || devices->empty()) return Fail("devices", devices.status());
  const plugrt::Device device = (*devices)[0];

  // Dispatch: launch and wait, the output dropped each time.
  auto add = (*client)->Compile(kScalarAdd);
  if (!add.ok()) return Fail("compile", add.status());
  float one = 1, two = 2;
  auto a = (*client)->BufferFromHostBuffer({&one, PJRT_Buffer_Type_F32, {}}, device);
  auto b = (*client)->BufferFromHostBuffer({&two, PJRT_Buffer_Type_F32, {}}, device);
  if (!a.ok() || !b.ok()) return Fail("upload", a.ok() ? b.status() : a.status());
  std::vector<double> per_op;
  for (int round = 0; round < 6; ++round) {
    Clock::time_point start = Clock::now();
    for (int i = 0; i < dispatch; ++i) {
      auto out = add->Execute({{&a->first, &b->first}});
      if (!out.ok()) return Fail("execute", out.status());
    }
    if (round > 0) per_op.push_back(Seconds(start) / dispatch);  // round 0 warms up
  }
  std::sort(per_op.begin(), per_op.end());
  std::printf("dispatch_scalar_add  %10.1f us/op (median of 5 rounds of %d)\n",
              per_op[per_op.size() / 2] * 1e6, dispatch);

  // Bandwidth: best of 3 for each size.
  for (int64_t mib : sizes_mib) {
    const int64_t bytes = mib << 20;
    std::vector<char> host(static_cast<size_t>(bytes), 1), back(static_cast<size_t>(bytes));
    double up = 1e30, down = 1e30;
    for (int r = 0; r < 3; ++r) {
      Clock::time_point start = Clock::now();
      auto buffer = (*client)->BufferFromHostBuffer({host.data(), PJRT_Buffer_Type_U8, {bytes}},
                                                    device);
      if (!buffer.ok()) return Fail("upload", buffer.status());
      Status done = buffer->second.Await();
      if (!done.ok()) return Fail("upload", done);
      auto ready = buffer->first.ReadyFuture();
      if (ready.ok()) ready->Await().IgnoreError();
      up = std::min(up, Seconds(start));
      start = Clock::now();
      Status copied = buffer->first.ToHost(back.data(), back.size());
      if (!copied.ok()) return Fail("download", copied);
      down = std::min(down, Seconds(start));
    }
    std::printf("transfer %5lld MiB     upload %7.2f GB/s   download %7.2f GB/s\n",
                static_cast<long long>(mib), bytes / up / 1e9, bytes / down / 1e9);
  }
  return 0;
}
