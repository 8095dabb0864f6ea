// Execution in full over the dlopen-loaded CPU plugin: asynchronous launches
// whose outputs carry ready events, chains of launches on outputs still being
// computed, execution errors reaching every event of the launch, donation
// (tf.aliasing_output / jax.buffer_donor, non_donatable_input_indices, reuse
// of the donated storage, refusals), and launches from several threads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "testutil/plugin_env.h"
#include "testutil/programs.h"

namespace plugrt {
namespace {

using plugrt::testing::kAddProgram;
using plugrt::testing::kDonatingAddProgram;

using ::testing::HasSubstr;
using testing::CreateCpuClient;

// The first argument is donated without naming an output.
constexpr const char* kDonorProgram = R"(
func.func @main(%a: tensor<4xf32> {jax.buffer_donor = true}, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";

// Each input aliased to the output the other one becomes.
constexpr const char* kSwapProgram = R"(
func.func @main(%a: tensor<3xi32> {tf.aliasing_output = 1 : i32},
                %b: tensor<3xi32> {tf.aliasing_output = 0 : i32}) -> (tensor<3xi32>, tensor<3xi32>) {
  return %b, %a : tensor<3xi32>, tensor<3xi32>
}
)";

// Fails at run time unless x == y.
constexpr const char* kCheckedProgram = R"(
func.func @main(%x: tensor<2xi32>, %y: tensor<2xi32>) -> tensor<2xi32> {
  stablehlo.custom_call @check.expect_eq(%x, %y) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  %0 = stablehlo.add %x, %y : tensor<2xi32>
  return %0 : tensor<2xi32>
}
)";

// A collective over two replicas.
constexpr const char* kAllReduceProgram = R"(
module @ar attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
)";

LoadedExecutable CompileOrDie(const Client& client, const char* text) {
  StatusOr<LoadedExecutable> executable = client.Compile(text);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  return executable.ok() ? std::move(executable).value() : LoadedExecutable();
}

using testing::Download;
using testing::Upload;

Buffer UploadF32(const Client& client, const Device& device, const std::vector<float>& values) {
  return Upload<float>(client, device, PJRT_Buffer_Type_F32,
                       {static_cast<int64_t>(values.size())}, values);
}

class ExecuteAsyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PLUGRT_ASSERT_OK_AND_ASSIGN(client_, CreateCpuClient(2));
    PLUGRT_ASSERT_OK_AND_ASSIGN(devices_, client_->addressable_devices());
    ASSERT_GE(devices_.size(), 2u);
  }
  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

TEST_F(ExecuteAsyncTest, OutputsCarryReadyEventsAndCorrectValues) {
  LoadedExecutable executable = CompileOrDie(*client_, kAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer b = UploadF32(*client_, devices_[0], {10, 20, 30, 40});
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result, executable.ExecuteAsync({{&a, &b}}));
  ASSERT_EQ(result.outputs.size(), 1u);
  ASSERT_EQ(result.outputs[0].size(), 1u);
  ASSERT_EQ(result.device_complete.size(), 1u);
  // Metadata is there before the run ends.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> dims, result.outputs[0][0].dimensions());
  EXPECT_EQ(dims, std::vector<int64_t>{4});
  PLUGRT_ASSERT_OK_AND_ASSIGN(Future ready, result.outputs[0][0].ReadyFuture());
  PLUGRT_EXPECT_OK(ready.Await());
  PLUGRT_EXPECT_OK(result.device_complete[0].Await());
  EXPECT_EQ(Download<float>(result.outputs[0][0]), (std::vector<float>{11, 22, 33, 44}));
  // The inputs are untouched and still usable.
  EXPECT_EQ(Download<float>(a), (std::vector<float>{1, 2, 3, 4}));
}

TEST_F(ExecuteAsyncTest, ShapeErrorsStaySynchronousAndNameBothShapes) {
  LoadedExecutable executable = CompileOrDie(*client_, kAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer short_b = UploadF32(*client_, devices_[0], {1, 2, 3});
  StatusOr<ExecuteResult> result = executable.ExecuteAsync({{&a, &short_b}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("argument 1"));
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("tensor<4xf32>"));
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("tensor<3xf32>"));
}

