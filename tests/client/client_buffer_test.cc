// End-to-end tests of client buffers over the CPU plugin: every element type
// round trip, strides and layouts, host buffer semantics, copies, deletion,
// external references, raw copies, views, futures and concurrency.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "client/client.h"
#include "common/element_type.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CpuClientTest;

using BufferTest = CpuClientTest;

std::vector<std::byte> AsBytes(const void* data, size_t size) {
  std::vector<std::byte> bytes(size);
  std::memcpy(bytes.data(), data, size);
  return bytes;
}

// Valid host bytes for `count` elements of `type`: sub-byte types hold one
// in-range value per byte (sign-extended for signed ones), pred 0 or 1.
std::vector<std::byte> SampleHostData(PJRT_Buffer_Type type, int64_t count) {
  const int64_t element_bytes = HostElementByteSize(type);
  std::vector<std::byte> bytes(static_cast<size_t>(count * element_bytes));
  const int bits = ElementBitWidth(type);
  const bool is_signed = type == PJRT_Buffer_Type_S4 || type == PJRT_Buffer_Type_S2 ||
                         type == PJRT_Buffer_Type_S1;
  for (int64_t i = 0; i < count; ++i) {
    if (type == PJRT_Buffer_Type_PRED) {
      bytes[i] = std::byte(i % 3 == 0 ? 1 : 0);
    } else if (bits < 8) {
      int range = 1 << bits;
      int value = static_cast<int>((i * 7 + 3) % range);
      if (is_signed && value >= range / 2) value -= range;
      bytes[i] = std::byte(static_cast<uint8_t>(static_cast<int8_t>(value)));
    } else {
      for (int64_t b = 0; b < element_bytes; ++b) {
        // Stays clear of 0xFF runs so no float type sees only NaNs.
        bytes[i * element_bytes + b] = std::byte(static_cast<uint8_t>((i * 37 + b * 11 + 5) % 0x7F));
      }
    }
  }
  return bytes;
}

TEST_F(BufferTest, EveryElementTypeRoundTrips) {
  const std::vector<int64_t> dims = {3, 5};
  const int64_t count = ElementCount(dims);
  for (PJRT_Buffer_Type type : AllElementTypes()) {
    if (type == PJRT_Buffer_Type_TOKEN) continue;
    SCOPED_TRACE(ElementTypeName(type));
    std::vector<std::byte> host = SampleHostData(type, count);
    Client::HostBuffer in{host.data(), type, dims};
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[1]));
    PLUGRT_ASSERT_OK(made.second.Await());
    Buffer& buffer = made.first;

    PLUGRT_ASSERT_OK_AND_ASSIGN(PJRT_Buffer_Type element_type, buffer.element_type());
    EXPECT_EQ(element_type, type);
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> got_dims, buffer.dimensions());
    EXPECT_EQ(got_dims, dims);
    PLUGRT_ASSERT_OK_AND_ASSIGN(size_t host_size, buffer.HostSize());
    EXPECT_EQ(host_size, host.size());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, buffer.ToHostVector());
    EXPECT_EQ(out, host);
    // Sub-byte types are packed on the device.
    PLUGRT_ASSERT_OK_AND_ASSIGN(size_t device_size, buffer.on_device_size());
    EXPECT_EQ(device_size, static_cast<size_t>((count * ElementBitWidth(type) + 7) / 8));
    PLUGRT_ASSERT_OK_AND_ASSIGN(Device device, buffer.device());
    EXPECT_EQ(device, devices_[1]);
  }
}

TEST_F(BufferTest, ScalarAndEmptyArrays) {
  const int32_t scalar = -17;
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({&scalar, PJRT_Buffer_Type_S32, {}}, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> dims, made.first.dimensions());
  EXPECT_TRUE(dims.empty());
  int32_t out = 0;
  PLUGRT_ASSERT_OK(made.first.ToHost(&out, sizeof(out)));
  EXPECT_EQ(out, scalar);

  const float unused = 0;
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto empty, client_->BufferFromHostBuffer({&unused, PJRT_Buffer_Type_F32, {0, 3}}, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> bytes, empty.first.ToHostVector());
  EXPECT_TRUE(bytes.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(size_t device_size, empty.first.on_device_size());
  EXPECT_EQ(device_size, 0u);
}

TEST_F(BufferTest, Metadata) {
  const float data[6] = {1, 2, 3, 4, 5, 6};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {2, 3}}, devices_[2]));
  Buffer& buffer = made.first;
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<int64_t> unpadded, buffer.unpadded_dimensions());
  EXPECT_EQ(unpadded, (std::vector<int64_t>{2, 3}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<size_t> dynamic, buffer.dynamic_dimension_indices());
  EXPECT_TRUE(dynamic.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Layout layout, buffer.layout());
  EXPECT_EQ(layout, Layout::RowMajor(2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool on_cpu, buffer.is_on_cpu());
  EXPECT_TRUE(on_cpu);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Memory memory, buffer.memory());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Memory default_memory, devices_[2].default_memory());
  EXPECT_EQ(memory, default_memory);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Future ready, buffer.ReadyFuture());
  PLUGRT_EXPECT_OK(ready.Await());
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool is_ready, ready.IsReady());
  EXPECT_TRUE(is_ready);
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, buffer.is_deleted());
  EXPECT_FALSE(deleted);
}

