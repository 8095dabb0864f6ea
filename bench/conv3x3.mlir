// plugrt-bench: kind=execute metric=flops ceiling=sgemm
// 3x3 convolution, stride 1, padding 1 on each side: input NHWC f32 [32, 56, 56, 64], kernel HWIO f32 [3, 3, 64, 64] -> output NHWC f32 [32, 56, 56, 64].
module @conv3x3 {
  func.func public @main(%input: tensor<32x56x56x64xf32>, %kernel: tensor<3x3x64x64xf32>) -> tensor<32x56x56x64xf32> {
    %y = stablehlo.convolution(%input, %kernel) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<32x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<32x56x56x64xf32>
    return %y : tensor<32x56x56x64xf32>
  }
}
