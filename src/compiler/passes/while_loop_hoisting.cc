#include "compiler/passes/while_loop_hoisting.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/passes/dead_code.h"
#include "compiler/passes/ir_rewrite.h"
#include "stablehlo/element_type.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::Block;
using shlo::NamedAttribute;
using shlo::OpCode;
using shlo::Operation;
using shlo::Type;
using shlo::Value;

// The largest product a scan's projection may become: beyond it the loop
// keeps its per-iteration products rather than hold one this large.
constexpr int64_t kMaxHoistedProductBytes = int64_t{1} << 30;

int64_t TensorBytes(const Type& type) {
  if (!type.is_tensor() || !type.has_static_shape()) return -1;
  return type.num_elements() * shlo::StorageBytes(type.element_type());
}

// Whether `value` is defined inside `loop` (in one of its regions, at any
// depth).
bool DefinedInside(const Value* value, const Operation* loop) {
  const Block* block = value->defining_op != nullptr ? value->defining_op->parent : value->owner_block;
  while (block != nullptr && block->parent != nullptr) {
    const Operation* owner = block->parent->parent_op;
    if (owner == nullptr) return false;
    if (owner == loop) return true;
    block = owner->parent;
  }
  return false;
}

// One while loop and what stays the same across its iterations.
class Loop {
 public:
  explicit Loop(Operation* loop)
      : loop_(loop), cond_(&loop->region(0).front()), body_(&loop->region(1).front()) {}

  bool Valid() const {
    const size_t n = loop_->operands.size();
    if (cond_->arguments.size() != n || body_->arguments.size() != n ||
        body_->operations.empty() || cond_->operations.empty()) {
      return false;
    }
    const Operation& ret = *body_->operations.back();
    return ret.code == OpCode::kReturn && ret.operands.size() == n;
  }

  // The value outside the loop that `v` (a value the body reads) always
  // equals, or null when it may change between iterations. Constants of the
  // body are invariant but have no outside value yet: OutsideOrClone makes
  // one.
  Value* Outside(Value* v) const {
    if (v->owner_block == body_) {
      const size_t k = static_cast<size_t>(v->index);
      return PassedThrough(k) ? loop_->operands[k] : nullptr;
    }
    return DefinedInside(v, loop_) ? nullptr : v;
  }

  bool IsBodyConstant(const Value* v) const {
    return v->defining_op != nullptr && v->defining_op->code == OpCode::kConstant &&
           v->defining_op->parent == body_;
  }

  bool Invariant(Value* v) const { return Outside(v) != nullptr || IsBodyConstant(v); }

  // The outside value for invariant `v`, copying a body constant before the
  // loop the first time one is needed there.
  Value* OutsideOrClone(Value* v) {
    if (Value* outside = Outside(v)) return outside;
    auto it = cloned_.find(v);
    if (it != cloned_.end()) return it->second;
    shlo::IrBuilder before(loop_);
    shlo::IrBuilder::ValueMap map;
    before.Clone(*v->defining_op, map);
    Value* copy = map.at(v);
    cloned_[v] = copy;
    return copy;
  }

  // Moves the pure, region-free ops of the body whose operands are all
  // invariant (and that do not grow the data) before the loop, in order;
  // true when any moved.
  bool HoistInvariantOps() {
    Block* outer = loop_->parent;
    std::vector<std::unique_ptr<Operation>> kept, hoisted;
    kept.reserve(body_->operations.size());
    for (std::unique_ptr<Operation>& op : body_->operations) {
      if (!Hoistable(*op)) {
        kept.push_back(std::move(op));
        continue;
      }
      // Body constants it reads are copied before the loop now, so they
      // precede every hoisted op, which go in together below.
      for (Value*& operand : op->operands) operand = OutsideOrClone(operand);
      op->parent = outer;
      hoisted.push_back(std::move(op));
    }
    body_->operations = std::move(kept);
    if (hoisted.empty()) return false;
    auto at = std::find_if(outer->operations.begin(), outer->operations.end(),
                           [&](const std::unique_ptr<Operation>& o) { return o.get() == loop_; });
    outer->operations.insert(at, std::make_move_iterator(hoisted.begin()),
                             std::make_move_iterator(hoisted.end()));
    return true;
  }

  // Rewrites each dot_general of the body that projects row t of an
  // invariant operand in iteration t; true when any was rewritten.
  bool HoistScanProjections() {
    std::optional<Counter> counter = FindCounter();
    if (!counter) return false;
    std::vector<Operation*> dots;
    for (const auto& op : body_->operations) {
      if (op->code == OpCode::kDotGeneral) dots.push_back(op.get());
    }
    bool changed = false;
    for (Operation* dot : dots) changed |= HoistProjection(*dot, *counter);
    return changed;
  }

