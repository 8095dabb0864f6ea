// Every VJP and JVP of the autodiff registries (src/autodiff/) checked on
// random inputs, from one table: reverse mode against central finite
// differences in f64, f32 and bf16 against the f64 gradient, and forward mode against
// reverse mode (<J v, u> = <v, J^T u> for random v, u). A registered op
// without a case in the table fails the test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "autodiff/forward_accumulator.h"
#include "autodiff/jvp_registry.h"
#include "autodiff/tape.h"
#include "autodiff/vjp_registry.h"
#include "eager/context.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"

namespace plugrt::autodiff {
namespace {

using eager::AttrMap;
using eager::Op;
using eager::Reducer;

// How an input's values are drawn.
enum class Fill {
  kAny,        // uniform in [-1, 1]
  kPositive,   // [0.5, 2]
  kRange,      // [lo, hi]
  kOffInteger, // k + [0.1, 0.4]: away from floor's and round's jumps
  kPred,       // random booleans (a pred tensor)
  kValue,      // every element `lo`
  kIndex,      // an s32 scalar holding `lo` (a start index)
  kIndices,    // s32 values in [lo, hi] (gather/scatter indices)
};

struct Arg {
  std::vector<int64_t> dims;
  Fill fill = Fill::kAny;
  double lo = 0, hi = 0;
};

struct Group {
  std::vector<Arg> args;
  bool list = false;
};

struct Case {
  std::string label;
  std::string op;
  std::vector<Group> groups;
  AttrMap attrs;
};

Arg A(std::vector<int64_t> dims, Fill fill = Fill::kAny, double lo = 0, double hi = 0) {
  return Arg{std::move(dims), fill, lo, hi};
}
Group G(Arg a) { return Group{{std::move(a)}, false}; }
Group L(std::vector<Arg> args) { return Group{std::move(args), true}; }

eager::DenseTensor ReplicaGroups(std::vector<int64_t> ids) {
  eager::DenseTensor groups{eager::TensorType{PJRT_Buffer_Type_S64, {1, int64_t(ids.size())}}, {}};
  groups.data.resize(ids.size() * sizeof(int64_t));
  std::memcpy(groups.data.data(), ids.data(), groups.data.size());
  return groups;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  auto unary = [&](std::string op, Arg a = A({2, 3})) {
    cases.push_back({op, "stablehlo." + op, {G(a)}, {}});
  };
  auto binary = [&](std::string op, Arg a = A({2, 3}), Arg b = A({2, 3})) {
    cases.push_back({op, "stablehlo." + op, {G(a), G(b)}, {}});
  };
  for (const char* op : {"exponential", "tanh", "logistic", "sine", "cosine", "tan", "abs",
                         "negate", "sign", "exponential_minus_one"}) {
    unary(op);
  }
  for (const char* op : {"log", "sqrt", "rsqrt", "cbrt"}) unary(op, A({2, 3}, Fill::kPositive));
  unary("log_plus_one", A({2, 3}, Fill::kRange, -0.5, 1));
  for (const char* op : {"floor", "ceil", "round_nearest_even", "round_nearest_afz"}) {
    unary(op, A({2, 3}, Fill::kOffInteger));
  }
  for (const char* op : {"add", "subtract", "multiply", "atan2", "maximum", "minimum"}) binary(op);
  binary("divide", A({2, 3}), A({2, 3}, Fill::kPositive));
  binary("power", A({2, 3}, Fill::kPositive), A({2, 3}));
  binary("remainder", A({2, 3}, Fill::kRange, 2, 5), A({2, 3}, Fill::kRange, 0.7, 1.3));
  cases.push_back({"select", "stablehlo.select",
                   {G(A({2, 3}, Fill::kPred)), G(A({2, 3})), G(A({2, 3}))}, {}});
  cases.push_back({"clamp scalar bounds", "stablehlo.clamp",
                   {G(A({}, Fill::kValue, -0.5)), G(A({2, 3}, Fill::kRange, -1.5, 1.5)),
                    G(A({}, Fill::kValue, 0.5))},
                   {}});
  cases.push_back({"clamp elementwise bounds", "stablehlo.clamp",
                   {G(A({2, 3}, Fill::kRange, -1, -0.3)), G(A({2, 3}, Fill::kRange, -1.5, 1.5)),
                    G(A({2, 3}, Fill::kRange, 0.3, 1))},
                   {}});
  cases.push_back({"convert", "stablehlo.convert", {G(A({2, 3}))},
                   {{"element_type", PJRT_Buffer_Type_F64}}});
  cases.push_back({"broadcast_in_dim stretch", "stablehlo.broadcast_in_dim", {G(A({1, 3}))},
                   {{"shape", eager::Shape{{2, 3, 4}}},
                    {"broadcast_dimensions", std::vector<int64_t>{0, 1}}}});
  cases.push_back({"broadcast_in_dim transposing", "stablehlo.broadcast_in_dim", {G(A({3, 2}))},
                   {{"shape", eager::Shape{{4, 2, 3}}},
                    {"broadcast_dimensions", std::vector<int64_t>{2, 1}}}});
  cases.push_back({"reshape", "stablehlo.reshape", {G(A({2, 3}))},
                   {{"shape", eager::Shape{{3, 1, 2}}}}});
  cases.push_back({"transpose", "stablehlo.transpose", {G(A({2, 3, 4}))},
                   {{"permutation", std::vector<int64_t>{2, 0, 1}}}});
  cases.push_back({"reverse", "stablehlo.reverse", {G(A({2, 3}))},
                   {{"dimensions", std::vector<int64_t>{1}}}});
  auto dot = [&](std::string label, std::vector<int64_t> l, std::vector<int64_t> r,
                 std::vector<int64_t> lb, std::vector<int64_t> rb, std::vector<int64_t> lc,
                 std::vector<int64_t> rc) {
    AttrMap attrs;
    if (!lb.empty()) attrs["lhs_batching_dimensions"] = lb;
    if (!rb.empty()) attrs["rhs_batching_dimensions"] = rb;
    if (!lc.empty()) attrs["lhs_contracting_dimensions"] = lc;
    if (!rc.empty()) attrs["rhs_contracting_dimensions"] = rc;
    cases.push_back({"dot_general " + label, "stablehlo.dot_general", {G(A(l)), G(A(r))}, attrs});
  };
  dot("matmul", {2, 3}, {3, 4}, {}, {}, {1}, {0});
  dot("both transposed", {3, 2}, {4, 3}, {}, {}, {0}, {1});
  dot("batched", {2, 3, 4}, {2, 4, 5}, {0}, {0}, {2}, {1});
  dot("batch in the middle", {3, 2, 4}, {4, 2, 5}, {1}, {1}, {2}, {0});
  dot("two contracting dims", {2, 3, 4}, {4, 3}, {}, {}, {1, 2}, {1, 0});
  dot("outer product", {2}, {3}, {}, {}, {}, {});
  auto reduce = [&](std::string label, Reducer r, std::vector<int64_t> dims, Arg x, Arg init) {
    cases.push_back({"reduce " + label, "stablehlo.reduce", {L({x}), L({init})},
                     {{"dimensions", dims}, {"body", r}}});
  };
  reduce("add", Reducer::kAdd, {1}, A({2, 3}), A({}));
  reduce("max", Reducer::kMax, {0}, A({3, 2}), A({}, Fill::kValue, -10));
  reduce("min of all", Reducer::kMin, {0, 1}, A({2, 3}), A({}, Fill::kValue, 10));
  reduce("mul", Reducer::kMul, {1}, A({2, 3}, Fill::kPositive), A({}, Fill::kPositive));
  cases.push_back({"reduce of two inputs at once", "stablehlo.reduce",
                   {L({A({2, 3}), A({2, 3})}), L({A({}), A({})})},
                   {{"dimensions", std::vector<int64_t>{0}}, {"body", Reducer::kAdd}}});
  cases.push_back({"slice strided", "stablehlo.slice", {G(A({4, 5}))},
                   {{"start_indices", std::vector<int64_t>{1, 0}},
                    {"limit_indices", std::vector<int64_t>{4, 5}},
                    {"strides", std::vector<int64_t>{2, 2}}}});
  cases.push_back({"pad with interior and negative edges", "stablehlo.pad",
                   {G(A({2, 3})), G(A({}))},
                   {{"edge_padding_low", std::vector<int64_t>{1, -1}},
                    {"edge_padding_high", std::vector<int64_t>{0, 2}},
                    {"interior_padding", std::vector<int64_t>{1, 0}}}});
  // The second start index is past the end: clamped, by the op and its
  // gradient alike.
  cases.push_back({"dynamic_slice", "stablehlo.dynamic_slice",
                   {G(A({4, 5})), L({A({}, Fill::kIndex, 1), A({}, Fill::kIndex, 4)})},
                   {{"slice_sizes", std::vector<int64_t>{2, 3}}}});
  cases.push_back({"dynamic_update_slice", "stablehlo.dynamic_update_slice",
                   {G(A({4, 5})), G(A({2, 2})), L({A({}, Fill::kIndex, 2), A({}, Fill::kIndex, 1)})},
                   {}});
  // Rows 0..3 of a 4x3 operand, some twice (their gradients add up).
  cases.push_back({"gather rows", "stablehlo.gather",
                   {G(A({4, 3})), G(A({5, 1}, Fill::kIndices, 0, 3))},
                   {{"offset_dims", std::vector<int64_t>{1}},
                    {"collapsed_slice_dims", std::vector<int64_t>{0}},
                    {"start_index_map", std::vector<int64_t>{0}},
                    {"index_vector_dim", int64_t{1}},
                    {"slice_sizes", std::vector<int64_t>{1, 3}}}});
  // 2x2 windows at (row, col) starts, indices' vector dimension first.
  cases.push_back({"gather windows", "stablehlo.gather",
                   {G(A({4, 5})), G(A({2, 3}, Fill::kIndices, 0, 2))},
                   {{"offset_dims", std::vector<int64_t>{1, 2}},
                    {"start_index_map", std::vector<int64_t>{0, 1}},
                    {"index_vector_dim", int64_t{0}},
                    {"slice_sizes", std::vector<int64_t>{2, 2}}}});
  cases.push_back({"scatter-add rows", "stablehlo.scatter",
                   {L({A({4, 3})}), G(A({5, 1}, Fill::kIndices, 0, 3)), L({A({5, 3})})},
                   {{"update_window_dims", std::vector<int64_t>{1}},
                    {"inserted_window_dims", std::vector<int64_t>{0}},
                    {"scatter_dims_to_operand_dims", std::vector<int64_t>{0}},
                    {"index_vector_dim", int64_t{1}},
                    {"update_computation", Reducer::kAdd}}});
  // The other combiners, with repeated indices (5 updates into 4 rows).
  for (auto [label, reducer] : {std::pair<const char*, Reducer>{"mul", Reducer::kMul},
                                {"max", Reducer::kMax},
                                {"min", Reducer::kMin}}) {
    const Fill fill = reducer == Reducer::kMul ? Fill::kPositive : Fill::kAny;
    cases.push_back({std::string("scatter-") + label + " rows", "stablehlo.scatter",
                     {L({A({4, 3}, fill)}), G(A({5, 1}, Fill::kIndices, 0, 3)),
                      L({A({5, 3}, fill)})},
                     {{"update_window_dims", std::vector<int64_t>{1}},
                      {"inserted_window_dims", std::vector<int64_t>{0}},
                      {"scatter_dims_to_operand_dims", std::vector<int64_t>{0}},
                      {"index_vector_dim", int64_t{1}},
                      {"update_computation", reducer}}});
  }
  // An overwrite (a loaded function returning the update), at one row.
  cases.push_back({"scatter overwriting a row", "stablehlo.scatter",
                   {L({A({4, 3})}), G(A({1, 1}, Fill::kIndices, 2, 2)), L({A({1, 3})})},
                   {{"update_window_dims", std::vector<int64_t>{1}},
                    {"inserted_window_dims", std::vector<int64_t>{0}},
                    {"scatter_dims_to_operand_dims", std::vector<int64_t>{0}},
                    {"index_vector_dim", int64_t{1}},
                    {"update_computation", eager::FunctionRef{"rules_overwrite"}}}});
  auto conv = [&](std::string label, Arg lhs, Arg rhs, AttrMap layout, AttrMap window) {
    for (auto& [k, v] : window) layout[k] = v;
    cases.push_back({"convolution " + label, "stablehlo.convolution", {G(lhs), G(rhs)}, layout});
  };
  const AttrMap nchw{{"input_batch_dimension", int64_t{0}},
                     {"input_feature_dimension", int64_t{1}},
                     {"input_spatial_dimensions", std::vector<int64_t>{2, 3}},
                     {"kernel_output_feature_dimension", int64_t{0}},
                     {"kernel_input_feature_dimension", int64_t{1}},
                     {"kernel_spatial_dimensions", std::vector<int64_t>{2, 3}},
                     {"output_batch_dimension", int64_t{0}},
                     {"output_feature_dimension", int64_t{1}},
                     {"output_spatial_dimensions", std::vector<int64_t>{2, 3}}};
  const AttrMap nhwc{{"input_batch_dimension", int64_t{0}},
                     {"input_feature_dimension", int64_t{3}},
                     {"input_spatial_dimensions", std::vector<int64_t>{1, 2}},
                     {"kernel_output_feature_dimension", int64_t{3}},
                     {"kernel_input_feature_dimension", int64_t{2}},
                     {"kernel_spatial_dimensions", std::vector<int64_t>{0, 1}},
                     {"output_batch_dimension", int64_t{0}},
                     {"output_feature_dimension", int64_t{3}},
                     {"output_spatial_dimensions", std::vector<int64_t>{1, 2}}};
  conv("plain", A({1, 2, 4, 4}), A({3, 2, 2, 2}), nchw, {});
  conv("strided, padded, dilated", A({2, 2, 5, 6}), A({2, 2, 2, 3}), nchw,
       {{"window_strides", std::vector<int64_t>{2, 1}},
        {"padding", std::vector<int64_t>{1, 0, 2, 1}},
        {"rhs_dilation", std::vector<int64_t>{1, 2}}});
  conv("lhs-dilated (transposed)", A({1, 2, 3, 3}), A({2, 2, 2, 2}), nchw,
       {{"lhs_dilation", std::vector<int64_t>{2, 1}},
        {"padding", std::vector<int64_t>{1, 1, 0, 1}}});
  conv("two batch groups", A({4, 2, 4, 3}), A({4, 2, 2, 2}), nchw,
       {{"batch_group_count", int64_t{2}}, {"window_strides", std::vector<int64_t>{2, 1}}});
  conv("NHWC with two feature groups", A({1, 4, 4, 4}), A({2, 2, 2, 4}), nhwc,
       {{"feature_group_count", int64_t{2}},
        {"window_strides", std::vector<int64_t>{1, 2}},
        {"padding", std::vector<int64_t>{1, 1, 0, 1}}});
  cases.push_back({"reduce_window sums, strided, padded, dilated", "stablehlo.reduce_window",
                   {L({A({5, 6})}), L({A({})})},
                   {{"window_dimensions", std::vector<int64_t>{2, 3}},
                    {"window_strides", std::vector<int64_t>{2, 1}},
                    {"window_dilations", std::vector<int64_t>{1, 2}},
                    {"padding", std::vector<int64_t>{1, 0, 0, 2}},
                    {"body", Reducer::kAdd}}});
  cases.push_back({"reduce_window cumulative sum", "stablehlo.reduce_window",
                   {L({A({5})}), L({A({}, Fill::kValue, 0)})},
                   {{"window_dimensions", std::vector<int64_t>{5}},
                    {"padding", std::vector<int64_t>{4, 0}},
                    {"body", Reducer::kAdd}}});
  cases.push_back({"reduce_window max pooling, padded", "stablehlo.reduce_window",
                   {L({A({4, 5})}), L({A({}, Fill::kValue, -10)})},
                   {{"window_dimensions", std::vector<int64_t>{2, 2}},
                    {"window_strides", std::vector<int64_t>{2, 1}},
                    {"padding", std::vector<int64_t>{0, 1, 1, 0}},
                    {"body", Reducer::kMax}}});
  // Padding with a large init value: some windows' minimum is the init.
  cases.push_back({"reduce_window min, dilated, init in the padding", "stablehlo.reduce_window",
                   {L({A({5})}), L({A({}, Fill::kValue, 0.25)})},
                   {{"window_dimensions", std::vector<int64_t>{2}},
                    {"window_dilations", std::vector<int64_t>{2}},
                    {"padding", std::vector<int64_t>{1, 1}},
                    {"body", Reducer::kMin}}});
  // max pooling's gradient op: each window's source goes to its largest
  // element (padding never chosen; a window over padding alone drops it).
  cases.push_back({"select_and_scatter, strided, padded", "stablehlo.select_and_scatter",
                   {G(A({4, 5})), G(A({2, 5})), G(A({}))},
                   {{"window_dimensions", std::vector<int64_t>{2, 2}},
                    {"window_strides", std::vector<int64_t>{2, 1}},
                    {"padding", std::vector<int64_t>{0, 1, 1, 0}},
                    {"scatter", Reducer::kAdd}}});
  cases.push_back({"select_and_scatter, smallest first", "stablehlo.select_and_scatter",
                   {G(A({6})), G(A({3})), G(A({}))},
                   {{"window_dimensions", std::vector<int64_t>{3}},
                    {"window_strides", std::vector<int64_t>{2}},
                    {"padding", std::vector<int64_t>{1, 0}},
                    {"select_direction", std::string("LE")},
                    {"scatter", Reducer::kAdd}}});
  cases.push_back({"sort rows with a payload", "stablehlo.sort",
                   {L({A({2, 4}), A({2, 4})})},
                   {{"dimension", int64_t{1}}}});
  cases.push_back({"sort descending", "stablehlo.sort", {L({A({5})})},
                   {{"dimension", int64_t{0}}, {"comparison_direction", std::string("GT")}}});
  // A loaded comparator (by magnitude, in kRuleFunctions), with a payload.
  cases.push_back({"sort by a loaded comparator", "stablehlo.sort", {L({A({6}), A({6})})},
                   {{"dimension", int64_t{0}}, {"comparator", eager::FunctionRef{"rules_cmp"}}}});
  // Two trips of x <- x * sin(x) (functions in kRuleFunctions).
  cases.push_back({"while, two trips", "stablehlo.while",
                   {L({A({}, Fill::kIndex, 0), A({3})})},
                   {{"cond", eager::FunctionRef{"rules_cond"}},
                    {"body", eager::FunctionRef{"rules_body"}}}});
  cases.push_back({"concatenate", "stablehlo.concatenate", {L({A({2, 3}), A({2, 1})})},
                   {{"dimension", int64_t{1}}}});
  cases.push_back({"all_gather of one replica", "stablehlo.all_gather", {G(A({2, 3}))},
                   {{"replica_groups", ReplicaGroups({0})}, {"all_gather_dim", int64_t{1}}}});
  cases.push_back({"all_reduce of one replica", "stablehlo.all_reduce", {G(A({3}))},
                   {{"replica_groups", ReplicaGroups({0})}, {"computation", Reducer::kAdd}}});
  return cases;
}

// The loop of the while case, the sort's comparator and the scatter's
// overwrite, for f64, f32 and bf16 alike.
std::string RuleFunctions() {
  std::string text;
  for (const char* t : {"f64", "f32", "bf16"}) {
    const std::string x = std::string("tensor<3x") + t + ">";
    const std::string suffix = t;
    text += "func.func @rules_cond_" + suffix + "(%i: tensor<i32>, %x: " + x +
            ") -> tensor<i1> {\n"
            "  %n = stablehlo.constant dense<2> : tensor<i32>\n"
            "  %r = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            "  return %r : tensor<i1>\n}\n"
            "func.func @rules_body_" + suffix + "(%i: tensor<i32>, %x: " + x +
            ") -> (tensor<i32>, " + x + ") {\n"
            "  %one = stablehlo.constant dense<1> : tensor<i32>\n"
            "  %j = stablehlo.add %i, %one : tensor<i32>\n"
            "  %s = stablehlo.sine %x : " + x + "\n"
            "  %y = stablehlo.multiply %x, %s : " + x + "\n"
            "  return %j, %y : tensor<i32>, " + x + "\n}\n";
    const std::string e = std::string("tensor<") + t + ">";
    text += "func.func @rules_overwrite_" + suffix + "(%a: " + e + ", %b: " + e + ") -> " + e +
            " {\n  return %b : " + e + "\n}\n";
    text += "func.func @rules_cmp_" + suffix + "(%a: " + e + ", %b: " + e + ", %c: " + e +
            ", %d: " + e + ") -> tensor<i1> {\n"
            "  %x = stablehlo.abs %a : " + e + "\n"
            "  %y = stablehlo.abs %b : " + e + "\n"
            "  %r = stablehlo.compare LT, %x, %y : (" + e + ", " + e + ") -> tensor<i1>\n"
            "  return %r : tensor<i1>\n}\n";
  }
  return text;
}

std::unique_ptr<Context> MakeContext() {
  std::unique_ptr<Context> context =
      plugrt::testing::MakeEagerContext({}, /*cpu_device_count=*/0);
  if (context == nullptr) return nullptr;
  PLUGRT_EXPECT_OK(context->LoadFunctions(RuleFunctions()));
  return context;
}

int64_t Count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// Host values of every flat input, drawn as the case says.
std::vector<std::vector<double>> Draw(const Case& c, std::mt19937& rng) {
  std::vector<std::vector<double>> values;
  for (const Group& g : c.groups) {
    for (const Arg& a : g.args) {
      std::vector<double> v(Count(a.dims));
      for (double& x : v) {
        std::uniform_real_distribution<double> u01(0, 1);
        switch (a.fill) {
          case Fill::kAny: x = -1 + 2 * u01(rng); break;
          case Fill::kPositive: x = 0.5 + 1.5 * u01(rng); break;
          case Fill::kRange: x = a.lo + (a.hi - a.lo) * u01(rng); break;
          case Fill::kOffInteger:
            x = std::floor(-3 + 6 * u01(rng)) + 0.1 + 0.3 * u01(rng);
            break;
          case Fill::kPred: x = u01(rng) < 0.5 ? 0 : 1; break;
          case Fill::kIndices:
            x = std::floor(a.lo + (a.hi - a.lo + 1) * u01(rng));
            x = std::min(x, a.hi);
            break;
          case Fill::kValue:
          case Fill::kIndex: x = a.lo; break;
        }
      }
      values.push_back(std::move(v));
    }
  }
  return values;
}

bool IsFloatArg(const Arg& a) {
  return a.fill != Fill::kPred && a.fill != Fill::kIndex && a.fill != Fill::kIndices;
}

std::vector<Arg> FlatArgs(const Case& c) {
  std::vector<Arg> args;
  for (const Group& g : c.groups) args.insert(args.end(), g.args.begin(), g.args.end());
  return args;
}

StatusOr<Tensor> MakeTensor(Context& ctx, const Arg& a, const std::vector<double>& v,
                            PJRT_Buffer_Type type) {
  if (a.fill == Fill::kPred) {
    std::vector<bool> b(v.begin(), v.end());
    return ctx.FromVector<bool>(b, a.dims);
  }
  if (a.fill == Fill::kIndex || a.fill == Fill::kIndices) {
    return ctx.FromVector<int32_t>(std::vector<int32_t>(v.begin(), v.end()), a.dims);
  }
  if (type == PJRT_Buffer_Type_F32 || type == PJRT_Buffer_Type_BF16) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor f, ctx.FromVector<float>(std::vector<float>(v.begin(), v.end()),
                                                            a.dims));
    if (type == PJRT_Buffer_Type_F32) return f;
    return TensorMath(ctx).Convert(f, type);
  }
  return ctx.FromVector<double>(v, a.dims);
}

