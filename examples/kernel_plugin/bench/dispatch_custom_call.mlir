// plugrt-bench: kind=dispatch iterations=100000
// 3x + y on f32[4] through the example kernel plugin's custom call (run with --kernels libplugrt_example_kernels.so): the fixed cost of one execute plus one kernel-plugin call.
module @dispatch_custom_call {
  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @example.saxpy(%x, %y) {api_version = 4 : i32,
        backend_config = {alpha = 3.0 : f32}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
