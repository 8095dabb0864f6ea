// plugrt eager: Context, the root of the eager layer over one PJRT client
// (any plugin) and, when a cluster spec is set, the remote tasks of the
// cluster (cluster.h: a client of the remote plugin per task): their devices
// and placement, the functions loaded into it, the cache of compiled op
// programs, the executor, and tensors from host memory.
//
//   auto ctx = Context::Create("build/lib/libplugrt_cpu.so");
//   Tensor a = *(*ctx)->FromVector<float>({1, 2, 3}, {3});
//   Op add(**ctx, "stablehlo.add"); add.AddInput(a); add.AddInput(a);
//   std::vector<float> twice = *(*add.Execute())[0].ToVector<float>();
#ifndef PLUGRT_EAGER_CONTEXT_H_
#define PLUGRT_EAGER_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/element_type.h"
#include "common/status.h"
#include "eager/cluster.h"
#include "eager/cluster_spec.h"
#include "eager/custom_device.h"
#include "eager/executor.h"
#include "eager/function_library.h"
#include "eager/op.h"
#include "eager/op_runner.h"
#include "eager/placement.h"
#include "eager/program_cache.h"
#include "eager/tensor.h"

namespace plugrt::eager {

struct ContextOptions {
  PlacementPolicy placement = PlacementPolicy::kCopy;
  bool async = false;
  // Compiled op programs kept (least recently used evicted first).
  size_t cache_capacity = 512;
  // Where kWarn placement warnings go; unset: the log (common/log.h), at
  // level warning.
  std::function<void(const std::string&)> warn;
};

// The PJRT element type of a C++ element type.
template <typename T>
constexpr PJRT_Buffer_Type ElementTypeOf();

class Context {
 public:
  // Loads the plugin at `plugin_path` and creates a client with `client_options`.
  static StatusOr<std::unique_ptr<Context>> Create(const std::string& plugin_path,
                                                   const ClientOptions& client_options = {},
                                                   ContextOptions options = {});
  // Over an existing client (shared: the context keeps it alive).
  static StatusOr<std::unique_ptr<Context>> Create(std::shared_ptr<Client> client,
                                                   ContextOptions options = {});
  // Waits for queued async work. Tensors may outlive the context: they keep
  // the client's buffers alive.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // The local client (the remote tasks' are in cluster()).
  const Client& client() const { return *client_; }

  // The local client's addressable devices, named "<kind>:<index>"
  // ("cpu:0"), then the cluster's remote ones, "/job:J/task:T/device:KIND:N"
  // (in job, then task order). Changed by SetClusterSpec.
  const std::vector<NamedDevice>& devices() const { return devices_; }
  // A physical device by name (a custom device's name is an error saying
  // so). Local devices also answer to "/job:localhost/task:0/device:cpu:0";
  // a remote name of a job or task the cluster lacks is NOT_FOUND naming
  // the cluster's jobs.
  StatusOr<NamedDevice> FindDevice(std::string_view name) const;
  // The name of a device of the client; "(unknown device)" otherwise.
  std::string DeviceName(const Device& device) const;
  const NamedDevice& default_device() const { return devices_[default_device_]; }
  Status SetDefaultDevice(std::string_view name);

  // Sets the cluster of remote tasks (cluster_spec.h) whose devices join
  // devices(): kReset replaces every remote client, kUpdate keeps the tasks
  // whose job, index and address are unchanged (and their tensors). The
  // tensors of released tasks fail from then on with an error saying so,
  // and their worker contexts close at once (the remote plugin's extension,
  // include/plugrt/remote_extension.h). An empty spec
  // removes every remote task. Waits for queued ops first (their first
  // error stays for the next Wait). On error (a bad spec, a task that cannot
  // be reached) the cluster is unchanged. Not to be called while another
  // thread runs ops on this context; names of devices() lent before it
  // (the C API's) may dangle after it.
  Status SetClusterSpec(const ClusterSpec& spec, ClusterUpdate mode,
                        const RemoteOptions& options = {});
  const ClusterSpec& cluster_spec() const { return cluster_.spec(); }
  const Cluster& cluster() const { return cluster_; }

  PlacementPolicy placement_policy() const;
  void set_placement_policy(PlacementPolicy policy);

  // Loads StableHLO functions (a module or bare func.func definitions): each
  // becomes an op named after it and a region for reduce/sort/while.
  Status LoadFunctions(std::string_view text) { return functions_.Load(text); }
  const FunctionLibrary& functions() const { return functions_; }

