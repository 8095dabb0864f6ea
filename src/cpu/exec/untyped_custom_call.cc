#include "cpu/exec/untyped_custom_call.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "common/plugin_library.h"
#include "cpu/exec/plugin_custom_call.h"
#include "kernels_abi/xla_custom_call_status.h"

namespace plugrt::cpu {
namespace {

using OriginalFn = void (*)(void* out, const void** in);
using StatusReturningFn = void (*)(void* out, const void** in, XlaCustomCallStatus* status);
using UnifiedFn = void (*)(void* out, const void** in, const char* opaque, size_t opaque_len,
                           XlaCustomCallStatus* status);

class UntypedCustomCallOp final : public CompiledOp {
 public:
  UntypedCustomCallOp(std::string where, std::string target, void* fn, int api_version,
                      std::string opaque, std::vector<shlo::Type> operand_types,
                      std::vector<shlo::Type> result_types, std::shared_ptr<const void> keep_alive)
      : where_(std::move(where)),
        target_(std::move(target)),
        fn_(fn),
        api_version_(api_version),
        opaque_(std::move(opaque)),
        operand_types_(std::move(operand_types)),
        result_types_(std::move(result_types)),
        keep_alive_(std::move(keep_alive)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext&) const override {
    if (operands.size() != operand_types_.size()) {
      return InvalidArgument(where_, ": expected ", operand_types_.size(), " operands, got ",
                             operands.size());
    }
    std::vector<const void*> in(operands.size());
    for (size_t i = 0; i < operands.size(); ++i) {
      const RtValue& value = operands[i];
      if (value.kind != RtValue::Kind::kTensor ||
          value.tensor.type() != operand_types_[i].element_type()) {
        return InvalidArgument(where_, ": operand ", i, " is not a tensor of ",
                               shlo::ElementTypeName(operand_types_[i].element_type()));
      }
      in[i] = value.tensor.data();
    }
    std::vector<RtValue> results;
    results.reserve(result_types_.size());
    std::vector<void*> out(result_types_.size());
    for (size_t i = 0; i < result_types_.size(); ++i) {
      results.push_back(RtValue::Of(Tensor(result_types_[i].element_type(),
                                           result_types_[i].dims())));
      out[i] = results.back().tensor.MutableData();
    }
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
      return Internal(where_, ": custom call '", target_, "' ", CurrentExceptionText());
    }
    if (status.failure.has_value()) {
      return Internal(where_, ": custom call '", target_, "' failed: ", *status.failure);
    }
    return results;
  }

 private:
  std::string where_;
  std::string target_;
  void* fn_;
  int api_version_;
  std::string opaque_;
  std::vector<shlo::Type> operand_types_;
  std::vector<shlo::Type> result_types_;
  std::shared_ptr<const void> keep_alive_;
};

// UNIMPLEMENTED naming the op when `type` is not a tensor of static shape:
// the function gets bare pointers and knows the shapes only from its code.
Status CheckUntypedType(const shlo::Operation& op, std::string_view target, const char* what,
                        size_t index, const shlo::Type& type, bool) {
  if (!type.is_tensor() || !type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target, "' (an untyped XLA custom call): ",
                          what, " ", index, " is ", type.ToString(),
                          "; untyped custom calls take tensors of static shape"));
  }
  return OkStatus();
}

}  // namespace

int CustomCallApiVersion(const shlo::Operation& op) {
  const shlo::Attribute* attr = op.attribute("api_version");
  if (attr == nullptr) return 1;
  if (attr->kind == shlo::Attribute::Kind::kInteger) return static_cast<int>(attr->int_value);
  if (attr->kind == shlo::Attribute::Kind::kEnum) {
    static constexpr std::string_view kNames[] = {
        "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
    auto it = std::find(std::begin(kNames), std::end(kNames), attr->enum_value);
    if (it != std::end(kNames)) return static_cast<int>(it - std::begin(kNames));
  }
  return -1;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileUntypedCustomCall(
    const shlo::Operation& op, std::string_view target, void* fn, int api_version,
    std::shared_ptr<const void> keep_alive) {
  if (api_version < 1 || api_version > 3) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("custom call target '", target,
                          "' is an untyped XLA custom call; call it with api_version 1, 2 or 3 "
                          "(got ", api_version, ")"));
  }
  std::vector<shlo::Type> operand_types, result_types;
  PLUGRT_RETURN_IF_ERROR(
      CustomCallTypes(op, target, &CheckUntypedType, &operand_types, &result_types));
  std::string opaque;
  if (const shlo::Attribute* config = op.attribute("backend_config")) {
    if (config->kind != shlo::Attribute::Kind::kString) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("custom call target '", target,
                            "': an untyped custom call's backend_config is a string"));
    }
    opaque = config->str;
  }
  return std::unique_ptr<CompiledOp>(new UntypedCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name), std::string(target), fn, api_version,
      std::move(opaque), std::move(operand_types), std::move(result_types),
      std::move(keep_alive)));
}

}  // namespace plugrt::cpu
