// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.qr of a batch of 64 f32 [64, 64] as JAX exports it: @lapack_sgeqrf_ffi, then @lapack_sorgqr_ffi for Q; vs sgeqrf + sorgqr called directly.
module @linalg_qr_64x64x64 {
  func.func public @main(%a: tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64x64xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64xf32>)
    %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<64x64x64xf32>, tensor<64x64xf32>) -> tensor<64x64x64xf32>
    return %1, %0#0 : tensor<64x64x64xf32>, tensor<64x64x64xf32>
  }
}
