// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// s[i] = sum_j x[i, j] for x f32 [4096, 4096]: reduce add over dimension 1 (the contiguous one) -> [4096].
module @row_sum {
  func.func public @main(%x: tensor<4096x4096xf32>) -> tensor<4096xf32> {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    return %s : tensor<4096xf32>
  }
}
