// PJRT_Executable_*, PJRT_LoadedExecutable_* entries (Execute included) and
// PJRT_Executable_DeserializeAndLoad.
#include <cstring>

#include "common/extension_chain.h"
#include "common/scratch.h"
#include "plugrt/pjrt_profiler_extension.h"
#include "sdk/api_args.h"
#include "sdk/api_slots.h"
#include "sdk/host_callbacks.h"

namespace plugrt::sdk {
namespace {

PJRT_Error* ExecutableDestroy(PJRT_Executable_Destroy_Args* args) {
  return Run(args, [](PJRT_Executable_Destroy_Args& a, const Call&) -> Status {
    delete a.executable;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* ExecutableName(PJRT_Executable_Name_Args* args) {
  return Run(args, [](PJRT_Executable_Name_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->name) e->name = std::string(e->executable->name());
    a.executable_name = e->name->c_str();
    a.executable_name_size = e->name->size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  return Run(args, [](PJRT_Executable_NumReplicas_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    a.num_replicas = static_cast<size_t>(e->executable->num_replicas());
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  return Run(args, [](PJRT_Executable_NumPartitions_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    a.num_partitions = static_cast<size_t>(e->executable->num_partitions());
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  return Run(args, [](PJRT_Executable_NumOutputs_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    a.num_outputs = e->executable->num_outputs();
    return OkStatus();
  });
}

PJRT_Error* ExecutableSizeOfGeneratedCode(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args) {
  return Run(args, [](PJRT_Executable_SizeOfGeneratedCodeInBytes_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(a.size_in_bytes, e->executable->size_of_generated_code_in_bytes());
    return OkStatus();
  });
}

PJRT_Error* ExecutableGetCostAnalysis(PJRT_Executable_GetCostAnalysis_Args* args) {
  return Run(args, [](PJRT_Executable_GetCostAnalysis_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (e->cost_analysis == nullptr) {
      PLUGRT_ASSIGN_OR_RETURN(Attributes properties, e->executable->cost_analysis());
      e->cost_analysis = std::make_unique<NamedValueArray>(std::move(properties));
    }
    a.properties = e->cost_analysis->data();
    a.num_properties = e->cost_analysis->size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args) {
  return Run(args, [](PJRT_Executable_OutputElementTypes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->output_types) {
      PLUGRT_ASSIGN_OR_RETURN(e->output_types, e->executable->output_element_types());
    }
    a.output_types = e->output_types->data();
    a.num_output_types = e->output_types->size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputDimensions(PJRT_Executable_OutputDimensions_Args* args) {
  return Run(args, [](PJRT_Executable_OutputDimensions_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->output_dims) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> shapes,
                              e->executable->output_dimensions());
      std::vector<int64_t> flat;
      for (const auto& shape : shapes) {
        flat.insert(flat.end(), shape.begin(), shape.end());
        e->output_dim_sizes.push_back(shape.size());
      }
      e->output_dims = std::move(flat);
    }
    a.num_outputs = e->output_dim_sizes.size();
    a.dims = e->output_dims->data();
    a.dim_sizes = e->output_dim_sizes.data();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args) {
  return Run(args, [](PJRT_Executable_OutputMemoryKinds_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->memory_kinds) {
      PLUGRT_ASSIGN_OR_RETURN(e->memory_kinds, e->executable->output_memory_kinds());
      for (const std::string& kind : *e->memory_kinds) {
        e->memory_kind_ptrs.push_back(kind.c_str());
        e->memory_kind_sizes.push_back(kind.size());
      }
    }
    a.num_outputs = e->memory_kinds->size();
    a.memory_kinds = e->memory_kind_ptrs.data();
    a.memory_kind_sizes = e->memory_kind_sizes.data();
    return OkStatus();
  });
}

// Two-phase: with program->code null, reports the size; otherwise copies.
PJRT_Error* ExecutableOptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args) {
  return Run(args, [](PJRT_Executable_OptimizedProgram_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Program program, ReadNested(a.program, call.fn(), "program"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->optimized_code) {
      std::string format;
      PLUGRT_ASSIGN_OR_RETURN(e->optimized_code, e->executable->optimized_program(&format));
      e->optimized_format = std::move(format);
    }
    const std::string& code = *e->optimized_code;
    if (program.code != nullptr) {
      if (program.code_size < code.size()) {
        return call.Invalid("program->code_size is ", program.code_size,
                            " bytes but the optimized program needs ", code.size(), " bytes");
      }
      std::memcpy(a.program->code, code.data(), code.size());
    }
    // PJRT_Program has no later fields, so these writes stay inside the
    // caller's struct (ReadNested checked its size).
    a.program->code_size = code.size();
    a.program->format = e->optimized_format.c_str();
    a.program->format_size = e->optimized_format.size();
    return OkStatus();
  });
}

void DeleteSerializedExecutable(PJRT_SerializedExecutable* serialized) { delete serialized; }

PJRT_Error* ExecutableSerialize(PJRT_Executable_Serialize_Args* args) {
  return Run(args, [](PJRT_Executable_Serialize_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(const PJRT_Executable* e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(std::string bytes, e->executable->Serialize());
    auto* serialized = new PJRT_SerializedExecutable{std::move(bytes)};
    a.serialized_executable = serialized;
    a.serialized_bytes = serialized->bytes.data();
    a.serialized_bytes_size = serialized->bytes.size();
    a.serialized_executable_deleter = DeleteSerializedExecutable;
    return OkStatus();
  });
}

PJRT_Error* ExecutableFingerprint(PJRT_Executable_Fingerprint_Args* args) {
  return Run(args, [](PJRT_Executable_Fingerprint_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->fingerprint) {
      PLUGRT_ASSIGN_OR_RETURN(e->fingerprint, e->executable->fingerprint());
    }
    a.executable_fingerprint = e->fingerprint->c_str();
    a.executable_fingerprint_size = e->fingerprint->size();
    return OkStatus();
  });
}

// Fields past the caller's struct_size (host, peak, total: later ABI
// additions) are dropped by Run's copy-back.
PJRT_Error* ExecutableGetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args* args) {
  return Run(args, [](PJRT_Executable_GetCompiledMemoryStats_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(CompiledMemoryStats stats, e->executable->compiled_memory_stats());
    a.generated_code_size_in_bytes = stats.generated_code_size_in_bytes;
    a.argument_size_in_bytes = stats.argument_size_in_bytes;
    a.output_size_in_bytes = stats.output_size_in_bytes;
    a.alias_size_in_bytes = stats.alias_size_in_bytes;
    a.temp_size_in_bytes = stats.temp_size_in_bytes;
    a.host_generated_code_size_in_bytes = stats.host_generated_code_size_in_bytes;
    a.host_argument_size_in_bytes = stats.host_argument_size_in_bytes;
    a.host_output_size_in_bytes = stats.host_output_size_in_bytes;
    a.host_alias_size_in_bytes = stats.host_alias_size_in_bytes;
    a.host_temp_size_in_bytes = stats.host_temp_size_in_bytes;
    a.peak_memory_in_bytes = stats.peak_memory_in_bytes;
    a.total_size_in_bytes = stats.total_size_in_bytes;
    return OkStatus();
  });
}

}  // namespace
}  // namespace plugrt::sdk

// Opaque in the C header; owns the bytes GetCompileOptions hands out.
struct PJRT_SerializedCompileOptions {
  std::string bytes;
};

namespace plugrt::sdk {
namespace {

// The caller's trace context id: a PJRT_Profiler_Extension in the args'
// extension chain (how upstream's C API client passes it), else 0.
int64_t TraceContextId(const PJRT_Extension_Base* chain) {
  const auto* found = reinterpret_cast<const PJRT_Profiler_Extension*>(
      FindExtension(chain, PJRT_Extension_Type_Profiler, PJRT_Profiler_Extension_STRUCT_SIZE));
  return found != nullptr ? found->traceme_context_id : 0;
}

void DeleteSerializedCompileOptions(PJRT_SerializedCompileOptions* options) { delete options; }

PJRT_Error* ExecutableGetCompileOptions(PJRT_Executable_GetCompileOptions_Args* args) {
  return Run(args, [](PJRT_Executable_GetCompileOptions_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(std::string bytes, e->executable->serialized_compile_options());
    auto* options = new PJRT_SerializedCompileOptions{std::move(bytes)};
    a.serialized_bytes = options->bytes.data();
    a.serialized_bytes_size = options->bytes.size();
    a.serialized_compile_options = options;
    a.serialized_compile_options_deleter = DeleteSerializedCompileOptions;
    return OkStatus();
  });
}

PJRT_Error* ExecutableDeserializeAndLoad(PJRT_Executable_DeserializeAndLoad_Args* args) {
  return Run(args, [](PJRT_Executable_DeserializeAndLoad_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    PLUGRT_RETURN_IF_ERROR(call.Array(a.serialized_executable, a.serialized_executable_size,
                                      "serialized_executable"));
    PLUGRT_RETURN_IF_ERROR(call.Array(a.overridden_serialized_compile_options,
                                      a.overridden_serialized_compile_options_size,
                                      "overridden_serialized_compile_options"));
    std::string_view serialized(a.serialized_executable ? a.serialized_executable : "",
                                a.serialized_executable_size);
    std::string_view options(
        a.overridden_serialized_compile_options ? a.overridden_serialized_compile_options : "",
        a.overridden_serialized_compile_options_size);
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<LoadedExecutable> loaded,
                            client->client->DeserializeAndLoad(serialized, options));
    PLUGRT_ASSIGN_OR_RETURN(a.loaded_executable,
                            PJRT_LoadedExecutable::Create(std::move(loaded), client));
    return OkStatus();
  });
}

PJRT_Error* LoadedDestroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_Destroy_Args& a, const Call&) -> Status {
    delete a.executable;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* LoadedGetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_GetExecutable_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e,
                            Handle(a.loaded_executable, call, "loaded_executable"));
    std::shared_ptr<Executable> executable = e->loaded->executable();
    if (executable == nullptr) return Internal(call.fn(), ": the backend returned no executable");
    a.executable = new PJRT_Executable(std::move(executable));
    return OkStatus();
  });
}

PJRT_Error* LoadedAddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_AddressableDevices_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e, Handle(a.executable, call, "executable"));
    a.addressable_devices = e->addressable_devices.data();
    a.num_addressable_devices = e->addressable_devices.size();
    return OkStatus();
  });
}

PJRT_Error* LoadedDelete(PJRT_LoadedExecutable_Delete_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_Delete_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e, Handle(a.executable, call, "executable"));
    e->loaded->Delete();
    return OkStatus();
  });
}

