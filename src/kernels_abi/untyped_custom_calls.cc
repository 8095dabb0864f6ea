#include "kernels_abi/untyped_custom_calls.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/plugin_library.h"
#include "kernels_abi/xla_custom_call_status.h"

namespace plugrt::kernels_abi {
namespace {

struct UntypedRegistry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, void*> functions;  // (platform, target)
};

UntypedRegistry& TheUntypedRegistry() {
  static UntypedRegistry* registry = new UntypedRegistry;  // never freed: programs may call at exit
  return *registry;
}

}  // namespace

Status RegisterUntypedCustomCall(std::string_view target, std::string_view platform, void* fn) {
  if (target.empty()) return InvalidArgument("custom call registration: the target name is empty");
  if (platform.empty()) {
    return InvalidArgument("custom call '", target, "': the platform name is empty");
  }
  if (fn == nullptr) return InvalidArgument("custom call '", target, "': the function is null");
  UntypedRegistry& registry = TheUntypedRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto [it, inserted] =
      registry.functions.emplace(std::make_pair(PlatformKey(platform), std::string(target)), fn);
  if (!inserted && it->second != fn) {
    return MakeError(StatusCode::kAlreadyExists, "custom call target '", target,
                     "' is already registered for platform '", platform,
                     "' with another function");
  }
  return OkStatus();
}

void* FindUntypedCustomCall(std::string_view target, std::string_view platform) {
  UntypedRegistry& registry = TheUntypedRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.functions.find(std::make_pair(PlatformKey(platform), std::string(target)));
  return it == registry.functions.end() ? nullptr : it->second;
}

namespace {

using OriginalFn = void (*)(void* out, const void** in);
using StatusReturningFn = void (*)(void* out, const void** in, XlaCustomCallStatus* status);
using UnifiedFn = void (*)(void* out, const void** in, const char* opaque, size_t opaque_len,
                           XlaCustomCallStatus* status);

class UntypedHandler final : public CustomCallHandler {
 public:
  UntypedHandler(void* fn, int api_version, std::string opaque,
                 std::shared_ptr<const void> keep_alive)
      : fn_(fn), api_version_(api_version), opaque_(std::move(opaque)),
        keep_alive_(std::move(keep_alive)) {}

  Status Call(const CustomCallFrame& frame) const override {
    std::vector<const void*> in(frame.args.size());
    for (size_t i = 0; i < frame.args.size(); ++i) in[i] = frame.args[i].data;
    std::vector<void*> out(frame.rets.size());
    for (size_t i = 0; i < frame.rets.size(); ++i) out[i] = frame.rets[i].data;
    // XLA's CPU convention: a single result is passed as its buffer, any
    // other count (a tuple result) as the array of buffers.
    void* out_arg = out.size() == 1 ? out[0] : static_cast<void*>(out.data());
    XlaCustomCallStatus status;
    try {
      switch (api_version_) {
        case 1:
          reinterpret_cast<OriginalFn>(fn_)(out_arg, in.data());
          break;
        case 2:
          reinterpret_cast<StatusReturningFn>(fn_)(out_arg, in.data(), &status);
          break;
        default:
          reinterpret_cast<UnifiedFn>(fn_)(out_arg, in.data(), opaque_.c_str(), opaque_.size(),
                                           &status);
          break;
      }
    } catch (...) {
      return Internal("custom call '", frame.target, "' ", CurrentExceptionText());
    }
    if (status.failure.has_value()) {
      return Internal("custom call '", frame.target, "' failed: ", *status.failure);
    }
    return OkStatus();
  }

 private:
  void* fn_;
  int api_version_;
  std::string opaque_;
  std::shared_ptr<const void> keep_alive_;
};

// The function gets bare pointers and knows the shapes only from its code.
Status UntypedTypeRule(std::string_view target, bool is_result, size_t index,
                       const shlo::Type& type) {
  if (!type.is_tensor() || !type.has_static_shape()) {
    return Unimplemented("custom call target '", target, "' (an untyped XLA custom call): ",
                         OperandOrResult(is_result), " ", index, " is ", type.ToString(),
                         "; untyped custom calls take tensors of static shape");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<const CustomCallHandler>> BindUntypedCustomCall(
    const shlo::Operation& op, std::string_view target, void* fn, int api_version,
    std::shared_ptr<const void> keep_alive) {
  if (api_version < 1 || api_version > 3) {
    return InvalidArgument("custom call target '", target,
                           "' is an untyped XLA custom call; call it with api_version 1, 2 or 3 "
                           "(got ", api_version, ")");
  }
  PLUGRT_RETURN_IF_ERROR(CheckCustomCallTypes(op, target, &UntypedTypeRule));
  const shlo::Attribute* config = op.attribute("backend_config");
  if (config != nullptr && config->kind != shlo::Attribute::Kind::kString) {
    return InvalidArgument("custom call target '", target,
                           "': an untyped custom call's backend_config is a string");
  }
  PLUGRT_ASSIGN_OR_RETURN(CustomCallAttributes decoded, CustomCallAttributes::FromOperation(op));
  return std::unique_ptr<const CustomCallHandler>(new UntypedHandler(
      fn, api_version, std::move(decoded.backend_config), std::move(keep_alive)));
}

}  // namespace plugrt::kernels_abi
