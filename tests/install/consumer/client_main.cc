// A program written against an installed plugrt (tests/install/install_test.sh
// builds it with CMake and with pkg-config): loads each plugin named on the
// command line, creates a client and lists its devices; with the CPU plugin it
// also round-trips an array through device memory.
//
//   consumer_client PLUGIN_PATH...
#include <cstdio>
#include <vector>

#include "client/client.h"

using namespace plugrt;

static Status Check(const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, Plugin::Load(path));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(plugin, {}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->addressable_devices());
  std::printf("%s: API %d.%d, %zu device(s)\n", path.c_str(), plugin->major_version(),
              plugin->minor_version(), devices.size());
  if (devices.empty()) return Status(StatusCode::kInternal, "no devices");
  if (!client->platform_name().ok() || *client->platform_name() != "cpu") return OkStatus();
  std::vector<float> host = {1, 2, 3};
  Client::HostBuffer input{host.data(), PJRT_Buffer_Type_F32, {3}};
  PLUGRT_ASSIGN_OR_RETURN(auto uploaded, client->BufferFromHostBuffer(input, devices[0]));
  PLUGRT_RETURN_IF_ERROR(uploaded.second.Await());
  std::vector<float> back(3);
  PLUGRT_RETURN_IF_ERROR(uploaded.first.ToHost(back.data(), back.size() * sizeof(float)));
  if (back != host) return Status(StatusCode::kInternal, "array came back changed");
  std::printf("%s: round trip ok\n", path.c_str());
  return OkStatus();
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: consumer_client PLUGIN_PATH...\n");
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    Status status = Check(argv[i]);
    if (!status.ok()) {
      std::fprintf(stderr, "consumer_client: %s\n", status.ToString().c_str());
      return 1;
    }
  }
  return 0;
}
