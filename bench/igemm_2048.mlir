// plugrt-bench: kind=execute metric=flops ceiling=int8gemm
// C = A x B with A, B i8 [2048, 2048], C i32: the integer product.
module @igemm_2048 {
  func.func public @main(%a: tensor<2048x2048xi8>, %b: tensor<2048x2048xi8>) -> tensor<2048x2048xi32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2048x2048xi8>, tensor<2048x2048xi8>) -> tensor<2048x2048xi32>
    return %c : tensor<2048x2048xi32>
  }
}
