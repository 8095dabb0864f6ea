// oneDNN convolutions and matmuls keep their weights in oneDNN's layout from
// one run to the next (cpu/kernels/onednn_kept_weights.h) only while those
// weights cannot have changed: new weights, the same storage written after
// it was handed over (a donated weight updated in place), and a weight
// buffer rewritten by a donating program are all seen, and every result
// equals the reference kernel's on the weights as they are at that run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "client/client.h"
#include "compile_options/compile_options.h"
#include "cpu/kernels/convolution.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_convolution.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/kept_copy.h"
#include "cpu/kernels/tensor.h"
#include "testutil/convolution_config.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using cpu::ConvolutionConfig;
using cpu::DotDimensions;
using cpu::ElementType;
using cpu::FastConvolution;
using cpu::FastDot;
using cpu::Tensor;

void Fill(float* data, size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) data[i] = u(rng);
}

void ExpectNear(const Tensor& got, const Tensor& want, const char* what) {
  ASSERT_EQ(got.num_elements(), want.num_elements()) << what;
  for (int64_t i = 0; i < got.num_elements(); ++i) {
    ASSERT_NEAR(got.as<float>()[i], want.as<float>()[i], 1e-3) << what << ", element " << i;
  }
}

TEST(KeptWeightsTest, ConvolutionWeightsFollowNewStorageAndWritesAfterAHandOver) {
  const std::vector<int64_t> x_dims = {1, 9, 9, 16}, w_dims = {3, 3, 16, 24};
  const ConvolutionConfig config = testing::Nhwc2D(/*stride=*/1, /*padding=*/1, /*lhs_dilation=*/1);
  std::shared_ptr<const FastConvolution> conv =
      FastConvolution::Plan(x_dims, ElementType::kF32, w_dims, ElementType::kF32, config,
                            ElementType::kF32, 2);
  if (conv == nullptr) GTEST_SKIP() << "oneDNN does not take this convolution here";
  std::mt19937 rng(5);
  Tensor x(ElementType::kF32, x_dims);
  Fill(x.mutable_as<float>(), static_cast<size_t>(x.num_elements()), rng);

  // Weights in storage a device buffer would own: wrapped, not handed over.
  const size_t n = 3 * 3 * 16 * 24;
  auto make_storage = [&]() {
    std::shared_ptr<void> storage(std::malloc(n * sizeof(float)), std::free);
    Fill(static_cast<float*>(storage.get()), n, rng);
    return storage;
  };
  std::shared_ptr<void> first = make_storage();
  auto wrap = [&](const std::shared_ptr<void>& storage, bool exclusive) {
    return Tensor(ElementType::kF32, w_dims, storage, static_cast<std::byte*>(storage.get()),
                  exclusive);
  };
  const Tensor w1 = wrap(first, false);
  for (int run = 0; run < 2; ++run) {  // the second run reads the kept weights
    StatusOr<Tensor> got = conv->Run(x, w1, 2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectNear(*got, cpu::Convolution(x, w1, config, ElementType::kF32), "first weights");
  }

  // Other weights: the result is theirs.
  std::shared_ptr<void> second = make_storage();
  const Tensor w2 = wrap(second, false);
  StatusOr<Tensor> got = conv->Run(x, w2, 2);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectNear(*got, cpu::Convolution(x, w2, config, ElementType::kF32), "second weights");

  // The first storage handed over and written in place (a donated weight an
  // optimizer step updated), then read again through a shared wrap.
  ASSERT_TRUE(conv->Run(x, w1, 2).ok());
  {
    Tensor handed = wrap(first, true);
    float* data = handed.mutable_as<float>();
    for (size_t i = 0; i < n; ++i) data[i] = 0.5f * data[i] + 0.25f;
  }
  const Tensor updated = wrap(first, false);
  got = conv->Run(x, updated, 2);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectNear(*got, cpu::Convolution(x, updated, config, ElementType::kF32), "updated weights");
}

// A batch norm folded into the convolution (cpu/kernels/convolution_epilogue.h)
// keeps the weights times the per-channel factors: kept while the factors'
// values are the same bit for bit (NaN factors included, as a batch norm over
// a negative variance gives), made again when they change.
TEST(KeptWeightsTest, WeightsScaledByABatchNormFollowTheFactors) {
  const std::vector<int64_t> x_dims = {1, 9, 9, 16}, w_dims = {3, 3, 16, 24};
  const ConvolutionConfig config = testing::Nhwc2D(/*stride=*/1, /*padding=*/1, /*lhs_dilation=*/1);
  cpu::ConvolutionEpilogue epilogue;
  epilogue.inputs = {cpu::ConvolutionEpilogue::Operand::kPerChannel,
                     cpu::ConvolutionEpilogue::Operand::kPerChannel};
  epilogue.steps = {{cpu::ConvolutionEpilogue::Kind::kMultiply, 0, 0.f},
                    {cpu::ConvolutionEpilogue::Kind::kAdd, 1, 0.f}};
  std::shared_ptr<const FastConvolution> conv =
      FastConvolution::Plan(x_dims, ElementType::kF32, w_dims, ElementType::kF32, config,
                            ElementType::kF32, 2, &epilogue);
  if (conv == nullptr) GTEST_SKIP() << "oneDNN does not take this convolution with an epilogue here";
  std::mt19937 rng(9);
  Tensor x(ElementType::kF32, x_dims);
  Fill(x.mutable_as<float>(), static_cast<size_t>(x.num_elements()), rng);
  const size_t n = 3 * 3 * 16 * 24;
  std::shared_ptr<void> storage(std::malloc(n * sizeof(float)), std::free);
  Fill(static_cast<float*>(storage.get()), n, rng);
  const Tensor w(ElementType::kF32, w_dims, storage, static_cast<std::byte*>(storage.get()));
  Tensor shift(ElementType::kF32, {24});
  Fill(shift.mutable_as<float>(), 24, rng);
  const Tensor plain = cpu::Convolution(x, w, config, ElementType::kF32);
  auto expect = [&](const Tensor& factor, const char* what) {
    StatusOr<Tensor> got = conv->Run(x, w, 2, {factor, shift});
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    for (int64_t i = 0; i < got->num_elements(); ++i) {
      const float f = factor.as<float>()[i % 24];
      const float want = plain.as<float>()[i] * f + shift.as<float>()[i % 24];
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got->as<float>()[i])) << what << ", element " << i;
      } else {
        ASSERT_NEAR(got->as<float>()[i], want, 1e-3) << what << ", element " << i;
      }
    }
  };
  Tensor factor(ElementType::kF32, {24});
  Fill(factor.mutable_as<float>(), 24, rng);
  factor.mutable_as<float>()[3] = std::nanf("");
  expect(factor, "first factors");
  expect(factor.Clone(), "the same factors in other storage");
  Tensor other = factor.Clone();
  other.mutable_as<float>()[0] *= 2.0f;
  other.mutable_as<float>()[3] = 0.5f;
  expect(other, "changed factors");
  expect(factor, "the first factors again");
}

