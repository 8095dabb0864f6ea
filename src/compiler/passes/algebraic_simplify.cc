#include "compiler/passes/algebraic_simplify.h"

#include <cstring>
#include <optional>
#include <unordered_map>
#include <vector>

#include "compiler/passes/ir_rewrite.h"
#include "compiler/passes/shape_folding.h"
#include "stablehlo/element_type.h"
#include "stablehlo/float_format.h"

namespace plugrt::passes {
namespace {

using shlo::ElementType;
using shlo::OpCode;

// The bit pattern of `number` in `type`'s storage, for integers and real
// floats; nullopt for the others (booleans, complex, quantized).
std::optional<std::vector<std::byte>> Encode(ElementType type, double number) {
  uint64_t bits = 0;
  if (shlo::IsFloat(type)) {
    bits = shlo::EncodeFloat(type, number);
  } else if (shlo::IsInteger(type)) {
    bits = static_cast<uint64_t>(static_cast<int64_t>(number));
  } else {
    return std::nullopt;
  }
  const size_t width = static_cast<size_t>(shlo::StorageBytes(type));
  if (width == 0 || width > sizeof(bits)) return std::nullopt;
  std::vector<std::byte> out(width);
  for (size_t i = 0; i < width; ++i) out[i] = static_cast<std::byte>((bits >> (8 * i)) & 0xff);
  return out;
}

// `v` is a constant whose every element is exactly `number` (for floats, with
// `number`'s sign: -0.0 is not +0.0).
bool IsSplat(const shlo::Value* v, double number) {
  if (!v->type.is_tensor()) return false;
  std::optional<std::vector<std::byte>> bits = SplatBits(v);
  if (!bits) return false;
  std::optional<std::vector<std::byte>> want = Encode(v->type.element_type(), number);
  return want && *bits == *want;
}

bool IsIntegerType(const shlo::Value* v) {
  return v->type.is_tensor() && shlo::IsInteger(v->type.element_type());
}

// The additive identity of x + c: -0.0 for floats, 0 for integers.
bool IsAddIdentity(const shlo::Value* c) {
  return IsIntegerType(c) ? IsSplat(c, 0) : IsSplat(c, -0.0);
}

std::optional<std::vector<int64_t>> Ints(const shlo::Operation& op, std::string_view name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return std::nullopt;
  StatusOr<std::vector<int64_t>> ints = shlo::AttrToIntList(*attr);
  if (!ints.ok()) return std::nullopt;
  return *ints;
}

bool IsIota(const std::vector<int64_t>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

bool AllEqual(const std::vector<int64_t>& values, int64_t to) {
  for (int64_t v : values) {
    if (v != to) return false;
  }
  return true;
}

// A convolution of an input padded with zeros on its spatial dims (Keras's
// ZeroPadding2D before a stride-2 convolution with `valid` padding; PyTorch's
// F.pad) is the convolution of the unpadded input with that much more
// padding of its own: the padded copy is never made. Rewrites `op` in place
// when it is one; true when it did.
bool FoldConvolutionInputPad(shlo::Operation& op) {
  if (op.code != OpCode::kConvolution || op.operands.size() != 2 || op.results.size() != 1) {
    return false;
  }
  const shlo::Operation* pad = op.operands[0]->defining_op;
  if (pad == nullptr || pad->code != OpCode::kPad || pad->operands.size() != 2 ||
      !op.operands[0]->type.is_tensor() || !pad->operands[0]->type.is_tensor()) {
    return false;
  }
  // Zeros the convolution's own padding would add: +0 (a -0 pad may differ
  // in the sign of a zero sum) or an integer 0.
  const shlo::Value* value = pad->operands[1];
  if (!(IsIntegerType(value) ? IsSplat(value, 0) : IsSplat(value, 0.0))) return false;
  std::optional<std::vector<int64_t>> low = Ints(*pad, "edge_padding_low");
  std::optional<std::vector<int64_t>> high = Ints(*pad, "edge_padding_high");
  std::optional<std::vector<int64_t>> interior = Ints(*pad, "interior_padding");
  const shlo::Attribute* numbers = op.attribute("dimension_numbers");
  if (!low || !high || !interior || !AllEqual(*interior, 0) || numbers == nullptr) return false;
  std::optional<std::vector<int64_t>> spatial =
      OptionalIntList(shlo::FindAttribute(numbers->fields, "input_spatial_dimensions"));
  const size_t rank = static_cast<size_t>(op.operands[0]->type.rank());
  if (!spatial || low->size() != rank || high->size() != rank) return false;
  const size_t ns = spatial->size();
  // Input dilation would spread the padded input, not the padding.
  std::optional<std::vector<int64_t>> lhs_dilation = Ints(op, "lhs_dilation");
  if (lhs_dilation && !AllEqual(*lhs_dilation, 1)) return false;
  std::vector<int64_t> padding(2 * ns, 0);
  if (op.attribute("padding") != nullptr) {
    std::optional<std::vector<int64_t>> now = Ints(op, "padding");
    if (!now || now->size() != 2 * ns) return false;
    padding = *now;
  }
  std::vector<bool> is_spatial(rank, false);
  for (size_t s = 0; s < ns; ++s) {
    const int64_t d = (*spatial)[s];
    if (d < 0 || static_cast<size_t>(d) >= rank) return false;
    is_spatial[static_cast<size_t>(d)] = true;
    padding[2 * s] += (*low)[static_cast<size_t>(d)];
    padding[2 * s + 1] += (*high)[static_cast<size_t>(d)];
  }
  for (size_t d = 0; d < rank; ++d) {
    if ((*low)[d] < 0 || (*high)[d] < 0) return false;
    if (!is_spatial[d] && ((*low)[d] != 0 || (*high)[d] != 0)) return false;
  }
  shlo::Attribute attr = MakeDenseInts(
      shlo::Type::Tensor(ElementType::kSI64, {static_cast<int64_t>(ns), 2}), padding);
  bool set = false;
  for (shlo::NamedAttribute& named : op.attributes) {
    if (named.first == "padding") {
      named.second = attr;
      set = true;
    }
  }
  if (!set) op.attributes.emplace_back("padding", std::move(attr));
  op.operands[0] = pad->operands[0];
  return true;
}

// A transpose that moves only size-1 dims keeps its elements in order: it is
// a reshape, which costs no copy. Rewrites `op` in place when it is one.
void TransposeToReshape(shlo::Operation& op) {
  if (op.code != OpCode::kTranspose || op.operands.size() != 1 || op.results.size() != 1) return;
  const shlo::Type& in = op.operands[0]->type;
  if (!in.is_tensor() || !in.has_static_shape() || !op.results[0]->type.is_tensor()) return;
  std::optional<std::vector<int64_t>> permutation = Ints(op, "permutation");
  if (!permutation || permutation->size() != in.dims().size()) return;
  int64_t last = -1;
  for (int64_t p : *permutation) {
    if (p < 0 || p >= static_cast<int64_t>(in.dims().size())) return;
    if (in.dims()[static_cast<size_t>(p)] == 1) continue;
    if (p < last) return;
    last = p;
  }
  op.code = OpCode::kReshape;
  op.name = "stablehlo.reshape";
  op.attributes.clear();
}

// reshape(reshape(x)) reads x: the outer one takes x as its operand.
void SkipInnerReshape(shlo::Operation& op) {
  if (op.code != OpCode::kReshape || op.operands.size() != 1) return;
  const shlo::Operation* inner = op.operands[0]->defining_op;
  if (inner != nullptr && inner->code == OpCode::kReshape && inner->operands.size() == 1 &&
      inner->operands[0]->type.is_tensor() && inner->operands[0]->type.has_static_shape()) {
    op.operands[0] = inner->operands[0];
  }
}

// The value `op`'s only result equals, when an identity applies.
shlo::Value* Simplified(const shlo::Operation& op) {
  if (op.results.size() != 1) return nullptr;
  const shlo::Type& result = op.results[0]->type;
  auto same_type = [&](size_t i) {
    return i < op.operands.size() && op.operands[i]->type == result;
  };
  switch (op.code) {
    case OpCode::kAdd:
      if (same_type(0) && IsAddIdentity(op.operands[1])) return op.operands[0];
      if (same_type(1) && IsAddIdentity(op.operands[0])) return op.operands[1];
      return nullptr;
    case OpCode::kSubtract:
      if (same_type(0) && IsSplat(op.operands[1], 0.0)) return op.operands[0];
      return nullptr;
    case OpCode::kMultiply:
      if (same_type(0) && IsSplat(op.operands[1], 1.0)) return op.operands[0];
      if (same_type(1) && IsSplat(op.operands[0], 1.0)) return op.operands[1];
      return nullptr;
    case OpCode::kDivide:
      if (same_type(0) && IsSplat(op.operands[1], 1.0)) return op.operands[0];
      return nullptr;
    case OpCode::kNegate:
    case OpCode::kNot: {
      const shlo::Operation* inner = op.operands[0]->defining_op;
      if (inner != nullptr && inner->code == op.code && inner->operands[0]->type == result) {
        return inner->operands[0];
      }
      return nullptr;
    }
    case OpCode::kReshape:
    case OpCode::kConvert:
      return same_type(0) ? op.operands[0] : nullptr;
    case OpCode::kBroadcastInDim: {
      std::optional<std::vector<int64_t>> dims = Ints(op, "broadcast_dimensions");
      return same_type(0) && dims && IsIota(*dims) ? op.operands[0] : nullptr;
    }
    case OpCode::kTranspose: {
      std::optional<std::vector<int64_t>> permutation = Ints(op, "permutation");
      return same_type(0) && permutation && IsIota(*permutation) ? op.operands[0] : nullptr;
    }
    case OpCode::kSlice: {
      std::optional<std::vector<int64_t>> strides = Ints(op, "strides");
      // Same type: every dimension kept whole, given unit strides.
      return same_type(0) && (!strides || AllEqual(*strides, 1)) ? op.operands[0] : nullptr;
    }
    case OpCode::kReverse: {
      std::optional<std::vector<int64_t>> dims = Ints(op, "dimensions");
      return same_type(0) && dims && dims->empty() ? op.operands[0] : nullptr;
    }
    case OpCode::kPad: {
      std::optional<std::vector<int64_t>> low = Ints(op, "edge_padding_low");
      std::optional<std::vector<int64_t>> high = Ints(op, "edge_padding_high");
      std::optional<std::vector<int64_t>> interior = Ints(op, "interior_padding");
      return same_type(0) && low && high && interior && AllEqual(*low, 0) &&
                     AllEqual(*high, 0) && AllEqual(*interior, 0)
                 ? op.operands[0]
                 : nullptr;
    }
    default:
      return nullptr;
  }
}

}  // namespace

bool SimplifyAlgebra(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    std::vector<std::pair<const shlo::Value*, shlo::Value*>> replaced;
    ForEachBlock(*function, [&](shlo::Block& block) {
      // Later ops see earlier replacements (-(-(-(-x))) is x in one walk).
      std::unordered_map<const shlo::Value*, shlo::Value*> now;
      for (const auto& op_ptr : block.operations) {
        for (shlo::Value*& operand : op_ptr->operands) {
          if (auto it = now.find(operand); it != now.end()) operand = it->second;
        }
        TransposeToReshape(*op_ptr);
        SkipInnerReshape(*op_ptr);
        changed |= FoldConvolutionInputPad(*op_ptr);
        shlo::Value* same = Simplified(*op_ptr);
        if (same == nullptr) continue;
        now[op_ptr->result(0)] = same;
        replaced.emplace_back(op_ptr->result(0), same);
        changed = true;
      }
    });
    ReplaceAllUses(*function, replaced);
  }
  return changed;
}

}  // namespace plugrt::passes
