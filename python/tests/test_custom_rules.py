"""Gradients of users' own functions written in Python: plugrt.eager.register_vjp / register_jvp."""

import itertools

import numpy as np
import pytest

import plugrt
import plugrt.eager as eager

X = np.array([-1.5, 0.25, 2.0], np.float32)
_names = itertools.count()


@pytest.fixture
def ctx(client):
    return eager.Context(client)


def load_cube(ctx):
    """Loads x -> x*x*x under a fresh name (the registries are process-wide) and returns it."""
    name = f"cube_{next(_names)}"
    ctx.load_functions(f"""
      func.func @{name}(%x: tensor<3xf32>) -> tensor<3xf32> {{
        %0 = stablehlo.multiply %x, %x : tensor<3xf32>
        %1 = stablehlo.multiply %0, %x : tensor<3xf32>
        return %1 : tensor<3xf32>
      }}""")
    return name


def gradient(ctx, name, x):
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op(name, x)
    return tape.gradient(y, x)


def test_a_registered_vjp_replaces_op_by_op_differentiation(ctx):
    name = load_cube(ctx)
    x = ctx.tensor(X)
    np.testing.assert_allclose(gradient(ctx, name, x).numpy(), 3 * X * X, rtol=1e-6)
    seen = []

    def straight_through(inputs, outputs, output_gradients):
        seen.append((len(inputs), len(outputs), output_gradients[0].shape))
        return [ctx.op("stablehlo.add", output_gradients[0], output_gradients[0])]

    eager.register_vjp(ctx, name, straight_through)
    np.testing.assert_array_equal(gradient(ctx, name, x).numpy(), np.full(3, 2, np.float32))
    assert seen == [(1, 1, (3,))]


def test_a_python_vjp_is_recorded_by_an_outer_tape(ctx):
    name = load_cube(ctx)

    def cube_vjp(inputs, outputs, output_gradients):
        (x,), (g,) = inputs, output_gradients
        three_x2 = ctx.op("stablehlo.multiply", ctx.op("stablehlo.multiply", x, x),
                          ctx.tensor(np.full(3, 3, np.float32)))
        return [ctx.op("stablehlo.multiply", g, three_x2)]

    eager.register_vjp(ctx, name, cube_vjp)
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as outer:
        outer.watch(x)
        dx = gradient(ctx, name, x)
    np.testing.assert_allclose(dx.numpy(), 3 * X * X, rtol=1e-6)
    np.testing.assert_allclose(outer.gradient(dx, x).numpy(), 6 * X, rtol=1e-6)


def test_registering_twice_needs_replace(ctx):
    name = load_cube(ctx)
    eager.register_vjp(ctx, name, lambda i, o, g: [g[0]])
    with pytest.raises(plugrt.Error) as info:
        eager.register_vjp(ctx, name, lambda i, o, g: [g[0]])
    assert info.value.code == plugrt.ErrorCode.ALREADY_EXISTS
    eager.register_vjp(ctx, name, lambda i, o, g: [None], replace=True)
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op(name, x)
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize("rule, code, words", [
    (lambda i, o, g: 1 / 0, plugrt.ErrorCode.UNKNOWN, "ZeroDivisionError"),
    (lambda i, o, g: [g[0], g[0]], plugrt.ErrorCode.INVALID_ARGUMENT, "returned 2 values for 1"),
    (lambda i, o, g: 7, plugrt.ErrorCode.INVALID_ARGUMENT, "expected f32[3]"),
    (lambda i, o, g: [{"a": 1}], plugrt.ErrorCode.INVALID_ARGUMENT, "no PJRT element type"),
    (lambda i, o, g: [np.ones(5, np.float32)], plugrt.ErrorCode.INVALID_ARGUMENT, "gave input 0 is f32[5]"),
])
def test_a_failing_python_vjp_fails_the_gradient_with_its_name(ctx, rule, code, words):
    name = load_cube(ctx)
    eager.register_vjp(ctx, name, rule)
    with pytest.raises(plugrt.Error) as info:
        gradient(ctx, name, ctx.tensor(X))
    assert info.value.code == code
    assert words in str(info.value)


def test_a_plugrt_error_raised_in_a_vjp_keeps_its_code(ctx):
    name = load_cube(ctx)

    def refuses(inputs, outputs, output_gradients):
        ctx.op("stablehlo.add", inputs[0], ctx.tensor(np.ones(2, np.float32)))  # shapes differ

    eager.register_vjp(ctx, name, refuses)
    with pytest.raises(plugrt.Error) as info:
        gradient(ctx, name, ctx.tensor(X))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT
    assert f"VJP for {name}" in str(info.value)


def test_a_rule_belongs_to_the_context_it_was_registered_on(client, ctx):
    name = load_cube(ctx)
    eager.register_vjp(ctx, name, lambda i, o, g: [g[0]])
    other = eager.Context(client)
    other.load_functions(f"""
      func.func @{name}(%x: tensor<3xf32>) -> tensor<3xf32> {{
        return %x : tensor<3xf32>
      }}""")
    with pytest.raises(plugrt.Error) as info:
        gradient(other, name, other.tensor(X))
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION


def test_a_registered_jvp_drives_the_forward_accumulator(ctx):
    name = load_cube(ctx)
    calls = []

    def cube_jvp(inputs, outputs, tangents):
        calls.append(1)
        (x,), (t,) = inputs, tangents
        x2 = ctx.op("stablehlo.multiply", x, x)
        return ctx.op("stablehlo.multiply", ctx.op("stablehlo.add", x2, ctx.op("stablehlo.add", x2, x2)), t)

    eager.register_jvp(ctx, name, cube_jvp)
    x = ctx.tensor(X)
    v = np.array([1, -2, 0.5], np.float32)
    with eager.ForwardAccumulator(ctx) as acc:
        acc.watch(x, v)
        y = ctx.op(name, x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 3 * X * X * v, rtol=1e-6)
    assert calls == [1]
