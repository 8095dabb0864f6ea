// plugrt StableHLO: the cost estimate (rules in cost_analysis.h).
#include "compiler/passes/cost_analysis.h"

#include <cfloat>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kernels_abi/custom_call_targets.h"

namespace plugrt::shlo {
namespace {

// Calls and nested regions together; bounds the walk's stack on hostile
// input (the parser bounds region nesting, but not chains of calls). 256, as
// the parser's own nesting bound: deep enough for real programs, shallow
// enough for the stack of a sanitizer build (1000 overflowed it there).
constexpr int kMaxCostDepth = 256;

// Keeps every count finite and non-negative: huge trip counts of nested
// loops could otherwise overflow to inf (and inf * 0 to NaN).
double Sat(double x) {
  if (x >= 0 && x <= DBL_MAX) return x;
  return x < 0 ? 0 : DBL_MAX;
}

void AddTo(CostEstimate& total, const CostEstimate& part) {
  total.flops = Sat(total.flops + part.flops);
  total.transcendentals = Sat(total.transcendentals + part.transcendentals);
  total.bytes_accessed = Sat(total.bytes_accessed + part.bytes_accessed);
}

CostEstimate Scaled(const CostEstimate& c, double k) {
  return {Sat(c.flops * k), Sat(c.transcendentals * k), Sat(c.bytes_accessed * k)};
}

// Flops and transcendentals of `c` per application, `applications` times;
// no bytes (the region's scalars are not memory traffic).
CostEstimate ComputeOnly(const CostEstimate& c, double applications) {
  return {Sat(c.flops * applications), Sat(c.transcendentals * applications), 0};
}

bool HasUnsupported(const Type& type) {
  if (type.kind() == Type::Kind::kUnsupported) return true;
  if (type.is_tuple()) {
    for (const Type& t : type.tuple_elements()) {
      if (HasUnsupported(t)) return true;
    }
  }
  return false;
}

// A dim for counting: '?' (and any negative) counts as 1.
double DimOf(int64_t d) { return d < 0 ? 1.0 : static_cast<double>(d); }

double Elements(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kTensor: {
      double n = 1;
      for (int64_t d : type.dims()) n = Sat(n * DimOf(d));
      return n;
    }
    case Type::Kind::kElement:
      return 1;
    case Type::Kind::kTuple: {
      double n = 0;
      for (const Type& t : type.tuple_elements()) n = Sat(n + Elements(t));
      return n;
    }
    default:
      return 0;
  }
}

double Bytes(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kTensor:
    case Type::Kind::kElement:
      return Sat(Elements(type) * ((BitWidth(type.element_type()) + 7) / 8));
    case Type::Kind::kTuple: {
      double n = 0;
      for (const Type& t : type.tuple_elements()) n = Sat(n + Bytes(t));
      return n;
    }
    default:
      return 0;
  }
}

double ResultElements(const Operation& op) {
  double n = 0;
  for (const auto& r : op.results) n = Sat(n + Elements(r->type));
  return n;
}

double IoBytes(const Operation& op) {
  double n = 0;
  for (const Value* v : op.operands) n = Sat(n + Bytes(v->type));
  for (const auto& r : op.results) n = Sat(n + Bytes(r->type));
  return n;
}

bool IsComplexValue(const Type& t) {
  return (t.is_tensor() || t.kind() == Type::Kind::kElement) && IsComplex(t.element_type());
}

// Complex arithmetic: any complex operand or result (compare reads complex
// values and writes booleans; a mixed dot may write complex).
bool IsComplexOp(const Operation& op) {
  for (const Value* v : op.operands) {
    if (IsComplexValue(v->type)) return true;
  }
  for (const auto& r : op.results) {
    if (IsComplexValue(r->type)) return true;
  }
  return false;
}

Status OpError(const Operation& op, const std::string& message) {
  return InvalidArgument(op.location.ToString(), ": ", op.name, ": ", message);
}

// --- attribute reads -------------------------------------------------------

