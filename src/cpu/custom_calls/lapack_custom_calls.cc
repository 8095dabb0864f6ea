// stablehlo.custom_call to jaxlib's CPU linear-algebra targets
// (kernels_abi/lapack_targets.h names them): the call's attributes, declared
// layouts and types are read and checked once at compile time; at run time
// the operands are copied into their declared layouts (column-major
// matrices), the LAPACK kernel runs over the batch, and the results are
// copied back to the row-major tensors the backend keeps. The spellings JAX
// used before its FFI targets run through the same kernels; its older FFT
// targets (ducc_fft.h) are registered here too, with the family they came in.
#include <algorithm>
#include <charconv>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cpu/custom_calls/declared_layout.h"
#include "cpu/custom_calls/ducc_fft.h"
#include "cpu/custom_calls/lapack_kernels.h"
#include "cpu/exec/op_registry.h"
#include "cpu/kernels/parallel.h"
#include "kernels_abi/lapack_targets.h"

namespace plugrt::cpu {
namespace {

using kernels_abi::LapackTarget;

// What one call runs: the kernel, its attributes, and the types and declared
// layouts of the operands it reads and the results it writes.
struct LapackCall {
  LapackKernel kernel = nullptr;
  LapackAttrs attrs;
  std::vector<shlo::Type> operand_types;
  std::vector<shlo::Type> result_types;
  std::vector<std::vector<int64_t>> operand_layouts;
  std::vector<std::vector<int64_t>> result_layouts;
};

// Runs `call` on row-major operands; row-major results.
StatusOr<std::vector<Tensor>> RunLapackCall(const LapackCall& call, std::string_view where,
                                            std::span<const RtValue* const> operands,
                                            const ExecContext& context) {
  if (operands.size() != call.operand_types.size()) {
    return InvalidArgument(where, ": expected ", call.operand_types.size(), " operands, got ",
                           operands.size());
  }
  std::vector<Tensor> declared;
  declared.reserve(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    const RtValue& v = *operands[i];
    const shlo::Type& t = call.operand_types[i];
    if (v.kind != RtValue::Kind::kTensor || v.tensor.type() != t.element_type() ||
        v.tensor.dims() != t.dims()) {
      return InvalidArgument(where, ": operand ", i, " is not a ", t.ToString());
    }
    // Always a copy: the kernels compute in place.
    declared.push_back(ToDeclaredLayout(v.tensor, call.operand_layouts[i]));
  }
  std::vector<Tensor> results;
  results.reserve(call.result_types.size());
  for (const shlo::Type& t : call.result_types) results.emplace_back(t.element_type(), t.dims());
  LapackAttrs attrs = call.attrs;
  attrs.threads = ThreadBudget(context.kernel_threads);
  PLUGRT_RETURN_IF_ERROR(call.kernel(attrs, declared, results));
  for (size_t i = 0; i < results.size(); ++i) {
    const std::vector<int64_t>& layout = call.result_layouts[i];
    if (!IsRowMajorOrder(layout)) results[i] = FromDeclaredLayout(results[i], layout);
  }
  return results;
}

class LapackCustomCallOp final : public CompiledOp {
 public:
  LapackCustomCallOp(std::string where, LapackCall call)
      : where_(std::move(where)), call_(std::move(call)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    std::vector<const RtValue*> args;
    for (const RtValue& v : operands) args.push_back(&v);
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> results, RunLapackCall(call_, where_, args, context));
    std::vector<RtValue> out;
    out.reserve(results.size());
    for (Tensor& t : results) out.push_back(RtValue::Of(std::move(t)));
    return out;
  }

