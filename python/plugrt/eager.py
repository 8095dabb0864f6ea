"""plugrt.eager: StableHLO ops one at a time on tensors, over any PJRT plugin.

    ctx = plugrt.eager.Context()
    x = ctx.tensor(np.ones((2, 3), np.float32))
    y = ctx.op("stablehlo.add", x, x)
"""

from plugrt._plugrt import eager as _eager

Context = _eager.Context
Tensor = _eager.Tensor
Function = _eager.Function
Reducer = _eager.Reducer

__all__ = ["Context", "Function", "Reducer", "Tensor"]
