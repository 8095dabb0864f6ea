#include "cpu/exec/fusion.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "cpu/kernels/parallel.h"
#include "profiler/recorder.h"

namespace plugrt::cpu {
namespace {

using shlo::OpCode;
using shlo::Operation;
using shlo::Value;
using fused::Op;
using fused::Source;

int64_t Product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= dims[i];
  return n;
}

bool IsStaticTensor(const Value* v, ElementType type) {
  return v->type.is_tensor() && v->type.has_static_shape() && v->type.element_type() == type;
}

// The f32 value of a splat or one-element f32 constant op, or of a
// broadcast of one (XLA's HLO text defines those at the top of the entry,
// far from their readers), if `v` is one.
std::optional<float> ConstantValue(const Value* v) {
  const Operation* op = v->defining_op;
  if (op != nullptr && op->code == OpCode::kBroadcastInDim && op->operands.size() == 1 &&
      IsStaticTensor(v, ElementType::kF32)) {
    return ConstantValue(op->operands[0]);
  }
  if (op == nullptr || op->code != OpCode::kConstant || !IsStaticTensor(v, ElementType::kF32)) {
    return std::nullopt;
  }
  const shlo::Attribute* attr = op->attribute("value");
  if (attr == nullptr || attr->kind != shlo::Attribute::Kind::kDenseElements ||
      attr->dense == nullptr || attr->dense->bytes.size() < sizeof(float)) {
    return std::nullopt;
  }
  if (!attr->dense->splat && v->type.num_elements() != 1) return std::nullopt;
  float f;
  std::memcpy(&f, attr->dense->bytes.data(), sizeof(float));
  return f;
}

std::optional<Op> CompareOp(const Operation& op) {
  if (const shlo::Attribute* type = op.attribute("compare_type")) {
    StatusOr<std::string> v = shlo::AttrToEnumValue(*type);
    if (!v.ok() || *v != "FLOAT") return std::nullopt;  // TOTALORDER orders NaNs and zeros
  }
  const shlo::Attribute* attr = op.attribute("comparison_direction");
  if (attr == nullptr) return std::nullopt;
  StatusOr<std::string> d = shlo::AttrToEnumValue(*attr);
  if (!d.ok()) return std::nullopt;
  if (*d == "EQ") return Op::kCmpEq;
  if (*d == "NE") return Op::kCmpNe;
  if (*d == "LT") return Op::kCmpLt;
  if (*d == "LE") return Op::kCmpLe;
  if (*d == "GT") return Op::kCmpGt;
  if (*d == "GE") return Op::kCmpGe;
  return std::nullopt;
}

// A reduce over the last dim of one f32 operand whose body is one add,
// maximum or minimum of its two arguments, with a constant init.
struct RowReduction {
  Op op;
  float init;
};
std::optional<RowReduction> AsRowReduction(const Operation& op) {
  if (op.code != OpCode::kReduce || op.operands.size() != 2 || op.results.size() != 1 ||
      op.regions.size() != 1 || !IsStaticTensor(op.operands[0], ElementType::kF32) ||
      op.operands[0]->type.rank() < 1) {
    return std::nullopt;
  }
  const shlo::Attribute* dims = op.attribute("dimensions");
  if (dims == nullptr) return std::nullopt;
  StatusOr<std::vector<int64_t>> d = shlo::AttrToIntList(*dims);
  if (!d.ok() || *d != std::vector<int64_t>{op.operands[0]->type.rank() - 1}) return std::nullopt;
  std::optional<float> init = ConstantValue(op.operands[1]);
  if (!init) return std::nullopt;
  const shlo::Region& region = op.region(0);
  if (region.blocks.size() != 1) return std::nullopt;
  const shlo::Block& body = region.front();
  if (body.arguments.size() != 2 || body.operations.size() != 2) return std::nullopt;
  const Operation& combine = *body.operations[0];
  const Operation& ret = *body.operations[1];
  if (ret.code != OpCode::kReturn || ret.operands.size() != 1 ||
      ret.operands[0] != combine.result(0) || combine.operands.size() != 2) {
    return std::nullopt;
  }
  const std::set<const Value*> args = {body.arguments[0].get(), body.arguments[1].get()};
  if (args.count(combine.operands[0]) == 0 || args.count(combine.operands[1]) == 0 ||
      combine.operands[0] == combine.operands[1]) {
    return std::nullopt;
  }
  switch (combine.code) {
    case OpCode::kAdd: return RowReduction{Op::kRowSum, *init};
    case OpCode::kMaximum: return RowReduction{Op::kRowMax, *init};
    case OpCode::kMinimum: return RowReduction{Op::kRowMin, *init};
    default: return std::nullopt;
  }
}

// How a broadcast_in_dim operand of dims `in` maps onto result dims `out`
// in a [rows, cols] iteration space: a scalar, a column vector (the last
// dim), a row scalar (all dims but the last), or (nullopt) something else.
// The result dims a broadcast_in_dim operand of dims `in` varies along, in
// order; nullopt when it transposes or does not match `out`.
std::optional<std::vector<int64_t>> CarriedDims(const std::vector<int64_t>& in,
                                                const std::vector<int64_t>& out,
                                                const std::vector<int64_t>& mapping) {
  if (mapping.size() != in.size()) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(out.size());
  std::vector<int64_t> carried;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 1) continue;
    if (mapping[i] < 0 || mapping[i] >= rank || in[i] != out[mapping[i]]) return std::nullopt;
    if (!carried.empty() && mapping[i] <= carried.back()) return std::nullopt;  // transposing
    carried.push_back(mapping[i]);
  }
  return carried;
}

