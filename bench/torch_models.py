#!/usr/bin/python3
"""The model benchmark set (bench/models/) in PyTorch eager mode, float32: the peer that plugrt's
`plugrt bench --dir <models dir>` rows are compared with, and the exporter of the ONNX models
that bench/ort_models.js runs on ONNX Runtime.

For each model, PEERS[family] builds an nn.Module computing the same maths with the same shapes
from the SAME arguments the family module's arguments(cfg, rng) returns (seed --seed, as
gen_models.py draws them; or read from --args DIR/NAME.npz): the weights become the module's
parameters, the real inputs (token ids, masks, images...) its forward's arguments. Inference
models are timed under torch.no_grad(); train steps (PEERS entry with a step) with autograd and
the optimizer step of the program. Timing as bench/torch_bench.py does it (its time_runs and
summary, plus p10/p90), rows named by the model name (e.g. bert_base_b1_s128), so compare.py
lines them up with plugrt's rows.

Usage: /usr/bin/python3 bench/torch_models.py [--threads N] [--json FILE] [--small]
           [--onnx DIR] [--check DIR] [--args DIR] [--no-time] [--seed N] [NAME|FAMILY...]
  --threads N   torch.set_num_threads(N), interop threads 1, OMP/OPENBLAS_NUM_THREADS=N,
                OMP_WAIT_POLICY=PASSIVE unless set (see OMP_WAIT_POLICY below)
  --json FILE   results: torch_bench.py's schema ("workloads": rows with name, median_ms, min_ms,
                max_ms, runs, p10_ms, p90_ms, family) plus "peer": "pytorch"
  --small       the scaled-down twins (SMALL) instead of the benchmark sizes (MODELS)
  --onnx DIR    export each inference model with torch.onnx.export (opset 17) to DIR/NAME.onnx,
                weights as initializers, inputs only the real inputs; and write those inputs
                (DIR/NAME.in<i>.npy) and DIR/NAME.onnx.json, the manifest bench/ort_models.js reads
  --check DIR   write torch's outputs to DIR/NAME.torch.npz (out0, out1, ...)
  --args DIR    take the arguments from DIR/NAME.npz (gen_models.py --weights) when it exists
  --no-time     export / check only
Names may come from MODELS or SMALL regardless of --small.
"""
import argparse
import json
import math
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "models"))

import torch_bench  # noqa: E402  (imports torch; the re-exec below happens before any work)

# OpenMP's wait policy: Debian's PyTorch runs its elementwise ops on libgomp's pool (N threads)
# and its matmuls on OpenBLAS's own pthreads pool (N more). With libgomp's default (spin a while
# after each parallel region), the idle OpenMP threads take the cores from OpenBLAS's threads:
# with 2 threads on 2 cores, bert_base_b1_s128 took 1.5-1.75 s instead of 165 ms with PASSIVE
# (mlp_train_step in torch_bench.py: 44 ms against 16.6 ms). So PASSIVE, unless the environment
# names a policy (OMP_WAIT_POLICY=ACTIVE brings the default back).
OMP_WAIT_POLICY = "PASSIVE"

if __name__ == "__main__":
    # Same environment as torch_bench.py: OMP/OpenBLAS thread counts and glibc's hugetlb tunable
    # (see torch_bench.HUGEPAGE_TUNABLE), set by starting the script again; plus the wait policy.
    os.environ.setdefault("OMP_WAIT_POLICY", OMP_WAIT_POLICY)
    torch_bench._prepare_environment()

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import gen_models  # noqa: E402
import torch_config  # noqa: E402


class Peer:
    """One model in PyTorch.

    module       nn.Module; forward(*inputs) returns a tuple of outputs (inference), or None
    inputs       the real inputs, tensors, in @main's order
    input_names  their names (the ONNX graph's input names)
    step         for train steps: a callable running one step (autograd + optimizer), the timed
                 work; None for inference
    outputs      a callable returning the outputs in @main's result order (default: run())
    """

    def __init__(self, module=None, inputs=(), input_names=(), step=None, outputs=None):
        self.module, self.inputs, self.input_names, self.step = module, list(inputs), list(input_names), step
        self.outputs = outputs or self.run

    def run(self):
        if self.step is not None:
            return self.step()
        with torch.no_grad():
            return self.module(*self.inputs)


def t(a):
    """A numpy argument as a tensor (sharing its memory when it can)."""
    return torch.from_numpy(np.ascontiguousarray(a))


