// plugrt-bench: kind=dispatch iterations=100000
// 3x + y on f32[4] through the kernel-ABI handler marked PLUGRT_KernelFlag_INLINE_SAFE (run with --kernels libplugrt_example_kernels.so): one execute plus one call, against dispatch_custom_call and dispatch_builtin.
module @dispatch_custom_call_inline {
  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @example.saxpy_inline(%x, %y) {api_version = 4 : i32, backend_config = {alpha = 3.0 : f32}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
