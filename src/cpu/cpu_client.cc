#include "cpu/cpu_client.h"

#include <algorithm>
#include <climits>

#include "common/log.h"
#include "compile_options/compile_options.h"
#include "cpu/cpu_loaded_executable.h"

#include "cpu/cpu_buffer.h"
#include "cpu/cpu_compilation_cache.h"
#include "cpu/cpu_version.h"
#include "cpu/host_transfer.h"
#include "cpu/kernels/parallel.h"
#include "kernels_abi/kernel_plugins.h"
#include "profiler/profile_files.h"

namespace plugrt::cpu {

StatusOr<std::unique_ptr<CpuClient>> CpuClient::Create(const sdk::ClientOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(CpuOptions parsed, ParseCpuOptions(options.create_options));
  PLUGRT_RETURN_IF_ERROR(LoadKernelPlugins(parsed));
  PLUGRT_RETURN_IF_ERROR(LoadOptimizerPlugins(parsed));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<fs::CompilationCache> cache,
                          OpenCompilationCache(parsed));
  std::shared_ptr<CpuCluster> cluster;
  if (parsed.num_nodes > 1) {
    PLUGRT_ASSIGN_OR_RETURN(cluster,
                            CpuCluster::Form(parsed, parsed.num_devices, options.kv_store));
  }
  auto client = std::make_unique<CpuClient>(parsed, options.kv_store, std::move(cluster));
  client->compilation_cache_ = std::move(cache);
  if (!parsed.profile_path.empty()) {
    client->profile_ = std::make_unique<profiler::Session>();
    client->profile_->Start();
  }
  const CpuOptions& settled = client->options();
  Log(LogLevel::kInfo, "cpu",
      StrCat("client created: ", settled.num_devices, " device(s), ",
             settled.program.kernel_threads, " kernel thread(s) each, fast_paths=",
             settled.program.fast_paths ? "true" : "false",
             ", jit=", settled.program.jit ? "true" : "false", ", ",
             settled.kernel_plugins.size(), " kernel plugin(s), ",
              settled.optimizer_plugins.size(), " optimizer plugin(s)"));
  return client;
}

namespace {
// `options` with the kernels' thread budget settled (CpuClient::kernel_threads).
CpuOptions WithKernelThreads(CpuOptions options) {
  const int cores = HardwareThreads();
  const int threads =
      options.threads > 0 ? options.threads : cores / std::max(1, options.num_devices);
  options.program.kernel_threads = std::clamp(threads, 1, cores * 4);
  return options;
}
}  // namespace

CpuClient::CpuClient(const CpuOptions& options, std::shared_ptr<sdk::KeyValueStore> kv_store,
                     std::shared_ptr<CpuCluster> cluster)
    : kv_store_(std::move(kv_store)),
      cluster_(std::move(cluster)),
      options_(WithKernelThreads(options)),
      topology_(cluster_ != nullptr ? std::make_unique<CpuTopology>(cluster_->devices_per_node())
                                    : std::make_unique<CpuTopology>(options.num_devices)),
      work_queue_(std::make_unique<WorkQueue>(kWorkerThreads, "plugrt transfer")) {
  topology_->set_kernel_plugins(options_.program.kernel_plugins);
  const int first_local = cluster_ != nullptr ? cluster_->first_device_id(cluster_->node_id()) : 0;
  for (int id = 0; id < topology_->num_devices(); ++id) {
    const int local = id - first_local;
    if (local < 0 || local >= options.num_devices) {
      remote_devices_.push_back(std::make_unique<RemoteCpuDevice>(topology_->description(id)));
      devices_.push_back(remote_devices_.back().get());
      continue;
    }
    auto device = std::make_unique<CpuDevice>(topology_->description(id),
                                              /*local_hardware_id=*/local,
                                              /*first_memory_id=*/local * kNumMemoryKinds);
    cpu_devices_.push_back(device.get());
    devices_.push_back(device.get());
    addressable_devices_.push_back(device.get());
    for (sdk::Memory* memory : device->memories()) memories_.push_back(memory);
    owned_devices_.push_back(std::move(device));
  }
}

CpuClient::~CpuClient() {
  device_queues_.Shutdown();
  work_queue_.reset();
  if (profile_ != nullptr) WriteProfile();
  // Kernel plugin resources live with the client; executables that outlive
  // it keep the plugins loaded, not the resources.
  if (options_.program.kernel_plugins != nullptr) options_.program.kernel_plugins->DeleteResources();
}

