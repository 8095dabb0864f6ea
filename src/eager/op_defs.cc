// The op table. Ops are grouped by how their result types follow from their
// inputs; attribute names are StableHLO's own (dot_general's dimension
// numbers are flattened into four int lists).
//
// Result shapes are computed by the IR's shape functions
// (stablehlo/shape_rules.h), the ones the verifier and type inference use.
//
// Size: one definition per eager op (about 120), grouped by how their result
// types follow.
#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "client/element_decode.h"
#include "common/element_type.h"
#include "eager/op_def.h"
#include "eager/program_text.h"
#include "stablehlo/op_code.h"
#include "stablehlo/shape_rules.h"

namespace plugrt::eager {

namespace {

using Types = std::vector<TensorType>;
using Region = std::variant<FunctionRef, Reducer>;

std::string I64Array(const std::vector<int64_t>& values) {
  std::string text = "array<i64";
  for (size_t i = 0; i < values.size(); ++i) text += (i == 0 ? ": " : ", ") + std::to_string(values[i]);
  return text + ">";
}

std::string IntList(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  return text + "]";
}

Status CheckDims(const OpCall& call, std::string_view attr, const std::vector<int64_t>& dims,
                 size_t rank) {
  for (int64_t d : dims) {
    if (d < 0 || static_cast<size_t>(d) >= rank) {
      return InvalidArgument(call.op, ": attribute '", attr, "' names dimension ", d,
                             " of a rank-", rank, " input");
    }
  }
  return OkStatus();
}

const TensorType& Input(const OpCall& call, size_t arg, size_t index = 0) {
  return call.inputs[arg][index];
}

StatusOr<std::string> TypeList(const Types& types) {
  std::string text;
  for (size_t i = 0; i < types.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(types[i]));
    text += (i == 0 ? "" : ", ") + t;
  }
  return text;
}

// A region taking `args` and returning the results of calling `f` on them,
// whose types are `results`.
StatusOr<std::string> CallRegion(const FunctionRef& f, const Types& args, const Types& results) {
  std::string text = "{\n^bb0(";
  std::string operands;
  for (size_t i = 0; i < args.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(args[i]));
    text += (i == 0 ? "" : ", ") + ("%p" + std::to_string(i)) + ": " + t;
    operands += (i == 0 ? "" : ", ") + ("%p" + std::to_string(i));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string arg_types, TypeList(args));
  PLUGRT_ASSIGN_OR_RETURN(std::string result_types, TypeList(results));
  std::string returned;
  for (size_t i = 0; i < results.size(); ++i) {
    returned += (i == 0 ? "" : ", ") + ResultName(i, results.size());
  }
  text += "):\n  " + ResultBinding(results.size()) + " = func.call @" + f.name + "(" + operands +
          ") : (" + arg_types + ") -> (" + result_types + ")\n";
  text += "  \"stablehlo.return\"(" + returned + ") : (" + result_types + ") -> ()\n}";
  return text;
}

TensorType Scalar(PJRT_Buffer_Type type) { return TensorType{type, {}}; }

// reduce's body over N scalar element types: a loaded function, or a
// built-in combiner applied to each (accumulator, element) pair.
StatusOr<std::string> ReducerRegion(const Region& region, const std::vector<PJRT_Buffer_Type>& types) {
  Types scalars;
  for (int pass = 0; pass < 2; ++pass) {
    for (PJRT_Buffer_Type t : types) scalars.push_back(Scalar(t));
  }
  Types results(scalars.begin(), scalars.begin() + types.size());
  if (const FunctionRef* f = std::get_if<FunctionRef>(&region)) {
    return CallRegion(*f, scalars, results);
  }
  const Reducer reducer = std::get<Reducer>(region);
  std::string text = "{\n^bb0(";
  for (size_t i = 0; i < scalars.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(scalars[i]));
    text += (i == 0 ? "" : ", ") + ("%p" + std::to_string(i)) + ": " + t;
  }
  text += "):\n";
  std::string returned;
  for (size_t i = 0; i < types.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(results[i]));
    text += "  %c" + std::to_string(i) + " = \"" + std::string(ReducerOpName(reducer)) + "\"(%p" +
            std::to_string(i) + ", %p" + std::to_string(i + types.size()) + ") : (" + t + ", " +
            t + ") -> " + t + "\n";
    returned += (i == 0 ? "" : ", ") + ("%c" + std::to_string(i));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string result_types, TypeList(results));
  text += "  \"stablehlo.return\"(" + returned + ") : (" + result_types + ") -> ()\n}";
  return text;
}

