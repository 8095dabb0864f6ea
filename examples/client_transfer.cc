// plugrt example: load a PJRT plugin, create a client with two devices, move
// a 2x3 f32 array to device 0, copy it to device 1, read it back transposed.
//
//   build/bin/client_transfer [PLUGIN_PATH]
//
// Exits non-zero if the data read back is not the transposed input.
#include <cstdio>
#include <vector>

#include "client/client.h"

using namespace plugrt;

static StatusOr<std::vector<float>> TransferAndTranspose(const std::string& plugin_path) {
  // Load the plugin (dlopen + GetPjrtApi + PJRT_Plugin_Initialize).
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, Plugin::Load(plugin_path));

  // A client with two devices (a create option of the CPU plugin).
  ClientOptions options;
  options.create_options.push_back({"cpu_device_count", int64_t{2}});
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(plugin, options));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->addressable_devices());

  // Host -> device 0. `done` completes when the host array may be reused.
  std::vector<float> host = {1, 2, 3, 4, 5, 6};
  Client::HostBuffer input{host.data(), PJRT_Buffer_Type_F32, {2, 3}};
  PLUGRT_ASSIGN_OR_RETURN(auto uploaded, client->BufferFromHostBuffer(input, devices[0]));
  PLUGRT_RETURN_IF_ERROR(uploaded.second.Await());

  // Device 0 -> device 1, then device 1 -> host in column-major order.
  PLUGRT_ASSIGN_OR_RETURN(Buffer on_device1, uploaded.first.CopyToDevice(devices[1]));
  std::vector<float> result(6);
  Layout column_major = Layout::ColumnMajor(2);
  PLUGRT_RETURN_IF_ERROR(
      on_device1.ToHost(result.data(), result.size() * sizeof(float), &column_major));
  return result;
}

int main(int argc, char** argv) {
  std::string plugin_path = argc > 1 ? argv[1] : PLUGRT_EXAMPLE_PLUGIN_PATH;
  StatusOr<std::vector<float>> result = TransferAndTranspose(plugin_path);
  if (!result.ok()) {
    std::fprintf(stderr, "client_transfer: %s\n", result.status().ToString().c_str());
    return 1;
  }
  const std::vector<float> expected = {1, 4, 2, 5, 3, 6};
  for (float value : *result) std::printf("%g ", value);
  std::printf("\n");
  if (*result != expected) {
    std::fprintf(stderr, "client_transfer: expected 1 4 2 5 3 6\n");
    return 1;
  }
  return 0;
}