  bool is_async() const;
  // Switches executors after waiting for the current one; its error, if any.
  // Not to be called while another thread runs ops on this context.
  Status SetAsync(bool async);
  // Waits for all queued ops and their device work; the first error since
  // the last Wait. An op on a remote task whose worker died fails with
  // UNAVAILABLE naming its address (the remote plugin's heartbeats notice
  // within the keep-alive period), never a hang.
  Status Wait();

  CacheStats cache_stats() const { return cache_.stats(); }
  void ClearCache() { cache_.Clear(); }

  // A tensor holding a copy of dense row-major host data (one element per
  // byte for sub-byte types), on `device` (default: the default device; a
  // custom device: made on the default device, then copied there).
  StatusOr<Tensor> FromHost(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                            std::optional<std::string> device = std::nullopt);
  template <typename T>
  StatusOr<Tensor> FromVector(const std::vector<T>& values, std::vector<int64_t> dims,
                              std::optional<std::string> device = std::nullopt);
  // A tensor over `data` itself where the plugin can alias host memory
  // (PJRT zero-copy), else over a copy. `deallocator` runs exactly once,
  // on some thread, when the runtime no longer needs `data`: at once when
  // the plugin copied or the call failed, else when the buffer goes. The
  // data must not change while the tensor lives.
  StatusOr<Tensor> FromHostZeroCopy(void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                                    std::function<void()> deallocator,
                                    std::optional<std::string> device = std::nullopt);

  // A copy of `tensor` on the named device, made by that device's runner
  // (waits until `tensor` is resolved); between devices of different
  // clients (local and remote, two remote tasks) through host memory. To a
  // custom device: its
  // CopyToDevice; from one: its CopyFromDevice (a tensor of one custom
  // device goes to another through the default physical device).
  StatusOr<Tensor> CopyToDevice(const Tensor& tensor, std::string_view device);

  // A .npy file as a tensor, and a tensor as a .npy file (types NumPy lacks
  // widen as client/npy.h says).
  StatusOr<Tensor> LoadNpy(const std::string& path, std::optional<std::string> device = std::nullopt);
  Status SaveNpy(const Tensor& tensor, const std::string& path);

  // Op::Execute's second half: routing to a custom device
  // (custom_device.h), else placement, then the executor; then this
  // thread's op observers (op_observer.h) hear of it.
  StatusOr<std::vector<Tensor>> Execute(const Op& op);

  // Op::Execute's work on the caller's thread, without waiting for the
  // device: places `op` (physical inputs only), runs it once its inputs are
  // resolved, and returns its outputs with the future of its device work.
  // For devices that start an op on several devices before waiting on any
  // (the parallel device); bypasses the executor.
  struct Launched {
    std::vector<Tensor> outputs;
    Future done;
  };
  StatusOr<Launched> Launch(const Op& op);

  // Runs `op` as one program over the named physical devices, a replica on
  // each, so that its collectives (all_reduce, all_gather, ...) connect
  // them: inputs[r] are replica r's, grouped as op.input_groups() (inputs
  // elsewhere are copied to devices[r]); outputs[r][o]. Bypasses the
  // executor: it waits for the inputs and for the device work.
  StatusOr<std::vector<std::vector<Tensor>>> ExecuteReplicated(
      const Op& op, const std::vector<std::vector<std::vector<Tensor>>>& inputs,
      const std::vector<std::string>& devices);

  // Custom devices (custom_device.h). The name must be new (neither a
  // physical device's nor a registered one's) and not empty. The device is
  // deleted with the context.
  Status RegisterCustomDevice(std::string name, std::unique_ptr<CustomDevice> device);
  // Null when `name` is not a registered custom device.
  CustomDevice* FindCustomDevice(std::string_view name) const;
  std::vector<std::string> CustomDeviceNames() const;
  // A handle to a tensor on custom device `device`, whose data `data` keeps
  // (destroyed, once, with the last handle; also when this call fails).
  StatusOr<Tensor> NewCustomTensor(std::string_view device, PJRT_Buffer_Type dtype,
                                   std::unique_ptr<CustomTensorData> data);
  // Many handles into one tensor of custom device `device` (its Pack).
  StatusOr<Tensor> Pack(const std::vector<Tensor>& tensors, std::string_view device);

