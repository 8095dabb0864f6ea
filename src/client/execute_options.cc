#include "client/execute_options.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <utility>

#include "client/api_call.h"

namespace plugrt {

CopyToDeviceStream::~CopyToDeviceStream() {
  if (stream_ == nullptr) return;
  auto args = internal::NewArgs<PJRT_CopyToDeviceStream_Destroy_Args>();
  args.stream = stream_;
  (void)internal::Call(api_, args);  // nothing to report from a destructor
}

CopyToDeviceStream::CopyToDeviceStream(CopyToDeviceStream&& other) noexcept
    : api_(other.api_), stream_(std::exchange(other.stream_, nullptr)) {}

CopyToDeviceStream& CopyToDeviceStream::operator=(CopyToDeviceStream&& other) noexcept {
  if (this != &other) {
    CopyToDeviceStream old(std::move(*this));
    api_ = other.api_;
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

namespace {
void FreeChunk(void* data, void*) { std::free(data); }
}  // namespace

StatusOr<Future> CopyToDeviceStream::AddChunk(const void* data, size_t size) {
  if (stream_ == nullptr) return FailedPrecondition("CopyToDeviceStream: moved from");
  if (data == nullptr && size > 0) return InvalidArgument("CopyToDeviceStream: data is null");
  void* copy = std::malloc(size > 0 ? size : 1);
  if (copy == nullptr) return ResourceExhausted("CopyToDeviceStream: cannot allocate ", size);
  if (size > 0) std::memcpy(copy, data, size);
  PJRT_Chunk chunk{copy, size, FreeChunk, nullptr};
  auto args = internal::NewArgs<PJRT_CopyToDeviceStream_AddChunk_Args>();
  args.stream = stream_;
  args.chunk = &chunk;
  // The chunk belongs to the plugin from here on, even when the call fails.
  PLUGRT_RETURN_IF_ERROR(internal::Call(api_, args));
  return Future(api_, args.transfer_complete);
}

StatusOr<int64_t> CopyToDeviceStream::TotalBytes() const {
  auto args = internal::NewArgs<PJRT_CopyToDeviceStream_TotalBytes_Args>();
  args.stream = stream_;
  PLUGRT_RETURN_IF_ERROR(internal::Call(api_, args));
  return args.total_bytes;
}

StatusOr<int64_t> CopyToDeviceStream::GranuleSize() const {
  auto args = internal::NewArgs<PJRT_CopyToDeviceStream_GranuleSize_Args>();
  args.stream = stream_;
  PLUGRT_RETURN_IF_ERROR(internal::Call(api_, args));
  return args.granule_size_in_bytes;
}

StatusOr<int64_t> CopyToDeviceStream::CurrentBytes() const {
  auto args = internal::NewArgs<PJRT_CopyToDeviceStream_CurrentBytes_Args>();
  args.stream = stream_;
  PLUGRT_RETURN_IF_ERROR(internal::Call(api_, args));
  return args.current_bytes;
}

namespace internal {

struct CExecuteOptions::CallbackState {
  struct Send {
    HostSendCallback fn;
  };
  struct Recv {
    const PJRT_Api* api;
    HostRecvCallback fn;
  };
  // user_arg targets; addresses stay put (unique_ptr).
  std::vector<std::unique_ptr<Send>> sends;
  std::vector<std::unique_ptr<Recv>> recvs;
  std::vector<std::vector<PJRT_SendCallbackInfo>> send_infos;
  std::vector<std::vector<PJRT_RecvCallbackInfo>> recv_infos;
  std::vector<PJRT_SendCallbackInfo*> send_rows;
  std::vector<PJRT_RecvCallbackInfo*> recv_rows;
};

namespace {

using State = CExecuteOptions::CallbackState;

PJRT_Error* SendTrampoline(PJRT_Chunk* chunk, PJRT_CallbackError* callback_error,
                           size_t total_size_in_bytes, bool done, void* user_arg) {
  PJRT_Chunk taken{};
  if (chunk != nullptr) taken = *chunk;
  Status status;
  try {
    auto* send = static_cast<State::Send*>(user_arg);
    if (send == nullptr || !send->fn) {
      status = FailedPrecondition("send callback: no callable");
    } else {
      status = send->fn(taken.data, taken.size, total_size_in_bytes, done);
    }
  } catch (const std::exception& e) {
    status = Internal("send callback threw: ", e.what());
  } catch (...) {
    status = Internal("send callback threw an unknown exception");
  }
  if (taken.deleter != nullptr) taken.deleter(taken.data, taken.deleter_arg);
  if (status.ok()) return nullptr;
  if (callback_error == nullptr || *callback_error == nullptr) return nullptr;
  return (*callback_error)(static_cast<PJRT_Error_Code>(status.code()), status.message().data(),
                           status.message().size());
}

void RecvTrampoline(PJRT_CopyToDeviceStream* stream, void* user_arg) {
  auto* recv = static_cast<State::Recv*>(user_arg);
  if (recv == nullptr) return;  // cannot even free the stream without the table
  CopyToDeviceStream owned(recv->api, stream);
  try {
    if (recv->fn) recv->fn(std::move(owned));
  } catch (...) {
    // The receiving op times out; nothing may cross back into the plugin.
  }
}

}  // namespace

StatusOr<CExecuteOptions> CExecuteOptions::Build(const ExecuteOptions& options,
                                                 size_t num_devices, const PJRT_Api* api) {
  CExecuteOptions built;
  std::memset(&built.c_, 0, sizeof(built.c_));
  built.c_.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  built.c_.launch_id = options.launch_id;
  built.c_.context = options.context;
  // Points into `options`, which outlives the call the struct is built for.
  built.c_.non_donatable_input_indices = options.non_donatable_input_indices.data();
  built.c_.num_non_donatable_input_indices = options.non_donatable_input_indices.size();

  if (options.send_callbacks.empty() && options.recv_callbacks.empty()) return built;
  auto state = std::make_shared<CallbackState>();
  if (!options.send_callbacks.empty()) {
    if (options.send_callbacks.size() != num_devices) {
      return InvalidArgument("ExecuteOptions.send_callbacks has ", options.send_callbacks.size(),
                             " device lists for ", num_devices, " devices");
    }
    const size_t per_device = options.send_callbacks[0].size();
    for (size_t d = 0; d < num_devices; ++d) {
      const auto& list = options.send_callbacks[d];
      if (list.size() != per_device) {
        return InvalidArgument("ExecuteOptions.send_callbacks[", d, "] has ", list.size(),
                               " callbacks but device 0 has ", per_device, "; all need the same");
      }
      auto& infos = state->send_infos.emplace_back();
      for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].callback) {
          return InvalidArgument("ExecuteOptions.send_callbacks[", d, "][", i, "] is empty");
        }
        state->sends.push_back(std::make_unique<CallbackState::Send>(CallbackState::Send{list[i].callback}));
        infos.push_back({list[i].channel_id, state->sends.back().get(), SendTrampoline});
      }
    }
    for (auto& infos : state->send_infos) state->send_rows.push_back(infos.data());
    built.c_.send_callbacks = state->send_rows.data();
    built.c_.num_send_ops = per_device;
  }
  if (!options.recv_callbacks.empty()) {
    if (api == nullptr) {
      return FailedPrecondition("ExecuteOptions.recv_callbacks need the plugin's PJRT_Api");
    }
    if (options.recv_callbacks.size() != num_devices) {
      return InvalidArgument("ExecuteOptions.recv_callbacks has ", options.recv_callbacks.size(),
                             " device lists for ", num_devices, " devices");
    }
    const size_t per_device = options.recv_callbacks[0].size();
    for (size_t d = 0; d < num_devices; ++d) {
      const auto& list = options.recv_callbacks[d];
      if (list.size() != per_device) {
        return InvalidArgument("ExecuteOptions.recv_callbacks[", d, "] has ", list.size(),
                               " callbacks but device 0 has ", per_device, "; all need the same");
      }
      auto& infos = state->recv_infos.emplace_back();
      for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].callback) {
          return InvalidArgument("ExecuteOptions.recv_callbacks[", d, "][", i, "] is empty");
        }
        state->recvs.push_back(
            std::make_unique<CallbackState::Recv>(CallbackState::Recv{api, list[i].callback}));
        infos.push_back({list[i].channel_id, state->recvs.back().get(), RecvTrampoline});
      }
    }
    for (auto& infos : state->recv_infos) state->recv_rows.push_back(infos.data());
    built.c_.recv_callbacks = state->recv_rows.data();
    built.c_.num_recv_ops = per_device;
  }
  built.callbacks_ = std::move(state);
  return built;
}

void CExecuteOptions::KeepCallbacksAliveUntil(std::span<Future> device_complete) {
  if (callbacks_ == nullptr) return;
  for (Future& done : device_complete) {
    std::shared_ptr<CallbackState> keep = callbacks_;
    Status registered = done.OnReady([keep](Status) {});
    if (!registered.ok()) {
      // Cannot tell when this device ends: keep the callables for the rest
      // of the process rather than risk a call into freed memory.
      new std::shared_ptr<CallbackState>(callbacks_);
    }
  }
}

}  // namespace internal
}  // namespace plugrt
