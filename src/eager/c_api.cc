// The C API (include/plugrt/eager_c_api.h): each call forwards to the C++
// eager layer; what is here is only the C shape of it (handles, statuses,
// arrays, and the adapters that call C callbacks for C++ interfaces).
//
// Size: the whole surface of eager_c_api.h, one thin function per C entry
// point in the header's order, so a reader finds each one where the header
// declares it.
#include "plugrt/eager_c_api.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eager/c_api_internal.h"
#include "eager/context.h"
#include "eager/logging_device.h"
#include "eager/parallel_device.h"

using plugrt::Status;
using plugrt::StatusCode;
using plugrt::StatusOr;
using plugrt::eager::AttrValue;
using plugrt::eager::Context;
using plugrt::eager::CustomDevice;
using plugrt::eager::CustomTensorData;
using plugrt::eager::Op;
using plugrt::eager::Tensor;

namespace {

void Set(PLUGRT_EagerStatus* out, Status status) {
  if (out != nullptr) out->status = std::move(status);
}

Status Take(PLUGRT_EagerStatus& status) { return std::move(status.status); }

PLUGRT_EagerTensorHandle* NewHandle(Tensor tensor) {
  return new PLUGRT_EagerTensorHandle{std::move(tensor)};
}

// Returns the value as a new handle, or NULL with the error.
PLUGRT_EagerTensorHandle* HandleOr(StatusOr<Tensor> tensor, PLUGRT_EagerStatus* status) {
  Set(status, tensor.status());
  return tensor.ok() ? NewHandle(std::move(tensor).value()) : nullptr;
}

std::optional<std::string> OptionalName(const char* name) {
  if (name == nullptr) return std::nullopt;
  return std::string(name);
}

std::vector<int64_t> Dims(const int64_t* dims, int num_dims) {
  return dims == nullptr || num_dims <= 0 ? std::vector<int64_t>()
                                          : std::vector<int64_t>(dims, dims + num_dims);
}

Status CheckArgs(bool ok, const char* call) {
  return ok ? Status() : plugrt::InvalidArgument(call, ": a required argument is NULL or negative");
}

// A C callback's returned handle, taken over.
StatusOr<Tensor> TakeHandle(PLUGRT_EagerTensorHandle* handle, PLUGRT_EagerStatus& status,
                            const std::string& device, const char* callback) {
  std::unique_ptr<PLUGRT_EagerTensorHandle> owned(handle);
  if (!status.status.ok()) return Take(status);
  if (owned == nullptr || !owned->tensor) {
    return plugrt::Internal("custom device ", device, ": ", callback, " returned no tensor");
  }
  return owned->tensor;
}

// A custom device given by C callbacks.
class CallbackDevice : public CustomDevice {
 public:
  CallbackDevice(PLUGRT_EagerContext* ctx, std::string name,
                 const PLUGRT_EagerCustomDeviceCallbacks& callbacks)
      : ctx_(ctx), name_(std::move(name)), callbacks_(callbacks) {}
  ~CallbackDevice() override { callbacks_.delete_device(callbacks_.device_info); }

  StatusOr<Tensor> CopyToDevice(Context&, const Tensor& tensor) override {
    PLUGRT_EagerTensorHandle in{tensor};
    PLUGRT_EagerStatus status;
    return TakeHandle(callbacks_.copy_tensor_to_device(ctx_, &in, &status, callbacks_.device_info),
                      status, name_, "copy_tensor_to_device");
  }

  StatusOr<Tensor> CopyFromDevice(Context&, const Tensor& tensor,
                                  const std::string& target) override {
    PLUGRT_EagerTensorHandle in{tensor};
    PLUGRT_EagerStatus status;
    return TakeHandle(callbacks_.copy_tensor_from_device(ctx_, &in, target.c_str(), &status,
                                                         callbacks_.device_info),
                      status, name_, "copy_tensor_from_device");
  }

  StatusOr<std::vector<Tensor>> Execute(Context&, const Op& op) override {
    PLUGRT_ASSIGN_OR_RETURN(int64_t capacity, op.NumOutputs());
    PLUGRT_EagerOp lent;
    lent.op = &op;
    lent.ctx = ctx_;
    std::vector<PLUGRT_EagerTensorHandle*> outputs(capacity, nullptr);
    int num = static_cast<int>(capacity);
    PLUGRT_EagerStatus status;
    callbacks_.execute(ctx_, &lent, outputs.data(), &num, &status, callbacks_.device_info);
    num = std::clamp(num, 0, static_cast<int>(capacity));
    std::vector<Tensor> tensors;
    Status first = Take(status);
    for (int i = 0; i < num; ++i) {
      StatusOr<Tensor> t = TakeHandle(outputs[i], status, name_, "execute");
      if (t.ok()) tensors.push_back(std::move(t).value());
      if (!t.ok() && first.ok()) first = t.status();
    }
    if (!first.ok()) return first;
    if (num != capacity) {
      return plugrt::Internal("custom device ", name_, " gave ", num, " outputs for ", op.name(),
                              ", which has ", capacity);
    }
    return tensors;
  }

  bool can_pack() const override { return callbacks_.pack != nullptr; }

  StatusOr<Tensor> Pack(Context& context, const std::vector<Tensor>& tensors) override {
    if (callbacks_.pack == nullptr) return CustomDevice::Pack(context, tensors);
    std::vector<PLUGRT_EagerTensorHandle> handles;
    for (const Tensor& t : tensors) handles.push_back({t});
    std::vector<const PLUGRT_EagerTensorHandle*> pointers;
    for (const auto& h : handles) pointers.push_back(&h);
    PLUGRT_EagerStatus status;
    return TakeHandle(callbacks_.pack(ctx_, pointers.data(), static_cast<int>(pointers.size()),
                                      &status, callbacks_.device_info),
                      status, name_, "pack");
  }

  StatusOr<bool> ShallPinToThisDevice(const Op& op) override {
    if (callbacks_.shall_pin_to_this_device == nullptr) return false;
    PLUGRT_EagerOp lent;
    lent.op = &op;
    lent.ctx = ctx_;
    PLUGRT_EagerStatus status;
    const int pin = callbacks_.shall_pin_to_this_device(&lent, &status, callbacks_.device_info);
    if (!status.status.ok()) return Take(status);
    return pin != 0;
  }

