// HLO importer: instructions about values and control rather than math:
// parameters, constants, tuples, copies, calls, fusions (inlined), while
// and conditional (regions).
#include <utility>

#include "compiler/importers/hlo/hlo_converter.h"
#include "compiler/importers/hlo/hlo_types.h"

namespace plugrt::shlo::hlo {
namespace {

// A constant for every leaf of a (possibly tuple) literal.
StatusOr<ValueTree> ConstantTree(const xla::LiteralProto& literal, const Type& type,
                                 IrBuilder& builder) {
  if (type.is_tuple()) {
    if (literal.tuple_literals_size() != static_cast<int>(type.tuple_elements().size())) {
      return InvalidArgument("tuple literal has ", literal.tuple_literals_size(),
                             " elements, its shape ", type.tuple_elements().size());
    }
    std::vector<ValueTree> elements;
    for (size_t i = 0; i < type.tuple_elements().size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(ValueTree e, ConstantTree(literal.tuple_literals(static_cast<int>(i)),
                                                        type.tuple_elements()[i], builder));
      elements.push_back(std::move(e));
    }
    return ValueTree::Tuple(std::move(elements));
  }
  PLUGRT_ASSIGN_OR_RETURN(Attribute value, DenseFromLiteral(literal, type));
  return ValueTree::Leaf(builder.Op("stablehlo.constant", {}, type, {{"value", std::move(value)}}));
}


}  // namespace

StatusOr<ValueTree> HloConverter::ConvertControl(const InstructionContext& ctx,
                                                 const std::vector<ValueTree>& params,
                                                 bool* handled) {
  const xla::HloInstructionProto& inst = ctx.inst;
  const std::string& op = inst.opcode();
  *handled = true;
  if (op == "parameter") {
    const int64_t n = inst.parameter_number();
    if (n < 0 || n >= static_cast<int64_t>(params.size())) {
      return InvalidArgument("parameter number ", n, " of ", params.size());
    }
    return params[n];
  }
  if (op == "constant") return ConstantTree(inst.literal(), ctx.type, ctx.builder);
  if (op == "tuple") return ValueTree::Tuple(ctx.operands);
  if (op == "get-tuple-element") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    const ValueTree& t = ctx.operands[0];
    if (!t.is_tuple || inst.tuple_index() < 0 ||
        inst.tuple_index() >= static_cast<int64_t>(t.elements.size())) {
      return InvalidArgument("tuple index ", inst.tuple_index(), " is out of range");
    }
    return t.elements[inst.tuple_index()];
  }
  // Copies and domains only say where a value lives; the IR has no layouts.
  if (op == "copy" || op == "domain") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    return ctx.operands[0];
  }
  if (op == "add-dependency") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    return ctx.operands[0];
  }
  if (op == "fusion") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectCalled(1));
    return EmitComputation(inst.called_computation_ids(0), ctx.operands, ctx.builder.block());
  }
  if (op == "call") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectCalled(1));
    PLUGRT_ASSIGN_OR_RETURN(const Function* f, FunctionFor(inst.called_computation_ids(0)));
    std::vector<Value*> args;
    for (const ValueTree& t : ctx.operands) t.Flatten(&args);
    if (args.size() != f->input_types.size()) {
      return InvalidArgument("passes ", args.size(), " values to @", f->name, ", which takes ",
                             f->input_types.size());
    }
    Operation* call = ctx.builder.Create("func.call", std::move(args), f->result_types,
                                         {{"callee", Attribute::SymbolRef(f->name)}});
    return ctx.ResultsAsTree(call);
  }
  if (op == "opt-barrier") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    std::vector<Value*> leaves = ctx.operands[0].Leaves();
    std::vector<Type> types;
    for (Value* v : leaves) types.push_back(v->type);
    Operation* barrier = ctx.builder.Create("stablehlo.optimization_barrier", leaves, types);
    return ctx.ResultsAsTree(barrier);
  }
  if (op == "while") {
    // Called computations: the body, then the condition.
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectCalled(2));
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    std::vector<std::unique_ptr<Region>> regions;
    PLUGRT_ASSIGN_OR_RETURN(auto cond, BuildRegion(inst.called_computation_ids(1)));
    PLUGRT_ASSIGN_OR_RETURN(auto body, BuildRegion(inst.called_computation_ids(0)));
    regions.push_back(std::move(cond));
    regions.push_back(std::move(body));
    std::vector<Value*> inits = ctx.operands[0].Leaves();
    Operation* loop = ctx.builder.Create("stablehlo.while", inits, FlattenType(ctx.type));
    AttachRegions(loop, std::move(regions));
    return ctx.ResultsAsTree(loop);
  }
  if (op == "conditional") {
    if (ctx.operands.empty()) return InvalidArgument("conditional without a selector operand");
    PLUGRT_ASSIGN_OR_RETURN(Value * selector, ctx.Operand(0));
    const int branches = inst.called_computation_ids_size();
    if (branches < 1 || static_cast<size_t>(branches) + 1 != ctx.operands.size()) {
      return InvalidArgument("conditional has ", branches, " branches and ",
                             ctx.operands.size() - 1, " branch operands");
    }
    std::vector<std::unique_ptr<Region>> regions;
    for (int b = 0; b < branches; ++b) {
      PLUGRT_ASSIGN_OR_RETURN(auto region,
                              BuildCapturingRegion(inst.called_computation_ids(b),
                                                   {ctx.operands[b + 1]}));
      regions.push_back(std::move(region));
    }
    const bool is_pred = selector->type.is_tensor() &&
                         selector->type.element_type() == ElementType::kI1;
    // A predicate selects the first branch when true: stablehlo.if.
    const char* name = is_pred ? "stablehlo.if" : "stablehlo.case";
    if (is_pred && branches != 2) return InvalidArgument("a predicated conditional needs 2 branches");
    Operation* cond = ctx.builder.Create(name, {selector}, FlattenType(ctx.type));
    AttachRegions(cond, std::move(regions));
    return ctx.ResultsAsTree(cond);
  }
  *handled = false;
  return ValueTree();
}

}  // namespace plugrt::shlo::hlo