def linear(weight, bias):
    """nn.Linear holding the given [out, in] weight and [out] bias (no random init)."""
    m = nn.utils.skip_init(nn.Linear, weight.shape[1], weight.shape[0], bias=bias is not None)
    m.weight = nn.Parameter(t(weight))
    if bias is not None:
        m.bias = nn.Parameter(t(bias))
    return m


def layer_norm(gamma, beta, eps):
    m = nn.LayerNorm(gamma.shape[0], eps=eps)
    m.weight, m.bias = nn.Parameter(t(gamma)), nn.Parameter(t(beta))
    return m


def embedding(table):
    m = nn.utils.skip_init(nn.Embedding, table.shape[0], table.shape[1])
    m.weight = nn.Parameter(t(table))
    return m


# ---------------------------------------------------------------------------------------------
# bert: HuggingFace BertModel's encoder (post-LN, erf GELU, extended mask), as bench/models/bert.py


class BertLayer(nn.Module):
    def __init__(self, cfg, p, eps):
        super().__init__()
        # Python ints, as HF's attention_head_size: the export then has constant shapes and scale.
        self.heads, self.head_dim, self.width = cfg["heads"], cfg["width"] // cfg["heads"], cfg["width"]
        self.query, self.key, self.value = (linear(p[n + "_w"], p[n + "_b"]) for n in "qkv")
        self.attn_out = linear(p["o_w"], p["o_b"])
        self.ln1 = layer_norm(p["ln1_g"], p["ln1_b"], eps)
        self.intermediate = linear(p["i_w"], p["i_b"])
        self.out = linear(p["d_w"], p["d_b"])
        self.ln2 = layer_norm(p["ln2_g"], p["ln2_b"], eps)

    def forward(self, x, ext):
        b, s = x.shape[0], x.shape[1]
        d, w = self.head_dim, self.width

        def split(y):  # [b, s, w] -> [b, heads, s, d]
            return y.view(b, s, self.heads, d).permute(0, 2, 1, 3)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d) + ext
        probs = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(b, s, w)
        x1 = self.ln1(self.attn_out(ctx) + x)
        return self.ln2(self.out(F.gelu(self.intermediate(x1))) + x1)


class Bert(nn.Module):
    def __init__(self, cfg, args):
        super().__init__()
        import bert
        ne, per = len(bert.embedding_params(cfg)), len(bert.layer_params(cfg))
        word, position, token_type, eg, eb = args[2:2 + ne]
        self.word, self.position, self.token_type = embedding(word), embedding(position), embedding(token_type)
        self.emb_ln = layer_norm(eg, eb, bert.EPS)
        names = [n for n, _ in bert.layer_params(cfg)]
        self.layers = nn.ModuleList(
            BertLayer(cfg, dict(zip(names, args[2 + ne + i * per: 2 + ne + (i + 1) * per])), bert.EPS)
            for i in range(cfg["layers"]))

    def forward(self, input_ids, attention_mask):
        s = input_ids.shape[1]
        positions = torch.arange(s, dtype=torch.int64, device=input_ids.device).unsqueeze(0)
        types = torch.zeros_like(input_ids)
        x = self.emb_ln(self.word(input_ids) + self.token_type(types) + self.position(positions))
        ext = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
        for layer in self.layers:
            x = layer(x, ext)
        return (x,)


class BertEncoder(nn.Module):
    """The encoder alone, from the embedded sequence (bert.py's encoder_only configs)."""

    def __init__(self, cfg, args):
        super().__init__()
        import bert
        per = len(bert.layer_params(cfg))
        names = [n for n, _ in bert.layer_params(cfg)]
        self.layers = nn.ModuleList(
            BertLayer(cfg, dict(zip(names, args[1 + i * per: 1 + (i + 1) * per])), bert.EPS)
            for i in range(cfg["layers"]))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x, 0.0)
        return (x,)


def bert_peer(cfg, args):
    if cfg.get("encoder_only"):
        return Peer(BertEncoder(cfg, args).eval(), [t(args[0])], ["x"])
    return Peer(Bert(cfg, args).eval(), [t(args[0]), t(args[1])], ["input_ids", "attention_mask"])


# ---------------------------------------------------------------------------------------------
# gpt2_decode: one GPT-2 decode step with a static KV cache (bench/models/gpt2_decode.py), written
# as HF's GPT2 is (Conv1D: addmm with [in, out] weights, tied lm_head) with a static cache updated
# out of place (index_copy at pos, as transformers' StaticCache; the step returns new caches).


