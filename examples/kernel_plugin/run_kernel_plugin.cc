// plugrt example: load a kernel plugin into a CPU client (create option
// kernel_plugins) and run a program whose stablehlo.custom_call it serves.
//
//   build/bin/run_kernel_plugin [KERNEL_PLUGIN_PATH]
//
// Exits non-zero if the result is not 3 * x + y.
#include <cstdio>
#include <cstring>
#include <vector>

#include "client/client.h"

using namespace plugrt;

static const char* kProgram = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @example.saxpy(%x, %y) {api_version = 4 : i32,
      backend_config = {alpha = 3.0 : f32}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})";

static StatusOr<std::vector<float>> RunSaxpy(const std::string& kernels) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, Plugin::Load(PLUGRT_CPU_PLUGIN_PATH));
  ClientOptions options;
  options.create_options.push_back({"kernel_plugins", kernels});
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(plugin, options));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->addressable_devices());

  // A custom call nobody serves would fail here, at compile time.
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client->Compile(kProgram));
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  PLUGRT_ASSIGN_OR_RETURN(auto xb, client->BufferFromHostBuffer(
                                       Client::HostBuffer(x.data(), PJRT_Buffer_Type_F32, {4}),
                                       devices[0]));
  PLUGRT_ASSIGN_OR_RETURN(auto yb, client->BufferFromHostBuffer(
                                       Client::HostBuffer(y.data(), PJRT_Buffer_Type_F32, {4}),
                                       devices[0]));
  PLUGRT_RETURN_IF_ERROR(xb.second.Await());
  PLUGRT_RETURN_IF_ERROR(yb.second.Await());
  PLUGRT_ASSIGN_OR_RETURN(auto results, executable.Execute({{&xb.first, &yb.first}}));
  std::vector<float> out(4);
  PLUGRT_RETURN_IF_ERROR(results[0][0].ToHost(out.data(), out.size() * sizeof(float)));
  return out;
}

int main(int argc, char** argv) {
  const std::string kernels = argc > 1 ? argv[1] : PLUGRT_EXAMPLE_KERNELS_PATH;
  StatusOr<std::vector<float>> result = RunSaxpy(kernels);
  if (!result.ok()) {
    std::fprintf(stderr, "run_kernel_plugin: %s\n", result.status().ToString().c_str());
    return 1;
  }
  for (float value : *result) std::printf("%g ", value);
  std::printf("\n");
  if (*result != std::vector<float>{13, 26, 39, 52}) {
    std::fprintf(stderr, "run_kernel_plugin: expected 13 26 39 52\n");
    return 1;
  }
  return 0;
}
