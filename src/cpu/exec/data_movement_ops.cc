// plugrt CPU executor: compile functions of the shape and data-movement ops.
// Attributes are decoded and checked here, once; Execute only reads operand
// tensors and calls the kernels in cpu/kernels/data_movement.h and
// gather_scatter.h.
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "cpu/exec/op_registry.h"
#include "cpu/exec/literal.h"
#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/gather_scatter.h"
#include "cpu/kernels/index_values.h"

namespace plugrt::cpu {
namespace {

using shlo::OpCode;
using Results = StatusOr<std::vector<RtValue>>;
using Operands = std::vector<RtValue>;

Status Invalid(const shlo::Operation& op, const std::string& message) {
  return OpError(op, StatusCode::kInvalidArgument, message);
}

// Every operand a tensor (unsupported types are UNIMPLEMENTED), `count` of them
// (-1: any number).
Status CheckOperands(const shlo::Operation& op, int count) {
  if (count >= 0 && op.operands.size() != static_cast<size_t>(count)) {
    return Invalid(op, StrCat("expects ", count, " operands, has ", op.operands.size()));
  }
  for (const shlo::Value* operand : op.operands) {
    if (operand->type.kind() == shlo::Type::Kind::kUnsupported) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("operand type ", operand->type.unsupported_text(),
                            " is not supported"));
    }
    if (!operand->type.is_tensor()) {
      return Invalid(op, StrCat("operands must be tensors, not ", operand->type.ToString()));
    }
  }
  return OkStatus();
}

// The static tensor type of result `i`.
StatusOr<shlo::Type> ResultType(const shlo::Operation& op, size_t i = 0) {
  if (op.results.size() <= i) return Invalid(op, StrCat("has no result ", i));
  const shlo::Type& type = op.result(i)->type;
  if (!type.is_tensor()) return Invalid(op, StrCat("result must be a tensor, not ", type.ToString()));
  if (!type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("result type ", type.ToString(),
                          " has a dynamic shape; only static result shapes are supported"));
  }
  return type;
}

StatusOr<std::vector<int64_t>> IntList(const shlo::Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return Invalid(op, StrCat("needs attribute '", name, "'"));
  StatusOr<std::vector<int64_t>> list = shlo::AttrToIntList(*attr);
  if (!list.ok()) return Invalid(op, StrCat("attribute '", name, "': ", list.status().message()));
  return list;
}

StatusOr<std::vector<int64_t>> IntListOr(const shlo::Operation& op, const char* name,
                                         std::vector<int64_t> fallback) {
  if (op.attribute(name) == nullptr) return fallback;
  return IntList(op, name);
}

StatusOr<int64_t> Int(const shlo::Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return Invalid(op, StrCat("needs attribute '", name, "'"));
  StatusOr<int64_t> value = shlo::AttrToInt(*attr);
  if (!value.ok()) return Invalid(op, StrCat("attribute '", name, "': ", value.status().message()));
  return value;
}

StatusOr<int64_t> IntOr(const shlo::Operation& op, const char* name, int64_t fallback) {
  if (op.attribute(name) == nullptr) return fallback;
  return Int(op, name);
}

// A field of a structured attribute: absent fields are empty lists / 0.
StatusOr<std::vector<int64_t>> FieldList(const shlo::Operation& op, const shlo::Attribute& attr,
                                         const char* name) {
  const shlo::Attribute* field = attr.field(name);
  if (field == nullptr) return std::vector<int64_t>{};
  StatusOr<std::vector<int64_t>> list = shlo::AttrToIntList(*field);
  if (!list.ok()) return Invalid(op, StrCat("field '", name, "': ", list.status().message()));
  return list;
}

StatusOr<int64_t> FieldInt(const shlo::Operation& op, const shlo::Attribute& attr,
                           const char* name) {
  const shlo::Attribute* field = attr.field(name);
  if (field == nullptr) return int64_t{0};
  StatusOr<int64_t> value = shlo::AttrToInt(*field);
  if (!value.ok()) return Invalid(op, StrCat("field '", name, "': ", value.status().message()));
  return value;
}