def parameter(a):
    return nn.Parameter(t(a))


class Conv1D(nn.Module):
    """HF's GPT-2 Conv1D: y = x @ weight + bias with weight [in, out] (torch.addmm)."""

    def __init__(self, kernel, bias):
        super().__init__()
        self.weight, self.bias = parameter(kernel), parameter(bias)

    def forward(self, x):
        shape = x.shape[:-1] + (self.weight.shape[1],)
        return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).view(shape)


class Gpt2Block(nn.Module):
    def __init__(self, cfg, p, eps):
        super().__init__()
        self.heads, self.head_dim, self.width = cfg["heads"], cfg["width"] // cfg["heads"], cfg["width"]
        self.ln_1 = layer_norm(p["ln_1_scale"], p["ln_1_bias"], eps)
        self.c_attn = Conv1D(p["attn_c_attn_kernel"], p["attn_c_attn_bias"])
        self.c_proj = Conv1D(p["attn_c_proj_kernel"], p["attn_c_proj_bias"])
        self.ln_2 = layer_norm(p["ln_2_scale"], p["ln_2_bias"], eps)
        self.c_fc = Conv1D(p["mlp_c_fc_kernel"], p["mlp_c_fc_bias"])
        self.mlp_proj = Conv1D(p["mlp_c_proj_kernel"], p["mlp_c_proj_bias"])

    def forward(self, x, k_cache, v_cache, index, mask, mask_value):
        b, w, h, d = x.shape[0], self.width, self.heads, self.head_dim
        q, k, v = self.c_attn(self.ln_1(x)).split(w, dim=2)
        q, k, v = (y.view(b, 1, h, d).transpose(1, 2) for y in (q, k, v))  # [b, h, 1, d]
        k_cache = k_cache.index_copy(2, index, k)
        v_cache = v_cache.index_copy(2, index, v)
        scores = torch.matmul(q, k_cache.transpose(-1, -2)) / math.sqrt(d)
        probs = torch.softmax(torch.where(mask, scores, mask_value), dim=-1)
        ctx = torch.matmul(probs, v_cache).transpose(1, 2).reshape(b, 1, w)
        x = x + self.c_proj(ctx)
        x = x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))
        return x, k_cache, v_cache


class Gpt2Decode(nn.Module):
    def __init__(self, cfg, args):
        super().__init__()
        import gpt2_decode as g
        L = cfg["layers"]
        names = [n for n, _ in g.layer_params(cfg)]
        per, i0 = len(names), 2 + 2 * L
        params = {li: dict(zip(names, args[i0 + j * per: i0 + (j + 1) * per]))
                  for j, li in enumerate(g.layer_order(cfg))}
        ln_f_b, ln_f_g, wpe, wte = args[i0 + L * per: i0 + L * per + 4]
        self.max_len = cfg["max_len"]
        self.wte, self.wpe = embedding(wte), embedding(wpe)
        self.blocks = nn.ModuleList(Gpt2Block(cfg, params[i], g.EPS) for i in range(L))
        self.ln_f = layer_norm(ln_f_g, ln_f_b, g.EPS)
        self.register_buffer("mask_value", torch.tensor(torch.finfo(torch.float32).min))

    def forward(self, tokens, pos, *caches):
        index = pos.to(torch.int64).view(1)
        x = self.wte(tokens) + self.wpe(index)                       # [b, 1, w]
        mask = torch.arange(self.max_len, device=tokens.device) <= index  # the causal mask
        new = []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, caches[2 * i], caches[2 * i + 1], index, mask, self.mask_value)
            new += [k, v]
        logits = F.linear(self.ln_f(x[:, -1]), self.wte.weight)     # tied lm_head
        return (logits, *new)


def gpt2_decode_peer(cfg, args):
    L = cfg["layers"]
    names = ["tokens", "pos"] + [f"cache_{i}_{kv}" for i in range(L) for kv in "kv"]
    return Peer(Gpt2Decode(cfg, args).eval(), [t(a) for a in args[:2 + 2 * L]], names)


# ---------------------------------------------------------------------------------------------
# lstm: embedding, 2-layer nn.LSTM (batch_first; torch's gate order i, f, g, o is Flax's too),
# linear (bench/models/lstm.py). Flax's [in, 4H] kernels become torch's [4H, in] weights; the
# one Flax bias (hh) is bias_hh, bias_ih is zero.