// A dense attribute's text: hex for whole-byte element types, else nested
// lists of values.
StatusOr<std::string> DenseText(const OpCall& call, const DenseTensor& dense) {
  PLUGRT_ASSIGN_OR_RETURN(std::string type, StablehloTypeText(dense.type));
  const int64_t bytes = HostByteSize(dense.type.type, dense.type.dims);
  if (bytes < 0 || static_cast<size_t>(bytes) != dense.data.size()) {
    return InvalidArgument(call.op, ": dense tensor attribute of type ", ShortTypeText(dense.type),
                           " needs ", bytes, " bytes of data; got ", dense.data.size());
  }
  const int bits = ElementBitWidth(dense.type.type);
  if (bits % 8 == 0 && KindOf(dense.type.type) != ElementKind::kBool) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string hex = "\"0x";
    for (std::byte b : dense.data) {
      hex += kHex[static_cast<unsigned>(b) >> 4];
      hex += kHex[static_cast<unsigned>(b) & 15];
    }
    return "dense<" + hex + "\"> : " + type;
  }
  // pred and sub-byte integers: one element per byte, printed as values.
  std::ostringstream out;
  const std::vector<int64_t>& dims = dense.type.dims;
  size_t index = 0;
  std::function<void(size_t)> print = [&](size_t axis) {
    if (axis == dims.size()) {
      if (KindOf(dense.type.type) == ElementKind::kBool) {
        out << (ReadUnsigned(dense.type.type, dense.data.data(), index) ? "true" : "false");
      } else if (KindOf(dense.type.type) == ElementKind::kSigned) {
        out << ReadSigned(dense.type.type, dense.data.data(), index);
      } else {
        out << ReadUnsigned(dense.type.type, dense.data.data(), index);
      }
      ++index;
      return;
    }
    out << "[";
    for (int64_t i = 0; i < dims[axis]; ++i) {
      if (i > 0) out << ", ";
      print(axis + 1);
    }
    out << "]";
  };
  print(0);
  return "dense<" + out.str() + "> : " + type;
}

// --- result type rules -----------------------------------------------------

auto SameAs(size_t arg) {
  return [arg](const OpCall& call) -> StatusOr<Types> { return Types{Input(call, arg)}; };
}

StatusOr<Types> CompareResult(const OpCall& call) {
  return Types{TensorType{PJRT_Buffer_Type_PRED, Input(call, 0).dims}};
}

StatusOr<std::string> CompareAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(std::string direction, call.attr().String("comparison_direction"));
  std::string text = "comparison_direction = #stablehlo<comparison_direction " + direction + ">";
  if (call.attr().Has("compare_type")) {
    PLUGRT_ASSIGN_OR_RETURN(std::string type, call.attr().String("compare_type"));
    text += ", compare_type = #stablehlo<comparison_type " + type + ">";
  }
  return text;
}

StatusOr<Types> ConvertResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, call.attr().ElementType("element_type"));
  return Types{TensorType{type, Input(call, 0).dims}};
}

StatusOr<Types> DotGeneralResult(const OpCall& call) {
  const AttrReader a = call.attr();
  const TensorType& lhs = Input(call, 0);
  const TensorType& rhs = Input(call, 1);
  PLUGRT_ASSIGN_OR_RETURN(auto lb, a.IntsOrEmpty("lhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto rb, a.IntsOrEmpty("rhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto lc, a.IntsOrEmpty("lhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto rc, a.IntsOrEmpty("rhs_contracting_dimensions"));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "lhs_batching_dimensions", lb, lhs.dims.size()));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "rhs_batching_dimensions", rb, rhs.dims.size()));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "lhs_contracting_dimensions", lc, lhs.dims.size()));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "rhs_contracting_dimensions", rc, rhs.dims.size()));
  TensorType result{lhs.type, {}};
  if (a.Has("result_element_type")) {
    PLUGRT_ASSIGN_OR_RETURN(result.type, a.ElementType("result_element_type"));
  }
  result.dims = shlo::shape::DotGeneral(lhs.dims, rhs.dims, {lb, rb, lc, rc});
  return Types{result};
}

StatusOr<std::string> DotGeneralAttributes(const OpCall& call) {
  const AttrReader a = call.attr();
  std::string text = "dot_dimension_numbers = #stablehlo.dot<";
  bool first = true;
  for (std::string_view name : {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                "lhs_contracting_dimensions", "rhs_contracting_dimensions"}) {
    PLUGRT_ASSIGN_OR_RETURN(auto dims, a.IntsOrEmpty(name));
    if (dims.empty()) continue;
    text += (first ? "" : ", ") + std::string(name) + " = " + IntList(dims);
    first = false;
  }
  return text + ">";
}

StatusOr<Types> TransposeResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(auto perm, call.attr().Ints("permutation"));
  const TensorType& in = Input(call, 0);
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "permutation", perm, in.dims.size()));
  return Types{TensorType{in.type, shlo::shape::Transpose(in.dims, perm)}};
}

auto IntsAttribute(std::string_view name) {
  return [name](const OpCall& call) -> StatusOr<std::string> {
    PLUGRT_ASSIGN_OR_RETURN(auto values, call.attr().Ints(name));
    return std::string(name) + " = " + I64Array(values);
  };
}

auto IntAttribute(std::string_view name) {
  return [name](const OpCall& call) -> StatusOr<std::string> {
    PLUGRT_ASSIGN_OR_RETURN(int64_t value, call.attr().Int(name));
    return std::string(name) + " = " + std::to_string(value) + " : i64";
  };
}

StatusOr<Types> ShapedLikeInput(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(Shape shape, call.attr().ShapeAttr("shape"));
  return Types{TensorType{Input(call, 0).type, shape.dims}};
}

StatusOr<Types> IotaResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(Shape shape, call.attr().ShapeAttr("shape"));
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, call.attr().ElementType("element_type"));
  return Types{TensorType{type, shape.dims}};
}

StatusOr<Types> ConstantResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(DenseTensor value, call.attr().Dense("value"));
  return Types{value.type};
}

StatusOr<std::string> ConstantAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(DenseTensor value, call.attr().Dense("value"));
  PLUGRT_ASSIGN_OR_RETURN(std::string text, DenseText(call, value));
  return "value = " + text;
}