// Carried dims that are one block of the result's dims before its last (no
// dim of size > 1 between them left out): a per-channel vector of NCHW data.
bool IsMiddleBlock(const std::vector<int64_t>& carried, const std::vector<int64_t>& out) {
  if (carried.empty() || carried.back() + 1 >= static_cast<int64_t>(out.size())) return false;
  size_t next = 0;
  for (int64_t d = carried.front(); d <= carried.back(); ++d) {
    if (next < carried.size() && carried[next] == d) {
      ++next;
    } else if (out[static_cast<size_t>(d)] != 1) {
      return false;
    }
  }
  return true;
}

std::optional<Source> BroadcastSource(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out,
                                      const std::vector<int64_t>& mapping) {
  const int64_t rank = static_cast<int64_t>(out.size());
  std::optional<std::vector<int64_t>> carried_dims = CarriedDims(in, out, mapping);
  if (!carried_dims) return std::nullopt;
  const std::vector<int64_t>& carried = *carried_dims;  // result dims the operand varies along
  if (carried.empty()) return Source::kScalar;
  if (carried == std::vector<int64_t>{rank - 1}) return Source::kColumn;
  std::vector<int64_t> leading;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    if (out[d] != 1) leading.push_back(d);
  }
  if (carried == leading) return Source::kRowScalar;
  return std::nullopt;
}

// What a member computes, before registers are assigned.
struct Node {
  const Operation* op = nullptr;
  Op code = Op::kCopy;
  bool row_valued = false;  // one value per row (shape dims[:-1])
  float imm = 0;
  // kLoad-like broadcast of an external operand: its source.
  std::optional<Source> broadcast_source;
  // Else a broadcast of an external operand along one block of dims before
  // the last (IsMiddleBlock): loaded as a row scalar of a period, once the
  // group's rows are known. The block's result dims.
  std::vector<int64_t> middle_block;
  bool identity = false;  // result is its operand (broadcast of a row value, convert)
  bool clamp = false;     // clamp(min, x, max): max(x, min), then min(that, max)
};

struct Group {
  std::vector<int64_t> dims;  // iteration space
  std::vector<Node> nodes;
  std::set<const Value*> values;  // results of members
  std::set<const Value*> row_values;
  bool sealed = false;
};

class Planner {
 public:
  Planner(const shlo::Block& block, const std::unordered_set<const Operation*>& dead)
      : block_(block), dead_(dead) {}

  FusionPlan Plan() {
    for (const auto& op_ptr : block_.operations) {
      if (dead_.count(op_ptr.get()) == 0) Visit(*op_ptr);
    }
    return Build();
  }