class LstmLm(nn.Module):
    def __init__(self, cfg, args):
        super().__init__()
        E, H, L = cfg["embed"], cfg["hidden"], cfg["layers"]
        d_bias, d_kernel, table = args[:3]
        self.embed = embedding(table)
        self.lstm = nn.LSTM(E, H, num_layers=L, batch_first=True)
        for layer in range(L):
            b_hh, k_hh, k_ih = args[3 + 3 * layer: 6 + 3 * layer]
            setattr(self.lstm, f"weight_ih_l{layer}", parameter(k_ih.T.copy()))
            setattr(self.lstm, f"weight_hh_l{layer}", parameter(k_hh.T.copy()))
            setattr(self.lstm, f"bias_ih_l{layer}", nn.Parameter(torch.zeros(4 * H)))
            setattr(self.lstm, f"bias_hh_l{layer}", parameter(b_hh))
        self.lstm.flatten_parameters()
        self.dense = linear(d_kernel.T.copy(), d_bias)

    def forward(self, ids):
        y, _ = self.lstm(self.embed(ids))
        return (self.dense(y),)


def lstm_peer(cfg, args):
    ids = 3 + 3 * cfg["layers"]
    return Peer(LstmLm(cfg, args).eval(), [t(args[ids])], ["ids"])


# ---------------------------------------------------------------------------------------------
# resnet50: ResNet-50 v1.5 (bench/models/resnet50.py, Flax's examples/imagenet ResNet) as a torch
# engineer runs it on CPU: NCHW modules in channels_last memory format (so the NHWC image is used
# as it is, permuted to NCHW logical order), eval-mode nn.BatchNorm2d, HWIO kernels as OIHW.
# Flax's 'SAME' pads are asymmetric ([0, 1]) for stride 2 on even sizes, which nn.Conv2d cannot
# express: those convs and the max pool get an explicit F.pad first.


class SamePadConv(nn.Module):
    """Conv2d (no bias) with lax 'SAME' (or given) pads, then eval-mode BatchNorm2d."""

    def __init__(self, kernel, stride, pads, stats, params, eps):
        super().__init__()
        kh, kw, cin, cout = kernel.shape
        (pt, pb), (pl, pr) = pads
        symmetric = pt == pb and pl == pr
        self.pad = None if symmetric else (pl, pr, pt, pb)
        self.conv = nn.utils.skip_init(nn.Conv2d, cin, cout, (kh, kw), stride=stride,
                                       padding=(pt, pl) if symmetric else 0, bias=False)
        self.conv.weight = parameter(np.ascontiguousarray(kernel.transpose(3, 2, 0, 1)))
        self.bn = nn.BatchNorm2d(cout, eps=eps)
        self.bn.running_mean.copy_(t(stats["mean"]))
        self.bn.running_var.copy_(t(stats["var"]))
        self.bn.weight, self.bn.bias = parameter(params["scale"]), parameter(params["bias"])

    def forward(self, x):
        if self.pad is not None:
            x = F.pad(x, self.pad)
        return self.bn(self.conv(x))


class Bottleneck(nn.Module):
    def __init__(self, blk, get, eps):
        super().__init__()
        import resnet50 as r
        n, s, hw = blk["name"], blk["stride"], blk["hw"]
        hw1 = r.conv_out(hw, 3, s, r.same_pads(hw, 3, s))

        def unit(conv, norm, stride, pads):
            return SamePadConv(get("params", n, conv, "kernel"), stride, pads,
                               {k: get("batch_stats", n, norm, k) for k in ("mean", "var")},
                               {k: get("params", n, norm, k) for k in ("scale", "bias")}, eps)

        zero = [(0, 0), (0, 0)]
        self.c0 = unit("Conv_0", "BatchNorm_0", 1, zero)
        self.c1 = unit("Conv_1", "BatchNorm_1", s, [r.same_pads(hw, 3, s)] * 2)
        self.c2 = unit("Conv_2", "BatchNorm_2", 1, zero)
        self.proj = unit("conv_proj", "norm_proj", s, zero) if blk["proj"] else None
        assert hw1 > 0

    def forward(self, x):
        y = self.c2(F.relu(self.c1(F.relu(self.c0(x)))))
        return F.relu((self.proj(x) if self.proj is not None else x) + y)