// `v` rounded to the nearest bfloat16 (ties to even), as bf16 inputs hold it.
double RoundToBf16(double v) {
  float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  bits += 0x7FFF + ((bits >> 16) & 1);
  bits &= 0xFFFF0000u;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The context of the running test (bf16 results are read through an f32
// conversion on it).
Context*& TheContext() {
  static Context* context = nullptr;
  return context;
}

StatusOr<std::vector<Tensor>> Inputs(Context& ctx, const Case& c,
                                     const std::vector<std::vector<double>>& values,
                                     PJRT_Buffer_Type type) {
  std::vector<Arg> args = FlatArgs(c);
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < args.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor t, MakeTensor(ctx, args[i], values[i], type));
    tensors.push_back(t);
  }
  return tensors;
}

StatusOr<std::vector<Tensor>> RunCase(Context& ctx, const Case& c,
                                      const std::vector<Tensor>& inputs) {
  Op op(ctx, c.op);
  // Function attributes name a family: the member of the inputs' float type.
  std::string suffix;
  for (const Tensor& t : inputs) {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, t.dtype());
    if (type == PJRT_Buffer_Type_F64) suffix = "_f64";
    if (type == PJRT_Buffer_Type_F32) suffix = "_f32";
    if (type == PJRT_Buffer_Type_BF16) suffix = "_bf16";
  }
  for (const auto& [name, value] : c.attrs) {
    if (const auto* f = std::get_if<eager::FunctionRef>(&value)) {
      PLUGRT_RETURN_IF_ERROR(op.SetAttr(name, eager::FunctionRef{f->name + suffix}));
    } else {
      PLUGRT_RETURN_IF_ERROR(op.SetAttr(name, value));
    }
  }
  size_t next = 0;
  for (const Group& g : c.groups) {
    std::vector<Tensor> group(inputs.begin() + next, inputs.begin() + next + g.args.size());
    next += g.args.size();
    if (g.list) {
      PLUGRT_RETURN_IF_ERROR(op.AddInputList(group));
    } else {
      PLUGRT_RETURN_IF_ERROR(op.AddInput(group[0]));
    }
  }
  return op.Execute();
}

