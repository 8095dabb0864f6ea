// Calls the example kernel plugin's "example.saxpy" (saxpy_kernel.c):
//   plugrt run --kernels build/lib/libplugrt_example_kernels.so \
//       examples/kernel_plugin/saxpy.mlir --input '[1,2,3,4]' --input '[10,20,30,40]'
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @example.saxpy(%x, %y) {api_version = 4 : i32,
      backend_config = {alpha = 3.0 : f32}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
