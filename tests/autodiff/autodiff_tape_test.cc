// The gradient tape (src/autodiff/tape.h) over the eager layer on the CPU
// plugin: what it records, gradients of compositions against their
// derivatives worked by hand, persistence, pruning, stop_gradient,
// unconnected and integer sources, nesting (Hessian-vector products),
// custom and parallel devices, the async executor, user VJPs and the error
// for ops without one; and the forward accumulator's basics.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/forward_accumulator.h"
#include "autodiff/jvp_registry.h"
#include "autodiff/tape.h"
#include "autodiff/vjp_registry.h"
#include "eager/context.h"
#include "eager/logging_device.h"
#include "eager/parallel_device.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"

namespace plugrt::autodiff {
namespace {

using eager::Op;
using ::testing::ElementsAre;
using ::testing::DoubleNear;
using ::testing::HasSubstr;

std::unique_ptr<Context> MakeContext(bool async = false) {
  eager::ContextOptions options;
  options.async = async;
  return testing::MakeEagerContext(options);
}

Tensor F64(Context& ctx, std::vector<double> values, std::vector<int64_t> dims) {
  auto t = ctx.FromVector<double>(values, std::move(dims));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

std::vector<double> Values(const Tensor& t) {
  EXPECT_TRUE(t) << "an empty handle";
  if (!t) return {};
  auto v = t.ToVector<double>();
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : std::vector<double>();
}

Tensor Must(StatusOr<Tensor> t) {
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

TEST(AutodiffTape, GradientOfAPolynomialMatchesItsDerivative) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, -2, 3}, {3});
  Tape tape(*ctx);
  tape.Watch(x);
  // y = x*x*x + 2x: dy/dx = 3x^2 + 2.
  Tensor y = Must(m.Add(Must(m.Mul(Must(m.Mul(x, x)), x)), Must(m.Scale(x, 2))));
  EXPECT_GE(tape.num_recorded(), 4);
  auto g = tape.Gradient({y}, {x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_THAT(Values((*g)[0]), ElementsAre(5, 14, 29));
}

TEST(AutodiffTape, OnlyOpsOnWatchedTensorsAreRecorded) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tensor c = F64(*ctx, {3, 4}, {2});
  Tape tape(*ctx);
  Must(m.Mul(c, c));
  EXPECT_EQ(tape.num_recorded(), 0);
  tape.Watch(x);
  Tensor y = Must(m.Mul(x, c));
  EXPECT_EQ(tape.num_recorded(), 1);
  // Unwatched x gives no gradient at all.
  Tape other(*ctx);
  Tensor z = Must(m.Mul(x, c));
  EXPECT_EQ(other.num_recorded(), 0);
  auto g = other.Gradient({z}, {x});
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE((*g)[0]);
}

TEST(AutodiffTape, NonPersistentTapeComputesOneGradientPersistentMany) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {2}, {});
  {
    Tape tape(*ctx);
    tape.Watch(x);
    Tensor y = Must(m.Mul(x, x));
    ASSERT_TRUE(tape.Gradient({y}, {x}).ok());
    EXPECT_EQ(tape.num_recorded(), 0);  // released
    auto again = tape.Gradient({y}, {x});
    EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_THAT(again.status().message(), HasSubstr("persistent"));
  }
  Tape tape(*ctx, /*persistent=*/true);
  tape.Watch(x);
  Tensor y = Must(m.Mul(x, x));
  Tensor z = Must(m.Mul(y, x));
  auto dy = tape.Gradient({y}, {x});
  auto dz = tape.Gradient({z}, {x});
  ASSERT_TRUE(dy.ok() && dz.ok());
  EXPECT_THAT(Values((*dy)[0]), ElementsAre(4));
  EXPECT_THAT(Values((*dz)[0]), ElementsAre(12));
}

TEST(AutodiffTape, GradientsOfReusedTensorsAndSeveralTargetsAreSummed) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tape tape(*ctx, true);
  tape.Watch(x);
  Tensor a = Must(m.Run1("stablehlo.exponential", {x}));
  Tensor b = Must(m.Mul(a, x));  // x e^x
  // d/dx (e^x + x e^x) = e^x + e^x + x e^x.
  auto g = tape.Gradient({a, b}, {x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  std::vector<double> got = Values((*g)[0]);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const double v = i + 1.0;
    EXPECT_NEAR(got[i], (2 + v) * std::exp(v), 1e-12);
  }
  // Output gradients weight the targets.
  Tensor w = F64(*ctx, {10, 100}, {2});
  auto weighted = tape.Gradient({a}, {x}, {w});
  ASSERT_TRUE(weighted.ok());
  EXPECT_THAT(Values((*weighted)[0]),
              ElementsAre(DoubleNear(10 * std::exp(1.0), 1e-9), DoubleNear(100 * std::exp(2.0), 1e-9)));
  // A source that is also a target gets its own output gradient.
  auto self = tape.Gradient({x}, {x});
  ASSERT_TRUE(self.ok());
  EXPECT_THAT(Values((*self)[0]), ElementsAre(1, 1));
}