 private:
  PLUGRT_EagerContext* ctx_;
  const std::string name_;
  PLUGRT_EagerCustomDeviceCallbacks callbacks_;
};

// A custom tensor whose data and methods are C's.
class CallbackTensor : public CustomTensorData {
 public:
  CallbackTensor(void* data, const PLUGRT_EagerCustomTensorMethods& methods)
      : data_(data), methods_(methods) {}
  ~CallbackTensor() override {
    if (methods_.deallocator != nullptr) methods_.deallocator(data_);
  }

  StatusOr<std::vector<int64_t>> Dims() const override {
    PLUGRT_EagerStatus status;
    const int rank = methods_.num_dims(data_, &status);
    if (!status.status.ok()) return Take(status);
    std::vector<int64_t> dims;
    for (int i = 0; i < rank; ++i) {
      dims.push_back(methods_.dim(data_, i, &status));
      if (!status.status.ok()) return Take(status);
    }
    return dims;
  }

  StatusOr<std::string> Summary() const override {
    if (methods_.summarize == nullptr) return std::string("<custom tensor>");
    std::string text(methods_.summarize(data_, nullptr, 0) + 1, '\0');
    text.resize(std::min(methods_.summarize(data_, text.data(), text.size()), text.size() - 1));
    return text;
  }

  void* data() const { return data_; }

