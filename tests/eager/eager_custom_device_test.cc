// Custom devices of the eager layer (src/eager/custom_device.h): routing of
// ops to them by placement and by input (the rules written there), custom
// tensor handles and their deallocation, bad registrations, and the logging
// device, over the CPU plugin with two devices and over the SDK's example
// plugin (which compiles nothing).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

#include "eager/context.h"
#include "eager/logging_device.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"

namespace plugrt::eager {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::unique_ptr<Context> MakeContext(const char* plugin = PLUGRT_CPU_PLUGIN_PATH,
                                     ContextOptions options = {}) {
  return testing::MakeEagerContext(std::move(options), 2, plugin);
}

Tensor Floats(Context& ctx, std::vector<float> values, std::string device = "cpu:0") {
  const int64_t n = static_cast<int64_t>(values.size());
  auto t = ctx.FromVector<float>(values, {n}, device);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

StatusOr<std::vector<Tensor>> Binary(Context& ctx, const std::string& name, const Tensor& a,
                                     const Tensor& b, std::optional<std::string> device = {}) {
  Op op(ctx, name);
  if (device) op.SetDevice(*device);
  PLUGRT_RETURN_IF_ERROR(op.AddInput(a));
  PLUGRT_RETURN_IF_ERROR(op.AddInput(b));
  return op.Execute();
}

TEST(EagerCustomDevice, LoggingDeviceSeesOpsPlacedOnItOrFedFromIt) {
  auto ctx = MakeContext();
  auto log = RegisterLoggingDevice(*ctx, "log", "cpu:0");
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  Tensor a = Floats(*ctx, {1, 2, 3});
  // A physical-only op is not routed to it (rule 4).
  ASSERT_TRUE(Binary(*ctx, "stablehlo.add", a, a).ok());
  EXPECT_TRUE((*log)->log().empty());
  // Placed on it (rule 1), with physical inputs.
  auto placed = Binary(*ctx, "stablehlo.add", a, a, "log");
  ASSERT_TRUE(placed.ok()) << placed.status().ToString();
  Tensor on_log = (*placed)[0];
  EXPECT_TRUE(on_log.is_custom());
  EXPECT_EQ(on_log.device_name(), "log");
  EXPECT_EQ(*on_log.ToVector<float>(), (std::vector<float>{2, 4, 6}));
  // Fed from it (rule 2): the op follows its input there.
  auto fed = Binary(*ctx, "stablehlo.multiply", on_log, a);
  ASSERT_TRUE(fed.ok()) << fed.status().ToString();
  EXPECT_EQ((*fed)[0].device_name(), "log");
  EXPECT_EQ(*(*fed)[0].ToVector<float>(), (std::vector<float>{2, 8, 18}));
  // A physical device asked for reaches the custom device, which honours it.
  auto asked = Binary(*ctx, "stablehlo.subtract", on_log, a, "cpu:1");
  ASSERT_TRUE(asked.ok()) << asked.status().ToString();
  EXPECT_EQ((*asked)[0].device_name(), "log");
  EXPECT_EQ((*log)->Unwrap((*asked)[0])->device_name(), "cpu:1");
  EXPECT_EQ(*(*asked)[0].ToVector<float>(), (std::vector<float>{1, 2, 3}));

  std::vector<LoggedOp> entries = (*log)->log();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].op, "stablehlo.add");
  EXPECT_EQ(entries[0].requested_device, "log");
  EXPECT_THAT(entries[0].input_devices, ElementsAre("cpu:0", "cpu:0"));
  EXPECT_EQ(entries[1].op, "stablehlo.multiply");
  EXPECT_EQ(entries[1].requested_device, "");
  EXPECT_THAT(entries[1].input_devices, ElementsAre("log", "cpu:0"));
  EXPECT_EQ(entries[2].requested_device, "cpu:1");

  EXPECT_EQ(*on_log.dtype(), PJRT_Buffer_Type_F32);
  EXPECT_EQ(*on_log.dims(), (std::vector<int64_t>{3}));
  EXPECT_THAT(on_log.Summary(), HasSubstr("f32[3] on log (f32[3] on cpu:0 [2, 4, 6])"));
  EXPECT_EQ(on_log.on_device_size().status().code(), StatusCode::kUnimplemented);
}

