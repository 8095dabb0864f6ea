#include "compiler/passes/shape_folding.h"

#include <cstring>
#include <memory>
#include <string>

namespace plugrt::passes {
namespace {

using shlo::ElementType;
using shlo::OpCode;
using shlo::Operation;
using shlo::Type;

bool IsIntLike(ElementType e) { return shlo::IsInteger(e) || shlo::IsBoolean(e); }

// Row-major strides of `dims`.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

// Calls visit(index, flat) for every multi-index of `dims` in row-major order.
template <typename Visit>
void ForEachIndex(const std::vector<int64_t>& dims, Visit visit) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    visit(index, flat);
    for (size_t k = dims.size(); k-- > 0;) {
      if (++index[k] < dims[k]) break;
      index[k] = 0;
    }
  }
}

std::optional<std::vector<int64_t>> IntsAttr(const Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return std::nullopt;
  StatusOr<std::vector<int64_t>> list = shlo::AttrToIntList(*attr);
  if (!list.ok()) return std::nullopt;
  return *list;
}

std::optional<int64_t> IntAttr(const Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return std::nullopt;
  StatusOr<int64_t> v = shlo::AttrToInt(*attr);
  if (!v.ok()) return std::nullopt;
  return *v;
}

// Binary integer arithmetic with StableHLO's rules for division by zero and
// overflow (spec: divide and remainder on integers).
std::optional<int64_t> Binary(OpCode code, ElementType e, int64_t a, int64_t b) {
  const bool is_unsigned = shlo::IsUnsignedInteger(e) || shlo::IsBoolean(e);
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  const int width = shlo::BitWidth(e);
  const int64_t min_signed = width >= 64 ? INT64_MIN : -(int64_t{1} << (width - 1));
  switch (code) {
    case OpCode::kAdd: return shlo::IsBoolean(e) ? (a | b) : static_cast<int64_t>(ua + ub);
    case OpCode::kSubtract: return static_cast<int64_t>(ua - ub);
    case OpCode::kMultiply: return shlo::IsBoolean(e) ? (a & b) : static_cast<int64_t>(ua * ub);
    case OpCode::kAnd: return a & b;
    case OpCode::kOr: return a | b;
    case OpCode::kXor: return a ^ b;
    case OpCode::kMaximum: return is_unsigned ? (ua > ub ? a : b) : (a > b ? a : b);
    case OpCode::kMinimum: return is_unsigned ? (ua < ub ? a : b) : (a < b ? a : b);
    case OpCode::kDivide:
      if (b == 0) return -1;  // all bits set, for signed and unsigned alike
      if (is_unsigned) return static_cast<int64_t>(ua / ub);
      if (a == min_signed && b == -1) return a;
      return a / b;
    case OpCode::kRemainder:
      if (b == 0) return a;
      if (is_unsigned) return static_cast<int64_t>(ua % ub);
      if (a == min_signed && b == -1) return 0;
      return a % b;
    default: return std::nullopt;
  }
}

std::optional<bool> Compare(const std::string& direction, bool is_unsigned, int64_t a, int64_t b) {
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (direction == "EQ") return a == b;
  if (direction == "NE") return a != b;
  if (direction == "LT") return is_unsigned ? ua < ub : a < b;
  if (direction == "LE") return is_unsigned ? ua <= ub : a <= b;
  if (direction == "GT") return is_unsigned ? ua > ub : a > b;
  if (direction == "GE") return is_unsigned ? ua >= ub : a >= b;
  return std::nullopt;
}

}  // namespace

bool IsFoldableType(const Type& type) {
  return type.is_tensor() && type.has_static_shape() && IsIntLike(type.element_type()) &&
         type.num_elements() <= kMaxFoldedElements;
}

