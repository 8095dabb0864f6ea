#include "compiler/passes/lower_quantized.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "kernels_abi/custom_call_targets.h"
#include "stablehlo/float_format.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::Block;
using shlo::DenseData;
using shlo::ElementType;
using shlo::IrBuilder;
using shlo::Module;
using shlo::OpCode;
using shlo::Operation;
using shlo::Region;
using shlo::Type;
using shlo::UniformQuantParams;
using shlo::Value;

bool ContainsQuant(const Type& type) {
  if (type.is_tuple()) {
    return std::any_of(type.tuple_elements().begin(), type.tuple_elements().end(),
                       ContainsQuant);
  }
  return type.is_quantized();
}

// `type` with each quantized element type replaced by its storage type.
Type StorageType(const Type& type) {
  if (type.is_tuple()) {
    std::vector<Type> elements;
    for (const Type& e : type.tuple_elements()) elements.push_back(StorageType(e));
    return Type::Tuple(std::move(elements));
  }
  return type.is_quantized() ? type.WithPlainElement(type.element_type()) : type;
}

// `type` with each quantized element type replaced by its expressed type.
Type ExpressedType(const Type& type) {
  if (type.is_tuple()) {
    std::vector<Type> elements;
    for (const Type& e : type.tuple_elements()) elements.push_back(ExpressedType(e));
    return Type::Tuple(std::move(elements));
  }
  return type.is_quantized() ? type.WithPlainElement(type.quant()->expressed) : type;
}

bool OpHasQuant(const Operation& op) {
  for (const Value* v : op.operands) {
    if (ContainsQuant(v->type)) return true;
  }
  for (const auto& r : op.results) {
    if (ContainsQuant(r->type)) return true;
  }
  return false;
}

bool RegionsHaveQuant(const Operation& op);
bool BlockHasQuant(const Block& block) {
  for (const auto& arg : block.arguments) {
    if (ContainsQuant(arg->type)) return true;
  }
  for (const auto& op : block.operations) {
    if (OpHasQuant(*op) || RegionsHaveQuant(*op)) return true;
  }
  return false;
}
bool RegionsHaveQuant(const Operation& op) {
  for (const auto& region : op.regions) {
    for (const auto& block : region->blocks) {
      if (BlockHasQuant(*block)) return true;
    }
  }
  return false;
}

template <typename... Args>
Status OpUnimplemented(const Operation& op, const Args&... args) {
  return Unimplemented(op.location.ToString(), ": ", op.name, ": ", args...);
}

// Ops that only pass values along or reinterpret their storage: on
// quantized values they do the same to the storage integers.
bool IsPassThrough(OpCode code) {
  switch (code) {
    case OpCode::kReturn:
    case OpCode::kFuncReturn:
    case OpCode::kTuple:
    case OpCode::kGetTupleElement:
    case OpCode::kOptimizationBarrier:
    case OpCode::kWhile:
    case OpCode::kIf:
    case OpCode::kCase:
    case OpCode::kFuncCall:
    case OpCode::kBitcastConvert:
    case OpCode::kConstant:
    case OpCode::kCustomCall:
      return true;
    default:
      return false;
  }
}

// Ops that move or select elements without computing on them: on quantized
// values whose parameters agree they work on the storage integers (the
// spec's constraints make them agree).
bool IsDataMovement(OpCode code) {
  switch (code) {
    case OpCode::kBroadcastInDim:
    case OpCode::kConcatenate:
    case OpCode::kDynamicReshape:
    case OpCode::kDynamicSlice:
    case OpCode::kDynamicUpdateSlice:
    case OpCode::kGather:
    case OpCode::kPad:
    case OpCode::kReshape:
    case OpCode::kReverse:
    case OpCode::kSelect:
    case OpCode::kSlice:
    case OpCode::kTranspose:
    case OpCode::kGetDimensionSize:
    case OpCode::kDynamicBroadcastInDim:
    case OpCode::kMaximum:
    case OpCode::kMinimum:
      return true;
    default:
      return false;
  }
}