TEST(EagerCustomDevice, CopiesToFromAndBetweenCustomDevices) {
  auto ctx = MakeContext();
  ASSERT_TRUE(RegisterLoggingDevice(*ctx, "log1", "cpu:0").ok());
  auto log2 = RegisterLoggingDevice(*ctx, "log2", "cpu:1");
  ASSERT_TRUE(log2.ok());
  Tensor a = Floats(*ctx, {5, 6});
  auto on1 = ctx->CopyToDevice(a, "log1");
  ASSERT_TRUE(on1.ok()) << on1.status().ToString();
  EXPECT_EQ(on1->device_name(), "log1");
  auto on2 = ctx->CopyToDevice(*on1, "log2");
  ASSERT_TRUE(on2.ok()) << on2.status().ToString();
  EXPECT_EQ((*log2)->Unwrap(*on2)->device_name(), "cpu:1");
  auto back = ctx->CopyToDevice(*on2, "cpu:0");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_FALSE(back->is_custom());
  EXPECT_EQ(back->device_name(), "cpu:0");
  EXPECT_EQ(*back->ToVector<float>(), (std::vector<float>{5, 6}));
  // Made from host memory straight onto a custom device.
  auto made = ctx->FromVector<float>({7}, {1}, "log2");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ(made->device_name(), "log2");
  EXPECT_EQ(*made->ToVector<float>(), (std::vector<float>{7}));
  // Physical-only calls name the custom device for what it is.
  auto zero_copy = ctx->FromHostZeroCopy(nullptr, PJRT_Buffer_Type_F32, {0}, [] {}, "log1");
  EXPECT_EQ(zero_copy.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(zero_copy.status().message(), HasSubstr("'log1' is a custom device"));
}

// Accepts every op with an input on it when several custom devices meet.
class PinningDevice : public LoggingDevice {
 public:
  using LoggingDevice::LoggingDevice;
  StatusOr<bool> ShallPinToThisDevice(const Op&) override { return true; }
};

TEST(EagerCustomDevice, InputsOnTwoCustomDevicesNeedAPin) {
  auto ctx = MakeContext();
  ASSERT_TRUE(RegisterLoggingDevice(*ctx, "left", "cpu:0").ok());
  ASSERT_TRUE(RegisterLoggingDevice(*ctx, "right", "cpu:1").ok());
  Tensor a = Floats(*ctx, {1, 2});
  Tensor left = *ctx->CopyToDevice(a, "left");
  Tensor right = *ctx->CopyToDevice(a, "right");
  auto refused = Binary(*ctx, "stablehlo.add", left, right);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("stablehlo.add: its inputs live on custom devices left and right"));
  // Placing the op decides it (rule 1): the placed device copies the other.
  auto placed = Binary(*ctx, "stablehlo.add", left, right, "right");
  ASSERT_TRUE(placed.ok()) << placed.status().ToString();
  EXPECT_EQ((*placed)[0].device_name(), "right");
  EXPECT_EQ(*(*placed)[0].ToVector<float>(), (std::vector<float>{2, 4}));

  auto pin = std::make_unique<PinningDevice>("pin", "cpu:0");
  PinningDevice* pinning = pin.get();
  ASSERT_TRUE(ctx->RegisterCustomDevice("pin", std::move(pin)).ok());
  Tensor pinned_input = *ctx->CopyToDevice(a, "pin");
  // left does not pin, pin does: the op runs on pin.
  auto pinned = Binary(*ctx, "stablehlo.multiply", left, pinned_input);
  ASSERT_TRUE(pinned.ok()) << pinned.status().ToString();
  EXPECT_EQ((*pinned)[0].device_name(), "pin");
  EXPECT_EQ(*(*pinned)[0].ToVector<float>(), (std::vector<float>{1, 4}));
  ASSERT_EQ(pinning->log().size(), 1u);
  EXPECT_THAT(pinning->log()[0].input_devices, ElementsAre("left", "pin"));
}