class ResNet50(nn.Module):
    def __init__(self, cfg, args):
        super().__init__()
        import resnet50 as r
        p = {path: a for (path, _), a in zip(r.argument_paths(cfg), args)}

        def get(*path):
            return p[path]

        hw = cfg["image"]
        self.stem = SamePadConv(get("params", "conv_init", "kernel"), 2, [(3, 3), (3, 3)],
                                {k: get("batch_stats", "bn_init", k) for k in ("mean", "var")},
                                {k: get("params", "bn_init", k) for k in ("scale", "bias")}, r.EPS)
        hw = r.conv_out(hw, 7, 2, (3, 3))
        (pt, pb) = r.same_pads(hw, 3, 2)
        self.pool_pad = (pt, pb, pt, pb)
        self.blocks = nn.Sequential(*(Bottleneck(blk, get, r.EPS) for blk in r.blocks(cfg)))
        self.fc = linear(np.ascontiguousarray(get("params", "Dense_0", "kernel").T), get("params", "Dense_0", "bias"))
        self.to(memory_format=torch.channels_last)

    def forward(self, x):  # x: NHWC
        x = F.relu(self.stem(x.permute(0, 3, 1, 2)))
        x = F.max_pool2d(F.pad(x, self.pool_pad, value=float("-inf")), 3, 2)
        x = self.blocks(x)
        return (self.fc(x.mean((2, 3))),)


def resnet50_peer(cfg, args):
    return Peer(ResNet50(cfg, args).eval(), [t(args[-1])], ["x"])


# ---------------------------------------------------------------------------------------------
# mlp_mixer: MLP-Mixer (bench/models/mlp_mixer.py, vit_jax's MlpMixer) as the PyTorch ports write
# it: a patchify Conv2d stem (channels_last, the NHWC image as it is), nn.LayerNorm(eps 1e-6),
# token mixing as Linear over the transposed tokens, tanh GELU, mean over tokens, the head.
# mixer_train_step: the same module trained one step: F.cross_entropy, backward, torch.optim.Adam
# (optax.adam's lr, betas, eps; its mu, nu and count loaded as Adam's exp_avg, exp_avg_sq, step).


def flax_to_torch(name, a):
    """A Flax leaf in torch's layout: Dense kernels [in, out] -> [out, in], the conv's HWIO ->
    OIHW; the rest as they are."""
    if name.endswith("kernel"):
        a = a.transpose(3, 2, 0, 1) if a.ndim == 4 else a.T
    return np.ascontiguousarray(a)


def torch_to_flax(name, a):
    if name.endswith("kernel"):
        a = a.transpose(2, 3, 1, 0) if a.ndim == 4 else a.T
    return np.ascontiguousarray(a)


class MixerMlp(nn.Module):
    def __init__(self, get, prefix):
        super().__init__()
        self.fc0 = linear(get(prefix + "Dense_0/kernel"), get(prefix + "Dense_0/bias"))
        self.fc1 = linear(get(prefix + "Dense_1/kernel"), get(prefix + "Dense_1/bias"))

    def forward(self, x):
        return self.fc1(F.gelu(self.fc0(x), approximate="tanh"))