StatusOr<std::vector<double>> HostF64(const Tensor& t) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, t.dtype());
  if (type == PJRT_Buffer_Type_BF16) {
    Context& ctx = *TheContext();
    PLUGRT_ASSIGN_OR_RETURN(Tensor f32, TensorMath(ctx).Convert(t, PJRT_Buffer_Type_F32));
    return HostF64(f32);
  }
  if (type == PJRT_Buffer_Type_S32) {  // a loop counter
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int32_t> n, t.ToVector<int32_t>());
    return std::vector<double>(n.begin(), n.end());
  }
  if (type == PJRT_Buffer_Type_F32) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<float> f, t.ToVector<float>());
    return std::vector<double>(f.begin(), f.end());
  }
  return t.ToVector<double>();
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) s += a[i] * b[i];
  return s;
}

// sum_o <cotangent_o, output_o> at `values` (f64).
StatusOr<double> Loss(Context& ctx, const Case& c, const std::vector<std::vector<double>>& values,
                      const std::vector<std::vector<double>>& cotangents) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, Inputs(ctx, c, values, PJRT_Buffer_Type_F64));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, RunCase(ctx, c, inputs));
  double loss = 0;
  for (size_t o = 0; o < outputs.size(); ++o) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<double> y, HostF64(outputs[o]));
    loss += Dot(y, cotangents[o]);
  }
  return loss;
}