// True when all quantized operand and result types of `op` have the same
// storage, range, expressed type, scales and zero points (the quantized
// dimension may move: transpose, reshape).
bool SameQuantParams(const Operation& op, bool allow_axis_move) {
  const UniformQuantParams* first = nullptr;
  auto check = [&](const Type& t) {
    if (t.is_tuple()) return false;
    if (!t.is_quantized()) return true;
    if (first == nullptr) {
      first = t.quant();
      return true;
    }
    const UniformQuantParams& q = *t.quant();
    if (!allow_axis_move && q.quantized_dimension != first->quantized_dimension) return false;
    return q.storage == first->storage && q.storage_min == first->storage_min &&
           q.storage_max == first->storage_max && q.expressed == first->expressed &&
           q.scales == first->scales && q.zero_points == first->zero_points;
  };
  for (const Value* v : op.operands) {
    if (!check(v->type)) return false;
  }
  for (const auto& r : op.results) {
    if (!check(r->type)) return false;
  }
  return true;
}

// Emits the arithmetic of one tensor shape.
class Emitter {
 public:
  Emitter(IrBuilder& b, std::vector<int64_t> dims) : b_(b), dims_(std::move(dims)) {}

  Type T(ElementType e) const { return Type::Tensor(e, dims_); }

  Value* Splat(ElementType e, double value) {
    return shlo::IsFloat(e) ? b_.SplatFloat(T(e), value)
                            : b_.SplatInt(T(e), static_cast<int64_t>(value));
  }
  // One value per index of dimension `axis`, broadcast along the others.
  Value* PerAxis(ElementType e, const std::vector<double>& values, int64_t axis) {
    const size_t width = static_cast<size_t>(shlo::StorageBytes(e));
    auto data = std::make_shared<DenseData>();
    data->bytes.resize(width * values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      std::byte* out = data->bytes.data() + i * width;
      if (e == ElementType::kF32) {
        float f = static_cast<float>(values[i]);
        std::memcpy(out, &f, sizeof f);
      } else if (e == ElementType::kF64) {
        std::memcpy(out, &values[i], sizeof(double));
      } else if (shlo::IsFloat(e)) {
        uint64_t bits = shlo::EncodeFloat(e, values[i]);
        std::memcpy(out, &bits, width);
      } else {
        int64_t v = static_cast<int64_t>(values[i]);
        std::memcpy(out, &v, width);
      }
    }
    Type vector_type = Type::Tensor(e, {static_cast<int64_t>(values.size())});
    Value* vec = b_.Op("stablehlo.constant", {}, vector_type,
                       {{"value", Attribute::Dense(vector_type, std::move(data))}});
    return b_.BroadcastInDim(vec, T(e), {axis});
  }
  // A parameter of `q` (its scales or zero points) as a tensor of `e`.
  Value* Param(const UniformQuantParams& q, const std::vector<double>& values, ElementType e) {
    if (!q.per_axis()) return Splat(e, values[0]);
    return PerAxis(e, values, q.quantized_dimension);
  }
  Value* Bin(const char* name, Value* a, Value* c, ElementType e) {
    return b_.Op(name, {a, c}, T(e));
  }
  Value* Convert(Value* v, ElementType from, ElementType to) {
    if (from == to) return v;
    return b_.Op("stablehlo.convert", {v}, T(to));
  }
  Value* Clamp(Value* v, ElementType e, double lo, double hi) {
    return b_.Op("stablehlo.clamp", {Splat(e, lo), v, Splat(e, hi)}, T(e));
  }
  Value* RoundEven(Value* v, ElementType e) {
    return b_.Op("stablehlo.round_nearest_even", {v}, T(e));
  }

 private:
  IrBuilder& b_;
  std::vector<int64_t> dims_;
};

std::vector<double> Scales(const UniformQuantParams& q) { return q.scales; }
std::vector<double> ZeroPoints(const UniformQuantParams& q) {
  return std::vector<double>(q.zero_points.begin(), q.zero_points.end());
}

// float -> storage: round_nearest_even(clamp(min, x / scale + zp, max)).
Value* Quantize(Emitter& e, Value* x, ElementType float_type, const UniformQuantParams& q) {
  Value* y = e.Bin("stablehlo.divide", x, e.Param(q, Scales(q), float_type), float_type);
  y = e.Bin("stablehlo.add", y, e.Param(q, ZeroPoints(q), float_type), float_type);
  y = e.Clamp(y, float_type, static_cast<double>(q.storage_min),
              static_cast<double>(q.storage_max));
  y = e.RoundEven(y, float_type);
  return e.Convert(y, float_type, q.storage);
}

