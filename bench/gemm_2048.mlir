// plugrt-bench: kind=execute metric=flops ceiling=sgemm
// C = A x B with A, B, C f32 [2048, 2048]: one dot_general contracting A's columns with B's rows.
module @gemm_2048 {
  func.func public @main(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    return %c : tensor<2048x2048xf32>
  }
}
