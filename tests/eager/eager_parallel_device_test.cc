// The parallel device (src/eager/parallel_device.h) over four CPU devices:
// pack and unpack, ops on every component equal to per-device runs, the
// device-id op, lazily computed shapes with unknown axes, a failing
// component, and collectives run as one multi-device execution.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "eager/context.h"
#include "eager/parallel_device.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"

namespace plugrt::eager {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kDevices = {"cpu:0", "cpu:1", "cpu:2", "cpu:3"};

class EagerParallel : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ContextOptions options;
    options.async = GetParam();
    ctx_ = testing::MakeEagerContext(options, static_cast<int>(kDevices.size()));
    ASSERT_NE(ctx_, nullptr);
    auto device = RegisterParallelDevice(*ctx_, "par", kDevices);
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
  }

  // Component i: `values` times (i + 1), on cpu:i.
  Tensor Packed(std::vector<float> values, std::vector<int64_t> dims) {
    std::vector<Tensor> parts;
    for (size_t i = 0; i < kDevices.size(); ++i) {
      std::vector<float> scaled = values;
      for (float& v : scaled) v *= static_cast<float>(i + 1);
      parts.push_back(*ctx_->FromVector<float>(scaled, dims, kDevices[i]));
    }
    auto packed = ctx_->Pack(parts, "par");
    EXPECT_TRUE(packed.ok()) << packed.status().ToString();
    return packed.ok() ? *packed : Tensor();
  }

  std::vector<Tensor> Unpacked(const Tensor& t) {
    auto parts = UnpackParallel(t);
    EXPECT_TRUE(parts.ok()) << parts.status().ToString();
    return parts.ok() ? *parts : std::vector<Tensor>();
  }

  std::unique_ptr<Context> ctx_;
  ParallelDevice* device_ = nullptr;
};

StatusOr<std::vector<Tensor>> RunOp(Context& ctx, const std::string& name,
                                  const std::vector<Tensor>& inputs,
                                  const std::optional<std::string>& device = std::nullopt) {
  Op op(ctx, name);
  if (device) op.SetDevice(*device);
  for (const Tensor& t : inputs) PLUGRT_RETURN_IF_ERROR(op.AddInput(t));
  return op.Execute();
}

TEST_P(EagerParallel, OpsOnEveryComponentEqualPerDeviceRuns) {
  Tensor x = Packed({1, 2, 3}, {3});
  Tensor c = *ctx_->FromVector<float>({10, 20, 30}, {3}, "cpu:1");  // physical: broadcast
  auto sum = RunOp(*ctx_, "stablehlo.add", {x, c});
  ASSERT_TRUE(sum.ok()) << sum.status().ToString();
  auto product = RunOp(*ctx_, "stablehlo.multiply", {(*sum)[0], x});
  ASSERT_TRUE(product.ok()) << product.status().ToString();
  EXPECT_EQ((*product)[0].device_name(), "par");
  std::vector<Tensor> got = Unpacked((*product)[0]);
  std::vector<Tensor> parts = Unpacked(x);
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].device_name(), kDevices[i]);
    // The same two ops run on device i alone.
    Tensor ci = *ctx_->CopyToDevice(c, kDevices[i]);
    auto s = RunOp(*ctx_, "stablehlo.add", {parts[i], ci}, kDevices[i]);
    ASSERT_TRUE(s.ok());
    auto p = RunOp(*ctx_, "stablehlo.multiply", {(*s)[0], parts[i]}, kDevices[i]);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*got[i].ToVector<float>(), *(*p)[0].ToVector<float>()) << "component " << i;
  }
  EXPECT_EQ(*got[2].ToVector<float>(), (std::vector<float>{3 * 13, 6 * 26, 9 * 39}));
  EXPECT_EQ(*(*product)[0].dims(), (std::vector<int64_t>{3}));
  EXPECT_EQ(*(*product)[0].dtype(), PJRT_Buffer_Type_F32);
  // A broadcast copy onto the device, and no copy off it as one value.
  auto everywhere = ctx_->CopyToDevice(c, "par");
  ASSERT_TRUE(everywhere.ok()) << everywhere.status().ToString();
  EXPECT_EQ(*Unpacked(*everywhere)[3].ToVector<float>(), (std::vector<float>{10, 20, 30}));
  auto host = x.ToHost();
  EXPECT_EQ(host.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(host.status().message(), HasSubstr("UnpackParallel"));
  EXPECT_THAT(x.Summary(), HasSubstr("f32[3] on par {f32[3] on cpu:0 [1, 2, 3], "));
}

