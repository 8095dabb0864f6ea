// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// Softmax over the last axis of x f32 [4096, 4096]: exp(x - rowmax(x)) / rowsum(exp(x - rowmax(x))).
module @softmax {
  func.func public @main(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %row_max = stablehlo.reduce(%x init: %neg_inf) applies stablehlo.maximum across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    %row_max_b = stablehlo.broadcast_in_dim %row_max, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
    %shifted = stablehlo.subtract %x, %row_max_b : tensor<4096x4096xf32>
    %exp = stablehlo.exponential %shifted : tensor<4096x4096xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %row_sum = stablehlo.reduce(%exp init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    %row_sum_b = stablehlo.broadcast_in_dim %row_sum, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
    %y = stablehlo.divide %exp, %row_sum_b : tensor<4096x4096xf32>
    return %y : tensor<4096x4096xf32>
  }
}
