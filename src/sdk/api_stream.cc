// Host callbacks at the C ABI: the PJRT_CopyToDeviceStream_* entries, the
// CopyToDeviceStream behind them, and the conversion of the send/recv
// callbacks of PJRT_ExecuteOptions into sdk::SendCallback / RecvCallback.
#include <cstdlib>
#include <cstring>

#include "sdk/api_args.h"
#include "sdk/host_callbacks.h"

// A caller-owned reference to a stream; PJRT_CopyToDeviceStream_Destroy
// drops it. The receiving op holds its own reference.
struct PJRT_CopyToDeviceStream {
  std::shared_ptr<plugrt::sdk::CopyToDeviceStream> stream;
};

namespace plugrt::sdk {

CopyToDeviceStream::CopyToDeviceStream(int64_t total_bytes, int64_t granule_size_in_bytes)
    : total_bytes_(total_bytes), granule_(granule_size_in_bytes > 0 ? granule_size_in_bytes : 1) {
  data_.reserve(static_cast<size_t>(total_bytes > 0 ? total_bytes : 0));
}

int64_t CopyToDeviceStream::current_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(data_.size());
}

Status CopyToDeviceStream::AddChunk(const void* data, size_t size) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) {
      return FailedPrecondition("CopyToDeviceStream: the receiving op no longer waits for data "
                                "(it finished or timed out)");
    }
    const auto have = static_cast<int64_t>(data_.size());
    if (have >= total_bytes_ && size > 0) {
      return InvalidArgument("CopyToDeviceStream: the stream already holds all its ",
                             total_bytes_, " bytes; a chunk of ", size, " bytes is too many");
    }
    if (static_cast<int64_t>(size) > total_bytes_ - have) {
      return InvalidArgument("CopyToDeviceStream: a chunk of ", size, " bytes after ", have,
                             " bytes exceeds the stream's total of ", total_bytes_, " bytes");
    }
    if (static_cast<int64_t>(size) % granule_ != 0) {
      return InvalidArgument("CopyToDeviceStream: chunk size ", size,
                             " is not a multiple of the granule size ", granule_);
    }
    if (size > 0) {
      if (data == nullptr) return InvalidArgument("CopyToDeviceStream: chunk data is null");
      data_.append(static_cast<const char*>(data), size);
    }
  }
  cv_.notify_all();
  return OkStatus();
}

StatusOr<std::string> CopyToDeviceStream::Await(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  const bool full = cv_.wait_for(lock, timeout, [&] {
    return static_cast<int64_t>(data_.size()) >= total_bytes_;
  });
  closed_ = true;
  if (!full) {
    return MakeError(StatusCode::kDeadlineExceeded, "the host delivered ", data_.size(), " of ", total_bytes_,
                            " bytes within ", timeout.count(), " ms");
  }
  return std::move(data_);
}