 private:
  // Every value `op` reads, including inside its regions (captures).
  static void Reads(const Operation& op, std::vector<const Value*>& out) {
    for (const Value* v : op.operands) out.push_back(v);
    for (const auto& region : op.regions) {
      for (const auto& block : region->blocks) {
        for (const auto& inner : block->operations) Reads(*inner, out);
      }
    }
  }

  int GroupOf(const Value* v) const {
    auto it = producer_group_.find(v);
    return it == producer_group_.end() ? -1 : it->second;
  }

  void Visit(const Operation& op) {
    // Try to make op a member; otherwise everything it reads seals the
    // groups that produced it.
    if (!TryJoin(op)) {
      std::vector<const Value*> reads;
      Reads(op, reads);
      for (const Value* v : reads) {
        const int g = GroupOf(v);
        if (g >= 0) groups_[g].sealed = true;
      }
    }
  }

  // The candidate group for an op whose operands are `operands`: the newest
  // unsealed group producing one of them, with matching dims. Operands from
  // other groups seal those.
  bool TryJoin(const Operation& op) {
    std::optional<Node> node = Classify(op);
    if (!node) return false;
    // The group: the newest open group that produced an operand.
    int target = -1;
    for (const Value* v : op.operands) {
      if (ScalarSource(v) != nullptr) continue;  // loaded from its scalar wherever it is read
      const int g = GroupOf(v);
      if (g >= 0 && !groups_[g].sealed && g > target && Fits(groups_[g], op, *node)) target = g;
    }
    // Other open groups of the same space that produced an operand join the
    // target: the op meets their chains, which would otherwise each write
    // their value out for the target's loop to read back. Open, neither has
    // been read by the other (that seals), so one's members may run first.
    if (target >= 0) {
      for (const Value* v : op.operands) {
        if (ScalarSource(v) != nullptr) continue;
        const int g = GroupOf(v);
        if (g >= 0 && g != target && !groups_[g].sealed &&
            groups_[g].dims == groups_[target].dims && Fits(groups_[g], op, *node)) {
          Merge(g, target);
        }
      }
    }
    // Else the newest open group the op fits, of the last few: siblings that
    // read the same inputs then share one pass over them, and a chain that
    // pauses for ops of another shape (batch norm's per-channel factors,
    // computed between its subtract and its multiply) goes on in the same
    // loop instead of starting a second pass over the first one's result.
    constexpr int kOpenGroupsSearched = 8;
    for (int g = static_cast<int>(groups_.size()) - 1;
         target < 0 && g >= 0 && g >= static_cast<int>(groups_.size()) - kOpenGroupsSearched; --g) {
      if (!groups_[g].sealed && Fits(groups_[g], op, *node) && Related(groups_[g], op)) target = g;
    }
    if (target < 0) {
      std::optional<std::vector<int64_t>> dims = NewGroupDims(op, *node);
      if (!dims) return false;
      groups_.push_back(Group{*dims, {}, {}, {}, false});
      target = static_cast<int>(groups_.size()) - 1;
      if (!Fits(groups_[target], op, *node)) {
        groups_.pop_back();
        return false;
      }
    }
    Group& group = groups_[target];
    // Operands from other groups: those must run first, so they stop growing.
    for (const Value* v : op.operands) {
      if (ScalarSource(v) != nullptr) continue;
      const int g = GroupOf(v);
      if (g >= 0 && g != target) groups_[g].sealed = true;
    }
    node->row_valued = IsRowValued(group, op, *node);
    group.nodes.push_back(*node);
    for (const auto& r : op.results) {
      group.values.insert(r.get());
      if (node->row_valued) group.row_values.insert(r.get());
      producer_group_[r.get()] = target;
    }
    return true;
  }

  // Moves group `from`'s members into `into`, ahead of its own (the two are
  // independent), and leaves `from` empty and sealed.
  void Merge(int from, int into) {
    Group& a = groups_[from];
    Group& b = groups_[into];
    std::vector<Node> nodes = std::move(a.nodes);
    nodes.insert(nodes.end(), b.nodes.begin(), b.nodes.end());
    b.nodes = std::move(nodes);
    for (const Value* v : a.values) producer_group_[v] = into;
    b.values.insert(a.values.begin(), a.values.end());
    b.row_values.insert(a.row_values.begin(), a.row_values.end());
    a.nodes.clear();
    a.values.clear();
    a.row_values.clear();
    a.sealed = true;
  }

