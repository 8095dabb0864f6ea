// The CHLO lowering: rewrites every chlo.* op into StableHLO.
//
// Structural ops (implicit broadcasting, constants, predicates, conj,
// next_after, top_k) become StableHLO ops; special functions become
// "plugrt.math.<name>" custom calls (named in kernels_abi/
// custom_call_targets.h) that the CPU backend runs with accurate kernels
// (src/cpu/kernels/special_functions.cc).
#include "compiler/passes/lower_chlo.h"

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels_abi/custom_call_targets.h"
#include "compiler/passes/lower_chlo_ragged_dot.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::shlo {
namespace {

using kernels_abi::MathTarget;

constexpr std::string_view kChloPrefix = "chlo.";

Status LoweringError(const Operation& op, StatusCode code, const std::string& message) {
  return Status(code, StrCat(op.location.ToString(), ": ", op.name, ": ", message));
}

// chlo.broadcast_<name> -> the StableHLO op of the same meaning.
std::string_view BroadcastTarget(std::string_view name) {
  struct Entry {
    std::string_view chlo, stablehlo;
  };
  static constexpr Entry kTable[] = {
      {"broadcast_add", "stablehlo.add"},
      {"broadcast_subtract", "stablehlo.subtract"},
      {"broadcast_multiply", "stablehlo.multiply"},
      {"broadcast_divide", "stablehlo.divide"},
      {"broadcast_remainder", "stablehlo.remainder"},
      {"broadcast_power", "stablehlo.power"},
      {"broadcast_maximum", "stablehlo.maximum"},
      {"broadcast_minimum", "stablehlo.minimum"},
      {"broadcast_and", "stablehlo.and"},
      {"broadcast_or", "stablehlo.or"},
      {"broadcast_xor", "stablehlo.xor"},
      {"broadcast_atan2", "stablehlo.atan2"},
      {"broadcast_complex", "stablehlo.complex"},
      {"broadcast_shift_left", "stablehlo.shift_left"},
      {"broadcast_shift_right_arithmetic", "stablehlo.shift_right_arithmetic"},
      {"broadcast_shift_right_logical", "stablehlo.shift_right_logical"},
      {"broadcast_compare", "stablehlo.compare"},
      {"broadcast_select", "stablehlo.select"},
      {"broadcast_next_after", "chlo.next_after"},
      {"broadcast_polygamma", "chlo.polygamma"},
      {"broadcast_zeta", "chlo.zeta"},
  };
  for (const Entry& e : kTable) {
    if (e.chlo == name) return e.stablehlo;
  }
  return {};
}

Status CheckTensorOperands(const Operation& op) {
  for (const Value* v : op.operands) {
    if (v->type.kind() == Type::Kind::kUnsupported) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           StrCat("operand type ", v->type.unsupported_text(),
                                  " is not supported"));
    }
    if (!v->type.is_tensor()) {
      return LoweringError(op, StatusCode::kInvalidArgument, "operands must be tensors");
    }
  }
  for (const auto& r : op.results) {
    if (r->type.kind() == Type::Kind::kUnsupported) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           StrCat("result type ", r->type.unsupported_text(),
                                  " is not supported"));
    }
    if (!r->type.is_tensor()) {
      return LoweringError(op, StatusCode::kInvalidArgument, "results must be tensors");
    }
  }
  return OkStatus();
}

class Lowering {
 public:
  explicit Lowering(Region& scope) : scope_(scope) {}