// The reverse-mode gradient of sum_o <cotangent_o, output_o> for every
// float input, in `type`, as f64 host values.
StatusOr<std::vector<std::vector<double>>> TapeGradient(
    Context& ctx, const Case& c, const std::vector<std::vector<double>>& values,
    const std::vector<std::vector<double>>& cotangents, PJRT_Buffer_Type type) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, Inputs(ctx, c, values, type));
  std::vector<Arg> args = FlatArgs(c);
  Tape tape(ctx);
  std::vector<Tensor> sources;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (IsFloatArg(args[i])) {
      tape.Watch(inputs[i]);
      sources.push_back(inputs[i]);
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, RunCase(ctx, c, inputs));
  std::vector<Tensor> weights;
  for (size_t o = 0; o < outputs.size(); ++o) {
    PLUGRT_ASSIGN_OR_RETURN(eager::TensorType t, outputs[o].type());
    PLUGRT_ASSIGN_OR_RETURN(Tensor w, MakeTensor(ctx, Arg{t.dims}, cotangents[o], t.type));
    weights.push_back(w);
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> grads,
                          tape.Gradient(outputs, sources, weights, UnconnectedGradients::kZero));
  std::vector<std::vector<double>> host;
  for (const Tensor& g : grads) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<double> v, HostF64(g));
    host.push_back(std::move(v));
  }
  return host;
}

