// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.eigh's decomposition for f32 [512, 512] as JAX exports it: @lapack_ssyevd_ffi (eigenvectors; uplo L: the symmetric matrix of A's lower triangle); vs ssyevd called directly.
module @linalg_eigh_512 {
  func.func public @main(%a: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512xf32>, tensor<i32>) {
    %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512xf32>, tensor<i32>)
    return %0#0, %0#1, %0#2 : tensor<512x512xf32>, tensor<512xf32>, tensor<i32>
  }
}
