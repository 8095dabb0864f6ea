// The forward pass of bench/mlp_train_step.mlir alone: an MLP 784 -> 1024 ->
// 1024 -> 10 with ReLU on a batch of 256, softmax cross-entropy against the
// labels [256, 10] averaged over the batch. Its training step is written by
//   plugrt grad examples/mlp_loss.mlir --wrt 2,3,4,5,6,7 --value --sgd 0.01
// and returns what the hand-written step returns (the loss, then w1, b1, w2,
// b2, w3, b3 updated); tests/tools/cli_run_test.cc checks that both agree.
module @mlp_loss {
  func.func public @main(%x: tensor<256x784xf32>, %labels: tensor<256x10xf32>,
                         %w1: tensor<784x1024xf32>, %b1: tensor<1024xf32>,
                         %w2: tensor<1024x1024xf32>, %b2: tensor<1024xf32>,
                         %w3: tensor<1024x10xf32>, %b3: tensor<10xf32>) -> tensor<f32> {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_neg_inv_batch = stablehlo.constant dense<-3.906250e-03> : tensor<f32>
    %zeros_h = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>

    %xw1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x784xf32>, tensor<784x1024xf32>) -> tensor<256x1024xf32>
    %b1_b = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<1024xf32>) -> tensor<256x1024xf32>
    %z1 = stablehlo.add %xw1, %b1_b : tensor<256x1024xf32>
    %h1 = stablehlo.maximum %z1, %zeros_h : tensor<256x1024xf32>
    %h1w2 = stablehlo.dot_general %h1, %w2, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
    %b2_b = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<1024xf32>) -> tensor<256x1024xf32>
    %z2 = stablehlo.add %h1w2, %b2_b : tensor<256x1024xf32>
    %h2 = stablehlo.maximum %z2, %zeros_h : tensor<256x1024xf32>
    %h2w3 = stablehlo.dot_general %h2, %w3, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x10xf32>) -> tensor<256x10xf32>
    %b3_b = stablehlo.broadcast_in_dim %b3, dims = [1] : (tensor<10xf32>) -> tensor<256x10xf32>
    %logits = stablehlo.add %h2w3, %b3_b : tensor<256x10xf32>

    // log_softmax(logits) = s - log(sum(exp(s))) with s = logits - rowmax(logits).
    %row_max = stablehlo.reduce(%logits init: %neg_inf) applies stablehlo.maximum across dimensions = [1] : (tensor<256x10xf32>, tensor<f32>) -> tensor<256xf32>
    %row_max_b = stablehlo.broadcast_in_dim %row_max, dims = [0] : (tensor<256xf32>) -> tensor<256x10xf32>
    %shifted = stablehlo.subtract %logits, %row_max_b : tensor<256x10xf32>
    %exp = stablehlo.exponential %shifted : tensor<256x10xf32>
    %exp_sum = stablehlo.reduce(%exp init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<256x10xf32>, tensor<f32>) -> tensor<256xf32>
    %log_sum = stablehlo.log %exp_sum : tensor<256xf32>
    %log_sum_b = stablehlo.broadcast_in_dim %log_sum, dims = [0] : (tensor<256xf32>) -> tensor<256x10xf32>
    %log_probs = stablehlo.subtract %shifted, %log_sum_b : tensor<256x10xf32>

    // loss = -sum(labels * log_probs) / batch.
    %weighted = stablehlo.multiply %labels, %log_probs : tensor<256x10xf32>
    %total = stablehlo.reduce(%weighted init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x10xf32>, tensor<f32>) -> tensor<f32>
    %loss = stablehlo.multiply %total, %c_neg_inv_batch : tensor<f32>
    return %loss : tensor<f32>
  }
}