StatusOr<std::vector<int64_t>> ListAttr(const Operation& op, std::string_view name,
                                        std::optional<std::vector<int64_t>> fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) {
    if (fallback) return *fallback;
    return OpError(op, StrCat("missing attribute '", name, "'"));
  }
  StatusOr<std::vector<int64_t>> list = AttrToIntList(*attr);
  if (!list.ok()) return OpError(op, StrCat("attribute '", name, "': ", list.status().message()));
  return list;
}

StatusOr<int64_t> IntAttr(const Operation& op, std::string_view name,
                          std::optional<int64_t> fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) {
    if (fallback) return *fallback;
    return OpError(op, StrCat("missing attribute '", name, "'"));
  }
  StatusOr<int64_t> value = AttrToInt(*attr);
  if (!value.ok()) return OpError(op, StrCat("attribute '", name, "': ", value.status().message()));
  return value;
}

const Attribute* StructAttr(const Operation& op, std::string_view name) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return nullptr;
  if (attr->kind != Attribute::Kind::kStruct && attr->kind != Attribute::Kind::kDictionary) {
    return nullptr;
  }
  return attr;
}

// An integer-list field of a struct attribute; absent: empty.
StatusOr<std::vector<int64_t>> FieldList(const Operation& op, const Attribute& attr,
                                         std::string_view field) {
  const Attribute* f = attr.field(field);
  if (f == nullptr) return std::vector<int64_t>{};
  StatusOr<std::vector<int64_t>> list = AttrToIntList(*f);
  if (!list.ok()) return OpError(op, StrCat("field '", field, "': ", list.status().message()));
  return list;
}

StatusOr<int64_t> FieldInt(const Operation& op, const Attribute& attr, std::string_view field) {
  const Attribute* f = attr.field(field);
  if (f == nullptr) return OpError(op, StrCat("missing field '", field, "'"));
  StatusOr<int64_t> value = AttrToInt(*f);
  if (!value.ok()) return OpError(op, StrCat("field '", field, "': ", value.status().message()));
  return value;
}

// The operand `i` as a tensor type, or an error.
StatusOr<const Type*> TensorOperand(const Operation& op, size_t i) {
  if (i >= op.operands.size() || !op.operands[i]->type.is_tensor()) {
    return OpError(op, StrCat("operand ", i, " must be a tensor"));
  }
  return &op.operands[i]->type;
}

// Product of `type`'s dims at `indices`, each checked against its rank.
StatusOr<double> DimProduct(const Operation& op, const Type& type,
                            const std::vector<int64_t>& indices, std::string_view what) {
  double n = 1;
  for (int64_t i : indices) {
    if (i < 0 || i >= type.rank()) {
      return OpError(op, StrCat(what, " dimension ", i, " is out of range for rank ", type.rank()));
    }
    n = Sat(n * DimOf(type.dims()[static_cast<size_t>(i)]));
  }
  return n;
}