PJRT_Error* LoadedIsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_IsDeleted_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e, Handle(a.executable, call, "executable"));
    a.is_deleted = e->loaded->is_deleted();
    return OkStatus();
  });
}

PJRT_Error* LoadedFingerprint(PJRT_LoadedExecutable_Fingerprint_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_Fingerprint_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e, Handle(a.executable, call, "executable"));
    std::lock_guard<std::mutex> lock(e->mu);
    if (!e->fingerprint) {
      std::shared_ptr<Executable> executable = e->loaded->executable();
      if (executable == nullptr) return Internal(call.fn(), ": the backend returned no executable");
      PLUGRT_ASSIGN_OR_RETURN(e->fingerprint, executable->fingerprint());
    }
    a.executable_fingerprint = e->fingerprint->c_str();
    a.executable_fingerprint_size = e->fingerprint->size();
    return OkStatus();
  });
}

// Checks the caller's [num_devices][num_args] argument matrix into `lists`.
Status ReadArgumentLists(const PJRT_LoadedExecutable_Execute_Args& a,
                         const PJRT_LoadedExecutable& e, const Call& call,
                         std::vector<std::vector<Buffer*>>& lists) {
  PLUGRT_RETURN_IF_ERROR(call.Array(a.argument_lists, a.num_devices, "argument_lists"));
  lists.resize(a.num_devices);
  for (size_t i = 0; i < a.num_devices; ++i) {
    PJRT_Buffer* const* list = a.argument_lists[i];
    if (list == nullptr && a.num_args > 0) {  // the message is built only on failure
      return call.Invalid("argument_lists[", i, "] is null but its size is ", a.num_args);
    }
    for (size_t j = 0; j < a.num_args; ++j) {
      PJRT_Buffer* buffer = list[j];
      if (buffer == nullptr) return call.Invalid("argument_lists[", i, "][", j, "] is null");
      if (buffer->client != e.client) {
        return call.Invalid("argument_lists[", i, "][", j,
                            "] belongs to another client than the executable");
      }
      lists[i].push_back(buffer->buffer.get());
    }
  }
  return OkStatus();
}

