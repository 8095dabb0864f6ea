// Programs with hand-computed metadata, shared by the executable tests.
#ifndef PLUGRT_TESTS_TESTUTIL_PROGRAMS_H_
#define PLUGRT_TESTS_TESTUTIL_PROGRAMS_H_

namespace plugrt::testing {

// dot_general: 2*M*N*K = 2*2*4*3 = 48 flops; exponential: 6 transcendentals.
// Bytes: dot reads 24 + 48 and writes 32 (104); exponential reads and
// writes 24 each (48): 152 bytes accessed.
inline constexpr const char* kCostProgram = R"(
module @costly {
  func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.exponential %a : tensor<2x3xf32>
    return %0, %1 : tensor<2x4xf32>, tensor<2x3xf32>
  }
}
)";

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_PROGRAMS_H_