// 2 * batch * m * n * k of a dot, a dot_general or a custom call carrying
// dot_dimension_numbers (plugrt.quantized_dot); complex products count 4x.
StatusOr<double> DotFlops(const Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(const Type* lhs, TensorOperand(op, 0));
  PLUGRT_ASSIGN_OR_RETURN(const Type* rhs, TensorOperand(op, 1));
  std::vector<int64_t> lb, rb, lc, rc;
  if (op.code == OpCode::kDot) {
    if (lhs->rank() < 1 || rhs->rank() < 1) return OpError(op, "operands must have rank >= 1");
    lc = {lhs->rank() - 1};
    rc = {0};
  } else {
    const Attribute* dn = StructAttr(op, "dot_dimension_numbers");
    if (dn == nullptr) return OpError(op, "missing dot_dimension_numbers");
    PLUGRT_ASSIGN_OR_RETURN(lb, FieldList(op, *dn, "lhs_batching_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(rb, FieldList(op, *dn, "rhs_batching_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(lc, FieldList(op, *dn, "lhs_contracting_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(rc, FieldList(op, *dn, "rhs_contracting_dimensions"));
  }
  PLUGRT_ASSIGN_OR_RETURN(double batch, DimProduct(op, *lhs, lb, "lhs batching"));
  PLUGRT_ASSIGN_OR_RETURN(double k, DimProduct(op, *lhs, lc, "lhs contracting"));
  PLUGRT_ASSIGN_OR_RETURN(double rbatch, DimProduct(op, *rhs, rb, "rhs batching"));
  PLUGRT_ASSIGN_OR_RETURN(double rk, DimProduct(op, *rhs, rc, "rhs contracting"));
  // Free dims: what the batching and contracting dims leave.
  const double m = batch * k > 0 ? Elements(*lhs) / (batch * k) : 0;
  const double n = rbatch * rk > 0 ? Elements(*rhs) / (rbatch * rk) : 0;
  const double complex_factor = IsComplexOp(op) ? 4 : 1;
  return Sat(2 * batch * m * n * k * complex_factor);
}

// --- per-op arithmetic ------------------------------------------------------

enum class Kind { kData, kArith, kTranscendental };

// Flops per element of an arithmetic op on complex values.
double ComplexFactor(OpCode code) {
  switch (code) {
    case OpCode::kMultiply: return 6;
    case OpCode::kDivide: return 11;
    default: return 2;
  }
}

// chlo ops of unlowered modules, by name (they have no op code).
Kind ChloKind(std::string_view name) {
  static const std::set<std::string_view> kTranscendental = {
      "acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj_exp",
      "cosh", "digamma", "erf", "erf_inv", "erfc", "lgamma", "polygamma", "sinh",
      "tan", "zeta", "broadcast_atan2", "broadcast_power", "broadcast_polygamma",
      "broadcast_zeta"};
  constexpr std::string_view kPrefix = "chlo.";
  if (name.substr(0, kPrefix.size()) != kPrefix) return Kind::kData;
  name.remove_prefix(kPrefix.size());
  if (kTranscendental.count(name) != 0) return Kind::kTranscendental;
  if (name.substr(0, 10) == "broadcast_" || name == "mulhi" || name == "next_after" ||
      name == "is_inf" || name == "is_neg_inf" || name == "is_pos_inf" || name == "conj") {
    return Kind::kArith;
  }
  return Kind::kData;
}

// --- while trip counts ------------------------------------------------------

// The value of an integer scalar defined by stablehlo.constant.
std::optional<__int128> ConstantInt(const Value* v) {
  if (v == nullptr || v->defining_op == nullptr || v->defining_op->code != OpCode::kConstant) {
    return std::nullopt;
  }
  const Type& t = v->type;
  if (!t.is_tensor() || t.rank() != 0 || !IsInteger(t.element_type())) return std::nullopt;
  const Attribute* a = v->defining_op->attribute("value");
  if (a == nullptr || a->kind != Attribute::Kind::kDenseElements || !a->dense ||
      !a->type.is_tensor() || a->dense->bytes.size() <
                                  static_cast<size_t>(StorageBytes(a->type.element_type()))) {
    return std::nullopt;
  }
  StatusOr<int64_t> value = AttrToInt(*a);
  if (!value.ok()) return std::nullopt;
  // Unsigned 64-bit values past INT64_MAX come back negative: give up on them.
  if (IsUnsignedInteger(t.element_type()) && *value < 0) return std::nullopt;
  return static_cast<__int128>(*value);
}

bool IsBlockArg(const Value* v, const Block& block, size_t index) {
  return v != nullptr && v->defining_op == nullptr && v->owner_block == &block &&
         v->index >= 0 && static_cast<size_t>(v->index) == index;
}

const Operation* Terminator(const Region& region) {
  if (region.blocks.empty() || region.front().operations.empty()) return nullptr;
  return region.front().operations.back().get();
}

__int128 CeilDiv(__int128 a, __int128 b) { return (a + b - 1) / b; }  // a >= 0, b > 0

// Iterations of `for (i = start; i DIR limit; i += step)`; nullopt when it
// does not end (or the pattern cannot tell).
std::optional<__int128> Iterations(const std::string& dir, __int128 start, __int128 limit,
                                   __int128 step) {
  if (step == 0) return std::nullopt;
  if (dir == "LT" || dir == "LE") {
    const __int128 end = dir == "LT" ? limit : limit + 1;  // first value that stops
    if (start >= end) return 0;
    if (step < 0) return std::nullopt;
    return CeilDiv(end - start, step);
  }
  if (dir == "GT" || dir == "GE") {
    const __int128 end = dir == "GT" ? limit : limit - 1;
    if (start <= end) return 0;
    if (step > 0) return std::nullopt;
    return CeilDiv(start - end, -step);
  }
  if (dir == "NE") {
    const __int128 diff = limit - start;
    if (diff % step != 0 || diff / step < 0) return std::nullopt;
    return diff / step;
  }
  if (dir == "EQ") return start == limit ? 1 : 0;
  return std::nullopt;
}

std::string Mirrored(const std::string& dir) {
  if (dir == "LT") return "GT";
  if (dir == "GT") return "LT";
  if (dir == "LE") return "GE";
  if (dir == "GE") return "LE";
  return dir;  // EQ, NE
}

// The trip count of the counter at position `i`, if it has the pattern.
std::optional<__int128> CounterTrips(const Operation& loop, size_t i) {
  const Region& cond = loop.region(0);
  const Region& body = loop.region(1);
  const Operation* cond_ret = Terminator(cond);
  const Operation* body_ret = Terminator(body);
  if (cond_ret == nullptr || body_ret == nullptr || cond_ret->operands.size() != 1 ||
      body_ret->operands.size() <= i) {
    return std::nullopt;
  }
  std::optional<__int128> start = ConstantInt(loop.operands[i]);
  if (!start) return std::nullopt;

  const Operation* cmp = cond_ret->operands[0]->defining_op;
  if (cmp == nullptr || cmp->code != OpCode::kCompare || cmp->operands.size() != 2) {
    return std::nullopt;
  }
  const Attribute* dir_attr = cmp->attribute("comparison_direction");
  if (dir_attr == nullptr) return std::nullopt;
  StatusOr<std::string> dir = AttrToEnumValue(*dir_attr);
  if (!dir.ok()) return std::nullopt;
  std::optional<__int128> limit;
  std::string direction = *dir;
  if (IsBlockArg(cmp->operands[0], cond.front(), i)) {
    limit = ConstantInt(cmp->operands[1]);
  } else if (IsBlockArg(cmp->operands[1], cond.front(), i)) {
    limit = ConstantInt(cmp->operands[0]);
    direction = Mirrored(direction);
  }
  if (!limit) return std::nullopt;

  const Operation* update = body_ret->operands[i]->defining_op;
  if (update == nullptr || update->operands.size() != 2) return std::nullopt;
  std::optional<__int128> step;
  if (update->code == OpCode::kAdd) {
    if (IsBlockArg(update->operands[0], body.front(), i)) {
      step = ConstantInt(update->operands[1]);
    } else if (IsBlockArg(update->operands[1], body.front(), i)) {
      step = ConstantInt(update->operands[0]);
    }
  } else if (update->code == OpCode::kSubtract &&
             IsBlockArg(update->operands[0], body.front(), i)) {
    step = ConstantInt(update->operands[1]);
    if (step) step = -*step;
  }
  if (!step) return std::nullopt;
  return Iterations(direction, *start, *limit, *step);
}

double TripCount(const Operation& loop) {
  if (loop.regions.size() != 2) return 1;
  for (size_t i = 0; i < loop.operands.size(); ++i) {
    std::optional<__int128> trips = CounterTrips(loop, i);
    if (trips) return static_cast<double>(*trips);
  }
  return 1;
}

// --- einsum -------------------------------------------------------------------

// Maps each label of `term` to its dim in `type` ("..." covers the dims
// between the labels before it and those after it). False if it does not fit.
bool MapLabels(std::string_view term, const Type& type, std::map<char, double>& sizes) {
  const size_t ellipsis = term.find("...");
  std::string_view head = term.substr(0, ellipsis);
  std::string_view tail = ellipsis == std::string_view::npos ? "" : term.substr(ellipsis + 3);
  const int64_t rank = type.rank();
  if (static_cast<int64_t>(head.size() + tail.size()) > rank ||
      (ellipsis == std::string_view::npos && static_cast<int64_t>(head.size()) != rank)) {
    return false;
  }
  for (size_t k = 0; k < head.size(); ++k) sizes[head[k]] = DimOf(type.dims()[k]);
  for (size_t k = 0; k < tail.size(); ++k) {
    sizes[tail[k]] = DimOf(type.dims()[static_cast<size_t>(rank) - tail.size() + k]);
  }
  return true;
}

StatusOr<double> EinsumFlops(const Operation& op) {
  const Attribute* attr = op.attribute("einsum_config");
  if (attr == nullptr || attr->kind != Attribute::Kind::kString) {
    return OpError(op, "missing string attribute 'einsum_config'");
  }
  std::string config;
  for (char c : attr->str) {
    if (c != ' ') config += c;
  }
  const size_t arrow = config.find("->");
  if (arrow == std::string::npos) return OpError(op, "einsum_config has no '->'");
  const std::string inputs = config.substr(0, arrow);
  const std::string output = config.substr(arrow + 2);
  std::vector<std::string> terms;
  size_t begin = 0;
  while (true) {
    size_t comma = inputs.find(',', begin);
    terms.push_back(inputs.substr(begin, comma == std::string::npos ? comma : comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (terms.size() != op.operands.size()) {
    return OpError(op, "einsum_config does not name one term per operand");
  }
  std::map<char, double> sizes;
  for (size_t t = 0; t < terms.size(); ++t) {
    if (!op.operands[t]->type.is_tensor() || !MapLabels(terms[t], op.operands[t]->type, sizes)) {
      return OpError(op, StrCat("einsum term '", terms[t], "' does not fit operand ", t));
    }
  }
  double summed = 1;
  for (const auto& [label, size] : sizes) {
    if (label != '.' && output.find(label) == std::string::npos) summed = Sat(summed * size);
  }
  return Sat(2 * ResultElements(op) * summed);
}

// --- the walk -------------------------------------------------------------------

class Estimator {
 public:
  explicit Estimator(const Module& module) : module_(module) {}

  StatusOr<CostEstimate> OfFunction(const Function& function) {
    auto memo = memo_.find(&function);
    if (memo != memo_.end()) return memo->second;
    if (in_progress_.count(&function) != 0) return CostEstimate{};  // recursion
    if (function.body == nullptr) return CostEstimate{};
    in_progress_.insert(&function);
    StatusOr<CostEstimate> cost = OfRegion(*function.body);
    in_progress_.erase(&function);
    if (cost.ok()) memo_[&function] = *cost;
    return cost;
  }

  StatusOr<CostEstimate> OfSingleOp(const Operation& op) { return OfOp(op); }

 private:
  StatusOr<CostEstimate> OfRegion(const Region& region) {
    if (depth_ >= kMaxCostDepth) {
      return InvalidArgument("calls and regions nest deeper than ", kMaxCostDepth);
    }
    ++depth_;
    CostEstimate total;
    Status status;
    for (const auto& block : region.blocks) {
      for (const auto& op : block->operations) {
        StatusOr<CostEstimate> cost = OfOp(*op);
        if (!cost.ok()) {
          status = cost.status();
          break;
        }
        AddTo(total, *cost);
      }
      if (!status.ok()) break;
    }
    --depth_;
    if (!status.ok()) return status;
    return total;
  }

  StatusOr<CostEstimate> OfCall(const Operation& op, std::string_view attribute) {
    const Attribute* callee = op.attribute(attribute);
    if (callee == nullptr || callee->kind != Attribute::Kind::kSymbolRef) {
      return OpError(op, StrCat("needs a symbol attribute '", attribute, "'"));
    }
    const Function* function = module_.FindFunction(callee->str);
    if (function == nullptr) return OpError(op, StrCat("no function @", callee->str));
    if (depth_ >= kMaxCostDepth) {
      return InvalidArgument("calls and regions nest deeper than ", kMaxCostDepth);
    }
    ++depth_;
    StatusOr<CostEstimate> cost = OfFunction(*function);
    --depth_;
    return cost;
  }

  // Region `index`'s cost, or zero when the op lacks it.
  StatusOr<CostEstimate> OfRegionAt(const Operation& op, size_t index) {
    if (index >= op.regions.size() || op.regions[index] == nullptr) return CostEstimate{};
    return OfRegion(*op.regions[index]);
  }

  StatusOr<CostEstimate> OfOp(const Operation& op) {
    for (const Value* v : op.operands) {
      if (HasUnsupported(v->type)) return CostEstimate{};
    }
    for (const auto& r : op.results) {
      if (HasUnsupported(r->type)) return CostEstimate{};
    }
    CostEstimate cost;
    const double out = ResultElements(op);
    switch (TraitsOf(op.code).cost) {
      case OpCost::kNone:  // terminators, constants, tuples: no bytes of their own
        return cost;
      case OpCost::kCall:
        return OfCall(op, op.code == OpCode::kComposite ? "decomposition" : "callee");
      case OpCost::kLoop: {
        if (op.regions.size() != 2) return OpError(op, "needs a cond and a body region");
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate cond, OfRegionAt(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 1));
        AddTo(cond, body);
        return Scaled(cond, TripCount(op));
      }
      case OpCost::kBranches: {
        bool first = true;
        for (size_t i = 0; i < op.regions.size(); ++i) {
          PLUGRT_ASSIGN_OR_RETURN(CostEstimate branch, OfRegionAt(op, i));
          const double work = branch.flops + branch.transcendentals;
          const double best = cost.flops + cost.transcendentals;
          if (first || work > best ||
              (work == best && branch.bytes_accessed > cost.bytes_accessed)) {
            cost = branch;
          }
          first = false;
        }
        return cost;
      }
      case OpCost::kArith:
        cost.bytes_accessed = IoBytes(op);
        cost.flops = Sat(out * (IsComplexOp(op) ? ComplexFactor(op.code) : 1));
        return cost;
      case OpCost::kTranscendental:
        cost.bytes_accessed = IoBytes(op);
        cost.transcendentals = out;
        return cost;
      case OpCost::kPower: {
        cost.bytes_accessed = IoBytes(op);
        const bool integral = !op.results.empty() && op.results[0]->type.is_tensor() &&
                              IsInteger(op.results[0]->type.element_type());
        if (integral) {
          cost.flops = Sat(out * (IsComplexOp(op) ? ComplexFactor(op.code) : 1));
        } else {
          cost.transcendentals = out;
        }
        return cost;
      }
      case OpCost::kBytes:
      case OpCost::kFormula:
        break;
    }

    cost.bytes_accessed = IoBytes(op);
    if (TraitsOf(op.code).cost == OpCost::kFormula) {
      PLUGRT_ASSIGN_OR_RETURN(const bool regions_counted, Formula(op, out, cost));
      if (regions_counted) return cost;
    }
    // Data movement and anything else: bytes only, and any regions once.
    for (size_t i = 0; i < op.regions.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(CostEstimate region, OfRegionAt(op, i));
      AddTo(cost, region);
    }
    return cost;
  }

  // The op-specific part of a kFormula op's cost, added to `cost` (which
  // holds its bytes); true when it counted the op's regions itself.
  StatusOr<bool> Formula(const Operation& op, double out, CostEstimate& cost) {
    switch (op.code) {
      case OpCode::kDot:
      case OpCode::kDotGeneral: {
        PLUGRT_ASSIGN_OR_RETURN(cost.flops, DotFlops(op));
        return true;
      }
      case OpCode::kConvolution:
      case OpCode::kDynamicConv: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* kernel, TensorOperand(op, 1));
        const Attribute* dn = StructAttr(op, "dimension_numbers");
        if (dn == nullptr) return OpError(op, "missing dimension_numbers");
        PLUGRT_ASSIGN_OR_RETURN(int64_t kin, FieldInt(op, *dn, "kernel_input_feature_dimension"));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ks,
                                FieldList(op, *dn, "kernel_spatial_dimensions"));
        PLUGRT_ASSIGN_OR_RETURN(double spatial, DimProduct(op, *kernel, ks, "kernel spatial"));
        PLUGRT_ASSIGN_OR_RETURN(double features,
                                DimProduct(op, *kernel, {kin}, "kernel input feature"));
        const double complex_factor = IsComplexOp(op) ? 4 : 1;
        cost.flops = Sat(2 * out * spatial * features * complex_factor);
        return true;
      }
      case OpCode::kEinsum:
      case OpCode::kUnaryEinsum: {
        PLUGRT_ASSIGN_OR_RETURN(cost.flops, EinsumFlops(op));
        return true;
      }
      case OpCode::kFft: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* in, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> length,
                                ListAttr(op, "fft_length", std::nullopt));
        if (static_cast<int64_t>(length.size()) > in->rank()) {
          return OpError(op, "fft_length has more entries than the operand has dims");
        }
        double n = 1;
        for (int64_t l : length) n = Sat(n * DimOf(l));
        double transforms = 1;
        for (size_t i = 0; i + length.size() < in->dims().size(); ++i) {
          transforms = Sat(transforms * DimOf(in->dims()[i]));
        }
        if (n > 1) cost.flops = Sat(transforms * 5 * n * std::log2(n));
        return true;
      }
      case OpCode::kCholesky: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* a, TensorOperand(op, 0));
        if (a->rank() < 2) return OpError(op, "operand must have rank >= 2");
        double batch = 1;
        for (size_t i = 0; i + 2 < a->dims().size(); ++i) batch = Sat(batch * DimOf(a->dims()[i]));
        const double n = DimOf(a->dims().back());
        cost.flops = Sat(batch * n * n * n / 3);
        return true;
      }
      case OpCode::kTriangularSolve: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* a, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Type* b, TensorOperand(op, 1));
        if (a->rank() < 2 || b->rank() < 2) return OpError(op, "operands must have rank >= 2");
        bool left_side = false;
        if (const Attribute* attr = op.attribute("left_side")) {
          StatusOr<bool> value = AttrToBool(*attr);
          if (!value.ok()) return OpError(op, "attribute 'left_side' is not a bool");
          left_side = *value;
        }
        double batch = 1;
        for (size_t i = 0; i + 2 < a->dims().size(); ++i) batch = Sat(batch * DimOf(a->dims()[i]));
        const double n = DimOf(a->dims().back());
        const double m = DimOf(left_side ? b->dims().back() : b->dims()[b->dims().size() - 2]);
        cost.flops = Sat(batch * n * n * m);
        return true;
      }
      case OpCode::kBatchNormInference:
      case OpCode::kBatchNormTraining:
      case OpCode::kBatchNormGrad: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* x, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(int64_t feature, IntAttr(op, "feature_index", std::nullopt));
        PLUGRT_ASSIGN_OR_RETURN(double features, DimProduct(op, *x, {feature}, "feature"));
        const double per_element = op.code == OpCode::kBatchNormInference  ? 4
                                   : op.code == OpCode::kBatchNormTraining ? 7
                                                                           : 12;
        cost.flops = Sat(per_element * Elements(*x));
        cost.transcendentals = features;
        return true;
      }
      case OpCode::kReduce: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* in, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(body, Elements(*in)));
        return true;
      }
      case OpCode::kReduceWindow: {
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window,
                                ListAttr(op, "window_dimensions", std::nullopt));
        double size = 1;
        for (int64_t w : window) size = Sat(size * DimOf(w));
        const double per_result = op.results.empty() ? 0 : Elements(op.results[0]->type);
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(body, Sat(per_result * size)));
        return true;
      }
      case OpCode::kScatter: {
        if (op.operands.empty()) return OpError(op, "needs operands");
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(body, Elements(op.operands.back()->type)));
        return true;
      }
      case OpCode::kSelectAndScatter: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* operand, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Type* source, TensorOperand(op, 1));
        PLUGRT_ASSIGN_OR_RETURN(
            std::vector<int64_t> window,
            ListAttr(op, "window_dimensions",
                     std::vector<int64_t>(static_cast<size_t>(operand->rank()), 1)));
        double size = 1;
        for (int64_t w : window) size = Sat(size * DimOf(w));
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate select, OfRegionAt(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate scatter, OfRegionAt(op, 1));
        AddTo(cost, ComputeOnly(select, Sat(Elements(*source) * size)));
        AddTo(cost, ComputeOnly(scatter, Elements(*source)));
        return true;
      }
      case OpCode::kSort: {
        PLUGRT_ASSIGN_OR_RETURN(const Type* in, TensorOperand(op, 0));
        PLUGRT_ASSIGN_OR_RETURN(int64_t dim, IntAttr(op, "dimension", -1));
        if (dim < 0) dim += in->rank();
        if (in->rank() == 0) dim = -1;
        double row = 1;
        if (dim >= 0) {
          PLUGRT_ASSIGN_OR_RETURN(row, DimProduct(op, *in, {dim}, "sort"));
        }
        const double comparisons = row >= 2 ? Sat(Elements(*in) * std::log2(row)) : 0;
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate comparator, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(comparator, comparisons));
        return true;
      }
      case OpCode::kMap: {
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(body, out));
        return true;
      }
      case OpCode::kAllReduce:
      case OpCode::kReduceScatter: {
        double in = 0;
        for (const Value* v : op.operands) in = Sat(in + Elements(v->type));
        PLUGRT_ASSIGN_OR_RETURN(CostEstimate body, OfRegionAt(op, 0));
        AddTo(cost, ComputeOnly(body, in));
        return true;
      }
      case OpCode::kCustomCall: {
        const Attribute* target = op.attribute("call_target_name");
        if (target == nullptr || target->kind != Attribute::Kind::kString) return false;
        if (target->str.rfind(kernels_abi::kMathTargetPrefix, 0) == 0) {
          cost.transcendentals = out;
        } else if (target->str == kernels_abi::kQuantizedDotTarget) {
          PLUGRT_ASSIGN_OR_RETURN(cost.flops, DotFlops(op));
        }
        return false;  // regions, if any, counted once
      }
      case OpCode::kUnknown:
        switch (ChloKind(op.name)) {
          case Kind::kArith: cost.flops = out; break;
          case Kind::kTranscendental: cost.transcendentals = out; break;
          case Kind::kData: break;
        }
        return false;
      default:
        return Internal(op.name, ": cost class kFormula but no formula in cost_analysis.cc");
    }
  }

  const Module& module_;
  std::map<const Function*, CostEstimate> memo_;
  std::set<const Function*> in_progress_;
  int depth_ = 0;
};

}  // namespace

StatusOr<CostEstimate> EstimateCost(const Module& module) {
  const Function* entry = module.EntryFunction();
  if (entry == nullptr) {
    return InvalidArgument("module has no entry function (@main or a single public function)");
  }
  return EstimateFunctionCost(module, *entry);
}

StatusOr<CostEstimate> EstimateFunctionCost(const Module& module, const Function& function) {
  Estimator estimator(module);
  return estimator.OfFunction(function);
}

StatusOr<CostEstimate> EstimateOpCost(const Module& module, const Operation& op) {
  Estimator estimator(module);
  return estimator.OfSingleOp(op);
}

double TypeBytes(const Type& type) { return Bytes(type); }

}  // namespace plugrt::shlo
