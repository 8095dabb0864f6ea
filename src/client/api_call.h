// plugrt client (internal): the one way every wrapper calls a PJRT function.
//
//   auto args = NewArgs<PJRT_Device_LocalHardwareId_Args>();
//   args.device = device;
//   PLUGRT_RETURN_IF_ERROR(Call(api, args));
//
// NewArgs zeroes the struct and sets struct_size; Call finds the function
// from the args type, checks that the plugin's table is long enough to have
// the slot and that it is set (UNIMPLEMENTED naming the function and the
// plugin's version otherwise), calls it and turns the PJRT_Error into a
// Status.
#ifndef PLUGRT_CLIENT_API_CALL_H_
#define PLUGRT_CLIENT_API_CALL_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "client/error.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::internal {

// A PJRT_Program over `code` in `format`; both must outlive the call it is
// passed to. (The ABI's code pointer is non-const because other calls write
// through it; the compile entries only read.)
inline PJRT_Program ProgramFor(std::string_view code, std::string_view format) {
  PJRT_Program program;
  std::memset(&program, 0, sizeof(program));
  program.struct_size = PJRT_Program_STRUCT_SIZE;
  program.code = const_cast<char*>(code.data());
  program.code_size = code.size();
  program.format = format.data();
  program.format_size = format.size();
  return program;
}

// Specialised below for the args type of each PJRT function the client uses.
template <typename Args>
struct ApiSlot;

#define PLUGRT_API_SLOT(Name)                                                    \
  template <>                                                                    \
  struct ApiSlot<Name##_Args> {                                                  \
    static constexpr std::string_view kName = #Name;                             \
    static constexpr size_t kEnd = offsetof(PJRT_Api, Name) + sizeof(PJRT_Api::Name); \
    static constexpr size_t kArgsSize = Name##_Args_STRUCT_SIZE;                 \
    static Name* Get(const PJRT_Api* api) { return api->Name; }                  \
  }