 private:
  void* data_;
  PLUGRT_EagerCustomTensorMethods methods_;
};

// The integer a C caller passed as an enum, read as bytes: in C++ loading
// an enum object whose value is outside the enum's range is undefined.
template <typename E>
int RawEnum(const E& value) {
  static_assert(sizeof(E) == sizeof(int));
  int raw = 0;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

Status CheckPolicy(int policy) {
  if (policy >= PLUGRT_EAGER_PLACEMENT_COPY && policy <= PLUGRT_EAGER_PLACEMENT_REFUSE) {
    return Status();
  }
  return plugrt::InvalidArgument("no placement policy ", policy,
                                 " (PLUGRT_EAGER_PLACEMENT_COPY, _WARN or _REFUSE)");
}

PLUGRT_EagerCustomDevice* Remember(PLUGRT_EagerContext* ctx, const std::string& name) {
  auto device = std::make_unique<PLUGRT_EagerCustomDevice>();
  device->name = name;
  device->device = ctx->ctx->FindCustomDevice(name);
  std::lock_guard<std::mutex> lock(ctx->mu);
  ctx->devices.push_back(std::move(device));
  return ctx->devices.back().get();
}

Status CheckCallbacks(const PLUGRT_EagerCustomDeviceCallbacks* callbacks) {
  if (callbacks == nullptr) return plugrt::InvalidArgument("no custom device callbacks given");
  if (callbacks->struct_size < PLUGRT_EagerCustomDeviceCallbacks_MIN_STRUCT_SIZE) {
    return plugrt::InvalidArgument(
        "custom device callbacks: struct_size ", callbacks->struct_size,
        " is below the smallest layout (", PLUGRT_EagerCustomDeviceCallbacks_MIN_STRUCT_SIZE,
        " bytes, through delete_device)");
  }
  const char* missing = callbacks->copy_tensor_to_device == nullptr     ? "copy_tensor_to_device"
                        : callbacks->copy_tensor_from_device == nullptr ? "copy_tensor_from_device"
                        : callbacks->execute == nullptr                 ? "execute"
                        : callbacks->delete_device == nullptr           ? "delete_device"
                                                                        : nullptr;
  if (missing != nullptr) {
    return plugrt::InvalidArgument("custom device callbacks: ", missing, " is NULL (required)");
  }
  return Status();
}

void SetAttr(PLUGRT_EagerOp* op, const char* name, AttrValue value, PLUGRT_EagerStatus* status) {
  if (op == nullptr || !op->owned || name == nullptr) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerOpSetAttr"));
  }
  Set(status, op->owned->SetAttr(name, std::move(value)));
}

// Like snprintf: at most `size` bytes with the NUL; the full length.
size_t WriteText(const std::string& text, char* buffer, size_t size) {
  if (buffer != nullptr && size > 0) {
    const size_t n = std::min(size - 1, text.size());
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

// The typed read of attribute `name`, its error set.
template <typename T, typename Read>
T ReadAttr(const PLUGRT_EagerOp* op, const char* name, PLUGRT_EagerStatus* status, T fallback,
           Read read) {
  if (op == nullptr || name == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerOpGetAttr"));
    return fallback;
  }
  const plugrt::eager::AttrReader reader(op->op->name(), op->op->attrs());
  auto value = read(reader, std::string_view(name));
  Set(status, value.status());
  return value.ok() ? T(*value) : fallback;
}

template <typename T, typename C>
std::vector<T> List(const C* values, int n) {
  return values == nullptr || n <= 0 ? std::vector<T>() : std::vector<T>(values, values + n);
}

}  // namespace

extern "C" {

// ---- status ----------------------------------------------------------------

PLUGRT_EagerStatus* PLUGRT_EagerNewStatus(void) { return new PLUGRT_EagerStatus; }
void PLUGRT_EagerDeleteStatus(PLUGRT_EagerStatus* status) { delete status; }
PLUGRT_EagerCode PLUGRT_EagerGetCode(const PLUGRT_EagerStatus* status) {
  return static_cast<PLUGRT_EagerCode>(status->status.code());
}
const char* PLUGRT_EagerMessage(const PLUGRT_EagerStatus* status) {
  return status->status.message().c_str();
}
void PLUGRT_EagerSetStatus(PLUGRT_EagerStatus* status, PLUGRT_EagerCode code,
                           const char* message) {
  const int raw = RawEnum(code);
  status->status = raw == PLUGRT_EAGER_OK
                       ? Status()
                       : Status(static_cast<StatusCode>(raw), message == nullptr ? "" : message);
}

// ---- context and executor ----------------------------------------------------

PLUGRT_EagerContext* PLUGRT_EagerNewContext(const PLUGRT_EagerContextOptions* options,
                                            PLUGRT_EagerStatus* status) {
  if (options == nullptr || options->plugin_path == nullptr ||
      options->struct_size < PLUGRT_EagerContextOptions_STRUCT_SIZE) {
    Set(status, plugrt::InvalidArgument("PLUGRT_EagerNewContext: options with struct_size >= ",
                                        PLUGRT_EagerContextOptions_STRUCT_SIZE,
                                        " and a plugin_path are needed"));
    return nullptr;
  }
  Status policy = CheckPolicy(RawEnum(options->placement));
  if (!policy.ok()) {
    Set(status, std::move(policy));
    return nullptr;
  }
  if (options->num_int_options > 0 &&
      (options->int_option_names == nullptr || options->int_option_values == nullptr)) {
    Set(status, CheckArgs(false, "PLUGRT_EagerNewContext (int options)"));
    return nullptr;
  }
  plugrt::ClientOptions client_options;
  for (size_t i = 0; i < options->num_int_options; ++i) {
    client_options.create_options.push_back(
        {options->int_option_names[i], options->int_option_values[i]});
  }
  plugrt::eager::ContextOptions context_options;
  context_options.placement = static_cast<plugrt::eager::PlacementPolicy>(options->placement);
  context_options.async = options->async != 0;
  if (options->cache_capacity != 0) context_options.cache_capacity = options->cache_capacity;
  auto ctx = Context::Create(options->plugin_path, client_options, std::move(context_options));
  Set(status, ctx.status());
  if (!ctx.ok()) return nullptr;
  auto* result = new PLUGRT_EagerContext;
  result->ctx = std::move(ctx).value();
  result->executor.ctx = result->ctx.get();
  return result;
}

void PLUGRT_EagerDeleteContext(PLUGRT_EagerContext* ctx) {
  if (ctx == nullptr) return;
  ctx->ctx.reset();  // its custom devices' callbacks may still see `ctx`
  delete ctx;
}

int PLUGRT_EagerContextNumDevices(const PLUGRT_EagerContext* ctx) {
  return static_cast<int>(ctx->ctx->devices().size());
}
const char* PLUGRT_EagerContextDeviceName(const PLUGRT_EagerContext* ctx, int index) {
  const auto& devices = ctx->ctx->devices();
  if (index < 0 || static_cast<size_t>(index) >= devices.size()) return nullptr;
  return devices[index].name.c_str();
}
const char* PLUGRT_EagerContextDefaultDevice(const PLUGRT_EagerContext* ctx) {
  return ctx->ctx->default_device().name.c_str();
}
void PLUGRT_EagerContextSetDefaultDevice(PLUGRT_EagerContext* ctx, const char* device,
                                         PLUGRT_EagerStatus* status) {
  Set(status, device == nullptr ? CheckArgs(false, "PLUGRT_EagerContextSetDefaultDevice")
                                : ctx->ctx->SetDefaultDevice(device));
}
void PLUGRT_EagerContextSetPlacementPolicy(PLUGRT_EagerContext* ctx,
                                           PLUGRT_EagerPlacementPolicy policy,
                                           PLUGRT_EagerStatus* status) {
  Status checked = CheckPolicy(RawEnum(policy));
  if (checked.ok()) {
    ctx->ctx->set_placement_policy(static_cast<plugrt::eager::PlacementPolicy>(policy));
  }
  Set(status, std::move(checked));
}
void PLUGRT_EagerContextSetClusterSpec(PLUGRT_EagerContext* ctx, const char* spec,
                                       PLUGRT_EagerClusterUpdate mode,
                                       const PLUGRT_EagerRemoteOptions* options,
                                       PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || spec == nullptr) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerContextSetClusterSpec"));
  }
  const int raw_mode = RawEnum(mode);
  if (raw_mode != PLUGRT_EAGER_CLUSTER_RESET && raw_mode != PLUGRT_EAGER_CLUSTER_UPDATE) {
    return Set(status, plugrt::InvalidArgument(
                           "PLUGRT_EagerContextSetClusterSpec: no cluster update mode ", raw_mode,
                           " (PLUGRT_EAGER_CLUSTER_RESET or _UPDATE)"));
  }
  plugrt::eager::RemoteOptions remote;
  if (options != nullptr) {
    if (options->struct_size < PLUGRT_EagerRemoteOptions_STRUCT_SIZE) {
      return Set(status, plugrt::InvalidArgument(
                             "PLUGRT_EagerContextSetClusterSpec: options with struct_size >= ",
                             PLUGRT_EagerRemoteOptions_STRUCT_SIZE, " are needed, got ",
                             options->struct_size));
    }
    if (options->plugin != nullptr) remote.plugin = options->plugin;
    if (options->token_file != nullptr) remote.token_file = options->token_file;
    if (options->keep_alive_secs != 0) remote.keep_alive_secs = options->keep_alive_secs;
  }
  StatusOr<plugrt::eager::ClusterSpec> parsed = plugrt::eager::ParseClusterSpec(spec);
  if (!parsed.ok()) return Set(status, parsed.status());
  Set(status, ctx->ctx->SetClusterSpec(*parsed,
                                       raw_mode == PLUGRT_EAGER_CLUSTER_RESET
                                           ? plugrt::eager::ClusterUpdate::kReset
                                           : plugrt::eager::ClusterUpdate::kUpdate,
                                       remote));
}
void PLUGRT_EagerContextLoadFunctions(PLUGRT_EagerContext* ctx, const char* text,
                                      PLUGRT_EagerStatus* status) {
  Set(status, text == nullptr ? CheckArgs(false, "PLUGRT_EagerContextLoadFunctions")
                              : ctx->ctx->LoadFunctions(text));
}
void PLUGRT_EagerContextGetCacheStats(const PLUGRT_EagerContext* ctx,
                                      PLUGRT_EagerCacheStats* stats) {
  const plugrt::eager::CacheStats got = ctx->ctx->cache_stats();
  PLUGRT_EagerCacheStats full = {PLUGRT_EagerCacheStats_STRUCT_SIZE, got.hits, got.misses,
                                 got.evictions, got.entries, got.capacity};
  // A caller built against an older, smaller struct gets its part.
  const size_t size = std::min(stats->struct_size, sizeof(full));
  const size_t caller_size = stats->struct_size;
  std::memcpy(stats, &full, size);
  stats->struct_size = caller_size;
}
void PLUGRT_EagerContextClearCache(PLUGRT_EagerContext* ctx) { ctx->ctx->ClearCache(); }

PLUGRT_EagerExecutor* PLUGRT_EagerContextGetExecutor(PLUGRT_EagerContext* ctx) {
  return &ctx->executor;
}
int PLUGRT_EagerExecutorIsAsync(const PLUGRT_EagerExecutor* executor) {
  return executor->ctx->is_async() ? 1 : 0;
}
void PLUGRT_EagerExecutorSetAsync(PLUGRT_EagerExecutor* executor, int async,
                                  PLUGRT_EagerStatus* status) {
  Set(status, executor->ctx->SetAsync(async != 0));
}
void PLUGRT_EagerExecutorWait(PLUGRT_EagerExecutor* executor, PLUGRT_EagerStatus* status) {
  Set(status, executor->ctx->Wait());
}

// ---- tensor handles ------------------------------------------------------------

PLUGRT_EagerTensorHandle* PLUGRT_EagerNewTensorHandle(PLUGRT_EagerContext* ctx, const void* data,
                                                      PJRT_Buffer_Type type, const int64_t* dims,
                                                      int num_dims, const char* device,
                                                      PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || num_dims < 0 || (num_dims > 0 && dims == nullptr)) {
    Set(status, CheckArgs(false, "PLUGRT_EagerNewTensorHandle"));
    return nullptr;
  }
  return HandleOr(ctx->ctx->FromHost(data, type, Dims(dims, num_dims), OptionalName(device)),
                  status);
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerNewTensorHandleZeroCopy(
    PLUGRT_EagerContext* ctx, void* data, PJRT_Buffer_Type type, const int64_t* dims, int num_dims,
    void (*deallocator)(void* data, void* arg), void* arg, const char* device,
    PLUGRT_EagerStatus* status) {
  std::function<void()> release = [deallocator, data, arg] {
    if (deallocator != nullptr) deallocator(data, arg);
  };
  if (ctx == nullptr || num_dims < 0 || (num_dims > 0 && dims == nullptr)) {
    release();
    Set(status, CheckArgs(false, "PLUGRT_EagerNewTensorHandleZeroCopy"));
    return nullptr;
  }
  return HandleOr(ctx->ctx->FromHostZeroCopy(data, type, Dims(dims, num_dims), std::move(release),
                                             OptionalName(device)),
                  status);
}

void PLUGRT_EagerDeleteTensorHandle(PLUGRT_EagerTensorHandle* handle) { delete handle; }

PLUGRT_EagerTensorHandle* PLUGRT_EagerTensorHandleCopySharing(const PLUGRT_EagerTensorHandle* h) {
  return NewHandle(h->tensor);
}

PJRT_Buffer_Type PLUGRT_EagerTensorHandleDataType(const PLUGRT_EagerTensorHandle* h,
                                                  PLUGRT_EagerStatus* status) {
  StatusOr<PJRT_Buffer_Type> type = h->tensor.dtype();
  Set(status, type.status());
  return type.ok() ? *type : PJRT_Buffer_Type_INVALID;
}

int PLUGRT_EagerTensorHandleNumDims(const PLUGRT_EagerTensorHandle* h,
                                    PLUGRT_EagerStatus* status) {
  StatusOr<std::vector<int64_t>> dims = h->tensor.dims();
  Set(status, dims.status());
  return dims.ok() ? static_cast<int>(dims->size()) : 0;
}

int64_t PLUGRT_EagerTensorHandleDim(const PLUGRT_EagerTensorHandle* h, int index,
                                    PLUGRT_EagerStatus* status) {
  StatusOr<std::vector<int64_t>> dims = h->tensor.dims();
  if (dims.ok() && (index < 0 || static_cast<size_t>(index) >= dims->size())) {
    dims = plugrt::OutOfRange("dimension ", index, " of a rank-", dims->size(), " tensor");
  }
  Set(status, dims.status());
  return dims.ok() ? (*dims)[index] : 0;
}

size_t PLUGRT_EagerTensorHandleOnDeviceSize(const PLUGRT_EagerTensorHandle* h,
                                            PLUGRT_EagerStatus* status) {
  StatusOr<size_t> size = h->tensor.on_device_size();
  Set(status, size.status());
  return size.ok() ? *size : 0;
}

const char* PLUGRT_EagerTensorHandleDeviceName(const PLUGRT_EagerTensorHandle* h) {
  return h->tensor.device_name().c_str();
}

int PLUGRT_EagerTensorHandleIsReady(const PLUGRT_EagerTensorHandle* h) {
  return h->tensor.IsReady() ? 1 : 0;
}

void PLUGRT_EagerTensorHandleAwait(const PLUGRT_EagerTensorHandle* h, PLUGRT_EagerStatus* status) {
  Set(status, h->tensor.Await());
}

void PLUGRT_EagerTensorHandleToHost(const PLUGRT_EagerTensorHandle* h, void* dst, size_t size,
                                    PLUGRT_EagerStatus* status) {
  Set(status, h->tensor.ToHost(dst, size));
}

void PLUGRT_EagerTensorHandleToHostAsync(const PLUGRT_EagerTensorHandle* h, void* dst, size_t size,
                                         void (*done)(const PLUGRT_EagerStatus* status, void* arg),
                                         void* arg) {
  h->tensor.ToHostAsync(dst, size, [done, arg](Status s) {
    PLUGRT_EagerStatus status{std::move(s)};
    if (done != nullptr) done(&status, arg);
  });
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerTensorHandleCopyToDevice(const PLUGRT_EagerTensorHandle* h,
                                                               PLUGRT_EagerContext* ctx,
                                                               const char* device,
                                                               PLUGRT_EagerStatus* status) {
  if (device == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerTensorHandleCopyToDevice"));
    return nullptr;
  }
  return HandleOr(ctx->ctx->CopyToDevice(h->tensor, device), status);
}

size_t PLUGRT_EagerTensorHandleSummary(const PLUGRT_EagerTensorHandle* h, char* buffer,
                                       size_t size) {
  return WriteText(h->tensor.Summary(), buffer, size);
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerLoadNpy(PLUGRT_EagerContext* ctx, const char* path,
                                              const char* device, PLUGRT_EagerStatus* status) {
  if (path == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerLoadNpy"));
    return nullptr;
  }
  return HandleOr(ctx->ctx->LoadNpy(path, OptionalName(device)), status);
}

void PLUGRT_EagerSaveNpy(PLUGRT_EagerContext* ctx, const PLUGRT_EagerTensorHandle* h,
                         const char* path, PLUGRT_EagerStatus* status) {
  Set(status, path == nullptr ? CheckArgs(false, "PLUGRT_EagerSaveNpy")
                              : ctx->ctx->SaveNpy(h->tensor, path));
}

// ---- ops ------------------------------------------------------------------------

PLUGRT_EagerOp* PLUGRT_EagerNewOp(PLUGRT_EagerContext* ctx, const char* name,
                                  PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || name == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerNewOp"));
    return nullptr;
  }
  auto* op = new PLUGRT_EagerOp;
  op->owned.emplace(*ctx->ctx, name);
  op->op = &*op->owned;
  op->ctx = ctx;
  Set(status, Status());
  return op;
}

PLUGRT_EagerOp* PLUGRT_EagerNewOpLike(const PLUGRT_EagerOp* like, PLUGRT_EagerStatus* status) {
  if (like == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerNewOpLike"));
    return nullptr;
  }
  auto* op = new PLUGRT_EagerOp;
  op->owned.emplace(like->op->Fresh());
  op->op = &*op->owned;
  op->ctx = like->ctx;
  Set(status, Status());
  return op;
}

void PLUGRT_EagerDeleteOp(PLUGRT_EagerOp* op) { delete op; }

const char* PLUGRT_EagerOpGetName(const PLUGRT_EagerOp* op) { return op->op->name().c_str(); }

const char* PLUGRT_EagerOpGetDevice(const PLUGRT_EagerOp* op) {
  return op->op->device() ? op->op->device()->c_str() : "";
}

void PLUGRT_EagerOpSetDevice(PLUGRT_EagerOp* op, const char* device) {
  if (op->owned && device != nullptr) op->owned->SetDevice(device);
}

void PLUGRT_EagerOpAddInput(PLUGRT_EagerOp* op, const PLUGRT_EagerTensorHandle* input,
                            PLUGRT_EagerStatus* status) {
  if (op == nullptr || !op->owned || input == nullptr) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerOpAddInput"));
  }
  Set(status, op->owned->AddInput(input->tensor));
}

void PLUGRT_EagerOpAddInputList(PLUGRT_EagerOp* op, const PLUGRT_EagerTensorHandle* const* inputs,
                                int num_inputs, PLUGRT_EagerStatus* status) {
  if (op == nullptr || !op->owned || num_inputs < 0 || (num_inputs > 0 && inputs == nullptr)) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerOpAddInputList"));
  }
  std::vector<Tensor> tensors;
  for (int i = 0; i < num_inputs; ++i) {
    tensors.push_back(inputs[i] == nullptr ? Tensor() : inputs[i]->tensor);
  }
  Set(status, op->owned->AddInputList(tensors));
}