TEST(AutodiffTape, OpsOffThePathFromSourcesToTargetsArePruned) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tensor w = F64(*ctx, {3, 4}, {2});
  Tape tape(*ctx);
  tape.Watch(x);
  tape.Watch(w);
  Tensor y = Must(m.Mul(x, x));                                 // on the path
  Must(m.Run1("stablehlo.exponential", {x}));                   // leads to no target
  Tensor ww = Must(m.Run1("stablehlo.sine", {w}));              // not from the source
  Tensor t = Must(m.Add(y, ww));                                // on the path
  auto g = tape.Gradient({t}, {x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_THAT(Values((*g)[0]), ElementsAre(2, 4));
  EXPECT_EQ(tape.last_stats().ops_on_tape, 4);
  EXPECT_EQ(tape.last_stats().vjps_run, 2);
  EXPECT_EQ(tape.last_stats().ops_pruned, 2);
}

TEST(AutodiffTape, StopGradientCutsThePath) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {3}, {});
  Tape tape(*ctx);
  tape.Watch(x);
  Tensor frozen = Must(StopGradient(*ctx, x));
  EXPECT_THAT(Values(frozen), ElementsAre(3));
  Tensor y = Must(m.Mul(x, frozen));  // d/dx = frozen, not 2x
  auto g = tape.Gradient({y}, {x});
  ASSERT_TRUE(g.ok());
  EXPECT_THAT(Values((*g)[0]), ElementsAre(3));
}

TEST(AutodiffTape, UnconnectedSourcesGetNothingOrZerosAsAsked) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tensor u = F64(*ctx, {5, 6, 7}, {3});
  Tape tape(*ctx, true);
  tape.Watch(x);
  tape.Watch(u);
  Tensor y = Must(m.Mul(x, x));
  auto none = tape.Gradient({y}, {x, u});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE((*none)[0]);
  EXPECT_FALSE((*none)[1]);
  auto zeros = tape.Gradient({y}, {x, u}, {}, UnconnectedGradients::kZero);
  ASSERT_TRUE(zeros.ok());
  EXPECT_THAT(Values((*zeros)[1]), ElementsAre(0, 0, 0));
}

TEST(AutodiffTape, IntegerAndBooleanTensorsCarryNoGradient) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1.5, 2.5}, {2});
  auto k = ctx->FromVector<int32_t>({2, 3}, {2});
  ASSERT_TRUE(k.ok());
  Tape tape(*ctx, true);
  tape.Watch(x);
  tape.Watch(*k);
  // Through an integer: the path is cut.
  Tensor rounded = Must(m.Convert(Must(m.Convert(x, PJRT_Buffer_Type_S32)), PJRT_Buffer_Type_F64));
  Tensor kk = Must(m.Convert(*k, PJRT_Buffer_Type_F64));
  Tensor y = Must(m.Add(Must(m.Mul(rounded, x)), kk));
  auto g = tape.Gradient({y}, {x, *k}, {}, UnconnectedGradients::kZero);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_THAT(Values((*g)[0]), ElementsAre(1, 2));  // d/dx of rounded * x, rounded constant
  EXPECT_FALSE((*g)[1]);                            // an integer source: never a gradient
  // A boolean target: nothing flows.
  Tensor p = Must(m.Compare(x, x, "GT"));
  auto none = tape.Gradient({p}, {x});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE((*none)[0]);
}

TEST(AutodiffTape, NestedTapesGiveHessianVectorProducts) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2, 3}, {3});
  Tensor v = F64(*ctx, {1, -1, 0.5}, {3});
  Tape outer(*ctx);
  outer.Watch(x);
  Tensor hv;
  {
    Tape inner(*ctx);
    inner.Watch(x);
    // f = sum(x^3 * sin(x)); the gradient is itself recorded by `outer`.
    Tensor f = Must(m.SumAll(Must(m.Mul(Must(m.Mul(Must(m.Mul(x, x)), x)),
                                        Must(m.Run1("stablehlo.sine", {x}))))));
    auto g = inner.Gradient({f}, {x});
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    auto h = outer.Gradient({(*g)[0]}, {x}, {v});
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    hv = (*h)[0];
  }
  // f'' = 6x sin x + 6x^2 cos x - x^3 sin x, the Hessian being diagonal.
  std::vector<double> got = Values(hv);
  const double xs[] = {1, 2, 3}, vs[] = {1, -1, 0.5};
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const double a = xs[i];
    const double f2 = 6 * a * std::sin(a) + 6 * a * a * std::cos(a) - a * a * a * std::sin(a);
    EXPECT_NEAR(got[i], f2 * vs[i], 1e-9) << i;
  }
}

