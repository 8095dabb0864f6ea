// HLO importer: computing instructions: dot, convolution, the ops with a
// body (reduce, reduce-window, select-and-scatter, scatter, sort, map),
// random numbers and linear algebra.
#include <cstring>
#include <utility>

#include "compiler/importers/hlo/hlo_attributes.h"
#include "compiler/importers/hlo/hlo_converter.h"
#include "compiler/importers/hlo/hlo_types.h"

namespace plugrt::shlo::hlo {
namespace {

using Attrs = std::vector<NamedAttribute>;

Attribute DotDimensions(const xla::DotDimensionNumbers& d) {
  Attrs fields;
  AddNonEmpty(&fields, "lhs_batching_dimensions", ToVector(d.lhs_batch_dimensions()));
  AddNonEmpty(&fields, "rhs_batching_dimensions", ToVector(d.rhs_batch_dimensions()));
  AddNonEmpty(&fields, "lhs_contracting_dimensions", ToVector(d.lhs_contracting_dimensions()));
  AddNonEmpty(&fields, "rhs_contracting_dimensions", ToVector(d.rhs_contracting_dimensions()));
  return Attribute::Struct("stablehlo.dot", std::move(fields));
}

Attribute ConvDimensions(const xla::ConvolutionDimensionNumbers& d) {
  return Attribute::Struct(
      "stablehlo.conv",
      {{"input_batch_dimension", Attribute::Integer(d.input_batch_dimension())},
       {"input_feature_dimension", Attribute::Integer(d.input_feature_dimension())},
       {"input_spatial_dimensions", I64Array(d.input_spatial_dimensions())},
       {"kernel_input_feature_dimension", Attribute::Integer(d.kernel_input_feature_dimension())},
       {"kernel_output_feature_dimension", Attribute::Integer(d.kernel_output_feature_dimension())},
       {"kernel_spatial_dimensions", I64Array(d.kernel_spatial_dimensions())},
       {"output_batch_dimension", Attribute::Integer(d.output_batch_dimension())},
       {"output_feature_dimension", Attribute::Integer(d.output_feature_dimension())},
       {"output_spatial_dimensions", I64Array(d.output_spatial_dimensions())}});
}

StatusOr<Attrs> ConvolutionAttributes(const xla::HloInstructionProto& inst) {
  const auto& dims = inst.convolution_dimension_numbers();
  if (inst.window().dimensions_size() != dims.input_spatial_dimensions_size()) {
    return InvalidArgument("the window has ", inst.window().dimensions_size(),
                           " dimensions for ", dims.input_spatial_dimensions_size(),
                           " spatial dimensions");
  }
  std::vector<int64_t> strides, padding, lhs, rhs, reversal;
  bool reversed = false;
  for (const xla::WindowDimension& d : inst.window().dimensions()) {
    strides.push_back(d.stride() == 0 ? 1 : d.stride());
    padding.push_back(d.padding_low());
    padding.push_back(d.padding_high());
    lhs.push_back(d.base_dilation() == 0 ? 1 : d.base_dilation());
    rhs.push_back(d.window_dilation() == 0 ? 1 : d.window_dilation());
    reversal.push_back(d.window_reversal() ? 1 : 0);
    reversed = reversed || d.window_reversal();
  }
  const int64_t spatial = static_cast<int64_t>(strides.size());
  Attrs attrs;
  attrs.emplace_back("window_strides", Attribute::DenseI64Array(strides));
  attrs.emplace_back("padding", I64Matrix(padding, spatial, 2));
  attrs.emplace_back("lhs_dilation", Attribute::DenseI64Array(lhs));
  attrs.emplace_back("rhs_dilation", Attribute::DenseI64Array(rhs));
  if (reversed) {
    Attribute r = Attribute::DenseI64Array(reversal);
    r.type = Type::Element(ElementType::kI1);
    attrs.emplace_back("window_reversal", std::move(r));
  }
  attrs.emplace_back("dimension_numbers", ConvDimensions(dims));
  attrs.emplace_back("feature_group_count",
                     Attribute::Integer(inst.feature_group_count() == 0 ? 1 : inst.feature_group_count()));
  attrs.emplace_back("batch_group_count",
                     Attribute::Integer(inst.batch_group_count() == 0 ? 1 : inst.batch_group_count()));
  AddPrecision(inst.precision_config(), &attrs);
  return attrs;
}


// An op with `regions` built from the called computations, the array
// operands, the instruction's leaves as results.
StatusOr<ValueTree> WithRegions(const InstructionContext& ctx, const std::string& name, Attrs attrs,
                                int num_regions) {
  PLUGRT_RETURN_IF_ERROR(ctx.ExpectCalled(num_regions));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Value*> operands, ctx.ArrayOperands());
  std::vector<std::unique_ptr<Region>> regions;
  for (int i = 0; i < num_regions; ++i) {
    PLUGRT_ASSIGN_OR_RETURN(auto region, ctx.converter->BuildRegion(ctx.inst.called_computation_ids(i)));
    regions.push_back(std::move(region));
  }
  Operation* op = ctx.builder.Create(name, std::move(operands), FlattenType(ctx.type),
                                     std::move(attrs));
  HloConverter::AttachRegions(op, std::move(regions));
  return ctx.ResultsAsTree(op);
}

const char* RngAlgorithm(int algorithm) {
  switch (algorithm) {
    case xla::RNG_THREE_FRY: return "THREE_FRY";
    case xla::RNG_PHILOX: return "PHILOX";
    default: return "DEFAULT";
  }
}

}  // namespace

