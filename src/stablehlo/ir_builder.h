// plugrt StableHLO: small helpers for passes that rewrite the IR (the CHLO
// lowering): create ops before an anchor op, make constants, redirect uses
// of a value and erase ops.
#ifndef PLUGRT_STABLEHLO_IR_BUILDER_H_
#define PLUGRT_STABLEHLO_IR_BUILDER_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Creates ops in one block: before `anchor` (with the anchor's location), or
// at the end of a block being filled (a region body).
class IrBuilder {
 public:
  explicit IrBuilder(Operation* anchor);
  IrBuilder(Block* block, Location location);

  // A new op with the given operands, result types and attributes; its
  // code is looked up from `name`.
  Operation* Create(const std::string& name, std::vector<Value*> operands,
                    std::vector<Type> result_types, std::vector<NamedAttribute> attributes = {});
  // The same for a one-result op, returning that result.
  Value* Op(const std::string& name, std::vector<Value*> operands, Type result_type,
            std::vector<NamedAttribute> attributes = {});

  // Splat constants of tensor type `type` (static shape). Float values are
  // rounded to the element type; integers are truncated to its width.
  Value* SplatFloat(const Type& type, double value);
  Value* SplatInt(const Type& type, int64_t value);
  // A splat holding the given storage bytes (one element).
  Value* SplatBytes(const Type& type, std::vector<std::byte> element);

  // Common shapes of ops.
  Value* Compare(Value* lhs, Value* rhs, const std::string& direction,
                 const std::string& compare_type = "");
  Value* Select(Value* pred, Value* on_true, Value* on_false);
  Value* BroadcastInDim(Value* operand, const Type& result_type, std::vector<int64_t> dims);
  Value* Convert(Value* operand, ElementType element);
  Value* BitcastConvert(Value* operand, ElementType element);

  // Copies `op`, its regions included, reading each operand through `map`
  // (values not in it are kept: captures from enclosing scopes) and
  // recording the copy's results (and nested block arguments) in `map`.
  using ValueMap = std::unordered_map<const Value*, Value*>;
  Operation* Clone(const Operation& op, ValueMap& map);
  // A block argument for a block being built.
  static Value* AddArgument(Block* block, Type type);

  Block* block() const { return block_; }
  const Location& location() const { return location_; }

 private:
  Block* block_;
  Operation* anchor_;  // null: append at the end of block_
  Location location_;
};

// `type` with another element type (same dims).
Type WithElementType(const Type& type, ElementType element);
// The integer type of the same width as float type `element` (f32 -> i32).
ElementType SameWidthInteger(ElementType element);

// Rewrites every operand in `region` (and regions nested in it) that is
// `from` to `to`.
void ReplaceAllUsesWith(Region& region, const Value* from, Value* to);
// True if any op in `region` (nested included) reads a result of `op`.
bool HasUses(Region& region, const Operation* op);
// Removes `op` from its block (its results must be unused).
void EraseOp(Operation* op);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_IR_BUILDER_H_