void CpuClient::WriteProfile() {
  profile_->Stop();
  profiler::Trace trace = profile_->Collect();
  trace.process_name = "plugrt CPU plugin";
  const std::string path = profiler::ExpandProfilePath(options_.profile_path);
  // A destructor cannot fail: a profile that cannot be written is logged.
  StatusOr<std::string> written = profiler::WriteProfileFiles(path, {trace}, {});
  if (!written.ok()) {
    Log(LogLevel::kError, "cpu", StrCat("profile ", path, ": ", written.status().message()));
  }
}

std::string_view CpuClient::platform_name() const { return kPlatformName; }
std::string_view CpuClient::platform_version() const { return kPlatformVersion; }

StatusOr<sdk::Device*> CpuClient::LookupDevice(int id) const {
  if (id < 0 || id >= static_cast<int>(devices_.size())) {
    return NotFound("no CPU device with id ", id, "; this client has ids 0..",
                    devices_.size() - 1);
  }
  return devices_[id];
}

StatusOr<sdk::Device*> CpuClient::LookupAddressableDevice(int local_hardware_id) const {
  if (local_hardware_id < 0 || local_hardware_id >= static_cast<int>(cpu_devices_.size())) {
    return NotFound("no addressable CPU device with local hardware id ", local_hardware_id,
                    "; this client has 0..", cpu_devices_.size() - 1);
  }
  return static_cast<sdk::Device*>(cpu_devices_[local_hardware_id]);
}

StatusOr<std::vector<int>> CpuClient::DefaultDeviceAssignment(int num_replicas,
                                                              int num_partitions) const {
  if (num_replicas < 1 || num_partitions < 1) {
    return InvalidArgument("DefaultDeviceAssignment needs at least one replica and partition, got ",
                           num_replicas, " replicas x ", num_partitions, " partitions");
  }
  const int64_t needed = static_cast<int64_t>(num_replicas) * num_partitions;
  if (needed > static_cast<int64_t>(devices_.size())) {
    return InvalidArgument("DefaultDeviceAssignment: ", num_replicas, " replicas x ",
                           num_partitions, " partitions need ", needed,
                           " devices but this client has ", devices_.size(),
                           " (set the cpu_device_count option)");
  }
  std::vector<int> assignment(static_cast<size_t>(needed));
  for (int64_t i = 0; i < needed; ++i) assignment[i] = devices_[i]->description().id();
  return assignment;
}

StatusOr<const sdk::TopologyDescription*> CpuClient::topology() const {
  return static_cast<const sdk::TopologyDescription*>(topology_.get());
}

CpuDevice* CpuClient::FindDevice(const sdk::Device* device) const {
  if (device == nullptr) return nullptr;
  const int index = device->local_hardware_id();
  if (index < 0 || index >= static_cast<int>(cpu_devices_.size())) return nullptr;
  return cpu_devices_[index] == device ? cpu_devices_[index] : nullptr;
}

CpuMemory* CpuClient::FindMemory(const sdk::Memory* memory) const {
  if (memory == nullptr) return nullptr;
  const int id = memory->id();
  if (id < 0 || id >= static_cast<int>(memories_.size()) || memories_[id] != memory) {
    return nullptr;
  }
  // memories_ holds only CpuMemory objects.
  return static_cast<CpuMemory*>(memories_[id]);
}

void CpuClient::RunWhenReady(const sdk::EventRef& event, std::function<void(const Status&)> fn) {
  WorkQueue* queue = work_queue_.get();
  event->OnReady([queue, fn = std::move(fn)](const Status& status) {
    queue->Schedule([fn, status] { fn(status); });
  });
}

StatusOr<CpuMemory*> CpuClient::ResolveMemory(sdk::Device* device, sdk::Memory* memory,
                                              std::string_view operation) const {
  if (memory != nullptr) {
    CpuMemory* found = FindMemory(memory);
    if (found == nullptr) {
      return InvalidArgument(operation, ": the memory does not belong to this client");
    }
    return found;
  }
  CpuDevice* found = FindDevice(device);
  if (found == nullptr) {
    return InvalidArgument(operation, ": ",
                           device == nullptr ? "neither a device nor a memory was given"
                                             : "the device does not belong to this client");
  }
  return found->device_memory();
}

