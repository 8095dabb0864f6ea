// plugrt-bench: kind=dispatch iterations=100000
// 3x + y on f32[4] through an untyped XLA custom call (api_version 1) registered through the kernel ABI (inline-safe) (run with --kernels libplugrt_example_kernels.so): one execute plus one call, against dispatch_custom_call and dispatch_builtin.
module @dispatch_custom_call_untyped {
  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @example.saxpy_untyped(%x, %y) {api_version = 1 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