int PLUGRT_EagerOpNumInputGroups(const PLUGRT_EagerOp* op) {
  return static_cast<int>(op->op->num_input_groups());
}

int PLUGRT_EagerOpInputGroupSize(const PLUGRT_EagerOp* op, int group) {
  if (group < 0 || static_cast<size_t>(group) >= op->op->num_input_groups()) return -1;
  return static_cast<int>(op->op->input_group_size(static_cast<size_t>(group)));
}

int PLUGRT_EagerOpInputGroupIsList(const PLUGRT_EagerOp* op, int group) {
  if (op->op->function()) return 1;  // a function's arguments: one list
  const plugrt::eager::OpDef* def = op->op->def();
  if (def == nullptr || group < 0 || static_cast<size_t>(group) >= def->inputs.size()) return 0;
  return def->inputs[group].list ? 1 : 0;
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerOpGetInput(const PLUGRT_EagerOp* op, int group, int index,
                                                 PLUGRT_EagerStatus* status) {
  const auto& groups = op->op->input_groups();
  if (group < 0 || static_cast<size_t>(group) >= groups.size() || index < 0 ||
      static_cast<size_t>(index) >= groups[group].size()) {
    Set(status, plugrt::OutOfRange(op->op->name(), " has no input ", index, " in group ", group));
    return nullptr;
  }
  Set(status, Status());
  return NewHandle(groups[group][index]);
}

int64_t PLUGRT_EagerOpGetInputLength(const PLUGRT_EagerOp* op, const char* name,
                                     PLUGRT_EagerStatus* status) {
  StatusOr<int64_t> n = name == nullptr ? StatusOr<int64_t>(CheckArgs(false, "GetInputLength"))
                                        : op->op->InputLength(name);
  Set(status, n.status());
  return n.ok() ? *n : -1;
}

int64_t PLUGRT_EagerOpGetOutputLength(const PLUGRT_EagerOp* op, const char* name,
                                      PLUGRT_EagerStatus* status) {
  StatusOr<int64_t> n = name == nullptr ? StatusOr<int64_t>(CheckArgs(false, "GetOutputLength"))
                                        : op->op->OutputLength(name);
  Set(status, n.status());
  return n.ok() ? *n : -1;
}

int64_t PLUGRT_EagerOpNumOutputs(const PLUGRT_EagerOp* op, PLUGRT_EagerStatus* status) {
  StatusOr<int64_t> n = op->op->NumOutputs();
  Set(status, n.status());
  return n.ok() ? *n : -1;
}

void PLUGRT_EagerOpSetAttrInt(PLUGRT_EagerOp* op, const char* name, int64_t value,
                              PLUGRT_EagerStatus* status) {
  SetAttr(op, name, value, status);
}
void PLUGRT_EagerOpSetAttrFloat(PLUGRT_EagerOp* op, const char* name, double value,
                                PLUGRT_EagerStatus* status) {
  SetAttr(op, name, value, status);
}
void PLUGRT_EagerOpSetAttrBool(PLUGRT_EagerOp* op, const char* name, int value,
                               PLUGRT_EagerStatus* status) {
  SetAttr(op, name, value != 0, status);
}
void PLUGRT_EagerOpSetAttrString(PLUGRT_EagerOp* op, const char* name, const char* value,
                                 size_t length, PLUGRT_EagerStatus* status) {
  if (value == nullptr && length > 0) return Set(status, CheckArgs(false, "SetAttrString"));
  SetAttr(op, name, std::string(value == nullptr ? "" : value, length), status);
}
void PLUGRT_EagerOpSetAttrType(PLUGRT_EagerOp* op, const char* name, PJRT_Buffer_Type value,
                               PLUGRT_EagerStatus* status) {
  SetAttr(op, name, value, status);
}
void PLUGRT_EagerOpSetAttrShape(PLUGRT_EagerOp* op, const char* name, const int64_t* dims,
                                int num_dims, PLUGRT_EagerStatus* status) {
  SetAttr(op, name, plugrt::eager::Shape{Dims(dims, num_dims)}, status);
}
void PLUGRT_EagerOpSetAttrIntList(PLUGRT_EagerOp* op, const char* name, const int64_t* values,
                                  int num_values, PLUGRT_EagerStatus* status) {
  SetAttr(op, name, List<int64_t>(values, num_values), status);
}
void PLUGRT_EagerOpSetAttrFloatList(PLUGRT_EagerOp* op, const char* name, const double* values,
                                    int num_values, PLUGRT_EagerStatus* status) {
  SetAttr(op, name, List<double>(values, num_values), status);
}
void PLUGRT_EagerOpSetAttrBoolList(PLUGRT_EagerOp* op, const char* name,
                                   const unsigned char* values, int num_values,
                                   PLUGRT_EagerStatus* status) {
  std::vector<bool> list;
  for (int i = 0; values != nullptr && i < num_values; ++i) list.push_back(values[i] != 0);
  SetAttr(op, name, std::move(list), status);
}
void PLUGRT_EagerOpSetAttrStringList(PLUGRT_EagerOp* op, const char* name,
                                     const char* const* values, const size_t* lengths,
                                     int num_values, PLUGRT_EagerStatus* status) {
  if (num_values > 0 && (values == nullptr || lengths == nullptr)) {
    return Set(status, CheckArgs(false, "SetAttrStringList"));
  }
  std::vector<std::string> list;
  for (int i = 0; i < num_values; ++i) list.emplace_back(values[i], lengths[i]);
  SetAttr(op, name, std::move(list), status);
}
void PLUGRT_EagerOpSetAttrTypeList(PLUGRT_EagerOp* op, const char* name,
                                   const PJRT_Buffer_Type* values, int num_values,
                                   PLUGRT_EagerStatus* status) {
  SetAttr(op, name, List<PJRT_Buffer_Type>(values, num_values), status);
}
void PLUGRT_EagerOpSetAttrShapeList(PLUGRT_EagerOp* op, const char* name,
                                    const int64_t* const* dims, const int* num_dims,
                                    int num_values, PLUGRT_EagerStatus* status) {
  if (num_values > 0 && (dims == nullptr || num_dims == nullptr)) {
    return Set(status, CheckArgs(false, "SetAttrShapeList"));
  }
  std::vector<plugrt::eager::Shape> list;
  for (int i = 0; i < num_values; ++i) list.push_back({Dims(dims[i], num_dims[i])});
  SetAttr(op, name, std::move(list), status);
}
void PLUGRT_EagerOpSetAttrTensor(PLUGRT_EagerOp* op, const char* name, PJRT_Buffer_Type type,
                                 const int64_t* dims, int num_dims, const void* data, size_t size,
                                 PLUGRT_EagerStatus* status) {
  if (data == nullptr && size > 0) return Set(status, CheckArgs(false, "SetAttrTensor"));
  const auto* bytes = static_cast<const std::byte*>(data);
  plugrt::eager::DenseTensor dense{{type, Dims(dims, num_dims)},
                                   std::vector<std::byte>(bytes, bytes + size)};
  SetAttr(op, name, std::move(dense), status);
}
void PLUGRT_EagerOpSetAttrFunction(PLUGRT_EagerOp* op, const char* name, const char* function,
                                   PLUGRT_EagerStatus* status) {
  if (function == nullptr) return Set(status, CheckArgs(false, "SetAttrFunction"));
  SetAttr(op, name, plugrt::eager::FunctionRef{function}, status);
}
void PLUGRT_EagerOpSetAttrReducer(PLUGRT_EagerOp* op, const char* name,
                                  PLUGRT_EagerReducer reducer, PLUGRT_EagerStatus* status) {
  const int raw = RawEnum(reducer);
  if (raw < PLUGRT_EAGER_REDUCER_ADD || raw > PLUGRT_EAGER_REDUCER_OR) {
    return Set(status, plugrt::InvalidArgument("no built-in reducer ", raw));
  }
  SetAttr(op, name, static_cast<plugrt::eager::Reducer>(reducer), status);
}

int PLUGRT_EagerOpNumAttrs(const PLUGRT_EagerOp* op) {
  return static_cast<int>(op->op->attrs().size());
}

const char* PLUGRT_EagerOpAttrName(const PLUGRT_EagerOp* op, int index) {
  const plugrt::eager::AttrMap& attrs = op->op->attrs();
  if (index < 0 || static_cast<size_t>(index) >= attrs.size()) return nullptr;
  return std::next(attrs.begin(), index)->first.c_str();
}

const char* PLUGRT_EagerOpAttrKind(const PLUGRT_EagerOp* op, const char* name,
                                   PLUGRT_EagerStatus* status) {
  const plugrt::eager::AttrMap& attrs = op->op->attrs();
  auto it = name == nullptr ? attrs.end() : attrs.find(std::string_view(name));
  if (it == attrs.end()) {
    Set(status, plugrt::NotFound(op->op->name(), " has no attribute '",
                                 name == nullptr ? "(null)" : name, "'"));
    return nullptr;
  }
  Set(status, Status());
  return plugrt::eager::AttrKindName(it->second).data();  // a literal: NUL-terminated
}

int64_t PLUGRT_EagerOpGetAttrInt(const PLUGRT_EagerOp* op, const char* name,
                                 PLUGRT_EagerStatus* status) {
  return ReadAttr<int64_t>(op, name, status, 0,
                           [](const auto& r, std::string_view n) { return r.Int(n); });
}

double PLUGRT_EagerOpGetAttrFloat(const PLUGRT_EagerOp* op, const char* name,
                                  PLUGRT_EagerStatus* status) {
  return ReadAttr<double>(op, name, status, 0.0,
                          [](const auto& r, std::string_view n) { return r.Float(n); });
}

int PLUGRT_EagerOpGetAttrBool(const PLUGRT_EagerOp* op, const char* name,
                              PLUGRT_EagerStatus* status) {
  return ReadAttr<int>(op, name, status, 0,
                       [](const auto& r, std::string_view n) { return r.Bool(n); });
}

PJRT_Buffer_Type PLUGRT_EagerOpGetAttrType(const PLUGRT_EagerOp* op, const char* name,
                                           PLUGRT_EagerStatus* status) {
  return ReadAttr<PJRT_Buffer_Type>(
      op, name, status, PJRT_Buffer_Type_INVALID,
      [](const auto& r, std::string_view n) { return r.ElementType(n); });
}

size_t PLUGRT_EagerOpGetAttrString(const PLUGRT_EagerOp* op, const char* name, char* buffer,
                                   size_t size, PLUGRT_EagerStatus* status) {
  const std::string text = ReadAttr<std::string>(
      op, name, status, std::string(),
      [](const auto& r, std::string_view n) { return r.String(n); });
  return WriteText(text, buffer, size);
}

int PLUGRT_EagerOpGetAttrIntList(const PLUGRT_EagerOp* op, const char* name, int64_t* values,
                                 int capacity, PLUGRT_EagerStatus* status) {
  const std::vector<int64_t> list = ReadAttr<std::vector<int64_t>>(
      op, name, status, std::vector<int64_t>(),
      [](const auto& r, std::string_view n) { return r.Ints(n); });
  for (int i = 0; values != nullptr && i < capacity && static_cast<size_t>(i) < list.size(); ++i) {
    values[i] = list[i];
  }
  return static_cast<int>(list.size());
}

size_t PLUGRT_EagerOpAttrSummary(const PLUGRT_EagerOp* op, const char* name, char* buffer,
                                 size_t size, PLUGRT_EagerStatus* status) {
  const plugrt::eager::AttrMap& attrs = op->op->attrs();
  auto it = name == nullptr ? attrs.end() : attrs.find(std::string_view(name));
  if (it == attrs.end()) {
    Set(status, plugrt::NotFound(op->op->name(), " has no attribute '",
                                 name == nullptr ? "(null)" : name, "'"));
    return WriteText("", buffer, size);
  }
  Set(status, Status());
  return WriteText(plugrt::eager::AttrValueSummary(it->second), buffer, size);
}

void PLUGRT_EagerExecute(PLUGRT_EagerOp* op, PLUGRT_EagerTensorHandle** outputs, int* num_outputs,
                         PLUGRT_EagerStatus* status) {
  if (op == nullptr || !op->owned || num_outputs == nullptr ||
      (*num_outputs > 0 && outputs == nullptr)) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerExecute"));
  }
  StatusOr<int64_t> count = op->op->NumOutputs();
  if (count.ok() && *count > *num_outputs) {
    count = plugrt::InvalidArgument(op->op->name(), " has ", *count, " outputs; room for ",
                                    *num_outputs);
  }
  StatusOr<std::vector<Tensor>> results =
      count.ok() ? op->owned->Execute() : StatusOr<std::vector<Tensor>>(count.status());
  Set(status, results.status());
  if (!results.ok()) {
    *num_outputs = 0;
    return;
  }
  *num_outputs = static_cast<int>(results->size());
  for (size_t i = 0; i < results->size(); ++i) outputs[i] = NewHandle((*results)[i]);
}

