// plugrt CPU executor: ops the executor runs itself: calls, while / if /
// case, composites, tuples, constants, tokens, replica and partition ids,
// optimization barriers.
#include <functional>
#include <utility>

#include "cpu/exec/program_compiler.h"
#include "cpu/exec/literal.h"

namespace plugrt::cpu {
namespace {

using shlo::OpCode;
using Results = StatusOr<std::vector<RtValue>>;

Status ExpectOperands(const shlo::Operation& op, size_t count) {
  if (op.operands.size() != count) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("expects ", count, " operands, has ", op.operands.size()));
  }
  return OkStatus();
}

Status ExpectRegions(const shlo::Operation& op, size_t count) {
  if (op.regions.size() != count) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("expects ", count, " regions, has ", op.regions.size()));
  }
  return OkStatus();
}

// Reads a rank-0 integer or boolean tensor as int64.
StatusOr<int64_t> ScalarAsInt(const RtValue& value) {
  if (value.kind != RtValue::Kind::kTensor || value.tensor.num_elements() != 1) {
    return InvalidArgument("expected a scalar tensor");
  }
  const Tensor& t = value.tensor;
  switch (t.type()) {
    case shlo::ElementType::kI1:
    case shlo::ElementType::kUI2:
    case shlo::ElementType::kUI4:
    case shlo::ElementType::kUI8: return *t.as<uint8_t>();
    case shlo::ElementType::kSI2:
    case shlo::ElementType::kSI4:
    case shlo::ElementType::kSI8: return *t.as<int8_t>();
    case shlo::ElementType::kSI16: return *t.as<int16_t>();
    case shlo::ElementType::kUI16: return *t.as<uint16_t>();
    case shlo::ElementType::kSI32: return *t.as<int32_t>();
    case shlo::ElementType::kUI32: return *t.as<uint32_t>();
    case shlo::ElementType::kSI64: return *t.as<int64_t>();
    case shlo::ElementType::kUI64: return static_cast<int64_t>(*t.as<uint64_t>());
    default: return InvalidArgument("expected an integer scalar, got ", TensorTypeString(t));
  }
}

