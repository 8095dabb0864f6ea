#!/usr/bin/python3
"""PyTorch eager training of the model examples/train_mlp.cc trains: an MLP 784-256-256-10 with
ReLU, softmax cross-entropy averaged over the batch, SGD with momentum (v = m v + g; p -= lr v),
on the same synthetic dataset (the same generator, seeds and noise), the same batch and the same
initial weights (He-scaled normals from the example's generator). Prints the loss per epoch, the
steps per second and the final accuracy in the example's words, so scripts/bench_train_mlp.sh
reads both alike.

Usage: /usr/bin/python3 bench/torch_train_mlp.py [--epochs N] [--samples N] [--batch N]
                                                 [--threads N]
Needs numpy and torch (python3-torch; scripts/bench_setup.sh installs it).
"""
import argparse
import math
import time

import numpy as np
import torch

K_IN, K_HIDDEN, K_CLASSES = 784, 256, 10


class Random:
    """examples/train_mlp.cc's generator: a 64-bit LCG, uniform from its top 53 bits, normals by
    Box-Muller."""

    def __init__(self, seed):
        self.state = seed

    def uniform(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 11) / 9007199254740992.0

    def normal(self):
        u = self.uniform() + 1e-12
        v = self.uniform()
        return math.sqrt(-2.0 * math.log(u)) * math.cos(6.283185307179586 * v)


def make_dataset(samples):
    random = Random(7)
    patterns = np.array([-1.0 if random.uniform() < 0.5 else 1.0
                         for _ in range(K_CLASSES * K_IN)], dtype=np.float32)
    patterns = patterns.reshape(K_CLASSES, K_IN)
    x = np.empty((samples, K_IN), dtype=np.float32)
    labels = np.empty(samples, dtype=np.int64)
    for s in range(samples):
        label = int(random.uniform() * K_CLASSES)
        labels[s] = label
        noise = np.array([random.normal() for _ in range(K_IN)], dtype=np.float32)
        x[s] = 0.25 * patterns[label] + noise
    return x, labels


def init_params():
    random = Random(11)
    params = []
    for rows, cols in ((K_IN, K_HIDDEN), (K_HIDDEN, K_HIDDEN), (K_HIDDEN, K_CLASSES)):
        scale = math.sqrt(2.0 / rows)
        w = np.array([scale * random.normal() for _ in range(rows * cols)], dtype=np.float32)
        params.append(torch.tensor(w.reshape(rows, cols), requires_grad=True))
        params.append(torch.zeros(cols, requires_grad=True))
    return params


def logits(params, x):
    w1, b1, w2, b2, w3, b3 = params
    h1 = torch.relu(x @ w1 + b1)
    h2 = torch.relu(h1 @ w2 + b2)
    return h2 @ w3 + b3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--samples", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.9)
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    x_all, labels_all = make_dataset(args.samples)
    params = init_params()
    velocity = [torch.zeros_like(p) for p in params]
    steps_per_epoch = args.samples // args.batch
    print(f"training with PyTorch {torch.__version__} eager on {torch.get_num_threads()} threads")
    steps = 0
    last_loss = 0.0
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        total = 0.0
        for s in range(steps_per_epoch):
            first = s * args.batch
            # The batch is made from host arrays every step, as the example does.
            x = torch.from_numpy(x_all[first:first + args.batch].copy())
            target = torch.from_numpy(labels_all[first:first + args.batch].copy())
            loss = torch.nn.functional.cross_entropy(logits(params, x), target)
            grads = torch.autograd.grad(loss, params)
            with torch.no_grad():
                for p, v, g in zip(params, velocity, grads):
                    v.mul_(args.momentum).add_(g)
                    p.sub_(args.learning_rate * v)
            total += loss.item()
            steps += 1
        last_loss = total / steps_per_epoch
        print(f"epoch {epoch}/{args.epochs} loss {last_loss:.4f}")
    seconds = time.perf_counter() - start
    with torch.no_grad():
        predicted = logits(params, torch.from_numpy(x_all)).argmax(dim=1).numpy()
    accuracy = float((predicted == labels_all).mean())
    print(f"{steps} steps in {seconds:.2f} s: {steps / seconds:.1f} steps/s; "
          f"final loss {last_loss:.4f}, accuracy {100 * accuracy:.1f}%")


if __name__ == "__main__":
    main()