// ---- custom devices --------------------------------------------------------

PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterCustomDevice(
    PLUGRT_EagerContext* ctx, const char* name, const PLUGRT_EagerCustomDeviceCallbacks* callbacks,
    PLUGRT_EagerStatus* status) {
  Status checked = CheckCallbacks(callbacks);
  if (checked.ok() && (ctx == nullptr || name == nullptr)) {
    checked = CheckArgs(false, "PLUGRT_EagerRegisterCustomDevice");
  }
  if (!checked.ok()) {
    // The device's state is released however registration ends.
    if (callbacks != nullptr &&
        callbacks->struct_size >= PLUGRT_EagerCustomDeviceCallbacks_MIN_STRUCT_SIZE &&
        callbacks->delete_device != nullptr) {
      callbacks->delete_device(callbacks->device_info);
    }
    Set(status, checked);
    return nullptr;
  }
  PLUGRT_EagerCustomDeviceCallbacks full = {};
  std::memcpy(&full, callbacks, std::min(callbacks->struct_size, sizeof(full)));
  // Destroying the adapter (also when registration fails) deletes the device.
  Status registered = ctx->ctx->RegisterCustomDevice(
      name, std::make_unique<CallbackDevice>(ctx, name, full));
  Set(status, registered);
  return registered.ok() ? Remember(ctx, name) : nullptr;
}

