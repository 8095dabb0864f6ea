// plugrt-bench: kind=dispatch iterations=100000
// a + b on two f32 scalars: measures the fixed cost of one execute (argument checks, launch, output buffer, completion), not arithmetic.
module @dispatch_scalar_add {
  func.func public @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %c = stablehlo.add %a, %b : tensor<f32>
    return %c : tensor<f32>
  }
}
