#include "compiler/passes/lower_chlo_ragged_dot.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace plugrt::shlo {
namespace {

Status Error(const Operation& op, StatusCode code, const std::string& message) {
  return Status(code, StrCat(op.location.ToString(), ": ", op.name, ": ", message));
}

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Dimensions of a rank-`rank` operand that are in none of `used`, in order.
std::vector<int64_t> FreeDims(int64_t rank, const std::vector<std::vector<int64_t>>& used) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    bool taken = false;
    for (const auto& list : used) taken = taken || Contains(list, d);
    if (!taken) free.push_back(d);
  }
  return free;
}

// reduce(`input`, 0) adding over `dimension`.
Value* SumOver(IrBuilder& b, Value* input, int64_t dimension, const Type& result_type) {
  const ElementType e = input->type.element_type();
  const Type scalar = Type::Scalar(e);
  Value* zero = b.SplatFloat(scalar, 0.0);
  Operation* reduce = b.Create("stablehlo.reduce", {input, zero}, {result_type},
                               {{"dimensions", Attribute::DenseI64Array({dimension})}});
  auto region = std::make_unique<Region>();
  region->parent_op = reduce;
  auto block = std::make_unique<Block>();
  block->parent = region.get();
  Value* x = IrBuilder::AddArgument(block.get(), scalar);
  Value* y = IrBuilder::AddArgument(block.get(), scalar);
  IrBuilder body(block.get(), b.location());
  body.Create("stablehlo.return", {body.Op("stablehlo.add", {x, y}, scalar)}, {});
  region->blocks.push_back(std::move(block));
  reduce->regions.push_back(std::move(region));
  return reduce->result(0);
}

}  // namespace