 private:
  std::string where_;
  LapackCall call_;
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

// potrf on column-major matrices becomes potrf of the other triangle on the
// row-major ones (LapackAttrs::row_major_triangle): no layout copies.
void FactorPotrfRowMajor(kernels_abi::LapackFamily family, LapackCall& call) {
  if (family != kernels_abi::LapackFamily::kPotrf || call.operand_layouts.size() != 1 ||
      call.result_layouts.empty() || !IsColumnMajorMatrices(call.operand_layouts[0]) ||
      call.operand_layouts[0] != call.result_layouts[0]) {
    return;
  }
  call.operand_layouts[0] = RowMajorOrder(call.operand_layouts[0].size());
  call.result_layouts[0] = call.operand_layouts[0];
  call.attrs.row_major_triangle = true;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileLapackCall(const shlo::Operation& op,
                                                        std::string_view target,
                                                        const ProgramOptions& /*options*/) {
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
  LapackCall call{kernel, attrs, std::move(operand_types), std::move(result_types),
                  std::move(operand_layouts), std::move(result_layouts)};
  FactorPotrfRowMajor(parsed->family, call);
  return std::unique_ptr<CompiledOp>(new LapackCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name, " ", target), std::move(call)));
}

// --- the spellings before the FFI move ---------------------------------------
//
// jaxlib's earlier kernels (api_version 2) took their sizes and flags as
// leading scalar operands and returned their LAPACK workspaces as extra
// results, sometimes as one tuple. The data operands and the leading results
// are those of the FFI form, which runs them; the flags become its
// attributes at run time (they are operands), and the workspaces come back
// zero-filled.
struct LegacyForm {
  kernels_abi::LapackFamily family;
  size_t descriptors;  // leading scalar operands
};
constexpr LegacyForm kLegacyForms[] = {
    {kernels_abi::LapackFamily::kGetrf, 3},  // b, m, n
    {kernels_abi::LapackFamily::kGeqrf, 4},  // b, m, n, lwork
    {kernels_abi::LapackFamily::kOrgqr, 5},  // b, m, n, k, lwork
    {kernels_abi::LapackFamily::kPotrf, 3},  // lower, b, n
    {kernels_abi::LapackFamily::kSyevd, 3},  // lower, b, n
    {kernels_abi::LapackFamily::kGesdd, 6},  // full_matrices, compute_uv, b, m, n, lwork
    {kernels_abi::LapackFamily::kTrsm, 7},   // left, lower, trans, unit, m, n, batch
    {kernels_abi::LapackFamily::kGeev, 4},   // b, n, jobvl, jobvr
    {kernels_abi::LapackFamily::kGees, 4},   // b, n, jobvs, sort
    {kernels_abi::LapackFamily::kGehrd, 6},  // n, ilo, ihi, lda, batch, lwork
    {kernels_abi::LapackFamily::kSytrd, 5},  // n, lower, lda, batch, lwork
};

// For each result of the FFI form, the index of the same result in the
// earlier form; the earlier form's other results are workspaces.
std::vector<size_t> LegacyResultMap(kernels_abi::LapackFamily family, bool complex) {
  using kernels_abi::LapackFamily;
  switch (family) {
    case LapackFamily::kGetrf:
    case LapackFamily::kGeqrf:
    case LapackFamily::kSyevd:
    case LapackFamily::kGehrd: return {0, 1, 2};
    case LapackFamily::kOrgqr:
    case LapackFamily::kPotrf: return {0, 1};
    case LapackFamily::kGesdd:
    case LapackFamily::kSytrd: return {0, 1, 2, 3, 4};
    case LapackFamily::kTrsm: return {0};
    // Real: a, vl, vr workspaces, then wr, wi, vl, vr, info; complex: a and
    // rwork workspaces, then w, vl, vr, info.
    case LapackFamily::kGeev: return complex ? std::vector<size_t>{2, 3, 4, 5}
                                             : std::vector<size_t>{3, 4, 5, 6, 7};
    // Real: t, wr, wi, vs, sdim, info; complex: t, rwork, w, vs, sdim, info.
    case LapackFamily::kGees: return complex ? std::vector<size_t>{0, 3, 2, 4, 5}
                                             : std::vector<size_t>{0, 3, 1, 2, 4, 5};
    default: return {};
  }
}

const LegacyForm* LegacyFormOf(kernels_abi::LapackFamily family) {
  for (const LegacyForm& form : kLegacyForms) {
    if (form.family == family) return &form;
  }
  return nullptr;
}

std::optional<LapackTarget> ParseLegacyTarget(std::string_view name) {
  for (const kernels_abi::LapackFamilyInfo& info : kernels_abi::kLapackFamilies) {
    for (char letter : kernels_abi::kLapackTypeLetters) {
      if (kernels_abi::LapackLegacyTarget(info, letter) == name) {
        return LapackTarget{info.family, letter};
      }
    }
  }
  return std::nullopt;
}

// The attributes the descriptors say (`d`: their values), and INVALID_ARGUMENT
// when the sizes they give are not the operands'.
StatusOr<LapackAttrs> LegacyAttrs(kernels_abi::LapackFamily family, const std::vector<int64_t>& d,
                                  const std::vector<int64_t>& dims) {
  using kernels_abi::LapackFamily;
  LapackAttrs attrs;
  const size_t r = dims.size();
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < r; ++i) batch *= dims[i];
  const int64_t m = dims[r - 2], n = dims[r - 1];
  std::vector<std::pair<int64_t, int64_t>> sizes;  // (descriptor, operand's)
  switch (family) {
    case LapackFamily::kGetrf:
    case LapackFamily::kGeqrf:
    case LapackFamily::kOrgqr:
      sizes = {{d[0], batch}, {d[1], m}, {d[2], n}};
      break;
    case LapackFamily::kPotrf:
    case LapackFamily::kSyevd:
      attrs.uplo = d[0] != 0 ? 'L' : 'U';
      attrs.mode = 'V';
      sizes = {{d[1], batch}, {d[2], n}};
      break;
    case LapackFamily::kGesdd:
      attrs.mode = d[1] == 0 ? 'N' : d[0] != 0 ? 'A' : 'S';
      sizes = {{d[2], batch}, {d[3], m}, {d[4], n}};
      break;
    case LapackFamily::kTrsm:
      attrs.side = d[0] != 0 ? 'L' : 'R';
      attrs.uplo = d[1] != 0 ? 'L' : 'U';
      attrs.trans_x = d[2] == 1 ? 'T' : d[2] == 2 ? 'C' : 'N';
      attrs.diag = d[3] != 0 ? 'U' : 'N';
      sizes = {{d[4], m}, {d[5], n}, {d[6], batch}};
      break;
    case LapackFamily::kGeev:
      attrs.compute_left = static_cast<char>(d[2]);
      attrs.compute_right = static_cast<char>(d[3]);
      sizes = {{d[0], batch}, {d[1], n}};
      break;
    case LapackFamily::kGees:
      attrs.mode = static_cast<char>(d[2]);
      attrs.sort = static_cast<char>(d[3]);
      sizes = {{d[0], batch}, {d[1], n}};
      break;
    case LapackFamily::kGehrd:
      attrs.low = static_cast<int32_t>(d[1]);
      attrs.high = static_cast<int32_t>(d[2]);
      sizes = {{d[0], n}, {d[3], m}, {d[4], batch}};
      break;
    case LapackFamily::kSytrd:
      attrs.uplo = d[1] != 0 ? 'L' : 'U';
      sizes = {{d[0], n}, {d[2], m}, {d[3], batch}};
      break;
    default:
      return Unimplemented("no pre-FFI form");
  }
  for (const auto& [said, actual] : sizes) {
    if (said != actual) {
      return InvalidArgument("its size operands say ", said, " where the matrices have ", actual);
    }
  }
  return attrs;
}