TEST_F(ExecuteAsyncTest, ChainsOnOutputsStillBeingComputed) {
  LoadedExecutable executable = CompileOrDie(*client_, kAddProgram);
  ASSERT_TRUE(executable);
  Buffer ones = UploadF32(*client_, devices_[0], {1, 1, 1, 1});
  Buffer x = UploadF32(*client_, devices_[0], {0, 10, 20, 30});
  std::vector<Future> completions;
  constexpr int kSteps = 25;
  for (int step = 0; step < kSteps; ++step) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result, executable.ExecuteAsync({{&x, &ones}}));
    x = std::move(result.outputs[0][0]);  // the previous x goes away at once
    completions.push_back(std::move(result.device_complete[0]));
  }
  EXPECT_EQ(Download<float>(x), (std::vector<float>{25, 35, 45, 55}));
  for (Future& done : completions) PLUGRT_EXPECT_OK(done.Await());
}

TEST_F(ExecuteAsyncTest, WaitsForInputsStillBeingTransferred) {
  LoadedExecutable executable = CompileOrDie(*client_, kAddProgram);
  ASSERT_TRUE(executable);
  std::vector<float> host(4, 2.5f);
  Client::HostBuffer pending(host.data(), PJRT_Buffer_Type_F32, {4});
  pending.semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto uploaded, client_->BufferFromHostBuffer(pending, devices_[0]));
  Buffer b = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result,
                              executable.ExecuteAsync({{&uploaded.first, &b}}));
  PLUGRT_EXPECT_OK(result.device_complete[0].Await());
  EXPECT_EQ(Download<float>(result.outputs[0][0]), (std::vector<float>{3.5f, 4.5f, 5.5f, 6.5f}));
  PLUGRT_EXPECT_OK(uploaded.second.Await());
}

TEST_F(ExecuteAsyncTest, ExecutionErrorsReachEveryEventOfTheLaunchAndItsConsumers) {
  // check.expect_eq is a conformance-harness op: a client that allows it.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateHarnessCpuClient(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  LoadedExecutable executable = CompileOrDie(*client, kCheckedProgram);
  ASSERT_TRUE(executable);
  Buffer x = Upload<int32_t>(*client, devices[0], PJRT_Buffer_Type_S32, {2}, {1, 2});
  Buffer y = Upload<int32_t>(*client, devices[0], PJRT_Buffer_Type_S32, {2}, {1, 3});

  // A passing run first: the check does fail only on a mismatch.
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult good, executable.ExecuteAsync({{&x, &x}}));
  PLUGRT_EXPECT_OK(good.device_complete[0].Await());
  EXPECT_EQ(Download<int32_t>(good.outputs[0][0]), (std::vector<int32_t>{2, 4}));

  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult bad, executable.ExecuteAsync({{&x, &y}}));
  Status complete = bad.device_complete[0].Await();
  ASSERT_FALSE(complete.ok());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Future ready, bad.outputs[0][0].ReadyFuture());
  Status output_status = ready.Await();
  ASSERT_FALSE(output_status.ok());
  EXPECT_EQ(output_status.code(), complete.code());
  EXPECT_EQ(output_status.message(), complete.message());
  EXPECT_FALSE(bad.outputs[0][0].ToHostVector().ok());

  // A launch that consumes the failed output fails with that error.
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult consumer,
                              executable.ExecuteAsync({{&bad.outputs[0][0], &x}}));
  Status consumer_status = consumer.device_complete[0].Await();
  ASSERT_FALSE(consumer_status.ok());
  EXPECT_THAT(std::string(consumer_status.message()), HasSubstr("argument 0"));
  EXPECT_THAT(std::string(consumer_status.message()), HasSubstr(std::string(complete.message())));
}