StatusOr<Types> ConcatenateResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, call.attr().Int("dimension"));
  const Types& inputs = call.inputs[0];
  if (inputs.empty()) return InvalidArgument(call.op, ": input list 'inputs' is empty");
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "dimension", {dim}, inputs[0].dims.size()));
  std::vector<std::vector<int64_t>> shapes;
  for (const TensorType& t : inputs) {
    if (t.dims.size() != inputs[0].dims.size()) {
      return InvalidArgument(call.op, ": the inputs' ranks differ (", ShortTypeText(inputs[0]),
                             " and ", ShortTypeText(t), ")");
    }
    shapes.push_back(t.dims);
  }
  return Types{TensorType{inputs[0].type, shlo::shape::Concatenate(shapes, dim)}};
}

StatusOr<Types> DynamicSliceResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(auto sizes, call.attr().Ints("slice_sizes"));
  const TensorType& in = Input(call, 0);
  if (sizes.size() != in.dims.size() || call.inputs[1].size() != in.dims.size()) {
    return InvalidArgument(call.op, ": slice_sizes and start_indices need one entry per "
                           "dimension of the rank-", in.dims.size(), " operand");
  }
  return Types{TensorType{in.type, sizes}};
}

StatusOr<Types> SliceResult(const OpCall& call) {
  const AttrReader a = call.attr();
  PLUGRT_ASSIGN_OR_RETURN(auto start, a.Ints("start_indices"));
  PLUGRT_ASSIGN_OR_RETURN(auto limit, a.Ints("limit_indices"));
  PLUGRT_ASSIGN_OR_RETURN(auto strides, a.IntsOrEmpty("strides"));
  const TensorType& in = Input(call, 0);
  if (strides.empty()) strides.assign(in.dims.size(), 1);
  if (start.size() != in.dims.size() || limit.size() != in.dims.size() ||
      strides.size() != in.dims.size()) {
    return InvalidArgument(call.op, ": start_indices, limit_indices and strides need one value "
                           "per dimension of the rank-", in.dims.size(), " input");
  }
  for (size_t d = 0; d < in.dims.size(); ++d) {
    if (strides[d] <= 0 || limit[d] < start[d]) {
      return InvalidArgument(call.op, ": dimension ", d, " slices [", start[d], ", ", limit[d],
                             ") with stride ", strides[d]);
    }
  }
  return Types{TensorType{in.type, shlo::shape::Slice(start, limit, strides)}};
}

StatusOr<std::string> SliceAttributes(const OpCall& call) {
  const AttrReader a = call.attr();
  PLUGRT_ASSIGN_OR_RETURN(auto start, a.Ints("start_indices"));
  PLUGRT_ASSIGN_OR_RETURN(auto limit, a.Ints("limit_indices"));
  PLUGRT_ASSIGN_OR_RETURN(auto strides, a.IntsOrEmpty("strides"));
  if (strides.empty()) strides.assign(start.size(), 1);
  return "start_indices = " + I64Array(start) + ", limit_indices = " + I64Array(limit) +
         ", strides = " + I64Array(strides);
}

StatusOr<Types> ReduceResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(auto dims, call.attr().Ints("dimensions"));
  Types out;
  for (size_t i = 0; i < call.inputs[0].size(); ++i) {
    const TensorType& in = call.inputs[0][i];
    PLUGRT_RETURN_IF_ERROR(CheckDims(call, "dimensions", dims, in.dims.size()));
    out.push_back(TensorType{call.inputs[1][i].type, shlo::shape::Reduce(in.dims, dims)});
  }
  return out;
}

StatusOr<std::vector<std::string>> ReduceRegions(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(Region body, call.attr().Region("body"));
  std::vector<PJRT_Buffer_Type> types;
  for (const TensorType& t : call.inputs[1]) types.push_back(t.type);
  PLUGRT_ASSIGN_OR_RETURN(std::string region, ReducerRegion(body, types));
  return std::vector<std::string>{region};
}

StatusOr<Types> SameAsList(const OpCall& call) { return call.inputs[0]; }

StatusOr<std::string> SortAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, call.attr().Int("dimension", -1));
  PLUGRT_ASSIGN_OR_RETURN(bool stable, call.attr().Bool("is_stable", false));
  return "dimension = " + std::to_string(dim) + " : i64, is_stable = " + (stable ? "true" : "false");
}

// A region of `params` (scalars) that compares its first two with
// `direction` (sort's built-in comparator, select_and_scatter's select).
StatusOr<std::string> CompareRegion(const Types& params, std::string_view direction) {
  std::string text = "{\n^bb0(";
  for (size_t i = 0; i < params.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(params[i]));
    text += (i == 0 ? "" : ", ") + ("%p" + std::to_string(i)) + ": " + t;
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string t, StablehloTypeText(params[0]));
  return text + "):\n  %c = \"stablehlo.compare\"(%p0, %p1) {comparison_direction = "
                "#stablehlo<comparison_direction " + std::string(direction) + ">} : (" + t +
                ", " + t + ") -> tensor<i1>\n  \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n}";
}

// sort's comparator: a loaded function of 2N scalars (lhs0, rhs0, lhs1,
// rhs1, ...) returning i1, or, without one, `comparison_direction` (default
// LT) applied to the first input's pair.
StatusOr<std::vector<std::string>> SortRegions(const OpCall& call) {
  Types scalars;
  for (const TensorType& t : call.inputs[0]) {
    scalars.push_back(Scalar(t.type));
    scalars.push_back(Scalar(t.type));
  }
  if (call.attr().Has("comparator")) {
    PLUGRT_ASSIGN_OR_RETURN(FunctionRef f, call.attr().Function("comparator"));
    PLUGRT_ASSIGN_OR_RETURN(std::string region,
                            CallRegion(f, scalars, {Scalar(PJRT_Buffer_Type_PRED)}));
    return std::vector<std::string>{region};
  }
  std::string direction = "LT";
  if (call.attr().Has("comparison_direction")) {
    PLUGRT_ASSIGN_OR_RETURN(direction, call.attr().String("comparison_direction"));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string region, CompareRegion(scalars, direction));
  return std::vector<std::string>{region};
}

