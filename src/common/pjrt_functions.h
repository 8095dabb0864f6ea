// plugrt: the one list of PJRT C API functions, in PJRT_Api slot order
// (ABI 0.94): each function's name (also its slot and, with _Args, its
// argument struct), the smallest struct_size a caller may pass, and whether
// the header allows its handle to be null (a no-op).
//
//   X(Name, last_original_field, null_handle)
//
// last_original_field: the struct's last field when the function first
// appeared; a caller's struct_size must cover it, fields after it read as
// unset when the caller lacks them. For most structs it is the header's
// last field (the whole 0.94 struct). Later additions, from the ABI's
// changelog: kv_try_get_* (0.61), CreateViewOfDeviceBuffer.memory (0.66),
// DeserializeAndLoad's overridden compile options (0.71),
// Execute_Args.execute_device, GetCompiledMemoryStats' host fields (0.43),
// peak (0.72) and total (0.90). Fields inserted in the middle of a struct
// (BufferFromHostBuffer's memory/device_layout, ToHostBuffer's host_layout)
// cannot be told apart by size: those structs need their full 0.94 size.
//
// null_handle: the handle field whose null the header documents as allowed
// ("`x` can be nullptr": every _Destroy but AsyncTrackingEvent's), or
// nullptr. The SDK answers such a call with success and does nothing.
//
// Generated from this list: the client's slot checks (client/api_call.h),
// the SDK's argument checks (sdk/api_args.h) and the SDK's table builder,
// which fills every slot a backend leaves empty (sdk/api_table.cc).
// Adding a PJRT function: docs/architecture.md, "How to add a PJRT function".
#ifndef PLUGRT_COMMON_PJRT_FUNCTIONS_H_
#define PLUGRT_COMMON_PJRT_FUNCTIONS_H_

#include <cstddef>

#include "pjrt_c_api.h"

