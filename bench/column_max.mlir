// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// m[j] = max_i x[i, j] for x f32 [4096, 4096]: reduce maximum over dimension 0 (the strided one), starting from -inf -> [4096].
module @column_max {
  func.func public @main(%x: tensor<4096x4096xf32>) -> tensor<4096xf32> {
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %neg_inf) applies stablehlo.maximum across dimensions = [0] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    return %m : tensor<4096xf32>
  }
}