int64_t NormalizeInt(ElementType element, int64_t value) {
  if (shlo::IsBoolean(element)) return value != 0 ? 1 : 0;
  const int width = shlo::BitWidth(element);
  if (width >= 64) return value;
  const uint64_t mask = (uint64_t{1} << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (shlo::IsSignedInteger(element) && (bits >> (width - 1)) != 0) bits |= ~mask;
  return static_cast<int64_t>(bits);
}

std::optional<IntValues> ReadDenseInts(const shlo::Attribute& dense) {
  if (dense.kind != shlo::Attribute::Kind::kDenseElements || dense.dense == nullptr ||
      !IsFoldableType(dense.type)) {
    return std::nullopt;
  }
  const ElementType e = dense.type.element_type();
  const size_t bytes = static_cast<size_t>(shlo::StorageBytes(e));
  const int64_t count = dense.type.num_elements();
  const size_t stored = dense.dense->splat ? 1 : static_cast<size_t>(count);
  if (dense.dense->bytes.size() < stored * bytes) return std::nullopt;
  IntValues values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const size_t at = dense.dense->splat ? 0 : static_cast<size_t>(i) * bytes;
    uint64_t raw = 0;
    for (size_t b = 0; b < bytes; ++b) {
      raw |= static_cast<uint64_t>(dense.dense->bytes[at + b]) << (8 * b);
    }
    values[static_cast<size_t>(i)] = NormalizeInt(e, static_cast<int64_t>(raw));
  }
  return values;
}

shlo::Attribute MakeDenseInts(const Type& type, const IntValues& values) {
  const size_t bytes = static_cast<size_t>(shlo::StorageBytes(type.element_type()));
  auto data = std::make_shared<shlo::DenseData>();
  data->bytes.resize(values.size() * bytes);
  for (size_t i = 0; i < values.size(); ++i) {
    const auto raw = static_cast<uint64_t>(values[i]);
    for (size_t b = 0; b < bytes; ++b) {
      data->bytes[i * bytes + b] = static_cast<std::byte>((raw >> (8 * b)) & 0xff);
    }
  }
  return shlo::Attribute::Dense(type, std::move(data));
}