TEST_F(BufferTest, HostByteStridesAreHonoured) {
  // A 2x3 array stored column-major on the host: element (i, j) at j*2 + i.
  const float column_major[6] = {0, 10, 1, 11, 2, 12};
  Client::HostBuffer in{column_major, PJRT_Buffer_Type_F32, {2, 3}};
  in.byte_strides = std::vector<int64_t>{4, 8};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  float out[6] = {};
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out)));
  EXPECT_THAT(out, ::testing::ElementsAre(0, 1, 2, 10, 11, 12));
}

TEST_F(BufferTest, HostLayoutOnTheWayOut) {
  const int32_t row_major[6] = {0, 1, 2, 10, 11, 12};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({row_major, PJRT_Buffer_Type_S32, {2, 3}}, devices_[0]));
  Layout column_major = Layout::ColumnMajor(2);
  PLUGRT_ASSERT_OK_AND_ASSIGN(size_t size, made.first.HostSize(&column_major));
  EXPECT_EQ(size, sizeof(row_major));
  int32_t out[6] = {};
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out), &column_major));
  EXPECT_THAT(out, ::testing::ElementsAre(0, 10, 1, 11, 2, 12));

  // A destination too small is an error, not an overflow.
  int32_t small[5] = {};
  EXPECT_FALSE(made.first.ToHost(small, sizeof(small)).ok());
}

TEST_F(BufferTest, BadHostBuffersAreRejected) {
  const float data[4] = {1, 2, 3, 4};
  auto invalid_type = client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_INVALID, {4}}, devices_[0]);
  EXPECT_EQ(invalid_type.status().code(), StatusCode::kInvalidArgument);
  auto negative = client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {-4}}, devices_[0]);
  EXPECT_EQ(negative.status().code(), StatusCode::kInvalidArgument);
  auto null_data = client_->BufferFromHostBuffer({nullptr, PJRT_Buffer_Type_F32, {4}}, devices_[0]);
  EXPECT_EQ(null_data.status().code(), StatusCode::kInvalidArgument);
  Client::HostBuffer bad_strides{data, PJRT_Buffer_Type_F32, {2, 2}};
  bad_strides.byte_strides = std::vector<int64_t>{4};
  auto strides = client_->BufferFromHostBuffer(bad_strides, devices_[0]);
  EXPECT_EQ(strides.status().code(), StatusCode::kInvalidArgument);
  auto no_device = client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {4}}, Device());
  EXPECT_EQ(no_device.status().code(), StatusCode::kInvalidArgument);
  auto no_memory = client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {4}}, Memory());
  EXPECT_EQ(no_memory.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(BufferTest, ImmutableOnlyDuringCallCopiesAtOnce) {
  float data[4] = {1, 2, 3, 4};
  Client::HostBuffer in{data, PJRT_Buffer_Type_F32, {4}};
  in.semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool done, made.second.IsReady());
  EXPECT_TRUE(done);
  data[0] = 100;
  float out[4] = {};
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out)));
  EXPECT_EQ(out[0], 1.0f);
}

TEST_F(BufferTest, ImmutableUntilTransferCompletes) {
  std::vector<float> data = {1, 2, 3, 4};
  Client::HostBuffer in{data.data(), PJRT_Buffer_Type_F32, {4}};
  in.semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  PLUGRT_ASSERT_OK(made.second.Await());
  data.assign(4, -1.0f);
  float out[4] = {};
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out)));
  EXPECT_THAT(out, ::testing::ElementsAre(1, 2, 3, 4));
}