TEST_P(EagerParallel, DeviceIdOp) {
  Op ids(*ctx_, std::string(kDeviceIdOp));
  ids.SetDevice("par");
  auto out = ids.Execute();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<Tensor> parts = Unpacked((*out)[0]);
  ASSERT_EQ(parts.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(*parts[i].ToVector<int64_t>(), (std::vector<int64_t>{static_cast<int64_t>(i)}));
    EXPECT_EQ(parts[i].device_name(), kDevices[i]);
  }
  // Off a parallel device there is one device: 0.
  Op single(*ctx_, std::string(kDeviceIdOp));
  single.SetDevice("cpu:2");
  auto zero = single.Execute();
  ASSERT_TRUE(zero.ok()) << zero.status().ToString();
  EXPECT_EQ(*(*zero)[0].ToVector<int64_t>(), (std::vector<int64_t>{0}));
}

TEST_P(EagerParallel, ShapeIsLazyWithUnknownAxesAndPackChecks) {
  std::vector<Tensor> parts;
  for (int64_t i = 0; i < 4; ++i) {
    parts.push_back(*ctx_->FromVector<float>(std::vector<float>(2 * (i % 2 + 1), 1.f),
                                             {2, i % 2 + 1}, kDevices[i]));
  }
  auto ragged = ctx_->Pack(parts, "par");
  ASSERT_TRUE(ragged.ok()) << ragged.status().ToString();
  EXPECT_EQ(*ragged->dims(), (std::vector<int64_t>{2, kUnknownDim}));
  EXPECT_THAT(ragged->Summary(), HasSubstr("f32[2,?] on par"));
  // Components elsewhere are moved to their device; dtypes must agree.
  parts[3] = *ctx_->FromVector<float>({1, 1}, {2, 1}, "cpu:0");
  auto moved = ctx_->Pack(parts, "par");
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_EQ(Unpacked(*moved)[3].device_name(), "cpu:3");
  parts[1] = *ctx_->FromVector<int32_t>({1, 1}, {2, 1}, "cpu:1");
  auto mixed = ctx_->Pack(parts, "par");
  EXPECT_EQ(mixed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(mixed.status().message(), HasSubstr("component 1 is s32 but component 0 is f32"));
  auto short_pack = ctx_->Pack({parts[0]}, "par");
  EXPECT_THAT(short_pack.status().message(), HasSubstr("takes 4 tensors"));
  parts[1] = *ctx_->FromVector<float>({1, 1, 1}, {3}, "cpu:1");
  auto ranks = ctx_->Pack(parts, "par");
  ASSERT_TRUE(ranks.ok());
  EXPECT_EQ(ranks->dims().status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(RegisterParallelDevice(*ctx_, "p2", {"cpu:0", "cpu:0"}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RegisterParallelDevice(*ctx_, "p3", {}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(RegisterParallelDevice(*ctx_, "p4", {"cpu:7"}).status().code(), StatusCode::kNotFound);
}

TEST_P(EagerParallel, AFailingComponentIsTheError) {
  // Component 2 holds 3 values where the others hold 2: reshaping to [2]
  // fails there alone.
  std::vector<Tensor> parts;
  for (int64_t i = 0; i < 4; ++i) {
    const int64_t n = i == 2 ? 3 : 2;
    parts.push_back(*ctx_->FromVector<float>(std::vector<float>(n, 1.f), {n}, kDevices[i]));
  }
  Tensor x = *ctx_->Pack(parts, "par");
  Op reshape(*ctx_, "stablehlo.reshape");
  ASSERT_TRUE(reshape.SetAttr("shape", Shape{{2, 1}}).ok());
  ASSERT_TRUE(reshape.AddInput(x).ok());
  const int64_t misses = ctx_->cache_stats().misses;
  auto out = reshape.Execute();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument) << out.status().ToString();
  EXPECT_THAT(out.status().message(), HasSubstr("parallel device par, component 2 (cpu:2): "));
  EXPECT_THAT(out.status().message(), HasSubstr("stablehlo.reshape"));
  // Components 0 to 2 were compiled (2 failing); component 3 was cancelled.
  EXPECT_EQ(ctx_->cache_stats().misses, misses + 3);
  EXPECT_TRUE(ctx_->Wait().ok());  // the failure was the op's, not the executor's
  // The device still works afterwards.
  auto ok = RunOp(*ctx_, "stablehlo.add", {x, x});
  EXPECT_EQ(ok.status().code(), StatusCode::kOk);
}

constexpr const char* kCollectiveFunctions = R"(
func.func @sum_and_gather(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<8xf32>) {
  %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
      replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<8xf32>
  return %sum, %all : tensor<2xf32>, tensor<8xf32>
}
)";

TEST_P(EagerParallel, CollectivesRunAsOneMultiDeviceExecution) {
  ASSERT_TRUE(ctx_->LoadFunctions(kCollectiveFunctions).ok());
  Tensor x = Packed({1, 2}, {2});
  std::vector<Tensor> parts = Unpacked(x);
  const int64_t misses = ctx_->cache_stats().misses;
  Op call(*ctx_, "sum_and_gather");
  ASSERT_TRUE(call.AddInput(x).ok());
  auto out = call.Execute();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // One program for the four devices, not one per device.
  EXPECT_EQ(ctx_->cache_stats().misses, misses + 1);
  ASSERT_EQ(out->size(), 2u);
  // The same sums and concatenation, computed device by device on cpu:0.
  Tensor sum = *ctx_->CopyToDevice(parts[0], "cpu:0");
  for (size_t i = 1; i < 4; ++i) {
    sum = (*RunOp(*ctx_, "stablehlo.add", {sum, *ctx_->CopyToDevice(parts[i], "cpu:0")}))[0];
  }
  Op concat(*ctx_, "stablehlo.concatenate");
  ASSERT_TRUE(concat.SetAttr("dimension", int64_t{0}).ok());
  std::vector<Tensor> on0;
  for (const Tensor& p : parts) on0.push_back(*ctx_->CopyToDevice(p, "cpu:0"));
  ASSERT_TRUE(concat.AddInputList(on0).ok());
  Tensor gathered = (*concat.Execute())[0];
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(*Unpacked((*out)[0])[i].ToVector<float>(), *sum.ToVector<float>()) << i;
    EXPECT_EQ(*Unpacked((*out)[1])[i].ToVector<float>(), *gathered.ToVector<float>()) << i;
  }
  EXPECT_EQ(*sum.ToVector<float>(), (std::vector<float>{10, 20}));
}

TEST_P(EagerParallel, CollectiveOpsByNameWithReplicaGroups) {
  Tensor x = Packed({1, 2}, {2});
  // Groups {0,1} and {2,3}.
  DenseTensor groups{TensorType{PJRT_Buffer_Type_S64, {2, 2}}, {}};
  const int64_t ids[] = {0, 1, 2, 3};
  groups.data.resize(sizeof(ids));
  std::memcpy(groups.data.data(), ids, sizeof(ids));
  Op reduce(*ctx_, "stablehlo.all_reduce");
  ASSERT_TRUE(reduce.SetAttr("replica_groups", groups).ok());
  ASSERT_TRUE(reduce.SetAttr("computation", Reducer::kMax).ok());
  ASSERT_TRUE(reduce.AddInput(x).ok());
  auto maxed = reduce.Execute();
  ASSERT_TRUE(maxed.ok()) << maxed.status().ToString();
  std::vector<Tensor> m = Unpacked((*maxed)[0]);
  EXPECT_EQ(*m[0].ToVector<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(*m[1].ToVector<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(*m[2].ToVector<float>(), (std::vector<float>{4, 8}));
  EXPECT_EQ(*m[3].ToVector<float>(), (std::vector<float>{4, 8}));

  Op gather(*ctx_, "stablehlo.all_gather");
  ASSERT_TRUE(gather.SetAttr("replica_groups", groups).ok());
  ASSERT_TRUE(gather.SetAttr("all_gather_dim", int64_t{0}).ok());
  ASSERT_TRUE(gather.AddInput(x).ok());
  auto all = gather.Execute();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*(*all)[0].dims(), (std::vector<int64_t>{4}));
  EXPECT_EQ(*Unpacked((*all)[0])[3].ToVector<float>(), (std::vector<float>{3, 6, 4, 8}));

  Op replica(*ctx_, "stablehlo.replica_id");
  replica.SetDevice("par");
  auto rid = replica.Execute();
  ASSERT_TRUE(rid.ok()) << rid.status().ToString();
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(*Unpacked((*rid)[0])[i].ToVector<uint32_t>(), (std::vector<uint32_t>{i}));
  }
  // One program runs on every device: components of different shapes are
  // refused, naming both.
  std::vector<Tensor> ragged;
  for (int64_t i = 0; i < 4; ++i) {
    const int64_t n = i == 1 ? 3 : 2;
    ragged.push_back(*ctx_->FromVector<float>(std::vector<float>(n, 1.f), {n}, kDevices[i]));
  }
  Op uneven(*ctx_, "stablehlo.all_reduce");
  ASSERT_TRUE(uneven.SetAttr("replica_groups", groups).ok());
  ASSERT_TRUE(uneven.SetAttr("computation", Reducer::kAdd).ok());
  ASSERT_TRUE(uneven.AddInput(*ctx_->Pack(ragged, "par")).ok());
  auto refused_types = uneven.Execute();
  EXPECT_EQ(refused_types.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused_types.status().message(),
              HasSubstr("the same types: cpu:1 has (f32[3]), cpu:0 has (f32[2])"));
  // A malformed group attribute is the op's error.
  Op bad(*ctx_, "stablehlo.all_reduce");
  ASSERT_TRUE(bad.SetAttr("replica_groups", std::vector<int64_t>{0, 1}).ok());
  ASSERT_TRUE(bad.SetAttr("computation", Reducer::kAdd).ok());
  ASSERT_TRUE(bad.AddInput(x).ok());
  auto refused = bad.Execute();
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("replica_groups"));
}

// Over the example plugin (one device, no compiler): what needs no program
// works, and an op fails as the plugin says, naming the component.
TEST(EagerParallelOverExamplePlugin, PackUnpackDeviceIdAndClearOpErrors) {
  auto ctx = Context::Create(PLUGRT_EXAMPLE_PLUGIN_PATH);
  ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
  const std::string only = (*ctx)->devices()[0].name;
  ASSERT_TRUE(RegisterParallelDevice(**ctx, "par", {only}).ok());
  auto x = (*ctx)->FromVector<int32_t>({4, 5}, {2}, "par");  // a broadcast onto it
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(*x->dims(), (std::vector<int64_t>{2}));
  auto parts = UnpackParallel(*x);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 1u);
  EXPECT_EQ(*(*parts)[0].ToVector<int32_t>(), (std::vector<int32_t>{4, 5}));
  Op ids(**ctx, std::string(kDeviceIdOp));
  ids.SetDevice("par");
  auto id = ids.Execute();
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(*(*UnpackParallel((*id)[0]))[0].ToVector<int64_t>(), (std::vector<int64_t>{0}));
  auto sum = RunOp(**ctx, "stablehlo.add", {*x, *x});
  EXPECT_EQ(sum.status().code(), StatusCode::kUnimplemented) << sum.status().ToString();
  EXPECT_THAT(sum.status().message(), HasSubstr("parallel device par, component 0"));
}

INSTANTIATE_TEST_SUITE_P(Executors, EagerParallel, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Async" : "Sync"; });

}  // namespace
}  // namespace plugrt::eager
