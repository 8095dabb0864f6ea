// PJRT_Buffer_* entries. The backend checks deleted buffers; the SDK checks
// arguments and keeps returned arrays alive in the PJRT_Buffer.
#include <algorithm>

#include "sdk/api_args.h"
#include "sdk/api_shapes.h"
#include "sdk/api_slots.h"

namespace plugrt::sdk {
namespace {

PJRT_Error* BufferDestroy(PJRT_Buffer_Destroy_Args* args) {
  return Run(args, [](PJRT_Buffer_Destroy_Args& a, const Call&) -> Status {
    delete a.buffer;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* BufferElementType(PJRT_Buffer_ElementType_Args* args) {
  return Run(args, [](PJRT_Buffer_ElementType_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    a.type = buffer->buffer->element_type();
    return OkStatus();
  });
}

PJRT_Error* BufferDimensions(PJRT_Buffer_Dimensions_Args* args) {
  return Run(args, [](PJRT_Buffer_Dimensions_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    // dimensions() is a reference that lives as long as the buffer.
    const std::vector<int64_t>& dims = buffer->buffer->dimensions();
    a.dims = dims.data();
    a.num_dims = dims.size();
    return OkStatus();
  });
}

PJRT_Error* BufferUnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args) {
  return Run(args, [](PJRT_Buffer_UnpaddedDimensions_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    std::lock_guard<std::mutex> lock(buffer->mu);
    if (!buffer->unpadded_dims) {
      PLUGRT_ASSIGN_OR_RETURN(buffer->unpadded_dims, buffer->buffer->unpadded_dimensions());
    }
    a.unpadded_dims = buffer->unpadded_dims->data();
    a.num_dims = buffer->unpadded_dims->size();
    return OkStatus();
  });
}

PJRT_Error* BufferDynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  return Run(args, [](PJRT_Buffer_DynamicDimensionIndices_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    std::lock_guard<std::mutex> lock(buffer->mu);
    if (!buffer->dynamic_dims) {
      PLUGRT_ASSIGN_OR_RETURN(buffer->dynamic_dims, buffer->buffer->dynamic_dimension_indices());
    }
    a.dynamic_dim_indices = buffer->dynamic_dims->data();
    a.num_dynamic_dims = buffer->dynamic_dims->size();
    return OkStatus();
  });
}

PJRT_Error* BufferGetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args) {
  return Run(args, [](PJRT_Buffer_GetMemoryLayout_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    std::lock_guard<std::mutex> lock(buffer->mu);
    if (!buffer->layout) {
      PLUGRT_ASSIGN_OR_RETURN(Layout layout, buffer->buffer->layout());
      buffer->layout.emplace();
      buffer->layout->layout = std::move(layout);
    }
    PJRT_Buffer::LayoutData& data = *buffer->layout;
    LayoutToC(data.layout, data.tile_dims, data.tile_dim_sizes, a.layout);
    return OkStatus();
  });
}

PJRT_Error* BufferOnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  return Run(args, [](PJRT_Buffer_OnDeviceSizeInBytes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(a.on_device_size_in_bytes, buffer->buffer->on_device_size());
    return OkStatus();
  });
}

PJRT_Error* BufferDevice(PJRT_Buffer_Device_Args* args) {
  return Run(args, [](PJRT_Buffer_Device_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(a.device, buffer->client->DeviceHandle(buffer->buffer->device()));
    return OkStatus();
  });
}

PJRT_Error* BufferMemory(PJRT_Buffer_Memory_Args* args) {
  return Run(args, [](PJRT_Buffer_Memory_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(a.memory, buffer->client->MemoryHandle(buffer->buffer->memory()));
    return OkStatus();
  });
}

PJRT_Error* BufferDelete(PJRT_Buffer_Delete_Args* args) {
  return Run(args, [](PJRT_Buffer_Delete_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    buffer->buffer->Delete();
    return OkStatus();
  });
}

PJRT_Error* BufferIsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  return Run(args, [](PJRT_Buffer_IsDeleted_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    a.is_deleted = buffer->buffer->is_deleted();
    return OkStatus();
  });
}

PJRT_Error* BufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  return Run(args, [](PJRT_Buffer_IsOnCpu_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    a.is_on_cpu = buffer->buffer->is_on_cpu();
    return OkStatus();
  });
}

PJRT_Error* BufferReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  return Run(args, [](PJRT_Buffer_ReadyEvent_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(EventRef event, buffer->buffer->ready_event());
    if (event == nullptr) return Internal(call.fn(), ": the backend returned no event");
    a.event = ToPjrtEvent(std::move(event));
    return OkStatus();
  });
}

PJRT_Error* BufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  return Run(args, [](PJRT_Buffer_CopyToDevice_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device * device, Handle(a.dst_device, call, "dst_device"));
    if (!buffer->client->Owns(device)) {
      return call.Invalid("dst_device is not a device of the buffer's client");
    }
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> copy, buffer->buffer->CopyToDevice(device->device));
    if (copy == nullptr) return Internal(call.fn(), ": the backend returned no buffer");
    a.dst_buffer = new PJRT_Buffer(std::move(copy), buffer->client);
    return OkStatus();
  });
}

PJRT_Error* BufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  return Run(args, [](PJRT_Buffer_CopyToMemory_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Memory * memory, Handle(a.dst_memory, call, "dst_memory"));
    if (!buffer->client->Owns(memory)) {
      return call.Invalid("dst_memory is not a memory of the buffer's client");
    }
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> copy, buffer->buffer->CopyToMemory(memory->memory));
    if (copy == nullptr) return Internal(call.fn(), ": the backend returned no buffer");
    a.dst_buffer = new PJRT_Buffer(std::move(copy), buffer->client);
    return OkStatus();
  });
}

