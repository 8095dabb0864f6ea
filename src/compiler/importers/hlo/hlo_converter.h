// plugrt compiler, HLO importer: an HloModuleProto turned into IR.
//
// The entry computation becomes public @main: its parameters in parameter
// number order, tuple-shaped parameters and results flattened into their
// leaves as XLA flattens them. A computation that `call` names becomes a
// private function (flattened the same way); the bodies of reduce, sort,
// scatter, while, conditional, ... become the regions StableHLO gives those
// ops; a fusion's computation is inlined where it is used.
//
// Tuples exist only while converting: each instruction's value is a tree
// whose leaves are IR values, so tuple and get-tuple-element build no ops.
// Each opcode family converts in a file of its own (hlo_ops_*.cc); an opcode
// none of them knows is UNIMPLEMENTED, naming it and the instruction.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_CONVERTER_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_CONVERTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "proto/hlo.pb.h"
#include "stablehlo/ir.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::shlo::hlo {

// An instruction's value: one IR value, or a tuple of trees.
struct ValueTree {
  Value* leaf = nullptr;
  std::vector<ValueTree> elements;
  bool is_tuple = false;

  static ValueTree Leaf(Value* value);
  static ValueTree Tuple(std::vector<ValueTree> elements);
  // The leaves in depth-first order.
  void Flatten(std::vector<Value*>* out) const;
  std::vector<Value*> Leaves() const;
};

class HloConverter;

// What an op family's converter gets for one instruction.
struct InstructionContext {
  HloConverter* converter;
  const xla::HloInstructionProto& inst;
  const std::vector<ValueTree>& operands;
  const Type& type;  // the instruction's shape in IR terms
  IrBuilder& builder;

  // Operand `i`, which must be an array (or token) value.
  StatusOr<Value*> Operand(size_t i) const;
  // Every operand as one value each (none may be a tuple).
  StatusOr<std::vector<Value*>> ArrayOperands() const;
  // INVALID_ARGUMENT unless there are `count` operands.
  Status ExpectOperands(size_t count) const;
  // INVALID_ARGUMENT unless it calls `count` computations.
  Status ExpectCalled(int count) const;
  // One op of `name` with the array operands, the instruction's (non-tuple)
  // type as its one result, and `attributes`.
  StatusOr<ValueTree> Simple(const std::string& name, std::vector<NamedAttribute> attributes = {}) const;
  // The op's results as the instruction's value: one result for an array
  // type, the tuple's leaves otherwise.
  // INVALID_ARGUMENT when the op's result count differs from the shape's
  // leaf count.
  StatusOr<ValueTree> ResultsAsTree(Operation* op) const;
};

// Each family's converter: the instruction's value, or nullopt-like
// kNotMine when the opcode is not of its family.
enum class Handled { kYes, kNotMine };
using FamilyResult = StatusOr<std::pair<Handled, ValueTree>>;
FamilyResult ConvertElementwise(const InstructionContext& ctx);
// (HLO opcode, StableHLO op) of the elementwise instructions that need no
// attributes (add, exponential, convert, select, ...); the HLO text writer
// reads it the other way round.
const std::vector<std::pair<std::string_view, std::string_view>>& HloElementwiseOpcodes();
FamilyResult ConvertDataMovement(const InstructionContext& ctx);
FamilyResult ConvertCompute(const InstructionContext& ctx);
FamilyResult ConvertCollective(const InstructionContext& ctx);

class HloConverter {
 public:
  HloConverter(const xla::HloModuleProto& proto, std::string_view file_name);

  // The whole module; `config` (may be null) gives replica and partition
  // counts as module attributes.
  StatusOr<std::unique_ptr<Module>> Convert(const xla::HloModuleConfigProto* config);

  // A region of one block: its arguments the leaves of computation
  // `computation_id`'s parameters, its ops the computation's, ended by
  // stablehlo.return of the root's leaves.
  StatusOr<std::unique_ptr<Region>> BuildRegion(int64_t computation_id);
  // A region without arguments whose computation reads `params` (values of
  // the enclosing block) as its parameters: the branches of conditional.
  StatusOr<std::unique_ptr<Region>> BuildCapturingRegion(int64_t computation_id,
                                                         const std::vector<ValueTree>& params);
  // The computation emitted into `block` (whose arguments, if any, are
  // `params`' leaves), closed by a stablehlo.return of its root.
  StatusOr<std::unique_ptr<Region>> FinishRegion(int64_t computation_id,
                                                 const std::vector<ValueTree>& params,
                                                 std::unique_ptr<Region> region,
                                                 std::unique_ptr<Block> block);
  // Emits computation `computation_id` into `block` with `params` as its
  // parameters (by parameter number): its root's value.
  StatusOr<ValueTree> EmitComputation(int64_t computation_id, const std::vector<ValueTree>& params,
                                      Block* block);
  // The private function for computation `computation_id`, made on first use.
  StatusOr<const Function*> FunctionFor(int64_t computation_id);

  const xla::HloComputationProto* FindComputation(int64_t id) const;
  // Parameter shapes of a computation, by parameter number.
  StatusOr<std::vector<Type>> ParameterTypes(const xla::HloComputationProto& computation) const;
  // Attaches `regions` to `op`.
  static void AttachRegions(Operation* op, std::vector<std::unique_ptr<Region>> regions);
  const Location& module_location() const { return module_->location; }
  Location LocationOf(const xla::HloInstructionProto& inst) const;

 private:
  StatusOr<ValueTree> EmitInstruction(const xla::HloInstructionProto& inst,
                                      const std::vector<ValueTree>& operands,
                                      const std::vector<ValueTree>& params, Block* block);
  // The instruction's sharding and frontend attributes, as `mhlo.sharding`
  // and `mhlo.frontend_attributes` on the op it became.
  void AnnotateInstruction(const xla::HloInstructionProto& inst, Block* block,
                           size_t first_new_op);
  StatusOr<ValueTree> ConvertControl(const InstructionContext& ctx,
                                     const std::vector<ValueTree>& params, bool* handled);
  Status BuildEntry(const xla::HloComputationProto& entry);
  Status ApplyAliasing(Function* main, const std::vector<Type>& param_types,
                       const Type& result_type);
  Status ApplyShardings(Function* main, const xla::HloComputationProto& entry,
                        const std::vector<Type>& param_types, const Type& result_type);
  StatusOr<Function*> NewFunction(const xla::HloComputationProto& computation, bool is_entry,
                                  std::vector<Type>* param_types, Type* result_type);

  const xla::HloModuleProto& proto_;
  std::shared_ptr<const std::string> file_;
  std::unordered_map<int64_t, const xla::HloComputationProto*> computations_;
  std::unordered_map<int64_t, const Function*> functions_;
  std::unordered_set<std::string> function_names_;
  std::vector<int64_t> in_progress_;  // computations being emitted (cycle check)
  Module* module_ = nullptr;
};

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_CONVERTER_H_