TEST_F(BufferTest, ImmutableZeroCopyHoldsTheHostDataUntilDestroyed) {
  alignas(64) float data[16];
  for (int i = 0; i < 16; ++i) data[i] = static_cast<float>(i);
  Client::HostBuffer in{data, PJRT_Buffer_Type_F32, {16}};
  in.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  Future done = std::move(made.second);
  std::atomic<int> fired{0};
  PLUGRT_ASSERT_OK(done.OnReady([&](Status s) {
    EXPECT_TRUE(s.ok()) << s.ToString();
    fired.fetch_add(1);
  }));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool ready, done.IsReady());
  EXPECT_FALSE(ready) << "done fired while the buffer still aliases the host data";
  EXPECT_EQ(fired.load(), 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, made.first.ToHostVector());
  EXPECT_EQ(out, AsBytes(data, sizeof(data)));

  { Buffer gone = std::move(made.first); }
  PLUGRT_ASSERT_OK(done.Await());
  EXPECT_EQ(fired.load(), 1);
}

TEST_F(BufferTest, ZeroCopyDoneFiresOnDelete) {
  alignas(64) int32_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Client::HostBuffer in{data, PJRT_Buffer_Type_S32, {8}};
  in.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool ready, made.second.IsReady());
  EXPECT_FALSE(ready);
  PLUGRT_ASSERT_OK(made.first.Delete());
  PLUGRT_ASSERT_OK(made.second.Await());
}

TEST_F(BufferTest, MutableZeroCopySeesHostWrites) {
  alignas(64) int32_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Client::HostBuffer in{data, PJRT_Buffer_Type_S32, {8}};
  in.semantics = PJRT_HostBufferSemantics_kMutableZeroCopy;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  data[5] = 555;
  int32_t out[8] = {};
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out)));
  EXPECT_EQ(out[5], 555);
  PLUGRT_ASSERT_OK_AND_ASSIGN(void* device_memory, made.first.opaque_device_memory_pointer());
  EXPECT_EQ(device_memory, static_cast<void*>(data));
}

TEST_F(BufferTest, MemoryStatsRiseAndFall) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats before, devices_[3].memory_stats());
  std::vector<float> data(1024, 1.0f);
  int64_t during_bytes = 0;
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(
        auto made, client_->BufferFromHostBuffer({data.data(), PJRT_Buffer_Type_F32, {1024}}, devices_[3]));
    PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats during, devices_[3].memory_stats());
    during_bytes = during.bytes_in_use;
    EXPECT_GE(during.bytes_in_use, before.bytes_in_use + 4096);
    // The CPU plugin tracks these; the client must pass them on.
    ASSERT_TRUE(during.num_allocs.has_value());
    ASSERT_TRUE(before.num_allocs.has_value());
    EXPECT_GT(*during.num_allocs, *before.num_allocs);
    ASSERT_TRUE(during.largest_alloc_size.has_value());
    EXPECT_GE(*during.largest_alloc_size, 4096);
  }
  PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats after, devices_[3].memory_stats());
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_LT(after.bytes_in_use, during_bytes);
  ASSERT_TRUE(after.peak_bytes_in_use.has_value());
  EXPECT_GE(*after.peak_bytes_in_use, during_bytes);
}

TEST_F(BufferTest, CopyToDeviceAndMemory) {
  const double data[3] = {1.5, -2.5, 3.25};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F64, {3}}, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Buffer copy, made.first.CopyToDevice(devices_[2]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Device device, copy.device());
  EXPECT_EQ(device, devices_[2]);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, copy.ToHostVector());
  EXPECT_EQ(out, AsBytes(data, sizeof(data)));

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Memory> memories, devices_[0].memories());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Memory default_memory, devices_[0].default_memory());
  int copied = 0;
  for (const Memory& memory : memories) {
    if (memory == default_memory) continue;
    PLUGRT_ASSERT_OK_AND_ASSIGN(Buffer in_memory, made.first.CopyToMemory(memory));
    PLUGRT_ASSERT_OK_AND_ASSIGN(Memory where, in_memory.memory());
    EXPECT_EQ(where, memory);
    PLUGRT_ASSERT_OK_AND_ASSIGN(out, in_memory.ToHostVector());
    EXPECT_EQ(out, AsBytes(data, sizeof(data)));
    ++copied;
  }
  EXPECT_GT(copied, 0) << "the CPU device has only its default memory";
}

TEST_F(BufferTest, BufferFromHostIntoAMemory) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Memory> memories, devices_[1].memories());
  const int16_t data[2] = {7, -7};
  for (const Memory& memory : memories) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(
        auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_S16, {2}}, memory));
    PLUGRT_ASSERT_OK_AND_ASSIGN(Memory where, made.first.memory());
    EXPECT_EQ(where, memory);
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, made.first.ToHostVector());
    EXPECT_EQ(out, AsBytes(data, sizeof(data)));
  }
}