class LegacyLapackCallOp final : public CompiledOp {
 public:
  LegacyLapackCallOp(std::string where, LapackTarget target, const LegacyForm& form,
                     LapackCall call, std::vector<shlo::Type> results, std::vector<size_t> result_map,
                     bool tuple_result)
      : where_(std::move(where)),
        target_(target),
        form_(form),
        call_(std::move(call)),
        results_(std::move(results)),
        result_map_(std::move(result_map)),
        tuple_result_(tuple_result) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (operands.size() != form_.descriptors + call_.operand_types.size()) {
      return InvalidArgument(where_, ": expected ", form_.descriptors + call_.operand_types.size(),
                             " operands, got ", operands.size());
    }
    std::vector<int64_t> d;
    for (size_t i = 0; i < form_.descriptors; ++i) {
      const RtValue& v = operands[i];
      if (v.kind != RtValue::Kind::kTensor || v.tensor.num_elements() != 1) {
        return InvalidArgument(where_, ": operand ", i, " must be an integer scalar");
      }
      switch (v.tensor.type()) {
        case ElementType::kSI64: d.push_back(*v.tensor.as<int64_t>()); break;
        case ElementType::kSI32: d.push_back(*v.tensor.as<int32_t>()); break;
        case ElementType::kUI8: d.push_back(*v.tensor.as<uint8_t>()); break;
        default: return InvalidArgument(where_, ": operand ", i, " must be an integer scalar");
      }
    }
    std::vector<const RtValue*> data;
    for (size_t i = form_.descriptors; i < operands.size(); ++i) data.push_back(&operands[i]);
    if (target_.family == kernels_abi::LapackFamily::kTrsm) {
      // alpha, a, b -> a, b, alpha (the FFI form's order).
      std::rotate(data.begin(), data.begin() + 1, data.end());
    }
    const size_t matrix = target_.family == kernels_abi::LapackFamily::kTrsm ? 1 : 0;
    StatusOr<LapackAttrs> attrs =
        LegacyAttrs(target_.family, d, call_.operand_types[matrix].dims());
    if (!attrs.ok()) return MakeError(attrs.status().code(), where_, ": ", attrs.status().message());
    LapackCall call = call_;
    call.attrs = *attrs;
    call.attrs.row_major_triangle = call_.attrs.row_major_triangle;
    std::vector<const shlo::Type*> operand_types, result_types;
    for (const shlo::Type& t : call.operand_types) operand_types.push_back(&t);
    for (const shlo::Type& t : call.result_types) result_types.push_back(&t);
    PLUGRT_RETURN_IF_ERROR(CheckLapackCall(target_, where_, operand_types, result_types, call.attrs));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> computed, RunLapackCall(call, where_, data, context));
    // Workspaces zero-filled, computed results where the earlier form had them.
    std::vector<RtValue> out;
    for (const shlo::Type& t : results_) out.push_back(RtValue::Of(Tensor(t.element_type(), t.dims())));
    for (size_t i = 0; i < result_map_.size(); ++i) out[result_map_[i]] = RtValue::Of(std::move(computed[i]));
    if (tuple_result_) return std::vector<RtValue>{RtValue::Tuple(std::move(out))};
    return out;
  }

 private:
  std::string where_;
  LapackTarget target_;
  LegacyForm form_;
  LapackCall call_;
  std::vector<shlo::Type> results_;
  std::vector<size_t> result_map_;
  bool tuple_result_;
};