// storage -> expressed: (stored - zp) * scale, the subtraction in integers.
Value* Dequantize(Emitter& e, Value* v, const UniformQuantParams& q, ElementType float_type) {
  const ElementType wide = shlo::BitWidth(q.storage) >= 32 ? ElementType::kSI64
                                                            : ElementType::kSI32;
  Value* x = e.Convert(v, q.storage, wide);
  x = e.Bin("stablehlo.subtract", x, e.Param(q, ZeroPoints(q), wide), wide);
  Value* f = e.Convert(x, wide, float_type);
  return e.Bin("stablehlo.multiply", f, e.Param(q, Scales(q), float_type), float_type);
}

// storage of `in` -> storage `out_storage` holding values of `out`:
// stored * merged_scale + merged_zp in f32 with merged_scale = in_scale /
// out_scale and merged_zp = out_zp - in_zp * merged_scale (dequantize then
// quantize, folded), clamped when the result is narrower than 32 bits.
StatusOr<Value*> Requantize(Emitter& e, const Operation& op, Value* v,
                            const UniformQuantParams& in, const UniformQuantParams& out,
                            ElementType out_storage) {
  if (in == out) return e.Convert(v, in.storage, out_storage);
  if (in.per_axis() && out.per_axis() && in.quantized_dimension != out.quantized_dimension) {
    return OpUnimplemented(op, "requantizing from quantization dimension ",
                           in.quantized_dimension, " to ", out.quantized_dimension,
                           " is not supported");
  }
  const UniformQuantParams& axis_params = out.per_axis() ? out : in;
  const size_t channels = axis_params.scales.size();
  if (in.per_axis() && out.per_axis() && in.scales.size() != out.scales.size()) {
    return OpUnimplemented(op, "per-axis types of different channel counts");
  }
  std::vector<double> merged_scale(channels), merged_zp(channels);
  bool any_zp = false;
  for (size_t i = 0; i < channels; ++i) {
    const double in_scale = in.scales[in.per_axis() ? i : 0];
    const double out_scale = out.scales[out.per_axis() ? i : 0];
    const double in_zp = static_cast<double>(in.zero_points[in.per_axis() ? i : 0]);
    const double out_zp = static_cast<double>(out.zero_points[out.per_axis() ? i : 0]);
    merged_scale[i] = in_scale / out_scale;
    merged_zp[i] = out_zp - in_zp * merged_scale[i];
    if (static_cast<float>(merged_zp[i]) != 0.0f) any_zp = true;
  }
  const ElementType f32 = ElementType::kF32;
  Value* f = e.Convert(v, in.storage, f32);
  f = e.Bin("stablehlo.multiply", f, e.Param(axis_params, merged_scale, f32), f32);
  if (any_zp) f = e.Bin("stablehlo.add", f, e.Param(axis_params, merged_zp, f32), f32);
  if (shlo::BitWidth(out_storage) < 32) {
    f = e.Clamp(f, f32, static_cast<double>(out.storage_min), static_cast<double>(out.storage_max));
  }
  f = e.RoundEven(f, f32);
  return e.Convert(f, f32, out_storage);
}

class Lowering {
 public:
  Status LowerFunction(shlo::Function& function) {
    if (!function.body) return OkStatus();
    for (auto& block : function.body->blocks) {
      for (auto& arg : block->arguments) {
        if (ContainsQuant(arg->type)) to_storage_.push_back(arg.get());
      }
    }
    for (auto& block : function.body->blocks) PLUGRT_RETURN_IF_ERROR(LowerBlock(*block));
    Finish(*function.body);
    for (Type& t : function.input_types) t = StorageType(t);
    for (Type& t : function.result_types) t = StorageType(t);
    return OkStatus();
  }

 private:
  // The value that now stands for `v`.
  Value* L(Value* v) const {
    auto it = replaced_.find(v);
    return it == replaced_.end() ? v : it->second;
  }

  Status LowerBlock(Block& block) {
    std::vector<Operation*> ops;
    for (auto& op : block.operations) ops.push_back(op.get());
    for (Operation* op : ops) PLUGRT_RETURN_IF_ERROR(LowerOp(op));
    return OkStatus();
  }

