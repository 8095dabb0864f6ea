// plugrt-bench: kind=dispatch iterations=100000
// 3x + y on f32[4] with built-in ops: the baseline of dispatch_custom_call.
module @dispatch_builtin {
  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %alpha = stablehlo.constant dense<3.0> : tensor<4xf32>
    %0 = stablehlo.multiply %alpha, %x : tensor<4xf32>
    %1 = stablehlo.add %0, %y : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
