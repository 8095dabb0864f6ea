// plugrt-bench: kind=execute metric=flops ceiling=sgemm
// One SGD training step (lr 0.01) of an MLP 784 -> 1024 -> 1024 -> 10 with ReLU on a batch of 256: forward, softmax cross-entropy against the labels [256, 10] averaged over the batch, backward pass by hand, parameter update; returns the loss and the updated w1, b1, w2, b2, w3, b3.
module @mlp_train_step {
  func.func public @main(%x: tensor<256x784xf32>, %labels: tensor<256x10xf32>,
                         %w1: tensor<784x1024xf32>, %b1: tensor<1024xf32>,
                         %w2: tensor<1024x1024xf32>, %b2: tensor<1024xf32>,
                         %w3: tensor<1024x10xf32>, %b3: tensor<10xf32>)
      -> (tensor<f32>, tensor<784x1024xf32>, tensor<1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024x10xf32>, tensor<10xf32>) {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_inv_batch = stablehlo.constant dense<3.906250e-03> : tensor<f32>
    %c_neg_inv_batch = stablehlo.constant dense<-3.906250e-03> : tensor<f32>
    %c_lr = stablehlo.constant dense<1.000000e-02> : tensor<f32>
    %zeros_h = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>

    // Forward: h1 = relu(x w1 + b1), h2 = relu(h1 w2 + b2), logits = h2 w3 + b3.
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

    // d loss / d logits = (softmax(logits) * rowsum(labels) - labels) / batch
    // (softmax - labels for one-hot labels).
    %exp_sum_b = stablehlo.broadcast_in_dim %exp_sum, dims = [0] : (tensor<256xf32>) -> tensor<256x10xf32>
    %probs = stablehlo.divide %exp, %exp_sum_b : tensor<256x10xf32>
    %label_sum = stablehlo.reduce(%labels init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<256x10xf32>, tensor<f32>) -> tensor<256xf32>
    %label_sum_b = stablehlo.broadcast_in_dim %label_sum, dims = [0] : (tensor<256xf32>) -> tensor<256x10xf32>
    %probs_scaled = stablehlo.multiply %probs, %label_sum_b : tensor<256x10xf32>
    %dlogits_sum = stablehlo.subtract %probs_scaled, %labels : tensor<256x10xf32>
    %inv_batch = stablehlo.broadcast_in_dim %c_inv_batch, dims = [] : (tensor<f32>) -> tensor<256x10xf32>
    %dlogits = stablehlo.multiply %dlogits_sum, %inv_batch : tensor<256x10xf32>

    // Layer 3: dw3 = h2^T dlogits, db3 = colsum(dlogits), dh2 = dlogits w3^T.
    %dw3 = stablehlo.dot_general %h2, %dlogits, contracting_dims = [0] x [0] : (tensor<256x1024xf32>, tensor<256x10xf32>) -> tensor<1024x10xf32>
    %db3 = stablehlo.reduce(%dlogits init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<256x10xf32>, tensor<f32>) -> tensor<10xf32>
    %dh2 = stablehlo.dot_general %dlogits, %w3, contracting_dims = [1] x [1] : (tensor<256x10xf32>, tensor<1024x10xf32>) -> tensor<256x1024xf32>

    // Layer 2 (ReLU passes the gradient where z2 > 0).
    %active2 = stablehlo.compare GT, %z2, %zeros_h, FLOAT : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xi1>
    %dz2 = stablehlo.select %active2, %dh2, %zeros_h : tensor<256x1024xi1>, tensor<256x1024xf32>
    %dw2 = stablehlo.dot_general %h1, %dz2, contracting_dims = [0] x [0] : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<1024x1024xf32>
    %db2 = stablehlo.reduce(%dz2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %dh1 = stablehlo.dot_general %dz2, %w2, contracting_dims = [1] x [1] : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>

    // Layer 1.
    %active1 = stablehlo.compare GT, %z1, %zeros_h, FLOAT : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xi1>
    %dz1 = stablehlo.select %active1, %dh1, %zeros_h : tensor<256x1024xi1>, tensor<256x1024xf32>
    %dw1 = stablehlo.dot_general %x, %dz1, contracting_dims = [0] x [0] : (tensor<256x784xf32>, tensor<256x1024xf32>) -> tensor<784x1024xf32>
    %db1 = stablehlo.reduce(%dz1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<1024xf32>

    // SGD: p <- p - lr * dp.
    %lr_w1 = stablehlo.broadcast_in_dim %c_lr, dims = [] : (tensor<f32>) -> tensor<784x1024xf32>
    %step_w1 = stablehlo.multiply %dw1, %lr_w1 : tensor<784x1024xf32>
    %new_w1 = stablehlo.subtract %w1, %step_w1 : tensor<784x1024xf32>
    %lr_h = stablehlo.broadcast_in_dim %c_lr, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %step_b1 = stablehlo.multiply %db1, %lr_h : tensor<1024xf32>
    %new_b1 = stablehlo.subtract %b1, %step_b1 : tensor<1024xf32>
    %lr_w2 = stablehlo.broadcast_in_dim %c_lr, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %step_w2 = stablehlo.multiply %dw2, %lr_w2 : tensor<1024x1024xf32>
    %new_w2 = stablehlo.subtract %w2, %step_w2 : tensor<1024x1024xf32>
    %step_b2 = stablehlo.multiply %db2, %lr_h : tensor<1024xf32>
    %new_b2 = stablehlo.subtract %b2, %step_b2 : tensor<1024xf32>
    %lr_w3 = stablehlo.broadcast_in_dim %c_lr, dims = [] : (tensor<f32>) -> tensor<1024x10xf32>
    %step_w3 = stablehlo.multiply %dw3, %lr_w3 : tensor<1024x10xf32>
    %new_w3 = stablehlo.subtract %w3, %step_w3 : tensor<1024x10xf32>
    %lr_o = stablehlo.broadcast_in_dim %c_lr, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %step_b3 = stablehlo.multiply %db3, %lr_o : tensor<10xf32>
    %new_b3 = stablehlo.subtract %b3, %step_b3 : tensor<10xf32>
    return %loss, %new_w1, %new_b1, %new_w2, %new_b2, %new_w3, %new_b3 : tensor<f32>, tensor<784x1024xf32>, tensor<1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024x10xf32>, tensor<10xf32>
  }
}