class MixerBlock(nn.Module):
    def __init__(self, get, prefix, eps):
        super().__init__()
        self.ln0 = layer_norm(get(prefix + "LayerNorm_0/scale"), get(prefix + "LayerNorm_0/bias"), eps)
        self.token_mixing = MixerMlp(get, prefix + "token_mixing/")
        self.ln1 = layer_norm(get(prefix + "LayerNorm_1/scale"), get(prefix + "LayerNorm_1/bias"), eps)
        self.channel_mixing = MixerMlp(get, prefix + "channel_mixing/")

    def forward(self, x):
        x = x + self.token_mixing(self.ln0(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel_mixing(self.ln1(x))


class MlpMixer(nn.Module):
    """self.flax: [(Flax leaf name, the torch parameter holding it)] in param_specs order."""

    def __init__(self, cfg, args):
        super().__init__()
        import mlp_mixer as mm
        names = [n for n, _ in mm.param_specs(cfg)]
        P = {n: flax_to_torch(n, a) for n, a in zip(names, args[:len(names)])}
        get = P.__getitem__
        k = get("stem/kernel")
        self.stem = nn.utils.skip_init(nn.Conv2d, k.shape[1], k.shape[0], cfg["patch"], stride=cfg["patch"])
        self.stem.weight, self.stem.bias = parameter(k), parameter(get("stem/bias"))
        self.blocks = nn.Sequential(*(MixerBlock(get, f"MixerBlock_{i}/", mm.EPS) for i in range(cfg["blocks"])))
        self.pre_head_layer_norm = layer_norm(get("pre_head_layer_norm/scale"), get("pre_head_layer_norm/bias"), mm.EPS)
        self.head = linear(get("head/kernel"), get("head/bias"))
        self.to(memory_format=torch.channels_last)
        self.flax = [(n, self._find(n)) for n in names]

    def _find(self, name):
        """The parameter a Flax leaf name maps to."""
        parts = name.split("/")
        if parts[0] == "stem":
            return self.stem.weight if parts[1] == "kernel" else self.stem.bias
        if parts[0] == "head":
            return self.head.weight if parts[1] == "kernel" else self.head.bias
        if parts[0] == "pre_head_layer_norm":
            return self.pre_head_layer_norm.weight if parts[1] == "scale" else self.pre_head_layer_norm.bias
        blk = self.blocks[int(parts[0].split("_")[1])]
        if parts[1].startswith("LayerNorm"):
            ln = blk.ln0 if parts[1] == "LayerNorm_0" else blk.ln1
            return ln.weight if parts[2] == "scale" else ln.bias
        fc = getattr(getattr(blk, parts[1]), "fc" + parts[2][-1])
        return fc.weight if parts[3] == "kernel" else fc.bias

    def forward(self, images):  # NHWC
        x = self.stem(images.permute(0, 3, 1, 2)).flatten(2).transpose(1, 2)  # [b, tokens, width]
        x = self.pre_head_layer_norm(self.blocks(x))
        return (self.head(x.mean(1)),)


def mlp_mixer_peer(cfg, args):
    return Peer(MlpMixer(cfg, args).eval(), [t(args[-1])], ["images"])


def mixer_train_step_peer(cfg, args):
    import mixer_train_step as ts
    model = MlpMixer(cfg, args).train()
    n = len(model.flax)
    mus, nus, count, images, labels = args[n:2 * n], args[2 * n:3 * n], args[3 * n], args[3 * n + 1], args[3 * n + 2]
    params = [p for _, p in model.flax]
    opt = torch.optim.Adam(params, lr=ts.LR, betas=(ts.B1, ts.B2), eps=ts.ADAM_EPS)
    for (name, p), m, v in zip(model.flax, mus, nus):
        opt.state[p] = {"step": torch.tensor(float(count)), "exp_avg": t(flax_to_torch(name, m)),
                        "exp_avg_sq": t(flax_to_torch(name, v))}
    x, y = t(images), t(labels).long()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x)[0], y)
        loss.backward()
        opt.step()
        return loss.detach()

    def outputs():
        """One step, its results in the program's order and Flax's layout: the loss, the new
        parameters, mu, nu."""
        out = [step()]
        for key in (None, "exp_avg", "exp_avg_sq"):
            out += [t(torch_to_flax(n, (p if key is None else opt.state[p][key]).detach().numpy()))
                    for n, p in model.flax]
        return out

    return Peer(step=step, outputs=outputs)


# ---------------------------------------------------------------------------------------------
# mobilenet_tf: MobileNet v1 (bench/models/mobilenet_tf.py, Keras' MobileNet as tf2xla writes it)
# as a torch engineer writes it: NCHW modules in channels_last memory format (the NHWC image used
# as it is), depthwise convs as nn.Conv2d(groups=C), eval-mode nn.BatchNorm2d (eps 1e-3) after
# each conv, not folded into it (as the HLO keeps it), nn.ReLU6. Keras' 'same' stride-2 stem and
# ZeroPadding2D((0, 1), (0, 1)) before each stride-2 depthwise conv pad only the bottom and right,
# which nn.Conv2d cannot express: F.pad first. HWIO kernels become OIHW ([3, 3, C, 1] -> [C, 1, 3, 3]).