// A small CNN: a strided convolution, tanh, 2x2 max pooling, squared sum.
Tensor Cnn(Context& ctx, const Tensor& x, const Tensor& w) {
  TensorMath m(ctx);
  Op conv(ctx, "stablehlo.convolution");
  for (auto [name, value] : std::vector<std::pair<const char*, int64_t>>{
           {"input_batch_dimension", 0}, {"input_feature_dimension", 1},
           {"kernel_output_feature_dimension", 0}, {"kernel_input_feature_dimension", 1},
           {"output_batch_dimension", 0}, {"output_feature_dimension", 1}}) {
    EXPECT_TRUE(conv.SetAttr(name, value).ok());
  }
  for (const char* name : {"input_spatial_dimensions", "kernel_spatial_dimensions",
                           "output_spatial_dimensions"}) {
    EXPECT_TRUE(conv.SetAttr(name, std::vector<int64_t>{2, 3}).ok());
  }
  EXPECT_TRUE(conv.SetAttr("window_strides", std::vector<int64_t>{2, 1}).ok());
  EXPECT_TRUE(conv.AddInput(x).ok());
  EXPECT_TRUE(conv.AddInput(w).ok());
  auto y = conv.Execute();
  EXPECT_TRUE(y.ok()) << y.status().ToString();
  Tensor t = Must(m.Run1("stablehlo.tanh", {(*y)[0]}));
  Op pool(ctx, "stablehlo.reduce_window");
  EXPECT_TRUE(pool.SetAttr("window_dimensions", std::vector<int64_t>{1, 1, 2, 2}).ok());
  EXPECT_TRUE(pool.SetAttr("body", eager::Reducer::kMax).ok());
  EXPECT_TRUE(pool.AddInputList({t}).ok());
  EXPECT_TRUE(pool.AddInputList({F64(ctx, {-10}, {})}).ok());
  auto pooled = pool.Execute();
  EXPECT_TRUE(pooled.ok()) << pooled.status().ToString();
  return Must(m.SumAll(Must(m.Mul((*pooled)[0], (*pooled)[0]))));
}

TEST(AutodiffTape, HessianVectorProductsThroughConvolutionAndPooling) {
  auto ctx = MakeContext();
  std::vector<double> xv(1 * 1 * 6 * 5), wv(2 * 1 * 2 * 2), vv(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    xv[i] = std::sin(1.7 * i + 0.3);
    vv[i] = std::cos(0.9 * i);
  }
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = 0.5 * std::cos(2.3 * i + 1);
  Tensor w = F64(*ctx, wv, {2, 1, 2, 2});
  // The gradient at x, by a tape.
  auto gradient = [&](const std::vector<double>& at) -> std::vector<double> {
    Tensor x = F64(*ctx, at, {1, 1, 6, 5});
    Tape tape(*ctx);
    tape.Watch(x);
    auto g = tape.Gradient({Cnn(*ctx, x, w)}, {x});
    EXPECT_TRUE(g.ok()) << g.status().ToString();
    return g.ok() ? Values((*g)[0]) : std::vector<double>();
  };
  Tensor x = F64(*ctx, xv, {1, 1, 6, 5});
  Tape outer(*ctx);
  outer.Watch(x);
  Tensor g;
  {
    Tape inner(*ctx);
    inner.Watch(x);
    auto gi = inner.Gradient({Cnn(*ctx, x, w)}, {x});
    ASSERT_TRUE(gi.ok()) << gi.status().ToString();
    g = (*gi)[0];
  }
  auto hv = outer.Gradient({g}, {x}, {F64(*ctx, vv, {1, 1, 6, 5})});
  ASSERT_TRUE(hv.ok()) << hv.status().ToString();
  std::vector<double> got = Values((*hv)[0]);
  // Central differences of the gradient along v.
  const double h = 1e-5;
  std::vector<double> plus = xv, minus = xv;
  for (size_t i = 0; i < xv.size(); ++i) {
    plus[i] += h * vv[i];
    minus[i] -= h * vv[i];
  }
  std::vector<double> gp = gradient(plus), gm = gradient(minus);
  ASSERT_EQ(got.size(), xv.size());
  double largest = 0;
  for (double v : got) largest = std::max(largest, std::abs(v));
  EXPECT_GT(largest, 0.1);  // a real curvature, not zeros on both sides
  ASSERT_EQ(gp.size(), xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    const double fd = (gp[i] - gm[i]) / (2 * h);
    EXPECT_NEAR(got[i], fd, 1e-5 * (1 + std::abs(fd))) << i;
  }
}

