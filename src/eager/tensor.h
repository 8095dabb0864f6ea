// plugrt eager: Tensor, a shared handle to a device buffer that an eager op
// produced (or will produce, under the async executor) or that was made from
// host memory, or a tensor on a custom device (custom_device.h), whose data
// that device keeps. Copies of a Tensor share the buffer; the buffer is freed
// with the last copy.
#ifndef PLUGRT_EAGER_TENSOR_H_
#define PLUGRT_EAGER_TENSOR_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/buffer.h"
#include "client/device.h"
#include "common/status.h"
#include "eager/custom_tensor.h"
#include "eager/task_lease.h"
#include "eager/tensor_type.h"
#include "pjrt_c_api.h"

namespace plugrt::eager {

class Tensor;

namespace internal {

// Copies a custom device's tensor to a physical device (the context's
// default), for host reads of it.
using CopyOff = std::function<StatusOr<Tensor>(const Tensor&)>;

// A tensor's state: pending until the op making it has run, then either
// resolved to a buffer or poisoned with the error that kept it from being
// made. The device is fixed at creation (placement happens before running).
class TensorState {
 public:
  // `lease`: the remote task's (task_lease.h) for a device of a cluster
  // task; null for the context's own devices.
  TensorState(Device device, std::string device_name,
              std::shared_ptr<const TaskLease> lease = nullptr)
      : device_(device), device_name_(std::move(device_name)), lease_(std::move(lease)) {}
  // A tensor on a custom device: resolved at once, its data kept by `data`
  // (destroyed with the state: the deallocation).
  TensorState(std::string device_name, PJRT_Buffer_Type dtype,
              std::unique_ptr<CustomTensorData> data, CopyOff copy_off)
      : device_name_(std::move(device_name)),
        done_(true),
        custom_(std::move(data)),
        custom_dtype_(dtype),
        copy_off_(std::move(copy_off)) {}

  void Resolve(Buffer buffer, TensorType type);
  void Poison(Status status);
  // Blocks until resolved or poisoned; the poison, if any.
  Status WaitResolved() const;
  bool resolved() const;
  // Runs `callback` once resolved or poisoned (now, if already).
  void OnResolved(std::function<void()> callback);

  // Valid after WaitResolved() returned OK.
  const Buffer& buffer() const { return buffer_; }
  const TensorType& type() const { return type_; }
  const Device& device() const { return device_; }
  const std::string& device_name() const { return device_name_; }
  const std::shared_ptr<const TaskLease>& lease() const { return lease_; }
  // OK unless the tensor is on a remote task its context released (then
  // why, naming the device and the task).
  Status CheckHeld() const {
    if (lease_ == nullptr || !lease_->released()) return OkStatus();
    return HeldError();
  }

  // Null for a tensor of a physical device.
  CustomTensorData* custom() const { return custom_.get(); }
  PJRT_Buffer_Type custom_dtype() const { return custom_dtype_; }
  const CopyOff& copy_off() const { return copy_off_; }

  // Set once the device reported the data ready without error, so later
  // checks skip asking the plugin again.
  bool known_ready() const { return known_ready_.load(std::memory_order_acquire); }
  void set_known_ready() { known_ready_.store(true, std::memory_order_release); }

 private:
  Status HeldError() const;

  std::atomic<bool> known_ready_{false};
  const Device device_;
  const std::string device_name_;
  const std::shared_ptr<const TaskLease> lease_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  // Set (release) under mu_ once status_ or buffer_ and type_ are final, so
  // that a reader that sees it set (acquire) needs no lock.
  std::atomic<bool> done_{false};
  Status status_;
  Buffer buffer_;
  TensorType type_;
  std::vector<std::function<void()>> waiting_;
  std::unique_ptr<CustomTensorData> custom_;
  PJRT_Buffer_Type custom_dtype_ = PJRT_Buffer_Type_INVALID;
  CopyOff copy_off_;
};

}  // namespace internal

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<internal::TensorState> state) : state_(std::move(state)) {}
  explicit operator bool() const { return state_ != nullptr; }

  // Type queries wait until the op making the tensor has run; they return
  // that op's error if it failed.
  StatusOr<TensorType> type() const;
  StatusOr<PJRT_Buffer_Type> dtype() const;
  StatusOr<std::vector<int64_t>> dims() const;
  StatusOr<size_t> on_device_size() const;
  // A custom device's tensor has no physical device (a null Device).
  const Device& device() const;
  const std::string& device_name() const;
  bool is_custom() const { return state_ != nullptr && state_->custom() != nullptr; }
  // What the custom device keeps for it; null for a physical tensor.
  CustomTensorData* custom_data() const { return state_ ? state_->custom() : nullptr; }

  // Waits until the data is on the device; the error of the op (or of an op
  // it depends on) that failed to make it.
  Status Await() const;
  // Whether Await would return without blocking.
  bool IsReady() const;

  // Dense row-major bytes (one element per byte for sub-byte types). A
  // custom device's tensor is first copied off its device (to the context's
  // default device) by that device's copy callback.
  StatusOr<std::vector<std::byte>> ToHost() const;
  Status ToHost(void* dst, size_t size) const;
  // Starts copying into `dst` (which must stay valid until `done` runs);
  // `done` runs once, on any thread, with the copy's status.
  void ToHostAsync(void* dst, size_t size, std::function<void(Status)> done) const;
  template <typename T>
  StatusOr<std::vector<T>> ToVector() const;

  // A copy of the data on `device` (blocks until this tensor is resolved).
  StatusOr<Tensor> CopyToDevice(const Device& device, std::string device_name) const;

  // "f32[2,3] on cpu:0 [1, 2, 3, 4, 5, 6]", values shortened; for messages
  // and printing (reads the data back).
  std::string Summary() const;

  const std::shared_ptr<internal::TensorState>& state() const { return state_; }

 private:
  Status Check() const;
  std::shared_ptr<internal::TensorState> state_;
};

template <typename T>
StatusOr<std::vector<T>> Tensor::ToVector() const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, ToHost());
  if (bytes.size() % sizeof(T) != 0) {
    return InvalidArgument("ToVector: ", bytes.size(), " bytes are not a whole number of ",
                           sizeof(T), "-byte elements");
  }
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_TENSOR_H_
