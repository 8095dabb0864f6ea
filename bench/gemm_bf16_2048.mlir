// plugrt-bench: kind=execute metric=flops ceiling=bf16gemm
// C = A x B with A, B bf16 [2048, 2048] and C f32 [2048, 2048]: dot_general on bf16 arguments accumulating into an f32 result.
module @gemm_bf16_2048 {
  func.func public @main(%a: tensor<2048x2048xbf16>, %b: tensor<2048x2048xbf16>) -> tensor<2048x2048xf32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    return %c : tensor<2048x2048xf32>
  }
}