StatusOr<const shlo::Attribute*> StructAttr(const shlo::Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr || attr->kind != shlo::Attribute::Kind::kStruct) {
    return Invalid(op, StrCat("needs structured attribute '", name, "'"));
  }
  return attr;
}

// Run-time access to operand `i` as a tensor.
StatusOr<const Tensor*> In(const Operands& operands, size_t i) {
  if (i >= operands.size() || operands[i].kind != RtValue::Kind::kTensor) {
    return InvalidArgument("operand ", i, " is not a tensor");
  }
  return &operands[i].tensor;
}

// The kernel's result, checked against the declared result type.
Results One(StatusOr<Tensor> result, const shlo::Type& type) {
  if (!result.ok()) return result.status();
  if (!TensorMatchesType(*result, type)) {
    return InvalidArgument("computed ", TensorTypeString(*result), " but the result type is ",
                           type.ToString());
  }
  return std::vector<RtValue>{RtValue::Of(std::move(result).value())};
}

// Operands [first, first + count) read as one index each (scalar tensors).
StatusOr<std::vector<int64_t>> ScalarOperands(const Operands& operands, size_t first,
                                              size_t count) {
  std::vector<int64_t> values;
  values.reserve(count);
  for (size_t i = first; i < first + count; ++i) {
    PLUGRT_ASSIGN_OR_RETURN(const Tensor* t, In(operands, i));
    PLUGRT_ASSIGN_OR_RETURN(int64_t v, ScalarIndexValue(*t));
    values.push_back(v);
  }
  return values;
}

// Operand `i` (a rank-1 integer tensor) as a list.
StatusOr<std::vector<int64_t>> ListOperand(const Operands& operands, size_t i) {
  PLUGRT_ASSIGN_OR_RETURN(const Tensor* t, In(operands, i));
  return IndexValues(*t);
}

