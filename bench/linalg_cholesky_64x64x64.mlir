// plugrt-bench: kind=execute ceiling=lapack
// jnp.linalg.cholesky's factorization of S = A + n I for a batch of 64 f32 [64, 64] (positive definite: its lower triangle, which potrf reads, is diagonally dominant): iota/select/add, @lapack_spotrf_ffi (uplo L); vs the same diagonal + spotrf called directly.
module @linalg_cholesky_64x64x64 {
  func.func public @main(%a: tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64xi32>) {
    %i = stablehlo.iota dim = 1 : tensor<64x64x64xi32>
    %j = stablehlo.iota dim = 2 : tensor<64x64x64xi32>
    %diag = stablehlo.compare EQ, %i, %j : (tensor<64x64x64xi32>, tensor<64x64x64xi32>) -> tensor<64x64x64xi1>
    %nn = stablehlo.constant dense<64.0> : tensor<64x64x64xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<64x64x64xf32>
    %shift = stablehlo.select %diag, %nn, %zero : tensor<64x64x64xi1>, tensor<64x64x64xf32>
    %s = stablehlo.add %a, %shift : tensor<64x64x64xf32>
    %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%s) {api_version = 4 : i32, mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[0]> : tensor<1xindex>]} : (tensor<64x64x64xf32>) -> (tensor<64x64x64xf32>, tensor<64xi32>)
    return %0#0, %0#1 : tensor<64x64x64xf32>, tensor<64xi32>
  }
}
