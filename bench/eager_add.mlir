// plugrt-bench: kind=eager iterations=100000
// a + b on two f32 scalars as one cached eager op (plugrt::eager, sync executor): the per-op overhead of eager mode; the fused column is the same add as a compiled program.
module @eager_add {
  func.func public @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %c = stablehlo.add %a, %b : tensor<f32>
    return %c : tensor<f32>
  }
}