StatusOr<Value*> LowerRaggedDot(IrBuilder& b, const Operation& op) {
  if (op.operands.size() != 3 || op.results.size() != 1) {
    return Error(op, StatusCode::kInvalidArgument, "expects 3 operands and 1 result");
  }
  Value* lhs = op.operands[0];
  Value* rhs = op.operands[1];
  Value* group_sizes = op.operands[2];
  const Type& result_type = op.result(0)->type;
  for (const Value* v : {lhs, rhs, group_sizes}) {
    if (!v->type.has_static_shape()) {
      return Error(op, StatusCode::kUnimplemented, "dynamic shapes are not supported");
    }
  }
  const Attribute* numbers = op.attribute("ragged_dot_dimension_numbers");
  if (numbers == nullptr || numbers->kind != Attribute::Kind::kStruct) {
    return Error(op, StatusCode::kInvalidArgument, "needs ragged_dot_dimension_numbers");
  }
  auto field = [&](const char* name) -> StatusOr<std::vector<int64_t>> {
    const Attribute* f = numbers->field(name);
    if (f == nullptr) return std::vector<int64_t>{};
    return AttrToIntList(*f);
  };
  PLUGRT_ASSIGN_OR_RETURN(auto lhs_batch, field("lhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto rhs_batch, field("rhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto lhs_contract, field("lhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto rhs_contract, field("rhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto lhs_ragged, field("lhs_ragged_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(auto rhs_group, field("rhs_group_dimensions"));
  const int64_t lhs_rank = lhs->type.rank();
  const int64_t rhs_rank = rhs->type.rank();
  auto in_range = [](const std::vector<int64_t>& v, int64_t rank) {
    return std::all_of(v.begin(), v.end(), [&](int64_t d) { return d >= 0 && d < rank; });
  };
  if (lhs_ragged.size() != 1 || !in_range(lhs_ragged, lhs_rank) ||
      !in_range(lhs_batch, lhs_rank) || !in_range(lhs_contract, lhs_rank) ||
      !in_range(rhs_batch, rhs_rank) || !in_range(rhs_contract, rhs_rank) ||
      !in_range(rhs_group, rhs_rank) || lhs_batch.size() != rhs_batch.size() ||
      lhs_contract.size() != rhs_contract.size()) {
    return Error(op, StatusCode::kInvalidArgument,
                 "ragged_dot_dimension_numbers are out of range or inconsistent");
  }
  const int64_t ragged = lhs_ragged[0];
  if (Contains(lhs_contract, ragged) || Contains(lhs_batch, ragged)) {
    return Error(op, StatusCode::kUnimplemented,
                 "only a ragged non-contracting lhs dimension is supported (the ragged "
                 "contracting and batch forms are not lowered yet)");
  }
  if (rhs_group.size() != 1) {
    return Error(op, StatusCode::kInvalidArgument,
                 "a ragged non-contracting dimension needs exactly one rhs group dimension");
  }
  if (group_sizes->type.rank() != 1) {
    return Error(op, StatusCode::kUnimplemented,
                 StrCat("group_sizes of rank ", group_sizes->type.rank(),
                        " are not supported (rank 1 only)"));
  }
  const int64_t groups = rhs->type.dims()[rhs_group[0]];
  if (group_sizes->type.dims()[0] != groups) {
    return Error(op, StatusCode::kInvalidArgument,
                 StrCat("group_sizes has ", group_sizes->type.dims()[0], " entries for ",
                        groups, " groups"));
  }

  // full = dot_general(lhs, rhs): [batch..., lhs free..., rhs free (with the group dim)...].
  const std::vector<int64_t> lhs_free = FreeDims(lhs_rank, {lhs_batch, lhs_contract});
  const std::vector<int64_t> rhs_free = FreeDims(rhs_rank, {rhs_batch, rhs_contract});
  std::vector<int64_t> full_dims;
  for (int64_t d : lhs_batch) full_dims.push_back(lhs->type.dims()[d]);
  for (int64_t d : lhs_free) full_dims.push_back(lhs->type.dims()[d]);
  for (int64_t d : rhs_free) full_dims.push_back(rhs->type.dims()[d]);
  const ElementType out_element = result_type.element_type();
  const Type full_type = Type::Tensor(out_element, full_dims);
  std::vector<NamedAttribute> dot_fields = {
      {"lhs_batching_dimensions", Attribute::DenseI64Array(lhs_batch)},
      {"rhs_batching_dimensions", Attribute::DenseI64Array(rhs_batch)},
      {"lhs_contracting_dimensions", Attribute::DenseI64Array(lhs_contract)},
      {"rhs_contracting_dimensions", Attribute::DenseI64Array(rhs_contract)}};
  std::vector<NamedAttribute> dot_attrs = {
      {"dot_dimension_numbers", Attribute::Struct("stablehlo.dot", std::move(dot_fields))}};
  if (const Attribute* precision = op.attribute("precision_config")) {
    dot_attrs.emplace_back("precision_config", *precision);
  }
  Value* full = b.Op("stablehlo.dot_general", {lhs, rhs}, full_type, std::move(dot_attrs));

  // Positions of the ragged row dimension and the group dimension in `full`.
  const int64_t row_pos = static_cast<int64_t>(lhs_batch.size()) +
                          (std::find(lhs_free.begin(), lhs_free.end(), ragged) - lhs_free.begin());
  const int64_t group_pos =
      static_cast<int64_t>(lhs_batch.size() + lhs_free.size()) +
      (std::find(rhs_free.begin(), rhs_free.end(), rhs_group[0]) - rhs_free.begin());
  const int64_t rows = lhs->type.dims()[ragged];

  // ends[g] = sizes[0] + ... + sizes[g] (a dot with an upper-triangular
  // matrix of ones), starts = ends - sizes; row i is in group g when
  // starts[g] <= i < ends[g].
  const Type sizes_type = Type::Tensor(ElementType::kSI64, {groups});
  Value* sizes = group_sizes->type.element_type() == ElementType::kSI64
                     ? group_sizes
                     : b.Convert(group_sizes, ElementType::kSI64);
  const Type square = Type::Tensor(ElementType::kSI64, {groups, groups});
  Value* h = b.Op("stablehlo.iota", {}, square, {{"iota_dimension", Attribute::Integer(0)}});
  Value* g = b.Op("stablehlo.iota", {}, square, {{"iota_dimension", Attribute::Integer(1)}});
  Value* upper = b.Convert(b.Compare(h, g, "LE"), ElementType::kSI64);
  Value* ends = b.Op("stablehlo.dot_general", {sizes, upper}, sizes_type,
                     {{"dot_dimension_numbers",
                       Attribute::Struct("stablehlo.dot",
                                         {{"lhs_contracting_dimensions",
                                           Attribute::DenseI64Array({0})},
                                          {"rhs_contracting_dimensions",
                                           Attribute::DenseI64Array({0})}})}});
  Value* starts = b.Op("stablehlo.subtract", {ends, sizes}, sizes_type);
  const Type mask_type = Type::Tensor(ElementType::kSI64, {rows, groups});
  Value* row = b.Op("stablehlo.iota", {}, mask_type, {{"iota_dimension", Attribute::Integer(0)}});
  Value* starts_2d = b.BroadcastInDim(starts, mask_type, {1});
  Value* ends_2d = b.BroadcastInDim(ends, mask_type, {1});
  Value* in_group = b.Op("stablehlo.and",
                         {b.Compare(starts_2d, row, "LE"), b.Compare(row, ends_2d, "LT")},
                         Type::Tensor(ElementType::kI1, {rows, groups}));
  Value* mask = b.BroadcastInDim(in_group, WithElementType(full_type, ElementType::kI1),
                                 {row_pos, group_pos});
  Value* zeros = b.SplatFloat(full_type, 0.0);
  Value* own_group = b.Select(mask, full, zeros);
  std::vector<int64_t> out_dims = full_dims;
  out_dims.erase(out_dims.begin() + group_pos);
  const Type out_type = Type::Tensor(out_element, out_dims);
  if (!result_type.is_tensor() || result_type.dims() != out_dims) {
    return Error(op, StatusCode::kInvalidArgument,
                 StrCat("result type ", result_type.ToString(), " does not match ",
                        out_type.ToString()));
  }
  return SumOver(b, own_group, group_pos, out_type);
}

}  // namespace plugrt::shlo
