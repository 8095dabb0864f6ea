// plugrt: Status and StatusOr, the error currency of every C++ layer.
//
// Codes mirror PJRT_Error_Code one to one so that errors cross the C ABI in
// both directions without translation tables.
#ifndef PLUGRT_COMMON_STATUS_H_
#define PLUGRT_COMMON_STATUS_H_

#include <cassert>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace plugrt {

enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

// "INVALID_ARGUMENT" etc.; "UNKNOWN_CODE" for values outside the enum.
std::string_view StatusCodeName(StatusCode code);

// Concatenates anything that streams into std::ostream.
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

// An OK status is one null pointer: it is made, moved, tested and destroyed
// on every call of every layer (a PJRT call passes through several), so only
// an error pays for its code and message.
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message)
      : rep_(code == StatusCode::kOk ? nullptr : new Rep{code, std::move(message)}) {}
  Status(const Status& other) : rep_(other.rep_ ? new Rep(*other.rep_) : nullptr) {}
  Status(Status&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    std::swap(rep_, other.rep_);
    return *this;
  }
  ~Status() { delete rep_; }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  const std::string& message() const { return rep_ ? rep_->message : EmptyMessage(); }
  // "INVALID_ARGUMENT: message", or "OK".
  std::string ToString() const;
  // Marks a status as deliberately unchecked.
  void IgnoreError() const {}

  friend bool operator==(const Status& a, const Status& b) {
    return a.code() == b.code() && a.message() == b.message();
  }

 private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  static const std::string& EmptyMessage();

  Rep* rep_ = nullptr;
};

inline Status OkStatus() { return Status(); }

template <typename... Args>
Status MakeError(StatusCode code, const Args&... args) {
  return Status(code, StrCat(args...));
}
template <typename... Args>
Status InvalidArgument(const Args&... args) {
  return MakeError(StatusCode::kInvalidArgument, args...);
}
template <typename... Args>
Status Unimplemented(const Args&... args) {
  return MakeError(StatusCode::kUnimplemented, args...);
}
template <typename... Args>
Status NotFound(const Args&... args) {
  return MakeError(StatusCode::kNotFound, args...);
}
template <typename... Args>
Status FailedPrecondition(const Args&... args) {
  return MakeError(StatusCode::kFailedPrecondition, args...);
}
template <typename... Args>
Status Internal(const Args&... args) {
  return MakeError(StatusCode::kInternal, args...);
}
template <typename... Args>
Status OutOfRange(const Args&... args) {
  return MakeError(StatusCode::kOutOfRange, args...);
}
template <typename... Args>
Status ResourceExhausted(const Args&... args) {
  return MakeError(StatusCode::kResourceExhausted, args...);
}
template <typename... Args>
Status Cancelled(const Args&... args) {
  return MakeError(StatusCode::kCancelled, args...);
}

// Holds either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(const Status& status) : rep_(status) {  // NOLINT: implicit by design
    if (status.ok()) rep_ = Status(StatusCode::kInternal, "StatusOr built from an OK status");
  }
  StatusOr(Status&& status) : rep_(std::move(status)) {  // NOLINT
    if (std::get<0>(rep_).ok())
      rep_ = Status(StatusCode::kInternal, "StatusOr built from an OK status");
  }
  StatusOr(const T& value) : rep_(std::in_place_index<1>, value) {}  // NOLINT
  StatusOr(T&& value) : rep_(std::in_place_index<1>, std::move(value)) {}  // NOLINT
  template <typename U,
            typename = std::enable_if_t<std::is_convertible_v<U&&, T> &&
                                        !std::is_same_v<std::decay_t<U>, T> &&
                                        !std::is_same_v<std::decay_t<U>, Status>>>
  StatusOr(U&& value) : rep_(std::in_place_index<1>, T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return rep_.index() == 1; }
  Status status() const { return ok() ? OkStatus() : std::get<0>(rep_); }

  T& value() & {
    assert(ok());
    return std::get<1>(rep_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<1>(rep_);
  }
  T&& value() && {
    assert(ok());
    return std::get<1>(std::move(rep_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> rep_;
};

}  // namespace plugrt

#define PLUGRT_CONCAT_INNER_(a, b) a##b
#define PLUGRT_CONCAT_(a, b) PLUGRT_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define PLUGRT_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::plugrt::Status plugrt_status_ = (expr);        \
    if (!plugrt_status_.ok()) return plugrt_status_; \
  } while (0)

// `lhs = value of expr` (a StatusOr), or returns its error.
#define PLUGRT_ASSIGN_OR_RETURN(lhs, expr) \
  PLUGRT_ASSIGN_OR_RETURN_IMPL_(PLUGRT_CONCAT_(plugrt_statusor_, __LINE__), lhs, expr)
#define PLUGRT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#endif  // PLUGRT_COMMON_STATUS_H_
