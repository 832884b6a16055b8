"""Max pooling's explicit derivative (``ops/_nn_pool.py:_window_max``) against a NumPy argmax and by hand."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from jax import lax

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl.ops._nn_pool import _max_and_first, _running_max_and_first

CASES = [  # (kernel, stride, padding, dilation, ceil_mode, input H, W)
    (2, 2, 0, 1, False, 8, 8),       # windows tile the input (LeNet)
    (2, 2, 0, 1, False, 9, 7),       # tiling after cropping the odd row / column
    (2, 2, 0, 1, True, 9, 7),        # ceil mode: the windows tile the input padded by one row / column
    (3, 3, 1, 1, False, 8, 10),      # 3x3 windows tiling the padded input
    (3, 2, 1, 1, False, 9, 10),      # overlapping with padding (ResNet's stem)
    (3, 1, 0, 2, False, 9, 9),       # dilation
    (3, 2, 1, 1, True, 10, 10),      # ceil mode
]


def _reference(x, k, s, p, d, ceil_mode):
    """NCHW max pool with reduce_window (padding -inf; ceil mode as extra right/bottom padding)."""
    pads = []
    for size in x.shape[2:]:
        span = size + 2 * p - d * (k - 1) - 1
        out = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (out - 1) * s >= size + p:
            out -= 1
        pads.append((p, max((out - 1) * s + d * (k - 1) + 1 - size - p, 0)))
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, k, k), (1, 1, s, s), ((0, 0), (0, 0), *pads),
                             window_dilation=(1, 1, d, d))


def _argmax_positions(x, k, s, p, d, out_hw):
    """For each output position, the (h, w) of its window's maximum in the input (NumPy, no ties)."""
    h, w = x.shape[2:]
    pos = np.zeros(x.shape[:2] + tuple(out_hw) + (2,), np.int64)
    for i in range(out_hw[0]):
        for j in range(out_hw[1]):
            rows = [i * s - p + a * d for a in range(k)]
            cols = [j * s - p + b * d for b in range(k)]
            cand = [(r, c) for r in rows for c in cols if 0 <= r < h and 0 <= c < w]
            vals = np.stack([x[:, :, r, c] for r, c in cand], -1)
            best = np.argmax(vals, -1)
            pos[:, :, i, j] = np.asarray(cand)[best]
    return pos


@pytest.mark.parametrize("case", CASES)
def test_values_gradient_and_forward_mode_match_argmax(case):
    k, s, p, d, ceil_mode, h, w = case
    x = np.random.default_rng(0).permutation(2 * 3 * h * w).reshape(2, 3, h, w).astype(np.float32)  # no ties

    def pool(a):
        return ops.max_pool2d(ms.Tensor(a), k, s, p, d, ceil_mode=ceil_mode)._value

    ref = _reference(jnp.asarray(x), k, s, p, d, ceil_mode)
    np.testing.assert_array_equal(pool(jnp.asarray(x)), ref)
    pos = _argmax_positions(x, k, s, p, d, ref.shape[2:])
    g = np.random.default_rng(1).normal(size=ref.shape).astype(np.float32)
    want = np.zeros_like(x)
    for n in range(2):
        for c in range(3):
            for i in range(ref.shape[2]):
                for j in range(ref.shape[3]):
                    want[n, c, pos[n, c, i, j, 0], pos[n, c, i, j, 1]] += g[n, c, i, j]
    got = jax.grad(lambda a: jnp.sum(pool(a) * g))(jnp.asarray(x))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    t = np.random.default_rng(2).normal(size=x.shape).astype(np.float32)
    _, t_got = jax.jvp(pool, (jnp.asarray(x),), (jnp.asarray(t),))
    t_want = np.take_along_axis(t.reshape(2, 3, -1), (pos[..., 0] * w + pos[..., 1]).reshape(2, 3, -1), 2)
    np.testing.assert_allclose(t_got, t_want.reshape(ref.shape), rtol=1e-6, atol=1e-6)


TIES = np.array([[[[1, 1, 0, 2], [1, 0, 2, 2], [3, 3, 3, 3], [3, 3, 3, 3]]]], np.float32)