TEST_F(ExecuteAsyncTest, DonatedInputIsDeletedAndItsStorageBecomesTheOutput) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonatingAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer b = UploadF32(*client_, devices_[0], {10, 20, 30, 40});
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t a_pointer, a.unsafe_pointer());

  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}));
  EXPECT_EQ(Download<float>(outputs[0][0]), (std::vector<float>{11, 22, 33, 44}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t out_pointer, outputs[0][0].unsafe_pointer());
  EXPECT_EQ(out_pointer, a_pointer);

  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, a.is_deleted());
  EXPECT_TRUE(deleted);
  StatusOr<std::vector<std::byte>> read = a.ToHostVector();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(read.status().message()), HasSubstr("donated to an execution"));
  StatusOr<ExecuteResult> again = executable.ExecuteAsync({{&a, &b}});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(again.status().message()), HasSubstr("donated to an execution"));
  EXPECT_THAT(std::string(again.status().message()), HasSubstr("argument 0"));
  // The other argument was not donated.
  EXPECT_EQ(Download<float>(b), (std::vector<float>{10, 20, 30, 40}));
}

TEST_F(ExecuteAsyncTest, NonDonatableInputIndicesKeepTheInput) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonatingAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer b = UploadF32(*client_, devices_[0], {10, 20, 30, 40});
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t a_pointer, a.unsafe_pointer());
  ExecuteOptions options;
  options.non_donatable_input_indices = {0};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}, options));
  EXPECT_EQ(Download<float>(outputs[0][0]), (std::vector<float>{11, 22, 33, 44}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t out_pointer, outputs[0][0].unsafe_pointer());
  EXPECT_NE(out_pointer, a_pointer);
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, a.is_deleted());
  EXPECT_FALSE(deleted);
  EXPECT_EQ(Download<float>(a), (std::vector<float>{1, 2, 3, 4}));

  options.non_donatable_input_indices = {7};
  StatusOr<ExecuteResult> bad_index = executable.ExecuteAsync({{&a, &b}}, options);
  ASSERT_FALSE(bad_index.ok());
  EXPECT_EQ(bad_index.status().code(), StatusCode::kInvalidArgument);
  PLUGRT_ASSERT_OK_AND_ASSIGN(deleted, a.is_deleted());
  EXPECT_FALSE(deleted);
}

TEST_F(ExecuteAsyncTest, BufferDonorIsDeletedWithoutAnAliasedOutput) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonorProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer b = UploadF32(*client_, devices_[0], {2, 2, 2, 2});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}));
  EXPECT_EQ(Download<float>(outputs[0][0]), (std::vector<float>{2, 4, 6, 8}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, a.is_deleted());
  EXPECT_TRUE(deleted);
  PLUGRT_ASSERT_OK_AND_ASSIGN(deleted, b.is_deleted());
  EXPECT_FALSE(deleted);
}

TEST_F(ExecuteAsyncTest, TheSameBufferTwiceWithADonatedUseIsRefused) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonatingAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  StatusOr<ExecuteResult> result = executable.ExecuteAsync({{&a, &a}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("same buffer"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, a.is_deleted());
  EXPECT_FALSE(deleted);
  // Kept out of donation, the same buffer may be passed twice.
  ExecuteOptions options;
  options.non_donatable_input_indices = {0};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &a}}, options));
  EXPECT_EQ(Download<float>(outputs[0][0]), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(ExecuteAsyncTest, DonationWithAnExternalReferenceCopiesInsteadOfOverwriting) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonatingAddProgram);
  ASSERT_TRUE(executable);
  Buffer a = UploadF32(*client_, devices_[0], {1, 2, 3, 4});
  Buffer b = UploadF32(*client_, devices_[0], {10, 20, 30, 40});
  PLUGRT_ASSERT_OK(a.IncreaseExternalReferenceCount());
  PLUGRT_ASSERT_OK_AND_ASSIGN(void* a_memory, a.opaque_device_memory_pointer());

  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}));
  EXPECT_EQ(Download<float>(outputs[0][0]), (std::vector<float>{11, 22, 33, 44}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(void* out_memory, outputs[0][0].opaque_device_memory_pointer());
  EXPECT_NE(out_memory, a_memory);
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, a.is_deleted());
  EXPECT_TRUE(deleted);
  // The external holder still sees the original contents.
  std::vector<float> seen(4);
  std::memcpy(seen.data(), a_memory, sizeof(float) * 4);
  EXPECT_EQ(seen, (std::vector<float>{1, 2, 3, 4}));
  PLUGRT_EXPECT_OK(a.DecreaseExternalReferenceCount());
}