PJRT_Error* LoadedExecute(PJRT_LoadedExecutable_Execute_Args* args) {
  return Run(args, [](PJRT_LoadedExecutable_Execute_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_LoadedExecutable * e, Handle(a.executable, call, "executable"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_ExecuteOptions c_options,
                            ReadNested(a.options, call.fn(), "options"));
    ExecuteOptions options;
    options.launch_id = c_options.launch_id;
    options.trace_context_id = TraceContextId(a.extension_start);
    if (c_options.context != nullptr) options.user_data = c_options.context->user_data;
    PLUGRT_RETURN_IF_ERROR(ConvertHostCallbacks(c_options, a.num_devices, call.fn(),
                                                &options.send_callbacks, &options.recv_callbacks));
    PLUGRT_RETURN_IF_ERROR(call.Array(c_options.non_donatable_input_indices,
                                      c_options.num_non_donatable_input_indices,
                                      "options.non_donatable_input_indices"));
    // Held in a vector reused per thread: lent here, given back when the
    // call ends.
    ScratchVector<int64_t> kept_indices;
    struct Lend {
      std::vector<int64_t>& to;
      std::vector<int64_t>& from;
      Lend(std::vector<int64_t>& t, std::vector<int64_t>& f) : to(t), from(f) { to.swap(from); }
      ~Lend() { to.swap(from); }
    } lend(options.non_donatable_input_indices, *kept_indices);
    if (c_options.num_non_donatable_input_indices > 0) {
      options.non_donatable_input_indices.assign(
          c_options.non_donatable_input_indices,
          c_options.non_donatable_input_indices + c_options.num_non_donatable_input_indices);
    }

    Device* execute_device = nullptr;
    if (a.execute_device != nullptr) {
      if (!e->client->Owns(a.execute_device)) {
        return call.Invalid("execute_device is not a device of the executable's client");
      }
      if (a.num_devices != 1) {
        return call.Invalid("num_devices is ", a.num_devices, " but must be 1 with execute_device");
      }
      execute_device = a.execute_device->device;
    }
    // Reused per thread: no allocation for the table on repeated executes.
    ScratchVector<std::vector<Buffer*>> argument_lists;
    PLUGRT_RETURN_IF_ERROR(ReadArgumentLists(a, *e, call, *argument_lists));
    std::shared_ptr<Executable> executable = e->loaded->executable();
    if (executable == nullptr) return Internal(call.fn(), ": the backend returned no executable");
    const size_t num_outputs = executable->num_outputs();
    PLUGRT_RETURN_IF_ERROR(call.Array(a.output_lists, a.num_devices, "output_lists"));
    for (size_t i = 0; i < a.num_devices; ++i) {
      if (a.output_lists[i] == nullptr && num_outputs > 0) {  // message built only on failure
        return call.Invalid("output_lists[", i, "] is null but its size is ", num_outputs);
      }
    }

    Scratch<ExecuteResult> reused;  // its vectors' capacity carries over
    ExecuteResult& result = *reused;
    PLUGRT_RETURN_IF_ERROR(
        e->loaded->ExecuteInto(*argument_lists, execute_device, options, result));

    // Check the whole result before handing anything out.
    if (result.outputs.size() != a.num_devices) {
      return Internal(call.fn(), ": the backend returned outputs for ", result.outputs.size(),
                      " devices, expected ", a.num_devices);
    }
    for (size_t i = 0; i < a.num_devices; ++i) {
      if (result.outputs[i].size() != num_outputs) {
        return Internal(call.fn(), ": the backend returned ", result.outputs[i].size(),
                        " outputs for device ", i, ", expected ", num_outputs);
      }
      for (const auto& buffer : result.outputs[i]) {
        if (buffer == nullptr) return Internal(call.fn(), ": the backend returned a null output");
      }
    }
    if (a.device_complete_events != nullptr) {
      if (result.device_complete_events.size() != a.num_devices) {
        return Internal(call.fn(), ": the backend returned ", result.device_complete_events.size(),
                        " completion events, expected ", a.num_devices);
      }
      for (const EventRef& event : result.device_complete_events) {
        if (event == nullptr) return Internal(call.fn(), ": the backend returned a null event");
      }
    }
    for (size_t i = 0; i < a.num_devices; ++i) {
      for (size_t j = 0; j < num_outputs; ++j) {
        a.output_lists[i][j] = new PJRT_Buffer(std::move(result.outputs[i][j]), e->client);
      }
      if (a.device_complete_events != nullptr) {
        a.device_complete_events[i] = ToPjrtEvent(std::move(result.device_complete_events[i]));
      }
    }
    return OkStatus();
  });
}

}  // namespace

