// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.lu's factorization of f32 [512, 512] as JAX exports it: custom_call @lapack_sgetrf_ffi (column-major, batch leading); vs LAPACK's sgetrf called directly.
module @linalg_lu_512 {
  func.func public @main(%a: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512xi32>, tensor<i32>) {
    %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {api_version = 4 : i32, mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512xi32>, tensor<i32>)
    return %0#0, %0#1, %0#2 : tensor<512x512xf32>, tensor<512xi32>, tensor<i32>
  }
}