StatusOr<std::vector<std::string>> WhileRegions(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(FunctionRef cond, call.attr().Function("cond"));
  PLUGRT_ASSIGN_OR_RETURN(FunctionRef body, call.attr().Function("body"));
  const Types& carried = call.inputs[0];
  PLUGRT_ASSIGN_OR_RETURN(std::string cond_region,
                          CallRegion(cond, carried, {Scalar(PJRT_Buffer_Type_PRED)}));
  PLUGRT_ASSIGN_OR_RETURN(std::string body_region, CallRegion(body, carried, carried));
  return std::vector<std::string>{cond_region, body_region};
}

StatusOr<Types> PadResult(const OpCall& call) {
  const AttrReader a = call.attr();
  PLUGRT_ASSIGN_OR_RETURN(auto low, a.Ints("edge_padding_low"));
  PLUGRT_ASSIGN_OR_RETURN(auto high, a.Ints("edge_padding_high"));
  PLUGRT_ASSIGN_OR_RETURN(auto interior, a.IntsOrEmpty("interior_padding"));
  const TensorType& in = Input(call, 0);
  if (interior.empty()) interior.assign(in.dims.size(), 0);
  if (low.size() != in.dims.size() || high.size() != in.dims.size() ||
      interior.size() != in.dims.size()) {
    return InvalidArgument(call.op, ": edge_padding_low, edge_padding_high and interior_padding "
                           "need one value per dimension of the rank-", in.dims.size(), " input");
  }
  return Types{TensorType{in.type, shlo::shape::Pad(in.dims, low, high, interior)}};
}

StatusOr<std::string> PadAttributes(const OpCall& call) {
  const AttrReader a = call.attr();
  PLUGRT_ASSIGN_OR_RETURN(auto low, a.Ints("edge_padding_low"));
  PLUGRT_ASSIGN_OR_RETURN(auto high, a.Ints("edge_padding_high"));
  PLUGRT_ASSIGN_OR_RETURN(auto interior, a.IntsOrEmpty("interior_padding"));
  if (interior.empty()) interior.assign(low.size(), 0);
  return "edge_padding_low = " + I64Array(low) + ", edge_padding_high = " + I64Array(high) +
         ", interior_padding = " + I64Array(interior);
}

// gather's result: the indices' batch dims (all but index_vector_dim) with
// the slice's kept dims (slice_sizes without collapsed and operand batching
// dims) at the positions offset_dims names.
StatusOr<Types> GatherResult(const OpCall& call) {
  const AttrReader a = call.attr();
  PLUGRT_ASSIGN_OR_RETURN(auto offset, a.IntsOrEmpty("offset_dims"));
  PLUGRT_ASSIGN_OR_RETURN(auto collapsed, a.IntsOrEmpty("collapsed_slice_dims"));
  PLUGRT_ASSIGN_OR_RETURN(auto operand_batching, a.IntsOrEmpty("operand_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(auto sizes, a.Ints("slice_sizes"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim, a.Int("index_vector_dim"));
  const TensorType& operand = Input(call, 0);
  const TensorType& indices = Input(call, 1);
  if (sizes.size() != operand.dims.size()) {
    return InvalidArgument(call.op, ": slice_sizes needs one size per dimension of the rank-",
                           operand.dims.size(), " operand");
  }
  if (index_vector_dim < 0 || index_vector_dim > static_cast<int64_t>(indices.dims.size())) {
    return InvalidArgument(call.op, ": index_vector_dim ", index_vector_dim,
                           " is out of range for rank-", indices.dims.size(), " indices");
  }
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "collapsed_slice_dims", collapsed, sizes.size()));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "operand_batching_dims", operand_batching, sizes.size()));
  size_t kept = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t di = static_cast<int64_t>(d);
    if (std::find(collapsed.begin(), collapsed.end(), di) == collapsed.end() &&
        std::find(operand_batching.begin(), operand_batching.end(), di) == operand_batching.end()) {
      ++kept;
    }
  }
  if (kept != offset.size()) {
    return InvalidArgument(call.op, ": offset_dims names ", offset.size(), " dimensions; the "
                           "slice keeps ", kept);
  }
  const size_t batch = indices.dims.size() - (index_vector_dim < static_cast<int64_t>(indices.dims.size()) ? 1 : 0);
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "offset_dims", offset, batch + kept));
  return Types{TensorType{operand.type,
                          shlo::shape::Gather(indices.dims, sizes,
                                              {offset, collapsed, operand_batching, index_vector_dim})}};
}

StatusOr<std::string> GatherAttributes(const OpCall& call) {
  const AttrReader a = call.attr();
  std::string text = "dimension_numbers = #stablehlo.gather<";
  bool first = true;
  for (std::string_view name : {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                "start_indices_batching_dims", "start_index_map"}) {
    PLUGRT_ASSIGN_OR_RETURN(auto dims, a.IntsOrEmpty(name));
    if (dims.empty()) continue;
    text += (first ? "" : ", ") + std::string(name) + " = " + IntList(dims);
    first = false;
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim, a.Int("index_vector_dim"));
  text += (first ? "" : ", ") + std::string("index_vector_dim = ") +
          std::to_string(index_vector_dim) + ">";
  PLUGRT_ASSIGN_OR_RETURN(auto sizes, a.Ints("slice_sizes"));
  PLUGRT_ASSIGN_OR_RETURN(bool sorted, a.Bool("indices_are_sorted", false));
  return text + ", slice_sizes = " + I64Array(sizes) +
         ", indices_are_sorted = " + (sorted ? "true" : "false");
}