@pytest.mark.parametrize("pool,want", [  # gradients of pool(TIES).sum() printed by MindSpore 2.10 (CPU)
    (lambda a: ms.nn.MaxPool2d(2, 2)(a), [[1, 0, 0, 1], [0, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]]),
    (lambda a: ms.nn.MaxPool2d(3, 2, pad_mode="same")(a), [[0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 2, 0], [0, 0, 0, 0]]),
    (lambda a: ops.max_pool2d(a, 3, 1, 1), [[1, 0, 0, 2], [0, 0, 1, 0], [6, 3, 3, 0], [0, 0, 0, 0]]),
])
def test_the_first_of_tied_maxima_takes_the_gradient_as_in_mindspore(pool, want):
    grad = ms.grad(lambda a: pool(a).sum())(ms.Tensor(TIES))
    np.testing.assert_array_equal(grad.asnumpy(), np.asarray(want, np.float32)[None, None])


# The reduction reduces axis 0 only, so the trailing shape does not enter its logic: it comes from a fixed pair (both
# ranks), each with several columns, every column an independent case. Arbitrary trailing shapes gave nearly every
# example a shape of its own, hence an XLA compilation of its own (~0.1 s each, most of the test's time); now at
# most 18 shapes are compiled, once each (jit caches by shape).
@jax.jit
def _running_over_axis_0(x):
    """``_running_max_and_first`` with the rows of ``x`` as the taps: one window of width len(x) per column."""
    n, tail = x.shape[0], x.shape[1:]
    columns = x.reshape(n, -1).T[None, :, :, None]  # (1, columns, n, 1): the taps along the width
    value, first = _running_max_and_first(columns, (1, n), (1, 1), (1, 1), (columns.shape[1], 1))
    return value.reshape(tail), first.reshape(tail)


_FORMS = {"reduction": jax.jit(_max_and_first), "running comparison": _running_over_axis_0}
_SHAPES = st.builds(lambda n, tail: (n,) + tail, st.integers(1, 9), st.sampled_from([(8,), (2, 4)]))
nan, inf = np.nan, np.inf


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, _SHAPES, elements=st.sampled_from([-inf, -1.0, 0.0, 2.0, inf, nan])))
# Columns: a later tie; the first of two NaNs; a NaN before a number; all -inf (index 0, not the reduction's initial
# index); a NaN between infinities; a tie of infinities; -inf around a number; all equal.
@example(np.array([[-1, 2, nan, -inf, inf, 0, -inf, 0],
                   [2, nan, 2, -inf, nan, inf, -1, 0],
                   [2, nan, nan, -inf, inf, inf, -inf, 0]], np.float32))
@example(np.full((1, 2, 4), -inf, np.float32))
def test_maximum_and_first_index_match_numpy(x):
    # Both forms behind the pool's derivative (one reduction; a running comparison for float32 windows that overlap
    # on the CPU): NumPy's max and argmax (the first NaN, else the first maximum).
    for name, form in _FORMS.items():
        value, first = form(jnp.asarray(x))
        assert first.dtype == jnp.int8, name
        np.testing.assert_array_equal(np.asarray(first), np.argmax(x, axis=0), err_msg=name)
        np.testing.assert_array_equal(np.asarray(value), np.max(x, axis=0), err_msg=name)


@pytest.mark.parametrize("case", CASES)
def test_a_bfloat16_gradient_is_the_float32_gradient_rounded_once(case):
    # Overlapping windows add several cotangents into one input position; a bfloat16 pool sums them in float32
    # and rounds the total once, so its gradient is exactly the float32 pool's gradient of the same (bfloat16)
    # values, rounded. Both pools see the same values, so ties go to the same first maximum.
    k, s, p, d, ceil_mode, h, w = case
    rng = np.random.default_rng(3)
    x = jnp.asarray(rng.permutation(2 * 3 * h * w).reshape(2, 3, h, w), jnp.bfloat16)  # some ties above 256
    g = jnp.asarray(rng.normal(size=(2, 3, h, w)) * 1.37, jnp.bfloat16)

    def grad(dtype):
        def pooled_dot(a):
            y = ops.max_pool2d(ms.Tensor(a), k, s, p, d, ceil_mode=ceil_mode)._value
            return jnp.sum(y.astype(jnp.float32) * g[:, :, :y.shape[2], :y.shape[3]].astype(jnp.float32))
        return jax.grad(pooled_dot)(x.astype(dtype))

    low = grad(jnp.bfloat16)
    assert low.dtype == jnp.bfloat16
    np.testing.assert_array_equal(np.asarray(low, np.float32),
                                  np.asarray(grad(jnp.float32).astype(jnp.bfloat16), np.float32))