  // Lowers `op`; on success the op is erased and its uses redirected.
  Status Lower(Operation* op) {
    const std::string_view name = std::string_view(op->name).substr(kChloPrefix.size());
    PLUGRT_RETURN_IF_ERROR(CheckTensorOperands(*op));
    IrBuilder b(op);
    std::vector<Value*> replacements;
    if (name == "erf" && op->operands.size() == 1 && op->results.size() == 1 &&
        IsRationalErfType(op->operands[0]->type)) {
      replacements.push_back(ErfRational(b, op->operands[0]));
    } else if (std::optional<MathTarget> fn = kernels_abi::MathTargetNamed(name)) {
      const size_t arity = static_cast<size_t>(kernels_abi::MathTargetOf(*fn).arity);
      PLUGRT_RETURN_IF_ERROR(ExpectArity(*op, arity, 1));
      replacements.push_back(MathCall(b, *fn, op->operands, op->result(0)->type));
    } else if (std::string_view target = BroadcastTarget(name); !target.empty()) {
      PLUGRT_ASSIGN_OR_RETURN(Value * v, LowerBroadcasting(b, *op, target));
      replacements.push_back(v);
    } else if (name == "next_after") {
      PLUGRT_RETURN_IF_ERROR(ExpectArity(*op, 2, 1));
      PLUGRT_ASSIGN_OR_RETURN(Value * v,
                              NextAfter(b, *op, op->operands[0], op->operands[1]));
      replacements.push_back(v);
    } else if (name == "constant") {
      const Attribute* value = op->attribute("value");
      if (value == nullptr || op->results.size() != 1) {
        return LoweringError(*op, StatusCode::kInvalidArgument, "needs a 'value' and 1 result");
      }
      replacements.push_back(b.Op("stablehlo.constant", {}, op->result(0)->type,
                                  {{"value", *value}}));
    } else if (name == "constant_like") {
      PLUGRT_ASSIGN_OR_RETURN(Value * v, ConstantLike(b, *op));
      replacements.push_back(v);
    } else if (name == "is_inf" || name == "is_pos_inf" || name == "is_neg_inf") {
      PLUGRT_RETURN_IF_ERROR(ExpectArity(*op, 1, 1));
      PLUGRT_ASSIGN_OR_RETURN(Value * v, IsInf(b, *op, name));
      replacements.push_back(v);
    } else if (name == "conj") {
      PLUGRT_RETURN_IF_ERROR(ExpectArity(*op, 1, 1));
      replacements.push_back(Conj(b, op->operands[0]));
    } else if (name == "top_k") {
      PLUGRT_ASSIGN_OR_RETURN(replacements, TopK(b, *op));
    } else if (name == "scan") {
      PLUGRT_ASSIGN_OR_RETURN(replacements, Scan(b, *op));
    } else if (name == "ragged_dot") {
      PLUGRT_ASSIGN_OR_RETURN(Value * v, LowerRaggedDot(b, *op));
      replacements.push_back(v);
    } else if (name == "minimum_broadcast_shapes") {
      return LoweringError(*op, StatusCode::kUnimplemented,
                           "shape computations on dynamic shapes are not supported");
    } else {
      return LoweringError(*op, StatusCode::kUnimplemented, "no lowering for this CHLO op");
    }
    for (size_t i = 0; i < replacements.size(); ++i) {
      ReplaceAllUsesWith(scope_, op->result(i), replacements[i]);
    }
    EraseOp(op);
    return OkStatus();
  }

