// plugrt SDK: the interfaces a backend implements for compiled programs.
// Every method has an UNIMPLEMENTED default so a backend grows into them.
#ifndef PLUGRT_SDK_EXECUTABLE_H_
#define PLUGRT_SDK_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/compiled_memory_stats.h"
#include "common/status.h"
#include "common/typed_user_data.h"
#include "sdk/buffer.h"
#include "sdk/device.h"
#include "sdk/event.h"
#include "sdk/host_callbacks.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// A program handed to Compile: `format` is "mlir" (text or bytecode) or
// "hlo"; `code` is the bytes.
struct Program {
  std::string_view format;
  std::string_view code;
};

// A compiled program, not bound to devices.
class Executable {
 public:
  virtual ~Executable() = default;
  virtual std::string_view name() const = 0;
  virtual int64_t num_replicas() const = 0;
  virtual int64_t num_partitions() const = 0;
  virtual size_t num_outputs() const = 0;
  virtual StatusOr<int64_t> size_of_generated_code_in_bytes() const {
    return Unimplemented("PJRT_Executable_SizeOfGeneratedCodeInBytes");
  }
  virtual StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const {
    return Unimplemented("PJRT_Executable_OutputElementTypes");
  }
  virtual StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const {
    return Unimplemented("PJRT_Executable_OutputDimensions");
  }
  virtual StatusOr<std::vector<std::string>> output_memory_kinds() const {
    return Unimplemented("PJRT_Executable_OutputMemoryKinds");
  }
  // The program after the backend's passes, in `format` ("mlir").
  virtual StatusOr<std::string> optimized_program(std::string* format) const {
    (void)format;
    return Unimplemented("PJRT_Executable_OptimizedProgram");
  }
  virtual StatusOr<std::string> Serialize() const {
    return Unimplemented("PJRT_Executable_Serialize");
  }
  virtual StatusOr<std::string> fingerprint() const {
    return Unimplemented("PJRT_Executable_Fingerprint");
  }
  virtual StatusOr<Attributes> cost_analysis() const {
    return Unimplemented("PJRT_Executable_GetCostAnalysis");
  }
  virtual StatusOr<CompiledMemoryStats> compiled_memory_stats() const {
    return Unimplemented("PJRT_Executable_GetCompiledMemoryStats");
  }
  // The serialized xla.CompileOptionsProto the executable was built with.
  virtual StatusOr<std::string> serialized_compile_options() const {
    return Unimplemented("PJRT_Executable_GetCompileOptions");
  }
};

struct ExecuteOptions {
  int64_t launch_id = 0;
  std::vector<int64_t> non_donatable_input_indices;
  // Host callbacks, [device][op] with devices indexed as the argument lists;
  // empty when the caller gave none (sdk/host_callbacks.h).
  std::vector<std::vector<SendCallbackInfo>> send_callbacks;
  std::vector<std::vector<RecvCallbackInfo>> recv_callbacks;
  // The PJRT_ExecuteContext's user data (null when the caller gave none),
  // for XLA FFI handlers of the execution.
  std::shared_ptr<const TypedUserData> user_data;
  // The caller's trace context id (the traceme_context_id of a
  // PJRT_Profiler_Extension in the execute args' extension chain; 0: none),
  // which a backend's profiler events carry to tie them to the caller's.
  int64_t trace_context_id = 0;
};

struct ExecuteResult {
  // outputs[i][j]: output j of the i-th device's execution.
  std::vector<std::vector<std::unique_ptr<Buffer>>> outputs;
  // One per device: fires when that device's work ends, with its error.
  std::vector<EventRef> device_complete_events;
};

// Empties `result` for reuse, keeping the capacity of its vectors (see
// common/scratch.h).
inline void RecycleScratch(ExecuteResult& result) {
  for (auto& row : result.outputs) row.clear();
  result.device_complete_events.clear();
}

// A compiled program bound to a client's devices.
class LoadedExecutable {
 public:
  virtual ~LoadedExecutable() = default;
  // Shared so that a PJRT_Executable handle may outlive this object.
  virtual std::shared_ptr<Executable> executable() const = 0;
  virtual std::vector<Device*> addressable_devices() const = 0;
  virtual void Delete() = 0;
  virtual bool is_deleted() const = 0;
  // argument_lists[i] are the arguments for addressable device i (or for
  // `execute_device` alone when it is set).
  virtual StatusOr<ExecuteResult> Execute(const std::vector<std::vector<Buffer*>>& argument_lists,
                                          Device* execute_device,
                                          const ExecuteOptions& options) {
    (void)argument_lists, (void)execute_device, (void)options;
    return Unimplemented("PJRT_LoadedExecutable_Execute");
  }
  // What PJRT_LoadedExecutable_Execute calls: Execute, into `result`, which
  // the SDK reuses from call to call (empty, but its vectors keep their
  // capacity). Backends that override it fill `result` in place and save
  // the allocations of a fresh result on every execute.
  virtual Status ExecuteInto(const std::vector<std::vector<Buffer*>>& argument_lists,
                             Device* execute_device, const ExecuteOptions& options,
                             ExecuteResult& result) {
    PLUGRT_ASSIGN_OR_RETURN(result, Execute(argument_lists, execute_device, options));
    return OkStatus();
  }
};

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_EXECUTABLE_H_
