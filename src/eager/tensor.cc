#include "eager/tensor.h"

#include <utility>

#include "eager/value_summary.h"

namespace plugrt::eager {

namespace internal {

void TensorState::Resolve(Buffer buffer, TensorType type) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) return;
    buffer_ = std::move(buffer);
    type_ = std::move(type);
    done_.store(true, std::memory_order_release);
    waiting.swap(waiting_);
  }
  cv_.notify_all();
  for (auto& callback : waiting) callback();
}

void TensorState::Poison(Status status) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) return;
    status_ = std::move(status);
    done_.store(true, std::memory_order_release);
    waiting.swap(waiting_);
  }
  cv_.notify_all();
  for (auto& callback : waiting) callback();
}

Status TensorState::WaitResolved() const {
  if (done_.load(std::memory_order_acquire)) return status_;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return done_.load(std::memory_order_relaxed); });
  return status_;
}

Status TensorState::HeldError() const {
  Status reason = lease_->status();
  return Status(reason.code(), "the tensor on " + device_name_ + " cannot be used: " +
                                   reason.message());
}

bool TensorState::resolved() const { return done_.load(std::memory_order_acquire); }

void TensorState::OnResolved(std::function<void()> callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!done_) {
      waiting_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

}  // namespace internal

Status Tensor::Check() const {
  if (state_ == nullptr) return FailedPrecondition("the tensor handle is empty");
  PLUGRT_RETURN_IF_ERROR(state_->CheckHeld());
  return state_->WaitResolved();
}

namespace {

// The physical copy a host read of a custom device's tensor goes through.
StatusOr<Tensor> CopyOff(const Tensor& tensor) {
  const internal::CopyOff& copy = tensor.state()->copy_off();
  if (!copy) {
    return FailedPrecondition("the tensor on custom device ", tensor.device_name(),
                              " cannot be copied off it (its context is gone)");
  }
  return copy(tensor);
}

}  // namespace

StatusOr<TensorType> Tensor::type() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (const CustomTensorData* custom = state_->custom()) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, custom->Dims());
    return TensorType{state_->custom_dtype(), std::move(dims)};
  }
  return state_->type();
}

StatusOr<PJRT_Buffer_Type> Tensor::dtype() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (state_->custom()) return state_->custom_dtype();
  return state_->type().type;
}

StatusOr<std::vector<int64_t>> Tensor::dims() const {
  PLUGRT_ASSIGN_OR_RETURN(TensorType type, this->type());
  return std::move(type.dims);
}

StatusOr<size_t> Tensor::on_device_size() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (state_->custom()) {
    return Unimplemented("the tensor on custom device ", device_name(),
                         " has no buffer of its own to size");
  }
  return state_->buffer().on_device_size();
}

const Device& Tensor::device() const {
  static const Device kNone;
  return state_ == nullptr ? kNone : state_->device();
}

const std::string& Tensor::device_name() const {
  static const std::string kNone = "(none)";
  return state_ == nullptr ? kNone : state_->device_name();
}

Status Tensor::Await() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (const CustomTensorData* custom = state_->custom()) return custom->Await();
  if (state_->known_ready()) return OkStatus();
  PLUGRT_ASSIGN_OR_RETURN(Future ready, state_->buffer().ReadyFuture());
  PLUGRT_RETURN_IF_ERROR(ready.Await());
  state_->set_known_ready();
  return OkStatus();
}

bool Tensor::IsReady() const {
  if (state_ == nullptr) return true;
  if (!state_->resolved()) return false;
  if (!state_->CheckHeld().ok()) return true;  // Await fails at once
  if (const CustomTensorData* custom = state_->custom()) return custom->IsReady();
  if (state_->known_ready()) return true;
  if (!state_->WaitResolved().ok()) return true;
  StatusOr<Future> ready = state_->buffer().ReadyFuture();
  if (!ready.ok()) return true;
  StatusOr<bool> is_ready = ready->IsReady();
  return !is_ready.ok() || *is_ready;
}

StatusOr<std::vector<std::byte>> Tensor::ToHost() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (state_->custom()) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor physical, CopyOff(*this));
    return physical.ToHost();
  }
  return state_->buffer().ToHostVector();
}

Status Tensor::ToHost(void* dst, size_t size) const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (state_->custom()) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor physical, CopyOff(*this));
    return physical.ToHost(dst, size);
  }
  return state_->buffer().ToHost(dst, size);
}

void Tensor::ToHostAsync(void* dst, size_t size, std::function<void(Status)> done) const {
  if (state_ == nullptr) {
    done(FailedPrecondition("the tensor handle is empty"));
    return;
  }
  if (Status held = state_->CheckHeld(); !held.ok()) return done(std::move(held));
  if (state_->custom()) {
    // The copy off the custom device is the device's own (synchronous) call.
    StatusOr<Tensor> physical = CopyOff(*this);
    if (!physical.ok()) return done(physical.status());
    return physical->ToHostAsync(dst, size, std::move(done));
  }
  // Starts once the op making the tensor has run, without blocking here.
  state_->OnResolved([state = state_, dst, size, done = std::move(done)]() mutable {
    Status status = state->WaitResolved();
    if (!status.ok()) return done(std::move(status));
    StatusOr<Future> copy = state->buffer().ToHostAsync(dst, size);
    if (!copy.ok()) return done(copy.status());
    // The state rides along so the buffer outlives the copy.
    Status registered = copy->OnReady([state, done](Status s) { done(std::move(s)); });
    if (!registered.ok()) done(copy->Await());
  });
}

StatusOr<Tensor> Tensor::CopyToDevice(const Device& device, std::string device_name) const {
  PLUGRT_RETURN_IF_ERROR(Check());
  if (state_->custom()) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor physical, CopyOff(*this));
    if (physical.device() == device) return physical;
    return physical.CopyToDevice(device, std::move(device_name));
  }
  // A copy within one client: the same task, so the same lease.
  auto state =
      std::make_shared<internal::TensorState>(device, std::move(device_name), state_->lease());
  PLUGRT_ASSIGN_OR_RETURN(Buffer copy, state_->buffer().CopyToDevice(device));
  state->Resolve(std::move(copy), state_->type());
  return Tensor(std::move(state));
}

std::string Tensor::Summary() const {
  Status status = Check();
  if (!status.ok()) return "<tensor on " + device_name() + ": " + status.ToString() + ">";
  if (const CustomTensorData* custom = state_->custom()) {
    StatusOr<TensorType> type = this->type();
    StatusOr<std::string> value = custom->Summary();
    return (type.ok() ? ShortTypeText(*type) : "<" + type.status().ToString() + ">") + " on " +
           device_name() + " " + (value.ok() ? *value : "<" + value.status().ToString() + ">");
  }
  std::string text = ShortTypeText(state_->type()) + " on " + device_name() + " ";
  StatusOr<std::vector<std::byte>> bytes = ToHost();
  if (!bytes.ok()) return text + "<" + bytes.status().ToString() + ">";
  return text + DenseValueSummary(state_->type(), bytes->data(), bytes->size());
}

}  // namespace plugrt::eager