 private:
  static Status ExpectArity(const Operation& op, size_t operands, size_t results) {
    if (op.operands.size() != operands || op.results.size() != results) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           StrCat("expected ", operands, " operands and ", results,
                                  " results, got ", op.operands.size(), " and ",
                                  op.results.size()));
    }
    return OkStatus();
  }

  // erf of f32 (f16 and bf16 computed in f32) as elementwise StableHLO, so
  // that it fuses with its neighbours (a GELU is one loop): x * P(x^2) /
  // Q(x^2) on x clamped to [-3.85, 3.85], past which erf rounds to +-1 in
  // f32. P and Q are degree-5 polynomials this project fitted (iterated
  // weighted least squares on the relative error); in f32 the result is
  // within 7.5 ulp (4.5e-7 relative) of erf over every float. f64 keeps the
  // accurate math call.
  static bool IsRationalErfType(const Type& type) {
    const ElementType et = type.element_type();
    return type.is_tensor() && type.has_static_shape() &&
           (et == ElementType::kF32 || et == ElementType::kF16 || et == ElementType::kBF16);
  }
  static Value* ErfRational(IrBuilder& b, Value* x) {
    static constexpr double kP[] = {1.1283791065216064,    0.18482159078121185,
                                    0.05213877558708191,   0.003558902069926262,
                                    0.0002861173707060516, 2.173079565181979e-06};
    static constexpr double kQ[] = {1.0,                   0.497126966714859,
                                    0.1119171604514122,    0.014553513377904892,
                                    0.0011231426615267992, 3.9422360714524984e-05};
    constexpr double kSaturation = 3.85;
    const ElementType et = x->type.element_type();
    Value* xf = et == ElementType::kF32 ? x : b.Convert(x, ElementType::kF32);
    const Type f32 = xf->type;
    Value* clamped = b.Op("stablehlo.clamp",
                          {b.SplatFloat(f32, -kSaturation), xf, b.SplatFloat(f32, kSaturation)},
                          f32);
    Value* t = b.Op("stablehlo.multiply", {clamped, clamped}, f32);
    auto horner = [&](const double (&c)[6]) {
      Value* acc = b.SplatFloat(f32, c[5]);
      for (int i = 4; i >= 0; --i) {
        acc = b.Op("stablehlo.add", {b.Op("stablehlo.multiply", {acc, t}, f32),
                                     b.SplatFloat(f32, c[i])},
                   f32);
      }
      return acc;
    };
    Value* numerator = b.Op("stablehlo.multiply", {clamped, horner(kP)}, f32);
    Value* erf = b.Op("stablehlo.divide", {numerator, horner(kQ)}, f32);
    return et == ElementType::kF32 ? erf : b.Convert(erf, et);
  }

  static Value* MathCall(IrBuilder& b, MathTarget fn, std::vector<Value*> operands,
                         const Type& type) {
    const std::string target(kernels_abi::MathTargetOf(fn).target);
    return b.Op("stablehlo.custom_call", std::move(operands), type,
                {{"call_target_name", Attribute::String(target)}});
  }

  // Broadcasts `v` to `dims` (keeping its element type): by `mapping` when
  // given, else numpy-style alignment of trailing dimensions.
  static StatusOr<Value*> BroadcastTo(IrBuilder& b, const Operation& op, Value* v,
                                      const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>* mapping) {
    const std::vector<int64_t>& from = v->type.dims();
    if (from == dims) return v;
    std::vector<int64_t> map;
    if (mapping != nullptr && static_cast<int64_t>(from.size()) < static_cast<int64_t>(dims.size())) {
      map = *mapping;
    } else {
      if (from.size() > dims.size()) {
        return LoweringError(op, StatusCode::kInvalidArgument,
                             StrCat("operand of rank ", from.size(),
                                    " does not broadcast to rank ", dims.size()));
      }
      for (size_t i = 0; i < from.size(); ++i) {
        map.push_back(static_cast<int64_t>(dims.size() - from.size() + i));
      }
    }
    if (map.size() != from.size()) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           "broadcast_dimensions does not match the operand rank");
    }
    for (size_t i = 0; i < map.size(); ++i) {
      if (map[i] < 0 || map[i] >= static_cast<int64_t>(dims.size()) ||
          (from[i] != 1 && from[i] != dims[static_cast<size_t>(map[i])])) {
        return LoweringError(op, StatusCode::kInvalidArgument,
                             StrCat("operand ", v->type.ToString(),
                                    " does not broadcast to the result shape"));
      }
    }
    return b.BroadcastInDim(v, Type::Tensor(v->type.element_type(), dims), std::move(map));
  }

  StatusOr<Value*> LowerBroadcasting(IrBuilder& b, Operation& op, std::string_view target) {
    const bool select = target == "stablehlo.select";
    PLUGRT_RETURN_IF_ERROR(ExpectArity(op, select ? 3 : 2, 1));
    const Type& result = op.result(0)->type;
    if (!result.has_static_shape()) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           "broadcasting to a dynamic result shape is not supported");
    }
    std::vector<int64_t> mapping;
    const std::vector<int64_t>* mapping_ptr = nullptr;
    if (const Attribute* attr = op.attribute("broadcast_dimensions")) {
      StatusOr<std::vector<int64_t>> list = AttrToIntList(*attr);
      if (!list.ok()) {
        return LoweringError(op, StatusCode::kInvalidArgument,
                             StrCat("broadcast_dimensions: ", list.status().message()));
      }
      mapping = *std::move(list);
      mapping_ptr = &mapping;
    }
    std::vector<Value*> operands;
    for (Value* v : op.operands) {
      PLUGRT_ASSIGN_OR_RETURN(Value * w, BroadcastTo(b, op, v, result.dims(), mapping_ptr));
      operands.push_back(w);
    }
    if (target == "chlo.next_after") return NextAfter(b, op, operands[0], operands[1]);
    if (target == "chlo.polygamma") return MathCall(b, MathTarget::kPolygamma, operands, result);
    if (target == "chlo.zeta") return MathCall(b, MathTarget::kZeta, operands, result);
    std::vector<NamedAttribute> attrs;
    if (target == "stablehlo.compare") {
      const Attribute* direction = op.attribute("comparison_direction");
      if (direction == nullptr) {
        return LoweringError(op, StatusCode::kInvalidArgument, "missing comparison_direction");
      }
      PLUGRT_ASSIGN_OR_RETURN(std::string dir, AttrToEnumValue(*direction));
      attrs.emplace_back("comparison_direction",
                         Attribute::Enum("stablehlo.comparison_direction", dir));
      if (const Attribute* type = op.attribute("compare_type")) {
        PLUGRT_ASSIGN_OR_RETURN(std::string t, AttrToEnumValue(*type));
        if (t != "NOTYPE") {
          attrs.emplace_back("compare_type", Attribute::Enum("stablehlo.comparison_type", t));
        }
      }
    }
    return b.Op(std::string(target), std::move(operands), result, std::move(attrs));
  }

  // IEEE nextafter by stepping the bit pattern: +-1 in the integer of the
  // same width moves one ulp away from or towards zero.
  static StatusOr<Value*> NextAfter(IrBuilder& b, const Operation& op, Value* x, Value* y) {
    const Type& t = x->type;
    const ElementType e = t.element_type();
    if (!IsFloat(e) || y->type != t) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           StrCat("next_after needs two float tensors of one type, got ",
                                  t.ToString(), " and ", y->type.ToString()));
    }
    if (!t.has_static_shape()) {
      return LoweringError(op, StatusCode::kUnimplemented, "dynamic shapes are not supported");
    }
    const ElementType ie = SameWidthInteger(e);
    const Type it = WithElementType(t, ie);
    const int bits = BitWidth(e);
    if (BitWidth(ie) != bits) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           StrCat("next_after on ", ElementTypeName(e), " is not supported"));
    }
    Value* xi = b.BitcastConvert(x, ie);
    Value* yi = b.BitcastConvert(y, ie);
    Value* any_nan = b.Op("stablehlo.or",
                          {b.Compare(x, x, "NE", "FLOAT"), b.Compare(y, y, "NE", "FLOAT")},
                          WithElementType(t, ElementType::kI1));
    Value* nan_result = b.Op("stablehlo.add", {x, y}, t);
    Value* equal = b.Compare(x, y, "EQ", "FLOAT");
    Value* zero = b.SplatFloat(t, 0.0);
    Value* x_is_zero = b.Compare(x, zero, "EQ", "FLOAT");
    // From zero: the smallest subnormal with y's sign.
    const int64_t sign_bit = static_cast<int64_t>(uint64_t{1} << (bits - 1));
    Value* y_sign = b.Op("stablehlo.and", {yi, b.SplatInt(it, sign_bit)}, it);
    Value* tiny = b.BitcastConvert(b.Op("stablehlo.or", {y_sign, b.SplatInt(it, 1)}, it), e);
    // Elsewhere the magnitude grows when y lies beyond x, away from zero.
    Value* x_negative = b.Compare(x, zero, "LT", "FLOAT");
    Value* y_above = b.Compare(y, x, "GT", "FLOAT");
    Value* grow = b.Op("stablehlo.xor", {y_above, x_negative}, WithElementType(t, ElementType::kI1));
    Value* delta = b.Select(grow, b.SplatInt(it, 1), b.SplatInt(it, -1));
    Value* stepped = b.BitcastConvert(b.Op("stablehlo.add", {xi, delta}, it), e);
    Value* result = b.Select(x_is_zero, tiny, stepped);
    result = b.Select(equal, y, result);
    return b.Select(any_nan, nan_result, result);
  }

  static StatusOr<Value*> ConstantLike(IrBuilder& b, const Operation& op) {
    PLUGRT_RETURN_IF_ERROR(ExpectArity(op, 1, 1));
    const Attribute* value = op.attribute("value");
    const Type& type = op.result(0)->type;
    if (value == nullptr) {
      return LoweringError(op, StatusCode::kInvalidArgument, "needs a 'value'");
    }
    if (!type.has_static_shape()) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           "constant_like with a dynamic shape is not supported");
    }
    if (value->kind == Attribute::Kind::kDenseElements && value->dense != nullptr &&
        value->dense->bytes.size() == static_cast<size_t>(StorageBytes(type.element_type()))) {
      return b.SplatBytes(type, value->dense->bytes);
    }
    if (value->kind == Attribute::Kind::kFloat) return b.SplatFloat(type, value->float_value);
    if (value->kind == Attribute::Kind::kInteger || value->kind == Attribute::Kind::kBool) {
      return b.SplatInt(type, value->kind == Attribute::Kind::kBool ? value->bool_value
                                                                  : value->int_value);
    }
    return LoweringError(op, StatusCode::kUnimplemented,
                         StrCat("constant_like value ", value->ToString(), " is not supported"));
  }

  static StatusOr<Value*> IsInf(IrBuilder& b, const Operation& op, std::string_view which) {
    Value* x = op.operands[0];
    const ElementType e = x->type.element_type();
    if (!IsFloat(e)) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           StrCat("element type ", ElementTypeName(e), " is not supported"));
    }
    if (!x->type.has_static_shape()) {
      return LoweringError(op, StatusCode::kUnimplemented, "dynamic shapes are not supported");
    }
    const double inf = std::numeric_limits<double>::infinity();
    if (which == "is_inf") {
      Value* abs = b.Op("stablehlo.abs", {x}, x->type);
      return b.Compare(abs, b.SplatFloat(x->type, inf), "EQ", "FLOAT");
    }
    return b.Compare(x, b.SplatFloat(x->type, which == "is_pos_inf" ? inf : -inf), "EQ",
                     "FLOAT");
  }

  static Value* Conj(IrBuilder& b, Value* x) {
    const ElementType e = x->type.element_type();
    if (!IsComplex(e)) return x;  // conj of a real number is itself
    const Type part = WithElementType(x->type, ComplexComponent(e));
    Value* re = b.Op("stablehlo.real", {x}, part);
    Value* im = b.Op("stablehlo.imag", {x}, part);
    Value* neg = b.Op("stablehlo.negate", {im}, part);
    return b.Op("stablehlo.complex", {re, neg}, x->type);
  }

  // A stable descending sort of (value, index) along the last dimension,
  // then the first k of each row.
  static StatusOr<std::vector<Value*>> TopK(IrBuilder& b, const Operation& op) {
    PLUGRT_RETURN_IF_ERROR(ExpectArity(op, 1, 2));
    const Attribute* k_attr = op.attribute("k");
    if (k_attr == nullptr) return LoweringError(op, StatusCode::kInvalidArgument, "needs 'k'");
    StatusOr<int64_t> k_or = AttrToInt(*k_attr);
    if (!k_or.ok()) return LoweringError(op, StatusCode::kInvalidArgument, "'k' must be an integer");
    const int64_t k = *k_or;
    Value* x = op.operands[0];
    const Type& t = x->type;
    if (!t.has_static_shape() || t.rank() < 1) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           "top_k needs an operand of static shape and rank >= 1");
    }
    const int64_t last = t.rank() - 1;
    if (k < 0 || k > t.dims().back()) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           StrCat("k = ", k, " is out of range for ", t.ToString()));
    }
    std::vector<int64_t> out_dims = t.dims();
    out_dims.back() = k;
    const ElementType e = t.element_type();
    const Type values_type = Type::Tensor(e, out_dims);
    const Type indices_type = Type::Tensor(ElementType::kSI32, out_dims);
    if (op.result(0)->type != values_type || op.result(1)->type != indices_type) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           StrCat("results should be ", values_type.ToString(), " and ",
                                  indices_type.ToString()));
    }
    const Type iota_type = WithElementType(t, ElementType::kSI32);
    Value* iota = b.Op("stablehlo.iota", {}, iota_type,
                       {{"iota_dimension", Attribute::Integer(last)}});
    Operation* sort = b.Create("stablehlo.sort", {x, iota}, {t, iota_type},
                               {{"dimension", Attribute::Integer(last)},
                                {"is_stable", Attribute::Bool(true)}});
    auto region = std::make_unique<Region>();
    region->parent_op = sort;
    auto block = std::make_unique<Block>();
    block->parent = region.get();
    const Type arg_types[4] = {Type::Scalar(e), Type::Scalar(e), Type::Scalar(ElementType::kSI32),
                               Type::Scalar(ElementType::kSI32)};
    for (int i = 0; i < 4; ++i) {
      auto arg = std::make_unique<Value>();
      arg->type = arg_types[i];
      arg->owner_block = block.get();
      arg->index = i;
      arg->name = StrCat("topk_arg", i);
      block->arguments.push_back(std::move(arg));
    }
    IrBuilder body(block.get(), op.location);
    // Floats in total order (NaN of positive sign above +inf), so NaNs sort
    // deterministically; integers and booleans by their natural order.
    const std::string compare_type =
        IsFloat(e) ? "TOTALORDER" : (IsUnsignedInteger(e) || IsBoolean(e) ? "UNSIGNED" : "SIGNED");
    Value* greater = body.Compare(block->arguments[0].get(), block->arguments[1].get(), "GT",
                                  compare_type);
    body.Create("stablehlo.return", {greater}, {});
    region->blocks.push_back(std::move(block));
    sort->regions.push_back(std::move(region));

    std::vector<int64_t> start(static_cast<size_t>(t.rank()), 0);
    std::vector<int64_t> strides(static_cast<size_t>(t.rank()), 1);
    auto slice = [&](Value* v, const Type& type) {
      return b.Op("stablehlo.slice", {v}, type,
                  {{"start_indices", Attribute::DenseI64Array(start)},
                   {"limit_indices", Attribute::DenseI64Array(out_dims)},
                   {"strides", Attribute::DenseI64Array(strides)}});
    };
    return std::vector<Value*>{slice(sort->result(0), values_type),
                               slice(sort->result(1), indices_type)};
  }

  // chlo.scan(inputs) inits(carries) dimension=d {body}: a stablehlo.while
  // over the positions of dimension d (from the end when is_reverse) whose
  // state is (position, carries..., outputs...). Each step slices the
  // inputs at the position, runs a copy of the body on (slices, carries)
  // and writes the body's per-position outputs into the outputs.
  static StatusOr<std::vector<Value*>> Scan(IrBuilder& b, const Operation& op) {
    const Attribute* segments = op.attribute("operandSegmentSizes");
    const Attribute* dim_attr = op.attribute("dimension");
    if (segments == nullptr || dim_attr == nullptr || op.regions.size() != 1 ||
        op.regions[0]->blocks.size() != 1) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           "needs operand segments, a dimension and one body block");
    }
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> seg, AttrToIntList(*segments));
    PLUGRT_ASSIGN_OR_RETURN(int64_t d, AttrToInt(*dim_attr));
    bool reverse = false;
    if (const Attribute* r = op.attribute("is_reverse")) {
      PLUGRT_ASSIGN_OR_RETURN(reverse, AttrToBool(*r));
    }
    if (seg.size() != 2 || seg[0] < 1 || seg[1] < 0 ||
        static_cast<size_t>(seg[0] + seg[1]) != op.operands.size()) {
      return LoweringError(op, StatusCode::kUnimplemented,
                           "scan needs at least one input (its length comes from the inputs)");
    }
    const size_t num_inputs = static_cast<size_t>(seg[0]);
    const size_t num_inits = static_cast<size_t>(seg[1]);
    if (op.results.size() < num_inits) {
      return LoweringError(op, StatusCode::kInvalidArgument, "fewer results than carries");
    }
    const size_t num_outputs = op.results.size() - num_inits;
    const Type& first = op.operands[0]->type;
    if (!first.has_static_shape() || d < 0 || d >= first.rank()) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           StrCat("dimension ", d, " is out of range for ", first.ToString()));
    }
    const int64_t length = first.dims()[static_cast<size_t>(d)];
    const size_t ud = static_cast<size_t>(d);
    auto drop_dim = [&](const Type& t) {
      std::vector<int64_t> dims = t.dims();
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(ud));
      return Type::Tensor(t.element_type(), dims);
    };
    auto unit_dim = [&](const Type& t) {
      std::vector<int64_t> dims = t.dims();
      dims[ud] = 1;
      return Type::Tensor(t.element_type(), dims);
    };
    for (size_t i = 0; i < num_inputs; ++i) {
      const Type& t = op.operands[i]->type;
      if (!t.has_static_shape() || t.rank() <= d || t.dims()[ud] != length) {
        return LoweringError(op, StatusCode::kInvalidArgument,
                             StrCat("input ", i, " of type ", t.ToString(),
                                    " does not have length ", length, " in dimension ", d));
      }
    }
    for (size_t k = 0; k < num_outputs; ++k) {
      const Type& t = op.result(k)->type;
      if (!t.has_static_shape() || t.rank() <= d || t.dims()[ud] != length) {
        return LoweringError(op, StatusCode::kInvalidArgument,
                             StrCat("output ", k, " of type ", t.ToString(),
                                    " does not have length ", length, " in dimension ", d));
      }
    }
    const Block& scan_body = op.regions[0]->front();
    if (scan_body.arguments.size() != num_inputs + num_inits || scan_body.operations.empty() ||
        scan_body.operations.back()->operands.size() != op.results.size()) {
      return LoweringError(op, StatusCode::kInvalidArgument,
                           "the body's arguments or results do not match the operands");
    }

    const Type index_type = Type::Scalar(ElementType::kSI64);
    std::vector<Value*> state = {b.SplatInt(index_type, 0)};
    std::vector<Type> state_types = {index_type};
    for (size_t j = 0; j < num_inits; ++j) {
      state.push_back(op.operands[num_inputs + j]);
      state_types.push_back(op.operands[num_inputs + j]->type);
    }
    for (size_t k = 0; k < num_outputs; ++k) {
      state.push_back(b.SplatInt(op.result(k)->type, 0));
      state_types.push_back(op.result(k)->type);
    }
    Operation* loop = b.Create("stablehlo.while", state, state_types);
    auto make_region = [&](Block** block_out) {
      auto region = std::make_unique<Region>();
      region->parent_op = loop;
      auto block = std::make_unique<Block>();
      block->parent = region.get();
      for (const Type& t : state_types) IrBuilder::AddArgument(block.get(), t);
      *block_out = block.get();
      region->blocks.push_back(std::move(block));
      return region;
    };
    Block* cond_block = nullptr;
    auto cond = make_region(&cond_block);
    {
      IrBuilder c(cond_block, op.location);
      Value* more = c.Compare(cond_block->arguments[0].get(), c.SplatInt(index_type, length),
                              "LT", "SIGNED");
      c.Create("stablehlo.return", {more}, {});
    }
    Block* body_block = nullptr;
    auto body = make_region(&body_block);
    {
      IrBuilder w(body_block, op.location);
      Value* step = body_block->arguments[0].get();
      Value* position =
          reverse ? w.Op("stablehlo.subtract", {w.SplatInt(index_type, length - 1), step},
                         index_type)
                  : step;
      Value* zero = w.SplatInt(index_type, 0);
      auto indices = [&](int64_t rank) {
        std::vector<Value*> list(static_cast<size_t>(rank), zero);
        list[ud] = position;
        return list;
      };
      IrBuilder::ValueMap map;
      for (size_t i = 0; i < num_inputs; ++i) {
        Value* x = op.operands[i];
        std::vector<Value*> operands = {x};
        std::vector<Value*> idx = indices(x->type.rank());
        operands.insert(operands.end(), idx.begin(), idx.end());
        std::vector<int64_t> sizes = unit_dim(x->type).dims();
        Value* slice = w.Op("stablehlo.dynamic_slice", operands, unit_dim(x->type),
                            {{"slice_sizes", Attribute::DenseI64Array(sizes)}});
        map[scan_body.arguments[i].get()] =
            w.Op("stablehlo.reshape", {slice}, drop_dim(x->type));
      }
      for (size_t j = 0; j < num_inits; ++j) {
        map[scan_body.arguments[num_inputs + j].get()] = body_block->arguments[1 + j].get();
      }
      for (size_t n = 0; n + 1 < scan_body.operations.size(); ++n) {
        w.Clone(*scan_body.operations[n], map);
      }
      const Operation& ret = *scan_body.operations.back();
      auto mapped = [&](Value* v) {
        auto it = map.find(v);
        return it == map.end() ? v : it->second;
      };
      std::vector<Value*> next = {
          w.Op("stablehlo.add", {step, w.SplatInt(index_type, 1)}, index_type)};
      for (size_t j = 0; j < num_inits; ++j) next.push_back(mapped(ret.operands[num_outputs + j]));
      for (size_t k = 0; k < num_outputs; ++k) {
        const Type& out_type = op.result(k)->type;
        Value* update = w.Op("stablehlo.reshape", {mapped(ret.operands[k])}, unit_dim(out_type));
        std::vector<Value*> operands = {body_block->arguments[1 + num_inits + k].get(), update};
        std::vector<Value*> idx = indices(out_type.rank());
        operands.insert(operands.end(), idx.begin(), idx.end());
        next.push_back(w.Op("stablehlo.dynamic_update_slice", operands, out_type));
      }
      w.Create("stablehlo.return", next, {});
    }
    loop->regions.push_back(std::move(cond));
    loop->regions.push_back(std::move(body));
    std::vector<Value*> results;
    for (size_t k = 0; k < num_outputs; ++k) results.push_back(loop->result(1 + num_inits + k));
    for (size_t j = 0; j < num_inits; ++j) results.push_back(loop->result(1 + j));
    return results;
  }

  Region& scope_;
};

// CHLO ops of `region` in post-order (ops nested in an op's regions first).
void CollectChlo(Region& region, std::vector<Operation*>* out) {
  for (auto& block : region.blocks) {
    for (auto& op : block->operations) {
      for (auto& nested : op->regions) CollectChlo(*nested, out);
      if (op->name.rfind(kChloPrefix, 0) == 0) out->push_back(op.get());
    }
  }
}

}  // namespace

Status LowerChlo(Module& module) {
  Status first_error = OkStatus();
  for (const auto& function : module.functions) {
    if (!function->body) continue;
    std::vector<Operation*> ops;
    CollectChlo(*function->body, &ops);
    Lowering lowering(*function->body);
    for (Operation* op : ops) {
      // Ops that fail stay in place; the first error is reported after the
      // rest of the module has been lowered.
      Status s = lowering.Lower(op);
      if (!s.ok() && first_error.ok()) first_error = s;
    }
  }
  return first_error;
}

}  // namespace plugrt::shlo