TEST_F(BufferTest, DeletedBufferGivesErrorsNotCrashes) {
  const float data[4] = {1, 2, 3, 4};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {4}}, devices_[0]));
  Buffer& buffer = made.first;
  PLUGRT_ASSERT_OK(buffer.Delete());
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool deleted, buffer.is_deleted());
  EXPECT_TRUE(deleted);
  auto host = buffer.ToHostVector();
  ASSERT_FALSE(host.ok());
  EXPECT_FALSE(host.status().message().empty());
  EXPECT_FALSE(buffer.CopyToDevice(devices_[1]).ok());
  float out[4];
  EXPECT_FALSE(buffer.CopyRawToHost(out, 0, sizeof(out)).ok());
  EXPECT_FALSE(buffer.IncreaseExternalReferenceCount().ok());
  // A ready event asked for after deletion reports an error, whether the
  // plugin refuses to make one or makes one that fails.
  auto ready = buffer.ReadyFuture();
  Status ready_status = ready.ok() ? ready->Await() : ready.status();
  EXPECT_FALSE(ready_status.ok());
  // Destruction of the deleted buffer is still fine (the fixture checks
  // nothing leaks under the sanitizers).
}

TEST_F(BufferTest, MovedFromBufferIsEmptyAndSafe) {
  const float data[1] = {1};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {1}}, devices_[0]));
  Buffer moved = std::move(made.first);
  EXPECT_FALSE(static_cast<bool>(made.first));
  EXPECT_TRUE(static_cast<bool>(moved));
  EXPECT_FALSE(made.first.element_type().ok());
  PLUGRT_EXPECT_OK(moved.element_type());
}

TEST_F(BufferTest, ExternalReferences) {
  alignas(64) float data[4] = {1, 2, 3, 4};
  Client::HostBuffer in{data, PJRT_Buffer_Type_F32, {4}};
  in.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client_->BufferFromHostBuffer(in, devices_[0]));
  PLUGRT_ASSERT_OK(made.first.IncreaseExternalReferenceCount());
  PLUGRT_ASSERT_OK(made.first.IncreaseExternalReferenceCount());
  PLUGRT_ASSERT_OK(made.first.DecreaseExternalReferenceCount());
  // One external reference remains: deleting the buffer must not release
  // the host data yet.
  PLUGRT_ASSERT_OK(made.first.Delete());
  PLUGRT_ASSERT_OK_AND_ASSIGN(bool released, made.second.IsReady());
  EXPECT_FALSE(released);
  PLUGRT_ASSERT_OK(made.first.DecreaseExternalReferenceCount());
  PLUGRT_ASSERT_OK(made.second.Await());
  // No references left to drop.
  EXPECT_FALSE(made.first.DecreaseExternalReferenceCount().ok());
}

TEST_F(BufferTest, UnbalancedDecreaseIsAnError) {
  const float data[1] = {1};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {1}}, devices_[0]));
  Status status = made.first.DecreaseExternalReferenceCount();
  EXPECT_FALSE(status.ok());
}

TEST_F(BufferTest, PointersAreStable) {
  const float data[4] = {1, 2, 3, 4};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {4}}, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t unsafe, made.first.unsafe_pointer());
  PLUGRT_ASSERT_OK_AND_ASSIGN(void* opaque, made.first.opaque_device_memory_pointer());
  EXPECT_NE(unsafe, 0u);
  EXPECT_NE(opaque, nullptr);
  // On the CPU the device memory is host memory holding the values.
  EXPECT_EQ(std::memcmp(opaque, data, sizeof(data)), 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(uintptr_t again, made.first.unsafe_pointer());
  EXPECT_EQ(again, unsafe);
}

TEST_F(BufferTest, RawCopyToHost) {
  float data[10];
  for (int i = 0; i < 10; ++i) data[i] = static_cast<float>(i);
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {10}}, devices_[0]));
  float out[2] = {};
  PLUGRT_ASSERT_OK(made.first.CopyRawToHost(out, 3 * sizeof(float), sizeof(out)));
  EXPECT_EQ(out[0], 3.0f);
  EXPECT_EQ(out[1], 4.0f);
  PLUGRT_ASSERT_OK_AND_ASSIGN(Future async, made.first.CopyRawToHostAsync(out, 8 * sizeof(float), sizeof(out)));
  PLUGRT_ASSERT_OK(async.Await());
  EXPECT_EQ(out[0], 8.0f);
  EXPECT_EQ(out[1], 9.0f);

  EXPECT_FALSE(made.first.CopyRawToHost(out, 9 * sizeof(float), sizeof(out)).ok());
  EXPECT_FALSE(made.first.CopyRawToHost(out, -4, 4).ok());
  EXPECT_FALSE(made.first.CopyRawToHost(out, 0, -1).ok());
}

