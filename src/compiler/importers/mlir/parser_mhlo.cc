// The mhlo dialect (older JAX and TensorFlow exports, TF's MLIR dumps) read
// as StableHLO: every mhlo op with a StableHLO counterpart becomes that op,
// mhlo attribute spellings (#mhlo<comparison_direction LT>, #mhlo.conv<...>,
// dense<...> index lists) become the ones the IR stores, and the few
// mhlo-only ops with an equivalent (erf, topk, copy, add_dependency) are
// rewritten; all other mhlo ops are refused by name.
#include <cstring>

#include "compiler/importers/mlir/mhlo.h"
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

// Attribute kinds mhlo and StableHLO share (enums and structs).
bool IsSharedMhloAttributeKind(std::string_view kind) {
  static constexpr std::string_view kKinds[] = {
      "comparison_direction", "comparison_type", "precision",       "fft_type",
      "rng_distribution",     "rng_algorithm",   "transpose",       "dot",
      "gather",               "scatter",         "conv",            "channel_handle",
      "dot_algorithm",        "output_operand_alias", "result_accuracy",
      "result_accuracy_mode", "type_extensions"};
  for (std::string_view k : kKinds) {
    if (k == kind) return true;
  }
  return false;
}

// Attributes that StableHLO writes as array<i64> (window_reversal as
// array<i1>) and older mhlo as 1-D dense<...> : tensor<Nxi64>.
bool IsIndexListAttribute(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "broadcast_dimensions", "broadcast_sizes",  "permutation",      "dimensions",
      "slice_sizes",          "start_indices",    "limit_indices",    "strides",
      "edge_padding_low",     "edge_padding_high", "interior_padding", "window_dimensions",
      "window_strides",       "base_dilations",   "window_dilations", "lhs_dilation",
      "rhs_dilation",         "fft_length",       "window_reversal"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

// A 1-D integer dense literal -> array<i64> (or array<i1>); false when the
// attribute is not one.
bool DenseToIndexArray(const Attribute& attr, Attribute* out) {
  if (attr.kind != Attribute::Kind::kDenseElements || attr.dense == nullptr) return false;
  const Type& type = attr.type;
  if (!type.is_tensor() || type.rank() != 1 || !type.has_static_shape()) return false;
  ElementType et = type.element_type();
  if (!IsInteger(et) && et != ElementType::kI1) return false;
  const int eb = StorageBytes(et);
  const int64_t n = type.num_elements();
  std::vector<int64_t> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    const std::byte* p = attr.dense->bytes.data() + (attr.dense->splat ? 0 : i * eb);
    uint64_t bits = 0;
    std::memcpy(&bits, p, eb);  // little-endian host
    if (IsSignedInteger(et) && eb < 8 && ((bits >> (8 * eb - 1)) & 1)) {
      bits |= ~uint64_t{0} << (8 * eb);
    }
    values.push_back(static_cast<int64_t>(bits));
  }
  *out = Attribute::DenseI64Array(std::move(values));
  if (et == ElementType::kI1) out->type = Type::Element(ElementType::kI1);
  return true;
}

}  // namespace

std::string MhloAttributeName(std::string_view name) {
  constexpr std::string_view kPrefix = "mhlo.";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::string(name);
  std::string_view kind = name.substr(kPrefix.size());
  if (!IsSharedMhloAttributeKind(kind)) return std::string(name);
  return StrCat("stablehlo.", kind);
}

}  // namespace plugrt::shlo::internal

namespace plugrt::shlo {

using internal::DenseToIndexArray;
using internal::IsIndexListAttribute;

std::optional<std::string> MhloOpCounterpart(std::string_view name) {
  constexpr std::string_view kPrefix = "mhlo.";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view op = name.substr(kPrefix.size());
  // mhlo-only ops with an equivalent elsewhere; copy and add_dependency keep
  // their name until FinishTranslatedOp turns them into their operand.
  if (op == "erf") return std::string("chlo.erf");
  if (op == "topk") return std::string("chlo.top_k");
  if (IsMhloIdentity(name)) return std::string(name);
  std::string stablehlo = StrCat("stablehlo.", op);
  if (LookupOpCode(stablehlo) != OpCode::kUnknown) return stablehlo;
  return std::nullopt;
}

Status NormalizeMhloAttributes(Operation* op) {
  for (auto& [name, attr] : op->attributes) {
    Attribute list;
    if (IsIndexListAttribute(name) && DenseToIndexArray(attr, &list)) attr = std::move(list);
  }
  if (op->name == "chlo.top_k") {
    // mhlo.topk's `largest` (default true); chlo.top_k only takes the largest.
    for (auto it = op->attributes.begin(); it != op->attributes.end(); ++it) {
      if (it->first != "largest") continue;
      StatusOr<bool> largest = AttrToBool(it->second);
      if (!largest.ok()) return InvalidArgument("mhlo.topk's 'largest' must be true or false");
      if (!*largest) {
        return InvalidArgument("mhlo.topk with largest = false is not supported: chlo.top_k "
                               "returns the largest elements only");
      }
      op->attributes.erase(it);
      break;
    }
  }
  return OkStatus();
}

bool IsMhloIdentity(std::string_view name) {
  return name == "mhlo.copy" || name == "mhlo.add_dependency";
}

}  // namespace plugrt::shlo
