// plugrt tests: building kernel inputs from, and reading results into,
// plain C++ vectors.
#ifndef PLUGRT_TESTS_TESTUTIL_TENSOR_VALUES_H_
#define PLUGRT_TESTS_TESTUTIL_TENSOR_VALUES_H_

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cpu/kernels/tensor.h"

namespace plugrt::testing {

// A tensor of `type` and `dims` holding `values` (whose C++ type must match
// the storage format); the element count is checked.
template <typename T>
cpu::Tensor MakeTensor(cpu::ElementType type, std::vector<int64_t> dims,
                       const std::vector<T>& values) {
  cpu::Tensor t(type, std::move(dims));
  EXPECT_EQ(static_cast<size_t>(t.num_elements()), values.size());
  if (!values.empty()) std::memcpy(t.MutableData(), values.data(), values.size() * sizeof(T));
  return t;
}

// The tensor's elements as a vector of T.
template <typename T>
std::vector<T> TensorValues(const cpu::Tensor& t) {
  std::vector<T> out(static_cast<size_t>(t.num_elements()));
  if (!out.empty()) std::memcpy(out.data(), t.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_TENSOR_VALUES_H_
