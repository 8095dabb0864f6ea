// plugrt client: LoadedExecutable, the RAII owner of a compiled program
// loaded onto a client's devices (PJRT_LoadedExecutable), and Execute.
#ifndef PLUGRT_CLIENT_EXECUTABLE_H_
#define PLUGRT_CLIENT_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/buffer.h"
#include "client/device.h"
#include "client/event.h"
#include "client/execute_options.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

namespace internal {
struct ClientHandle;
}

// What ExecuteAsync hands back: outputs[d][o] is output o of device d's
// run; device_complete[d] completes (with the run's error, if any) when
// device d's work has ended.
struct ExecuteResult {
  std::vector<std::vector<Buffer>> outputs;
  std::vector<Future> device_complete;
};

// Move-only. Keeps the PJRT_Client it was compiled on alive, like Buffer.
class LoadedExecutable {
 public:
  LoadedExecutable() = default;
  // Takes ownership of `loaded` and of `executable`, the PJRT_Executable
  // obtained from it (Client::Compile makes them; a null `executable`
  // leaves only name/count/output queries failing).
  LoadedExecutable(std::shared_ptr<internal::ClientHandle> owner, const PJRT_Api* api,
                   PJRT_LoadedExecutable* loaded, PJRT_Executable* executable);
  ~LoadedExecutable();
  LoadedExecutable(LoadedExecutable&& other) noexcept;
  LoadedExecutable& operator=(LoadedExecutable&& other) noexcept;
  LoadedExecutable(const LoadedExecutable&) = delete;
  LoadedExecutable& operator=(const LoadedExecutable&) = delete;

  explicit operator bool() const { return loaded_ != nullptr; }

  StatusOr<std::string> name() const;
  StatusOr<int64_t> num_replicas() const;
  StatusOr<int64_t> num_partitions() const;
  StatusOr<size_t> num_outputs() const;
  StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const;
  StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const;
  // The devices Execute runs on, in argument-list order.
  StatusOr<std::vector<Device>> addressable_devices() const;

  // Frees the compiled program's device resources; the object stays valid
  // for is_deleted() and destruction.
  Status Delete();
  StatusOr<bool> is_deleted() const;

  // Launches the program: argument_lists[d] are the arguments for the d-th
  // addressable device (or for options.execute_device alone). An empty
  // `argument_lists` means no arguments on every addressable device.
  // Returns once the work is enqueued.
  StatusOr<ExecuteResult> ExecuteAsync(const std::vector<std::vector<Buffer*>>& argument_lists,
                                       const ExecuteOptions& options = {}) const;
  // ExecuteAsync, then waits for every device; the first device error.
  StatusOr<std::vector<std::vector<Buffer>>> Execute(
      const std::vector<std::vector<Buffer*>>& argument_lists,
      const ExecuteOptions& options = {}) const;

  PJRT_LoadedExecutable* raw() const { return loaded_; }
  const PJRT_Api* api() const { return api_; }

 private:
  void Reset();
  // The PJRT_Executable behind this loaded one; an error once moved from.
  StatusOr<PJRT_Executable*> executable() const;

  std::shared_ptr<internal::ClientHandle> owner_;
  const PJRT_Api* api_ = nullptr;
  PJRT_LoadedExecutable* loaded_ = nullptr;
  PJRT_Executable* executable_ = nullptr;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_EXECUTABLE_H_