TEST(AutodiffTape, RecordsOpsOnCustomAndParallelDevicesOnce) {
  ClientOptions client_options;
  client_options.create_options.push_back({"cpu_device_count", int64_t{2}});
  auto made = Context::Create(plugrt::testing::CpuPluginPath(), client_options);
  ASSERT_TRUE(made.ok());
  Context& ctx = **made;
  TensorMath m(ctx);
  ASSERT_TRUE(eager::RegisterLoggingDevice(ctx, "log", "cpu:1").ok());
  ASSERT_TRUE(eager::RegisterParallelDevice(ctx, "par", {"cpu:0", "cpu:1"}).ok());

  Tensor x = Must(ctx.CopyToDevice(F64(ctx, {2, 3}, {2}), "log"));
  Tape tape(ctx);
  tape.Watch(x);
  Tensor y = Must(m.Mul(Must(m.Run1("stablehlo.sine", {x})), x));  // x sin x
  EXPECT_EQ(tape.num_recorded(), 2);  // the logging device's inner ops are not seen
  auto g = tape.Gradient({y}, {x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ((*g)[0].device_name(), "log");
  std::vector<double> got = Values((*g)[0]);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const double a = i + 2.0;
    EXPECT_NEAR(got[i], std::sin(a) + a * std::cos(a), 1e-12);
  }

  Tensor p = Must(ctx.Pack({F64(ctx, {1, 2}, {2}), F64(ctx, {3, 4}, {2})}, "par"));
  Tape ptape(ctx);
  ptape.Watch(p);
  Tensor q = Must(m.Mul(p, p));
  auto pg = ptape.Gradient({q}, {p});
  ASSERT_TRUE(pg.ok()) << pg.status().ToString();
  auto parts = eager::UnpackParallel((*pg)[0]);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_THAT(Values((*parts)[0]), ElementsAre(2, 4));
  EXPECT_THAT(Values((*parts)[1]), ElementsAre(6, 8));
}

TEST(AutodiffTape, DataParallelGradientsThroughAllReduceOnTheParallelDevice) {
  ClientOptions client_options;
  client_options.create_options.push_back({"cpu_device_count", int64_t{2}});
  auto made = Context::Create(plugrt::testing::CpuPluginPath(), client_options);
  ASSERT_TRUE(made.ok());
  Context& ctx = **made;
  TensorMath m(ctx);
  ASSERT_TRUE(eager::RegisterParallelDevice(ctx, "par", {"cpu:0", "cpu:1"}).ok());
  // The same weights on both components, a different batch on each.
  Tensor w = Must(ctx.CopyToDevice(F64(ctx, {1, -1}, {2}), "par"));
  Tensor x = Must(ctx.Pack({F64(ctx, {1, 2}, {2}), F64(ctx, {3, 4}, {2})}, "par"));
  Tape tape(ctx);
  tape.Watch(w);
  Tensor local = Must(m.SumAll(Must(m.Mul(w, x))));  // per component: <w, x_r>
  eager::DenseTensor groups{eager::TensorType{PJRT_Buffer_Type_S64, {1, 2}}, {}};
  const int64_t ids[] = {0, 1};
  groups.data.resize(sizeof ids);
  std::memcpy(groups.data.data(), ids, sizeof ids);
  Tensor total = Must(m.Run1("stablehlo.all_reduce", {local},
                             {{"replica_groups", groups}, {"computation", eager::Reducer::kAdd}}));
  auto g = tape.Gradient({total}, {w});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  auto parts = eager::UnpackParallel((*g)[0]);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  // Both components' outputs are the total, so each x_r counts twice.
  EXPECT_THAT(Values((*parts)[0]), ElementsAre(2, 4));
  EXPECT_THAT(Values((*parts)[1]), ElementsAre(6, 8));

  // all_gather: every component sees [x_0, x_1]; weighting component r's
  // copy by c_r, x_r's gradient is block r of c_0 + c_1.
  Tape gtape(ctx);
  gtape.Watch(x);
  Tensor gathered = Must(m.Run1("stablehlo.all_gather", {x},
                                {{"replica_groups", groups}, {"all_gather_dim", int64_t{0}}}));
  Tensor weights = Must(ctx.Pack({F64(ctx, {1, 2, 3, 4}, {4}), F64(ctx, {10, 20, 30, 40}, {4})},
                                 "par"));
  auto gg = gtape.Gradient({gathered}, {x}, {weights});
  ASSERT_TRUE(gg.ok()) << gg.status().ToString();
  auto gparts = eager::UnpackParallel((*gg)[0]);
  ASSERT_TRUE(gparts.ok()) << gparts.status().ToString();
  EXPECT_THAT(Values((*gparts)[0]), ElementsAre(11, 22));
  EXPECT_THAT(Values((*gparts)[1]), ElementsAre(33, 44));
}

TEST(AutodiffTape, WorksUnderTheAsyncExecutor) {
  auto ctx = MakeContext(/*async=*/true);
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {0.5, 1}, {2});
  Tape tape(*ctx);
  tape.Watch(x);
  Tensor y = Must(m.Run1("stablehlo.tanh", {x}));
  auto g = tape.Gradient({y}, {x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  std::vector<double> got = Values((*g)[0]);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NEAR(got[0], 1 - std::tanh(0.5) * std::tanh(0.5), 1e-12);
  EXPECT_NEAR(got[1], 1 - std::tanh(1.0) * std::tanh(1.0), 1e-12);
}

// A scatter of update 5 into x[1] with `region` as the update computation;
// the gradient of its result (ones) with respect to x.
StatusOr<std::vector<Tensor>> ScatterGradient(Context& ctx, const Tensor& x,
                                              eager::AttrValue region) {
  Tape tape(ctx);
  tape.Watch(x);
  PLUGRT_ASSIGN_OR_RETURN(Tensor index, ctx.FromVector<int32_t>({1}, {1, 1}));
  Tensor update = F64(ctx, {5}, {1});
  Op scatter(ctx, "stablehlo.scatter");
  PLUGRT_RETURN_IF_ERROR(scatter.SetAttr("inserted_window_dims", std::vector<int64_t>{0}));
  PLUGRT_RETURN_IF_ERROR(scatter.SetAttr("scatter_dims_to_operand_dims", std::vector<int64_t>{0}));
  PLUGRT_RETURN_IF_ERROR(scatter.SetAttr("index_vector_dim", int64_t{1}));
  PLUGRT_RETURN_IF_ERROR(scatter.SetAttr("update_computation", std::move(region)));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInputList({x}));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInput(index));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInputList({update}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> scattered, scatter.Execute());
  return tape.Gradient({scattered[0]}, {x});
}