// The same for matmuls: a [n, k] weight oneDNN reads in its own layout, and
// a [k, n] weight (JAX's kernels) the skinny product reads in its packed
// panels (fast_dot.cc).
void ExpectMatmulWeightsFollowNewStorageAndWritesAfterAHandOver(
    const std::vector<int64_t>& x_dims, const std::vector<int64_t>& w_dims, int64_t w_contracting) {
  DotDimensions dd;
  dd.lhs_contracting = {1};
  dd.rhs_contracting = {w_contracting};
  std::shared_ptr<const FastDot> dot =
      FastDot::Plan(x_dims, ElementType::kF32, w_dims, ElementType::kF32, dd, ElementType::kF32, 2);
  ASSERT_NE(dot, nullptr);
  std::mt19937 rng(7);
  Tensor x(ElementType::kF32, x_dims);
  Fill(x.mutable_as<float>(), static_cast<size_t>(x.num_elements()), rng);
  const size_t n = static_cast<size_t>(w_dims[0] * w_dims[1]);
  auto make_storage = [&]() {
    std::shared_ptr<void> storage(std::malloc(n * sizeof(float)), std::free);
    Fill(static_cast<float*>(storage.get()), n, rng);
    return storage;
  };
  auto wrap = [&](const std::shared_ptr<void>& storage, bool exclusive) {
    return Tensor(ElementType::kF32, w_dims, storage, static_cast<std::byte*>(storage.get()),
                  exclusive);
  };
  auto expect = [&](const Tensor& w, const char* what) {
    StatusOr<Tensor> got = dot->Run(x, w, 2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectNear(*got, cpu::DotGeneral(x, w, dd, ElementType::kF32), what);
  };
  std::shared_ptr<void> first = make_storage();
  const Tensor w1 = wrap(first, false);
  expect(w1, "first weights");
  expect(w1, "first weights, kept");
  std::shared_ptr<void> second = make_storage();
  expect(wrap(second, false), "second weights");
  // Weights a run computed (not shared storage) are never kept.
  Tensor computed(ElementType::kF32, w_dims);
  Fill(computed.mutable_as<float>(), n, rng);
  expect(computed, "computed weights");
  Fill(computed.mutable_as<float>(), n, rng);
  expect(computed, "computed weights, rewritten");
  expect(w1, "first weights again");
  {
    Tensor handed = wrap(first, true);
    float* data = handed.mutable_as<float>();
    for (size_t i = 0; i < n; ++i) data[i] = 0.5f * data[i] + 0.25f;
  }
  expect(wrap(first, false), "updated weights");
}

TEST(KeptWeightsTest, MatmulWeightsFollowNewStorageAndWritesAfterAHandOver) {
  ExpectMatmulWeightsFollowNewStorageAndWritesAfterAHandOver({24, 80}, {72, 80}, 1);
}

TEST(KeptWeightsTest, SkinnyProductPanelsFollowNewStorageAndWritesAfterAHandOver) {
  ExpectMatmulWeightsFollowNewStorageAndWritesAfterAHandOver({3, 80}, {80, 300}, 0);
}

// Seen: the skinny product copies its weights into panels only on the second
// run that sees them unchanged, so weights rewritten before every run are
// never copied at all.
TEST(KeptWeightsTest, SeenTellsWeightsUnchangedSinceTheLastRunFromNewOnes) {
  const cpu::KeptCopy kept;
  const int layout = 0;
  std::shared_ptr<void> storage(std::malloc(4096), std::free);
  auto* data = static_cast<std::byte*>(storage.get());
  const Tensor w(ElementType::kF32, {1024}, storage, data);
  EXPECT_FALSE(kept.Seen(w, &layout));
  EXPECT_TRUE(kept.Seen(w, &layout));
  EXPECT_TRUE(kept.Seen(w, &layout));
  // Handed over (a donated buffer a program may write in place): new.
  { Tensor handed(ElementType::kF32, {1024}, storage, data, /*exclusive=*/true); }
  EXPECT_FALSE(kept.Seen(w, &layout));
  EXPECT_TRUE(kept.Seen(w, &layout));
  // Other storage, another layout, computed weights: new, or never kept.
  std::shared_ptr<void> other(std::malloc(4096), std::free);
  EXPECT_FALSE(kept.Seen(Tensor(ElementType::kF32, {1024}, other,
                                static_cast<std::byte*>(other.get())), &layout));
  EXPECT_FALSE(kept.Seen(w, &layout));
  const int other_layout = 0;
  EXPECT_FALSE(kept.Seen(w, &other_layout));
  const Tensor computed(ElementType::kF32, {1024});
  EXPECT_FALSE(kept.Seen(computed, &layout));
  EXPECT_FALSE(kept.Seen(computed, &layout));
}

// A hand-over moves the generation of the bytes it covers, and of no bytes
// a megabyte or more away from them (KeptCopy's copies of other weights stay).
TEST(KeptWeightsTest, AHandOverMovesTheGenerationOfTheBytesItCoversOnly) {
  constexpr size_t kMiB = size_t{1} << 20;
  std::shared_ptr<void> block(std::aligned_alloc(kMiB, 16 * kMiB), std::free);
  ASSERT_NE(block, nullptr);
  auto* base = static_cast<std::byte*>(block.get());
  const std::byte* weights = base;                   // [0, 4 MiB)
  std::byte* donated = base + 8 * kMiB;              // [8 MiB, 12 MiB)
  const uint64_t weights_before = Tensor::HandOverGeneration(weights, 4 * kMiB);
  const uint64_t donated_before = Tensor::HandOverGeneration(donated, 4 * kMiB);
  const uint64_t tail_before = Tensor::HandOverGeneration(donated + 4 * kMiB - 16, 16);
  { Tensor handed(ElementType::kF32, {int64_t{1} << 20}, block, donated, /*exclusive=*/true); }
  EXPECT_EQ(Tensor::HandOverGeneration(weights, 4 * kMiB), weights_before);
  EXPECT_NE(Tensor::HandOverGeneration(donated, 4 * kMiB), donated_before);
  EXPECT_NE(Tensor::HandOverGeneration(donated + 4 * kMiB - 16, 16), tail_before);
  // A shared wrap is no hand-over.
  const uint64_t shared_before = Tensor::HandOverGeneration(weights, 4 * kMiB);
  { Tensor shared(ElementType::kF32, {int64_t{1} << 20}, block, base); }
  EXPECT_EQ(Tensor::HandOverGeneration(weights, 4 * kMiB), shared_before);
}

std::string Conv(const std::string& x, const std::string& w) {
  return "stablehlo.convolution(" + x + ", " + w +
         ") dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = "
         "[[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
         "(tensor<1x9x9x16xf32>, tensor<3x3x16x24xf32>) -> tensor<1x9x9x24xf32>";
}

std::string TensorType(const std::vector<int64_t>& dims) {
  std::string out = "tensor<";
  for (int64_t d : dims) out += std::to_string(d) + "x";
  return out + "f32>";
}

// Through the plugin: a forward program (`op` of %x and %w) run on a weight
// buffer, an update program that donates that buffer and writes its result
// into the same storage, and the forward program again on the update's
// result: halving every weight halves every output.
void ExpectAWeightBufferRewrittenByADonatingProgramIsSeen(const std::string& op,
                                                          const std::vector<int64_t>& x_dims,
                                                          const std::vector<int64_t>& w_dims,
                                                          const std::vector<int64_t>& y_dims) {
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  const std::string x_type = TensorType(x_dims), w_type = TensorType(w_dims),
                    y_type = TensorType(y_dims);
  const std::string forward = "func.func @main(%x: " + x_type + ", %w: " + w_type + ") -> " +
                              y_type + " {\n  %y = " + op + "\n  return %y : " + y_type + "\n}\n";
  const std::string update =
      "func.func @main(%w: " + w_type + " {tf.aliasing_output = 0 : i32}) -> " + w_type + " {\n" +
      "  %h = stablehlo.constant dense<0.5> : " + w_type + "\n" +
      "  %v = stablehlo.multiply %w, %h : " + w_type + "\n" + "  return %v : " + w_type + "\n}\n";
  StatusOr<LoadedExecutable> run = (*client)->Compile(forward, CompileOptions());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  StatusOr<LoadedExecutable> step = (*client)->Compile(update, CompileOptions());
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  StatusOr<std::vector<Device>> devices = (*client)->addressable_devices();
  ASSERT_TRUE(devices.ok());
  std::mt19937 rng(9);
  auto count = [](const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return static_cast<size_t>(n);
  };
  std::vector<float> xs(count(x_dims)), ws(count(w_dims));
  Fill(xs.data(), xs.size(), rng);
  Fill(ws.data(), ws.size(), rng);
  Buffer x = testing::Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, x_dims, xs);
  Buffer w = testing::Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, w_dims, ws);

  auto forward_on = [&](Buffer& weights) {
    StatusOr<std::vector<std::vector<Buffer>>> out = run->Execute({{&x, &weights}});
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? testing::Download<float>((*out)[0][0]) : std::vector<float>();
  };
  const std::vector<float> before = forward_on(w);
  EXPECT_EQ(forward_on(w), before);
  StatusOr<uintptr_t> w_pointer = w.unsafe_pointer();
  ASSERT_TRUE(w_pointer.ok());
  StatusOr<std::vector<std::vector<Buffer>>> halved = step->Execute({{&w}});
  ASSERT_TRUE(halved.ok()) << halved.status().ToString();
  Buffer& w_half = (*halved)[0][0];
  // The update went into the donated buffer's own storage.
  StatusOr<uintptr_t> half_pointer = w_half.unsafe_pointer();
  ASSERT_TRUE(half_pointer.ok());
  ASSERT_EQ(*half_pointer, *w_pointer);
  const std::vector<float> after = forward_on(w_half);
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < after.size(); ++i) {
    ASSERT_NEAR(after[i], 0.5f * before[i], 1e-4) << "element " << i;
  }
}