  // The f32 scalar `v` is a broadcast of, when no group computes that
  // scalar and it is not a constant (those are immediates). A loop reads such
  // a value as its scalar (one load), so it links no groups: JAX's optimizer
  // updates broadcast one traced scalar (a step size, a bias correction) to
  // every parameter of a shape, and that one broadcast, shared after CSE,
  // made one loop of all those parameters' updates.
  const Value* ScalarSource(const Value* v) const {
    const Operation* op = v->defining_op;
    if (op == nullptr || op->code != OpCode::kBroadcastInDim || op->operands.size() != 1 ||
        !IsStaticTensor(v, ElementType::kF32) || ConstantValue(v)) {
      return nullptr;
    }
    const Value* in = op->operands[0];
    if (!IsStaticTensor(in, ElementType::kF32) || in->type.num_elements() != 1 ||
        GroupOf(in) >= 0) {
      return nullptr;
    }
    return in;
  }

  // Whether `op` may join `g` as a sibling (it reads nothing `g` produced):
  // in a small space, anything (one loop costs less to start than two); in a
  // large one, a broadcast (of a row or column vector, or of a scalar), or an
  // op that reads an input `g` already reads, whose pass it then shares.
  // Independent chains of one large shape (an optimizer's update of each
  // parameter) stay apart: one loop over all of them streams every
  // parameter's arrays at once, more streams than the prefetchers follow
  // (eight Adam updates of [2048, 512]: 11-12 ms as one loop, 8-9 ms as
  // eight).
  bool Related(const Group& g, const Operation& op) const {
    constexpr int64_t kLargeSpace = int64_t{1} << 18;  // 1 MiB per f32 array
    if (Product(g.dims, 0, g.dims.size()) < kLargeSpace) return true;
    if (op.code == OpCode::kBroadcastInDim) return true;
    bool reads_any = false;
    for (const Value* v : op.operands) {
      if (ConstantValue(v) || ScalarSource(v) != nullptr) continue;
      reads_any = true;
      for (const Node& n : g.nodes) {
        for (const Value* read : n.op->operands) {
          if (read == v && g.values.count(v) == 0) return true;
        }
      }
    }
    return !reads_any;
  }

  static std::optional<std::vector<int64_t>> NewGroupDims(const Operation& op, const Node& node) {
    if (IsRowReduction(node.code)) return op.operands[0]->type.dims();
    return op.result(0)->type.dims();
  }

  static bool IsRowReduction(Op code) { return fused::IsRowReduction(code); }

  bool IsRowValued(const Group& g, const Operation& op, const Node& node) const {
    if (IsRowReduction(node.code)) return true;
    if (op.code == OpCode::kBroadcastInDim) return false;
    const std::vector<int64_t>& d = op.result(0)->type.dims();
    return d != g.dims;
  }

  // Whether `op` can run inside `g`: its result has the group's dims (or,
  // for values per row, the dims without the last), and its operands are
  // members of matching kind, constants, or outside values of the same
  // shape.
  bool Fits(const Group& g, const Operation& op, const Node& node) const {
    if (g.dims.empty()) return false;
    const std::vector<int64_t> row_dims(g.dims.begin(), g.dims.end() - 1);
    if (IsRowReduction(node.code)) {
      const Value* in = op.operands[0];
      if (in->type.dims() != g.dims) return false;
      if (GroupOf(in) >= 0 && &groups_[GroupOf(in)] == &g && g.row_values.count(in)) return false;
      return true;
    }
    const std::vector<int64_t>& out = op.result(0)->type.dims();
    if (op.code == OpCode::kBroadcastInDim) {
      if (out != g.dims) return false;
      const Value* in = op.operands[0];
      const bool member = GroupOf(in) >= 0 && &groups_[GroupOf(in)] == &g;
      if (member) {
        // Only a row value spread back over its rows stays inside.
        return g.row_values.count(in) > 0 && node.broadcast_source == Source::kRowScalar;
      }
      return true;
    }
    const bool row = out != g.dims;
    if (row && out != row_dims) return false;
    for (const Value* in : op.operands) {
      const bool member = GroupOf(in) >= 0 && &groups_[GroupOf(in)] == &g;
      if (member) {
        if ((g.row_values.count(in) > 0) != row) return false;
      } else if (!ConstantValue(in) && in->type.dims() != out) {
        return false;
      }
    }
    return true;
  }

