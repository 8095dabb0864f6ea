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
    done_ = true;
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
    done_ = true;
    waiting.swap(waiting_);
  }
  cv_.notify_all();
  for (auto& callback : waiting) callback();
}

Status TensorState::WaitResolved() const {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return done_; });
  return status_;
}

bool TensorState::resolved() const {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

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
  return state_->WaitResolved();
}

StatusOr<TensorType> Tensor::type() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  return state_->type();
}

StatusOr<PJRT_Buffer_Type> Tensor::dtype() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  return state_->type().type;
}

StatusOr<std::vector<int64_t>> Tensor::dims() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  return state_->type().dims;
}

StatusOr<size_t> Tensor::on_device_size() const {
  PLUGRT_RETURN_IF_ERROR(Check());
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
  if (state_->known_ready()) return OkStatus();
  PLUGRT_ASSIGN_OR_RETURN(Future ready, state_->buffer().ReadyFuture());
  PLUGRT_RETURN_IF_ERROR(ready.Await());
  state_->set_known_ready();
  return OkStatus();
}

bool Tensor::IsReady() const {
  if (state_ == nullptr) return true;
  if (!state_->resolved()) return false;
  if (state_->known_ready()) return true;
  if (!state_->WaitResolved().ok()) return true;
  StatusOr<Future> ready = state_->buffer().ReadyFuture();
  if (!ready.ok()) return true;
  StatusOr<bool> is_ready = ready->IsReady();
  return !is_ready.ok() || *is_ready;
}

StatusOr<std::vector<std::byte>> Tensor::ToHost() const {
  PLUGRT_RETURN_IF_ERROR(Check());
  return state_->buffer().ToHostVector();
}

Status Tensor::ToHost(void* dst, size_t size) const {
  PLUGRT_RETURN_IF_ERROR(Check());
  return state_->buffer().ToHost(dst, size);
}

void Tensor::ToHostAsync(void* dst, size_t size, std::function<void(Status)> done) const {
  if (state_ == nullptr) {
    done(FailedPrecondition("the tensor handle is empty"));
    return;
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
  auto state = std::make_shared<internal::TensorState>(device, std::move(device_name));
  PLUGRT_ASSIGN_OR_RETURN(Buffer copy, state_->buffer().CopyToDevice(device));
  state->Resolve(std::move(copy), state_->type());
  return Tensor(std::move(state));
}

std::string Tensor::Summary() const {
  Status status = Check();
  if (!status.ok()) return "<tensor on " + device_name() + ": " + status.ToString() + ">";
  std::string text = ShortTypeText(state_->type()) + " on " + device_name() + " ";
  StatusOr<std::vector<std::byte>> bytes = ToHost();
  if (!bytes.ok()) return text + "<" + bytes.status().ToString() + ">";
  return text + DenseValueSummary(state_->type(), bytes->data(), bytes->size());
}

}  // namespace plugrt::eager