const char* PLUGRT_EagerCustomDeviceName(const PLUGRT_EagerCustomDevice* device) {
  return device->name.c_str();
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerNewCustomTensorHandle(
    PLUGRT_EagerContext* ctx, const char* device, PJRT_Buffer_Type type, void* data,
    const PLUGRT_EagerCustomTensorMethods* methods, PLUGRT_EagerStatus* status) {
  if (methods == nullptr || methods->struct_size < PLUGRT_EagerCustomTensorMethods_STRUCT_SIZE ||
      methods->num_dims == nullptr || methods->dim == nullptr || ctx == nullptr ||
      device == nullptr) {
    if (methods != nullptr && methods->struct_size >= PLUGRT_EagerCustomTensorMethods_STRUCT_SIZE &&
        methods->deallocator != nullptr) {
      methods->deallocator(data);
    }
    Set(status, plugrt::InvalidArgument(
                    "PLUGRT_EagerNewCustomTensorHandle: needs a context, a device name and "
                    "methods with struct_size >= ",
                    PLUGRT_EagerCustomTensorMethods_STRUCT_SIZE, ", num_dims and dim"));
    return nullptr;
  }
  return HandleOr(
      ctx->ctx->NewCustomTensor(device, type, std::make_unique<CallbackTensor>(data, *methods)),
      status);
}

void* PLUGRT_EagerTensorHandleCustomData(const PLUGRT_EagerTensorHandle* h) {
  const auto* custom = dynamic_cast<const CallbackTensor*>(h->tensor.custom_data());
  return custom == nullptr ? nullptr : custom->data();
}

PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterLoggingDevice(PLUGRT_EagerContext* ctx,
                                                            const char* name, const char* target,
                                                            PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || name == nullptr || target == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerRegisterLoggingDevice"));
    return nullptr;
  }
  Status registered = plugrt::eager::RegisterLoggingDevice(*ctx->ctx, name, target).status();
  Set(status, registered);
  return registered.ok() ? Remember(ctx, name) : nullptr;
}

