// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.eigh's decomposition for a batch of 64 f32 [64, 64] as JAX exports it: @lapack_ssyevd_ffi (eigenvectors; uplo L: the symmetric matrix of A's lower triangle); vs ssyevd called directly.
module @linalg_eigh_64x64x64 {
  func.func public @main(%a: tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64xf32>, tensor<64xi32>) {
    %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>]} : (tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64xf32>, tensor<64xi32>)
    return %0#0, %0#1, %0#2 : tensor<64x64x64xf32>, tensor<64x64xf32>, tensor<64xi32>
  }
}
