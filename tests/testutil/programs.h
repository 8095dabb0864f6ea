// The small canonical programs shared by the tests (header-only: IR-only
// tests use it too).
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

// a + b over f32[4].
inline constexpr const char* kAddProgram = R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";

// kAddProgram with its first argument donated to the output.
inline constexpr const char* kDonatingAddProgram = R"(
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";

// x * x over f32[3].
inline constexpr const char* kSquareProgram = R"(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
)";

// A scalar broadcast to 10^12 f32 elements (4 TB, more than any test
// machine): a valid program that fails at run time with RESOURCE_EXHAUSTED.
inline constexpr const char* kOversizedProgram = R"(
func.func @main(%x: tensor<f32>) -> tensor<100000x100000x100xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<100000x100000x100xf32>
  return %0 : tensor<100000x100000x100xf32>
}
)";

// A dead add beside a send to the host: dead-code elimination drops the add
// and keeps the send (an op with effects).
inline constexpr const char* kDeadAddBesideSendProgram = R"(
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %dead = stablehlo.add %x, %x : tensor<2xf32>
  %t = stablehlo.create_token : !stablehlo.token
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<2xf32>
}
)";

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_PROGRAMS_H_