TEST(AutodiffTape, OpsWithoutAVjpAreUnimplementedByName) {
  auto ctx = MakeContext();
  Tensor x = F64(*ctx, {3, 1, 2}, {3});
  // A scatter keeping the maximum has a rule: x[1] lost to the update.
  auto max = ScatterGradient(*ctx, x, eager::Reducer::kMax);
  ASSERT_TRUE(max.ok()) << max.status().ToString();
  EXPECT_EQ(Values((*max)[0]), (std::vector<double>{1, 0, 1}));
  // An overwrite has one too; another loaded function as the region has
  // none.
  ASSERT_TRUE(ctx->LoadFunctions(R"(
func.func @autodiff_test_overwrite(%a: tensor<f64>, %b: tensor<f64>) -> tensor<f64> {
  return %b : tensor<f64>
}
func.func @autodiff_test_hypot(%a: tensor<f64>, %b: tensor<f64>) -> tensor<f64> {
  %aa = stablehlo.multiply %a, %a : tensor<f64>
  %bb = stablehlo.multiply %b, %b : tensor<f64>
  %s = stablehlo.add %aa, %bb : tensor<f64>
  %r = stablehlo.sqrt %s : tensor<f64>
  return %r : tensor<f64>
}
)").ok());
  auto overwrite = ScatterGradient(*ctx, x, eager::FunctionRef{"autodiff_test_overwrite"});
  ASSERT_TRUE(overwrite.ok()) << overwrite.status().ToString();
  EXPECT_EQ(Values((*overwrite)[0]), (std::vector<double>{1, 0, 1}));
  auto g = ScatterGradient(*ctx, x, eager::FunctionRef{"autodiff_test_hypot"});
  EXPECT_EQ(g.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(g.status().message(), HasSubstr("stablehlo.scatter"));
  EXPECT_THAT(g.status().message(), HasSubstr("@autodiff_test_hypot"));
}

// Trainable variables are watched as they are read, with no Watch call;
// others, and tapes told not to, watch nothing.
TEST(AutodiffTape, TapesWatchTrainableVariablesAsTheyAreRead) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  auto w = eager::Variable::Create("w", F64(*ctx, {1, 2, 3}, {3}));
  auto frozen = eager::Variable::Create("frozen", F64(*ctx, {4, 5, 6}, {3}), false);
  ASSERT_TRUE(w.ok() && frozen.ok());
  {
    Tape tape(*ctx);
    Tensor wv = w->Value(), fv = frozen->Value();
    EXPECT_TRUE(tape.IsWatched(wv));
    EXPECT_FALSE(tape.IsWatched(fv));
    Must(m.Mul(fv, fv));  // on nothing watched: not recorded
    EXPECT_EQ(tape.num_recorded(), 0);
    Tensor y = Must(m.Mul(Must(m.Mul(wv, wv)), fv));  // w^2 f: d/dw = 2 w f
    auto g = tape.Gradient({y}, {wv});
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    EXPECT_THAT(Values((*g)[0]), ElementsAre(8, 20, 36));
  }
  {
    Tape tape(*ctx, /*persistent=*/false, /*watch_accessed_variables=*/false);
    EXPECT_FALSE(tape.IsWatched(w->Value()));
  }
  // Assign: every holder sees the new value, of the same type only.
  eager::Variable alias = *w;
  ASSERT_TRUE(w->Assign(F64(*ctx, {7, 8, 9}, {3})).ok());
  EXPECT_THAT(Values(alias.Value()), ElementsAre(7, 8, 9));
  Status wrong_shape = w->Assign(F64(*ctx, {1, 2}, {2}));
  EXPECT_EQ(wrong_shape.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(wrong_shape.message(), HasSubstr("variable 'w' holds f64[3]"));
  auto wrong_type = ctx->FromVector<float>({1, 2, 3}, {3});
  ASSERT_TRUE(wrong_type.ok());
  EXPECT_EQ(w->Assign(*wrong_type).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(eager::Variable::Create("", F64(*ctx, {1}, {1})).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(eager::Variable::Create("v", Tensor()).status().code(), StatusCode::kInvalidArgument);
}

constexpr char kSquare[] = R"(
func.func @autodiff_test_square(%x: tensor<2xf64>) -> tensor<2xf64> {
  %r = stablehlo.multiply %x, %x : tensor<2xf64>
  return %r : tensor<2xf64>
}
)";

TEST(AutodiffTape, UsersRegisterVjpsForLoadedFunctions) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kSquare).ok());
  Tensor x = F64(*ctx, {3, -1}, {2});
  Tape tape(*ctx, true);
  tape.Watch(x);
  Op square(*ctx, "autodiff_test_square");
  ASSERT_TRUE(square.AddInput(x).ok());
  auto y = square.Execute();
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // Without a rule: differentiated op by op.
  auto before = tape.Gradient({(*y)[0]}, {x});
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_THAT(Values((*before)[0]), ElementsAre(6, -2));
  int calls = 0;
  ASSERT_TRUE(RegisterVjp("autodiff_test_square", [&calls](const VjpCall& c) -> StatusOr<std::vector<Tensor>> {
                ++calls;
                TensorMath m(c.context());
                PLUGRT_ASSIGN_OR_RETURN(Tensor two_x, m.Scale(c.op.inputs()[0], 2.0));
                PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Mul(c.output_grads[0], two_x));
                return std::vector<Tensor>{g};
              }).ok());
  EXPECT_EQ(RegisterVjp("autodiff_test_square", [](const VjpCall&) -> StatusOr<std::vector<Tensor>> {
              return std::vector<Tensor>{};
            }).code(),
            StatusCode::kAlreadyExists);
  auto after = tape.Gradient({(*y)[0]}, {x});
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_THAT(Values((*after)[0]), ElementsAre(6, -2));
  EXPECT_EQ(calls, 1);
  // A rule must answer in kind: one gradient per input, each of its input's
  // type and shape.
  ASSERT_TRUE(RegisterVjp("autodiff_test_square", [](const VjpCall& c) -> StatusOr<std::vector<Tensor>> {
                return std::vector<Tensor>{c.output_grads[0], c.output_grads[0]};
              }, /*replace=*/true).ok());
  auto too_many = tape.Gradient({(*y)[0]}, {x});
  EXPECT_EQ(too_many.status().code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(RegisterVjp("autodiff_test_square", [](const VjpCall& c) -> StatusOr<std::vector<Tensor>> {
                return std::vector<Tensor>{F64(c.context(), {1, 2, 3}, {3})};
              }, /*replace=*/true).ok());
  auto misshapen = tape.Gradient({(*y)[0]}, {x});
  EXPECT_EQ(misshapen.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(misshapen.status().message(), HasSubstr("is f64[3], expected f64[2]"));
}

constexpr char kLayer[] = R"(
func.func @autodiff_test_affine(%w: tensor<2x3xf64>, %x: tensor<3xf64>) -> tensor<2xf64> {
  %b = stablehlo.constant dense<[0.5, -0.5]> : tensor<2xf64>
  %wx = stablehlo.dot_general %w, %x, contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2xf64>
  %z = stablehlo.add %wx, %b : tensor<2xf64>
  return %z : tensor<2xf64>
}
func.func @autodiff_test_layer(%w: tensor<2x3xf64>, %x: tensor<3xf64>) -> tensor<f64> {
  %z = func.call @autodiff_test_affine(%w, %x) : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2xf64>
  %t = stablehlo.tanh %z : tensor<2xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2xf64>, tensor<f64>) -> tensor<f64>
  return %s : tensor<f64>
}
func.func @autodiff_test_sorted(%x: tensor<3xf64>) -> tensor<3xf64> {
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xf64>) -> tensor<3xf64>
  return %s : tensor<3xf64>
}
)";