class AutodiffRules : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = MakeContext();
    TheContext() = ctx_.get();
  }
  void TearDown() override { TheContext() = nullptr; }
  std::unique_ptr<Context> ctx_;
};

TEST_F(AutodiffRules, EveryRegisteredOpHasACheckCase) {
  std::set<std::string> checked;
  for (const Case& c : Cases()) checked.insert(c.op);
  for (const std::string& op : VjpOpNames()) EXPECT_TRUE(checked.count(op)) << op << " has no case";
  for (const std::string& op : JvpOpNames()) EXPECT_TRUE(checked.count(op)) << op << " has no case";
  for (const std::string& op : checked) {
    EXPECT_NE(FindVjp(op), nullptr) << op << " has a case but no VJP";
  }
}

// The output's cotangents: random, one list per output (of the op's
// output sizes, read from one run).
StatusOr<std::vector<std::vector<double>>> Cotangents(Context& ctx, const Case& c,
                                                      const std::vector<std::vector<double>>& values,
                                                      std::mt19937& rng) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, Inputs(ctx, c, values, PJRT_Buffer_Type_F64));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, RunCase(ctx, c, inputs));
  std::vector<std::vector<double>> cot;
  std::uniform_real_distribution<double> u(-1, 1);
  for (const Tensor& y : outputs) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, y.dims());
    std::vector<double> w(Count(dims));
    for (double& x : w) x = u(rng);
    cot.push_back(std::move(w));
  }
  return cot;
}

