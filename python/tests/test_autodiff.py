"""plugrt.eager.GradientTape, ForwardAccumulator and stop_gradient."""

import threading

import numpy as np
import pytest

import plugrt
import plugrt.eager as eager

X = np.array([-1.5, 0.0, 0.5, 2.0], np.float32)


@pytest.fixture(scope="module")
def ctx(client):
    return eager.Context(client)


def square_plus_sine(ctx, x):
    return ctx.op("stablehlo.add", ctx.op("stablehlo.multiply", x, x), ctx.op("stablehlo.sine", x))


def test_gradient_matches_the_analytic_derivative(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = square_plus_sine(ctx, x)
    dx = tape.gradient(y, x)
    assert isinstance(dx, eager.Tensor) and dx.shape == (4,)
    np.testing.assert_allclose(dx.numpy(), 2 * X + np.cos(X), rtol=1e-6, atol=1e-6)
    stats = tape.stats
    assert stats["ops_on_tape"] == 3 and stats["vjps_run"] == 3 and stats["ops_pruned"] == 0
    assert tape.persistent is False


def test_output_gradients_weight_the_targets(ctx):
    x = ctx.tensor(X)
    w = np.array([1, 2, 3, 4], np.float32)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
    [dx] = tape.gradient(y, [x], output_gradients=w)
    np.testing.assert_allclose(dx.numpy(), 2 * X * w)


def test_several_targets_sum_their_weighted_gradients(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
        z = ctx.op("stablehlo.sine", x)
    # None seeds z with ones; y's seed is 3.
    dx = tape.gradient([y, z], x, output_gradients=[np.full(4, 3, np.float32), None])
    np.testing.assert_allclose(dx.numpy(), 6 * X + np.cos(X), rtol=1e-6, atol=1e-6)


def test_unconnected_sources_get_none_or_zeros(ctx):
    x = ctx.tensor(X)
    z = ctx.tensor(np.ones((2, 3), np.float32))
    with eager.GradientTape(ctx, persistent=True) as tape:
        tape.watch([x, z])
        y = ctx.op("stablehlo.exponential", x)
    dx, dz = tape.gradient(y, [x, z])
    np.testing.assert_allclose(dx.numpy(), np.exp(X), rtol=1e-6)
    assert dz is None
    dz = tape.gradient(y, z, unconnected_gradients="zero")
    assert dz.shape == (2, 3)
    np.testing.assert_array_equal(dz.numpy(), np.zeros((2, 3), np.float32))
    with pytest.raises(plugrt.Error) as info:
        tape.gradient(y, z, unconnected_gradients="zeros")
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_persistent_tape_gives_many_gradients(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx, persistent=True) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
        z = ctx.op("stablehlo.sine", x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2 * X)
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), np.cos(X), rtol=1e-6)
    # The second gradient needs only the sine: the multiply is pruned.
    assert tape.stats["vjps_run"] == 1 and tape.stats["ops_pruned"] == 1


def test_non_persistent_tape_refuses_a_second_gradient(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
    tape.gradient(y, x)
    with pytest.raises(plugrt.Error) as info:
        tape.gradient(y, x)
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION


def test_tape_must_be_entered_once(ctx):
    tape = eager.GradientTape(ctx)
    with pytest.raises(plugrt.Error) as info:
        tape.watch(ctx.tensor(X))
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION
    with tape:
        pass
    with pytest.raises(plugrt.Error) as info:
        with tape:
            pass
    assert info.value.code == plugrt.ErrorCode.FAILED_PRECONDITION
    with pytest.raises(plugrt.Error) as info:
        tape.watch(X)  # an array is not a tensor a tape can follow
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_nested_tapes_give_the_second_derivative(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as outer:
        outer.watch(x)
        with eager.GradientTape(ctx) as inner:
            inner.watch(x)
            y = square_plus_sine(ctx, x)
        dx = inner.gradient(y, x)
    d2x = outer.gradient(dx, x)
    np.testing.assert_allclose(dx.numpy(), 2 * X + np.cos(X), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(d2x.numpy(), 2 - np.sin(X), rtol=1e-6, atol=1e-6)


def test_stop_gradient_cuts_the_path(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        # y = x * stop(x): only the first factor carries a gradient.
        y = ctx.op("stablehlo.multiply", x, eager.stop_gradient(x))
    np.testing.assert_array_equal(eager.stop_gradient(x).numpy(), X)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), X)


def test_forward_accumulator_matches_reverse_mode(ctx):
    x = ctx.tensor(X)
    v = np.array([1, -1, 2, 0.5], np.float32)
    with eager.ForwardAccumulator(ctx) as acc:
        acc.watch(x, v)
        y = square_plus_sine(ctx, x)
        unrelated = ctx.op("stablehlo.exponential", ctx.tensor(X))
    jv = acc.jvp(y)
    assert acc.num_jvps == 3
    assert acc.jvp(unrelated) is None
    np.testing.assert_array_equal(acc.jvp(unrelated, unconnected_gradients="zero").numpy(),
                                  np.zeros(4, np.float32))
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = square_plus_sine(ctx, x)
    # Elementwise: J v is the reverse-mode gradient times v.
    np.testing.assert_allclose(jv.numpy(), tape.gradient(y, x).numpy() * v, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(jv.numpy(), (2 * X + np.cos(X)) * v, rtol=1e-6, atol=1e-6)


def test_forward_accumulator_checks_the_tangent(ctx):
    x = ctx.tensor(X)
    with eager.ForwardAccumulator(ctx) as acc:
        with pytest.raises(plugrt.Error) as info:
            acc.watch(x, np.ones(3, np.float32))
    assert info.value.code == plugrt.ErrorCode.INVALID_ARGUMENT


def test_stop_recording_hides_ops_from_the_tape(ctx):
    x = ctx.tensor(X)
    with eager.GradientTape(ctx, persistent=True) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)
        with eager.stop_recording():
            hidden = ctx.op("stablehlo.sine", x)
        assert tape.num_recorded == 1
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2 * X)
    assert tape.gradient(hidden, x) is None


def test_a_tape_is_refused_on_another_thread(ctx):
    x = ctx.tensor(X)
    errors = []
    with eager.GradientTape(ctx) as tape:
        tape.watch(x)
        y = ctx.op("stablehlo.multiply", x, x)

    def use():
        try:
            tape.gradient(y, x)
        except plugrt.Error as error:
            errors.append(error.code)

    worker = threading.Thread(target=use)
    worker.start()
    worker.join()
    assert errors == [plugrt.ErrorCode.FAILED_PRECONDITION]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2 * X)