PJRT_Error* BufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  return Run(args, [](PJRT_Buffer_ToHostBuffer_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.src, call, "src"));
    std::optional<Layout> host_layout;
    if (a.host_layout != nullptr) {
      PLUGRT_ASSIGN_OR_RETURN(host_layout, LayoutFromC(a.host_layout, call, "host_layout"));
    }
    const Layout* layout = host_layout ? &*host_layout : nullptr;
    PLUGRT_ASSIGN_OR_RETURN(size_t needed, buffer->buffer->HostSize(layout));
    if (a.dst == nullptr) {
      a.dst_size = needed;  // a size query; no copy and no event
      return OkStatus();
    }
    if (a.dst_size < needed) {
      return call.Invalid("dst_size is ", a.dst_size, " bytes but the buffer needs ", needed,
                          " bytes");
    }
    PLUGRT_ASSIGN_OR_RETURN(EventRef event, buffer->buffer->ToHost(a.dst, a.dst_size, layout));
    if (event == nullptr) return Internal(call.fn(), ": the backend returned no event");
    a.event = ToPjrtEvent(std::move(event));
    return OkStatus();
  });
}

PJRT_Error* BufferCopyRawToHost(PJRT_Buffer_CopyRawToHost_Args* args) {
  return Run(args, [](PJRT_Buffer_CopyRawToHost_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    if (a.offset < 0 || a.transfer_size < 0) {
      return call.Invalid("offset (", a.offset, ") and transfer_size (", a.transfer_size,
                          ") must not be negative");
    }
    PLUGRT_RETURN_IF_ERROR(call.Array(a.dst, static_cast<size_t>(a.transfer_size), "dst"));
    PLUGRT_ASSIGN_OR_RETURN(EventRef event,
                            buffer->buffer->CopyRawToHost(a.dst, a.offset, a.transfer_size));
    if (event == nullptr) return Internal(call.fn(), ": the backend returned no event");
    a.event = ToPjrtEvent(std::move(event));
    return OkStatus();
  });
}

PJRT_Error* BufferUnsafePointer(PJRT_Buffer_UnsafePointer_Args* args) {
  return Run(args, [](PJRT_Buffer_UnsafePointer_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(a.buffer_pointer, buffer->buffer->unsafe_pointer());
    return OkStatus();
  });
}

PJRT_Error* BufferIncreaseExternalReferenceCount(
    PJRT_Buffer_IncreaseExternalReferenceCount_Args* args) {
  return Run(args, [](PJRT_Buffer_IncreaseExternalReferenceCount_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    return buffer->buffer->IncreaseExternalReferenceCount();
  });
}

PJRT_Error* BufferDecreaseExternalReferenceCount(
    PJRT_Buffer_DecreaseExternalReferenceCount_Args* args) {
  return Run(args, [](PJRT_Buffer_DecreaseExternalReferenceCount_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    return buffer->buffer->DecreaseExternalReferenceCount();
  });
}

PJRT_Error* BufferOpaqueDeviceMemoryDataPointer(
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args) {
  return Run(args, [](PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args& a,
                      const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer * buffer, Handle(a.buffer, call, "buffer"));
    PLUGRT_ASSIGN_OR_RETURN(a.device_memory_ptr, buffer->buffer->opaque_device_memory_pointer());
    return OkStatus();
  });
}

}  // namespace

void FillBufferSlots(PJRT_Api& api) {
  api.PJRT_Buffer_Destroy = BufferDestroy;
  api.PJRT_Buffer_ElementType = BufferElementType;
  api.PJRT_Buffer_Dimensions = BufferDimensions;
  api.PJRT_Buffer_UnpaddedDimensions = BufferUnpaddedDimensions;
  api.PJRT_Buffer_DynamicDimensionIndices = BufferDynamicDimensionIndices;
  api.PJRT_Buffer_GetMemoryLayout = BufferGetMemoryLayout;
  api.PJRT_Buffer_OnDeviceSizeInBytes = BufferOnDeviceSizeInBytes;
  api.PJRT_Buffer_Device = BufferDevice;
  api.PJRT_Buffer_Memory = BufferMemory;
  api.PJRT_Buffer_Delete = BufferDelete;
  api.PJRT_Buffer_IsDeleted = BufferIsDeleted;
  api.PJRT_Buffer_CopyToDevice = BufferCopyToDevice;
  api.PJRT_Buffer_CopyToMemory = BufferCopyToMemory;
  api.PJRT_Buffer_ToHostBuffer = BufferToHostBuffer;
  api.PJRT_Buffer_IsOnCpu = BufferIsOnCpu;
  api.PJRT_Buffer_ReadyEvent = BufferReadyEvent;
  api.PJRT_Buffer_UnsafePointer = BufferUnsafePointer;
  api.PJRT_Buffer_IncreaseExternalReferenceCount = BufferIncreaseExternalReferenceCount;
  api.PJRT_Buffer_DecreaseExternalReferenceCount = BufferDecreaseExternalReferenceCount;
  api.PJRT_Buffer_OpaqueDeviceMemoryDataPointer = BufferOpaqueDeviceMemoryDataPointer;
  api.PJRT_Buffer_CopyRawToHost = BufferCopyRawToHost;
}

}  // namespace plugrt::sdk