// convolution's attributes: the dimension numbers as ints and int lists of
// StableHLO's field names (all required), window_strides, padding (flat:
// low, high per spatial dimension), lhs_dilation, rhs_dilation (default 1s
// and 0s) and the group counts (default 1).
struct ConvAttrs {
  int64_t ib, if_, ko, ki, ob, of;
  std::vector<int64_t> is, ks, os, strides, padding, lhs_dil, rhs_dil;
  int64_t feature_groups, batch_groups;
};

StatusOr<ConvAttrs> ReadConvAttrs(const OpCall& call) {
  const AttrReader a = call.attr();
  ConvAttrs c;
  PLUGRT_ASSIGN_OR_RETURN(c.ib, a.Int("input_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.if_, a.Int("input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.is, a.Ints("input_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(c.ki, a.Int("kernel_input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.ko, a.Int("kernel_output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.ks, a.Ints("kernel_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(c.ob, a.Int("output_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.of, a.Int("output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.os, a.Ints("output_spatial_dimensions"));
  const size_t n = c.is.size();
  PLUGRT_ASSIGN_OR_RETURN(c.strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(c.padding, a.IntsOrEmpty("padding"));
  PLUGRT_ASSIGN_OR_RETURN(c.lhs_dil, a.IntsOrEmpty("lhs_dilation"));
  PLUGRT_ASSIGN_OR_RETURN(c.rhs_dil, a.IntsOrEmpty("rhs_dilation"));
  PLUGRT_ASSIGN_OR_RETURN(c.feature_groups, a.Int("feature_group_count", 1));
  PLUGRT_ASSIGN_OR_RETURN(c.batch_groups, a.Int("batch_group_count", 1));
  if (c.strides.empty()) c.strides.assign(n, 1);
  if (c.padding.empty()) c.padding.assign(2 * n, 0);
  if (c.lhs_dil.empty()) c.lhs_dil.assign(n, 1);
  if (c.rhs_dil.empty()) c.rhs_dil.assign(n, 1);
  const size_t rank = n + 2;
  const TensorType& lhs = Input(call, 0);
  const TensorType& rhs = Input(call, 1);
  if (lhs.dims.size() != rank || rhs.dims.size() != rank || c.ks.size() != n ||
      c.os.size() != n || c.strides.size() != n || c.padding.size() != 2 * n ||
      c.lhs_dil.size() != n || c.rhs_dil.size() != n) {
    return InvalidArgument(call.op, ": ", n, " spatial dimensions need rank-", rank,
                           " operands and one stride, dilation and low/high padding pair each");
  }
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "input dimensions", {c.ib, c.if_}, rank));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "input_spatial_dimensions", c.is, rank));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "kernel dimensions", {c.ki, c.ko}, rank));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "kernel_spatial_dimensions", c.ks, rank));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "output dimensions", {c.ob, c.of}, rank));
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "output_spatial_dimensions", c.os, rank));
  if (c.feature_groups < 1 || c.batch_groups < 1) {
    return InvalidArgument(call.op, ": group counts must be at least 1");
  }
  return c;
}

StatusOr<Types> ConvolutionResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(ConvAttrs c, ReadConvAttrs(call));
  const TensorType& lhs = Input(call, 0);
  const TensorType& rhs = Input(call, 1);
  TensorType out{lhs.type, std::vector<int64_t>(lhs.dims.size(), 0)};
  if (call.attr().Has("result_element_type")) {
    PLUGRT_ASSIGN_OR_RETURN(out.type, call.attr().ElementType("result_element_type"));
  }
  for (int64_t stride : c.strides) {
    if (stride < 1) return InvalidArgument(call.op, ": window strides must be positive");
  }
  out.dims = shlo::shape::Convolution(lhs.dims, rhs.dims,
                                      {c.ib, c.if_, c.is, c.ki, c.ko, c.ks, c.ob, c.of, c.os},
                                      c.strides, c.padding, c.lhs_dil, c.rhs_dil, c.batch_groups);
  return Types{out};
}

// Flat (low, high) pairs per dimension as StableHLO's padding attribute.
std::string PaddingText(const std::vector<int64_t>& padding, size_t rank) {
  if (rank == 0) return "dense<> : tensor<0x2xi64>";
  std::string text = "dense<[";
  for (size_t d = 0; d < rank; ++d) {
    text += (d == 0 ? "[" : ", [") + std::to_string(padding[2 * d]) + ", " +
            std::to_string(padding[2 * d + 1]) + "]";
  }
  return text + "]> : tensor<" + std::to_string(rank) + "x2xi64>";
}