FamilyResult ConvertCompute(const InstructionContext& ctx) {
  const xla::HloInstructionProto& inst = ctx.inst;
  const std::string& op = inst.opcode();
  auto yes = [](ValueTree t) { return std::make_pair(Handled::kYes, std::move(t)); };
  if (op == "dot") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    Attrs attrs{{"dot_dimension_numbers", DotDimensions(inst.dot_dimension_numbers())}};
    AddPrecision(inst.precision_config(), &attrs);
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.dot_general", std::move(attrs)));
    return yes(std::move(t));
  }
  if (op == "convolution") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, ConvolutionAttributes(inst));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.convolution", std::move(attrs)));
    return yes(std::move(t));
  }
  if (op == "reduce") {
    // Inputs, then as many initial values; the body takes accumulators,
    // then elements, as StableHLO's does.
    if (ctx.operands.empty() || ctx.operands.size() % 2 != 0) {
      return InvalidArgument("reduce needs inputs and as many initial values");
    }
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.reduce",
                                                     {{"dimensions", I64Array(inst.dimensions())}}, 1));
    return yes(std::move(t));
  }
  if (op == "reduce-window") {
    if (ctx.operands.empty() || ctx.operands.size() % 2 != 0) {
      return InvalidArgument("reduce-window needs inputs and as many initial values");
    }
    PLUGRT_ASSIGN_OR_RETURN(Value * input, ctx.Operand(0));
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, WindowAttributes(inst.window(), input->type.dims().size(), true));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.reduce_window", std::move(attrs), 1));
    return yes(std::move(t));
  }
  if (op == "select-and-scatter") {
    // Called computations: select, then scatter, as StableHLO's regions.
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(3));
    PLUGRT_ASSIGN_OR_RETURN(Value * input, ctx.Operand(0));
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, WindowAttributes(inst.window(), input->type.dims().size(), false));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.select_and_scatter", std::move(attrs), 2));
    return yes(std::move(t));
  }
  if (op == "scatter") {
    if (ctx.operands.size() < 3 || ctx.operands.size() % 2 != 1) {
      return InvalidArgument("scatter needs inputs, indices and as many updates");
    }
    const xla::ScatterDimensionNumbers& s = inst.scatter_dimension_numbers();
    Attrs fields;
    AddNonEmpty(&fields, "update_window_dims", ToVector(s.update_window_dims()));
    AddNonEmpty(&fields, "inserted_window_dims", ToVector(s.inserted_window_dims()));
    AddNonEmpty(&fields, "input_batching_dims", ToVector(s.input_batching_dims()));
    AddNonEmpty(&fields, "scatter_indices_batching_dims", ToVector(s.scatter_indices_batching_dims()));
    AddNonEmpty(&fields, "scatter_dims_to_operand_dims", ToVector(s.scatter_dims_to_operand_dims()));
    fields.emplace_back("index_vector_dim", Attribute::Integer(s.index_vector_dim()));
    Attrs attrs{{"scatter_dimension_numbers", Attribute::Struct("stablehlo.scatter", std::move(fields))},
                {"indices_are_sorted", Attribute::Bool(inst.indices_are_sorted())},
                {"unique_indices", Attribute::Bool(inst.unique_indices())}};
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.scatter", std::move(attrs), 1));
    return yes(std::move(t));
  }
  if (op == "sort") {
    if (inst.dimensions_size() != 1) return InvalidArgument("sort needs one dimension");
    Attrs attrs{{"dimension", Attribute::Integer(inst.dimensions(0))},
                {"is_stable", Attribute::Bool(inst.is_stable())}};
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.sort", std::move(attrs), 1));
    return yes(std::move(t));
  }
  if (op == "map") {
    if (ctx.type.is_tuple()) return InvalidArgument("map of tuple shape");
    std::vector<int64_t> all;
    for (int64_t d = 0; d < ctx.type.rank(); ++d) all.push_back(d);
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, WithRegions(ctx, "stablehlo.map",
                                                     {{"dimensions", Attribute::DenseI64Array(all)}}, 1));
    return yes(std::move(t));
  }
  if (op == "rng-bit-generator") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    PLUGRT_ASSIGN_OR_RETURN(Value * state, ctx.Operand(0));
    std::vector<Type> results = FlattenType(ctx.type);
    if (!ctx.type.is_tuple() || results.size() != 2) {
      return InvalidArgument("rng-bit-generator's shape must be (state, values)");
    }
    Operation* rng = ctx.builder.Create(
        "stablehlo.rng_bit_generator", {state}, results,
        {{"rng_algorithm", Attribute::Enum("stablehlo.rng_algorithm", RngAlgorithm(inst.rng_algorithm()))}});
    PLUGRT_ASSIGN_OR_RETURN(ValueTree tree, ctx.ResultsAsTree(rng));
    return yes(std::move(tree));
  }
  if (op == "rng") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    if (ctx.type.is_tuple()) return InvalidArgument("rng of tuple shape");
    PLUGRT_ASSIGN_OR_RETURN(Value * a, ctx.Operand(0));
    PLUGRT_ASSIGN_OR_RETURN(Value * b, ctx.Operand(1));
    const char* distribution = inst.distribution() == xla::RNG_NORMAL ? "NORMAL" : "UNIFORM";
    // StableHLO takes the result shape as a third operand.
    const std::vector<int64_t>& dims = ctx.type.dims();
    auto data = std::make_shared<DenseData>();
    data->bytes.resize(dims.size() * sizeof(int64_t));
    if (!dims.empty()) std::memcpy(data->bytes.data(), dims.data(), data->bytes.size());
    const Type shape_type = Type::Tensor(ElementType::kSI64, {static_cast<int64_t>(dims.size())});
    Value* shape = ctx.builder.Op("stablehlo.constant", {}, shape_type,
                                  {{"value", Attribute::Dense(shape_type, std::move(data))}});
    return yes(ValueTree::Leaf(ctx.builder.Op(
        "stablehlo.rng", {a, b, shape}, ctx.type,
        {{"rng_distribution", Attribute::Enum("stablehlo.rng_distribution", distribution)}})));
  }
  if (op == "cholesky") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.cholesky",
                                                    {{"lower", Attribute::Bool(inst.cholesky_options().lower())}}));
    return yes(std::move(t));
  }
  if (op == "triangular-solve") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    const auto& o = inst.triangular_solve_options();
    const char* transpose = o.transpose_a() == xla::TriangularSolveOptions::TRANSPOSE ? "TRANSPOSE"
                            : o.transpose_a() == xla::TriangularSolveOptions::ADJOINT ? "ADJOINT"
                                                                                      : "NO_TRANSPOSE";
    PLUGRT_ASSIGN_OR_RETURN(
        ValueTree t,
        ctx.Simple("stablehlo.triangular_solve",
                   {{"left_side", Attribute::Bool(o.left_side())},
                    {"lower", Attribute::Bool(o.lower())},
                    {"unit_diagonal", Attribute::Bool(o.unit_diagonal())},
                    {"transpose_a", Attribute::Enum("stablehlo.transpose", transpose)}}));
    return yes(std::move(t));
  }
  if (op == "fft") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    static const char* const kTypes[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
    const int type = inst.fft_type();
    if (type < 0 || type > 3) return InvalidArgument("unknown FFT type ", type);
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.fft",
                                                    {{"fft_type", Attribute::Enum("stablehlo.fft_type", kTypes[type])},
                                                     {"fft_length", I64Array(inst.fft_length())}}));
    return yes(std::move(t));
  }
  if (op == "topk") {
    // chlo.top_k gives the largest k (values, then s32 indices); the
    // CHLO lowering turns it into a sort and slices.
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    if (!inst.largest()) return Unimplemented("topk of the smallest elements is not supported");
    PLUGRT_ASSIGN_OR_RETURN(Value * x, ctx.Operand(0));
    Operation* topk = ctx.builder.Create("chlo.top_k", {x}, FlattenType(ctx.type),
                                         {{"k", Attribute::Integer(inst.k())}});
    PLUGRT_ASSIGN_OR_RETURN(ValueTree tree, ctx.ResultsAsTree(topk));
    return yes(std::move(tree));
  }
  if (op == "batch-norm-training" || op == "batch-norm-inference" || op == "batch-norm-grad") {
    std::string name = "stablehlo." + op;
    for (char& c : name) c = c == '-' ? '_' : c;
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Value*> operands, ctx.ArrayOperands());
    Operation* bn = ctx.builder.Create(
        name, std::move(operands), FlattenType(ctx.type),
        {{"epsilon", Attribute::Float(inst.epsilon())},
         {"feature_index", Attribute::Integer(inst.feature_index())}});
    PLUGRT_ASSIGN_OR_RETURN(ValueTree tree, ctx.ResultsAsTree(bn));
    return yes(std::move(tree));
  }
  return std::make_pair(Handled::kNotMine, ValueTree());
}

}  // namespace plugrt::shlo::hlo