TEST_F(ExecuteAsyncTest, SwappedAliasesKeepBothValues) {
  LoadedExecutable executable = CompileOrDie(*client_, kSwapProgram);
  ASSERT_TRUE(executable);
  Buffer a = Upload<int32_t>(*client_, devices_[0], PJRT_Buffer_Type_S32, {3}, {1, 2, 3});
  Buffer b = Upload<int32_t>(*client_, devices_[0], PJRT_Buffer_Type_S32, {3}, {7, 8, 9});
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t a_pointer, a.unsafe_pointer());
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t b_pointer, b.unsafe_pointer());
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}));
  ASSERT_EQ(outputs[0].size(), 2u);
  EXPECT_EQ(Download<int32_t>(outputs[0][0]), (std::vector<int32_t>{7, 8, 9}));
  EXPECT_EQ(Download<int32_t>(outputs[0][1]), (std::vector<int32_t>{1, 2, 3}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t out0, outputs[0][0].unsafe_pointer());
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t out1, outputs[0][1].unsafe_pointer());
  EXPECT_EQ(out0, b_pointer);
  EXPECT_EQ(out1, a_pointer);
}

// Both inputs donated, each to the output the other one feeds; the fused
// loop behind the outputs may compute any of them into an input's memory.
constexpr const char* kCrossedDonationProgram = R"(
func.func @main(%a: tensor<1000xf32> {tf.aliasing_output = 1 : i32},
                %b: tensor<1000xf32> {tf.aliasing_output = 0 : i32})
    -> (tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %two = stablehlo.constant dense<2.0> : tensor<1000xf32>
  %0 = stablehlo.multiply %b, %two : tensor<1000xf32>
  %1 = stablehlo.add %a, %a : tensor<1000xf32>
  %2 = stablehlo.subtract %a, %b : tensor<1000xf32>
  return %0, %1, %2 : tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}
)";

TEST_F(ExecuteAsyncTest, ResultsComputedIntoDonatedInputsLandInTheRightOutputs) {
  LoadedExecutable executable = CompileOrDie(*client_, kCrossedDonationProgram);
  ASSERT_TRUE(executable);
  std::vector<float> av(1000), bv(1000);
  for (int i = 0; i < 1000; ++i) {
    av[i] = static_cast<float>(i);
    bv[i] = 5000.0f + static_cast<float>(3 * i);
  }
  for (int run = 0; run < 3; ++run) {  // queued and inline launches alike
    Buffer a = UploadF32(*client_, devices_[0], av);
    Buffer b = UploadF32(*client_, devices_[0], bv);
    PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t a_pointer, a.unsafe_pointer());
    PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t b_pointer, b.unsafe_pointer());
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&a, &b}}));
    ASSERT_EQ(outputs[0].size(), 3u);
    const std::vector<float> out0 = Download<float>(outputs[0][0]);
    const std::vector<float> out1 = Download<float>(outputs[0][1]);
    const std::vector<float> out2 = Download<float>(outputs[0][2]);
    ASSERT_EQ(out0.size(), 1000u);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_EQ(out0[i], 2 * bv[i]) << i;
      ASSERT_EQ(out1[i], 2 * av[i]) << i;
      ASSERT_EQ(out2[i], av[i] - bv[i]) << i;
    }
    PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t p0, outputs[0][0].unsafe_pointer());
    PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t p1, outputs[0][1].unsafe_pointer());
    PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t p2, outputs[0][2].unsafe_pointer());
    EXPECT_EQ(p0, b_pointer);
    EXPECT_EQ(p1, a_pointer);
    EXPECT_NE(p2, a_pointer);
    EXPECT_NE(p2, b_pointer);
  }
}