PJRT_Error* ExecuteContextCreate(PJRT_ExecuteContext_Create_Args* args) {
  return Run(args, [](PJRT_ExecuteContext_Create_Args& a, const Call&) -> Status {
    a.context = new PJRT_ExecuteContext;
    return OkStatus();
  });
}

PJRT_Error* ExecuteContextDestroy(PJRT_ExecuteContext_Destroy_Args* args) {
  return Run(args, [](PJRT_ExecuteContext_Destroy_Args& a, const Call&) -> Status {
    delete a.context;
    return OkStatus();
  });
}

void FillExecutableSlots(PJRT_Api& api) {
  api.PJRT_ExecuteContext_Create = ExecuteContextCreate;
  api.PJRT_ExecuteContext_Destroy = ExecuteContextDestroy;
  api.PJRT_Executable_Destroy = ExecutableDestroy;
  api.PJRT_Executable_Name = ExecutableName;
  api.PJRT_Executable_NumReplicas = ExecutableNumReplicas;
  api.PJRT_Executable_NumPartitions = ExecutableNumPartitions;
  api.PJRT_Executable_NumOutputs = ExecutableNumOutputs;
  api.PJRT_Executable_SizeOfGeneratedCodeInBytes = ExecutableSizeOfGeneratedCode;
  api.PJRT_Executable_GetCostAnalysis = ExecutableGetCostAnalysis;
  api.PJRT_Executable_OutputMemoryKinds = ExecutableOutputMemoryKinds;
  api.PJRT_Executable_OptimizedProgram = ExecutableOptimizedProgram;
  api.PJRT_Executable_Serialize = ExecutableSerialize;
  api.PJRT_Executable_OutputElementTypes = ExecutableOutputElementTypes;
  api.PJRT_Executable_OutputDimensions = ExecutableOutputDimensions;
  api.PJRT_Executable_Fingerprint = ExecutableFingerprint;
  api.PJRT_Executable_DeserializeAndLoad = ExecutableDeserializeAndLoad;
  api.PJRT_Executable_GetCompiledMemoryStats = ExecutableGetCompiledMemoryStats;
  api.PJRT_Executable_GetCompileOptions = ExecutableGetCompileOptions;
  api.PJRT_LoadedExecutable_Destroy = LoadedDestroy;
  api.PJRT_LoadedExecutable_GetExecutable = LoadedGetExecutable;
  api.PJRT_LoadedExecutable_AddressableDevices = LoadedAddressableDevices;
  api.PJRT_LoadedExecutable_Delete = LoadedDelete;
  api.PJRT_LoadedExecutable_IsDeleted = LoadedIsDeleted;
  api.PJRT_LoadedExecutable_Execute = LoadedExecute;
  api.PJRT_LoadedExecutable_Fingerprint = LoadedFingerprint;
}

}  // namespace plugrt::sdk
