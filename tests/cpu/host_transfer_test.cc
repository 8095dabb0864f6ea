// Host transfers between PJRT's byte-strided host arrays and dense device
// storage: any dimension order, padding between elements, negative and zero
// strides on the host side read, strides that are no whole number of
// elements (an array of structs), and sub-byte types packed on the device.
// Every case against the element-by-element index map.
#include "cpu/host_transfer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

namespace plugrt::cpu {
namespace {

using Dims = std::vector<int64_t>;

int64_t Count(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// Host byte offset of the element at flat row-major index `flat`.
int64_t HostOffset(const Dims& dims, const Dims& strides, int64_t flat) {
  int64_t offset = 0;
  for (size_t k = dims.size(); k-- > 0;) {
    offset += (flat % dims[k]) * strides[k];
    flat /= dims[k];
  }
  return offset;
}

// Strides of a host array whose dims are laid out in `order` (outermost
// first), each element `pitch` bytes after the previous one along the
// innermost dim, negated for the dims in `negative`.
Dims HostStrides(const Dims& dims, const Dims& order, int64_t pitch, const std::vector<bool>& negative) {
  Dims strides(dims.size());
  int64_t stride = pitch;
  for (size_t i = order.size(); i-- > 0;) {
    const size_t k = static_cast<size_t>(order[i]);
    strides[k] = negative[k] ? -stride : stride;
    stride *= dims[k];
  }
  return strides;
}

TEST(HostTransfer, RandomLayoutsRoundTripThroughTheIndexMap) {
  std::mt19937 rng(5);
  const PJRT_Buffer_Type types[] = {PJRT_Buffer_Type_U8, PJRT_Buffer_Type_F16, PJRT_Buffer_Type_F32,
                                    PJRT_Buffer_Type_F64, PJRT_Buffer_Type_C128};
  for (int round = 0; round < 60; ++round) {
    auto format = GetElementFormat(types[round % 5]);
    ASSERT_TRUE(format.ok());
    const int64_t eb = static_cast<int64_t>(format->host_bytes);
    const int rank = 1 + round % 4;
    Dims dims(rank), order(rank);
    for (int k = 0; k < rank; ++k) {
      dims[k] = std::uniform_int_distribution<int64_t>(1, rank <= 2 ? 40 : 9)(rng);
      order[k] = k;
    }
    std::shuffle(order.begin(), order.end(), rng);
    // Element pitch: packed, padded, or (every third round) not a whole
    // number of elements: eb + 3 bytes.
    const int64_t pitch = round % 3 == 2 ? eb + 3 : eb * (1 + round % 2);
    std::vector<bool> negative(rank, false);
    if (round % 4 == 1) negative[static_cast<size_t>(round) % rank] = true;
    const Dims strides = HostStrides(dims, order, pitch, negative);
    // Room for the whole host array; element (0, ...) sits after the span
    // that negative strides reach below it.
    int64_t low = 0, high = 0;
    for (int k = 0; k < rank; ++k) {
      (strides[k] < 0 ? low : high) += strides[k] * (dims[k] - 1);
    }
    std::vector<std::byte> host(static_cast<size_t>(high - low + eb));
    for (std::byte& b : host) b = static_cast<std::byte>(rng() & 0xff);
    const std::byte* origin = host.data() - low;
    const int64_t n = Count(dims);
    std::vector<std::byte> device(static_cast<size_t>(n * eb));
    CopyHostToDevice(*format, dims, origin, strides, device.data());
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(std::memcmp(device.data() + i * eb, origin + HostOffset(dims, strides, i), eb), 0)
          << "round " << round << ", to device, element " << i;
    }
    if (round % 4 == 1) continue;  // results are written through non-negative strides only
    std::vector<std::byte> back(host.size(), std::byte{0});
    std::byte* back_origin = back.data() - low;
    CopyDeviceToHost(*format, dims, device.data(), back_origin, strides);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(std::memcmp(back_origin + HostOffset(dims, strides, i), device.data() + i * eb, eb), 0)
          << "round " << round << ", to host, element " << i;
    }
  }
}

// A zero stride on the host side broadcasts one element along that dim.
TEST(HostTransfer, ZeroStrideReadsOneElementAlongItsDim) {
  auto format = GetElementFormat(PJRT_Buffer_Type_F32);
  ASSERT_TRUE(format.ok());
  const std::vector<float> row = {1, 2, 3};
  std::vector<float> device(4 * 3);
  CopyHostToDevice(*format, {4, 3}, row.data(), {0, 4}, device.data());
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(device[i * 3 + j], row[j]);
  }
}

// Sub-byte types: one host byte per element, gathered through the strides,
// then packed two to a device byte (int4), and back.
TEST(HostTransfer, PackedInt4ThroughTransposedStrides) {
  auto format = GetElementFormat(PJRT_Buffer_Type_S4);
  ASSERT_TRUE(format.ok());
  // Host [3, 2] stored column-major: element (i, j) at byte j * 3 + i.
  const std::vector<int8_t> host = {1, -2, 3, -4, 5, -6};
  std::vector<uint8_t> device(DeviceByteSize(*format, 6));
  CopyHostToDevice(*format, {3, 2}, host.data(), {1, 3}, device.data());
  std::vector<int8_t> back(6, 0);
  CopyDeviceToHost(*format, {3, 2}, device.data(), back.data(), {1, 3});
  EXPECT_EQ(back, host);
  std::vector<int8_t> row_major(6, 0);
  CopyDeviceToHost(*format, {3, 2}, device.data(), row_major.data(), {2, 1});
  EXPECT_EQ(row_major, (std::vector<int8_t>{1, -4, -2, 5, 3, -6}));
}

}  // namespace
}  // namespace plugrt::cpu