namespace {
// Only the dense row-major device layout exists on this backend.
Status CheckDeviceLayout(const std::optional<sdk::Layout>& layout, const ElementFormat& format,
                         const std::vector<int64_t>& dims, std::string_view operation) {
  if (!layout.has_value() || IsRowMajorLayout(*layout, dims.size())) return OkStatus();
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides && !format.packed &&
      IsDenseRowMajor(format, dims, layout->byte_strides)) {
    return OkStatus();
  }
  return Unimplemented(operation,
                       ": the CPU backend stores arrays only in the dense row-major layout; "
                       "the requested device layout is not supported");
}
}  // namespace

StatusOr<sdk::HostBufferResult> CpuClient::BufferFromHostBuffer(const sdk::HostBufferArgs& args) {
  constexpr std::string_view kOp = "BufferFromHostBuffer";
  PLUGRT_ASSIGN_OR_RETURN(CpuMemory* memory, ResolveMemory(args.device, args.memory, kOp));
  PLUGRT_ASSIGN_OR_RETURN(ElementFormat format, GetElementFormat(args.type));
  PLUGRT_ASSIGN_OR_RETURN(int64_t count, ElementCount(args.dims));
  PLUGRT_RETURN_IF_ERROR(CheckDeviceLayout(args.device_layout, format, args.dims, kOp));
  std::vector<int64_t> strides = DenseHostStrides(format, args.dims);
  if (args.byte_strides.has_value()) {
    PLUGRT_RETURN_IF_ERROR(CheckHostStrides(args.dims, *args.byte_strides));
    strides = *args.byte_strides;
  }
  if (args.data == nullptr && count > 0) {
    return InvalidArgument(kOp, ": host data pointer is null for ", count, " elements");
  }
  const size_t device_bytes = DeviceByteSize(format, count);

  sdk::HostBufferResult result;
  const bool zero_copy_requested =
      args.semantics == PJRT_HostBufferSemantics_kImmutableZeroCopy ||
      args.semantics == PJRT_HostBufferSemantics_kMutableZeroCopy;
  const bool aligned = reinterpret_cast<uintptr_t>(args.data) % kZeroCopyAlignment == 0;
  if (zero_copy_requested && !format.packed && aligned && count > 0 &&
      IsDenseRowMajor(format, args.dims, strides)) {
    // The buffer aliases the caller's array; the caller learns that we are
    // done with it when the storage goes (Delete, destruction, or the last
    // external reference or in-flight copy letting go).
    sdk::EventRef done = sdk::Event::Create();
    StorageRef alias = BufferStorage::Alias(
        const_cast<void*>(args.data), device_bytes,
        /*writable=*/args.semantics == PJRT_HostBufferSemantics_kMutableZeroCopy,
        [done] { done->Set(OkStatus()); });
    result.buffer = std::make_unique<CpuBuffer>(this, memory, format, args.dims, std::move(alias),
                                                sdk::Event::MakeReady());
    result.done_with_host_buffer = std::move(done);
    return result;
  }

  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage,
                          BufferStorage::Allocate(device_bytes, memory->accounting()));
  if (args.semantics == PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes && count > 0) {
    // The caller keeps the data alive until done_with_host_buffer fires, so
    // the copy can leave the calling thread.
    sdk::EventRef ready = sdk::Event::Create();
    sdk::EventRef done = sdk::Event::Create();
    work_queue_->Schedule([format, dims = args.dims, src = args.data, strides, storage, ready,
                           done, device_bytes]() mutable {
      TracedTransfer traced("host to device", device_bytes);
      CopyHostToDevice(format, dims, src, strides, storage->data());
      storage.reset();  // before signalling: the buffer may be gone already
      ready->Set(OkStatus());
      done->Set(OkStatus());
    });
    result.buffer =
        std::make_unique<CpuBuffer>(this, memory, format, args.dims, std::move(storage), ready);
    result.done_with_host_buffer = std::move(done);
    return result;
  }
  // kImmutableOnlyDuringCall, and zero-copy requests we cannot honour: the
  // data is copied before returning.
  if (count > 0) {
    TracedTransfer traced("host to device", device_bytes);
    CopyHostToDevice(format, args.dims, args.data, strides, storage->data());
  }
  result.buffer = std::make_unique<CpuBuffer>(this, memory, format, args.dims, std::move(storage),
                                              sdk::Event::MakeReady());
  result.done_with_host_buffer = sdk::Event::MakeReady();
  return result;
}