Tensor ScalarU32(int64_t value) {
  Tensor t(shlo::ElementType::kUI32, {});
  *t.mutable_as<uint32_t>() = static_cast<uint32_t>(value);
  return t;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileCall(const shlo::Operation& op,
                                                  CompileContext& context,
                                                  std::string_view attribute) {
  const shlo::Attribute* callee = op.attribute(attribute);
  if (callee == nullptr || callee->kind != shlo::Attribute::Kind::kSymbolRef) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("needs a symbol attribute '", attribute, "'"));
  }
  StatusOr<std::shared_ptr<const CompiledRegion>> body = context.CompileFunction(callee->str);
  if (!body.ok()) return OpError(op, body.status().code(), body.status().message());
  std::shared_ptr<const CompiledRegion> region = *body;
  return MakeOp([region](const std::vector<RtValue>& operands, ExecContext& ctx) -> Results {
    // A callee sees only its arguments, never the caller's frame.
    const void* saved = ctx.frame;
    ctx.frame = nullptr;
    Results results = region->Run(operands, ctx);
    ctx.frame = saved;
    return results;
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileWhile(const shlo::Operation& op,
                                                   CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(ExpectRegions(op, 2));
  PLUGRT_ASSIGN_OR_RETURN(auto cond, context.CompileRegion(*op.regions[0]));
  PLUGRT_ASSIGN_OR_RETURN(auto body, context.CompileRegion(*op.regions[1]));
  return MakeOp([cond, body](const std::vector<RtValue>& operands, ExecContext& ctx) -> Results {
    std::vector<RtValue> values = operands;
    while (true) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<RtValue> predicate, cond->Run(values, ctx));
      if (predicate.size() != 1) return InvalidArgument("while condition must return one value");
      PLUGRT_ASSIGN_OR_RETURN(int64_t go_on, ScalarAsInt(predicate[0]));
      if (!go_on) return values;
      PLUGRT_ASSIGN_OR_RETURN(values, body->Run(std::move(values), ctx));
    }
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileBranches(const shlo::Operation& op,
                                                      CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(ExpectOperands(op, 1));
  if (op.regions.empty()) return OpError(op, StatusCode::kInvalidArgument, "needs branches");
  std::vector<std::shared_ptr<const CompiledRegion>> branches;
  for (const auto& region : op.regions) {
    PLUGRT_ASSIGN_OR_RETURN(auto branch, context.CompileRegion(*region));
    branches.push_back(branch);
  }
  const bool is_if = op.code == OpCode::kIf;
  if (is_if && branches.size() != 2) {
    return OpError(op, StatusCode::kInvalidArgument, "stablehlo.if needs two branches");
  }
  return MakeOp([branches, is_if](const std::vector<RtValue>& operands,
                                  ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(int64_t selector, ScalarAsInt(operands[0]));
    size_t index;
    if (is_if) {
      index = selector ? 0 : 1;
    } else {
      // Out-of-range indices select the last branch.
      index = (selector < 0 || selector >= static_cast<int64_t>(branches.size()))
                  ? branches.size() - 1
                  : static_cast<size_t>(selector);
    }
    return branches[index]->Run({}, ctx);
  });
}

StatusOr<std::unique_ptr<CompiledOp>> CompileControlFlowOp(const shlo::Operation& op,
                                                           CompileContext& context) {
  switch (op.code) {
    case OpCode::kFuncCall:
      return CompileCall(op, context, "callee");
    case OpCode::kComposite:
      return CompileCall(op, context, "decomposition");
    case OpCode::kWhile:
      return CompileWhile(op, context);
    case OpCode::kIf:
    case OpCode::kCase:
      return CompileBranches(op, context);
    case OpCode::kOptimizationBarrier:
      return MakeOp([](const std::vector<RtValue>& operands, ExecContext&) -> Results {
        return operands;
      });
    case OpCode::kTuple:
      return MakeOp([](const std::vector<RtValue>& operands, ExecContext&) -> Results {
        return std::vector<RtValue>{RtValue::Tuple(operands)};
      });
    case OpCode::kGetTupleElement: {
      PLUGRT_RETURN_IF_ERROR(ExpectOperands(op, 1));
      const shlo::Attribute* index_attr = op.attribute("index");
      if (index_attr == nullptr) return OpError(op, StatusCode::kInvalidArgument, "needs 'index'");
      PLUGRT_ASSIGN_OR_RETURN(int64_t index, shlo::AttrToInt(*index_attr));
      const shlo::Type& tuple_type = op.operands[0]->type;
      if (!tuple_type.is_tuple() || index < 0 ||
          index >= static_cast<int64_t>(tuple_type.tuple_elements().size())) {
        return OpError(op, StatusCode::kInvalidArgument,
                       StrCat("index ", index, " is out of range for ", tuple_type.ToString()));
      }
      return MakeOp([index](const std::vector<RtValue>& operands, ExecContext&) -> Results {
        if (operands[0].kind != RtValue::Kind::kTuple ||
            index >= static_cast<int64_t>(operands[0].tuple.size())) {
          return InvalidArgument("operand is not a tuple of the declared size");
        }
        return std::vector<RtValue>{operands[0].tuple[index]};
      });
    }
    case OpCode::kConstant: {
      const shlo::Attribute* value = op.attribute("value");
      if (value == nullptr) return OpError(op, StatusCode::kInvalidArgument, "needs 'value'");
      StatusOr<Tensor> tensor = TensorFromAttribute(*value);
      if (!tensor.ok()) return OpError(op, tensor.status().code(), tensor.status().message());
      RtValue constant = RtValue::Of(tensor->AsShared());
      return MakeOp([constant](const std::vector<RtValue>&, ExecContext&) -> Results {
        return std::vector<RtValue>{constant};
      });
    }
    case OpCode::kAfterAll:
    case OpCode::kCreateToken:
      return MakeOp([](const std::vector<RtValue>&, ExecContext&) -> Results {
        return std::vector<RtValue>{RtValue::Token()};
      });
    case OpCode::kReplicaId:
      return MakeOp([](const std::vector<RtValue>&, ExecContext& ctx) -> Results {
        return std::vector<RtValue>{RtValue::Of(ScalarU32(ctx.replica_id))};
      });
    case OpCode::kPartitionId:
      return MakeOp([](const std::vector<RtValue>&, ExecContext& ctx) -> Results {
        return std::vector<RtValue>{RtValue::Of(ScalarU32(ctx.partition_id))};
      });
    default:
      return OpError(op, StatusCode::kInternal,
                     "registered with the control-flow group, which has no case for it");
  }
}

}  // namespace

void RegisterControlFlowOps(OpRegistry& registry) {
  registry.SetGroup(shlo::OpGroup::kControl, &CompileControlFlowOp);
}

}  // namespace plugrt::cpu
