#include "client/device.h"

#include "client/api_call.h"
#include "client/handle_list.h"
#include "client/named_value_c.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;
using internal::StringFromC;

// --- DeviceDescription --------------------------------------------------------

StatusOr<int> DeviceDescription::id() const {
  auto args = NewArgs<PJRT_DeviceDescription_Id_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.id;
}

StatusOr<int> DeviceDescription::process_index() const {
  auto args = NewArgs<PJRT_DeviceDescription_ProcessIndex_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.process_index;
}

StatusOr<std::string> DeviceDescription::kind() const {
  auto args = NewArgs<PJRT_DeviceDescription_Kind_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.device_kind, args.device_kind_size);
}

StatusOr<std::string> DeviceDescription::debug_string() const {
  auto args = NewArgs<PJRT_DeviceDescription_DebugString_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.debug_string, args.debug_string_size);
}

StatusOr<std::string> DeviceDescription::to_string() const {
  auto args = NewArgs<PJRT_DeviceDescription_ToString_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.to_string, args.to_string_size);
}

StatusOr<std::vector<NamedValue>> DeviceDescription::attributes() const {
  auto args = NewArgs<PJRT_DeviceDescription_Attributes_Args>();
  args.device_description = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::NamedValuesFromC(args.attributes, args.num_attributes);
}

// --- Device -----------------------------------------------------------------

StatusOr<DeviceDescription> Device::description() const {
  auto args = NewArgs<PJRT_Device_GetDescription_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.device_description == nullptr) {
    return Internal("plugin returned a null description for a device");
  }
  return DeviceDescription(api_, args.device_description);
}

StatusOr<int> Device::id() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.id();
}
StatusOr<int> Device::process_index() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.process_index();
}
StatusOr<std::string> Device::kind() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.kind();
}
StatusOr<std::string> Device::debug_string() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.debug_string();
}
StatusOr<std::string> Device::to_string() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.to_string();
}
StatusOr<std::vector<NamedValue>> Device::attributes() const {
  PLUGRT_ASSIGN_OR_RETURN(DeviceDescription d, description());
  return d.attributes();
}

StatusOr<bool> Device::is_addressable() const {
  auto args = NewArgs<PJRT_Device_IsAddressable_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.is_addressable;
}

StatusOr<int> Device::local_hardware_id() const {
  auto args = NewArgs<PJRT_Device_LocalHardwareId_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.local_hardware_id;
}

StatusOr<std::vector<Memory>> Device::memories() const {
  auto args = NewArgs<PJRT_Device_AddressableMemories_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::WrapHandles<Memory>(api_, args.memories, args.num_memories, "memory");
}

StatusOr<Memory> Device::default_memory() const {
  auto args = NewArgs<PJRT_Device_DefaultMemory_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.memory == nullptr) return Internal("plugin returned a null default memory");
  return Memory(api_, args.memory);
}

StatusOr<MemoryStats> Device::memory_stats() const {
  auto args = NewArgs<PJRT_Device_MemoryStats_Args>();
  args.device = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  auto optional = [](bool is_set, int64_t value) {
    return is_set ? std::optional<int64_t>(value) : std::nullopt;
  };
  MemoryStats stats;
  stats.bytes_in_use = args.bytes_in_use;
  stats.peak_bytes_in_use = optional(args.peak_bytes_in_use_is_set, args.peak_bytes_in_use);
  stats.num_allocs = optional(args.num_allocs_is_set, args.num_allocs);
  stats.largest_alloc_size = optional(args.largest_alloc_size_is_set, args.largest_alloc_size);
  stats.bytes_limit = optional(args.bytes_limit_is_set, args.bytes_limit);
  stats.bytes_reserved = optional(args.bytes_reserved_is_set, args.bytes_reserved);
  stats.peak_bytes_reserved = optional(args.peak_bytes_reserved_is_set, args.peak_bytes_reserved);
  stats.bytes_reservable_limit =
      optional(args.bytes_reservable_limit_is_set, args.bytes_reservable_limit);
  stats.largest_free_block_bytes =
      optional(args.largest_free_block_bytes_is_set, args.largest_free_block_bytes);
  stats.pool_bytes = optional(args.pool_bytes_is_set, args.pool_bytes);
  stats.peak_pool_bytes = optional(args.peak_pool_bytes_is_set, args.peak_pool_bytes);
  return stats;
}

// --- Memory -----------------------------------------------------------------

StatusOr<int> Memory::id() const {
  auto args = NewArgs<PJRT_Memory_Id_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.id;
}

StatusOr<std::string> Memory::kind() const {
  auto args = NewArgs<PJRT_Memory_Kind_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.kind, args.kind_size);
}

StatusOr<int> Memory::kind_id() const {
  auto args = NewArgs<PJRT_Memory_Kind_Id_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.kind_id;
}

StatusOr<std::string> Memory::debug_string() const {
  auto args = NewArgs<PJRT_Memory_DebugString_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.debug_string, args.debug_string_size);
}

StatusOr<std::string> Memory::to_string() const {
  auto args = NewArgs<PJRT_Memory_ToString_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.to_string, args.to_string_size);
}

StatusOr<std::vector<Device>> Memory::addressable_by_devices() const {
  auto args = NewArgs<PJRT_Memory_AddressableByDevices_Args>();
  args.memory = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::WrapHandles<Device>(api_, args.devices, args.num_devices, "device");
}

}  // namespace plugrt
