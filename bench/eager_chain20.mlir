// plugrt-bench: kind=eager
// 20 elementwise ops on f32[1048576] (add, multiply, subtract, tanh, maximum, minimum, negate, abs, exponential, sine, sqrt), one eager op at a time against the same ops compiled as one program (which the plugin may fuse).
module @eager_chain20 {
  func.func public @main(%x: tensor<1048576xf32>, %y: tensor<1048576xf32>) -> tensor<1048576xf32> {
    %0 = stablehlo.add %x, %y : tensor<1048576xf32>
    %1 = stablehlo.multiply %0, %x : tensor<1048576xf32>
    %2 = stablehlo.subtract %1, %y : tensor<1048576xf32>
    %3 = stablehlo.tanh %2 : tensor<1048576xf32>
    %4 = stablehlo.multiply %3, %0 : tensor<1048576xf32>
    %5 = stablehlo.maximum %4, %x : tensor<1048576xf32>
    %6 = stablehlo.minimum %5, %y : tensor<1048576xf32>
    %7 = stablehlo.negate %6 : tensor<1048576xf32>
    %8 = stablehlo.abs %7 : tensor<1048576xf32>
    %9 = stablehlo.add %8, %1 : tensor<1048576xf32>
    %10 = stablehlo.exponential %7 : tensor<1048576xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<1048576xf32>
    %12 = stablehlo.subtract %11, %3 : tensor<1048576xf32>
    %13 = stablehlo.sine %12 : tensor<1048576xf32>
    %14 = stablehlo.add %13, %x : tensor<1048576xf32>
    %15 = stablehlo.multiply %14, %14 : tensor<1048576xf32>
    %16 = stablehlo.sqrt %15 : tensor<1048576xf32>
    %17 = stablehlo.subtract %16, %8 : tensor<1048576xf32>
    %18 = stablehlo.maximum %17, %2 : tensor<1048576xf32>
    %19 = stablehlo.add %18, %10 : tensor<1048576xf32>
    return %19 : tensor<1048576xf32>
  }
}