  // The node for `op` if it is an op fusion takes (its OpFusion kind, see
  // stablehlo/op_code.h, says how; the checks here are of types and shapes).
  std::optional<Node> Classify(const Operation& op) const {
    const shlo::OpFusion kind = shlo::TraitsOf(op.code).fusion;
    if (kind == shlo::OpFusion::kNone) return std::nullopt;
    if (op.results.size() != 1 || !op.regions.empty() != (kind == shlo::OpFusion::kRowReduce)) {
      return std::nullopt;
    }
    const Value* result = op.result(0);
    if (!result->type.is_tensor() || !result->type.has_static_shape()) return std::nullopt;
    const ElementType rt = result->type.element_type();
    auto all_operands = [&](ElementType t) {
      for (const Value* v : op.operands) {
        if (!IsStaticTensor(v, t)) return false;
      }
      return true;
    };
    Node node;
    node.op = &op;
    switch (kind) {
      case shlo::OpFusion::kNone:
        return std::nullopt;
      case shlo::OpFusion::kRowReduce: {
        std::optional<RowReduction> r = AsRowReduction(op);
        if (!r) return std::nullopt;
        node.code = r->op;
        node.imm = r->init;
        return node;
      }
      case shlo::OpFusion::kUnary:
      case shlo::OpFusion::kBinary: {
        std::optional<Op> fused = FusedElementwiseOp(op.code);
        if (!fused || rt != ElementType::kF32 || !all_operands(ElementType::kF32)) {
          return std::nullopt;
        }
        node.code = *fused;
        return node;
      }
      case shlo::OpFusion::kCompare: {
        if (rt != ElementType::kI1 || !all_operands(ElementType::kF32)) return std::nullopt;
        std::optional<Op> c = CompareOp(op);
        if (!c) return std::nullopt;
        node.code = *c;
        return node;
      }
      case shlo::OpFusion::kSelect:
        if (rt != ElementType::kF32 || op.operands.size() != 3 ||
            !IsStaticTensor(op.operands[0], ElementType::kI1) ||
            op.operands[0]->type.dims() != result->type.dims() ||
            !IsStaticTensor(op.operands[1], ElementType::kF32) ||
            !IsStaticTensor(op.operands[2], ElementType::kF32)) {
          return std::nullopt;
        }
        node.code = Op::kSelect;
        return node;
      case shlo::OpFusion::kLogic: {
        std::optional<Op> fused = FusedElementwiseOp(op.code);
        if (!fused || rt != ElementType::kI1 || !all_operands(ElementType::kI1)) {
          return std::nullopt;
        }
        node.code = *fused;
        return node;
      }
      case shlo::OpFusion::kConvert: {
        const Value* in = op.operands[0];
        if (!in->type.is_tensor() || !in->type.has_static_shape()) return std::nullopt;
        const ElementType it = in->type.element_type();
        node.code = Op::kCopy;
        // To s8/u8 (a quantized program's last step): the value is stored
        // converted; no member reads it, as members take f32 and i1 only.
        if (rt == ElementType::kSI8 || rt == ElementType::kUI8) {
          if (it != ElementType::kF32) return std::nullopt;
          return node;
        }
        if (rt != ElementType::kF32) return std::nullopt;
        if (it != ElementType::kF32 && it != ElementType::kI1 && it != ElementType::kBF16 &&
            it != ElementType::kSI32) {
          return std::nullopt;
        }
        // bf16 and s32 values only enter as group inputs (converted on load).
        if ((it == ElementType::kBF16 || it == ElementType::kSI32) && GroupOf(in) >= 0) {
          return std::nullopt;
        }
        return node;
      }
      case shlo::OpFusion::kClamp:
        if (rt != ElementType::kF32 || op.operands.size() != 3 || !all_operands(ElementType::kF32)) {
          return std::nullopt;
        }
        node.clamp = true;
        return node;
      case shlo::OpFusion::kBroadcast: {
        const Value* in = op.operands[0];
        if (rt != ElementType::kF32 || !IsStaticTensor(in, ElementType::kF32)) return std::nullopt;
        // A broadcast constant is an immediate of the loops that read it.
        if (ConstantValue(result)) return std::nullopt;
        const shlo::Attribute* attr = op.attribute("broadcast_dimensions");
        if (attr == nullptr) return std::nullopt;
        StatusOr<std::vector<int64_t>> mapping = shlo::AttrToIntList(*attr);
        if (!mapping.ok()) return std::nullopt;
        if (in->type.dims() == result->type.dims()) {
          bool identity = true;
          for (size_t i = 0; i < mapping->size(); ++i) identity &= (*mapping)[i] == int64_t(i);
          if (!identity) return std::nullopt;
          node.code = Op::kCopy;
          return node;
        }
        node.broadcast_source = BroadcastSource(in->type.dims(), result->type.dims(), *mapping);
        if (!node.broadcast_source) {
          std::optional<std::vector<int64_t>> carried =
              CarriedDims(in->type.dims(), result->type.dims(), *mapping);
          if (!carried || !IsMiddleBlock(*carried, result->type.dims())) return std::nullopt;
          node.middle_block = *carried;
        }
        node.code = Op::kCopy;
        return node;
      }
    }
    return std::nullopt;
  }

