// stablehlo.custom_call to jaxlib's CPU linear-algebra targets
// (kernels_abi/lapack_targets.h names them): the call's attributes, declared
// layouts and types are read and checked once at compile time; at run time
// the operands are copied into their declared layouts (column-major
// matrices), the LAPACK kernel runs over the batch, and the results are
// copied back to the row-major tensors the backend keeps. The spellings JAX
// used before its FFI targets, and its older FFT targets, are known by name
// and refused with a message saying so.
#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "cpu/custom_calls/declared_layout.h"
#include "cpu/custom_calls/lapack_kernels.h"
#include "cpu/exec/op_registry.h"
#include "kernels_abi/lapack_targets.h"

namespace plugrt::cpu {
namespace {

using kernels_abi::LapackTarget;

class LapackCustomCallOp final : public CompiledOp {
 public:
  LapackCustomCallOp(std::string where, LapackKernel kernel, LapackAttrs attrs,
                     std::vector<shlo::Type> operand_types, std::vector<shlo::Type> result_types,
                     std::vector<std::vector<int64_t>> operand_layouts,
                     std::vector<std::vector<int64_t>> result_layouts)
      : where_(std::move(where)),
        kernel_(kernel),
        attrs_(attrs),
        operand_types_(std::move(operand_types)),
        result_types_(std::move(result_types)),
        operand_layouts_(std::move(operand_layouts)),
        result_layouts_(std::move(result_layouts)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& /*context*/) const override {
    if (operands.size() != operand_types_.size()) {
      return InvalidArgument(where_, ": expected ", operand_types_.size(), " operands, got ",
                             operands.size());
    }
    std::vector<Tensor> declared;
    declared.reserve(operands.size());
    for (size_t i = 0; i < operands.size(); ++i) {
      const RtValue& v = operands[i];
      if (v.kind != RtValue::Kind::kTensor || v.tensor.type() != operand_types_[i].element_type() ||
          v.tensor.dims() != operand_types_[i].dims()) {
        return InvalidArgument(where_, ": operand ", i, " is not a ",
                               operand_types_[i].ToString());
      }
      // Always a copy: the kernels compute in place.
      declared.push_back(ToDeclaredLayout(v.tensor, operand_layouts_[i]));
    }
    std::vector<Tensor> results;
    results.reserve(result_types_.size());
    for (const shlo::Type& t : result_types_) results.emplace_back(t.element_type(), t.dims());
    PLUGRT_RETURN_IF_ERROR(kernel_(attrs_, declared, results));
    std::vector<RtValue> out;
    out.reserve(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      const std::vector<int64_t>& layout = result_layouts_[i];
      out.push_back(RtValue::Of(IsRowMajorOrder(layout) ? std::move(results[i])
                                                        : FromDeclaredLayout(results[i], layout)));
    }
    return out;
  }

 private:
  std::string where_;
  LapackKernel kernel_;
  LapackAttrs attrs_;
  std::vector<shlo::Type> operand_types_;
  std::vector<shlo::Type> result_types_;
  std::vector<std::vector<int64_t>> operand_layouts_;
  std::vector<std::vector<int64_t>> result_layouts_;
};

// The integers of one layout: dense<[1, 2, 0]> : tensor<3xindex>, which the
// IR keeps as text (index is no element type of the runtime), or any integer
// list.
StatusOr<std::vector<int64_t>> LayoutFromAttr(const shlo::Attribute& attr) {
  if (attr.kind != shlo::Attribute::Kind::kDenseElements || attr.dense != nullptr ||
      attr.type.kind() != shlo::Type::Kind::kUnsupported) {
    return shlo::AttrToIntList(attr);
  }
  std::vector<int64_t> values;
  std::string_view text = attr.str;
  if (!text.empty() && text.front() == '[') text.remove_prefix(1);
  if (!text.empty() && text.back() == ']') text.remove_suffix(1);
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || ptr != item.data() + item.size()) {
      return InvalidArgument("expected a list of integers, found ", attr.ToString());
    }
    values.push_back(v);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return values;
}

// The minor_to_major of each value from `attr` (operand_layouts or
// result_layouts); row-major for every value when the call declares none.
StatusOr<std::vector<std::vector<int64_t>>> DeclaredLayouts(const shlo::Operation& op,
                                                            std::string_view attr_name,
                                                            const std::vector<shlo::Type>& types) {
  std::vector<std::vector<int64_t>> layouts;
  const shlo::Attribute* attr = op.attribute(attr_name);
  if (attr == nullptr) {
    for (const shlo::Type& t : types) layouts.push_back(RowMajorOrder(t.dims().size()));
    return layouts;
  }
  if (attr->kind != shlo::Attribute::Kind::kArray || attr->elements.size() != types.size()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat(attr_name, " must list one layout per value (", types.size(), ")"));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    StatusOr<std::vector<int64_t>> order = LayoutFromAttr(attr->elements[i]);
    if (!order.ok() || !IsDimensionOrder(*order, types[i].dims().size())) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(attr_name, "[", i, "] must be a permutation of the dimensions of ",
                            types[i].ToString(), ", got ", attr->elements[i].ToString()));
    }
    layouts.push_back(std::move(*order));
  }
  return layouts;
}

