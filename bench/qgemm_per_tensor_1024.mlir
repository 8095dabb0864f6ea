// plugrt-bench: kind=execute metric=flops ceiling=int8gemm
// Quantized C = A x B, [1024, 1024] i8 storage: A scale 0.02 zero point -3, B scale 0.01, C scale 0.5 zero point 5.
module @qgemm_per_tensor_1024 {
  func.func public @main(%a: tensor<1024x1024x!quant.uniform<i8:f32, 0.02:-3>>, %b: tensor<1024x1024x!quant.uniform<i8:f32, 0.01>>) -> tensor<1024x1024x!quant.uniform<i8:f32, 0.5:5>> {
    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024x!quant.uniform<i8:f32, 0.02:-3>>, tensor<1024x1024x!quant.uniform<i8:f32, 0.01>>) -> tensor<1024x1024x!quant.uniform<i8:f32, 0.5:5>>
    return %c : tensor<1024x1024x!quant.uniform<i8:f32, 0.5:5>>
  }
}