// clang-format off
#define PLUGRT_PJRT_FUNCTIONS(X) \
  X(PJRT_Error_Destroy, error, &PJRT_Error_Destroy_Args::error) \
  X(PJRT_Error_Message, message_size, nullptr) \
  X(PJRT_Error_GetCode, code, nullptr) \
  X(PJRT_Plugin_Initialize, extension_start, nullptr) \
  X(PJRT_Plugin_Attributes, num_attributes, nullptr) \
  X(PJRT_Event_Destroy, event, &PJRT_Event_Destroy_Args::event) \
  X(PJRT_Event_IsReady, is_ready, nullptr) \
  X(PJRT_Event_Error, event, nullptr) \
  X(PJRT_Event_Await, event, nullptr) \
  X(PJRT_Event_OnReady, user_arg, nullptr) \
  X(PJRT_Client_Create, client, nullptr) \
  X(PJRT_Client_Destroy, client, &PJRT_Client_Destroy_Args::client) \
  X(PJRT_Client_PlatformName, platform_name_size, nullptr) \
  X(PJRT_Client_ProcessIndex, process_index, nullptr) \
  X(PJRT_Client_PlatformVersion, platform_version_size, nullptr) \
  X(PJRT_Client_Devices, num_devices, nullptr) \
  X(PJRT_Client_AddressableDevices, num_addressable_devices, nullptr) \
  X(PJRT_Client_LookupDevice, device, nullptr) \
  X(PJRT_Client_LookupAddressableDevice, addressable_device, nullptr) \
  X(PJRT_Client_AddressableMemories, num_addressable_memories, nullptr) \
  X(PJRT_Client_Compile, executable, nullptr) \
  X(PJRT_Client_DefaultDeviceAssignment, default_assignment, nullptr) \
  X(PJRT_Client_BufferFromHostBuffer, buffer, nullptr) \
  X(PJRT_DeviceDescription_Id, id, nullptr) \
  X(PJRT_DeviceDescription_ProcessIndex, process_index, nullptr) \
  X(PJRT_DeviceDescription_Attributes, attributes, nullptr) \
  X(PJRT_DeviceDescription_Kind, device_kind_size, nullptr) \
  X(PJRT_DeviceDescription_DebugString, debug_string_size, nullptr) \
  X(PJRT_DeviceDescription_ToString, to_string_size, nullptr) \
  X(PJRT_Device_GetDescription, device_description, nullptr) \
  X(PJRT_Device_IsAddressable, is_addressable, nullptr) \
  X(PJRT_Device_LocalHardwareId, local_hardware_id, nullptr) \
  X(PJRT_Device_AddressableMemories, num_memories, nullptr) \
  X(PJRT_Device_DefaultMemory, memory, nullptr) \
  X(PJRT_Device_MemoryStats, peak_pool_bytes_is_set, nullptr) \
  X(PJRT_Memory_Id, id, nullptr) \
  X(PJRT_Memory_Kind, kind_size, nullptr) \
  X(PJRT_Memory_DebugString, debug_string_size, nullptr) \
  X(PJRT_Memory_ToString, to_string_size, nullptr) \
  X(PJRT_Memory_AddressableByDevices, num_devices, nullptr) \
  X(PJRT_Executable_Destroy, executable, &PJRT_Executable_Destroy_Args::executable) \
  X(PJRT_Executable_Name, executable_name_size, nullptr) \
  X(PJRT_Executable_NumReplicas, num_replicas, nullptr) \
  X(PJRT_Executable_NumPartitions, num_partitions, nullptr) \
  X(PJRT_Executable_NumOutputs, num_outputs, nullptr) \
  X(PJRT_Executable_SizeOfGeneratedCodeInBytes, size_in_bytes, nullptr) \
  X(PJRT_Executable_GetCostAnalysis, properties, nullptr) \
  X(PJRT_Executable_OutputMemoryKinds, memory_kind_sizes, nullptr) \
  X(PJRT_Executable_OptimizedProgram, program, nullptr) \
  X(PJRT_Executable_Serialize, serialized_executable_deleter, nullptr) \
  X(PJRT_LoadedExecutable_Destroy, executable, &PJRT_LoadedExecutable_Destroy_Args::executable) \
  X(PJRT_LoadedExecutable_GetExecutable, executable, nullptr) \
  X(PJRT_LoadedExecutable_AddressableDevices, num_addressable_devices, nullptr) \
  X(PJRT_LoadedExecutable_Delete, executable, nullptr) \
  X(PJRT_LoadedExecutable_IsDeleted, is_deleted, nullptr) \
  X(PJRT_LoadedExecutable_Execute, device_complete_events, nullptr) \
  X(PJRT_Executable_DeserializeAndLoad, loaded_executable, nullptr) \
  X(PJRT_LoadedExecutable_Fingerprint, executable_fingerprint_size, nullptr) \
  X(PJRT_Buffer_Destroy, buffer, &PJRT_Buffer_Destroy_Args::buffer) \
  X(PJRT_Buffer_ElementType, type, nullptr) \
  X(PJRT_Buffer_Dimensions, num_dims, nullptr) \
  X(PJRT_Buffer_UnpaddedDimensions, num_dims, nullptr) \
  X(PJRT_Buffer_DynamicDimensionIndices, num_dynamic_dims, nullptr) \
  X(PJRT_Buffer_GetMemoryLayout, layout, nullptr) \
  X(PJRT_Buffer_OnDeviceSizeInBytes, on_device_size_in_bytes, nullptr) \
  X(PJRT_Buffer_Device, device, nullptr) \
  X(PJRT_Buffer_Memory, memory, nullptr) \
  X(PJRT_Buffer_Delete, buffer, nullptr) \
  X(PJRT_Buffer_IsDeleted, is_deleted, nullptr) \
  X(PJRT_Buffer_CopyToDevice, dst_buffer, nullptr) \
  X(PJRT_Buffer_ToHostBuffer, event, nullptr) \
  X(PJRT_Buffer_IsOnCpu, is_on_cpu, nullptr) \
  X(PJRT_Buffer_ReadyEvent, event, nullptr) \
  X(PJRT_Buffer_UnsafePointer, buffer_pointer, nullptr) \
  X(PJRT_Buffer_IncreaseExternalReferenceCount, buffer, nullptr) \
  X(PJRT_Buffer_DecreaseExternalReferenceCount, buffer, nullptr) \
  X(PJRT_Buffer_OpaqueDeviceMemoryDataPointer, device_memory_ptr, nullptr) \
  X(PJRT_CopyToDeviceStream_Destroy, stream, &PJRT_CopyToDeviceStream_Destroy_Args::stream) \
  X(PJRT_CopyToDeviceStream_AddChunk, transfer_complete, nullptr) \
  X(PJRT_CopyToDeviceStream_TotalBytes, total_bytes, nullptr) \
  X(PJRT_CopyToDeviceStream_GranuleSize, granule_size_in_bytes, nullptr) \
  X(PJRT_CopyToDeviceStream_CurrentBytes, current_bytes, nullptr) \
  X(PJRT_TopologyDescription_Create, topology, nullptr) \
  X(PJRT_TopologyDescription_Destroy, topology, &PJRT_TopologyDescription_Destroy_Args::topology) \
  X(PJRT_TopologyDescription_PlatformName, platform_name_size, nullptr) \
  X(PJRT_TopologyDescription_PlatformVersion, platform_version_size, nullptr) \
  X(PJRT_TopologyDescription_GetDeviceDescriptions, num_descriptions, nullptr) \
  X(PJRT_TopologyDescription_Serialize, serialized_topology_deleter, nullptr) \
  X(PJRT_TopologyDescription_Attributes, num_attributes, nullptr) \
  X(PJRT_Compile, executable, nullptr) \
  X(PJRT_Executable_OutputElementTypes, num_output_types, nullptr) \
  X(PJRT_Executable_OutputDimensions, dim_sizes, nullptr) \
  X(PJRT_Buffer_CopyToMemory, dst_buffer, nullptr) \
  X(PJRT_Client_CreateViewOfDeviceBuffer, buffer, nullptr) \
  X(PJRT_Executable_Fingerprint, executable_fingerprint_size, nullptr) \
  X(PJRT_Client_TopologyDescription, topology, nullptr) \
  X(PJRT_Executable_GetCompiledMemoryStats, temp_size_in_bytes, nullptr) \
  X(PJRT_Memory_Kind_Id, kind_id, nullptr) \
  X(PJRT_ExecuteContext_Create, context, nullptr) \
  X(PJRT_ExecuteContext_Destroy, context, &PJRT_ExecuteContext_Destroy_Args::context) \
  X(PJRT_Buffer_CopyRawToHost, event, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_Destroy, transfer_manager, \
    &PJRT_AsyncHostToDeviceTransferManager_Destroy_Args::transfer_manager) \
  X(PJRT_AsyncHostToDeviceTransferManager_TransferData, done_with_h2d_transfer, nullptr) \
  X(PJRT_Client_CreateBuffersForAsyncHostToDevice, transfer_manager, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer, buffer_out, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_Device, device_out, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_BufferCount, buffer_count, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_BufferSize, buffer_size, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_SetBufferError, error_message_size, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_AddMetadata, num_metadata, nullptr) \
  X(PJRT_Client_DmaMap, size, nullptr) \
  X(PJRT_Client_DmaUnmap, data, nullptr) \
  X(PJRT_Client_CreateUninitializedBuffer, buffer, nullptr) \
  X(PJRT_Client_UpdateGlobalProcessInfo, num_process_infos, nullptr) \
  X(PJRT_TopologyDescription_Deserialize, topology, nullptr) \
  X(PJRT_Client_CreateAliasBuffer, fulfill_alias_buffer_cb, nullptr) \
  X(PJRT_Client_FulfillAliasBuffer, fulfill_alias_buffer_cb, nullptr) \
  X(PJRT_LoadedExecutable_GetDeviceAssignment, serialized_device_assignment_deleter, nullptr) \
  X(PJRT_Client_CreateErrorBuffer, buffer, nullptr) \
  X(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral, done_with_h2d_transfer, nullptr) \
  X(PJRT_Buffer_CopyRawToHostFuture, future_ready_callback, nullptr) \
  X(PJRT_Device_PoisonExecution, poisoned, nullptr) \
  X(PJRT_Device_CreateAsyncTrackingEvent, event, nullptr) \
  X(PJRT_AsyncTrackingEvent_Destroy, event, nullptr) \
  X(PJRT_Executable_GetCompileOptions, serialized_compile_options_deleter, nullptr) \
  X(PJRT_Buffer_DonateWithControlDependency, out_buffer, nullptr) \
  X(PJRT_Event_Create, event, nullptr) \
  X(PJRT_Event_Set, error_message_size, nullptr) \
  X(PJRT_Device_GetAttributes, attributes_deleter, nullptr)