StatusOr<std::unique_ptr<CompiledOp>> RefuseLegacyLapackCall(const shlo::Operation& op,
                                                             std::string_view target);

StatusOr<std::unique_ptr<CompiledOp>> CompileLegacyLapackCall(const shlo::Operation& op,
                                                              std::string_view target,
                                                              const ProgramOptions& /*options*/) {
  const std::optional<LapackTarget> parsed = ParseLegacyTarget(target);
  const LegacyForm* form = parsed ? LegacyFormOf(parsed->family) : nullptr;
  if (form == nullptr) return RefuseLegacyLapackCall(op, target);
  // Results: the op's, or the elements of its one tuple result.
  std::vector<shlo::Type> results;
  const bool tuple_result = op.results.size() == 1 && op.results[0]->type.is_tuple();
  if (tuple_result) {
    results = op.results[0]->type.tuple_elements();
  } else {
    for (const auto& v : op.results) results.push_back(v->type);
  }
  std::vector<shlo::Type> operands;
  for (const shlo::Value* v : op.operands) operands.push_back(v->type);
  const std::vector<size_t> result_map =
      LegacyResultMap(parsed->family, kernels_abi::IsComplexLapackLetter(parsed->letter));
  size_t min_results = 0;
  for (size_t i : result_map) min_results = std::max(min_results, i + 1);
  if (operands.size() < form->descriptors + 1 || results.size() < min_results) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat(target, " takes ", form->descriptors,
                          " size operands before its data and has at least ", min_results,
                          " results"));
  }
  for (size_t i = 0; i < form->descriptors; ++i) {
    const shlo::Type& t = operands[i];
    if (!t.is_tensor() || t.rank() != 0 ||
        (t.element_type() != ElementType::kSI32 && t.element_type() != ElementType::kSI64 &&
       t.element_type() != ElementType::kUI8)) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, ": operand ", i, " must be an integer scalar (a size or flag), got ",
                            t.ToString()));
    }
  }
  for (const shlo::Type& t : results) {
    if (!t.is_tensor()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, ": results must be tensors, got ", t.ToString()));
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(auto all_operand_layouts, DeclaredLayouts(op, "operand_layouts", operands));
  PLUGRT_ASSIGN_OR_RETURN(auto all_result_layouts, DeclaredLayouts(op, "result_layouts", results));
  LapackCall call;
  call.kernel = GetLapackKernel(*parsed);
  call.operand_types.assign(operands.begin() + static_cast<ptrdiff_t>(form->descriptors), operands.end());
  call.operand_layouts.assign(all_operand_layouts.begin() + static_cast<ptrdiff_t>(form->descriptors),
                              all_operand_layouts.end());
  if (parsed->family == kernels_abi::LapackFamily::kTrsm) {
    if (call.operand_types.size() != 3) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, " takes alpha, a and b after its size operands"));
    }
    std::rotate(call.operand_types.begin(), call.operand_types.begin() + 1, call.operand_types.end());
    std::rotate(call.operand_layouts.begin(), call.operand_layouts.begin() + 1,
                call.operand_layouts.end());
  }
  for (size_t i : result_map) {
    call.result_types.push_back(results[i]);
    call.result_layouts.push_back(all_result_layouts[i]);
  }
  FactorPotrfRowMajor(parsed->family, call);
  // The types are checked now with the flags' most common values; again at
  // run time with the flags the operands hold.
  LapackAttrs guess;
  guess.uplo = 'L';
  guess.mode = parsed->family == kernels_abi::LapackFamily::kGesdd ? 'N' : 'V';
  guess.trans_x = 'N';
  guess.diag = 'N';
  guess.side = 'L';
  guess.compute_left = guess.compute_right = 'V';
  guess.sort = 'N';
  guess.low = 1;
  if (parsed->family == kernels_abi::LapackFamily::kGehrd && !call.operand_types.empty() &&
      call.operand_types[0].rank() >= 1) {
    guess.high = static_cast<int32_t>(call.operand_types[0].dims().back());
    if (guess.high == 0) guess.low = 1;
  }
  if (parsed->family == kernels_abi::LapackFamily::kTrsm && call.operand_types[0].rank() >= 2 &&
      call.operand_types[1].rank() >= 2 &&
      call.operand_types[0].dims().back() != call.operand_types[1].dims()[call.operand_types[1].dims().size() - 2]) {
    guess.side = 'R';
  }
  std::vector<const shlo::Type*> operand_ptrs, result_ptrs;
  for (const shlo::Type& t : call.operand_types) operand_ptrs.push_back(&t);
  for (const shlo::Type& t : call.result_types) result_ptrs.push_back(&t);
  Status check = CheckLapackCall(*parsed, target, operand_ptrs, result_ptrs, guess);
  if (!check.ok()) return OpError(op, check.code(), std::string(check.message()));
  return std::unique_ptr<CompiledOp>(new LegacyLapackCallOp(
      StrCat(op.location.ToString(), ": ", op.name, " ", target), *parsed, *form, std::move(call),
      std::move(results), result_map, tuple_result));
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

}  // namespace

void RegisterLapackCustomCalls(OpRegistry& registry) {
  for (const kernels_abi::LapackFamilyInfo& info : kernels_abi::kLapackFamilies) {
    for (char letter : kernels_abi::kLapackTypeLetters) {
      registry.SetCustomCall(kernels_abi::LapackFfiTarget(info, letter), &CompileLapackCall);
      if (std::optional<std::string> legacy = kernels_abi::LapackLegacyTarget(info, letter)) {
        registry.SetCustomCall(*legacy, &CompileLegacyLapackCall);
      }
    }
  }
  for (std::string_view target : kernels_abi::kDuccFftTargets) {
    registry.SetCustomCall(target, &CompileDuccFftCall);
  }
}

}  // namespace plugrt::cpu