 private:
  // A counted loop: carried value `index` starts at 0, the body adds 1, and
  // the condition is `index < trips`.
  struct Counter {
    size_t index = 0;
    int64_t trips = 0;
  };

  bool PassedThrough(size_t k) const {
    const Operation& ret = *body_->operations.back();
    return k < ret.operands.size() && ret.operands[k] == body_->arguments[k].get();
  }

  bool Hoistable(const Operation& op) const {
    if (op.code == OpCode::kConstant || op.code == OpCode::kReturn || !op.regions.empty() ||
        op.operands.empty() || !IsPureOp(op)) {
      return false;
    }
    int64_t in = 0, out = 0;
    for (Value* operand : op.operands) {
      if (!Invariant(operand)) return false;
      const int64_t bytes = TensorBytes(operand->type);
      if (bytes < 0) return false;
      in += bytes;
    }
    for (const auto& result : op.results) {
      const int64_t bytes = TensorBytes(result->type);
      if (bytes < 0) return false;
      out += bytes;
    }
    return out <= in;
  }

  // The loop's bound: a constant, or a carried value passed through whose
  // initial value is a constant.
  std::optional<int64_t> Bound(const Value* v) const {
    if (v->owner_block == cond_) {
      const size_t k = static_cast<size_t>(v->index);
      if (!PassedThrough(k)) return std::nullopt;
      return IntegerSplat(loop_->operands[k]);
    }
    return IntegerSplat(v);
  }

  std::optional<Counter> FindCounter() const {
    const Operation& yield = *cond_->operations.back();
    if (yield.code != OpCode::kReturn || yield.operands.size() != 1) return std::nullopt;
    const Operation* compare = yield.operands[0]->defining_op;
    if (compare == nullptr || compare->code != OpCode::kCompare || compare->parent != cond_ ||
        compare->operands.size() != 2) {
      return std::nullopt;
    }
    const Attribute* direction = compare->attribute("comparison_direction");
    if (direction == nullptr) return std::nullopt;
    StatusOr<std::string> dir = shlo::AttrToEnumValue(*direction);
    if (!dir.ok() || *dir != "LT") return std::nullopt;
    const Value* index = compare->operands[0];
    if (index->owner_block != cond_ || !index->type.is_tensor() || index->type.rank() != 0 ||
        !shlo::IsInteger(index->type.element_type())) {
      return std::nullopt;
    }
    const size_t k = static_cast<size_t>(index->index);
    std::optional<int64_t> trips = Bound(compare->operands[1]);
    std::optional<int64_t> start = IntegerSplat(loop_->operands[k]);
    if (!trips || !start || *start != 0 || *trips <= 0) return std::nullopt;
    // The body returns index + 1.
    const Operation* next = body_->operations.back()->operands[k]->defining_op;
    if (next == nullptr || next->code != OpCode::kAdd || next->operands.size() != 2) return std::nullopt;
    const Value* self = body_->arguments[k].get();
    const Value* step = next->operands[0] == self   ? next->operands[1]
                        : next->operands[1] == self ? next->operands[0]
                                                    : nullptr;
    if (step == nullptr || IntegerSplat(step) != std::optional<int64_t>(1)) return std::nullopt;
    return Counter{k, *trips};
  }

  // Row t of invariant X in iteration t: `slice` is dynamic_slice(X, index,
  // 0, ..., 0) with sizes [1, X's other dimensions].
  Value* ScannedOperand(const Operation* slice, const Counter& counter) const {
    if (slice == nullptr || slice->code != OpCode::kDynamicSlice || slice->parent != body_ ||
        slice->operands.empty()) {
      return nullptr;
    }
    Value* x = slice->operands[0];
    const Type& type = x->type;
    if (!type.is_tensor() || !type.has_static_shape() || type.rank() < 1 ||
        type.dims()[0] != counter.trips || slice->operands.size() != 1 + static_cast<size_t>(type.rank()) ||
        Outside(x) == nullptr) {
      return nullptr;
    }
    if (slice->operands[1] != body_->arguments[counter.index].get()) return nullptr;
    for (size_t i = 2; i < slice->operands.size(); ++i) {
      if (IntegerSplat(slice->operands[i]) != std::optional<int64_t>(0)) return nullptr;
    }
    std::optional<std::vector<int64_t>> sizes = OptionalIntList(slice->attribute("slice_sizes"));
    if (!sizes || sizes->size() != type.dims().size() || (*sizes)[0] != 1 ||
        !std::equal(sizes->begin() + 1, sizes->end(), type.dims().begin() + 1)) {
      return nullptr;
    }
    return x;
  }