// clang-format on

namespace plugrt {

// Bytes of struct T up to and including `last`.
#define PLUGRT_STRUCT_SIZE_UP_TO(T, last) (offsetof(T, last) + sizeof(((T*)nullptr)->last))

// Functions in the list; every slot of the table.
#define PLUGRT_COUNT_FUNCTION_(Name, last, null_handle) +1
inline constexpr size_t kNumPjrtFunctions = 0 PLUGRT_PJRT_FUNCTIONS(PLUGRT_COUNT_FUNCTION_);
#undef PLUGRT_COUNT_FUNCTION_

// The list agrees with the header: each minimum lies within the 0.94
// struct, and the slots cover PJRT_Api from its first slot to its end.
#define PLUGRT_CHECK_FUNCTION_(Name, last, null_handle)                              \
  static_assert(PLUGRT_STRUCT_SIZE_UP_TO(Name##_Args, last) <= Name##_Args_STRUCT_SIZE, \
                #Name ": minimum beyond the struct");
PLUGRT_PJRT_FUNCTIONS(PLUGRT_CHECK_FUNCTION_)
#undef PLUGRT_CHECK_FUNCTION_
#define PLUGRT_SLOT_OFFSET_(Name, last, null_handle) offsetof(PJRT_Api, Name),
inline constexpr size_t kPjrtSlotOffsets[] = {PLUGRT_PJRT_FUNCTIONS(PLUGRT_SLOT_OFFSET_)};
#undef PLUGRT_SLOT_OFFSET_
constexpr bool ListFollowsTheTable() {
  for (size_t i = 0; i < kNumPjrtFunctions; ++i) {
    if (kPjrtSlotOffsets[i] != offsetof(PJRT_Api, PJRT_Error_Destroy) + i * sizeof(void*)) {
      return false;
    }
  }
  return offsetof(PJRT_Api, PJRT_Error_Destroy) + kNumPjrtFunctions * sizeof(void*) ==
         PJRT_Api_STRUCT_SIZE;
}
static_assert(ListFollowsTheTable(),
              "the function list must name every PJRT_Api slot once, in table order");

}  // namespace plugrt

#endif  // PLUGRT_COMMON_PJRT_FUNCTIONS_H_
