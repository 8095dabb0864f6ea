// A small multilayer perceptron, self-contained: a batch of 4 inputs of 8
// features goes through a dense layer of 16 units with ReLU and a dense
// layer of 4 units, then softmax. Weights and inputs are constants, so
//   plugrt run examples/mlp.mlir
// needs no input files. Each output row is a probability distribution.
module @mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> tensor<4x4xf32> {
    %x = stablehlo.constant dense<[[0.841, 0.909, 0.141, -0.757, -0.959, -0.279, 0.657, 0.989],
                [0.412, -0.544, -1.000, -0.537, 0.420, 0.991, 0.650, -0.288],
                [-0.961, -0.751, 0.150, 0.913, 0.837, -0.009, -0.846, -0.906],
                [-0.132, 0.763, 0.956, 0.271, -0.664, -0.988, -0.404, 0.551]]> : tensor<4x8xf32>
    %w1 = stablehlo.constant dense<[[0.500, 0.382, 0.085, -0.252, -0.471, -0.468, -0.245, 0.093, 0.388, 0.500, 0.377, 0.077, -0.260, -0.474, -0.465, -0.238],
                 [0.102, 0.393, 0.500, 0.371, 0.068, -0.267, -0.476, -0.462, -0.230, 0.110, 0.398, 0.499, 0.366, 0.060, -0.274, -0.479],
                 [-0.459, -0.223, 0.118, 0.403, 0.499, 0.360, 0.052, -0.281, -0.481, -0.455, -0.215, 0.126, 0.408, 0.498, 0.354, 0.043],
                 [-0.288, -0.484, -0.452, -0.208, 0.134, 0.413, 0.497, 0.348, 0.035, -0.295, -0.486, -0.448, -0.200, 0.142, 0.418, 0.497],
                 [0.342, 0.027, -0.301, -0.488, -0.444, -0.192, 0.150, 0.422, 0.495, 0.336, 0.018, -0.308, -0.489, -0.440, -0.184, 0.158],
                 [0.427, 0.494, 0.329, 0.010, -0.315, -0.491, -0.436, -0.177, 0.166, 0.431, 0.493, 0.323, 0.001, -0.321, -0.492, -0.432],
                 [-0.169, 0.174, 0.435, 0.491, 0.317, -0.007, -0.327, -0.494, -0.428, -0.161, 0.182, 0.439, 0.490, 0.310, -0.015, -0.334],
                 [-0.495, -0.424, -0.153, 0.190, 0.443, 0.488, 0.303, -0.024, -0.340, -0.496, -0.419, -0.145, 0.198, 0.447, 0.486, 0.297]]> : tensor<8x16xf32>
    %b1 = stablehlo.constant dense<[0.000, 0.030, 0.056, 0.078, 0.093, 0.100, 0.097, 0.086, 0.068, 0.043, 0.014, -0.016, -0.044, -0.069, -0.087, -0.098]> : tensor<16xf32>
    %w2 = stablehlo.constant dense<[[0.288, 0.584, 0.025, -0.571],
                 [-0.330, 0.394, 0.541, -0.105],
                 [-0.597, -0.215, 0.482, 0.473],
                 [-0.229, -0.596, -0.089, 0.548],
                 [0.382, -0.343, -0.566, 0.040],
                 [0.588, 0.274, -0.441, -0.510],
                 [0.168, 0.600, 0.153, -0.518],
                 [-0.430, 0.288, 0.584, 0.024],
                 [-0.571, -0.330, 0.395, 0.541],
                 [-0.105, -0.597, -0.214, 0.483],
                 [0.473, -0.230, -0.596, -0.089],
                 [0.548, 0.382, -0.344, -0.566],
                 [0.041, 0.588, 0.274, -0.441],
                 [-0.510, 0.169, 0.600, 0.152],
                 [-0.518, -0.430, 0.289, 0.584],
                 [0.024, -0.571, -0.330, 0.395]]> : tensor<16x4xf32>
    %b2 = stablehlo.constant dense<[-0.075, -0.025, 0.025, 0.075]> : tensor<4xf32>

    // Hidden layer: relu(x @ w1 + b1).
    %xw1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %b1_rows = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    %pre = stablehlo.add %xw1, %b1_rows : tensor<4x16xf32>
    %zeros = stablehlo.constant dense<0.000000e+00> : tensor<4x16xf32>
    %hidden = stablehlo.maximum %pre, %zeros : tensor<4x16xf32>

    // Output layer: hidden @ w2 + b2.
    %hw2 = stablehlo.dot_general %hidden, %w2, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    %b2_rows = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
    %logits = stablehlo.add %hw2, %b2_rows : tensor<4x4xf32>

    // Softmax over each row; subtracting the row maximum keeps exp finite.
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %row_max = stablehlo.reduce(%logits init: %neg_inf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %row_max_b = stablehlo.broadcast_in_dim %row_max, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
    %shifted = stablehlo.subtract %logits, %row_max_b : tensor<4x4xf32>
    %exp = stablehlo.exponential %shifted : tensor<4x4xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %row_sum = stablehlo.reduce(%exp init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %row_sum_b = stablehlo.broadcast_in_dim %row_sum, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
    %probabilities = stablehlo.divide %exp, %row_sum_b : tensor<4x4xf32>
    return %probabilities : tensor<4x4xf32>
  }
}