  bool HoistProjection(Operation& dot, const Counter& counter) {
    if (dot.operands.size() != 2 || dot.results.size() != 1) return false;
    Value* lhs = dot.operands[0];
    Value* w = dot.operands[1];
    if (!Invariant(w) || lhs->defining_op == nullptr) return false;
    // The row, through the reshape dropping its unit dimension or as sliced.
    const Operation* slice = lhs->defining_op;
    bool reshaped = false;
    if (slice->code == OpCode::kReshape && slice->operands.size() == 1) {
      reshaped = true;
      slice = slice->operands[0]->defining_op;
    }
    Value* x = ScannedOperand(slice, counter);
    if (x == nullptr) return false;
    const std::vector<int64_t>& xdims = x->type.dims();
    if (reshaped && lhs->type.dims() != std::vector<int64_t>(xdims.begin() + 1, xdims.end())) return false;
    const Attribute* numbers = dot.attribute("dot_dimension_numbers");
    if (numbers == nullptr || numbers->kind != Attribute::Kind::kStruct) return false;
    auto field = [&](const char* name) { return OptionalIntList(shlo::FindAttribute(numbers->fields, name)); };
    std::optional<std::vector<int64_t>> lb = field("lhs_batching_dimensions");
    std::optional<std::vector<int64_t>> rb = field("rhs_batching_dimensions");
    std::optional<std::vector<int64_t>> lc = field("lhs_contracting_dimensions");
    std::optional<std::vector<int64_t>> rc = field("rhs_contracting_dimensions");
    if (!lb || !rb || !lc || !rc || !lb->empty() || !rb->empty()) return false;
    // Contracting dimensions in X's numbering; the scanned one is free.
    for (int64_t& d : *lc) {
      if (reshaped) ++d;
      if (d <= 0 || d >= x->type.rank()) return false;
    }
    // Without batch dimensions the result is X's free dimensions (the
    // scanned one first) then W's: iteration t's product is row t.
    const Type& result = dot.result(0)->type;
    std::vector<int64_t> row = result.dims();
    if (!reshaped) {
      if (row.empty() || row[0] != 1) return false;
      row.erase(row.begin());
    }
    std::vector<int64_t> all = row;
    all.insert(all.begin(), counter.trips);
    const Type product_type = Type::Tensor(result.element_type(), all);
    const int64_t bytes = TensorBytes(product_type);
    if (bytes < 0 || bytes > kMaxHoistedProductBytes) return false;

    std::vector<NamedAttribute> fields;
    if (!lc->empty()) fields.emplace_back("lhs_contracting_dimensions", Attribute::DenseI64Array(*lc));
    if (!rc->empty()) fields.emplace_back("rhs_contracting_dimensions", Attribute::DenseI64Array(*rc));
    std::vector<NamedAttribute> attributes;
    for (const NamedAttribute& a : dot.attributes) {
      attributes.push_back(a.first == "dot_dimension_numbers"
                               ? NamedAttribute(a.first, Attribute::Struct(numbers->str, fields))
                               : a);
    }
    Value* x_outside = OutsideOrClone(x);
    Value* w_outside = OutsideOrClone(w);
    shlo::IrBuilder before(loop_);
    Value* product = before.Op("stablehlo.dot_general", {x_outside, w_outside}, product_type,
                               std::move(attributes));

    shlo::IrBuilder here(&dot);
    Value* index = body_->arguments[counter.index].get();
    Value* zero = here.SplatInt(index->type, 0);
    std::vector<Value*> starts = {product, index};
    starts.resize(1 + all.size(), zero);
    std::vector<int64_t> sizes = row;
    sizes.insert(sizes.begin(), 1);
    Value* picked = here.Op("stablehlo.dynamic_slice", std::move(starts), Type::Tensor(result.element_type(), sizes),
                            {{"slice_sizes", Attribute::DenseI64Array(sizes)}});
    if (reshaped) picked = here.Op("stablehlo.reshape", {picked}, result);
    shlo::ReplaceAllUsesWith(loop_->region(1), dot.result(0), picked);
    shlo::EraseOp(&dot);
    return true;
  }

  Operation* loop_;
  Block* cond_;
  Block* body_;
  std::unordered_map<const Value*, Value*> cloned_;
};

}  // namespace

bool HoistWhileLoopInvariants(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    std::vector<Operation*> loops;
    ForEachBlock(*function, [&](Block& block) {
      for (const auto& op : block.operations) {
        if (op->code == OpCode::kWhile && op->regions.size() == 2 &&
            op->region(0).blocks.size() == 1 && op->region(1).blocks.size() == 1) {
          loops.push_back(op.get());
        }
      }
    });
    // Inner loops first: what leaves an inner loop may then leave the outer.
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      Loop loop(*it);
      if (!loop.Valid()) continue;
      changed |= loop.HoistInvariantOps();
      changed |= loop.HoistScanProjections();
    }
  }
  return changed;
}

}  // namespace plugrt::passes
