// plugrt-bench: kind=execute metric=flops ceiling=sgemm compare=bytecode,cache
// Forward pass of a pre-layer-norm transformer encoder block, f32, batch 4, sequence 512, width 512: x1 = x + (softmax(q k^T / sqrt(64)) v) wo with q, k, v = LN1(x) wq, wk, wv split into 8 heads of 64 (no mask); out = x1 + gelu_tanh(LN2(x1) w1 + b1) w2 + b2 (MLP 2048; layer norms over the width, eps 1e-5, with gamma and beta).
module @transformer_block {
  func.func public @main(%x: tensor<4x512x512xf32>,
                         %wq: tensor<512x512xf32>, %wk: tensor<512x512xf32>, %wv: tensor<512x512xf32>, %wo: tensor<512x512xf32>,
                         %w1: tensor<512x2048xf32>, %b1: tensor<2048xf32>, %w2: tensor<2048x512xf32>, %b2: tensor<512xf32>,
                         %ln1_gamma: tensor<512xf32>, %ln1_beta: tensor<512xf32>, %ln2_gamma: tensor<512xf32>, %ln2_beta: tensor<512xf32>) -> tensor<4x512x512xf32> {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_inv_width = stablehlo.constant dense<1.953125e-03> : tensor<f32>
    %c_eps = stablehlo.constant dense<1.000000e-05> : tensor<f32>
    %c_scale = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %c_half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_k = stablehlo.constant dense<0.7978845608> : tensor<f32>
    %c_cubic = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %inv_width = stablehlo.broadcast_in_dim %c_inv_width, dims = [] : (tensor<f32>) -> tensor<4x512xf32>
    %eps = stablehlo.broadcast_in_dim %c_eps, dims = [] : (tensor<f32>) -> tensor<4x512xf32>

    // Attention sub-block on LN1(x).
    %ln1_sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x512x512xf32>, tensor<f32>) -> tensor<4x512xf32>
    %ln1_mean = stablehlo.multiply %ln1_sum, %inv_width : tensor<4x512xf32>
    %ln1_mean_b = stablehlo.broadcast_in_dim %ln1_mean, dims = [0, 1] : (tensor<4x512xf32>) -> tensor<4x512x512xf32>
    %ln1_centered = stablehlo.subtract %x, %ln1_mean_b : tensor<4x512x512xf32>
    %ln1_squared = stablehlo.multiply %ln1_centered, %ln1_centered : tensor<4x512x512xf32>
    %ln1_sq_sum = stablehlo.reduce(%ln1_squared init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x512x512xf32>, tensor<f32>) -> tensor<4x512xf32>
    %ln1_var = stablehlo.multiply %ln1_sq_sum, %inv_width : tensor<4x512xf32>
    %ln1_var_eps = stablehlo.add %ln1_var, %eps : tensor<4x512xf32>
    %ln1_rstd = stablehlo.rsqrt %ln1_var_eps : tensor<4x512xf32>
    %ln1_rstd_b = stablehlo.broadcast_in_dim %ln1_rstd, dims = [0, 1] : (tensor<4x512xf32>) -> tensor<4x512x512xf32>
    %ln1_normalized = stablehlo.multiply %ln1_centered, %ln1_rstd_b : tensor<4x512x512xf32>
    %ln1_gamma_b = stablehlo.broadcast_in_dim %ln1_gamma, dims = [2] : (tensor<512xf32>) -> tensor<4x512x512xf32>
    %ln1_beta_b = stablehlo.broadcast_in_dim %ln1_beta, dims = [2] : (tensor<512xf32>) -> tensor<4x512x512xf32>
    %ln1_scaled = stablehlo.multiply %ln1_normalized, %ln1_gamma_b : tensor<4x512x512xf32>
    %ln1 = stablehlo.add %ln1_scaled, %ln1_beta_b : tensor<4x512x512xf32>
    %q = stablehlo.dot_general %ln1, %wq, contracting_dims = [2] x [0] : (tensor<4x512x512xf32>, tensor<512x512xf32>) -> tensor<4x512x512xf32>
    %k = stablehlo.dot_general %ln1, %wk, contracting_dims = [2] x [0] : (tensor<4x512x512xf32>, tensor<512x512xf32>) -> tensor<4x512x512xf32>
    %v = stablehlo.dot_general %ln1, %wv, contracting_dims = [2] x [0] : (tensor<4x512x512xf32>, tensor<512x512xf32>) -> tensor<4x512x512xf32>
    %q_heads = stablehlo.reshape %q : (tensor<4x512x512xf32>) -> tensor<4x512x8x64xf32>
    %k_heads = stablehlo.reshape %k : (tensor<4x512x512xf32>) -> tensor<4x512x8x64xf32>
    %v_heads = stablehlo.reshape %v : (tensor<4x512x512xf32>) -> tensor<4x512x8x64xf32>
    // scores[b, h, i, j] = q[b, i, h, :] . k[b, j, h, :]
    %scores = stablehlo.dot_general %q_heads, %k_heads, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<4x512x8x64xf32>, tensor<4x512x8x64xf32>) -> tensor<4x8x512x512xf32>
    %scale = stablehlo.broadcast_in_dim %c_scale, dims = [] : (tensor<f32>) -> tensor<4x8x512x512xf32>
    %scaled_scores = stablehlo.multiply %scores, %scale : tensor<4x8x512x512xf32>
    %row_max = stablehlo.reduce(%scaled_scores init: %neg_inf) applies stablehlo.maximum across dimensions = [3] : (tensor<4x8x512x512xf32>, tensor<f32>) -> tensor<4x8x512xf32>
    %row_max_b = stablehlo.broadcast_in_dim %row_max, dims = [0, 1, 2] : (tensor<4x8x512xf32>) -> tensor<4x8x512x512xf32>
    %shifted = stablehlo.subtract %scaled_scores, %row_max_b : tensor<4x8x512x512xf32>
    %exp = stablehlo.exponential %shifted : tensor<4x8x512x512xf32>
    %row_sum = stablehlo.reduce(%exp init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<4x8x512x512xf32>, tensor<f32>) -> tensor<4x8x512xf32>
    %row_sum_b = stablehlo.broadcast_in_dim %row_sum, dims = [0, 1, 2] : (tensor<4x8x512xf32>) -> tensor<4x8x512x512xf32>
    %probs = stablehlo.divide %exp, %row_sum_b : tensor<4x8x512x512xf32>
    // context[b, h, i, :] = sum_j probs[b, h, i, j] v[b, j, h, :]
    %context = stablehlo.dot_general %probs, %v_heads, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<4x8x512x512xf32>, tensor<4x512x8x64xf32>) -> tensor<4x8x512x64xf32>
    %context_t = stablehlo.transpose %context, dims = [0, 2, 1, 3] : (tensor<4x8x512x64xf32>) -> tensor<4x512x8x64xf32>
    %context_flat = stablehlo.reshape %context_t : (tensor<4x512x8x64xf32>) -> tensor<4x512x512xf32>
    %attention = stablehlo.dot_general %context_flat, %wo, contracting_dims = [2] x [0] : (tensor<4x512x512xf32>, tensor<512x512xf32>) -> tensor<4x512x512xf32>
    %x1 = stablehlo.add %x, %attention : tensor<4x512x512xf32>

    // MLP sub-block on LN2(x1).
    %ln2_sum = stablehlo.reduce(%x1 init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x512x512xf32>, tensor<f32>) -> tensor<4x512xf32>
    %ln2_mean = stablehlo.multiply %ln2_sum, %inv_width : tensor<4x512xf32>
    %ln2_mean_b = stablehlo.broadcast_in_dim %ln2_mean, dims = [0, 1] : (tensor<4x512xf32>) -> tensor<4x512x512xf32>
    %ln2_centered = stablehlo.subtract %x1, %ln2_mean_b : tensor<4x512x512xf32>
    %ln2_squared = stablehlo.multiply %ln2_centered, %ln2_centered : tensor<4x512x512xf32>
    %ln2_sq_sum = stablehlo.reduce(%ln2_squared init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x512x512xf32>, tensor<f32>) -> tensor<4x512xf32>
    %ln2_var = stablehlo.multiply %ln2_sq_sum, %inv_width : tensor<4x512xf32>
    %ln2_var_eps = stablehlo.add %ln2_var, %eps : tensor<4x512xf32>
    %ln2_rstd = stablehlo.rsqrt %ln2_var_eps : tensor<4x512xf32>
    %ln2_rstd_b = stablehlo.broadcast_in_dim %ln2_rstd, dims = [0, 1] : (tensor<4x512xf32>) -> tensor<4x512x512xf32>
    %ln2_normalized = stablehlo.multiply %ln2_centered, %ln2_rstd_b : tensor<4x512x512xf32>
    %ln2_gamma_b = stablehlo.broadcast_in_dim %ln2_gamma, dims = [2] : (tensor<512xf32>) -> tensor<4x512x512xf32>
    %ln2_beta_b = stablehlo.broadcast_in_dim %ln2_beta, dims = [2] : (tensor<512xf32>) -> tensor<4x512x512xf32>
    %ln2_scaled = stablehlo.multiply %ln2_normalized, %ln2_gamma_b : tensor<4x512x512xf32>
    %ln2 = stablehlo.add %ln2_scaled, %ln2_beta_b : tensor<4x512x512xf32>
    %up = stablehlo.dot_general %ln2, %w1, contracting_dims = [2] x [0] : (tensor<4x512x512xf32>, tensor<512x2048xf32>) -> tensor<4x512x2048xf32>
    %b1_b = stablehlo.broadcast_in_dim %b1, dims = [2] : (tensor<2048xf32>) -> tensor<4x512x2048xf32>
    %z = stablehlo.add %up, %b1_b : tensor<4x512x2048xf32>
    // gelu(z) = 0.5 z (1 + tanh(0.7978845608 (z + 0.044715 z^3)))
    %half = stablehlo.broadcast_in_dim %c_half, dims = [] : (tensor<f32>) -> tensor<4x512x2048xf32>
    %one = stablehlo.broadcast_in_dim %c_one, dims = [] : (tensor<f32>) -> tensor<4x512x2048xf32>
    %k_gelu = stablehlo.broadcast_in_dim %c_k, dims = [] : (tensor<f32>) -> tensor<4x512x2048xf32>
    %cubic = stablehlo.broadcast_in_dim %c_cubic, dims = [] : (tensor<f32>) -> tensor<4x512x2048xf32>
    %z2 = stablehlo.multiply %z, %z : tensor<4x512x2048xf32>
    %z3 = stablehlo.multiply %z2, %z : tensor<4x512x2048xf32>
    %cz3 = stablehlo.multiply %cubic, %z3 : tensor<4x512x2048xf32>
    %inner = stablehlo.add %z, %cz3 : tensor<4x512x2048xf32>
    %arg = stablehlo.multiply %k_gelu, %inner : tensor<4x512x2048xf32>
    %th = stablehlo.tanh %arg : tensor<4x512x2048xf32>
    %one_th = stablehlo.add %one, %th : tensor<4x512x2048xf32>
    %half_z = stablehlo.multiply %half, %z : tensor<4x512x2048xf32>
    %gelu = stablehlo.multiply %half_z, %one_th : tensor<4x512x2048xf32>
    %down = stablehlo.dot_general %gelu, %w2, contracting_dims = [2] x [0] : (tensor<4x512x2048xf32>, tensor<2048x512xf32>) -> tensor<4x512x512xf32>
    %b2_b = stablehlo.broadcast_in_dim %b2, dims = [2] : (tensor<512xf32>) -> tensor<4x512x512xf32>
    %mlp = stablehlo.add %down, %b2_b : tensor<4x512x512xf32>
    %out = stablehlo.add %x1, %mlp : tensor<4x512x512xf32>
    return %out : tensor<4x512x512xf32>
  }
}