@pytest.mark.parametrize("dtype, kernel, stride, kept", [
    (jnp.bfloat16, 3, 2, True),    # ResNet's stem pool in bfloat16: the cotangent is computed once
    (jnp.float32, 3, 2, False),    # float32 keeps the fused form (measured equal)
    (jnp.bfloat16, 2, 2, False),   # tiling windows read each cotangent element once (a broadcast)
])
def test_a_low_precision_cotangent_reaches_overlapping_taps_in_a_buffer_of_its_own(dtype, kernel, stride, kept):
    """On the CPU a bfloat16 cotangent reaching a max pool with overlapping windows passes through a conditional
    (``ops/_materialize.py``), so XLA computes its producers once rather than in each of the nine taps."""
    x = jnp.asarray(np.random.default_rng(0).normal(size=(2, 4, 12, 12)), dtype)

    def loss(a):
        y = ops.max_pool2d(ms.Tensor(a), kernel, stride, 1 if kernel == 3 else 0)._value
        return jnp.sum((y * y + y).astype(jnp.float32))  # a cotangent with element-wise producers

    hlo = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    assert ("conditional(" in hlo) == (kept and jax.default_backend() == "cpu")  # a GPU keeps XLA's fused form


def test_bfloat16_taps_widened_from_their_bits_keep_special_values():
    """bfloat16 taps are compared as float32 widened from their 16-bit patterns: NaN, infinities, signed zeros and
    subnormals pool and route the gradient exactly as the float32 pool of the same values does."""
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 3.0e38, -2.5, 7.0], np.float32)
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.choice(special, size=(2, 3, 9, 10)), jnp.bfloat16)
    g = jnp.asarray(rng.normal(size=(2, 3, 5, 5)), jnp.bfloat16).astype(jnp.float32)  # (the same in both)

    def pooled_dot(a):
        y = ops.max_pool2d(ms.Tensor(a), 3, 2, 1)._value
        return jnp.sum(jnp.where(jnp.isfinite(y), y, 0).astype(jnp.float32) * g), y

    (_, low), grad_low = jax.value_and_grad(pooled_dot, has_aux=True)(x)
    (_, ref), grad_ref = jax.value_and_grad(pooled_dot, has_aux=True)(x.astype(jnp.float32))
    for got, want in ((low, ref), (grad_low, grad_ref)):
        np.testing.assert_array_equal(np.asarray(got, np.float32), np.asarray(want.astype(jnp.bfloat16), np.float32))


@pytest.mark.parametrize("case", [CASES[0], CASES[4]])
def test_second_derivatives_match_reduce_window(case):
    """Derivatives of any order route through the first maximum: a Hessian-vector product of sum(pool(x)^2) (forward
    over reverse, and reverse over reverse) equals reduce_window's. (JAX cannot differentiate the maximum-and-index
    reduction twice, so its derivative is stated.)"""
    k, s, p, d, ceil_mode, h, w = case
    rng = np.random.default_rng(7)
    x = jnp.asarray(rng.normal(size=(2, 3, h, w)), jnp.float32)
    v = jnp.asarray(rng.normal(size=(2, 3, h, w)), jnp.float32)

    def ours(a):
        return jnp.sum(ops.max_pool2d(ms.Tensor(a), k, s, p, d, ceil_mode=ceil_mode)._value ** 2)

    def reference(a):
        return jnp.sum(_reference(a, k, s, p, d, ceil_mode) ** 2)

    def hessian_vector(f):
        forward_over_reverse = jax.jvp(jax.grad(f), (x,), (v,))[1]
        reverse_over_reverse = jax.grad(lambda a: jnp.sum(jax.grad(f)(a) * v))(x)
        return forward_over_reverse, reverse_over_reverse

    for got, want in zip(hessian_vector(ours), hessian_vector(reference)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