TEST(AutodiffTape, LoadedFunctionsAreDifferentiatedOpByOp) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kLayer).ok());
  const std::vector<double> wv{0.1, -0.2, 0.3, 0.4, 0.5, -0.6}, xv{1, 2, -1};
  Tensor w = F64(*ctx, wv, {2, 3});
  Tensor x = F64(*ctx, xv, {3});
  Tape tape(*ctx);
  tape.Watch(w);
  tape.Watch(x);
  Op layer(*ctx, "autodiff_test_layer");
  ASSERT_TRUE(layer.AddInput(w).ok());
  ASSERT_TRUE(layer.AddInput(x).ok());
  auto y = layer.Execute();
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  auto g = tape.Gradient({(*y)[0]}, {w, x});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  // sum(tanh(W x + b)): d/dW = s x^T, d/dx = W^T s, s = 1 - tanh^2(W x + b).
  const double b[2] = {0.5, -0.5};
  double sech2[2];
  for (int i = 0; i < 2; ++i) {
    double z = b[i];
    for (int j = 0; j < 3; ++j) z += wv[i * 3 + j] * xv[j];
    sech2[i] = 1 - std::tanh(z) * std::tanh(z);
  }
  std::vector<double> dw = Values((*g)[0]), dx = Values((*g)[1]);
  ASSERT_EQ(dw.size(), 6u);
  ASSERT_EQ(dx.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(dw[i * 3 + j], sech2[i] * xv[j], 1e-12);
  }
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(dx[j], wv[j] * sech2[0] + wv[3 + j] * sech2[1], 1e-12);
  }

  // An op the op-by-op runner cannot give the eager layer: named.
  Tape other(*ctx);
  other.Watch(x);
  Op sorted(*ctx, "autodiff_test_sorted");
  ASSERT_TRUE(sorted.AddInput(x).ok());
  auto s = sorted.Execute();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  auto none = other.Gradient({(*s)[0]}, {x});
  EXPECT_EQ(none.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(none.status().message(), HasSubstr("stablehlo.sort"));
}