TEST(EagerCustomDevice, BadRegistrationsAreClearErrors) {
  auto ctx = MakeContext();
  ASSERT_TRUE(RegisterLoggingDevice(*ctx, "log", "cpu:0").ok());
  Status duplicate = RegisterLoggingDevice(*ctx, "log", "cpu:1").status();
  EXPECT_EQ(duplicate.code(), StatusCode::kAlreadyExists);
  EXPECT_THAT(duplicate.message(), HasSubstr("'log' is already registered"));
  EXPECT_EQ(RegisterLoggingDevice(*ctx, "cpu:1", "cpu:0").status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(RegisterLoggingDevice(*ctx, "", "cpu:0").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RegisterLoggingDevice(*ctx, "x", "cpu:9").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ctx->RegisterCustomDevice("y", nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ctx->CustomDeviceNames(), ElementsAre("log"));
  EXPECT_EQ(ctx->Pack({}, "log").status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(ctx->Pack({}, "cpu:0").status().code(), StatusCode::kInvalidArgument);
}

// A custom tensor kept by the test: counts its deallocations.
class CountedData : public CustomTensorData {
 public:
  CountedData(std::atomic<int>& freed, std::vector<int64_t> dims)
      : freed_(freed), dims_(std::move(dims)) {}
  ~CountedData() override { ++freed_; }
  StatusOr<std::vector<int64_t>> Dims() const override { return dims_; }
  StatusOr<std::string> Summary() const override { return std::string("<counted>"); }

 private:
  std::atomic<int>& freed_;
  std::vector<int64_t> dims_;
};

TEST(EagerCustomDevice, CustomHandlesReportShapeAndDeallocateOnce) {
  auto ctx = MakeContext();
  ASSERT_TRUE(RegisterLoggingDevice(*ctx, "log", "cpu:0").ok());
  std::atomic<int> freed{0};
  {
    auto t = ctx->NewCustomTensor(
        "log", PJRT_Buffer_Type_S32,
        std::make_unique<CountedData>(freed, std::vector<int64_t>{2, kUnknownDim}));
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    Tensor copy = *t;
    EXPECT_EQ(*copy.dims(), (std::vector<int64_t>{2, -1}));
    EXPECT_EQ(*copy.dtype(), PJRT_Buffer_Type_S32);
    EXPECT_EQ(copy.Summary(), "s32[2,?] on log <counted>");
    EXPECT_TRUE(copy.Await().ok());
    // The logging device cannot unwrap what it did not make: a clear error.
    auto host = copy.ToHost();
    EXPECT_EQ(host.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(host.status().message(), HasSubstr("not one of logging device log's"));
    t = Status(StatusCode::kCancelled, "dropped");
    EXPECT_EQ(freed.load(), 0);  // `copy` still holds it
  }
  EXPECT_EQ(freed.load(), 1);
  // A failed creation deallocates too.
  auto missing = ctx->NewCustomTensor("nowhere", PJRT_Buffer_Type_S32,
                                      std::make_unique<CountedData>(freed, std::vector<int64_t>{}));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(freed.load(), 2);
}

TEST(EagerCustomDevice, LoggingDeviceUnderTheAsyncExecutor) {
  ContextOptions options;
  options.async = true;
  auto ctx = MakeContext(PLUGRT_CPU_PLUGIN_PATH, options);
  auto log = RegisterLoggingDevice(*ctx, "log", "cpu:1");
  ASSERT_TRUE(log.ok());
  Tensor a = *ctx->CopyToDevice(Floats(*ctx, {1, 2, 3, 4}), "log");
  Tensor x = a;
  for (int i = 0; i < 5; ++i) x = (*Binary(*ctx, "stablehlo.add", x, a))[0];
  EXPECT_EQ(*x.ToVector<float>(), (std::vector<float>{6, 12, 18, 24}));
  EXPECT_EQ((*log)->log().size(), 5u);
  // A failing op routed through it is an error of the op.
  Op bad(*ctx, "stablehlo.dot_general");
  ASSERT_TRUE(bad.SetAttr("lhs_contracting_dimensions", std::vector<int64_t>{3}).ok());
  ASSERT_TRUE(bad.SetAttr("rhs_contracting_dimensions", std::vector<int64_t>{0}).ok());
  ASSERT_TRUE(bad.AddInput(a).ok());
  ASSERT_TRUE(bad.AddInput(a).ok());
  auto failed = bad.Execute();
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), HasSubstr("stablehlo.dot_general"));
  // The executor saw the same failure; Wait reports it once.
  EXPECT_EQ(ctx->Wait().code(), failed.status().code());
  EXPECT_TRUE(ctx->Wait().ok());
}

// Over the example plugin (no compiler): copies through the logging device
// work, and an op routed through it fails as the plugin says, logged.
TEST(EagerCustomDevice, LoggingDeviceOverTheExamplePlugin) {
  auto ctx = MakeContext(PLUGRT_EXAMPLE_PLUGIN_PATH);
  const std::string physical = ctx->devices()[0].name;
  auto log = RegisterLoggingDevice(*ctx, "log", physical);
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  auto a = ctx->FromVector<float>({1, 2}, {2}, "log");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(*a->ToVector<float>(), (std::vector<float>{1, 2}));
  auto sum = Binary(*ctx, "stablehlo.add", *a, *a);
  EXPECT_EQ(sum.status().code(), StatusCode::kUnimplemented) << sum.status().ToString();
  EXPECT_THAT(sum.status().message(), HasSubstr("stablehlo.add"));
  ASSERT_EQ((*log)->log().size(), 1u);
  EXPECT_THAT((*log)->log()[0].input_devices, ElementsAre("log", "log"));
}

}  // namespace
}  // namespace plugrt::eager
