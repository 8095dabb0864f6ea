// plugrt CPU backend: a compiled program bound to a client's devices
// (sdk::LoadedExecutable), and what one execution does: check the
// arguments, create the outputs with pending events, run the plan on the
// devices' worker queues (or inline, for small programs), donate and reuse
// inputs.
#ifndef PLUGRT_CPU_CPU_LOADED_EXECUTABLE_H_
#define PLUGRT_CPU_CPU_LOADED_EXECUTABLE_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "cpu/cpu_executable.h"
#include "cpu/exec/remote_exchange.h"
#include "cpu/host_transfer.h"

namespace plugrt::cpu {

class CpuClient;
class CpuDevice;

// Where a loaded program runs: this process's devices and the processes
// (replica r, partition p: flattened id r * num_partitions + p) each runs.
// A program of a multi-process job may run only some of its processes here
// (`cross` then says where the others are).
struct DevicePlacement {
  std::vector<CpuDevice*> devices;    // in flattened-id order
  std::vector<int64_t> process_ids;   // of each device
  CrossProcess cross;                 // empty node_of_process: all are here
  // The nodes the program spans, ascending ({} or one node: this process).
  std::vector<int> nodes;
};

class CpuLoadedExecutable final : public sdk::LoadedExecutable {
 public:
  CpuLoadedExecutable(CpuClient* client, std::shared_ptr<CpuExecutable> executable,
                      DevicePlacement placement);

  std::shared_ptr<sdk::Executable> executable() const override { return executable_; }
  std::vector<sdk::Device*> addressable_devices() const override;
  void Delete() override { deleted_ = true; }
  bool is_deleted() const override { return deleted_; }
  StatusOr<sdk::ExecuteResult> Execute(const std::vector<std::vector<sdk::Buffer*>>& argument_lists,
                                       sdk::Device* execute_device,
                                       const sdk::ExecuteOptions& options) override;
  Status ExecuteInto(const std::vector<std::vector<sdk::Buffer*>>& argument_lists,
                     sdk::Device* execute_device, const sdk::ExecuteOptions& options,
                     sdk::ExecuteResult& result) override;

 private:
  // What every execution shares, worked out once at load; an execution
  // then only checks its arguments and schedules (cpu_loaded_executable.cc).
  struct LaunchPlan {
    // Per input: the output it may be reused for, kDonatedOnly or
    // kNotDonated (DonatableInputs of the entry function).
    std::vector<int64_t> donation;
    bool any_donated = false;
    // Per output: the donated input whose storage it reuses, or -1.
    std::vector<int64_t> reuse_of_output;
    // Device formats and sizes of the outputs, or why they cannot be made.
    StatusOr<std::vector<ElementFormat>> output_formats = Internal("outputs not planned");
    std::vector<size_t> output_bytes;
    // A small program that cannot wait on the host (RunsInline): with ready
    // inputs and nothing donated it runs on the calling thread.
    bool small = false;
  };
  static LaunchPlan MakePlan(const CpuExecutable& executable);
  // A polymorphic executable: the static executable for these arguments'
  // types and dimension values, loaded on the same devices once and kept.
  StatusOr<std::shared_ptr<CpuLoadedExecutable>> Specialized(
      const std::vector<std::vector<sdk::Buffer*>>& argument_lists);

  CpuClient* client_;
  std::shared_ptr<CpuExecutable> executable_;
  const DevicePlacement placement_;
  const std::vector<CpuDevice*>& devices_ = placement_.devices;
  const LaunchPlan plan_;
  std::atomic<bool> deleted_{false};
  std::mutex specialized_mu_;
  std::map<const CpuExecutable*, std::shared_ptr<CpuLoadedExecutable>> specialized_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_LOADED_EXECUTABLE_H_
