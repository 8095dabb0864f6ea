// plugrt-bench: kind=execute metric=flops ceiling=bf16gemm
// C = A x B with A, B bf16 [1024, 1024] and C f32 [1024, 1024]: dot_general on bf16 arguments accumulating into an f32 result.
module @gemm_bf16_1024 {
  func.func public @main(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xf32>
    return %c : tensor<1024x1024xf32>
  }
}
