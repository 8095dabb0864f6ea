// PJRT_DeviceDescription_*, PJRT_Device_* and PJRT_Memory_* entries. All
// strings and arrays come from the handles' caches (see handles.h).
#include "sdk/api_args.h"
#include "sdk/api_slots.h"

namespace plugrt::sdk {
namespace {

PJRT_Error* DescriptionId(PJRT_DeviceDescription_Id_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_Id_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.id = d->description->id();
    return OkStatus();
  });
}

PJRT_Error* DescriptionProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_ProcessIndex_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.process_index = d->description->process_index();
    return OkStatus();
  });
}

PJRT_Error* DescriptionAttributes(PJRT_DeviceDescription_Attributes_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_Attributes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.attributes = d->attributes.data();
    a.num_attributes = d->attributes.size();
    return OkStatus();
  });
}

PJRT_Error* DescriptionKind(PJRT_DeviceDescription_Kind_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_Kind_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.device_kind = d->kind.c_str();
    a.device_kind_size = d->kind.size();
    return OkStatus();
  });
}

PJRT_Error* DescriptionDebugString(PJRT_DeviceDescription_DebugString_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_DebugString_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.debug_string = d->debug_string.c_str();
    a.debug_string_size = d->debug_string.size();
    return OkStatus();
  });
}

PJRT_Error* DescriptionToString(PJRT_DeviceDescription_ToString_Args* args) {
  return Run(args, [](PJRT_DeviceDescription_ToString_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(auto* d, Handle(a.device_description, call, "device_description"));
    a.to_string = d->to_string.c_str();
    a.to_string_size = d->to_string.size();
    return OkStatus();
  });
}

PJRT_Error* DeviceGetDescription(PJRT_Device_GetDescription_Args* args) {
  return Run(args, [](PJRT_Device_GetDescription_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    a.device_description = &device->description;
    return OkStatus();
  });
}

PJRT_Error* DeviceIsAddressable(PJRT_Device_IsAddressable_Args* args) {
  return Run(args, [](PJRT_Device_IsAddressable_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    a.is_addressable = device->device->is_addressable();
    return OkStatus();
  });
}

PJRT_Error* DeviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  return Run(args, [](PJRT_Device_LocalHardwareId_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    a.local_hardware_id = device->device->local_hardware_id();
    return OkStatus();
  });
}

PJRT_Error* DeviceAddressableMemories(PJRT_Device_AddressableMemories_Args* args) {
  return Run(args, [](PJRT_Device_AddressableMemories_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    a.memories = device->memories.data();
    a.num_memories = device->memories.size();
    return OkStatus();
  });
}

PJRT_Error* DeviceDefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  return Run(args, [](PJRT_Device_DefaultMemory_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    PLUGRT_ASSIGN_OR_RETURN(Memory * memory, device->device->default_memory());
    PLUGRT_ASSIGN_OR_RETURN(a.memory, device->client->MemoryHandle(memory));
    return OkStatus();
  });
}

// Writes an optional statistic and its *_is_set flag.
void SetStat(const std::optional<int64_t>& value, int64_t& out, bool& is_set) {
  is_set = value.has_value();
  out = value.value_or(0);
}

PJRT_Error* DeviceMemoryStats(PJRT_Device_MemoryStats_Args* args) {
  return Run(args, [](PJRT_Device_MemoryStats_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    PLUGRT_ASSIGN_OR_RETURN(MemoryStats stats, device->device->memory_stats());
    a.bytes_in_use = stats.bytes_in_use;
    SetStat(stats.peak_bytes_in_use, a.peak_bytes_in_use, a.peak_bytes_in_use_is_set);
    SetStat(stats.num_allocs, a.num_allocs, a.num_allocs_is_set);
    SetStat(stats.largest_alloc_size, a.largest_alloc_size, a.largest_alloc_size_is_set);
    SetStat(stats.bytes_limit, a.bytes_limit, a.bytes_limit_is_set);
    SetStat(stats.bytes_reserved, a.bytes_reserved, a.bytes_reserved_is_set);
    SetStat(stats.peak_bytes_reserved, a.peak_bytes_reserved, a.peak_bytes_reserved_is_set);
    SetStat(stats.bytes_reservable_limit, a.bytes_reservable_limit,
            a.bytes_reservable_limit_is_set);
    SetStat(stats.largest_free_block_bytes, a.largest_free_block_bytes,
            a.largest_free_block_bytes_is_set);
    SetStat(stats.pool_bytes, a.pool_bytes, a.pool_bytes_is_set);
    SetStat(stats.peak_pool_bytes, a.peak_pool_bytes, a.peak_pool_bytes_is_set);
    return OkStatus();
  });
}