  // Turns the groups worth running into kernels.
  FusionPlan Build() {
    // Values read after the fact by something outside their group.
    std::map<const Value*, bool> used_outside;
    std::unordered_map<const Operation*, int> member_group;
    for (size_t g = 0; g < groups_.size(); ++g) {
      for (const Node& n : groups_[g].nodes) member_group[n.op] = static_cast<int>(g);
    }
    // Groups run as loops (the others' members run one by one).
    std::vector<bool> runs_fused(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      runs_fused[g] = Product(groups_[g].dims, 0, groups_[g].dims.size()) >= kMinFusedElements;
    }
    std::function<void(const shlo::Block&, const Operation*)> scan =
        [&](const shlo::Block& block, const Operation* top) {
          for (const auto& op_ptr : block.operations) {
            const Operation* owner = top != nullptr ? top : op_ptr.get();
            if (dead_.count(owner) > 0) continue;
            auto it = member_group.find(owner);
            const int reader_group = it == member_group.end() || top != nullptr ? -1 : it->second;
            for (const Value* v : op_ptr->operands) {
              const int g = GroupOf(v);
              // A loop reads a scalar's broadcast from the scalar.
              if (reader_group >= 0 && runs_fused[reader_group] && ScalarSource(v) != nullptr) {
                continue;
              }
              if (g >= 0 && g != reader_group) used_outside[v] = true;
            }
            for (const auto& region : op_ptr->regions) {
              for (const auto& b : region->blocks) scan(*b, owner);
            }
          }
        };
    scan(block_, nullptr);

    FusionPlan plan;
    for (size_t g = 0; g < groups_.size(); ++g) {
      const Group& group = groups_[g];
      if (!runs_fused[g]) continue;
      FusionGroup fg;
      // The columns: the last dim, or with middle-block broadcasts and no
      // other row structure (row reductions, values per row, column and
      // row broadcasts) every dim after the latest block, so that NCHW data
      // runs rows of [N, C] over tiles of H x W.
      const size_t rank = group.dims.size();
      size_t col_dims = 1;
      bool middle = false, row_structure = false;
      size_t bound = rank;
      for (const Node& n : group.nodes) {
        if (!n.middle_block.empty()) {
          middle = true;
          bound = std::min(bound, rank - 1 - static_cast<size_t>(n.middle_block.back()));
        } else if (n.row_valued || IsRowReduction(n.code) ||
                   (n.broadcast_source && *n.broadcast_source != Source::kScalar)) {
          row_structure = true;
        }
      }
      if (middle && !row_structure) col_dims = std::max<size_t>(1, bound);
      const size_t lead = rank - col_dims;
      fg.rows = Product(group.dims, 0, lead);
      fg.cols = Product(group.dims, lead, rank);
      fused::Kernel& k = fg.kernel;
      std::map<const Value*, int> reg;
      std::map<std::tuple<const Value*, Source, int64_t, int64_t>, int> loaded;
      auto load = [&](const Value* v, Source source, int64_t divisor = 1, int64_t period = 0) {
        auto key = std::make_tuple(v, source, divisor, period);
        if (auto it = loaded.find(key); it != loaded.end()) return it->second;
        const int index = static_cast<int>(fg.inputs.size());
        fg.inputs.push_back(v);
        k.inputs.push_back({source, v->type.element_type(), divisor, period});
        const int r = k.num_registers++;
        k.code.push_back({Op::kLoad, r, index});
        loaded[key] = r;
        return r;
      };
      // The register holding operand `v` of a member.
      auto operand = [&](const Value* v, bool row_context) {
        if (auto it = reg.find(v); it != reg.end()) return it->second;
        if (std::optional<float> c = ConstantValue(v)) {
          const int r = k.num_registers++;
          fused::Instr in;
          in.op = Op::kConst;
          in.out = r;
          in.imm = *c;
          k.code.push_back(in);
          reg[v] = r;
          return r;
        }
        if (const Value* scalar = ScalarSource(v)) return load(scalar, Source::kScalar);
        return load(v, row_context ? Source::kRowScalar : Source::kFull);
      };
      for (const Node& n : group.nodes) {
        const Operation& op = *n.op;
        const Value* result = op.result(0);
        if (op.code == OpCode::kBroadcastInDim &&
            (n.broadcast_source || !n.middle_block.empty())) {
          const Value* in = op.operands[0];
          if (group.row_values.count(in)) {
            reg[result] = reg.at(in);
          } else if (std::optional<float> c = ConstantValue(in)) {
            reg[result] = operand(in, false);
            (void)c;
          } else if (!n.middle_block.empty()) {
            // Row r of the rows [0, lead) reads element (r / divisor) %
            // period: the block's dims are all before `lead` (col_dims is at
            // most the dims after the latest block).
            const size_t first = static_cast<size_t>(n.middle_block.front());
            const size_t last = static_cast<size_t>(n.middle_block.back());
            reg[result] = load(in, Source::kRowScalar, Product(group.dims, last + 1, lead),
                               Product(group.dims, first, last + 1));
          } else {
            reg[result] = load(in, *n.broadcast_source);
          }
          continue;
        }
        if (n.clamp) {
          // As the reference kernel: MaxOf(x, min), then MinOf(that, max).
          fused::Instr lower{Op::kMax, k.num_registers++,
                             operand(op.operands[1], n.row_valued),
                             operand(op.operands[0], n.row_valued)};
          k.code.push_back(lower);
          fused::Instr upper{Op::kMin, k.num_registers++, lower.out,
                             operand(op.operands[2], n.row_valued)};
          k.code.push_back(upper);
          reg[result] = upper.out;
          continue;
        }
        if (n.code == Op::kCopy) {
          reg[result] = operand(op.operands[0], n.row_valued);
          continue;
        }
        fused::Instr in;
        in.op = n.code;
        in.imm = n.imm;
        if (IsRowReduction(n.code)) {
          in.a = operand(op.operands[0], false);
        } else {
          in.a = operand(op.operands[0], n.row_valued);
          if (op.operands.size() > 1) in.b = operand(op.operands[1], n.row_valued);
          if (op.operands.size() > 2) in.c = operand(op.operands[2], n.row_valued);
        }
        in.out = k.num_registers++;
        reg[result] = in.out;
        k.code.push_back(in);
      }
      for (const Node& n : group.nodes) {
        const Value* v = n.op->result(0);
        if (!used_outside.count(v)) continue;
        fg.outputs.push_back(v);
        k.outputs.push_back({reg.at(v), v->type.element_type(), v->type.dims()});
      }
      if (fg.outputs.empty()) continue;  // nothing reads it: dead code
      for (const Node& n : group.nodes) fg.members.push_back(n.op);
      for (const Operation* m : fg.members) plan.group_of[m] = static_cast<int>(plan.groups.size());
      plan.groups.push_back(std::move(fg));
    }
    return plan;
  }

