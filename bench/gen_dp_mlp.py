#!/usr/bin/env python3
"""Writes a data-parallel MLP training program for scripts/bench_allreduce.sh.

The program runs STEPS SGD steps (lr 0.01) of an MLP IN -> HIDDEN -> HIDDEN -> 10
with ReLU and softmax cross-entropy, in a stablehlo.while, on REPLICAS replicas:
each replica trains on its own batch of BATCH rows (synthetic data that depends
on its replica id), the gradients are summed across the replicas with
all_reduce and divided by REPLICAS, so every replica applies the same update
(data parallelism). It returns the last step's loss.

The data come in blocks of BATCH rows: block b's rows are sin(0.1 i + 0.01 col + b),
labels i % 10. Replica p trains on blocks p*G .. p*G+G-1 (G = --data-blocks, default 1),
so `--replicas 1 --data-blocks N` is one process training on the same global batch as
`--replicas N`: the same losses and updates, up to float reduction order. With
--loss-curve the program returns every step's loss (the mean over all replicas' rows)
instead of the last replica-local one.

Usage: gen_dp_mlp.py --replicas N --steps K [--batch B] [--hidden H] [--inputs I]
                     [--data-blocks G] [--loss-curve] [--lr LR]
"""
import argparse


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--inputs", type=int, default=784)
    parser.add_argument("--data-blocks", type=int, default=1)
    parser.add_argument("--loss-curve", action="store_true")
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()
    P, K, D, O = args.replicas, args.steps, args.inputs, 10
    G, BLOCK, H = args.data_blocks, args.batch, args.hidden
    B = G * BLOCK  # rows per replica

    def t(*dims):
        return "tensor<" + "x".join(str(d) for d in dims) + ("x" if dims else "") + "f32>"

    group = ", ".join(str(i) for i in range(P))
    params = [("w1", (D, H)), ("b1", (H,)), ("w2", (H, H)), ("b2", (H,)), ("w3", (H, O)), ("b3", (O,))]
    lines = []
    emit = lines.append
    emit(f"module @dp_mlp attributes {{mhlo.num_replicas = {P} : i32}} {{")
    result = f"tensor<{K}xf32>" if args.loss_curve else "tensor<f32>"
    emit(f"  func.func @main() -> {result} {{")
    emit(f"    %zero = stablehlo.constant dense<0.0> : tensor<f32>")
    emit(f"    %r = stablehlo.replica_id : tensor<ui32>")
    # Synthetic data: row j of replica p is row i = j % BLOCK of block
    # b = p*G + j / BLOCK: x = sin(0.1 i + 0.01 col + b), label i % 10.
    emit(f"    %rs = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>")
    emit(f"    %gblocks = stablehlo.constant dense<{G}> : tensor<i32>")
    emit(f"    %first = stablehlo.multiply %rs, %gblocks : tensor<i32>")
    emit(f"    %firstb = stablehlo.broadcast_in_dim %first, dims = [] : (tensor<i32>) -> tensor<{B}x{D}xi32>")
    emit(f"    %jr = stablehlo.iota dim = 0 : tensor<{B}x{D}xi32>")
    emit(f"    %blk_rows = stablehlo.constant dense<{BLOCK}> : tensor<{B}x{D}xi32>")
    emit(f"    %ir = stablehlo.remainder %jr, %blk_rows : tensor<{B}x{D}xi32>")
    emit(f"    %bq = stablehlo.divide %jr, %blk_rows : tensor<{B}x{D}xi32>")
    emit(f"    %blk = stablehlo.add %bq, %firstb : tensor<{B}x{D}xi32>")
    emit(f"    %xr = stablehlo.convert %ir : (tensor<{B}x{D}xi32>) -> {t(B, D)}")
    emit(f"    %rb = stablehlo.convert %blk : (tensor<{B}x{D}xi32>) -> {t(B, D)}")
    emit(f"    %xc = stablehlo.iota dim = 1 : {t(B, D)}")
    emit(f"    %c01 = stablehlo.constant dense<0.1> : {t(B, D)}")
    emit(f"    %c001 = stablehlo.constant dense<0.01> : {t(B, D)}")
    emit(f"    %xr1 = stablehlo.multiply %xr, %c01 : {t(B, D)}")
    emit(f"    %xc1 = stablehlo.multiply %xc, %c001 : {t(B, D)}")
    emit(f"    %xs = stablehlo.add %xr1, %xc1 : {t(B, D)}")
    emit(f"    %xs2 = stablehlo.add %xs, %rb : {t(B, D)}")
    emit(f"    %x = stablehlo.sine %xs2 : {t(B, D)}")
    emit(f"    %lr_ = stablehlo.iota dim = 0 : tensor<{B}x{O}xi32>")
    emit(f"    %lc = stablehlo.iota dim = 1 : tensor<{B}x{O}xi32>")
    emit(f"    %lblk = stablehlo.constant dense<{BLOCK}> : tensor<{B}x{O}xi32>")
    emit(f"    %li = stablehlo.remainder %lr_, %lblk : tensor<{B}x{O}xi32>")
    emit(f"    %ten = stablehlo.constant dense<10> : tensor<{B}x{O}xi32>")
    emit(f"    %lm = stablehlo.remainder %li, %ten : tensor<{B}x{O}xi32>")
    emit(f"    %hot = stablehlo.compare EQ, %lm, %lc : (tensor<{B}x{O}xi32>, tensor<{B}x{O}xi32>) -> tensor<{B}x{O}xi1>")
    emit(f"    %ones_l = stablehlo.constant dense<1.0> : {t(B, O)}")
    emit(f"    %zeros_l = stablehlo.constant dense<0.0> : {t(B, O)}")
    emit(f"    %labels = stablehlo.select %hot, %ones_l, %zeros_l : tensor<{B}x{O}xi1>, {t(B, O)}")
    # Parameters: small deterministic weights, zero biases.
    for name, dims in params:
        if len(dims) == 2:
            emit(f"    %{name}_i = stablehlo.iota dim = 0 : {t(*dims)}")
            emit(f"    %{name}_j = stablehlo.iota dim = 1 : {t(*dims)}")
            emit(f"    %{name}_s = stablehlo.add %{name}_i, %{name}_j : {t(*dims)}")
            emit(f"    %{name}_sin = stablehlo.sine %{name}_s : {t(*dims)}")
            emit(f"    %{name}_c = stablehlo.constant dense<0.05> : {t(*dims)}")
            emit(f"    %{name}0 = stablehlo.multiply %{name}_sin, %{name}_c : {t(*dims)}")
        else:
            emit(f"    %{name}0 = stablehlo.constant dense<0.0> : {t(*dims)}")
    emit(f"    %i0 = stablehlo.constant dense<0> : tensor<i64>")
    emit(f"    %k = stablehlo.constant dense<{K}> : tensor<i64>")
    emit(f"    %curve0 = stablehlo.constant dense<0.0> : tensor<{K}xf32>")
    carried = ", ".join(f"%{n} = %{n}0" for n, _ in params)
    types = ", ".join(t(*d) for _, d in params)
    emit(f"    %out:9 = stablehlo.while(%i = %i0, %loss = %zero, %curve = %curve0, {carried}) : tensor<i64>, tensor<f32>, tensor<{K}xf32>, {types}")
    emit(f"    cond {{")
    emit(f"      %lt = stablehlo.compare LT, %i, %k : (tensor<i64>, tensor<i64>) -> tensor<i1>")
    emit(f"      stablehlo.return %lt : tensor<i1>")
    emit(f"    }} do {{")
    b = lambda s: emit("      " + s)
    b(f"%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>")
    b(f"%zeros_h = stablehlo.constant dense<0.0> : {t(B, H)}")
    b(f"%xw1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ({t(B, D)}, {t(D, H)}) -> {t(B, H)}")
    b(f"%b1b = stablehlo.broadcast_in_dim %b1, dims = [1] : ({t(H)}) -> {t(B, H)}")
    b(f"%z1 = stablehlo.add %xw1, %b1b : {t(B, H)}")
    b(f"%h1 = stablehlo.maximum %z1, %zeros_h : {t(B, H)}")
    b(f"%h1w2 = stablehlo.dot_general %h1, %w2, contracting_dims = [1] x [0] : ({t(B, H)}, {t(H, H)}) -> {t(B, H)}")
    b(f"%b2b = stablehlo.broadcast_in_dim %b2, dims = [1] : ({t(H)}) -> {t(B, H)}")
    b(f"%z2 = stablehlo.add %h1w2, %b2b : {t(B, H)}")
    b(f"%h2 = stablehlo.maximum %z2, %zeros_h : {t(B, H)}")
    b(f"%h2w3 = stablehlo.dot_general %h2, %w3, contracting_dims = [1] x [0] : ({t(B, H)}, {t(H, O)}) -> {t(B, O)}")
    b(f"%b3b = stablehlo.broadcast_in_dim %b3, dims = [1] : ({t(O)}) -> {t(B, O)}")
    b(f"%logits = stablehlo.add %h2w3, %b3b : {t(B, O)}")
    b(f"%rmax = stablehlo.reduce(%logits init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({t(B, O)}, tensor<f32>) -> {t(B)}")
    b(f"%rmaxb = stablehlo.broadcast_in_dim %rmax, dims = [0] : ({t(B)}) -> {t(B, O)}")
    b(f"%sh = stablehlo.subtract %logits, %rmaxb : {t(B, O)}")
    b(f"%ex = stablehlo.exponential %sh : {t(B, O)}")
    b(f"%es = stablehlo.reduce(%ex init: %zero) applies stablehlo.add across dimensions = [1] : ({t(B, O)}, tensor<f32>) -> {t(B)}")
    b(f"%ls = stablehlo.log %es : {t(B)}")
    b(f"%lsb = stablehlo.broadcast_in_dim %ls, dims = [0] : ({t(B)}) -> {t(B, O)}")
    b(f"%lp = stablehlo.subtract %sh, %lsb : {t(B, O)}")
    b(f"%wl = stablehlo.multiply %labels, %lp : {t(B, O)}")
    b(f"%tot = stablehlo.reduce(%wl init: %zero) applies stablehlo.add across dimensions = [0, 1] : ({t(B, O)}, tensor<f32>) -> tensor<f32>")
    b(f"%ninvb = stablehlo.constant dense<{-1.0 / B!r}> : tensor<f32>")
    b(f"%new_loss = stablehlo.multiply %tot, %ninvb : tensor<f32>")
    b(f"%esb = stablehlo.broadcast_in_dim %es, dims = [0] : ({t(B)}) -> {t(B, O)}")
    b(f"%probs = stablehlo.divide %ex, %esb : {t(B, O)}")
    b(f"%dl0 = stablehlo.subtract %probs, %labels : {t(B, O)}")
    b(f"%invb = stablehlo.constant dense<{1.0 / B!r}> : {t(B, O)}")
    b(f"%dlogits = stablehlo.multiply %dl0, %invb : {t(B, O)}")
    b(f"%dw3 = stablehlo.dot_general %h2, %dlogits, contracting_dims = [0] x [0] : ({t(B, H)}, {t(B, O)}) -> {t(H, O)}")
    b(f"%db3 = stablehlo.reduce(%dlogits init: %zero) applies stablehlo.add across dimensions = [0] : ({t(B, O)}, tensor<f32>) -> {t(O)}")
    b(f"%dh2 = stablehlo.dot_general %dlogits, %w3, contracting_dims = [1] x [1] : ({t(B, O)}, {t(H, O)}) -> {t(B, H)}")
    b(f"%a2 = stablehlo.compare GT, %z2, %zeros_h, FLOAT : ({t(B, H)}, {t(B, H)}) -> tensor<{B}x{H}xi1>")
    b(f"%dz2 = stablehlo.select %a2, %dh2, %zeros_h : tensor<{B}x{H}xi1>, {t(B, H)}")
    b(f"%dw2 = stablehlo.dot_general %h1, %dz2, contracting_dims = [0] x [0] : ({t(B, H)}, {t(B, H)}) -> {t(H, H)}")
    b(f"%db2 = stablehlo.reduce(%dz2 init: %zero) applies stablehlo.add across dimensions = [0] : ({t(B, H)}, tensor<f32>) -> {t(H)}")
    b(f"%dh1 = stablehlo.dot_general %dz2, %w2, contracting_dims = [1] x [1] : ({t(B, H)}, {t(H, H)}) -> {t(B, H)}")
    b(f"%a1 = stablehlo.compare GT, %z1, %zeros_h, FLOAT : ({t(B, H)}, {t(B, H)}) -> tensor<{B}x{H}xi1>")
    b(f"%dz1 = stablehlo.select %a1, %dh1, %zeros_h : tensor<{B}x{H}xi1>, {t(B, H)}")
    b(f"%dw1 = stablehlo.dot_general %x, %dz1, contracting_dims = [0] x [0] : ({t(B, D)}, {t(B, H)}) -> {t(D, H)}")
    b(f"%db1 = stablehlo.reduce(%dz1 init: %zero) applies stablehlo.add across dimensions = [0] : ({t(B, H)}, tensor<f32>) -> {t(H)}")
    # Data parallelism: sum the gradients over the replicas, then SGD with
    # lr / replicas.
    for name, dims in params:
        b(f"%g{name} = \"stablehlo.all_reduce\"(%d{name}) ({{")
        b(f"  ^bb0(%p: tensor<f32>, %q: tensor<f32>):")
        b(f"    %s = stablehlo.add %p, %q : tensor<f32>")
        b(f"    stablehlo.return %s : tensor<f32>")
        b(f"}}) {{replica_groups = dense<[[{group}]]> : tensor<1x{P}xi64>}} : ({t(*dims)}) -> {t(*dims)}")
        b(f"%lr_{name} = stablehlo.constant dense<{args.lr / P!r}> : {t(*dims)}")
        b(f"%st_{name} = stablehlo.multiply %g{name}, %lr_{name} : {t(*dims)}")
        b(f"%n{name} = stablehlo.subtract %{name}, %st_{name} : {t(*dims)}")
    # The step's loss over every replica's rows, into the curve (only when
    # the curve is returned: the benchmark's program has no extra collective).
    if args.loss_curve:
        b(f"%lsum = \"stablehlo.all_reduce\"(%new_loss) ({{")
        b(f"  ^bb0(%p: tensor<f32>, %q: tensor<f32>):")
        b(f"    %s = stablehlo.add %p, %q : tensor<f32>")
        b(f"    stablehlo.return %s : tensor<f32>")
        b(f"}}) {{replica_groups = dense<[[{group}]]> : tensor<1x{P}xi64>, channel_handle = #stablehlo.channel_handle<handle = 99, type = 0>}} : (tensor<f32>) -> tensor<f32>")
        b(f"%invp = stablehlo.constant dense<{1.0 / P!r}> : tensor<f32>")
        b(f"%gloss = stablehlo.multiply %lsum, %invp : tensor<f32>")
    else:
        b(f"%gloss = stablehlo.add %new_loss, %zero : tensor<f32>")
    b(f"%gloss1 = stablehlo.reshape %gloss : (tensor<f32>) -> tensor<1xf32>")
    b(f"%ncurve = stablehlo.dynamic_update_slice %curve, %gloss1, %i : (tensor<{K}xf32>, tensor<1xf32>, tensor<i64>) -> tensor<{K}xf32>")
    b(f"%one = stablehlo.constant dense<1> : tensor<i64>")
    b(f"%ni = stablehlo.add %i, %one : tensor<i64>")
    news = ", ".join(f"%n{n}" for n, _ in params)
    b(f"stablehlo.return %ni, %new_loss, %ncurve, {news} : tensor<i64>, tensor<f32>, tensor<{K}xf32>, {types}")
    emit(f"    }}")
    emit(f"    return %out#2 : tensor<{K}xf32>" if args.loss_curve else f"    return %out#1 : tensor<f32>")
    emit(f"  }}")
    emit(f"}}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