constexpr char kHalfSquare[] = R"(
func.func @autodiff_test_half_square(%x: tensor<2xf64>) -> tensor<2xf64> {
  %h = stablehlo.constant dense<0.5> : tensor<2xf64>
  %s = stablehlo.multiply %x, %x : tensor<2xf64>
  %r = stablehlo.multiply %s, %h : tensor<2xf64>
  return %r : tensor<2xf64>
}
)";

TEST(AutodiffForward, UserRulesAndTransposedVjpsGiveTangents) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kHalfSquare).ok());
  Tensor x = F64(*ctx, {3, -1}, {2});
  Tensor v = F64(*ctx, {1, 2}, {2});
  auto run = [&]() {
    Op op(*ctx, "autodiff_test_half_square");
    EXPECT_TRUE(op.AddInput(x).ok());
    return op.Execute();
  };
  {
    // Neither rule: the function's op-by-op VJP, transposed.
    ForwardAccumulator acc(*ctx);
    ASSERT_TRUE(acc.Watch(x, v).ok());
    auto y = run();
    ASSERT_TRUE(y.ok()) << y.status().ToString();
    EXPECT_THAT(Values(*acc.Jvp((*y)[0])), ElementsAre(3, -2));  // x v
  }
  // A VJP of its own: the accumulator transposes it (it is linear in g).
  int vjp_calls = 0;
  ASSERT_TRUE(RegisterVjp("autodiff_test_half_square",
                          [&vjp_calls](const VjpCall& c) -> StatusOr<std::vector<Tensor>> {
                            ++vjp_calls;
                            TensorMath m(c.context());
                            PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Mul(c.output_grads[0],
                                                                    c.op.inputs()[0]));
                            return std::vector<Tensor>{g};
                          })
                  .ok());
  {
    ForwardAccumulator acc(*ctx);
    ASSERT_TRUE(acc.Watch(x, v).ok());
    auto y = run();
    ASSERT_TRUE(y.ok()) << y.status().ToString();
    EXPECT_THAT(Values(*acc.Jvp((*y)[0])), ElementsAre(3, -2));  // x v
    EXPECT_EQ(vjp_calls, 1);
  }
  // A JVP of its own takes precedence (here deliberately 10x, to tell).
  ASSERT_TRUE(RegisterJvp("autodiff_test_half_square",
                          [](const JvpCall& c) -> StatusOr<std::vector<Tensor>> {
                            TensorMath m(c.context());
                            PLUGRT_ASSIGN_OR_RETURN(Tensor t, m.Mul(c.input_tangents[0],
                                                                    c.op.inputs()[0]));
                            PLUGRT_ASSIGN_OR_RETURN(t, m.Scale(t, 10));
                            return std::vector<Tensor>{t};
                          })
                  .ok());
  ForwardAccumulator acc(*ctx);
  ASSERT_TRUE(acc.Watch(x, v).ok());
  auto y = run();
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_THAT(Values(*acc.Jvp((*y)[0])), ElementsAre(30, -20));
}