  const shlo::Block& block_;
  const std::unordered_set<const Operation*>& dead_;
  std::vector<Group> groups_;
  std::unordered_map<const Value*, int> producer_group_;
};

class FusedOp final : public CompiledOp {
 public:
  FusedOp(const FusionGroup& group, bool generate_code)
      : kernel_(group.kernel),
        plan_(fused::Prepare(group.kernel, generate_code)),
        rows_(group.rows),
        cols_(group.cols) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (context.counters != nullptr) {
      ++context.counters->fused_loops;
      context.counters->jit_segments += fused::GeneratedSegments(*plan_);
    }
    if (profiler::Enabled()) {
      const int64_t segments = fused::GeneratedSegments(*plan_);
      profiler::AnnotateKernel(profiler::stat::kImplementation,
                               segments > 0 ? StrCat("fused loop, ", segments, " generated code segment",
                                                     segments == 1 ? "" : "s")
                                            : std::string("fused loop, interpreted"));
    }
    std::vector<Tensor> inputs;
    inputs.reserve(operands.size());
    // Operands whose value dies here (the step holds the only reference):
    // outputs may be computed into their memory.
    std::vector<bool> overwritable(operands.size(), false);
    for (size_t i = 0; i < operands.size(); ++i) {
      const RtValue& v = operands[i];
      if (v.kind != RtValue::Kind::kTensor) return InvalidArgument("fused op: operand is not a tensor");
      overwritable[i] = v.tensor.HasUniqueStorage();
      inputs.push_back(v.tensor);
    }
    int in_place = 0;
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs,
                            fused::Run(kernel_, *plan_, rows_, cols_, inputs, ThreadBudget(context.kernel_threads),
                                       overwritable, &in_place));
    if (context.counters != nullptr) context.counters->in_place_outputs += in_place;
    std::vector<RtValue> results;
    results.reserve(outputs.size());
    for (Tensor& t : outputs) results.push_back(RtValue::Of(std::move(t)));
    return results;
  }

 private:
  fused::Kernel kernel_;
  std::shared_ptr<const fused::Plan> plan_;
  int64_t rows_, cols_;
};

}  // namespace

