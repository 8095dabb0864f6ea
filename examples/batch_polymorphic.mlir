// A shape-polymorphic program in the form jax.export writes for a batch
// dimension `b` (a dense layer, relu, then a row sum): @main reads b from
// its argument's shape, asserts b >= 1 and passes it on to the computation,
// which builds its shapes from it.
//   build/bin/plugrt run examples/batch_polymorphic.mlir -i x.npy   (x: float32[b, 4])
module @jit_dense attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<?x4xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<?x3xf32> {jax.result_info = "[0]"}, tensor<?xf32> {jax.result_info = "[1]"}) {
    %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %b64 = stablehlo.convert %b : (tensor<i32>) -> tensor<i64>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %ok = stablehlo.compare GE, %b64, %one, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%ok, %b64) {error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0].", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
    %y:2 = call @_wrapped_jax_export_main(%b64, %x) : (tensor<i64>, tensor<?x4xf32>) -> (tensor<?x3xf32>, tensor<?xf32>)
    return %y#0, %y#1 : tensor<?x3xf32>, tensor<?xf32>
  }
  func.func private @_wrapped_jax_export_main(%b: tensor<i64> {jax.global_constant = "b"}, %x: tensor<?x4xf32>) -> (tensor<?x3xf32>, tensor<?xf32>) {
    %w = stablehlo.constant dense<[[1.0, -1.0, 0.5], [0.5, 2.0, -1.0], [-0.25, 1.0, 1.0], [1.0, 0.0, 0.25]]> : tensor<4x3xf32>
    %bias = stablehlo.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
    %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
    %three = stablehlo.constant dense<3> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %bb = stablehlo.dynamic_broadcast_in_dim %bias, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %z = stablehlo.add %h, %bb : tensor<?x3xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %zeros = stablehlo.dynamic_broadcast_in_dim %zero, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %relu = stablehlo.maximum %z, %zeros : tensor<?x3xf32>
    %sum = stablehlo.reduce(%relu init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
    return %relu, %sum : tensor<?x3xf32>, tensor<?xf32>
  }
}