  Status CheckStatic(const Operation& op, const Type& type) {
    if (!type.is_tensor() || !type.has_static_shape()) {
      return OpUnimplemented(op, "quantized values of type ", type.ToString(),
                             " (dynamic shape or not a tensor) are not supported");
    }
    return OkStatus();
  }

  Status LowerOp(Operation* op) {
    if (!OpHasQuant(*op)) {
      if (!RegionsHaveQuant(*op)) return OkStatus();
      return ChangeTypes(op);
    }
    switch (op->code) {
      case OpCode::kUniformQuantize:
        return LowerQuantize(op);
      case OpCode::kUniformDequantize:
        return LowerDequantize(op);
      case OpCode::kAdd:
        return LowerAdd(op);
      case OpCode::kDot:
      case OpCode::kDotGeneral:
      case OpCode::kConvolution:
        if (op->operands.size() == 2 && !op->operands[0]->type.is_quantized() &&
            op->operands[1]->type.is_quantized() && !op->results[0]->type.is_quantized()) {
          return LowerHybrid(op);
        }
        if (op->code == OpCode::kDotGeneral) {
          PLUGRT_ASSIGN_OR_RETURN(bool lowered, LowerIntegerDot(op));
          if (lowered) return OkStatus();
        }
        return LowerByFloat(op);
      default:
        break;
    }
    if (IsPassThrough(op->code)) return ChangeTypes(op);
    if (IsDataMovement(op->code)) {
      const bool axis_may_move = op->code != OpCode::kMaximum && op->code != OpCode::kMinimum;
      if (SameQuantParams(*op, axis_may_move)) return ChangeTypes(op);
    }
    return LowerByFloat(op);
  }

  // The same op on storage integers: only the types change.
  Status ChangeTypes(Operation* op) {
    for (auto& region : op->regions) {
      for (auto& block : region->blocks) {
        for (auto& arg : block->arguments) {
          if (ContainsQuant(arg->type)) to_storage_.push_back(arg.get());
        }
        PLUGRT_RETURN_IF_ERROR(LowerBlock(*block));
      }
    }
    for (auto& r : op->results) {
      if (ContainsQuant(r->type)) to_storage_.push_back(r.get());
    }
    for (auto& [name, attr] : op->attributes) {
      if ((attr.kind == Attribute::Kind::kDenseElements || attr.kind == Attribute::Kind::kType) &&
          ContainsQuant(attr.type)) {
        attr.type = StorageType(attr.type);
      }
    }
    return OkStatus();
  }

