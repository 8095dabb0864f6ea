// plugrt-bench: kind=execute metric=flops ceiling=int8gemm
// C = A x B with A, B i8 [1024, 1024], C i32: the integer product.
module @igemm_1024 {
  func.func public @main(%a: tensor<1024x1024xi8>, %b: tensor<1024x1024xi8>) -> tensor<1024x1024xi32> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xi8>, tensor<1024x1024xi8>) -> tensor<1024x1024xi32>
    return %c : tensor<1024x1024xi32>
  }
}