TEST_F(ExecuteAsyncTest, ChainedDonationsGiveTheRightResult) {
  LoadedExecutable executable = CompileOrDie(*client_, kDonatingAddProgram);
  ASSERT_TRUE(executable);
  Buffer ones = UploadF32(*client_, devices_[0], {1, 1, 1, 1});
  Buffer x = UploadF32(*client_, devices_[0], {0, 1, 2, 3});
  std::vector<Future> completions;
  for (int step = 0; step < 30; ++step) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result, executable.ExecuteAsync({{&x, &ones}}));
    PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, x.is_deleted());
    EXPECT_TRUE(deleted);
    x = std::move(result.outputs[0][0]);
    completions.push_back(std::move(result.device_complete[0]));
  }
  EXPECT_EQ(Download<float>(x), (std::vector<float>{30, 31, 32, 33}));
  for (Future& done : completions) PLUGRT_EXPECT_OK(done.Await());
}

TEST_F(ExecuteAsyncTest, ConcurrentLaunchesFromSeveralThreadsEachGetTheirOwnResults) {
  LoadedExecutable executable = CompileOrDie(*client_, kAddProgram);
  ASSERT_TRUE(executable);
  constexpr int kThreads = 4;
  constexpr int kLaunches = 50;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const Device& device = devices_[0];
      for (int i = 0; i < kLaunches && failures[t].empty(); ++i) {
        const float base = static_cast<float>(t * 1000 + i);
        std::vector<float> av = {base, base + 1, base + 2, base + 3};
        std::vector<float> bv = {0.5f, 0.5f, 0.5f, 0.5f};
        auto a = client_->BufferFromHostBuffer(
            Client::HostBuffer(av.data(), PJRT_Buffer_Type_F32, {4}), device);
        auto b = client_->BufferFromHostBuffer(
            Client::HostBuffer(bv.data(), PJRT_Buffer_Type_F32, {4}), device);
        if (!a.ok() || !b.ok()) {
          failures[t] = "upload failed";
          break;
        }
        StatusOr<ExecuteResult> result =
            executable.ExecuteAsync({{&a->first, &b->first}}, ExecuteOptions{});
        if (!result.ok()) {
          failures[t] = result.status().ToString();
          break;
        }
        // Chain one more launch on the pending output.
        StatusOr<ExecuteResult> second =
            executable.ExecuteAsync({{&result->outputs[0][0], &b->first}});
        if (!second.ok()) {
          failures[t] = second.status().ToString();
          break;
        }
        StatusOr<std::vector<std::byte>> bytes = second->outputs[0][0].ToHostVector();
        if (!bytes.ok() || bytes->size() != 16) {
          failures[t] = "download failed";
          break;
        }
        std::vector<float> got(4);
        std::memcpy(got.data(), bytes->data(), 16);
        const std::vector<float> want = {base + 1, base + 2, base + 3, base + 4};
        if (got != want) {
          failures[t] = "launch " + std::to_string(i) + " got a wrong result";
          break;
        }
        Status first_done = result->device_complete[0].Await();
        Status second_done = second->device_complete[0].Await();
        if (!first_done.ok() || !second_done.ok()) failures[t] = "a completion event failed";
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST_F(ExecuteAsyncTest, MultiDeviceCollectivesRunConcurrentlyAndEveryDeviceCompletes) {
  LoadedExecutable executable = CompileOrDie(*client_, kAllReduceProgram);
  ASSERT_TRUE(executable);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, executable.addressable_devices());
  ASSERT_EQ(devices.size(), 2u);
  for (int round = 0; round < 10; ++round) {
    Buffer x0 = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {2},
                              {1.0f * round, 2});
    Buffer x1 = Upload<float>(*client_, devices[1], PJRT_Buffer_Type_F32, {2}, {10, 20});
    PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result, executable.ExecuteAsync({{&x0}, {&x1}}));
    ASSERT_EQ(result.device_complete.size(), 2u);
    for (Future& done : result.device_complete) PLUGRT_EXPECT_OK(done.Await());
    for (size_t d = 0; d < 2; ++d) {
      EXPECT_EQ(Download<float>(result.outputs[d][0]),
                (std::vector<float>{10.0f + round, 22}))
          << "round " << round << " device " << d;
    }
  }
}

}  // namespace
}  // namespace plugrt