class ConvBn(nn.Module):
    def __init__(self, kernel, stride, pad, groups, bn, eps):
        super().__init__()
        kh, kw, cin, cout = kernel.shape
        weight = kernel.transpose(2, 3, 0, 1) if groups > 1 else kernel.transpose(3, 2, 0, 1)
        out = cin * cout if groups > 1 else cout
        self.pad = pad  # None, an int (symmetric, in the conv) or F.pad's (left, right, top, bottom)
        self.conv = nn.utils.skip_init(nn.Conv2d, cin, out, (kh, kw), stride=stride,
                                       padding=pad if isinstance(pad, int) else 0, groups=groups, bias=False)
        self.conv.weight = parameter(np.ascontiguousarray(weight))
        self.bn = nn.BatchNorm2d(out, eps=eps)
        self.bn.running_mean.copy_(t(bn["moving_mean"]))
        self.bn.running_var.copy_(t(bn["moving_variance"]))
        self.bn.weight, self.bn.bias = parameter(bn["gamma"]), parameter(bn["beta"])

    def forward(self, x):
        if isinstance(self.pad, tuple):
            x = F.pad(x, self.pad)
        return F.relu6(self.bn(self.conv(x)))


class MobileNetV1(nn.Module):
    def __init__(self, cfg, args):
        super().__init__()
        import mobilenet_tf as m
        p = {path: a for (path, _), a in zip(m.argument_paths(cfg), args)}
        layers = []
        for l in m.layers(cfg):
            bn = {k: p[(l["name"] + "_bn", k)] for k in ("moving_mean", "moving_variance", "gamma", "beta")}
            kernel = p[(l["name"], "kernel")]
            if l["kind"] == "conv":
                (pt, pb), (pl, pr) = m.same_pads(l["hw"], 3, 2), m.same_pads(l["hw"], 3, 2)
                pad = pt if (pt, pl) == (pb, pr) else (pl, pr, pt, pb)
                layers.append(ConvBn(kernel, 2, pad, 1, bn, m.EPS))
            elif l["kind"] == "dw":
                pad = 1 if l["stride"] == 1 else (0, 1, 0, 1)
                layers.append(ConvBn(kernel, l["stride"], pad, kernel.shape[2], bn, m.EPS))
            else:
                layers.append(ConvBn(kernel, 1, 0, 1, bn, m.EPS))
        self.features = nn.Sequential(*layers)
        k = p[("conv_preds", "kernel")]
        self.conv_preds = nn.utils.skip_init(nn.Conv2d, k.shape[2], k.shape[3], 1)
        self.conv_preds.weight = parameter(np.ascontiguousarray(k.transpose(3, 2, 0, 1)))
        self.conv_preds.bias = parameter(p[("conv_preds", "bias")])
        self.to(memory_format=torch.channels_last)

    def forward(self, x):  # x: NHWC
        x = self.features(x.permute(0, 3, 1, 2))
        x = self.conv_preds(x.mean((2, 3), keepdim=True))
        return (torch.softmax(x.flatten(1), dim=1),)


def mobilenet_tf_peer(cfg, args):
    return Peer(MobileNetV1(cfg, args).eval(), [t(args[0])], ["x"])


# Family name (bench/models/<family>.py) -> function(cfg, args) returning a Peer. Adding a family:
# one function here building its module from the arguments in the family's documented order.
PEERS = {
    "bert": bert_peer,
    "gpt2_decode": gpt2_decode_peer,
    "resnet50": resnet50_peer,
    "mlp_mixer": mlp_mixer_peer,
    "lstm": lstm_peer,
    "mixer_train_step": mixer_train_step_peer,
    "mobilenet_tf": mobilenet_tf_peer,
}


# ---------------------------------------------------------------------------------------------


def find_models(names, small):
    """[(name, family, module, cfg)]: the chosen models that have a PyTorch peer. Names may be
    model or family names, from MODELS or SMALL."""
    table = gen_models.models(small)
    if names:
        other = gen_models.models(not small)
        table = table + [m for m in other if m[0] in names]
        table = [m for m in table if m[0] in names or m[1] in names]
        known = {m[0] for m in table} | {m[1] for m in table}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"torch_models: unknown model or family: {' '.join(unknown)}")
    missing = sorted({m[1] for m in table if m[1] not in PEERS})
    if missing:
        print(f"note: no PyTorch peer yet for family {', '.join(missing)}", file=sys.stderr)
    return [m for m in table if m[1] in PEERS]


def load_arguments(name, module, cfg, args_dir, seed):
    if args_dir and os.path.exists(os.path.join(args_dir, name + ".npz")):
        with np.load(os.path.join(args_dir, name + ".npz")) as z:
            return [z[f"arg{i}"] for i in range(len(z.files))]
    return module.arguments(cfg, np.random.default_rng(seed))