PLUGRT_API_SLOT(PJRT_Plugin_Initialize);
PLUGRT_API_SLOT(PJRT_Plugin_Attributes);
PLUGRT_API_SLOT(PJRT_Event_Destroy);
PLUGRT_API_SLOT(PJRT_Event_IsReady);
PLUGRT_API_SLOT(PJRT_Event_Error);
PLUGRT_API_SLOT(PJRT_Event_Await);
PLUGRT_API_SLOT(PJRT_Event_OnReady);
PLUGRT_API_SLOT(PJRT_Client_Create);
PLUGRT_API_SLOT(PJRT_Client_Destroy);
PLUGRT_API_SLOT(PJRT_Client_PlatformName);
PLUGRT_API_SLOT(PJRT_Client_ProcessIndex);
PLUGRT_API_SLOT(PJRT_Client_PlatformVersion);
PLUGRT_API_SLOT(PJRT_Client_Devices);
PLUGRT_API_SLOT(PJRT_Client_AddressableDevices);
PLUGRT_API_SLOT(PJRT_Client_LookupDevice);
PLUGRT_API_SLOT(PJRT_Client_LookupAddressableDevice);
PLUGRT_API_SLOT(PJRT_Client_AddressableMemories);
PLUGRT_API_SLOT(PJRT_Client_DefaultDeviceAssignment);
PLUGRT_API_SLOT(PJRT_Client_BufferFromHostBuffer);
PLUGRT_API_SLOT(PJRT_Client_CreateViewOfDeviceBuffer);
PLUGRT_API_SLOT(PJRT_Client_TopologyDescription);
PLUGRT_API_SLOT(PJRT_DeviceDescription_Id);
PLUGRT_API_SLOT(PJRT_DeviceDescription_ProcessIndex);
PLUGRT_API_SLOT(PJRT_DeviceDescription_Attributes);
PLUGRT_API_SLOT(PJRT_DeviceDescription_Kind);
PLUGRT_API_SLOT(PJRT_DeviceDescription_DebugString);
PLUGRT_API_SLOT(PJRT_DeviceDescription_ToString);
PLUGRT_API_SLOT(PJRT_Device_GetDescription);
PLUGRT_API_SLOT(PJRT_Device_IsAddressable);
PLUGRT_API_SLOT(PJRT_Device_LocalHardwareId);
PLUGRT_API_SLOT(PJRT_Device_AddressableMemories);
PLUGRT_API_SLOT(PJRT_Device_DefaultMemory);
PLUGRT_API_SLOT(PJRT_Device_MemoryStats);
PLUGRT_API_SLOT(PJRT_Memory_Id);
PLUGRT_API_SLOT(PJRT_Memory_Kind);
PLUGRT_API_SLOT(PJRT_Memory_Kind_Id);
PLUGRT_API_SLOT(PJRT_Memory_DebugString);
PLUGRT_API_SLOT(PJRT_Memory_ToString);
PLUGRT_API_SLOT(PJRT_Memory_AddressableByDevices);
PLUGRT_API_SLOT(PJRT_Buffer_Destroy);
PLUGRT_API_SLOT(PJRT_Buffer_ElementType);
PLUGRT_API_SLOT(PJRT_Buffer_Dimensions);
PLUGRT_API_SLOT(PJRT_Buffer_UnpaddedDimensions);
PLUGRT_API_SLOT(PJRT_Buffer_DynamicDimensionIndices);
PLUGRT_API_SLOT(PJRT_Buffer_GetMemoryLayout);
PLUGRT_API_SLOT(PJRT_Buffer_OnDeviceSizeInBytes);
PLUGRT_API_SLOT(PJRT_Buffer_Device);
PLUGRT_API_SLOT(PJRT_Buffer_Memory);
PLUGRT_API_SLOT(PJRT_Buffer_Delete);
PLUGRT_API_SLOT(PJRT_Buffer_IsDeleted);
PLUGRT_API_SLOT(PJRT_Buffer_CopyToDevice);
PLUGRT_API_SLOT(PJRT_Buffer_CopyToMemory);
PLUGRT_API_SLOT(PJRT_Buffer_ToHostBuffer);
PLUGRT_API_SLOT(PJRT_Buffer_IsOnCpu);
PLUGRT_API_SLOT(PJRT_Buffer_ReadyEvent);
PLUGRT_API_SLOT(PJRT_Buffer_UnsafePointer);
PLUGRT_API_SLOT(PJRT_Buffer_IncreaseExternalReferenceCount);
PLUGRT_API_SLOT(PJRT_Buffer_DecreaseExternalReferenceCount);
PLUGRT_API_SLOT(PJRT_Buffer_OpaqueDeviceMemoryDataPointer);
PLUGRT_API_SLOT(PJRT_Buffer_CopyRawToHost);
PLUGRT_API_SLOT(PJRT_TopologyDescription_Create);
PLUGRT_API_SLOT(PJRT_TopologyDescription_Destroy);
PLUGRT_API_SLOT(PJRT_TopologyDescription_PlatformName);
PLUGRT_API_SLOT(PJRT_TopologyDescription_PlatformVersion);
PLUGRT_API_SLOT(PJRT_TopologyDescription_GetDeviceDescriptions);
PLUGRT_API_SLOT(PJRT_TopologyDescription_Serialize);
PLUGRT_API_SLOT(PJRT_TopologyDescription_Deserialize);
PLUGRT_API_SLOT(PJRT_TopologyDescription_Attributes);
PLUGRT_API_SLOT(PJRT_Client_Compile);
PLUGRT_API_SLOT(PJRT_Compile);
PLUGRT_API_SLOT(PJRT_Executable_Destroy);
PLUGRT_API_SLOT(PJRT_Executable_Name);
PLUGRT_API_SLOT(PJRT_Executable_NumReplicas);
PLUGRT_API_SLOT(PJRT_Executable_NumPartitions);
PLUGRT_API_SLOT(PJRT_Executable_NumOutputs);
PLUGRT_API_SLOT(PJRT_Executable_OutputElementTypes);
PLUGRT_API_SLOT(PJRT_Executable_OutputDimensions);
PLUGRT_API_SLOT(PJRT_Executable_OutputMemoryKinds);
PLUGRT_API_SLOT(PJRT_Executable_SizeOfGeneratedCodeInBytes);
PLUGRT_API_SLOT(PJRT_Executable_GetCostAnalysis);
PLUGRT_API_SLOT(PJRT_Executable_GetCompiledMemoryStats);
PLUGRT_API_SLOT(PJRT_Executable_Fingerprint);
PLUGRT_API_SLOT(PJRT_Executable_OptimizedProgram);
PLUGRT_API_SLOT(PJRT_Executable_GetCompileOptions);
PLUGRT_API_SLOT(PJRT_Executable_Serialize);
PLUGRT_API_SLOT(PJRT_Executable_DeserializeAndLoad);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_Destroy);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_GetExecutable);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_AddressableDevices);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_Delete);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_IsDeleted);
PLUGRT_API_SLOT(PJRT_LoadedExecutable_Execute);

// Whether `api`'s table has the slot ending at byte `end` (the rest of the
// check, non-null, needs the typed slot).
inline bool TableCovers(const PJRT_Api* api, size_t end) { return api->struct_size >= end; }

// The UNIMPLEMENTED error for a slot the plugin lacks: beyond its table
// (`beyond_table`) or left null.
Status MissingSlot(const PJRT_Api* api, std::string_view name, bool beyond_table);

// A zeroed args struct of this client's size for the function.
template <typename Args>
Args NewArgs() {
  static_assert(std::is_trivially_copyable_v<Args>);
  Args args;
  std::memset(&args, 0, sizeof(args));
  args.struct_size = ApiSlot<Args>::kArgsSize;
  return args;
}

template <typename Args>
Status Call(const PJRT_Api* api, Args& args) {
  using Slot = ApiSlot<Args>;
  if (api == nullptr) return FailedPrecondition(Slot::kName, " called without a plugin (null table)");
  if (!TableCovers(api, Slot::kEnd)) return MissingSlot(api, Slot::kName, true);
  auto* fn = Slot::Get(api);
  if (fn == nullptr) return MissingSlot(api, Slot::kName, false);
  return StatusFromPjrtError(api, fn(&args));
}

// A std::string from a plugin's (pointer, size) pair; empty for nullptr.
inline std::string StringFromC(const char* data, size_t size) {
  return data == nullptr ? std::string() : std::string(data, size);
}

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_API_CALL_H_