int PLUGRT_EagerLoggingDeviceNumOps(const PLUGRT_EagerCustomDevice* device) {
  const auto* logging = dynamic_cast<const plugrt::eager::LoggingDevice*>(device->device);
  return logging == nullptr ? -1 : static_cast<int>(logging->log().size());
}

const char* PLUGRT_EagerLoggingDeviceOpName(PLUGRT_EagerCustomDevice* device, int index) {
  const auto* logging = dynamic_cast<const plugrt::eager::LoggingDevice*>(device->device);
  if (logging == nullptr) return nullptr;
  const std::vector<plugrt::eager::LoggedOp> log = logging->log();
  if (index < 0 || static_cast<size_t>(index) >= log.size()) return nullptr;
  device->last = log[index].op;
  return device->last.c_str();
}

// ---- the parallel device -----------------------------------------------------

PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterParallelDevice(PLUGRT_EagerContext* ctx,
                                                             const char* name,
                                                             const char* const* components,
                                                             int num_components,
                                                             PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || name == nullptr || num_components < 0 ||
      (num_components > 0 && components == nullptr)) {
    Set(status, CheckArgs(false, "PLUGRT_EagerRegisterParallelDevice"));
    return nullptr;
  }
  std::vector<std::string> names(components, components + num_components);
  Status registered =
      plugrt::eager::RegisterParallelDevice(*ctx->ctx, name, std::move(names)).status();
  Set(status, registered);
  return registered.ok() ? Remember(ctx, name) : nullptr;
}

