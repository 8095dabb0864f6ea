// plugrt-bench: kind=execute metric=bytes ceiling=bandwidth
// y = 0.5*x*(1 + tanh(0.7978845608*(x + 0.044715*x^3))) + 0.01*exp(-x*x) over 16777216 f32 elements: 13 elementwise ops (tanh and exp among them), scalar constants broadcast as JAX emits them.
module @elementwise_chain {
  func.func public @main(%x: tensor<16777216xf32>) -> tensor<16777216xf32> {
    %c_half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_k = stablehlo.constant dense<0.7978845608> : tensor<f32>
    %c_cubic = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %c_small = stablehlo.constant dense<1.000000e-02> : tensor<f32>
    %half = stablehlo.broadcast_in_dim %c_half, dims = [] : (tensor<f32>) -> tensor<16777216xf32>
    %one = stablehlo.broadcast_in_dim %c_one, dims = [] : (tensor<f32>) -> tensor<16777216xf32>
    %k = stablehlo.broadcast_in_dim %c_k, dims = [] : (tensor<f32>) -> tensor<16777216xf32>
    %cubic = stablehlo.broadcast_in_dim %c_cubic, dims = [] : (tensor<f32>) -> tensor<16777216xf32>
    %small = stablehlo.broadcast_in_dim %c_small, dims = [] : (tensor<f32>) -> tensor<16777216xf32>
    %x2 = stablehlo.multiply %x, %x : tensor<16777216xf32>
    %x3 = stablehlo.multiply %x2, %x : tensor<16777216xf32>
    %t = stablehlo.multiply %cubic, %x3 : tensor<16777216xf32>
    %u = stablehlo.add %x, %t : tensor<16777216xf32>
    %v = stablehlo.multiply %k, %u : tensor<16777216xf32>
    %th = stablehlo.tanh %v : tensor<16777216xf32>
    %w = stablehlo.add %one, %th : tensor<16777216xf32>
    %hx = stablehlo.multiply %half, %x : tensor<16777216xf32>
    %g = stablehlo.multiply %hx, %w : tensor<16777216xf32>
    %nx2 = stablehlo.negate %x2 : tensor<16777216xf32>
    %e = stablehlo.exponential %nx2 : tensor<16777216xf32>
    %f = stablehlo.multiply %small, %e : tensor<16777216xf32>
    %y = stablehlo.add %g, %f : tensor<16777216xf32>
    return %y : tensor<16777216xf32>
  }
}