def as_tuple(outputs):
    return tuple(outputs) if isinstance(outputs, (tuple, list)) else (outputs,)


def export_onnx(name, peer, out_dir):
    """DIR/NAME.onnx (weights as initializers), DIR/NAME.in<i>.npy, DIR/NAME.onnx.json."""
    path = os.path.join(out_dir, name + ".onnx")
    with torch.no_grad():
        n_out = len(as_tuple(peer.module(*peer.inputs)))
        output_names = [f"out{i}" for i in range(n_out)]
        with warnings.catch_warnings():  # noise for fixed-shape exports
            warnings.filterwarnings("ignore", message="The shape inference of prim::Constant")
            warnings.filterwarnings("ignore", message="Constant folding - Only steps=1")  # F.pad's pads
            warnings.filterwarnings("ignore", message="Exporting a model to ONNX with a batch_size other than 1")
            torch.onnx.export(peer.module, tuple(peer.inputs), path, opset_version=17,
                              input_names=peer.input_names, output_names=output_names,
                              do_constant_folding=True)
    inputs = []
    for i, (n, x) in enumerate(zip(peer.input_names, peer.inputs)):
        file = f"{name}.in{i}.npy"
        np.save(os.path.join(out_dir, file), x.numpy())
        inputs.append({"name": n, "file": file, "dtype": str(x.numpy().dtype), "shape": list(x.shape)})
    with open(os.path.join(out_dir, name + ".onnx.json"), "w") as f:
        json.dump({"name": name, "model": name + ".onnx", "inputs": inputs, "outputs": output_names}, f, indent=1)
        f.write("\n")
    return path


def percentile(values, q):
    """Linear-interpolated percentile (q in [0, 100]), as numpy.percentile's default."""
    return float(np.percentile(np.asarray(values), q))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", nargs="*")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--json")
    p.add_argument("--small", action="store_true")
    p.add_argument("--onnx")
    p.add_argument("--check")
    p.add_argument("--args")
    p.add_argument("--no-time", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--min-runs", type=int, default=5)
    p.add_argument("--max-runs", type=int, default=50)
    p.add_argument("--min-seconds", type=float, default=2.0)
    p.add_argument("--no-hugepages", action="store_true")
    p.add_argument("--allow-reference-blas", action="store_true")
    a = p.parse_args()

    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)  # eager inference runs no inter-op tasks; as ORT's inter_op=1
    blas = torch_config.blas_info()
    if blas["reference"] and not a.allow_reference_blas and not a.no_time:
        print("torch_models.py: " + torch_config.reference_blas_message(blas), file=sys.stderr)
        return 1
    chosen = find_models(a.names, a.small)
    for d in (a.onnx, a.check):
        if d:
            os.makedirs(d, exist_ok=True)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {torch_bench.cpu_name()}, "
          f"GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')}, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '')}")
    print(f"BLAS: {torch_config.blas_summary(blas)}", flush=True)
    rows = []
    for name, family, module, cfg in chosen:
        args = load_arguments(name, module, cfg, a.args, a.seed)
        peer = PEERS[family](cfg, args)
        if a.check:
            outs = [o.detach().numpy() for o in as_tuple(peer.outputs())]
            np.savez(os.path.join(a.check, name + ".torch.npz"), **{f"out{i}": o for i, o in enumerate(outs)})
        if a.onnx:
            if peer.module is None:
                print(f"{name}: train step, no ONNX export", file=sys.stderr)
            else:
                t0 = time.perf_counter()
                path = export_onnx(name, peer, a.onnx)
                print(f"{name}: exported {path} in {time.perf_counter() - t0:.1f} s", flush=True)
        if a.no_time:
            continue
        times = torch_bench.time_runs(peer.run, a.warmup, a.min_runs, a.max_runs, a.min_seconds)
        ms = [x * 1e3 for x in times]
        row = torch_bench.summary(name, times, p10_ms=percentile(ms, 10), p90_ms=percentile(ms, 90),
                                  family=family)
        rows.append(row)
        print(f"{name:28s} median {row['median_ms']:10.3f} ms  p10 {row['p10_ms']:10.3f}  "
              f"p90 {row['p90_ms']:10.3f}  runs {row['runs']}", flush=True)
    if a.json:
        torch_bench.write_results(a.json, rows, blas, peer="pytorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
