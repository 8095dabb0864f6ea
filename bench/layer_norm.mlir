// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// Layer normalization of x f32 [8192, 1024] over its last axis, eps 1e-5: y = (x - mean) * rsqrt(var + eps) * gamma + beta, var the biased variance, gamma and beta f32 [1024].
module @layer_norm {
  func.func public @main(%x: tensor<8192x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<8192x1024xf32> {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_inv_n = stablehlo.constant dense<9.765625e-04> : tensor<f32>
    %c_eps = stablehlo.constant dense<1.000000e-05> : tensor<f32>
    %inv_n = stablehlo.broadcast_in_dim %c_inv_n, dims = [] : (tensor<f32>) -> tensor<8192xf32>
    %eps = stablehlo.broadcast_in_dim %c_eps, dims = [] : (tensor<f32>) -> tensor<8192xf32>
    %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8192x1024xf32>, tensor<f32>) -> tensor<8192xf32>
    %mean = stablehlo.multiply %sum, %inv_n : tensor<8192xf32>
    %mean_b = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<8192xf32>) -> tensor<8192x1024xf32>
    %centered = stablehlo.subtract %x, %mean_b : tensor<8192x1024xf32>
    %squared = stablehlo.multiply %centered, %centered : tensor<8192x1024xf32>
    %sq_sum = stablehlo.reduce(%squared init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8192x1024xf32>, tensor<f32>) -> tensor<8192xf32>
    %var = stablehlo.multiply %sq_sum, %inv_n : tensor<8192xf32>
    %var_eps = stablehlo.add %var, %eps : tensor<8192xf32>
    %rstd = stablehlo.rsqrt %var_eps : tensor<8192xf32>
    %rstd_b = stablehlo.broadcast_in_dim %rstd, dims = [0] : (tensor<8192xf32>) -> tensor<8192x1024xf32>
    %normalized = stablehlo.multiply %centered, %rstd_b : tensor<8192x1024xf32>
    %gamma_b = stablehlo.broadcast_in_dim %gamma, dims = [1] : (tensor<1024xf32>) -> tensor<8192x1024xf32>
    %beta_b = stablehlo.broadcast_in_dim %beta, dims = [1] : (tensor<1024xf32>) -> tensor<8192x1024xf32>
    %scaled = stablehlo.multiply %normalized, %gamma_b : tensor<8192x1024xf32>
    %y = stablehlo.add %scaled, %beta_b : tensor<8192x1024xf32>
    return %y : tensor<8192x1024xf32>
  }
}