TEST_F(AutodiffRules, VjpsMatchFiniteDifferencesAndF32AndBf16MatchF64) {
  std::mt19937 rng(17);
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.label);
    std::vector<std::vector<double>> values = Draw(c, rng);
    auto cot = Cotangents(*ctx_, c, values, rng);
    ASSERT_TRUE(cot.ok()) << cot.status().ToString();
    auto grads = TapeGradient(*ctx_, c, values, *cot, PJRT_Buffer_Type_F64);
    ASSERT_TRUE(grads.ok()) << grads.status().ToString();
    std::vector<Arg> args = FlatArgs(c);
    size_t source = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!IsFloatArg(args[i])) continue;
      const std::vector<double>& g = (*grads)[source++];
      ASSERT_EQ(g.size(), values[i].size()) << "input " << i;
      for (size_t k = 0; k < values[i].size(); ++k) {
        const double h = 1e-6 * std::max(1.0, std::abs(values[i][k]));
        std::vector<std::vector<double>> plus = values, minus = values;
        plus[i][k] += h;
        minus[i][k] -= h;
        auto lp = Loss(*ctx_, c, plus, *cot);
        auto lm = Loss(*ctx_, c, minus, *cot);
        ASSERT_TRUE(lp.ok() && lm.ok());
        const double fd = (*lp - *lm) / (2 * h);
        EXPECT_NEAR(g[k], fd, 1e-5 * (1 + std::abs(fd))) << "input " << i << " element " << k;
      }
    }
    auto grads32 = TapeGradient(*ctx_, c, values, *cot, PJRT_Buffer_Type_F32);
    ASSERT_TRUE(grads32.ok()) << grads32.status().ToString();
    ASSERT_EQ(grads32->size(), grads->size());
    for (size_t s = 0; s < grads->size(); ++s) {
      ASSERT_EQ((*grads32)[s].size(), (*grads)[s].size());
      for (size_t k = 0; k < (*grads)[s].size(); ++k) {
        EXPECT_NEAR((*grads32)[s][k], (*grads)[s][k], 1e-4 * (1 + std::abs((*grads)[s][k])))
            << "f32, source " << s << " element " << k;
      }
    }
    // bf16 against f64 at the same (bf16-representable) inputs and output
    // gradients, within bf16's few significant digits.
    std::vector<std::vector<double>> rounded = values, cot_rounded = *cot;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!IsFloatArg(args[i])) continue;
      for (double& v : rounded[i]) v = RoundToBf16(v);
    }
    for (auto& w : cot_rounded) {
      for (double& v : w) v = RoundToBf16(v);
    }
    auto reference = TapeGradient(*ctx_, c, rounded, cot_rounded, PJRT_Buffer_Type_F64);
    auto grads16 = TapeGradient(*ctx_, c, rounded, cot_rounded, PJRT_Buffer_Type_BF16);
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    ASSERT_TRUE(grads16.ok()) << grads16.status().ToString();
    ASSERT_EQ(grads16->size(), reference->size());
    for (size_t s = 0; s < reference->size(); ++s) {
      ASSERT_EQ((*grads16)[s].size(), (*reference)[s].size());
      for (size_t k = 0; k < (*reference)[s].size(); ++k) {
        EXPECT_NEAR((*grads16)[s][k], (*reference)[s][k],
                    3e-2 * (1 + std::abs((*reference)[s][k])))
            << "bf16, source " << s << " element " << k;
      }
    }
  }
}

