// plugrt example: a complete PJRT plugin written with the SDK, in one file.
//
// One device ("example:0") with one memory; buffers are dense row-major byte
// vectors in host memory. Everything the SDK offers beyond that (strided host
// data, other layouts, compilation, ...) answers UNIMPLEMENTED through the
// SDK's defaults. Built as build/lib/libplugrt_example_plugin.so; try
//
//   build/bin/plugrt devices --plugin build/lib/libplugrt_example_plugin.so
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sdk/plugin.h"

namespace example {

using namespace plugrt;
using namespace plugrt::sdk;

class ExampleDevice;

class ExampleDescription : public DeviceDescription {
 public:
  int id() const override { return 0; }
  int process_index() const override { return 0; }
  std::string_view kind() const override { return "example"; }
  std::string_view debug_string() const override { return "example:0"; }
  std::string_view to_string() const override { return "ExampleDevice(id=0)"; }
  const Attributes& attributes() const override { return attributes_; }

 private:
  Attributes attributes_ = {{"vendor", std::string("plugrt example")}};
};

class ExampleMemory : public Memory {
 public:
  explicit ExampleMemory(Device* device) : device_(device) {}
  int id() const override { return 0; }
  std::string_view kind() const override { return "device"; }
  int kind_id() const override { return 0; }
  std::string_view debug_string() const override { return "example:0:device"; }
  std::string_view to_string() const override { return "ExampleMemory(id=0)"; }
  std::vector<Device*> addressable_by_devices() const override { return {device_}; }

 private:
  Device* device_;
};

class ExampleDevice : public Device {
 public:
  ExampleDevice() : memory_(this) {}
  const DeviceDescription& description() const override { return description_; }
  bool is_addressable() const override { return true; }
  int local_hardware_id() const override { return 0; }
  std::vector<Memory*> memories() const override { return {const_cast<ExampleMemory*>(&memory_)}; }
  StatusOr<Memory*> default_memory() const override { return const_cast<ExampleMemory*>(&memory_); }

 private:
  ExampleDescription description_;
  ExampleMemory memory_;
};

class ExampleBuffer : public Buffer {
 public:
  ExampleBuffer(PJRT_Buffer_Type type, std::vector<int64_t> dims, std::vector<char> bytes,
                Device* device)
      : type_(type), dims_(std::move(dims)), bytes_(std::move(bytes)), device_(device) {}

  PJRT_Buffer_Type element_type() const override { return type_; }
  const std::vector<int64_t>& dimensions() const override { return dims_; }
  StatusOr<size_t> on_device_size() const override { return bytes_.size(); }
  Device* device() const override { return device_; }
  Memory* memory() const override { return *device_->default_memory(); }
  void Delete() override {
    deleted_ = true;
    std::vector<char>().swap(bytes_);
  }
  bool is_deleted() const override { return deleted_; }
  bool is_on_cpu() const override { return true; }
  StatusOr<EventRef> ready_event() override {
    if (deleted_) return FailedPrecondition("buffer has been deleted");
    return Event::MakeReady();
  }
  StatusOr<std::unique_ptr<Buffer>> CopyToDevice(Device* device) override {
    if (deleted_) return FailedPrecondition("buffer has been deleted");
    return std::unique_ptr<Buffer>(new ExampleBuffer(type_, dims_, bytes_, device));
  }
  StatusOr<std::unique_ptr<Buffer>> CopyToMemory(Memory* memory) override {
    return CopyToDevice(memory->addressable_by_devices().front());
  }
  StatusOr<size_t> HostSize(const Layout* host_layout) const override {
    if (host_layout != nullptr && !host_layout->IsRowMajor())
      return Unimplemented("the example plugin only copies row-major data to the host");
    return bytes_.size();
  }
  StatusOr<EventRef> ToHost(void* dst, size_t dst_size, const Layout* host_layout) override {
    if (deleted_) return FailedPrecondition("buffer has been deleted");
    PLUGRT_ASSIGN_OR_RETURN(size_t needed, HostSize(host_layout));
    if (dst_size < needed)
      return InvalidArgument("destination holds ", dst_size, " bytes; the buffer needs ", needed);
    std::memcpy(dst, bytes_.data(), needed);
    return Event::MakeReady();
  }

 private:
  PJRT_Buffer_Type type_;
  std::vector<int64_t> dims_;
  std::vector<char> bytes_;
  Device* device_;
  bool deleted_ = false;
};

class ExampleTopology : public TopologyDescription {
 public:
  explicit ExampleTopology(const DeviceDescription* device) : device_(device) {}
  std::string_view platform_name() const override { return "example"; }
  std::string_view platform_version() const override { return "example 1.0"; }
  std::vector<const DeviceDescription*> device_descriptions() const override { return {device_}; }
  const Attributes& attributes() const override { return attributes_; }

 private:
  const DeviceDescription* device_;
  Attributes attributes_;
};

class ExampleClient : public Client {
 public:
  ExampleClient() : devices_{&device_}, memories_(device_.memories()), topology_(&device_.description()) {}
  std::string_view platform_name() const override { return "example"; }
  std::string_view platform_version() const override { return "example 1.0"; }
  int process_index() const override { return 0; }
  const std::vector<Device*>& devices() const override { return devices_; }
  const std::vector<Device*>& addressable_devices() const override { return devices_; }
  const std::vector<Memory*>& addressable_memories() const override { return memories_; }
  StatusOr<Device*> LookupDevice(int id) const override {
    if (id != 0) return NotFound("no device with id ", id, "; the example plugin has device 0");
    return devices_[0];
  }
  StatusOr<Device*> LookupAddressableDevice(int local_hardware_id) const override {
    return LookupDevice(local_hardware_id);
  }
  StatusOr<std::vector<int>> DefaultDeviceAssignment(int replicas, int partitions) const override {
    if (replicas * partitions != 1)
      return InvalidArgument("the example plugin has 1 device; asked for ", replicas, "x", partitions);
    return std::vector<int>{0};
  }
  StatusOr<const TopologyDescription*> topology() const override { return &topology_; }

  StatusOr<HostBufferResult> BufferFromHostBuffer(const HostBufferArgs& args) override {
    if (args.byte_strides)
      return Unimplemented("the example plugin takes dense row-major host data only");
    int bits = ElementBitWidth(args.type);
    if (bits < 8)
      return InvalidArgument("the example plugin has no ", ElementTypeName(args.type), " buffers");
    int64_t bytes = DenseByteSize(args.type, args.dims);
    const char* data = static_cast<const char*>(args.data);
    HostBufferResult result;
    result.buffer = std::make_unique<ExampleBuffer>(
        args.type, args.dims, std::vector<char>(data, data + bytes), &device_);
    result.done_with_host_buffer = Event::MakeReady();  // copied above
    return result;
  }

 private:
  ExampleDevice device_;
  std::vector<Device*> devices_;
  std::vector<Memory*> memories_;
  ExampleTopology topology_;
};

class ExamplePlugin : public Plugin {
 public:
  const Attributes& attributes() const override { return attributes_; }
  StatusOr<std::unique_ptr<Client>> CreateClient(const ClientOptions& options) override {
    if (!options.create_options.empty())
      return InvalidArgument("unknown create option '", options.create_options[0].name,
                             "': the example plugin takes none");
    return std::unique_ptr<Client>(new ExampleClient());
  }

 private:
  Attributes attributes_ = {{"example_plugin_version", int64_t{1}}};
};

}  // namespace example

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() {
  return plugrt::sdk::BuildApi(std::make_unique<example::ExamplePlugin>());
}