TEST(AutodiffTape, BadArgumentsAreErrors) {
  auto ctx = MakeContext();
  Tensor x = F64(*ctx, {1}, {1});
  Tape tape(*ctx, true);
  tape.Watch(x);
  EXPECT_EQ(tape.Gradient({Tensor()}, {x}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(tape.Gradient({x}, {Tensor()}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(tape.Gradient({x}, {x}, {x, x}).status().code(), StatusCode::kInvalidArgument);
}

TEST(AutodiffForward, AccumulatorGivesDirectionalDerivatives) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tensor v = F64(*ctx, {1, 10}, {2});
  ForwardAccumulator acc(*ctx);
  ASSERT_TRUE(acc.Watch(x, v).ok());
  EXPECT_EQ(acc.Watch(x, F64(*ctx, {1}, {1})).code(), StatusCode::kInvalidArgument);
  Tensor y = Must(m.Mul(Must(m.Mul(x, x)), x));  // x^3: 3x^2 v
  Tensor s = Must(m.SumAll(y));
  auto jy = acc.Jvp(y);
  ASSERT_TRUE(jy.ok()) << jy.status().ToString();
  EXPECT_THAT(Values(*jy), ElementsAre(3, 120));
  EXPECT_THAT(Values(*acc.Jvp(s)), ElementsAre(123));
  Tensor other = F64(*ctx, {5}, {});
  EXPECT_FALSE(*acc.Jvp(other));
  EXPECT_THAT(Values(*acc.Jvp(other, UnconnectedGradients::kZero)), ElementsAre(0));
}

TEST(AutodiffForward, ForwardOverReverseGivesHessianVectorProducts) {
  auto ctx = MakeContext();
  TensorMath m(*ctx);
  Tensor x = F64(*ctx, {1, 2}, {2});
  Tensor v = F64(*ctx, {1, 1}, {2});
  ForwardAccumulator acc(*ctx);
  ASSERT_TRUE(acc.Watch(x, v).ok());
  Tape tape(*ctx);
  tape.Watch(x);
  Tensor f = Must(m.SumAll(Must(m.Mul(Must(m.Mul(x, x)), x))));
  auto g = tape.Gradient({f}, {x});  // 3x^2, its tangent 6x v
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  auto hv = acc.Jvp((*g)[0]);
  ASSERT_TRUE(hv.ok()) << hv.status().ToString();
  EXPECT_THAT(Values(*hv), ElementsAre(6, 12));
}

}  // namespace
}  // namespace plugrt::autodiff
