// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.qr of f32 [512, 512] as JAX exports it: @lapack_sgeqrf_ffi, then @lapack_sorgqr_ffi for Q; vs sgeqrf + sorgqr called directly.
module @linalg_qr_512 {
  func.func public @main(%a: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>]} : (tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512xf32>)
    %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<512x512xf32>, tensor<512xf32>) -> tensor<512x512xf32>
    return %1, %0#0 : tensor<512x512xf32>, tensor<512x512xf32>
  }
}