PLUGRT_EagerTensorHandle* PLUGRT_EagerPack(PLUGRT_EagerContext* ctx,
                                           const PLUGRT_EagerTensorHandle* const* tensors,
                                           int num_tensors, const char* device,
                                           PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || device == nullptr || num_tensors < 0 ||
      (num_tensors > 0 && tensors == nullptr)) {
    Set(status, CheckArgs(false, "PLUGRT_EagerPack"));
    return nullptr;
  }
  std::vector<Tensor> list;
  for (int i = 0; i < num_tensors; ++i) {
    list.push_back(tensors[i] == nullptr ? Tensor() : tensors[i]->tensor);
  }
  return HandleOr(ctx->ctx->Pack(list, device), status);
}

void PLUGRT_EagerUnpack(const PLUGRT_EagerTensorHandle* h, PLUGRT_EagerTensorHandle** components,
                        int* num_components, PLUGRT_EagerStatus* status) {
  if (h == nullptr || num_components == nullptr ||
      (*num_components > 0 && components == nullptr)) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerUnpack"));
  }
  StatusOr<std::vector<Tensor>> parts = plugrt::eager::UnpackParallel(h->tensor);
  if (parts.ok() && parts->size() > static_cast<size_t>(*num_components)) {
    parts = plugrt::InvalidArgument("the parallel tensor has ", parts->size(),
                                    " components; room for ", *num_components);
  }
  Set(status, parts.status());
  if (!parts.ok()) {
    *num_components = 0;
    return;
  }
  *num_components = static_cast<int>(parts->size());
  for (size_t i = 0; i < parts->size(); ++i) components[i] = NewHandle((*parts)[i]);
}

PLUGRT_EagerVariable* PLUGRT_EagerNewVariable(const char* name,
                                              const PLUGRT_EagerTensorHandle* initial,
                                              int trainable, PLUGRT_EagerStatus* status) {
  if (name == nullptr || initial == nullptr) {
    Set(status, CheckArgs(false, "PLUGRT_EagerNewVariable"));
    return nullptr;
  }
  StatusOr<plugrt::eager::Variable> variable =
      plugrt::eager::Variable::Create(name, initial->tensor, trainable != 0);
  Set(status, variable.status());
  return variable.ok() ? new PLUGRT_EagerVariable{std::move(variable).value()} : nullptr;
}

void PLUGRT_EagerDeleteVariable(PLUGRT_EagerVariable* variable) { delete variable; }

PLUGRT_EagerTensorHandle* PLUGRT_EagerVariableValue(const PLUGRT_EagerVariable* variable) {
  return variable == nullptr ? nullptr : NewHandle(variable->variable.Value());
}

void PLUGRT_EagerVariableAssign(PLUGRT_EagerVariable* variable,
                                const PLUGRT_EagerTensorHandle* value,
                                PLUGRT_EagerStatus* status) {
  if (variable == nullptr || value == nullptr) {
    return Set(status, CheckArgs(false, "PLUGRT_EagerVariableAssign"));
  }
  Set(status, variable->variable.Assign(value->tensor));
}

}  // extern "C"