TEST_F(BufferTest, ViewOfDeviceBufferRunsOnDeleteOnce) {
  alignas(64) int32_t memory[6] = {1, 2, 3, 4, 5, 6};
  std::atomic<int> deleted{0};
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(
        Buffer view, client_->CreateViewOfDeviceBuffer(memory, PJRT_Buffer_Type_S32, {2, 3},
                                                       devices_[0], [&] { deleted.fetch_add(1); }));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, view.ToHostVector());
    EXPECT_EQ(out, AsBytes(memory, sizeof(memory)));
    // A view aliases the memory: later writes are visible.
    memory[0] = 42;
    int32_t first = 0;
    PLUGRT_ASSERT_OK(view.CopyRawToHost(&first, 0, sizeof(first)));
    EXPECT_EQ(first, 42);
    EXPECT_EQ(deleted.load(), 0);
    PLUGRT_ASSERT_OK(view.Delete());
    PLUGRT_ASSERT_OK_AND_ASSIGN(bool is_deleted, view.is_deleted());
    EXPECT_TRUE(is_deleted);
  }
  EXPECT_EQ(deleted.load(), 1);
}

TEST_F(BufferTest, ViewWithoutCallbackAndBadView) {
  alignas(64) float memory[2] = {1, 2};
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(
        Buffer view, client_->CreateViewOfDeviceBuffer(memory, PJRT_Buffer_Type_F32, {2}, devices_[0]));
    PLUGRT_EXPECT_OK(view.ToHostVector());
  }
  std::atomic<int> deleted{0};
  auto bad = client_->CreateViewOfDeviceBuffer(nullptr, PJRT_Buffer_Type_F32, {2}, devices_[0],
                                               [&] { deleted.fetch_add(1); });
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(deleted.load(), 0);
}

TEST_F(BufferTest, OnReadyAfterCompletionFiresOnce) {
  const float data[2] = {1, 2};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_F32, {2}}, devices_[0]));
  PLUGRT_ASSERT_OK_AND_ASSIGN(Future ready, made.first.ReadyFuture());
  PLUGRT_ASSERT_OK(ready.Await());
  std::atomic<int> calls{0};
  Status seen(StatusCode::kUnknown, "not called");
  PLUGRT_ASSERT_OK(ready.OnReady([&](Status s) {
    seen = s;
    calls.fetch_add(1);
  }));
  // Already complete: the callback ran before OnReady returned.
  EXPECT_EQ(calls.load(), 1);
  PLUGRT_EXPECT_OK(seen);
  PLUGRT_ASSERT_OK(ready.Await());
  EXPECT_EQ(calls.load(), 1);

  // A future without an event is complete and OK.
  Future trivially = Future::Ready();
  int trivial_calls = 0;
  PLUGRT_ASSERT_OK(trivially.OnReady([&](Status s) {
    EXPECT_TRUE(s.ok());
    ++trivial_calls;
  }));
  EXPECT_EQ(trivial_calls, 1);
  EXPECT_FALSE(trivially.OnReady(nullptr).ok());
}

TEST_F(BufferTest, BufferOutlivesTheClientObject) {
  const int64_t data[2] = {5, 6};
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      auto made, client_->BufferFromHostBuffer({data, PJRT_Buffer_Type_S64, {2}}, devices_[0]));
  client_.reset();
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, made.first.ToHostVector());
  EXPECT_EQ(out, AsBytes(data, sizeof(data)));
}

TEST_F(BufferTest, ConcurrentTransfersFromEightThreads) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 25;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const Device& device = devices_[t % devices_.size()];
      for (int round = 0; round < kRounds; ++round) {
        std::vector<int32_t> data(64 + t);
        for (size_t i = 0; i < data.size(); ++i) data[i] = t * 100000 + round * 1000 + static_cast<int>(i);
        Client::HostBuffer in{data.data(), PJRT_Buffer_Type_S32, {static_cast<int64_t>(data.size())}};
        auto made = client_->BufferFromHostBuffer(in, device);
        if (!made.ok()) {
          failures.fetch_add(1);
          continue;
        }
        auto copy = made->first.CopyToDevice(devices_[(t + 1) % devices_.size()]);
        auto out = copy.ok() ? copy->ToHostVector() : StatusOr<std::vector<std::byte>>(copy.status());
        if (!out.ok() || *out != AsBytes(data.data(), data.size() * sizeof(int32_t))) {
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace plugrt