FusionPlan PlanFusion(const shlo::Block& block,
                      const std::unordered_set<const shlo::Operation*>& dead) {
  return Planner(block, dead).Plan();
}

std::unique_ptr<CompiledOp> MakeFusedOp(const FusionGroup& group, bool generate_code) {
  return std::make_unique<FusedOp>(group, generate_code);
}

std::optional<fused::Op> FusedElementwiseOp(shlo::OpCode code) {
  switch (code) {
    case OpCode::kNegate: return Op::kNeg;
    case OpCode::kAbs: return Op::kAbs;
    case OpCode::kExponential: return Op::kExp;
    case OpCode::kLog: return Op::kLog;
    case OpCode::kTanh: return Op::kTanh;
    case OpCode::kLogistic: return Op::kLogistic;
    case OpCode::kSqrt: return Op::kSqrt;
    case OpCode::kRsqrt: return Op::kRsqrt;
    case OpCode::kFloor: return Op::kFloor;
    case OpCode::kCeil: return Op::kCeil;
    case OpCode::kSign: return Op::kSign;
    case OpCode::kRoundNearestEven: return Op::kRoundEven;
    case OpCode::kSine: return Op::kSin;
    case OpCode::kCosine: return Op::kCos;
    case OpCode::kAdd: return Op::kAdd;
    case OpCode::kSubtract: return Op::kSub;
    case OpCode::kMultiply: return Op::kMul;
    case OpCode::kDivide: return Op::kDiv;
    case OpCode::kMaximum: return Op::kMax;
    case OpCode::kMinimum: return Op::kMin;
    case OpCode::kPower: return Op::kPow;
    case OpCode::kNot: return Op::kNot;
    case OpCode::kAnd: return Op::kAnd;
    case OpCode::kOr: return Op::kOr;
    default: return std::nullopt;  // not a unary, binary or logic fusion kind
  }
}

}  // namespace plugrt::cpu
