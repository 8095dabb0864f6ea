"""plugrt.eager: StableHLO ops one at a time on tensors, over any PJRT plugin.

    ctx = plugrt.eager.Context()
    x = ctx.tensor(np.ones((2, 3), np.float32))
    y = ctx.op("stablehlo.add", x, x)

Differentiation, in the style of TensorFlow's GradientTape:

    with plugrt.eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
    dx = tape.gradient(y, x)

Gradients of your own functions: plugrt.eager.register_vjp(ctx, "name", fn).
"""

from plugrt._plugrt import eager as _eager

Context = _eager.Context
Tensor = _eager.Tensor
Function = _eager.Function
Reducer = _eager.Reducer
GradientTape = _eager.GradientTape
ForwardAccumulator = _eager.ForwardAccumulator
stop_gradient = _eager.stop_gradient
stop_recording = _eager.stop_recording
register_vjp = _eager.register_vjp
register_jvp = _eager.register_jvp

__all__ = [
    "Context",
    "ForwardAccumulator",
    "Function",
    "GradientTape",
    "Reducer",
    "Tensor",
    "register_jvp",
    "register_vjp",
    "stop_gradient",
    "stop_recording",
]
