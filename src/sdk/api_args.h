// plugrt SDK: the one helper every PJRT entry point runs through, and the
// table of what the SDK knows about each ABI struct.
//
// Run(args, body) enforces the ABI's struct-size compatibility rule:
//   - null args                     -> INVALID_ARGUMENT
//   - struct_size < minimum size    -> INVALID_ARGUMENT naming the struct
//   - a null handle the ABI allows (StructInfo::kNullHandle) -> success,
//     without running the body
//   - the caller's first min(struct_size, sizeof) bytes are copied into a
//     zeroed full-size local copy, so fields an older caller lacks read as
//     zero (unset); the body works on that copy;
//   - on success only those same bytes are copied back, so a newer, larger
//     struct is served and an older one is never written past its end;
//   - any exception becomes INTERNAL; nothing crosses the C ABI.
#ifndef PLUGRT_SDK_API_ARGS_H_
#define PLUGRT_SDK_API_ARGS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "common/pjrt_functions.h"
#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/handles.h"

namespace plugrt::sdk {

// kName: the struct's ABI name. kMinSize: the smallest struct_size accepted,
// i.e. the struct without fields added after it first appeared (those read as
// zero when the caller lacks them). kFunction: for *_Args, the entry's name.
// kNullHandle: for *_Args, the handle field the ABI allows to be null (the
// call then succeeds and does nothing), or nullptr.
template <typename T>
struct StructInfo;

#define PLUGRT_DEFINE_STRUCT_INFO_(T, function, min_size, null_handle) \
  template <>                                                          \
  struct StructInfo<T> {                                               \
    static constexpr const char* kName = #T;                           \
    static constexpr const char* kFunction = function;                 \
    static constexpr size_t kMinSize = (min_size);                     \
    static constexpr auto kNullHandle = null_handle;                   \
  };

// Every function's args, from the one list (common/pjrt_functions.h).
#define PLUGRT_ARGS_INFO_(Name, last_original, null_handle)                       \
  PLUGRT_DEFINE_STRUCT_INFO_(Name##_Args, #Name,                                  \
                             PLUGRT_STRUCT_SIZE_UP_TO(Name##_Args, last_original), \
                             null_handle)
PLUGRT_PJRT_FUNCTIONS(PLUGRT_ARGS_INFO_)
#undef PLUGRT_ARGS_INFO_

// Nested structs passed by pointer.
#define PLUGRT_NESTED(T) PLUGRT_DEFINE_STRUCT_INFO_(T, #T, T##_STRUCT_SIZE, nullptr)
#define PLUGRT_NESTED_UP_TO(T, last_original) \
  PLUGRT_DEFINE_STRUCT_INFO_(T, #T, PLUGRT_STRUCT_SIZE_UP_TO(T, last_original), nullptr)
PLUGRT_NESTED(PJRT_NamedValue)
PLUGRT_NESTED(PJRT_Program)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout_Tiled)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout_Strides)
// non_donatable_* (0.39), context (0.64), call_location (0.76), task and
// incarnation ids (0.78) came after launch_id.
PLUGRT_NESTED_UP_TO(PJRT_ExecuteOptions, launch_id)

// Names fields in errors: "PJRT_Buffer_Dimensions: buffer is null".
class Call {
 public:
  explicit Call(const char* fn) : fn_(fn) {}
  const char* fn() const { return fn_; }

  Status NotNull(const void* p, const char* field) const {
    if (p == nullptr) return InvalidArgument(fn_, ": ", field, " is null");
    return OkStatus();
  }
  // An array pointer may be null only when it has no elements.
  Status Array(const void* p, size_t count, const char* field) const {
    if (p == nullptr && count > 0) {
      return InvalidArgument(fn_, ": ", field, " is null but its size is ", count);
    }
    return OkStatus();
  }
  template <typename... Pieces>
  Status Invalid(const Pieces&... pieces) const {
    return InvalidArgument(fn_, ": ", pieces...);
  }

 private:
  const char* fn_;
};

// Runs `body` and turns its status, or any exception, into a PJRT_Error.
template <typename Body>
PJRT_Error* Guard(const char* fn, Body&& body) noexcept {
  try {
    return ToPjrtError(body());
  } catch (const std::bad_alloc& e) {
    return ToPjrtError(ResourceExhausted(fn, ": out of memory (", e.what(), ")"));
  } catch (const std::exception& e) {
    return ToPjrtError(Internal(fn, ": the plugin threw an exception: ", e.what()));
  } catch (...) {
    return ToPjrtError(Internal(fn, ": the plugin threw an unknown exception"));
  }
}

// The entry-point helper described at the top of this file. `body` is
// `Status(Args& args, const Call& call)`.
template <typename Args, typename Body>
PJRT_Error* Run(Args* caller_args, Body&& body) noexcept {
  using Info = StructInfo<Args>;
  return Guard(Info::kFunction, [&]() -> Status {
    if (caller_args == nullptr) return InvalidArgument(Info::kFunction, ": args is null");
    const size_t declared = caller_args->struct_size;
    if (declared < Info::kMinSize) {
      return InvalidArgument(Info::kName, ".struct_size is ", declared, ", smaller than the ",
                             Info::kMinSize, " bytes of its original fields");
    }
    Args local;
    std::memset(static_cast<void*>(&local), 0, sizeof(Args));
    const size_t known = std::min(declared, sizeof(Args));
    std::memcpy(static_cast<void*>(&local), caller_args, known);
    if constexpr (!std::is_null_pointer_v<std::remove_const_t<decltype(Info::kNullHandle)>>) {
      if (local.*Info::kNullHandle == nullptr) return OkStatus();  // the ABI allows it: a no-op
    }
    PLUGRT_RETURN_IF_ERROR(body(local, Call(Info::kFunction)));
    std::memcpy(static_cast<void*>(caller_args), &local, known);
    return OkStatus();
  });
}

// Reads a nested struct the caller passes by pointer, with the same size
// rule as Run. `field` names it in errors ("options", "create_options[3]").
template <typename T>
StatusOr<T> ReadNested(const T* p, const char* fn, const char* field) {
  using Info = StructInfo<T>;
  if (p == nullptr) return InvalidArgument(fn, ": ", field, " is null");
  const size_t declared = p->struct_size;
  if (declared < Info::kMinSize) {
    return InvalidArgument(fn, ": ", field, ": ", Info::kName, ".struct_size is ", declared,
                           ", smaller than the ", Info::kMinSize, " bytes of its original fields");
  }
  T local;
  std::memset(static_cast<void*>(&local), 0, sizeof(T));
  std::memcpy(static_cast<void*>(&local), p, std::min(declared, sizeof(T)));
  return local;
}

// The body of every slot the sdk interfaces cannot express.
template <typename Args>
PJRT_Error* NotImplemented(Args* args) noexcept {
  return Run(args, [](Args&, const Call& call) -> Status {
    return Unimplemented(call.fn(), " is not implemented by this plugin");
  });
}

// The raw value of an enum field set by a caller. C callers may store values
// outside the enum, and loading such a value as the enum type is undefined
// in C++; read the bits, check the range, then convert.
template <typename E>
int64_t RawEnum(const E& field) {
  std::underlying_type_t<E> value;
  std::memcpy(&value, &field, sizeof(value));
  return static_cast<int64_t>(value);
}

// A caller-given handle: INVALID_ARGUMENT naming `field` when null.
template <typename H>
StatusOr<H*> Handle(H* handle, const Call& call, const char* field) {
  if (handle == nullptr) return call.Invalid(field, " is null");
  return handle;
}

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_API_ARGS_H_
