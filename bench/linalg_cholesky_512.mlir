// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.cholesky's factorization of S = A + n I for f32 [512, 512] (positive definite: its lower triangle, which potrf reads, is diagonally dominant): iota/select/add, @lapack_spotrf_ffi (uplo L); vs the same diagonal + spotrf called directly.
module @linalg_cholesky_512 {
  func.func public @main(%a: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<i32>) {
    %i = stablehlo.iota dim = 0 : tensor<512x512xi32>
    %j = stablehlo.iota dim = 1 : tensor<512x512xi32>
    %diag = stablehlo.compare EQ, %i, %j : (tensor<512x512xi32>, tensor<512x512xi32>) -> tensor<512x512xi1>
    %nn = stablehlo.constant dense<512.0> : tensor<512x512xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<512x512xf32>
    %shift = stablehlo.select %diag, %nn, %zero : tensor<512x512xi1>, tensor<512x512xf32>
    %s = stablehlo.add %a, %shift : tensor<512x512xf32>
    %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%s) {api_version = 4 : i32, mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<i32>)
    return %0#0, %0#1 : tensor<512x512xf32>, tensor<i32>
  }
}