 private:
  Context(std::shared_ptr<Client> client, ContextOptions options);
  Status Init();
  // Execute without the observers.
  StatusOr<std::vector<Tensor>> Dispatch(const Op& op);
  StatusOr<NamedDevice> DeviceOrDefault(const std::optional<std::string>& name) const;
  // Placement of `op` (physical inputs) and its pending outputs (`outputs`
  // empty on entry).
  Status Place(const Op& op, Placement& placement, std::vector<Tensor>& outputs);
  // Runs a placed op whose inputs are resolved: copies the inputs the
  // placement names, then the device's runner; the future of its device work.
  StatusOr<Future> RunPlaced(const Op& op, const Placement& placement,
                             std::vector<Tensor>& outputs);
  // The synchronous executor's path: placement, input checks and the run
  // on the caller's thread, waiting for the device; outputs poisoned on error.
  StatusOr<std::vector<Tensor>> ExecuteInline(const Op& op);
  // Place, and `node` filled to RunPlaced it (`held` keeps `op` alive as
  // long as the node).
  Status MakeNode(std::shared_ptr<const Op> held, Node& node, std::vector<Tensor>& outputs);
  // The runner for ops placed on `device` (a physical one).
  OpRunner& RunnerFor(const NamedDevice& device);
  // A copy of physical `tensor` on physical `target`: the runner's within a
  // client, else through host memory.
  StatusOr<Tensor> CopyPhysical(const Tensor& tensor, const NamedDevice& target);
  // A tensor holding a copy of dense row-major host data on `target`.
  StatusOr<Tensor> Upload(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                          const NamedDevice& target);
  // devices_ from the local devices and the cluster's.
  void ListDevices();
  // The custom device an op is routed to (custom_device.h); null: physical.
  StatusOr<CustomDevice*> RouteToCustomDevice(const Op& op) const;
  // The custom device holding `tensor`; an error if it is not this context's.
  StatusOr<CustomDevice*> CustomDeviceOf(const Tensor& tensor) const;

  std::shared_ptr<Client> client_;
  ContextOptions options_;
  std::vector<NamedDevice> local_devices_;
  Cluster cluster_;
  std::vector<NamedDevice> devices_;  // local_devices_, then the cluster's
  size_t default_device_ = 0;
  FunctionLibrary functions_;
  ProgramCache cache_;
  PhysicalRunner physical_;
  // Read per op without a lock: the policy, and whether executor_ is the
  // async one (switched only by SetAsync, under mu_).
  std::atomic<PlacementPolicy> placement_;
  std::atomic<bool> async_;
  mutable std::mutex mu_;  // guards executor_ switches and deferred_error_
  std::unique_ptr<Executor> executor_;
  // An error SetClusterSpec's wait collected, for the next Wait.
  Status deferred_error_;
  // Shared so that tensors' copy-off callbacks can tell whether the device
  // still exists (they hold weak references).
  mutable std::mutex custom_mu_;
  std::map<std::string, std::shared_ptr<CustomDevice>, std::less<>> custom_devices_;
};

template <typename T>
constexpr PJRT_Buffer_Type ElementTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return PJRT_Buffer_Type_PRED;
  else if constexpr (std::is_same_v<T, int8_t>) return PJRT_Buffer_Type_S8;
  else if constexpr (std::is_same_v<T, int16_t>) return PJRT_Buffer_Type_S16;
  else if constexpr (std::is_same_v<T, int32_t>) return PJRT_Buffer_Type_S32;
  else if constexpr (std::is_same_v<T, int64_t>) return PJRT_Buffer_Type_S64;
  else if constexpr (std::is_same_v<T, uint8_t>) return PJRT_Buffer_Type_U8;
  else if constexpr (std::is_same_v<T, uint16_t>) return PJRT_Buffer_Type_U16;
  else if constexpr (std::is_same_v<T, uint32_t>) return PJRT_Buffer_Type_U32;
  else if constexpr (std::is_same_v<T, uint64_t>) return PJRT_Buffer_Type_U64;
  else if constexpr (std::is_same_v<T, float>) return PJRT_Buffer_Type_F32;
  else if constexpr (std::is_same_v<T, double>) return PJRT_Buffer_Type_F64;
  else static_assert(sizeof(T) == 0, "no PJRT element type for this C++ type");
}

template <typename T>
StatusOr<Tensor> Context::FromVector(const std::vector<T>& values, std::vector<int64_t> dims,
                                     std::optional<std::string> device) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (count != static_cast<int64_t>(values.size())) {
    return InvalidArgument("FromVector: ", values.size(), " values do not fill a tensor of ",
                           count, " elements");
  }
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return FromHost(bytes.data(), ElementTypeOf<T>(), std::move(dims), std::move(device));
  } else {
    return FromHost(values.data(), ElementTypeOf<T>(), std::move(dims), std::move(device));
  }
}

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_CONTEXT_H_