StatusOr<std::unique_ptr<sdk::Buffer>> CpuClient::CreateViewOfDeviceBuffer(
    const sdk::ViewArgs& args) {
  constexpr std::string_view kOp = "CreateViewOfDeviceBuffer";
  PLUGRT_ASSIGN_OR_RETURN(CpuMemory* memory, ResolveMemory(args.device, args.memory, kOp));
  PLUGRT_ASSIGN_OR_RETURN(ElementFormat format, GetElementFormat(args.type));
  PLUGRT_ASSIGN_OR_RETURN(int64_t count, ElementCount(args.dims));
  PLUGRT_RETURN_IF_ERROR(CheckDeviceLayout(args.layout, format, args.dims, kOp));
  if (args.device_buffer_ptr == nullptr && count > 0) {
    return InvalidArgument(kOp, ": device_buffer_ptr is null for ", count, " elements");
  }
  // The storage runs on_delete once, when the last user of the memory lets
  // go: the view's Delete or destruction, or a later in-flight copy.
  StorageRef alias = BufferStorage::Alias(args.device_buffer_ptr, DeviceByteSize(format, count),
                                          /*writable=*/true, args.on_delete);
  return std::unique_ptr<sdk::Buffer>(new CpuBuffer(this, memory, format, args.dims,
                                                    std::move(alias), sdk::Event::MakeReady()));
}

}  // namespace plugrt::cpu

namespace plugrt::cpu {

namespace {

// Where an executable of `replicas` x `partitions` runs: the devices of
// the flattened ids replica * partitions + partition are the options' device
// assignment, else for a single device the options' device_ordinal, else
// the first devices in global id order. In a multi-process job, the devices
// of other nodes run their processes there.
StatusOr<DevicePlacement> AssignDevices(const CpuClient& client, int64_t replicas,
                                        int64_t partitions, const CompileOptions& options) {
  const std::vector<sdk::Device*>& all = client.devices();
  const int64_t needed = replicas * partitions;
  std::vector<sdk::Device*> chosen;
  if (options.device_assignment) {
    const DeviceAssignment& assignment = *options.device_assignment;
    if (assignment.replicas != replicas || assignment.computations != partitions) {
      return InvalidArgument("compile options: the device assignment is for ", assignment.replicas,
                             " replicas x ", assignment.computations,
                             " partitions but the program has ", replicas, " x ", partitions);
    }
    for (int r = 0; r < assignment.replicas; ++r) {
      for (int p = 0; p < assignment.computations; ++p) {
        const int64_t id = assignment.device_id(r, p);
        sdk::Device* found = nullptr;
        if (id <= INT_MAX) {
          StatusOr<sdk::Device*> device = client.LookupDevice(static_cast<int>(id));
          if (device.ok()) found = *device;
        }
        if (found == nullptr) {
          return InvalidArgument("compile options: the device assignment puts replica ", r,
                                 ", partition ", p, " on device ", id,
                                 ", which is not a device of this client (ids 0..",
                                 all.size() - 1, ")");
        }
        for (size_t k = 0; k < chosen.size(); ++k) {
          if (chosen[k] == found) {
            return InvalidArgument("compile options: the device assignment puts both replica ",
                                   k / partitions, ", partition ", k % partitions,
                                   " and replica ", r, ", partition ", p, " on device ", id);
          }
        }
        chosen.push_back(found);
      }
    }
  } else if (needed > static_cast<int64_t>(all.size())) {
    return InvalidArgument("the program needs ", needed, " devices (", replicas, " replicas x ",
                           partitions, " partitions); the client has ", all.size());
  } else if (needed == 1 && options.device_ordinal >= 0) {
    const std::vector<CpuDevice*>& local = client.cpu_devices();
    if (options.device_ordinal >= static_cast<int64_t>(local.size())) {
      return InvalidArgument("compile options: device_ordinal ", options.device_ordinal,
                             " is not a device of this client (0..", local.size() - 1, ")");
    }
    chosen = {local[options.device_ordinal]};
  } else {
    chosen.assign(all.begin(), all.begin() + needed);
  }

  DevicePlacement placement;
  std::vector<int> node_of_process;
  for (size_t k = 0; k < chosen.size(); ++k) {
    node_of_process.push_back(chosen[k]->description().process_index());
    if (CpuDevice* device = client.FindDevice(chosen[k])) {
      placement.devices.push_back(device);
      placement.process_ids.push_back(static_cast<int64_t>(k));
    }
  }
  placement.nodes = node_of_process;
  std::sort(placement.nodes.begin(), placement.nodes.end());
  placement.nodes.erase(std::unique(placement.nodes.begin(), placement.nodes.end()),
                        placement.nodes.end());
  if (placement.nodes.size() > 1) {
    placement.cross.node_of_process = std::move(node_of_process);
    placement.cross.exchange = client.cluster()->exchange();
  }
  return placement;
}

// A program that spans nodes runs only if each of them loaded the same one.
Status CheckSameProgramAcrossNodes(const CpuClient& client, const DevicePlacement& placement,
                                   const CpuExecutable& executable) {
  if (placement.nodes.size() < 2) return OkStatus();
  PLUGRT_ASSIGN_OR_RETURN(std::string fingerprint, executable.fingerprint());
  return client.cluster()->CheckSameProgram(placement.nodes, fingerprint, executable.name());
}

}  // namespace

StatusOr<std::unique_ptr<sdk::LoadedExecutable>> CpuClient::Compile(
    const sdk::Program& program, std::string_view compile_options) {
  std::string cache_key;
  // Multi-process executables do not serialize: jobs compile every time.
  if (compilation_cache_ != nullptr && cluster_ == nullptr) {
    cache_key = CompilationCacheKey(program, compile_options, options_);
    if (std::optional<std::string> bytes = compilation_cache_->Lookup(cache_key)) {
      // The entry is intact (checksummed) and for this key; an executable
      // that still fails to load is recompiled, never half-used.
      StatusOr<std::shared_ptr<CpuExecutable>> cached =
          CpuExecutable::Deserialize(*bytes, options_.program);
      if (cached.ok()) {
        PLUGRT_ASSIGN_OR_RETURN(DevicePlacement placement,
                                AssignDevices(*this, (*cached)->num_replicas(),
                                              (*cached)->num_partitions(),
                                              (*cached)->compile_options()));
        return std::unique_ptr<sdk::LoadedExecutable>(
            new CpuLoadedExecutable(this, std::move(*cached), std::move(placement)));
      }
    }
  }
  CompileOptions options;
  DevicePlacement placement;
  // Placement is checked as soon as the counts are known, before the
  // expensive part of the compile.
  auto place = [&](int64_t replicas, int64_t partitions, const CompileOptions& decoded) {
    PLUGRT_ASSIGN_OR_RETURN(placement, AssignDevices(*this, replicas, partitions, decoded));
    return OkStatus();
  };
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<CpuExecutable> executable,
      CpuExecutable::CompileProgram(program, compile_options, &options, options_.program, place));
  PLUGRT_RETURN_IF_ERROR(CheckSameProgramAcrossNodes(*this, placement, *executable));
  if (compilation_cache_ != nullptr && !executable->is_polymorphic()) {
    // A cache that cannot be written costs the next process a compile, not
    // this one its result.
    if (StatusOr<std::string> bytes = executable->Serialize(); bytes.ok()) {
      compilation_cache_->Store(cache_key, *bytes).IgnoreError();
    }
  }
  return std::unique_ptr<sdk::LoadedExecutable>(
      new CpuLoadedExecutable(this, std::move(executable), std::move(placement)));
}