std::optional<IntValues> FoldIntOp(const Operation& op,
                                   const std::vector<const IntValues*>& operands) {
  if (op.results.size() != 1 || !IsFoldableType(op.results[0]->type)) return std::nullopt;
  const Type& type = op.results[0]->type;
  const ElementType e = type.element_type();
  const auto n = static_cast<size_t>(type.num_elements());
  if (op.code == OpCode::kConstant) {
    const shlo::Attribute* value = op.attribute("value");
    return value != nullptr ? ReadDenseInts(*value) : std::nullopt;
  }
  if (op.code == OpCode::kIota) {
    std::optional<int64_t> dim = IntAttr(op, "iota_dimension");
    if (!dim || *dim < 0 || *dim >= type.rank()) return std::nullopt;
    IntValues out(n);
    ForEachIndex(type.dims(), [&](const std::vector<int64_t>& index, int64_t flat) {
      out[static_cast<size_t>(flat)] = NormalizeInt(e, index[static_cast<size_t>(*dim)]);
    });
    return out;
  }
  if (operands.size() != op.operands.size()) return std::nullopt;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i] == nullptr || !IsFoldableType(op.operands[i]->type)) return std::nullopt;
  }
  if (operands.empty()) return std::nullopt;
  const IntValues& x = *operands[0];
  const Type& x_type = op.operands[0]->type;
  // Elementwise operands may be scalars next to tensors (select, clamp).
  auto at = [&](size_t operand, size_t i) {
    const IntValues& v = *operands[operand];
    return v.size() == 1 ? v[0] : v[i];
  };
  auto same_size = [&] {
    for (const IntValues* v : operands) {
      if (v->size() != n && v->size() != 1) return false;
    }
    return true;
  };
  switch (op.code) {
    case OpCode::kConvert:
    case OpCode::kReshape:
    case OpCode::kOptimizationBarrier: {
      if (x.size() != n) return std::nullopt;
      IntValues out(n);
      // Booleans convert as 0/1; integers wrap to the target's width.
      for (size_t i = 0; i < n; ++i) out[i] = NormalizeInt(e, x[i]);
      return out;
    }
    case OpCode::kNegate:
    case OpCode::kAbs:
    case OpCode::kSign:
    case OpCode::kNot: {
      if (x.size() != n) return std::nullopt;
      IntValues out(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t v = x[i];
        int64_t r = 0;
        if (op.code == OpCode::kNegate) r = static_cast<int64_t>(0 - static_cast<uint64_t>(v));
        if (op.code == OpCode::kAbs) r = v < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : v;
        if (op.code == OpCode::kSign) r = shlo::IsUnsignedInteger(e) ? (v != 0) : (v > 0) - (v < 0);
        if (op.code == OpCode::kNot) r = shlo::IsBoolean(e) ? !v : ~v;
        out[i] = NormalizeInt(e, r);
      }
      return out;
    }
    case OpCode::kAdd:
    case OpCode::kSubtract:
    case OpCode::kMultiply:
    case OpCode::kDivide:
    case OpCode::kRemainder:
    case OpCode::kMaximum:
    case OpCode::kMinimum:
    case OpCode::kAnd:
    case OpCode::kOr:
    case OpCode::kXor: {
      if (operands.size() != 2 || !same_size()) return std::nullopt;
      IntValues out(n);
      for (size_t i = 0; i < n; ++i) {
        std::optional<int64_t> r = Binary(op.code, e, at(0, i), at(1, i));
        if (!r) return std::nullopt;
        out[i] = NormalizeInt(e, *r);
      }
      return out;
    }
    case OpCode::kCompare: {
      if (operands.size() != 2 || !same_size()) return std::nullopt;
      const shlo::Attribute* dir = op.attribute("comparison_direction");
      if (dir == nullptr) return std::nullopt;
      StatusOr<std::string> direction = shlo::AttrToEnumValue(*dir);
      if (!direction.ok()) return std::nullopt;
      bool is_unsigned = shlo::IsUnsignedInteger(x_type.element_type()) ||
                         shlo::IsBoolean(x_type.element_type());
      if (const shlo::Attribute* ct = op.attribute("compare_type")) {
        StatusOr<std::string> kind = shlo::AttrToEnumValue(*ct);
        if (kind.ok() && *kind == "UNSIGNED") is_unsigned = true;
        if (kind.ok() && *kind == "SIGNED") is_unsigned = false;
      }
      IntValues out(n);
      for (size_t i = 0; i < n; ++i) {
        std::optional<bool> r = Compare(*direction, is_unsigned, at(0, i), at(1, i));
        if (!r) return std::nullopt;
        out[i] = *r ? 1 : 0;
      }
      return out;
    }
    case OpCode::kSelect: {
      if (operands.size() != 3 || !same_size()) return std::nullopt;
      IntValues out(n);
      for (size_t i = 0; i < n; ++i) out[i] = at(0, i) != 0 ? at(1, i) : at(2, i);
      return out;
    }
    case OpCode::kClamp: {
      if (operands.size() != 3 || !same_size()) return std::nullopt;
      const bool is_unsigned = shlo::IsUnsignedInteger(e);
      IntValues out(n);
      for (size_t i = 0; i < n; ++i) {
        int64_t v = at(1, i);
        const int64_t lo = at(0, i), hi = at(2, i);
        if (is_unsigned ? static_cast<uint64_t>(v) < static_cast<uint64_t>(lo) : v < lo) v = lo;
        if (is_unsigned ? static_cast<uint64_t>(v) > static_cast<uint64_t>(hi) : v > hi) v = hi;
        out[i] = v;
      }
      return out;
    }
    case OpCode::kBroadcastInDim: {
      std::optional<std::vector<int64_t>> dims = IntsAttr(op, "broadcast_dimensions");
      if (!dims || dims->size() != x_type.dims().size()) return std::nullopt;
      // Shapes are not verified yet while refinement runs: a mismatch is
      // left for the verifier, never read out of bounds.
      for (size_t k = 0; k < dims->size(); ++k) {
        const int64_t d = (*dims)[k];
        if (d < 0 || d >= type.rank() ||
            (x_type.dims()[k] != 1 && x_type.dims()[k] != type.dims()[static_cast<size_t>(d)])) {
          return std::nullopt;
        }
      }
      const std::vector<int64_t> in_strides = Strides(x_type.dims());
      IntValues out(n);
      ForEachIndex(type.dims(), [&](const std::vector<int64_t>& index, int64_t flat) {
        int64_t src = 0;
        for (size_t k = 0; k < dims->size(); ++k) {
          const int64_t d = (*dims)[k];
          src += (x_type.dims()[k] == 1 ? 0 : index[static_cast<size_t>(d)]) * in_strides[k];
        }
        out[static_cast<size_t>(flat)] = x[static_cast<size_t>(src)];
      });
      return out;
    }
    case OpCode::kConcatenate: {
      std::optional<int64_t> dim = IntAttr(op, "dimension");
      if (!dim || *dim < 0 || *dim >= type.rank()) return std::nullopt;
      const auto d = static_cast<size_t>(*dim);
      int64_t total = 0;
      for (const shlo::Value* v : op.operands) {
        const std::vector<int64_t>& in_dims = v->type.dims();
        if (in_dims.size() != type.dims().size()) return std::nullopt;
        for (size_t k = 0; k < in_dims.size(); ++k) {
          if (k != d && in_dims[k] != type.dims()[k]) return std::nullopt;
        }
        total += in_dims[d];
      }
      if (total != type.dims()[d]) return std::nullopt;
      IntValues out(n);
      // Walk the result; find which operand each index along `dim` is in.
      bool ok = true;
      ForEachIndex(type.dims(), [&](const std::vector<int64_t>& index, int64_t flat) {
        int64_t along = index[d];
        for (size_t i = 0; i < operands.size(); ++i) {
          const std::vector<int64_t>& in_dims = op.operands[i]->type.dims();
          if (along < in_dims[d]) {
            std::vector<int64_t> in_index = index;
            in_index[d] = along;
            const std::vector<int64_t> strides = Strides(in_dims);
            int64_t src = 0;
            for (size_t k = 0; k < in_index.size(); ++k) src += in_index[k] * strides[k];
            out[static_cast<size_t>(flat)] = (*operands[i])[static_cast<size_t>(src)];
            return;
          }
          along -= in_dims[d];
        }
        ok = false;
      });
      if (!ok) return std::nullopt;
      return out;
    }
    case OpCode::kSlice: {
      std::optional<std::vector<int64_t>> start = IntsAttr(op, "start_indices");
      std::optional<std::vector<int64_t>> strides = IntsAttr(op, "strides");
      if (!start || start->size() != x_type.dims().size()) return std::nullopt;
      if (!strides) strides = std::vector<int64_t>(start->size(), 1);
      if (strides->size() != start->size()) return std::nullopt;
      for (size_t k = 0; k < start->size(); ++k) {
        const int64_t last = (*start)[k] + (type.dims()[k] - 1) * (*strides)[k];
        if (type.dims()[k] > 0 && ((*start)[k] < 0 || (*strides)[k] <= 0 || last >= x_type.dims()[k])) {
          return std::nullopt;
        }
      }
      const std::vector<int64_t> in_strides = Strides(x_type.dims());
      IntValues out(n);
      ForEachIndex(type.dims(), [&](const std::vector<int64_t>& index, int64_t flat) {
        int64_t src = 0;
        for (size_t k = 0; k < index.size(); ++k) {
          src += ((*start)[k] + index[k] * (*strides)[k]) * in_strides[k];
        }
        out[static_cast<size_t>(flat)] = x[static_cast<size_t>(src)];
      });
      return out;
    }
    case OpCode::kTranspose: {
      std::optional<std::vector<int64_t>> perm = IntsAttr(op, "permutation");
      if (!perm || perm->size() != x_type.dims().size()) return std::nullopt;
      for (size_t k = 0; k < perm->size(); ++k) {
        const int64_t p = (*perm)[k];
        if (p < 0 || p >= type.rank() || x_type.dims()[static_cast<size_t>(p)] != type.dims()[k]) {
          return std::nullopt;
        }
      }
      const std::vector<int64_t> in_strides = Strides(x_type.dims());
      IntValues out(n);
      ForEachIndex(type.dims(), [&](const std::vector<int64_t>& index, int64_t flat) {
        int64_t src = 0;
        for (size_t k = 0; k < index.size(); ++k) {
          src += index[k] * in_strides[static_cast<size_t>((*perm)[k])];
        }
        out[static_cast<size_t>(flat)] = x[static_cast<size_t>(src)];
      });
      return out;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace plugrt::passes
