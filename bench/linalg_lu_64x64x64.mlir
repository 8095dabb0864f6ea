// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.lu's factorization of a batch of 64 f32 [64, 64] as JAX exports it: custom_call @lapack_sgetrf_ffi (column-major, batch leading); vs LAPACK's sgetrf called directly.
module @linalg_lu_64x64x64 {
  func.func public @main(%a: tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64xi32>, tensor<64xi32>) {
    %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>]} : (tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64x64xi32>, tensor<64xi32>)
    return %0#0, %0#1, %0#2 : tensor<64x64x64xf32>, tensor<64x64xi32>, tensor<64xi32>
  }
}