namespace {

void FreeChunkData(void* data, void*) { std::free(data); }

// Releases a chunk's data exactly once through its own deleter.
void ReleaseChunk(const PJRT_Chunk& chunk) {
  if (chunk.deleter != nullptr) chunk.deleter(chunk.data, chunk.deleter_arg);
}

PJRT_Error* StreamDestroy(PJRT_CopyToDeviceStream_Destroy_Args* args) {
  return Run(args, [](PJRT_CopyToDeviceStream_Destroy_Args& a, const Call&) -> Status {
    delete a.stream;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* StreamAddChunk(PJRT_CopyToDeviceStream_AddChunk_Args* args) {
  return Run(args, [](PJRT_CopyToDeviceStream_AddChunk_Args& a, const Call& call) -> Status {
    // The chunk is ours from here on, whatever happens below.
    PJRT_Chunk chunk{};
    if (a.chunk != nullptr) chunk = *a.chunk;
    struct Release {
      const PJRT_Chunk& c;
      ~Release() { ReleaseChunk(c); }
    } release{chunk};
    PLUGRT_ASSIGN_OR_RETURN(PJRT_CopyToDeviceStream * stream, Handle(a.stream, call, "stream"));
    PLUGRT_RETURN_IF_ERROR(call.NotNull(a.chunk, "chunk"));
    if (chunk.data == nullptr && chunk.size > 0) {
      return call.Invalid("chunk.data is null but chunk.size is ", chunk.size);
    }
    // Copies at once, so the transfer is complete when the event is made.
    a.transfer_complete = ToPjrtEvent(Event::MakeReady(stream->stream->AddChunk(chunk.data,
                                                                                chunk.size)));
    return OkStatus();
  });
}

PJRT_Error* StreamTotalBytes(PJRT_CopyToDeviceStream_TotalBytes_Args* args) {
  return Run(args, [](PJRT_CopyToDeviceStream_TotalBytes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_CopyToDeviceStream * stream, Handle(a.stream, call, "stream"));
    a.total_bytes = stream->stream->total_bytes();
    return OkStatus();
  });
}

PJRT_Error* StreamGranuleSize(PJRT_CopyToDeviceStream_GranuleSize_Args* args) {
  return Run(args, [](PJRT_CopyToDeviceStream_GranuleSize_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_CopyToDeviceStream * stream, Handle(a.stream, call, "stream"));
    a.granule_size_in_bytes = stream->stream->granule_size_in_bytes();
    return OkStatus();
  });
}

PJRT_Error* StreamCurrentBytes(PJRT_CopyToDeviceStream_CurrentBytes_Args* args) {
  return Run(args, [](PJRT_CopyToDeviceStream_CurrentBytes_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_CopyToDeviceStream * stream, Handle(a.stream, call, "stream"));
    a.current_bytes = stream->stream->current_bytes();
    return OkStatus();
  });
}

// The C send callback as an sdk::SendCallback: the bytes go out in a chunk
// the callee owns (freed with free through its deleter).
SendCallback WrapSend(PJRT_SendCallback callback, void* user_arg) {
  return [callback, user_arg](const void* data, size_t size, size_t total_size,
                              bool done) -> Status {
    void* copy = std::malloc(size > 0 ? size : 1);
    if (copy == nullptr) return ResourceExhausted("send callback: cannot allocate ", size, " bytes");
    if (size > 0) std::memcpy(copy, data, size);
    PJRT_Chunk chunk{copy, size, FreeChunkData, nullptr};
    PJRT_Error* error = callback(&chunk, CallbackErrorFactory(), total_size, done, user_arg);
    if (error == nullptr) return OkStatus();
    Status status = error->status;
    delete error;
    return status;
  };
}

// The C recv callback as an sdk::RecvCallback: the callee gets its own
// stream handle, which it frees with PJRT_CopyToDeviceStream_Destroy.
RecvCallback WrapRecv(PJRT_RecvCallback callback, void* user_arg) {
  return [callback, user_arg](std::shared_ptr<CopyToDeviceStream> stream) {
    callback(new PJRT_CopyToDeviceStream{std::move(stream)}, user_arg);
  };
}

}  // namespace

Status ConvertHostCallbacks(const PJRT_ExecuteOptions& c, size_t num_devices, const char* fn,
                            std::vector<std::vector<SendCallbackInfo>>* send,
                            std::vector<std::vector<RecvCallbackInfo>>* recv) {
  send->clear();
  recv->clear();
  if (c.num_send_ops > 0) {
    if (c.send_callbacks == nullptr) {
      return InvalidArgument(fn, ": options.send_callbacks is null but num_send_ops is ",
                             c.num_send_ops);
    }
    send->resize(num_devices);
    for (size_t d = 0; d < num_devices; ++d) {
      const PJRT_SendCallbackInfo* list = c.send_callbacks[d];
      if (list == nullptr) {
        return InvalidArgument(fn, ": options.send_callbacks[", d, "] is null but num_send_ops is ",
                               c.num_send_ops);
      }
      for (size_t i = 0; i < c.num_send_ops; ++i) {
        if (list[i].send_callback == nullptr) {
          return InvalidArgument(fn, ": options.send_callbacks[", d, "][", i,
                                 "].send_callback is null");
        }
        (*send)[d].push_back({list[i].channel_id, WrapSend(list[i].send_callback, list[i].user_arg)});
      }
    }
  }
  if (c.num_recv_ops > 0) {
    if (c.recv_callbacks == nullptr) {
      return InvalidArgument(fn, ": options.recv_callbacks is null but num_recv_ops is ",
                             c.num_recv_ops);
    }
    recv->resize(num_devices);
    for (size_t d = 0; d < num_devices; ++d) {
      const PJRT_RecvCallbackInfo* list = c.recv_callbacks[d];
      if (list == nullptr) {
        return InvalidArgument(fn, ": options.recv_callbacks[", d, "] is null but num_recv_ops is ",
                               c.num_recv_ops);
      }
      for (size_t i = 0; i < c.num_recv_ops; ++i) {
        if (list[i].recv_callback == nullptr) {
          return InvalidArgument(fn, ": options.recv_callbacks[", d, "][", i,
                                 "].recv_callback is null");
        }
        (*recv)[d].push_back({list[i].channel_id, WrapRecv(list[i].recv_callback, list[i].user_arg)});
      }
    }
  }
  return OkStatus();
}

void FillStreamSlots(PJRT_Api& api) {
  api.PJRT_CopyToDeviceStream_Destroy = StreamDestroy;
  api.PJRT_CopyToDeviceStream_AddChunk = StreamAddChunk;
  api.PJRT_CopyToDeviceStream_TotalBytes = StreamTotalBytes;
  api.PJRT_CopyToDeviceStream_GranuleSize = StreamGranuleSize;
  api.PJRT_CopyToDeviceStream_CurrentBytes = StreamCurrentBytes;
}

}  // namespace plugrt::sdk