StatusOr<std::string> ConvolutionAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(ConvAttrs c, ReadConvAttrs(call));
  const size_t rank = c.is.size() + 2;
  // The layouts as StableHLO prints them: [b, 0, 1, f]x[0, 1, i, o]->[...].
  auto layout = [rank](int64_t first, char first_name, int64_t second, char second_name,
                       const std::vector<int64_t>& spatial) {
    std::vector<std::string> at(rank);
    at[first] = std::string(1, first_name);
    at[second] = std::string(1, second_name);
    for (size_t j = 0; j < spatial.size(); ++j) at[spatial[j]] = std::to_string(j);
    std::string text = "[";
    for (size_t d = 0; d < rank; ++d) text += (d == 0 ? "" : ", ") + at[d];
    return text + "]";
  };
  const std::string padding = PaddingText(c.padding, c.is.size());
  return "dimension_numbers = #stablehlo.conv<" + layout(c.ib, 'b', c.if_, 'f', c.is) + "x" +
         layout(c.ki, 'i', c.ko, 'o', c.ks) + "->" + layout(c.ob, 'b', c.of, 'f', c.os) +
         ">, window_strides = " + I64Array(c.strides) + ", padding = " + padding +
         ", lhs_dilation = " + I64Array(c.lhs_dil) + ", rhs_dilation = " + I64Array(c.rhs_dil) +
         ", feature_group_count = " + std::to_string(c.feature_groups) +
         " : i64, batch_group_count = " + std::to_string(c.batch_groups) + " : i64";
}

// reduce_window: window_dimensions (required), window_strides,
// base_dilations, window_dilations (default 1s) and padding (flat: low,
// high per dimension; default 0s), the same for every input.
struct WindowAttrs {
  std::vector<int64_t> dims, strides, base_dil, win_dil, padding;
};

