// plugrt client: Executable, the RAII owner of a compiled program and its
// metadata (PJRT_Executable), and LoadedExecutable, the RAII owner of one
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
#include "common/compiled_memory_stats.h"
#include "common/inline_vector.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

namespace internal {
struct ClientHandle;
}

// What ExecuteAsync hands back: outputs[d][o] is output o of device d's
// run; device_complete[d] completes (with the run's error, if any) when
// device d's work has ended. The lists index and iterate like vectors and
// move into them (ToVector, or a conversion); they keep one device with up
// to four outputs inside the result, so a small execute allocates nothing
// for them.
using OutputList = InlineVector<Buffer, 4>;
struct ExecuteResult {
  InlineVector<OutputList, 1> outputs;
  InlineVector<Future, 1> device_complete;
};

// Move-only owner of a PJRT_Executable: a compiled program, loaded or not.
// Every query is one PJRT call; errors are the plugin's.
class Executable {
 public:
  Executable() = default;
  // Takes ownership of `executable`; `keep_alive` (the client or plugin it
  // came from) lives as long as this object.
  Executable(std::shared_ptr<const void> keep_alive, const PJRT_Api* api,
             PJRT_Executable* executable);
  ~Executable();
  Executable(Executable&& other) noexcept;
  Executable& operator=(Executable&& other) noexcept;
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  explicit operator bool() const { return executable_ != nullptr; }

  StatusOr<std::string> name() const;
  StatusOr<int64_t> num_replicas() const;
  StatusOr<int64_t> num_partitions() const;
  StatusOr<size_t> num_outputs() const;
  StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const;
  StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const;
  StatusOr<std::vector<std::string>> output_memory_kinds() const;
  StatusOr<int64_t> size_of_generated_code_in_bytes() const;
  // Named values such as "flops", "transcendentals", "bytes accessed".
  StatusOr<std::vector<NamedValue>> cost_analysis() const;
  StatusOr<CompiledMemoryStats> compiled_memory_stats() const;
  StatusOr<std::string> fingerprint() const;
  // The program after the plugin's passes; `format` (e.g. "mlir") if given.
  StatusOr<std::string> optimized_program(std::string* format = nullptr) const;
  // The serialized xla.CompileOptionsProto it was compiled with.
  StatusOr<std::string> serialized_compile_options() const;
  // Bytes Client::DeserializeAndLoad turns back into a LoadedExecutable.
  StatusOr<std::string> Serialize() const;

  PJRT_Executable* raw() const { return executable_; }
  const PJRT_Api* api() const { return api_; }

 private:
  void Reset();
  StatusOr<PJRT_Executable*> checked() const;

  std::shared_ptr<const void> keep_alive_;
  const PJRT_Api* api_ = nullptr;
  PJRT_Executable* executable_ = nullptr;
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
  // The compiled program's metadata (cost analysis, memory stats,
  // fingerprint, serialization): a new PJRT_Executable owned by the result.
  StatusOr<Executable> GetExecutable() const;
  // Shortcuts for GetExecutable()'s queries.
  StatusOr<std::string> fingerprint() const;
  StatusOr<std::string> Serialize() const;
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
  std::optional<size_t> num_outputs_;  // queried at construction
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_EXECUTABLE_H_