StatusOr<GatherDimensionNumbers> GatherNumbers(const shlo::Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(const shlo::Attribute* attr, StructAttr(op, "dimension_numbers"));
  GatherDimensionNumbers d;
  PLUGRT_ASSIGN_OR_RETURN(d.offset_dims, FieldList(op, *attr, "offset_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.collapsed_slice_dims, FieldList(op, *attr, "collapsed_slice_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.operand_batching_dims, FieldList(op, *attr, "operand_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.start_indices_batching_dims,
                          FieldList(op, *attr, "start_indices_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.start_index_map, FieldList(op, *attr, "start_index_map"));
  PLUGRT_ASSIGN_OR_RETURN(d.index_vector_dim, FieldInt(op, *attr, "index_vector_dim"));
  return d;
}

StatusOr<ScatterDimensionNumbers> ScatterNumbers(const shlo::Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(const shlo::Attribute* attr,
                          StructAttr(op, "scatter_dimension_numbers"));
  ScatterDimensionNumbers d;
  PLUGRT_ASSIGN_OR_RETURN(d.update_window_dims, FieldList(op, *attr, "update_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.inserted_window_dims, FieldList(op, *attr, "inserted_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.input_batching_dims, FieldList(op, *attr, "input_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.scatter_indices_batching_dims,
                          FieldList(op, *attr, "scatter_indices_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.scatter_dims_to_operand_dims,
                          FieldList(op, *attr, "scatter_dims_to_operand_dims"));
  PLUGRT_ASSIGN_OR_RETURN(d.index_vector_dim, FieldInt(op, *attr, "index_vector_dim"));
  return d;
}

bool AllStatic(const shlo::Operation& op) {
  for (const shlo::Value* operand : op.operands) {
    if (!operand->type.is_tensor() || !operand->type.has_static_shape()) return false;
  }
  return true;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileGather(const shlo::Operation& op, bool dynamic) {
  PLUGRT_RETURN_IF_ERROR(CheckOperands(op, dynamic ? 3 : 2));
  PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
  PLUGRT_ASSIGN_OR_RETURN(GatherDimensionNumbers dnums, GatherNumbers(op));
  if (dynamic) {
    return MakeOp([dnums, type](const Operands& in, ExecContext&) -> Results {
      PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
      PLUGRT_ASSIGN_OR_RETURN(const Tensor* indices, In(in, 1));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ListOperand(in, 2));
      return One(Gather(*operand, *indices, dnums, sizes), type);
    });
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> slice_sizes, IntList(op, "slice_sizes"));
  if (AllStatic(op)) {
    StatusOr<std::vector<int64_t>> dims = GatherResultDims(
        op.operands[0]->type.dims(), op.operands[1]->type.dims(), dnums, slice_sizes);
    if (!dims.ok()) return Invalid(op, dims.status().message());
    if (*dims != type.dims()) {
      return Invalid(op, StrCat("result type ", type.ToString(),
                                " does not match the gathered shape"));
    }
  }
  return MakeOp([dnums, slice_sizes, type](const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
    PLUGRT_ASSIGN_OR_RETURN(const Tensor* indices, In(in, 1));
    return One(Gather(*operand, *indices, dnums, slice_sizes), type);
  });
}

// Whether the update computation just returns the updates (a plain overwrite).
bool IsReplaceRegion(const shlo::Block& block, size_t n) {
  if (block.operations.size() != 1 || block.arguments.size() != 2 * n) return false;
  const shlo::Operation& ret = *block.operations.front();
  if (ret.operands.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (ret.operands[i] != block.arguments[n + i].get()) return false;
  }
  return true;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileScatter(const shlo::Operation& op,
                                                     CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(CheckOperands(op, -1));
  if (op.operands.size() < 3 || op.operands.size() % 2 == 0) {
    return Invalid(op, StrCat("expects N inputs, the indices and N updates, has ",
                              op.operands.size(), " operands"));
  }
  const size_t n = (op.operands.size() - 1) / 2;
  if (op.results.size() != n) {
    return Invalid(op, StrCat("has ", op.results.size(), " results for ", n, " inputs"));
  }
  std::vector<shlo::Type> types;
  for (size_t i = 0; i < n; ++i) {
    PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op, i));
    types.push_back(type);
  }
  PLUGRT_ASSIGN_OR_RETURN(ScatterDimensionNumbers dnums, ScatterNumbers(op));
  if (op.regions.size() != 1 || op.region(0).blocks.size() != 1) {
    return Invalid(op, "needs one update computation region with one block");
  }
  const shlo::Block& body = op.region(0).front();
  if (body.arguments.size() != 2 * n) {
    return Invalid(op, StrCat("update computation takes ", body.arguments.size(),
                              " arguments, expected ", 2 * n));
  }
  for (size_t i = 0; i < 2 * n; ++i) {
    const shlo::Type& arg = body.arguments[i]->type;
    const shlo::Type& operand = op.operands[i < n ? i : i + 1]->type;
    if (!arg.is_tensor() || arg.rank() != 0) {
      return Invalid(op, "update computation arguments must be rank-0 tensors");
    }
    if (arg.element_type() != operand.element_type()) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("update computation argument ", i, " has element type ",
                            shlo::ElementTypeName(arg.element_type()), " but its operand has ",
                            shlo::ElementTypeName(operand.element_type()),
                            "; converting update types is not implemented"));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (op.operands[i]->type.element_type() != types[i].element_type() ||
        op.operands[n + 1 + i]->type.element_type() != types[i].element_type()) {
      return OpError(op, StatusCode::kUnimplemented,
                     "inputs, updates and results of different element types are not implemented");
    }
  }
  if (AllStatic(op)) {
    for (size_t i = 0; i < n; ++i) {
      if (op.operands[i]->type.dims() != types[i].dims()) {
        return Invalid(op, StrCat("result ", i, " must have the shape of input ", i));
      }
    }
    Status check = CheckScatter(op.operands[0]->type.dims(), op.operands[n]->type.dims(),
                                op.operands[n + 1]->type.dims(), dnums);
    if (!check.ok()) return Invalid(op, check.message());
  }

  auto gather_operands = [n](const Operands& in, std::vector<Tensor>& inputs, const Tensor*& indices,
                             std::vector<Tensor>& updates) -> Status {
    for (size_t i = 0; i < n; ++i) {
      PLUGRT_ASSIGN_OR_RETURN(const Tensor* input, In(in, i));
      PLUGRT_ASSIGN_OR_RETURN(const Tensor* update, In(in, n + 1 + i));
      inputs.push_back(*input);
      updates.push_back(*update);
    }
    PLUGRT_ASSIGN_OR_RETURN(indices, In(in, n));
    return OkStatus();
  };
  auto wrap = [types](std::vector<Tensor> results) -> Results {
    std::vector<RtValue> out;
    for (size_t i = 0; i < results.size(); ++i) {
      if (!TensorMatchesType(results[i], types[i])) {
        return InvalidArgument("computed ", TensorTypeString(results[i]),
                               " but the result type is ", types[i].ToString());
      }
      out.push_back(RtValue::Of(std::move(results[i])));
    }
    return out;
  };

  if (IsReplaceRegion(body, n)) {
    return MakeOp([dnums, gather_operands, wrap](const Operands& in, ExecContext&) -> Results {
      std::vector<Tensor> inputs, updates;
      const Tensor* indices = nullptr;
      PLUGRT_RETURN_IF_ERROR(gather_operands(in, inputs, indices, updates));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> results,
                              Scatter(inputs, *indices, updates, dnums, ScatterReplaceCombiner()));
      return wrap(std::move(results));
    });
  }

  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> region,
                          context.CompileRegion(op.region(0)));
  return MakeOp([dnums, gather_operands, wrap, region, n](const Operands& in,
                                                          ExecContext& ctx) -> Results {
    std::vector<Tensor> inputs, updates;
    const Tensor* indices = nullptr;
    PLUGRT_RETURN_IF_ERROR(gather_operands(in, inputs, indices, updates));
    // Argument scalars, reused for every element: the region reads them and
    // its results are copied out before they are overwritten.
    std::vector<Tensor> args;
    for (size_t i = 0; i < 2 * n; ++i) {
      args.emplace_back(i < n ? inputs[i].type() : updates[i - n].type(), std::vector<int64_t>{});
    }
    ScatterCombiner combine = [&](std::vector<Tensor>& results, int64_t result_offset,
                                  const std::vector<Tensor>& ups, int64_t update_offset) -> Status {
      for (size_t i = 0; i < n; ++i) {
        const int eb = shlo::StorageBytes(results[i].type());
        std::memcpy(args[i].MutableData(), results[i].data() + result_offset * eb, eb);
        std::memcpy(args[n + i].MutableData(), ups[i].data() + update_offset * eb, eb);
      }
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> values, region->RunTensors(args, ctx));
      if (values.size() != n) {
        return InvalidArgument("update computation returned ", values.size(), " values, expected ",
                               n);
      }
      for (size_t i = 0; i < n; ++i) {
        if (values[i].type() != results[i].type() || values[i].num_elements() != 1) {
          return InvalidArgument("update computation result ", i, " is not one ",
                                 shlo::ElementTypeName(results[i].type()), " element");
        }
        const int eb = shlo::StorageBytes(results[i].type());
        std::memcpy(results[i].MutableData() + result_offset * eb, values[i].data(), eb);
      }
      return OkStatus();
    };
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> results,
                            Scatter(inputs, *indices, updates, dnums, combine));
    return wrap(std::move(results));
  });
}

// get_dimension_size's result: one integer of the result type.
StatusOr<Tensor> DimensionSizeTensor(const shlo::Type& type, int64_t size) {
  Tensor t(type.element_type(), type.dims());
  if (t.num_elements() != 1) return InvalidArgument("result must hold one element");
  switch (type.element_type()) {
    case ElementType::kSI32: *t.mutable_as<int32_t>() = static_cast<int32_t>(size); break;
    case ElementType::kUI32: *t.mutable_as<uint32_t>() = static_cast<uint32_t>(size); break;
    case ElementType::kSI64: *t.mutable_as<int64_t>() = size; break;
    case ElementType::kUI64: *t.mutable_as<uint64_t>() = static_cast<uint64_t>(size); break;
    default:
      return InvalidArgument("result element type must be i32 or i64, not ",
                             shlo::ElementTypeName(type.element_type()));
  }
  return t;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileDataMovementOp(const shlo::Operation& op,
                                                            CompileContext& context) {
  switch (op.code) {
    case OpCode::kBroadcastInDim:
    case OpCode::kDynamicBroadcastInDim: {
      const bool dynamic = op.code == OpCode::kDynamicBroadcastInDim;
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, dynamic ? 2 : 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntList(op, "broadcast_dimensions"));
      return MakeOp([dims, type, dynamic](const Operands& in, ExecContext& context) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        if (dynamic) {
          PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ListOperand(in, 1));
          if (shape != type.dims()) {
            return InvalidArgument("output_dimensions operand disagrees with the result type ",
                                   type.ToString());
          }
        }
        return One(BroadcastInDim(*operand, type.dims(), dims,
                                  ThreadBudget(context.kernel_threads)),
                   type);
      });
    }
    case OpCode::kBroadcast: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IntList(op, "broadcast_sizes"));
      // The deprecated form prepends `broadcast_sizes` to the operand's dims.
      std::vector<int64_t> dims;
      for (int64_t k = 0; k < op.operands[0]->type.rank(); ++k) {
        dims.push_back(static_cast<int64_t>(sizes.size()) + k);
      }
      return MakeOp([dims, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        return One(BroadcastInDim(*operand, type.dims(), dims), type);
      });
    }
    case OpCode::kReshape:
    case OpCode::kDynamicReshape: {
      const bool dynamic = op.code == OpCode::kDynamicReshape;
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, dynamic ? 2 : 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      return MakeOp([type, dynamic](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        if (dynamic) {
          PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ListOperand(in, 1));
          if (shape != type.dims()) {
            return InvalidArgument("output_shape operand disagrees with the result type ",
                                   type.ToString());
          }
        }
        return One(Reshape(*operand, type.dims()), type);
      });
    }
    case OpCode::kTranspose: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> permutation, IntList(op, "permutation"));
      return MakeOp([permutation, type](const Operands& in, ExecContext& context) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        return One(Transpose(*operand, permutation, ThreadBudget(context.kernel_threads)), type);
      });
    }
    case OpCode::kSlice: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, IntList(op, "start_indices"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> limit, IntList(op, "limit_indices"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                              IntListOr(op, "strides", std::vector<int64_t>(start.size(), 1)));
      return MakeOp([start, limit, strides, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        return One(Slice(*operand, start, limit, strides), type);
      });
    }
    case OpCode::kRealDynamicSlice: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 4));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      return MakeOp([type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, ListOperand(in, 1));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> limit, ListOperand(in, 2));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ListOperand(in, 3));
        return One(Slice(*operand, start, limit, strides), type);
      });
    }
    case OpCode::kDynamicSlice: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, -1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IntList(op, "slice_sizes"));
      if (op.operands.empty() || op.operands.size() - 1 != sizes.size()) {
        return Invalid(op, StrCat("needs one start index per dimension (", sizes.size(), ")"));
      }
      return MakeOp([sizes, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, ScalarOperands(in, 1, in.size() - 1));
        return One(DynamicSlice(*operand, start, sizes), type);
      });
    }
    case OpCode::kDynamicUpdateSlice: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, -1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      if (op.operands.size() < 2 ||
          static_cast<int64_t>(op.operands.size() - 2) != op.operands[0]->type.rank()) {
        return Invalid(op, "needs the operand, the update and one start index per dimension");
      }
      return MakeOp([type](const Operands& in, ExecContext& context) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* update, In(in, 1));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, ScalarOperands(in, 2, in.size() - 2));
        // An operand whose value dies here (the step holds its only
        // reference: a loop's outputs buffer, a donated cache) is updated
        // where it lies instead of copied.
        if (operand->HasUniqueStorage() && operand->storage() != update->storage()) {
          Tensor result = *operand;
          PLUGRT_RETURN_IF_ERROR(DynamicUpdateSliceInPlace(result, *update, start));
          if (context.counters != nullptr) ++context.counters->in_place_outputs;
          return One(StatusOr<Tensor>(std::move(result)), type);
        }
        return One(DynamicUpdateSlice(*operand, *update, start), type);
      });
    }
    case OpCode::kConcatenate: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, -1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, Int(op, "dimension"));
      return MakeOp([dimension, type](const Operands& in, ExecContext&) -> Results {
        std::vector<Tensor> inputs;
        for (size_t i = 0; i < in.size(); ++i) {
          PLUGRT_ASSIGN_OR_RETURN(const Tensor* t, In(in, i));
          inputs.push_back(*t);
        }
        return One(Concatenate(inputs, dimension), type);
      });
    }
    case OpCode::kPad: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 2));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> low, IntList(op, "edge_padding_low"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> high, IntList(op, "edge_padding_high"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> interior,
                              IntListOr(op, "interior_padding", std::vector<int64_t>(low.size(), 0)));
      return MakeOp([low, high, interior, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* value, In(in, 1));
        return One(Pad(*operand, *value, low, high, interior), type);
      });
    }
    case OpCode::kDynamicPad: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 5));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      return MakeOp([type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* value, In(in, 1));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> low, ListOperand(in, 2));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> high, ListOperand(in, 3));
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> interior, ListOperand(in, 4));
        return One(Pad(*operand, *value, low, high, interior), type);
      });
    }
    case OpCode::kReverse: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntList(op, "dimensions"));
      return MakeOp([dims, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        return One(Reverse(*operand, dims), type);
      });
    }
    case OpCode::kGather:
      return CompileGather(op, /*dynamic=*/false);
    case OpCode::kDynamicGather:
      return CompileGather(op, /*dynamic=*/true);
    case OpCode::kScatter:
      return CompileScatter(op, context);
    case OpCode::kTorchIndexSelect: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 2));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(int64_t dim, Int(op, "dim"));
      PLUGRT_ASSIGN_OR_RETURN(int64_t batch_dims, IntOr(op, "batch_dims", 0));
      return MakeOp([dim, batch_dims, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* index, In(in, 1));
        return One(TorchIndexSelect(*operand, *index, dim, batch_dims), type);
      });
    }
    case OpCode::kDynamicIota: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, Int(op, "iota_dimension"));
      if (dimension < 0 || dimension >= type.rank()) {
        return Invalid(op, StrCat("iota_dimension ", dimension, " is outside the result rank"));
      }
      IotaKernel iota = GetIotaKernel(type.element_type());
      if (iota == nullptr) {
        return Invalid(op, StrCat("iota of element type ",
                                  shlo::ElementTypeName(type.element_type())));
      }
      return MakeOp([dimension, type, iota](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ListOperand(in, 0));
        if (shape != type.dims()) {
          return InvalidArgument("output_shape operand disagrees with the result type ",
                                 type.ToString());
        }
        Tensor result(type.element_type(), type.dims());
        iota(dimension, result);
        return One(std::move(result), type);
      });
    }
    case OpCode::kGetDimensionSize: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 1));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, Int(op, "dimension"));
      if (dimension < 0 || dimension >= op.operands[0]->type.rank()) {
        return Invalid(op, StrCat("dimension ", dimension, " is outside the operand's rank"));
      }
      return MakeOp([dimension, type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        if (dimension >= operand->rank()) return InvalidArgument("operand rank changed");
        return One(DimensionSizeTensor(type, operand->dims()[dimension]), type);
      });
    }
    case OpCode::kSetDimensionSize: {
      PLUGRT_RETURN_IF_ERROR(CheckOperands(op, 2));
      PLUGRT_ASSIGN_OR_RETURN(shlo::Type type, ResultType(op));
      if (type != op.operands[0]->type) {
        return OpError(op, StatusCode::kUnimplemented,
                       "set_dimension_size that changes the static shape (bounded dynamism)");
      }
      return MakeOp([type](const Operands& in, ExecContext&) -> Results {
        PLUGRT_ASSIGN_OR_RETURN(const Tensor* operand, In(in, 0));
        return One(*operand, type);
      });
    }
    default:
      return OpError(op, StatusCode::kInternal,
                     "registered with the data-movement group, which has no case for it");
  }
}

}  // namespace

void RegisterDataMovementOps(OpRegistry& registry) {
  registry.SetGroup(shlo::OpGroup::kDataMovement, &CompileDataMovementOp);
}

}  // namespace plugrt::cpu