TEST(KeptWeightsTest, AWeightBufferRewrittenByADonatingProgramIsSeen) {
  ExpectAWeightBufferRewrittenByADonatingProgramIsSeen(Conv("%x", "%w"), {1, 9, 9, 16},
                                                       {3, 3, 16, 24}, {1, 9, 9, 24});
}

TEST(KeptWeightsTest, APanelPackedWeightRewrittenByADonatingProgramIsSeen) {
  ExpectAWeightBufferRewrittenByADonatingProgramIsSeen(
      "stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x96xf32>, "
      "tensor<96x400xf32>) -> tensor<2x400xf32>",
      {2, 96}, {96, 400}, {2, 400});
}

// A program's constants are kept in the kernels' layouts as arguments are
// (panels for the skinny product, oneDNN's layout for a convolution), and
// stay as they are: the program returns its constant weight too, a second
// program donates that output and halves it in place, and the first program
// run again still sees the constant as written.
TEST(KeptWeightsTest, ConstantWeightsAreKeptAndNeverWritten) {
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto dense = [&](int64_t count, std::vector<float>& values) {
    std::string text = "dense<[";
    for (int64_t i = 0; i < count; ++i) {
      values.push_back(u(rng));
      text += (i == 0 ? "" : ", ") + std::to_string(values.back());
      values.back() = std::stof(std::to_string(values.back()));  // as printed
    }
    return text + "]>";
  };
  std::vector<float> wd, wc;
  const std::string dot_weights = dense(64 * 200, wd), conv_weights = dense(3 * 3 * 16 * 24, wc);
  const std::string program =
      "func.func @main(%x: tensor<2x64xf32>, %i: tensor<1x9x9x16xf32>) -> (tensor<2x200xf32>, "
      "tensor<64x200xf32>, tensor<1x9x9x24xf32>) {\n"
      "  %w0 = stablehlo.constant " + dot_weights + " : tensor<12800xf32>\n"
      "  %w = stablehlo.reshape %w0 : (tensor<12800xf32>) -> tensor<64x200xf32>\n"
      "  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x64xf32>, "
      "tensor<64x200xf32>) -> tensor<2x200xf32>\n"
      "  %k0 = stablehlo.constant " + conv_weights + " : tensor<3456xf32>\n"
      "  %k = stablehlo.reshape %k0 : (tensor<3456xf32>) -> tensor<3x3x16x24xf32>\n"
      "  %c = " + Conv("%i", "%k") + "\n"
      "  return %y, %w, %c : tensor<2x200xf32>, tensor<64x200xf32>, tensor<1x9x9x24xf32>\n}\n";
  const std::string halve =
      "func.func @main(%w: tensor<64x200xf32> {tf.aliasing_output = 0 : i32}) -> "
      "tensor<64x200xf32> {\n"
      "  %h = stablehlo.constant dense<0.5> : tensor<64x200xf32>\n"
      "  %v = stablehlo.multiply %w, %h : tensor<64x200xf32>\n"
      "  return %v : tensor<64x200xf32>\n}\n";
  StatusOr<LoadedExecutable> run = (*client)->Compile(program, CompileOptions());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  StatusOr<LoadedExecutable> step = (*client)->Compile(halve, CompileOptions());
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  StatusOr<std::vector<Device>> devices = (*client)->addressable_devices();
  ASSERT_TRUE(devices.ok());
  std::vector<float> xs(2 * 64), is(9 * 9 * 16);
  Fill(xs.data(), xs.size(), rng);
  Fill(is.data(), is.size(), rng);
  Buffer x = testing::Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, {2, 64}, xs);
  Buffer i = testing::Upload<float>(**client, (*devices)[0], PJRT_Buffer_Type_F32, {1, 9, 9, 16},
                                    is);
  // The references: the reference kernels on the constants' values.
  Tensor xt(ElementType::kF32, {2, 64}), wt(ElementType::kF32, {64, 200});
  std::memcpy(xt.mutable_as<float>(), xs.data(), xs.size() * sizeof(float));
  std::memcpy(wt.mutable_as<float>(), wd.data(), wd.size() * sizeof(float));
  DotDimensions dd;
  dd.lhs_contracting = {1};
  dd.rhs_contracting = {0};
  const Tensor want_y = cpu::DotGeneral(xt, wt, dd, ElementType::kF32);
  Tensor it(ElementType::kF32, {1, 9, 9, 16}), kt(ElementType::kF32, {3, 3, 16, 24});
  std::memcpy(it.mutable_as<float>(), is.data(), is.size() * sizeof(float));
  std::memcpy(kt.mutable_as<float>(), wc.data(), wc.size() * sizeof(float));
  const Tensor want_c = cpu::Convolution(
      it, kt, testing::Nhwc2D(/*stride=*/1, /*padding=*/1, /*lhs_dilation=*/1), ElementType::kF32);
  auto expect_near = [](const std::vector<float>& got, const Tensor& want, const char* what) {
    ASSERT_EQ(static_cast<int64_t>(got.size()), want.num_elements()) << what;
    for (size_t e = 0; e < got.size(); ++e) {
      ASSERT_NEAR(got[e], want.as<float>()[e], 1e-4) << what << ", element " << e;
    }
  };
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    StatusOr<std::vector<std::vector<Buffer>>> out = run->Execute({{&x, &i}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    expect_near(testing::Download<float>((*out)[0][0]), want_y, "product");
    expect_near(testing::Download<float>((*out)[0][2]), want_c, "convolution");
    ASSERT_EQ(testing::Download<float>((*out)[0][1]), wd);
    // The returned constant, donated and halved in place.
    StatusOr<std::vector<std::vector<Buffer>>> halved = step->Execute({{&(*out)[0][1]}});
    ASSERT_TRUE(halved.ok()) << halved.status().ToString();
    const std::vector<float> half = testing::Download<float>((*halved)[0][0]);
    ASSERT_EQ(half.size(), wd.size());
    for (size_t e = 0; e < half.size(); ++e) ASSERT_EQ(half[e], 0.5f * wd[e]) << e;
  }
}

}  // namespace
}  // namespace plugrt
