"""A tour of plugrt from Python, in notebook-style cells (# %%).

Run from the repository root after building:
    PYTHONPATH=build/python python3 examples/python/tour.py
"""

# %% A client over the built-in CPU plugin (pass a path for any other PJRT plugin).
import numpy as np

import plugrt

client = plugrt.Client(cpu_device_count=2)
print(client, client.platform_version)
for device in client.devices():
    print(" ", device, [m.kind for m in device.memories()])

# %% Arrays become buffers on a device, and buffers become arrays again.
x = client.buffer(np.linspace(0, 1, 6, dtype=np.float32).reshape(2, 3))
print(x, x.dtype, x.shape)
print(np.asarray(x))  # a read-only view of the buffer's memory on CPU

# %% Compile StableHLO; the executable is called like a function.
program = """
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = stablehlo.tanh %0 : tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
"""
layer = client.compile(program)
w = np.ones((3, 2), np.float32)
y = layer(x, w)
expected = np.tanh(np.asarray(x) @ w)
np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-6)
print("tanh(x @ w) =\n", y.to_numpy())

# %% Asynchronous calls return at once; the outputs' data follows.
execution = layer.call_async(x, w)
print("ready yet?", execution.is_ready(), "->", execution.result())

# %% Compile options are keyword arguments: here, the second device.
on_device_1 = client.compile(program, device_ordinal=1)
print("runs on", on_device_1.devices, "->", on_device_1(x, w).device)

# %% Executables serialize to bytes and load back (in this or another process).
restored = client.deserialize(layer.serialize())
np.testing.assert_array_equal(restored(x, w).to_numpy(), y.to_numpy())

# %% DLPack: NumPy (and PyTorch, where installed) share memory with buffers.
shared = np.from_dlpack(y)
assert shared.ctypes.data == y.unsafe_pointer()
try:
    import torch

    t = torch.from_dlpack(y)
    print("torch sees", t)
except ImportError:
    print("(PyTorch not installed: skipping torch.from_dlpack)")

# %% Eager mode: StableHLO ops one at a time, compiled once per signature and cached.
import plugrt.eager

ctx = plugrt.eager.Context(client)
h = ctx.op("stablehlo.dot_general", np.asarray(x), w,
           lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])
h = ctx.op("stablehlo.tanh", h)
row_sums = ctx.op("stablehlo.reduce", [h], [np.float32(0)], dimensions=[1],
                  body=plugrt.eager.Reducer.ADD)
np.testing.assert_allclose(row_sums.numpy(), expected.sum(axis=1), rtol=1e-6)
print("eager row sums:", row_sums)

# %% Gradients, as with tf.GradientTape: d/dx sum(tanh(x @ w)) by reverse mode.
xt = ctx.tensor(np.asarray(x))
with plugrt.eager.GradientTape(ctx) as tape:
    tape.watch(xt)
    h = ctx.op("stablehlo.tanh", ctx.op("stablehlo.dot_general", xt, w,
                                        lhs_contracting_dimensions=[1],
                                        rhs_contracting_dimensions=[0]))
dx = tape.gradient(h, xt)
np.testing.assert_allclose(dx.numpy(), (1 - expected ** 2) @ w.T, rtol=1e-5, atol=1e-6)
print("d sum(tanh(x @ w)) / dx =\n", dx.numpy(), tape.stats)

# %% Errors are plugrt.Error with the PJRT error code.
try:
    layer(x)  # one argument short
except plugrt.Error as error:
    print("plugrt.Error:", error.code.name, "-", error.message)