TEST_F(AutodiffRules, JvpsAgreeWithVjps) {
  std::mt19937 rng(71);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.label);
    std::vector<std::vector<double>> values = Draw(c, rng);
    auto cot = Cotangents(*ctx_, c, values, rng);
    ASSERT_TRUE(cot.ok()) << cot.status().ToString();
    auto grads = TapeGradient(*ctx_, c, values, *cot, PJRT_Buffer_Type_F64);
    ASSERT_TRUE(grads.ok()) << grads.status().ToString();
    // Forward: random tangents v.
    auto inputs = Inputs(*ctx_, c, values, PJRT_Buffer_Type_F64);
    ASSERT_TRUE(inputs.ok());
    std::vector<Arg> args = FlatArgs(c);
    double v_dot_jtu = 0;
    ForwardAccumulator acc(*ctx_);
    size_t source = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!IsFloatArg(args[i])) continue;
      std::vector<double> v(values[i].size());
      for (double& x : v) x = u(rng);
      v_dot_jtu += Dot(v, (*grads)[source++]);
      auto tangent = MakeTensor(*ctx_, args[i], v, PJRT_Buffer_Type_F64);
      ASSERT_TRUE(tangent.ok());
      ASSERT_TRUE(acc.Watch((*inputs)[i], *tangent).ok());
    }
    auto outputs = RunCase(*ctx_, c, *inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    double jv_dot_u = 0;
    for (size_t o = 0; o < outputs->size(); ++o) {
      auto jv = acc.Jvp((*outputs)[o], UnconnectedGradients::kZero);
      ASSERT_TRUE(jv.ok()) << jv.status().ToString();
      if (!*jv) continue;  // an integer output: no tangent
      auto host = HostF64(*jv);
      ASSERT_TRUE(host.ok());
      jv_dot_u += Dot(*host, (*cot)[o]);
    }
    EXPECT_GT(acc.num_jvps(), 0);
    EXPECT_NEAR(jv_dot_u, v_dot_jtu, 1e-9 * (1 + std::abs(v_dot_jtu)));
  }
}

}  // namespace
}  // namespace plugrt::autodiff