void DeleteDeviceAttributes(PJRT_Device_Attributes* attributes) { delete attributes; }

// The description's attributes, in a block the caller frees with the
// returned deleter.
PJRT_Error* DeviceGetAttributes(PJRT_Device_GetAttributes_Args* args) {
  return Run(args, [](PJRT_Device_GetAttributes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.device, call, "device"));
    auto* attributes = new PJRT_Device_Attributes(device->device->description().attributes());
    a.device_attributes = attributes;
    a.attributes = attributes->values.data();
    a.num_attributes = attributes->values.size();
    a.attributes_deleter = DeleteDeviceAttributes;
    return OkStatus();
  });
}

PJRT_Error* MemoryId(PJRT_Memory_Id_Args* args) {
  return Run(args, [](PJRT_Memory_Id_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.id = memory->memory->id();
    return OkStatus();
  });
}

PJRT_Error* MemoryKind(PJRT_Memory_Kind_Args* args) {
  return Run(args, [](PJRT_Memory_Kind_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.kind = memory->kind.c_str();
    a.kind_size = memory->kind.size();
    return OkStatus();
  });
}

PJRT_Error* MemoryKindId(PJRT_Memory_Kind_Id_Args* args) {
  return Run(args, [](PJRT_Memory_Kind_Id_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.kind_id = memory->memory->kind_id();
    return OkStatus();
  });
}

PJRT_Error* MemoryDebugString(PJRT_Memory_DebugString_Args* args) {
  return Run(args, [](PJRT_Memory_DebugString_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.debug_string = memory->debug_string.c_str();
    a.debug_string_size = memory->debug_string.size();
    return OkStatus();
  });
}

PJRT_Error* MemoryToString(PJRT_Memory_ToString_Args* args) {
  return Run(args, [](PJRT_Memory_ToString_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.to_string = memory->to_string.c_str();
    a.to_string_size = memory->to_string.size();
    return OkStatus();
  });
}

PJRT_Error* MemoryAddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args) {
  return Run(args, [](PJRT_Memory_AddressableByDevices_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.memory, call, "memory"));
    a.devices = memory->devices.data();
    a.num_devices = memory->devices.size();
    return OkStatus();
  });
}

}  // namespace

void FillDeviceSlots(PJRT_Api& api) {
  api.PJRT_DeviceDescription_Id = DescriptionId;
  api.PJRT_DeviceDescription_ProcessIndex = DescriptionProcessIndex;
  api.PJRT_DeviceDescription_Attributes = DescriptionAttributes;
  api.PJRT_DeviceDescription_Kind = DescriptionKind;
  api.PJRT_DeviceDescription_DebugString = DescriptionDebugString;
  api.PJRT_DeviceDescription_ToString = DescriptionToString;
  api.PJRT_Device_GetDescription = DeviceGetDescription;
  api.PJRT_Device_IsAddressable = DeviceIsAddressable;
  api.PJRT_Device_LocalHardwareId = DeviceLocalHardwareId;
  api.PJRT_Device_AddressableMemories = DeviceAddressableMemories;
  api.PJRT_Device_DefaultMemory = DeviceDefaultMemory;
  api.PJRT_Device_MemoryStats = DeviceMemoryStats;
  api.PJRT_Device_GetAttributes = DeviceGetAttributes;
  api.PJRT_Memory_Id = MemoryId;
  api.PJRT_Memory_Kind = MemoryKind;
  api.PJRT_Memory_Kind_Id = MemoryKindId;
  api.PJRT_Memory_DebugString = MemoryDebugString;
  api.PJRT_Memory_ToString = MemoryToString;
  api.PJRT_Memory_AddressableByDevices = MemoryAddressableByDevices;
}

}  // namespace plugrt::sdk