StatusOr<WindowAttrs> ReadWindowAttrs(const OpCall& call, size_t rank) {
  const AttrReader a = call.attr();
  WindowAttrs w;
  PLUGRT_ASSIGN_OR_RETURN(w.dims, a.Ints("window_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(w.strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(w.base_dil, a.IntsOrEmpty("base_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(w.win_dil, a.IntsOrEmpty("window_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(w.padding, a.IntsOrEmpty("padding"));
  if (w.strides.empty()) w.strides.assign(rank, 1);
  if (w.base_dil.empty()) w.base_dil.assign(rank, 1);
  if (w.win_dil.empty()) w.win_dil.assign(rank, 1);
  if (w.padding.empty()) w.padding.assign(2 * rank, 0);
  if (w.dims.size() != rank || w.strides.size() != rank || w.base_dil.size() != rank ||
      w.win_dil.size() != rank || w.padding.size() != 2 * rank) {
    return InvalidArgument(call.op, ": window attributes need one entry per dimension of the "
                           "rank-", rank, " inputs (padding: a low, high pair each)");
  }
  for (size_t d = 0; d < rank; ++d) {
    if (w.dims[d] < 1 || w.strides[d] < 1 || w.base_dil[d] < 1 || w.win_dil[d] < 1) {
      return InvalidArgument(call.op, ": window sizes, strides and dilations must be positive");
    }
  }
  return w;
}

StatusOr<Types> ReduceWindowResult(const OpCall& call) {
  if (call.inputs[0].empty()) return InvalidArgument(call.op, ": input list 'inputs' is empty");
  const TensorType& first = call.inputs[0][0];
  PLUGRT_ASSIGN_OR_RETURN(WindowAttrs w, ReadWindowAttrs(call, first.dims.size()));
  const std::vector<int64_t> dims =
      shlo::shape::ReduceWindow(first.dims, {w.dims, w.strides, w.base_dil, w.win_dil, w.padding});
  Types out;
  for (size_t i = 0; i < call.inputs[0].size(); ++i) {
    out.push_back(TensorType{call.inputs[1][i].type, dims});
  }
  return out;
}

StatusOr<std::string> ReduceWindowAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(WindowAttrs w, ReadWindowAttrs(call, call.inputs[0][0].dims.size()));
  const size_t rank = w.dims.size();
  const std::string padding = PaddingText(w.padding, rank);
  return "window_dimensions = " + I64Array(w.dims) + ", window_strides = " + I64Array(w.strides) +
         ", base_dilations = " + I64Array(w.base_dil) + ", window_dilations = " +
         I64Array(w.win_dil) + ", padding = " + padding;
}

// select_and_scatter: window_dimensions (required), window_strides and
// padding as reduce_window takes them (no dilations: the op has none).
StatusOr<std::string> SelectAndScatterAttributes(const OpCall& call) {
  const size_t rank = Input(call, 0).dims.size();
  PLUGRT_ASSIGN_OR_RETURN(WindowAttrs w, ReadWindowAttrs(call, rank));
  for (size_t d = 0; d < rank; ++d) {
    if (w.base_dil[d] != 1 || w.win_dil[d] != 1) {
      return InvalidArgument(call.op, ": select_and_scatter has no dilations");
    }
  }
  const std::string padding = PaddingText(w.padding, rank);
  return "window_dimensions = " + I64Array(w.dims) + ", window_strides = " +
         I64Array(w.strides) + ", padding = " + padding;
}

// select_and_scatter's regions: `select`, a loaded function of two operand
// scalars returning i1, or, without one, `select_direction` (default GE:
// the first of the largest) comparing them; `scatter`, a reducer or a loaded
// function of two init-typed scalars.
StatusOr<std::vector<std::string>> SelectAndScatterRegions(const OpCall& call) {
  const TensorType scalar = Scalar(Input(call, 0).type);
  std::string select;
  if (call.attr().Has("select")) {
    PLUGRT_ASSIGN_OR_RETURN(FunctionRef f, call.attr().Function("select"));
    PLUGRT_ASSIGN_OR_RETURN(select,
                            CallRegion(f, {scalar, scalar}, {Scalar(PJRT_Buffer_Type_PRED)}));
  } else {
    std::string direction(kDefaultSelectDirection);
    if (call.attr().Has(kSelectDirectionAttr)) {
      PLUGRT_ASSIGN_OR_RETURN(direction, call.attr().String(kSelectDirectionAttr));
    }
    PLUGRT_ASSIGN_OR_RETURN(select, CompareRegion({scalar, scalar}, direction));
  }
  PLUGRT_ASSIGN_OR_RETURN(Region body, call.attr().Region("scatter"));
  PLUGRT_ASSIGN_OR_RETURN(std::string scatter, ReducerRegion(body, {call.inputs[2][0].type}));
  return std::vector<std::string>{select, scatter};
}

// scatter's dimension numbers as int attributes of StableHLO's names.
StatusOr<std::string> ScatterAttributes(const OpCall& call) {
  const AttrReader a = call.attr();
  std::string text = "scatter_dimension_numbers = #stablehlo.scatter<";
  bool first = true;
  for (std::string_view name : {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                                "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}) {
    PLUGRT_ASSIGN_OR_RETURN(auto dims, a.IntsOrEmpty(name));
    if (dims.empty()) continue;
    text += (first ? "" : ", ") + std::string(name) + " = " + IntList(dims);
    first = false;
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim, a.Int("index_vector_dim"));
  text += (first ? "" : ", ") + std::string("index_vector_dim = ") +
          std::to_string(index_vector_dim) + ">";
  PLUGRT_ASSIGN_OR_RETURN(bool sorted, a.Bool("indices_are_sorted", false));
  PLUGRT_ASSIGN_OR_RETURN(bool unique, a.Bool("unique_indices", false));
  return text + ", indices_are_sorted = " + (sorted ? "true" : "false") +
         ", unique_indices = " + (unique ? "true" : "false");
}

StatusOr<std::vector<std::string>> ScatterRegions(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(Region body, call.attr().Region("update_computation"));
  std::vector<PJRT_Buffer_Type> types;
  for (const TensorType& t : call.inputs[0]) types.push_back(t.type);
  PLUGRT_ASSIGN_OR_RETURN(std::string region, ReducerRegion(body, types));
  return std::vector<std::string>{region};
}

// --- collectives (meaningful on a parallel device: parallel_device.h) -------

// replica_groups: a rank-2 integer dense tensor, one row per group, as
// StableHLO writes it; the group size is its second dimension.
StatusOr<DenseTensor> ReplicaGroups(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(DenseTensor groups, call.attr().Dense("replica_groups"));
  if (groups.type.dims.size() != 2 || KindOf(groups.type.type) != ElementKind::kSigned) {
    return InvalidArgument(call.op, ": attribute 'replica_groups' must be a rank-2 signed integer "
                           "dense tensor (one row per group); got ", ShortTypeText(groups.type));
  }
  return groups;
}

StatusOr<std::string> ReplicaGroupsText(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(DenseTensor groups, ReplicaGroups(call));
  PLUGRT_ASSIGN_OR_RETURN(std::string text, DenseText(call, groups));
  return "replica_groups = " + text;
}

StatusOr<std::vector<std::string>> AllReduceRegions(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(Region body, call.attr().Region("computation"));
  PLUGRT_ASSIGN_OR_RETURN(std::string region, ReducerRegion(body, {Input(call, 0).type}));
  return std::vector<std::string>{region};
}

StatusOr<Types> AllGatherResult(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(DenseTensor groups, ReplicaGroups(call));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, call.attr().Int("all_gather_dim"));
  TensorType result = Input(call, 0);
  PLUGRT_RETURN_IF_ERROR(CheckDims(call, "all_gather_dim", {dim}, result.dims.size()));
  result.dims[dim] *= groups.type.dims[1];
  return Types{result};
}

StatusOr<std::string> AllGatherAttributes(const OpCall& call) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, call.attr().Int("all_gather_dim"));
  PLUGRT_ASSIGN_OR_RETURN(std::string groups, ReplicaGroupsText(call));
  return "all_gather_dim = " + std::to_string(dim) + " : i64, " + groups;
}

OpDef Elementwise(std::string_view name, size_t arity) {
  OpDef def{name, {}, "result", false, SameAs(0), nullptr, nullptr};
  if (arity == 1) def.inputs = {{"operand"}};
  if (arity == 2) def.inputs = {{"lhs"}, {"rhs"}};
  return def;
}

std::map<std::string_view, OpDef> BuildTable() {
  std::map<std::string_view, OpDef> table;
  auto add = [&table](OpDef def) { table.emplace(def.name, std::move(def)); };
  // The elementwise ops of one or two operands that the op table says take no
  // attributes and return their operands' type (stablehlo/op_code.h).
  for (size_t i = 1; i < shlo::kNumOpCodes; ++i) {
    const auto code = static_cast<shlo::OpCode>(i);
    const shlo::OpTraits& traits = shlo::TraitsOf(code);
    if (shlo::IsElementwise(code) && shlo::TakesNoAttributes(code) &&
        traits.shape == shlo::OpShape::kLikeOperands &&
        (traits.operands == 1 || traits.operands == 2)) {
      add(Elementwise(traits.name, static_cast<size_t>(traits.operands)));
    }
  }
  add(OpDef{"stablehlo.select", {{"pred"}, {"on_true"}, {"on_false"}}, "result", false, SameAs(1),
            nullptr, nullptr});
  add(OpDef{"stablehlo.clamp", {{"min"}, {"operand"}, {"max"}}, "result", false, SameAs(1),
            nullptr, nullptr});
  add(OpDef{"stablehlo.compare", {{"lhs"}, {"rhs"}}, "result", false, CompareResult,
            CompareAttributes, nullptr});
  add(OpDef{"stablehlo.convert", {{"operand"}}, "result", false, ConvertResult, nullptr, nullptr});
  add(OpDef{"stablehlo.dot_general", {{"lhs"}, {"rhs"}}, "result", false, DotGeneralResult,
            DotGeneralAttributes, nullptr});
  add(OpDef{"stablehlo.transpose", {{"operand"}}, "result", false, TransposeResult,
            IntsAttribute("permutation"), nullptr});
  add(OpDef{"stablehlo.reshape", {{"operand"}}, "result", false, ShapedLikeInput, nullptr,
            nullptr});
  add(OpDef{"stablehlo.broadcast_in_dim", {{"operand"}}, "result", false, ShapedLikeInput,
            IntsAttribute("broadcast_dimensions"), nullptr});
  add(OpDef{"stablehlo.reverse", {{"operand"}}, "result", false, SameAs(0),
            IntsAttribute("dimensions"), nullptr});
  add(OpDef{"stablehlo.slice", {{"operand"}}, "result", false, SliceResult, SliceAttributes,
            nullptr});
  // Start indices: one integer scalar per operand dimension (a list).
  add(OpDef{"stablehlo.dynamic_slice", {{"operand"}, {"start_indices", true}}, "result", false,
            DynamicSliceResult, IntsAttribute("slice_sizes"), nullptr});
  add(OpDef{"stablehlo.dynamic_update_slice", {{"operand"}, {"update"}, {"start_indices", true}},
            "result", false, SameAs(0), nullptr, nullptr});
  add(OpDef{"stablehlo.pad", {{"operand"}, {"padding_value"}}, "result", false, PadResult,
            PadAttributes, nullptr});
  add(OpDef{"stablehlo.iota", {}, "result", false, IotaResult, IntAttribute("iota_dimension"),
            nullptr});
  add(OpDef{"stablehlo.constant", {}, "result", false, ConstantResult, ConstantAttributes,
            nullptr});
  add(OpDef{"stablehlo.concatenate", {{"inputs", true}}, "result", false, ConcatenateResult,
            IntAttribute("dimension"), nullptr});
  add(OpDef{"stablehlo.reduce", {{"inputs", true}, {"init_values", true}}, "results", true,
            ReduceResult, IntsAttribute("dimensions"), ReduceRegions});
  add(OpDef{"stablehlo.convolution", {{"lhs"}, {"rhs"}}, "result", false, ConvolutionResult,
            ConvolutionAttributes, nullptr});
  add(OpDef{"stablehlo.gather", {{"operand"}, {"start_indices"}}, "result", false, GatherResult,
            GatherAttributes, nullptr});
  add(OpDef{"stablehlo.reduce_window", {{"inputs", true}, {"init_values", true}}, "results", true,
            ReduceWindowResult, ReduceWindowAttributes, ReduceRegions});
  add(OpDef{"stablehlo.select_and_scatter", {{"operand"}, {"source"}, {"init_value"}}, "result",
            false, SameAs(0), SelectAndScatterAttributes, SelectAndScatterRegions});
  add(OpDef{"stablehlo.scatter", {{"inputs", true}, {"scatter_indices"}, {"updates", true}},
            "results", true, SameAsList, ScatterAttributes, ScatterRegions});
  add(OpDef{"stablehlo.sort", {{"inputs", true}}, "results", true, SameAsList, SortAttributes,
            SortRegions});
  add(OpDef{"stablehlo.while", {{"operands", true}}, "results", true, SameAsList, nullptr,
            WhileRegions});
  add(OpDef{"stablehlo.all_reduce", {{"operand"}}, "result", false, SameAs(0), ReplicaGroupsText,
            AllReduceRegions});
  add(OpDef{"stablehlo.all_gather", {{"operand"}}, "result", false, AllGatherResult,
            AllGatherAttributes, nullptr});
  add(OpDef{"stablehlo.replica_id", {}, "result", false,
            [](const OpCall&) -> StatusOr<Types> { return Types{Scalar(PJRT_Buffer_Type_U32)}; },
            nullptr, nullptr});
  // The index of the device within a parallel device, which answers it
  // itself; any other device is the only one of its kind: 0.
  add(OpDef{std::string_view(kDeviceIdOp), {}, "result", false,
            [](const OpCall&) -> StatusOr<Types> { return Types{Scalar(PJRT_Buffer_Type_S64)}; },
            [](const OpCall&) -> StatusOr<std::string> {
              return std::string("value = dense<0> : tensor<i64>");
            },
            nullptr});
  return table;
}

const std::map<std::string_view, OpDef>& Table() {
  static const std::map<std::string_view, OpDef>* table =
      new std::map<std::string_view, OpDef>(BuildTable());
  return *table;
}

}  // namespace

std::string_view SpelledName(const OpDef& def) {
  return def.name == kDeviceIdOp ? std::string_view("stablehlo.constant") : def.name;
}

const OpDef* FindOpDef(std::string_view name) {
  // Every Op's construction looks its name up: a hashed index over the
  // (ordered, for OpDefNames) table.
  static const std::unordered_map<std::string_view, const OpDef*>* index = [] {
    auto* map = new std::unordered_map<std::string_view, const OpDef*>();
    for (const auto& [key, def] : Table()) map->emplace(key, &def);
    return map;
  }();
  auto it = index->find(name);
  return it == index->end() ? nullptr : it->second;
}

std::vector<std::string_view> OpDefNames() {
  std::vector<std::string_view> names;
  for (const auto& [name, def] : Table()) names.push_back(name);
  return names;
}

}  // namespace plugrt::eager