StatusOr<std::unique_ptr<sdk::LoadedExecutable>> CpuClient::DeserializeAndLoad(
    std::string_view serialized, std::string_view compile_options) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<CpuExecutable> executable,
                          CpuExecutable::Deserialize(serialized, options_.program));
  CompileOptions options = executable->compile_options();
  if (!compile_options.empty()) {
    // The program was compiled for the stored options; new ones could only
    // change where it runs. Counts that agree are accepted, a new device
    // assignment is honoured, other changes are refused.
    PLUGRT_ASSIGN_OR_RETURN(CompileOptions overrides, DecodeCompileOptions(compile_options));
    if ((overrides.num_replicas && *overrides.num_replicas != executable->num_replicas()) ||
        (overrides.num_partitions && *overrides.num_partitions != executable->num_partitions())) {
      return Unimplemented("PJRT_Executable_DeserializeAndLoad: overridden compile options "
                           "change the replica/partition counts; the executable was compiled "
                           "for ", executable->num_replicas(), " replicas x ",
                           executable->num_partitions(), " partitions, recompile it instead");
    }
    if (overrides.device_assignment) options.device_assignment = overrides.device_assignment;
    options.device_ordinal = overrides.device_ordinal;
  }
  PLUGRT_ASSIGN_OR_RETURN(DevicePlacement placement,
                          AssignDevices(*this, executable->num_replicas(),
                                        executable->num_partitions(), options));
  PLUGRT_RETURN_IF_ERROR(CheckSameProgramAcrossNodes(*this, placement, *executable));
  return std::unique_ptr<sdk::LoadedExecutable>(
      new CpuLoadedExecutable(this, std::move(executable), std::move(placement)));
}

}  // namespace plugrt::cpu
