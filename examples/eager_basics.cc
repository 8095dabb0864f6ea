// plugrt example: eager execution. Ops run one at a time on tensors that
// live on a device, over any PJRT plugin (here the built-in CPU one).
//
//   build/bin/eager_basics [PLUGIN_PATH]
//
// Prints y = relu(x @ w) row sums and exits non-zero if they are wrong.
#include <cstdio>
#include <vector>

#include "eager/context.h"

using namespace plugrt;
using namespace plugrt::eager;

// Runs one op with the given inputs; returns its first output.
static StatusOr<Tensor> Call(Op& op, const std::vector<Tensor>& inputs) {
  for (const Tensor& input : inputs) PLUGRT_RETURN_IF_ERROR(op.AddInput(input));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, op.Execute());
  return outputs[0];
}

static StatusOr<std::vector<float>> Basics(const std::string& plugin_path) {
  // 1. A context over a plugin: devices, compiled-op cache, executor.
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Context> ctx, Context::Create(plugin_path));

  // 2. Tensors from host data (copied to the default device).
  PLUGRT_ASSIGN_OR_RETURN(Tensor x, ctx->FromVector<float>({1, -2, 3, 4, 5, -6}, {2, 3}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor w, ctx->FromVector<float>({1, 0, 0, 1, 1, 1}, {3, 2}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, ctx->FromVector<float>({0}, {}));

  // 3. Ops by StableHLO name, with attributes. Each (op, attributes, input
  //    shapes) compiles once; later calls hit the cache.
  Op matmul(*ctx, "stablehlo.dot_general");
  PLUGRT_RETURN_IF_ERROR(matmul.SetAttr("lhs_contracting_dimensions", std::vector<int64_t>{1}));
  PLUGRT_RETURN_IF_ERROR(matmul.SetAttr("rhs_contracting_dimensions", std::vector<int64_t>{0}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor xw, Call(matmul, {x, w}));  // f32[2,2]

  Op broadcast(*ctx, "stablehlo.broadcast_in_dim");
  PLUGRT_RETURN_IF_ERROR(broadcast.SetAttr("shape", Shape{{2, 2}}));
  PLUGRT_RETURN_IF_ERROR(broadcast.SetAttr("broadcast_dimensions", std::vector<int64_t>{}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, Call(broadcast, {zero}));

  Op relu(*ctx, "stablehlo.maximum");
  PLUGRT_ASSIGN_OR_RETURN(Tensor y, Call(relu, {xw, zeros}));

  // 4. A list input and a built-in reducer: sum each row.
  Op sum(*ctx, "stablehlo.reduce");
  PLUGRT_RETURN_IF_ERROR(sum.SetAttr("dimensions", std::vector<int64_t>{1}));
  PLUGRT_RETURN_IF_ERROR(sum.SetAttr("body", Reducer::kAdd));
  PLUGRT_RETURN_IF_ERROR(sum.AddInputList({y}));
  PLUGRT_RETURN_IF_ERROR(sum.AddInputList({zero}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> sums, sum.Execute());

  // 5. Back to the host.
  std::printf("y = %s\n", y.Summary().c_str());
  return sums[0].ToVector<float>();
}

int main(int argc, char** argv) {
  std::string plugin_path = argc > 1 ? argv[1] : PLUGRT_EXAMPLE_PLUGIN_PATH;
  StatusOr<std::vector<float>> sums = Basics(plugin_path);
  if (!sums.ok()) {
    std::fprintf(stderr, "eager_basics: %s\n", sums.status().ToString().c_str());
    return 1;
  }
  // x @ w = [[4, 1], [-2, -1]]; relu -> [[4, 1], [0, 0]]; row sums 5 and 0.
  std::printf("row sums: %g %g\n", (*sums)[0], (*sums)[1]);
  if (*sums != std::vector<float>{5, 0}) {
    std::fprintf(stderr, "eager_basics: expected row sums 5 0\n");
    return 1;
  }
  return 0;
}
