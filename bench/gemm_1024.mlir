// plugrt-bench: kind=execute metric=flops ceiling=sgemm
// C = A x B with A, B, C f32 [1024, 1024]: one dot_general contracting A's columns with B's rows.
module @gemm_1024 {
  func.func public @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %c : tensor<1024x1024xf32>
  }
}
