// plugrt CPU backend: a client over N virtual CPU devices in this process.
#ifndef PLUGRT_CPU_CPU_CLIENT_H_
#define PLUGRT_CPU_CPU_CLIENT_H_

#include <functional>
#include <memory>
#include <vector>

#include "cpu/cpu_cluster.h"
#include "cpu/cpu_device.h"
#include "cpu/cpu_options.h"
#include "profiler/recorder.h"
#include "cpu/cpu_topology.h"
#include "cpu/work_queue.h"
#include "filesystem/compilation_cache.h"
#include "sdk/client.h"
#include "sdk/plugin.h"

namespace plugrt::cpu {

class CpuClient final : public sdk::Client {
 public:
  // Zero-copy host buffers must start on this boundary (enough for every
  // element type, C128 included, and for vector loads by kernels).
  static constexpr size_t kZeroCopyAlignment = 16;
  static constexpr int kWorkerThreads = 2;

  static StatusOr<std::unique_ptr<CpuClient>> Create(const sdk::ClientOptions& options);
  // `cluster`: the multi-process job this client is a node of (null for a
  // single-process client). devices() then lists every node's devices by
  // global id, addressable_devices() this node's.
  CpuClient(const CpuOptions& options, std::shared_ptr<sdk::KeyValueStore> kv_store,
            std::shared_ptr<CpuCluster> cluster = nullptr);
  // Waits for queued transfers to finish before the devices go away.
  ~CpuClient() override;

  std::string_view platform_name() const override;
  std::string_view platform_version() const override;
  int process_index() const override { return cluster_ != nullptr ? cluster_->node_id() : 0; }
  const std::vector<sdk::Device*>& devices() const override { return devices_; }
  const std::vector<sdk::Device*>& addressable_devices() const override {
    return addressable_devices_;
  }
  const std::vector<sdk::Memory*>& addressable_memories() const override { return memories_; }
  StatusOr<sdk::Device*> LookupDevice(int id) const override;
  StatusOr<sdk::Device*> LookupAddressableDevice(int local_hardware_id) const override;
  StatusOr<std::vector<int>> DefaultDeviceAssignment(int num_replicas,
                                                     int num_partitions) const override;
  StatusOr<const sdk::TopologyDescription*> topology() const override;

  StatusOr<sdk::HostBufferResult> BufferFromHostBuffer(const sdk::HostBufferArgs& args) override;
  // StableHLO text ("mlir" format); runs on the first
  // num_replicas * num_partitions devices.
  StatusOr<std::unique_ptr<sdk::LoadedExecutable>> Compile(
      const sdk::Program& program, std::string_view compile_options) override;
  StatusOr<std::unique_ptr<sdk::Buffer>> CreateViewOfDeviceBuffer(
      const sdk::ViewArgs& args) override;
  // Bytes from CpuExecutable::Serialize, placed on devices as Compile places
  // them (the stored compile options' device assignment, else the first
  // devices). Overridden compile options may only repeat the stored replica
  // and partition counts; anything else they ask is UNIMPLEMENTED.
  StatusOr<std::unique_ptr<sdk::LoadedExecutable>> DeserializeAndLoad(
      std::string_view serialized, std::string_view compile_options) override;

  // Shared with buffers and (later) executables.
  // This client's object behind `device` / `memory`, or null when it belongs
  // to another client.
  CpuDevice* FindDevice(const sdk::Device* device) const;
  // Threads one device's execution may use for large kernels (the "threads"
  // option, else the cores divided among the devices; at most 4 x the cores).
  // Compiles plan for it (ProgramOptions::kernel_threads); executions pass
  // it to the kernels (ExecContext::kernel_threads).
  int kernel_threads() const { return options_.program.kernel_threads; }
  // The options it was created with (defaults from the environment read
  // then, once).
  const CpuOptions& options() const { return options_; }
  CpuMemory* FindMemory(const sdk::Memory* memory) const;
  const std::vector<CpuDevice*>& cpu_devices() const { return cpu_devices_; }
  WorkQueue& work_queue() { return *work_queue_; }
  // One worker per device for program launches (cpu_loaded_executable.cc).
  DeviceQueues& device_queues() { return device_queues_; }
  // Runs `fn` with `event`'s status on the worker queue once it fires.
  void RunWhenReady(const sdk::EventRef& event, std::function<void(const Status&)> fn);
  // The framework's key-value store (null when none was given), for
  // multi-process setups.
  const std::shared_ptr<sdk::KeyValueStore>& kv_store() const { return kv_store_; }
  // The persistent compilation cache (compilation_cache_dir), or null.
  // Compile looks programs up there first and stores what it compiles.
  const std::shared_ptr<fs::CompilationCache>& compilation_cache() const {
    return compilation_cache_;
  }
  // The multi-process job, or null.
  const std::shared_ptr<CpuCluster>& cluster() const { return cluster_; }

 private:
  // Stops profile_ and writes its files (the "profile" option's path).
  void WriteProfile();
  // The memory a transfer targets: `memory`, or `device`'s default.
  StatusOr<CpuMemory*> ResolveMemory(sdk::Device* device, sdk::Memory* memory,
                                     std::string_view operation) const;

  std::shared_ptr<sdk::KeyValueStore> kv_store_;
  std::shared_ptr<CpuCluster> cluster_;
  const CpuOptions options_;
  std::shared_ptr<fs::CompilationCache> compilation_cache_;
  // Recording since creation when the "profile" option asks (written out by
  // the destructor); null otherwise.
  std::unique_ptr<profiler::Session> profile_;

  std::unique_ptr<CpuTopology> topology_;
  std::vector<std::unique_ptr<CpuDevice>> owned_devices_;
  std::vector<std::unique_ptr<RemoteCpuDevice>> remote_devices_;
  std::vector<CpuDevice*> cpu_devices_;      // addressable, by local hardware id
  std::vector<sdk::Device*> devices_;        // every node's, by global id
  std::vector<sdk::Device*> addressable_devices_;
  std::vector<sdk::Memory*> memories_;  // index == memory id
  // Last member, so it is joined before anything its tasks touch is gone.
  std::unique_ptr<WorkQueue> work_queue_;
  // Drained by the destructor before work_queue_ (launches complete events
  // whose callbacks queue transfers there).
  DeviceQueues device_queues_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_CLIENT_H_