// The dictionary of jaxlib's attributes: mhlo.backend_config as JAX writes
// it, or backend_config where a reader moved it there.
const shlo::Attribute* BackendConfig(const shlo::Operation& op) {
  for (std::string_view name : {"mhlo.backend_config", "backend_config"}) {
    const shlo::Attribute* attr = op.attribute(name);
    if (attr != nullptr && attr->kind == shlo::Attribute::Kind::kDictionary) return attr;
  }
  return nullptr;
}

StatusOr<LapackAttrs> ReadAttrs(const shlo::Operation& op, std::string_view target,
                                kernels_abi::LapackFamily family) {
  LapackAttrs attrs;
  const shlo::Attribute* config = BackendConfig(op);
  for (std::string_view name : LapackAttrNames(family)) {
    const shlo::Attribute* attr = config == nullptr ? nullptr : config->field(name);
    if (attr == nullptr) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, " needs the attribute '", name, "' in mhlo.backend_config"));
    }
    StatusOr<int64_t> value = shlo::AttrToInt(*attr);
    if (!value.ok()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, ": attribute '", name, "' must be an integer, got ",
                            attr->ToString()));
    }
    if (name == "low" || name == "high") {
      (name == "low" ? attrs.low : attrs.high) = static_cast<int32_t>(*value);
      continue;
    }
    const char c = *value >= 0 && *value < 128 ? static_cast<char>(*value) : 0;
    if (name == "uplo") attrs.uplo = c;
    if (name == "mode") attrs.mode = c;
    if (name == "compute_left") attrs.compute_left = c;
    if (name == "compute_right") attrs.compute_right = c;
    if (name == "sort") attrs.sort = c;
    if (name == "side") attrs.side = c;
    if (name == "trans_x") attrs.trans_x = c;
    if (name == "diag") attrs.diag = c;
  }
  return attrs;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileLapackCall(const shlo::Operation& op,
                                                        std::string_view target) {
  const std::optional<LapackTarget> parsed = kernels_abi::ParseLapackFfiTarget(target);
  if (!parsed) {
    return OpError(op, StatusCode::kInternal,
                   StrCat("custom call target '", target, "' is registered as LAPACK's but is not"));
  }
  std::vector<shlo::Type> operand_types, result_types;
  std::vector<const shlo::Type*> operand_ptrs, result_ptrs;
  for (const shlo::Value* v : op.operands) operand_types.push_back(v->type);
  for (const auto& v : op.results) result_types.push_back(v->type);
  for (const shlo::Type& t : operand_types) operand_ptrs.push_back(&t);
  for (const shlo::Type& t : result_types) result_ptrs.push_back(&t);
  PLUGRT_ASSIGN_OR_RETURN(LapackAttrs attrs, ReadAttrs(op, target, parsed->family));
  Status check = CheckLapackCall(*parsed, target, operand_ptrs, result_ptrs, attrs);
  if (!check.ok()) return OpError(op, check.code(), std::string(check.message()));
  PLUGRT_ASSIGN_OR_RETURN(auto operand_layouts, DeclaredLayouts(op, "operand_layouts", operand_types));
  PLUGRT_ASSIGN_OR_RETURN(auto result_layouts, DeclaredLayouts(op, "result_layouts", result_types));
  const LapackKernel kernel = GetLapackKernel(*parsed);
  if (kernel == nullptr) {
    return OpError(op, StatusCode::kInternal, StrCat("no LAPACK kernel for ", target));
  }
  return std::unique_ptr<CompiledOp>(new LapackCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name, " ", target), kernel, attrs,
      std::move(operand_types), std::move(result_types), std::move(operand_layouts),
      std::move(result_layouts)));
}

// Targets plugrt knows but does not run: a clear UNIMPLEMENTED at compile time.
StatusOr<std::unique_ptr<CompiledOp>> RefuseLegacyLapackCall(const shlo::Operation& op,
                                                             std::string_view target) {
  // blas_strsm became lapack_strsm_ffi; lapack_sgetrf lapack_sgetrf_ffi.
  const std::string_view blas = "blas_";
  const std::string ffi = target.substr(0, blas.size()) == blas
                              ? StrCat("lapack_", target.substr(blas.size()), "_ffi")
                              : StrCat(target, "_ffi");
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("custom call target '", target,
                        "' is jaxlib's LAPACK kernel from before its typed-FFI targets (sizes "
                        "as leading operands), which plugrt does not run; it runs the FFI form ",
                        ffi, ": export the program again with a newer JAX"));
}

StatusOr<std::unique_ptr<CompiledOp>> RefuseDuccFft(const shlo::Operation& op,
                                                    std::string_view target) {
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("custom call target '", target,
                        "' (JAX's older CPU FFT) is not implemented; programs JAX exports now use "
                        "stablehlo.fft, which plugrt runs"));
}

}  // namespace

void RegisterLapackCustomCalls(OpRegistry& registry) {
  for (const kernels_abi::LapackFamilyInfo& info : kernels_abi::kLapackFamilies) {
    for (char letter : kernels_abi::kLapackTypeLetters) {
      registry.SetCustomCall(kernels_abi::LapackFfiTarget(info, letter), &CompileLapackCall);
      if (std::optional<std::string> legacy = kernels_abi::LapackLegacyTarget(info, letter)) {
        registry.SetCustomCall(*legacy, &RefuseLegacyLapackCall);
      }
    }
  }
  for (std::string_view target : kernels_abi::kDuccFftTargets) {
    registry.SetCustomCall(target, &RefuseDuccFft);
  }
}

}  // namespace plugrt::cpu