  Status LowerQuantize(Operation* op) {
    if (op->operands.size() != 1 || op->results.size() != 1) {
      return OpUnimplemented(*op, "expects one operand and one result");
    }
    Value* operand = op->operands[0];
    const Type& result_type = op->results[0]->type;
    PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, result_type));
    if (!result_type.is_quantized()) {
      return OpUnimplemented(*op, "the result must be quantized");
    }
    IrBuilder b(op);
    Emitter e(b, result_type.dims());
    Value* out = nullptr;
    if (operand->type.is_quantized()) {
      PLUGRT_ASSIGN_OR_RETURN(out, Requantize(e, *op, L(operand), *operand->type.quant(),
                                              *result_type.quant(), result_type.element_type()));
    } else if (shlo::IsFloat(operand->type.element_type())) {
      out = Quantize(e, L(operand), operand->type.element_type(), *result_type.quant());
    } else {
      return OpUnimplemented(*op, "the operand must be a float or quantized tensor");
    }
    Replace(op, 0, out);
    return OkStatus();
  }

  Status LowerDequantize(Operation* op) {
    if (op->operands.size() != 1 || op->results.size() != 1 ||
        !op->operands[0]->type.is_quantized() ||
        !shlo::IsFloat(op->results[0]->type.element_type())) {
      return OpUnimplemented(*op, "expects a quantized operand and a float result");
    }
    const Type& operand_type = op->operands[0]->type;
    PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, operand_type));
    IrBuilder b(op);
    Emitter e(b, operand_type.dims());
    Replace(op, 0, Dequantize(e, L(op->operands[0]), *operand_type.quant(),
                              op->results[0]->type.element_type()));
    return OkStatus();
  }

  Status LowerAdd(Operation* op) {
    if (op->operands.size() != 2 || op->results.size() != 1) return LowerByFloat(op);
    const Type& lt = op->operands[0]->type;
    const Type& rt = op->operands[1]->type;
    const Type& res = op->results[0]->type;
    if (!lt.is_quantized() || !rt.is_quantized() || !res.is_quantized()) return LowerByFloat(op);
    PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, res));
    const UniformQuantParams& ql = *lt.quant();
    const UniformQuantParams& qr = *rt.quant();
    const UniformQuantParams& qo = *res.quant();
    IrBuilder b(op);
    Emitter e(b, res.dims());
    const ElementType i32 = ElementType::kSI32;
    if (ql.per_axis() || qr.per_axis() || qo.per_axis()) {
      // The integer form needs one parameter set on i32 storage (what
      // dot/convolution results carry); others go through float.
      if (!(ql == qo && qr == qo) || qo.storage != i32) return LowerByFloat(op);
      Value* sum = e.Bin("stablehlo.add", L(op->operands[0]), L(op->operands[1]), i32);
      if (std::any_of(qo.zero_points.begin(), qo.zero_points.end(),
                      [](int64_t zp) { return zp != 0; })) {
        sum = e.Bin("stablehlo.subtract", sum, e.Param(qo, ZeroPoints(qo), i32), i32);
      }
      Replace(op, 0, sum);
      return OkStatus();
    }
    // Both operands in the result's scale and zero point:
    // (l - zp) + (r - zp) + zp = l + r - zp.
    PLUGRT_ASSIGN_OR_RETURN(Value * l, Requantize(e, *op, L(op->operands[0]), ql, qo, i32));
    PLUGRT_ASSIGN_OR_RETURN(Value * r, Requantize(e, *op, L(op->operands[1]), qr, qo, i32));
    Value* sum = e.Bin("stablehlo.add", l, r, i32);
    sum = e.Bin("stablehlo.subtract", sum, e.Splat(i32, static_cast<double>(qo.zero_points[0])),
                i32);
    if (shlo::BitWidth(qo.storage) < 32) {
      sum = e.Clamp(sum, i32, static_cast<double>(qo.storage_min),
                    static_cast<double>(qo.storage_max));
    }
    Replace(op, 0, e.Convert(sum, i32, qo.storage));
    return OkStatus();
  }

  // Float lhs, quantized rhs, float result: the rhs (weights) dequantized
  // in float, then the float op.
  Status LowerHybrid(Operation* op) {
    const Type& rt = op->operands[1]->type;
    PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, rt));
    const UniformQuantParams& q = *rt.quant();
    const ElementType f = op->results[0]->type.element_type();
    if (!shlo::IsFloat(f)) return OpUnimplemented(*op, "a hybrid op needs a float result");
    IrBuilder b(op);
    Emitter e(b, rt.dims());
    Value* w = e.Convert(L(op->operands[1]), q.storage, f);
    if (std::any_of(q.zero_points.begin(), q.zero_points.end(),
                    [](int64_t zp) { return zp != 0; })) {
      w = e.Bin("stablehlo.subtract", w, e.Param(q, ZeroPoints(q), f), f);
    }
    w = e.Bin("stablehlo.multiply", w, e.Param(q, Scales(q), f), f);
    IrBuilder::ValueMap map;
    map[op->operands[1]] = w;
    if (op->operands[0] != op->operands[1]) map[op->operands[0]] = L(op->operands[0]);
    Operation* copy = b.Clone(*op, map);
    Replace(op, 0, copy->result(0));
    return OkStatus();
  }

  // Quantized dot_general in integers, when the weights (rhs) have zero
  // points 0 (per-tensor, or per-axis along one of their free dimensions)
  // and both operands are 8-bit: sum((l - lzp) * r) of the stored integers
  // is an exact integer; times lhs_scale * rhs_scale it is the float
  // product, which is then quantized to the result type. One
  // "plugrt.quantized_dot" custom call does all of it (custom_call_targets.h
  // defines it), so a backend can run the product and its rescaling as one
  // kernel. False: not such a case.
  StatusOr<bool> LowerIntegerDot(Operation* op) {
    if (op->operands.size() != 2 || op->results.size() != 1) return false;
    const Type& lt = op->operands[0]->type;
    const Type& rt = op->operands[1]->type;
    const Type& res = op->results[0]->type;
    if (!lt.is_quantized() || !rt.is_quantized() || !res.is_quantized()) return false;
    if (!lt.has_static_shape() || !rt.has_static_shape() || !res.has_static_shape()) return false;
    const UniformQuantParams& ql = *lt.quant();
    const UniformQuantParams& qr = *rt.quant();
    const UniformQuantParams& qo = *res.quant();
    if (ql.per_axis() || shlo::BitWidth(ql.storage) != 8 || shlo::BitWidth(qr.storage) != 8) {
      return false;
    }
    if (std::any_of(qr.zero_points.begin(), qr.zero_points.end(),
                    [](int64_t zp) { return zp != 0; })) {
      return false;
    }
    const Attribute* dn = op->attribute("dot_dimension_numbers");
    if (dn == nullptr) return false;
    auto field = [&](const char* name) -> std::vector<int64_t> {
      const Attribute* f = dn->field(name);
      if (f == nullptr) return {};
      StatusOr<std::vector<int64_t>> list = shlo::AttrToIntList(*f);
      return list.ok() ? *list : std::vector<int64_t>{};
    };
    const std::vector<int64_t> rb = field("rhs_batching_dimensions");
    const std::vector<int64_t> rc = field("rhs_contracting_dimensions");
    const std::vector<int64_t> lb = field("lhs_batching_dimensions");
    const std::vector<int64_t> lc = field("lhs_contracting_dimensions");
    const int64_t lhs_free = lt.rank() - static_cast<int64_t>(lb.size() + lc.size());
    auto contains = [](const std::vector<int64_t>& v, int64_t d) {
      return std::find(v.begin(), v.end(), d) != v.end();
    };
    // Where each rhs dimension that survives the contraction lands in the
    // result: batching dims first, then lhs free dims, then rhs free dims.
    std::vector<int64_t> kept, kept_to_result;
    int64_t free_index = 0;
    for (int64_t d = 0; d < rt.rank(); ++d) {
      if (contains(rc, d)) continue;
      kept.push_back(d);
      auto it = std::find(rb.begin(), rb.end(), d);
      kept_to_result.push_back(it != rb.end() ? it - rb.begin()
                                              : static_cast<int64_t>(rb.size()) + lhs_free +
                                                    free_index++);
    }
    // The product's scale is lhs_scale * rhs_scale, per rhs channel along
    // the result dimension the rhs channels become; divided by the result's
    // scale it is the one multiplier of each channel.
    int64_t scale_dimension = -1;
    std::vector<double> product_scales;
    if (qr.per_axis()) {
      auto it = std::find(kept.begin(), kept.end(), qr.quantized_dimension);
      if (it == kept.end() || contains(rb, qr.quantized_dimension)) return false;
      scale_dimension = kept_to_result[it - kept.begin()];
      if (qo.per_axis() && qo.quantized_dimension != scale_dimension) return false;
      if (qo.per_axis() && qo.scales.size() != qr.scales.size()) return false;
      for (double s : qr.scales) product_scales.push_back(ql.scales[0] * s);
    } else {
      if (qo.per_axis()) return false;
      product_scales.push_back(ql.scales[0] * qr.scales[0]);
    }
    std::vector<Attribute> scales;
    std::vector<int64_t> zero_points;
    for (size_t c = 0; c < product_scales.size(); ++c) {
      const size_t oc = qo.per_axis() ? c : 0;
      scales.push_back(Attribute::Float(static_cast<float>(product_scales[c] / qo.scales[oc])));
      zero_points.push_back(qo.zero_points[oc]);
    }

    namespace abi = kernels_abi;
    auto name = [](std::string_view n) { return std::string(n); };
    IrBuilder b(op);
    Value* out = b.Op(
        "stablehlo.custom_call", {L(op->operands[0]), L(op->operands[1])}, StorageType(res),
        {{"call_target_name", Attribute::String(name(abi::kQuantizedDotTarget))},
         {"dot_dimension_numbers", *dn},
         {name(abi::kQuantizedDotLhsZeroPoint), Attribute::Integer(ql.zero_points[0])},
         {name(abi::kQuantizedDotScales), Attribute::Array(std::move(scales))},
         {name(abi::kQuantizedDotZeroPoints), Attribute::DenseI64Array(std::move(zero_points))},
         {name(abi::kQuantizedDotScaleDimension), Attribute::Integer(scale_dimension)},
         {name(abi::kQuantizedDotStorageMin), Attribute::Integer(qo.storage_min)},
         {name(abi::kQuantizedDotStorageMax), Attribute::Integer(qo.storage_max)}});
    Replace(op, 0, out);
    return true;
  }

  // dequantize -> the op in the expressed type -> quantize.
  Status LowerByFloat(Operation* op) {
    IrBuilder b(op);
    IrBuilder::ValueMap map;
    for (Value* v : op->operands) {
      if (map.count(v) != 0) continue;
      if (v->type.is_tuple() && ContainsQuant(v->type)) {
        return OpUnimplemented(*op, "quantized tuple operands are not supported");
      }
      if (!v->type.is_quantized()) {
        map[v] = L(v);
        continue;
      }
      PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, v->type));
      Emitter e(b, v->type.dims());
      map[v] = Dequantize(e, L(v), *v->type.quant(), v->type.quant()->expressed);
    }
    for (const auto& r : op->results) {
      if (r->type.is_tuple() && ContainsQuant(r->type)) {
        return OpUnimplemented(*op, "quantized tuple results are not supported");
      }
      if (r->type.is_quantized()) PLUGRT_RETURN_IF_ERROR(CheckStatic(*op, r->type));
    }
    Operation* copy = b.Clone(*op, map);
    for (auto& region : copy->regions) ExpressRegion(*region);
    for (size_t i = 0; i < op->results.size(); ++i) {
      const Type& original = op->results[i]->type;
      Value* result = copy->result(i);
      result->type = ExpressedType(original);
      if (!original.is_quantized()) {
        Replace(op, i, result);
        continue;
      }
      Emitter e(b, original.dims());
      Replace(op, i, Quantize(e, result, original.quant()->expressed, *original.quant()));
    }
    return OkStatus();
  }

  // Inside the region of an op computed in float, quantized scalars stand
  // for their expressed values.
  static void ExpressRegion(Region& region) {
    for (auto& block : region.blocks) {
      for (auto& arg : block->arguments) arg->type = ExpressedType(arg->type);
      for (auto& op : block->operations) {
        for (auto& r : op->results) r->type = ExpressedType(r->type);
        for (auto& nested : op->regions) ExpressRegion(*nested);
      }
    }
  }

  void Replace(Operation* op, size_t i, Value* to) {
    replaced_[op->result(i)] = to;
    dead_.insert(op);
  }

  // Redirects every use to the replacements, drops the replaced ops and
  // gives the kept values their storage types.
  void Finish(Region& region) {
    RemapAndErase(region);
    for (Value* v : to_storage_) v->type = StorageType(v->type);
  }
  void RemapAndErase(Region& region) {
    for (auto& block : region.blocks) {
      auto& ops = block->operations;
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](const std::unique_ptr<Operation>& o) {
                                 return dead_.count(o.get()) != 0;
                               }),
                ops.end());
      for (auto& op : ops) {
        for (Value*& operand : op->operands) operand = L(operand);
        for (auto& nested : op->regions) RemapAndErase(*nested);
      }
    }
  }

  std::unordered_map<const Value*, Value*> replaced_;
  std::unordered_set<const Operation*> dead_;
  std::vector<Value*> to_storage_;
};

}  // namespace

bool HasQuantizedTypes(const Module& module) {
  for (const auto& function : module.functions) {
    for (const Type& t : function->input_types) {
      if (ContainsQuant(t)) return true;
    }
    for (const Type& t : function->result_types) {
      if (ContainsQuant(t)) return true;
    }
    if (!function->body) continue;
    for (const auto& block : function->body->blocks) {
      if (BlockHasQuant(*block)) return true;
    }
  }
  return false;
}

Status LowerQuantized(Module& module) {
  if (!HasQuantizedTypes(module)) return OkStatus();
  for (auto& function : module.functions) {
    Lowering lowering;
    PLUGRT_RETURN_IF_ERROR(lowering.LowerFunction(*function));
  }
  return OkStatus();
}

}  // namespace plugrt::passes
