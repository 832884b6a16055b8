"""The other convolution forms (``ops/_nn_conv_gemm.py``, ``ops/_nn_conv_narrow.py``, ``ops/_nn_conv_depthwise.py``)
equal XLA's, with derivatives."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from jax import lax

import mindspore_hl as ms  # (x64 on, as in every use)
from mindspore_hl import ops
from mindspore_hl.ops import _nn_conv_depthwise, _nn_conv_gemm
from mindspore_hl.ops._nn_conv_depthwise import conv_depthwise, depthwise_suits
from mindspore_hl.ops._nn_conv_gemm import _live, conv_gemm, gemm_suits
from mindspore_hl.ops._nn_conv_narrow import _block, _blockable, conv_narrow, narrow_suits

CASES = [  # (N, H, W, Ci, Co, (kh, kw), stride, pads, dilation)
    (2, 9, 10, 3, 4, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),
    (2, 8, 8, 3, 4, (3, 3), (2, 2), ((0, 1), (0, 1)), (1, 1)),     # 'same' with stride 2 on an even size
    (2, 8, 7, 3, 5, (1, 1), (2, 2), ((0, 0), (0, 0)), (1, 1)),     # strided 1x1 (ResNet down-sampling)
    (2, 10, 9, 2, 3, (3, 2), (1, 2), ((2, 2), (1, 0)), (2, 1)),    # dilation, uneven pads
    (3, 2, 2, 4, 6, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),     # output smaller than the kernel
    (2, 3, 3, 3, 9, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),     # fewer output positions than channels
    (2, 11, 11, 3, 4, (7, 7), (2, 2), ((3, 3), (2, 3)), (1, 1)),
    (3, 1, 1, 4, 5, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),     # a 1x1 map: the centre tap alone is live
    (2, 2, 2, 4, 5, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),     # 2x2 -> 1x1: the first row and column dead
    (2, 3, 3, 3, 4, (3, 3), (1, 1), ((2, 0), (1, 1)), (2, 1)),     # dilated rows: a kernel row reads padding only
    (2, 1, 2, 3, 4, (1, 1), (2, 1), ((3, 3), (0, 0)), (1, 1)),     # every output row reads padding only
]


def _reference(x, w, stride, pads, dilation, groups=1):
    return lax.conv_general_dilated(x, w, stride, pads, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "OIHW", "NHWC"), feature_group_count=groups)


NARROW_CASES = [
    (2, 12, 12, 1, 6, (5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1)),     # LeNet's conv1 (2 x 4 blocks)
    (2, 12, 13, 1, 6, (5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1)),     # output width not a multiple of 4
    (2, 9, 10, 6, 4, (5, 5), (1, 1), ((2, 2), (1, 3)), (1, 1)),      # LeNet's conv2, padded
    (2, 14, 14, 6, 4, (5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1)),     # LeNet's conv2 (2 x 2 blocks)
    (2, 11, 12, 5, 3, (3, 4), (1, 1), ((1, 2), (0, 1)), (1, 1)),     # 2 x 2 blocks, odd sizes, uneven pads
    (2, 11, 12, 3, 5, (3, 2), (2, 1), ((1, 0), (2, 1)), (2, 1)),     # stride and dilation along H only
    (2, 11, 11, 3, 4, (7, 7), (2, 2), ((3, 3), (2, 3)), (1, 1)),     # a ResNet stem (XLA's forward)
    (2, 10, 9, 2, 3, (3, 2), (1, 2), ((2, 2), (1, 0)), (2, 1)),      # dilated along W (XLA's forward)
]


@pytest.mark.parametrize("dtype", [jnp.float64, jnp.float32])  # (float32 products have a rule of their own)
@pytest.mark.parametrize("impl,case", [(conv_gemm, c) for c in CASES] + [(conv_narrow, c) for c in NARROW_CASES])
def test_values_gradients_and_forward_mode_match_xla(impl, case, dtype):
    n, h, wd, ci, co, k, stride, pads, dilation = case
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(n, h, wd, ci)), dtype)
    w = jnp.asarray(rng.normal(size=(co, ci) + k), dtype)
    _assert_matches_xla(lambda a, b: impl(a, b, stride, pads, dilation),
                        lambda a, b: _reference(a, b, stride, pads, dilation), x, w, rng)


def _assert_matches_xla(f, ref_f, x, w, rng):
    """``f(x, w)`` equals ``ref_f(x, w)`` with both gradients, forward mode, and the weight gradient alone.

    Each check runs as one jitted program: the forms are written for jit (every use compiles them), and run
    eagerly every small op of them (a narrow form has hundreds) was compiled on its own, seconds per case."""
    tol = 1e-11 if x.dtype == jnp.float64 else 2e-5
    ref = jax.jit(ref_f)(x, w)
    got = jax.jit(f)(x, w)
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
    g = jnp.asarray(rng.normal(size=ref.shape), x.dtype)
    grads_ref = jax.jit(jax.grad(lambda a, b: jnp.sum(ref_f(a, b) * g), (0, 1)))(x, w)
    grads = jax.jit(jax.grad(lambda a, b: jnp.sum(f(a, b) * g), (0, 1)))(x, w)
    for a, b in zip(grads, grads_ref):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    tx, tw = jnp.ones_like(x), jnp.full_like(w, 0.5)
    _, t_ref = jax.jit(lambda a, b: jax.jvp(ref_f, (a, b), (tx, tw)))(x, w)
    _, t_got = jax.jit(lambda a, b: jax.jvp(f, (a, b), (tx, tw)))(x, w)
    np.testing.assert_allclose(t_got, t_ref, rtol=tol, atol=tol)
    # only the weight differentiated (the usual first layer)
    gw = jax.jit(jax.grad(lambda b: jnp.sum(f(x, b) * g)))(w)
    np.testing.assert_allclose(gw, grads_ref[1], rtol=tol, atol=tol)


DEPTHWISE_CASES = [  # (N, H, W, C, channel multiplier, (kh, kw), stride, pads, dilation)
    (2, 9, 9, 4, 1, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),      # MobileNetV2's stride-1 layers
    (2, 10, 9, 3, 1, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),     # its stride-2 layers, odd width
    (2, 8, 8, 3, 2, (3, 3), (2, 2), ((0, 1), (0, 1)), (1, 1)),      # 'same' at stride 2, two filters per channel
    (1, 11, 12, 2, 3, (5, 3), (1, 2), ((2, 1), (0, 3)), (2, 1)),    # dilation, uneven pads, a rectangular kernel
    (2, 2, 2, 5, 1, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),      # a map smaller than the kernel
    (2, 6, 5, 3, 1, (1, 1), (2, 2), ((0, 0), (0, 0)), (1, 1)),      # a 1x1 kernel
    (1, 11, 12, 2, 2, (5, 3), (1, 1), ((2, 1), (0, 3)), (2, 1)),    # stride 1: dilation, uneven pads, two filters
    (2, 1, 1, 3, 1, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),      # stride 1, a 1x1 map: the centre tap alone
]


@pytest.mark.parametrize("dtype", [jnp.float64, jnp.float32])
@pytest.mark.parametrize("case", DEPTHWISE_CASES)
def test_depthwise_values_gradients_and_forward_mode_match_xla(case, dtype):
    n, h, wd, c, m, k, stride, pads, dilation = case
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(n, h, wd, c)), dtype)
    w = jnp.asarray(rng.normal(size=(c * m, 1) + k), dtype)
    _assert_matches_xla(lambda a, b: conv_depthwise(a, b, stride, pads, dilation),
                        lambda a, b: _reference(a, b, stride, pads, dilation, groups=c), x, w, rng)


@pytest.mark.parametrize("case", DEPTHWISE_CASES[:3])
def test_depthwise_bfloat16_rounds_the_float32_sum_once(case):
    """In bfloat16 every output is the float32 convolution of the same operands rounded once (XLA's own bfloat16
    convolution computes in float32 too), to within one bfloat16 step of that sum's last bit; the gradients are the
    float32 gradients to bfloat16 precision."""
    n, h, wd, c, m, k, stride, pads, dilation = case
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.normal(size=(n, h, wd, c)), jnp.bfloat16)
    w = jnp.asarray(rng.normal(size=(c * m, 1) + k), jnp.bfloat16)
    got = jax.jit(lambda a, b: conv_depthwise(a, b, stride, pads, dilation))(x, w)
    want = _reference(x.astype(jnp.float32), w.astype(jnp.float32), stride, pads, dilation, groups=c)
    assert got.dtype == jnp.bfloat16
    step = np.abs(np.asarray(want)) * 2.0 ** -8 + 1e-30
    assert np.all(np.abs(np.asarray(got, np.float32) - np.asarray(want)) <= step)
    _assert_bfloat16_gradients(lambda a, b: conv_depthwise(a, b, stride, pads, dilation), x, w)


def test_depthwise_through_conv2d_and_its_second_derivative():
    """``ops.conv2d`` with one input channel per group takes the depthwise form on the CPU (symbolic batch and an
    empty batch included), and its second derivative is XLA's."""
    rng = np.random.default_rng(3)
    x, w = rng.normal(size=(2, 6, 7, 7)), rng.normal(size=(6, 1, 3, 3))
    got = ops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode="pad", padding=1, stride=2, groups=6).asnumpy()
    want = _reference(jnp.transpose(x, (0, 2, 3, 1)), w, (2, 2), ((1, 1), (1, 1)), (1, 1), groups=6)
    np.testing.assert_allclose(got, np.transpose(want, (0, 3, 1, 2)), rtol=1e-11, atol=1e-11)
    xs = jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 7, 7, 6"), jnp.float32)
    w32 = jnp.asarray(w, jnp.float32)
    exported = jax.export.export(jax.jit(lambda a: conv_depthwise(a, w32, (1, 1), ((1, 1),) * 2, (1, 1))))(xs)
    a = jnp.asarray(rng.normal(size=(3, 7, 7, 6)), jnp.float32)
    np.testing.assert_allclose(exported.call(a), _reference(a, w32, (1, 1), ((1, 1),) * 2, (1, 1), groups=6),
                               rtol=1e-5, atol=1e-5)
    empty = ops.conv2d(ms.Tensor(np.zeros((0, 6, 7, 7), np.float32)), ms.Tensor(w.astype(np.float32)), groups=6)
    assert empty.shape == (0, 6, 5, 5)
    xj, wj = jnp.transpose(jnp.asarray(x), (0, 2, 3, 1)), jnp.asarray(w)

    def hess(conv):
        return jax.hessian(lambda b: jnp.sum(jnp.sin(conv(xj, b))))(wj)

    np.testing.assert_allclose(hess(lambda a, b: conv_depthwise(a, b, (1, 1), ((1, 1),) * 2, (1, 1))),
                               hess(lambda a, b: _reference(a, b, (1, 1), ((1, 1),) * 2, (1, 1), groups=6)),
                               rtol=1e-9, atol=1e-9)


def _depthwise_pair(case):
    """(the depthwise form, XLA's grouped convolution) as functions of (x, w), and an x and w for ``case``."""
    n, h, wd, c, m, k, stride, pads, dilation = case
    rng = np.random.default_rng(4)
    x, w = jnp.asarray(rng.normal(size=(n, h, wd, c))), jnp.asarray(rng.normal(size=(c * m, 1) + k))
    return (lambda a, b: conv_depthwise(a, b, stride, pads, dilation),
            lambda a, b: _reference(a, b, stride, pads, dilation, groups=c), x, w)


def _gradient_penalty(f, x, w, argnum):
    """The derivative in ``x`` of the squared norm of ``sum(sin(f(x, w)))``'s gradient in argument ``argnum``."""
    def norm(a):
        return jnp.sum(jax.grad(lambda *ab: jnp.sum(jnp.sin(f(*ab))), argnums=argnum)(a, w) ** 2)
    return jax.jit(jax.grad(norm))(x)


@pytest.mark.parametrize("case", DEPTHWISE_CASES[:4])
def test_depthwise_weight_gradient_is_one_pass_and_differentiable_in_the_input(case):
    """The weight gradient is all the taps' sums in one reduction per image (not one reduction per tap), and its
    derivative in the input (a gradient penalty's) is XLA's."""
    conv, ref, x, w = _depthwise_pair(case)
    weight_grad = jax.jit(jax.grad(lambda b: jnp.sum(jnp.sin(conv(x, b)))))
    assert "depthwise_tap_sums" in str(jax.make_jaxpr(weight_grad)(w))
    assert weight_grad.lower(w).compile().as_text().count(" reduce(") <= 2  # (per image, then over the images)
    np.testing.assert_allclose(_gradient_penalty(conv, x, w, 1), _gradient_penalty(ref, x, w, 1), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("case", [DEPTHWISE_CASES[0], DEPTHWISE_CASES[6]])
def test_depthwise_input_gradient_at_stride_1_pads_the_cotangent_once(case):
    """At stride 1 the input gradient is a sum of shifted views of the output cotangent, padded once, not one
    padded term per tap, and its own derivative (a gradient penalty's in the input) is XLA's."""
    conv, ref, x, w = _depthwise_pair(case)
    y, pullback = jax.vjp(lambda a: conv(a, w), x)
    # (the other pad is the forward padding's transpose, a pad by negative amounts)
    assert str(jax.make_jaxpr(pullback)(y)).count(" pad[") == 2
    np.testing.assert_allclose(_gradient_penalty(conv, x, w, 0), _gradient_penalty(ref, x, w, 0), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("case", DEPTHWISE_CASES[:4] + DEPTHWISE_CASES[6:7])
def test_depthwise_maps_over_examples_and_over_filters(case):
    """``vmap`` of the depthwise form: per-example weight gradients (the batch mapped over the input) and a stack
    of filters mapped over the weight equal XLA's."""
    conv, ref, x, w = _depthwise_pair(case)

    def per_example(f):
        grad = jax.grad(lambda a, b: jnp.sum(jnp.sin(f(a[None], b))), argnums=1)
        return jax.jit(jax.vmap(grad, in_axes=(0, None)))(x, w)

    np.testing.assert_allclose(per_example(conv), per_example(ref), rtol=1e-9, atol=1e-9)
    filters = jnp.stack([w, 2 * w, -w])
    np.testing.assert_allclose(jax.jit(jax.vmap(conv, in_axes=(None, 0)))(x, filters),
                               jax.jit(jax.vmap(ref, in_axes=(None, 0)))(x, filters), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("case", NARROW_CASES)
def test_narrow_bfloat16_gradients_are_the_float32_gradients_to_bfloat16_precision(case):
    # Reverse mode transposes conv_narrow's tangent rule, so its matrix-product terms must be transposable in
    # bfloat16 too (the bfloat16 product's own rule is a custom_vjp, which JAX cannot transpose).
    n, h, wd, ci, co, k, stride, pads, dilation = case
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(n, h, wd, ci)), jnp.bfloat16)
    w = jnp.asarray(rng.normal(size=(co, ci) + k), jnp.bfloat16)
    _assert_bfloat16_gradients(lambda a, b: conv_narrow(a, b, stride, pads, dilation), x, w)


def _assert_bfloat16_gradients(conv, x, w):
    """``conv``'s gradients at bfloat16 ``x`` and ``w`` are bfloat16 and equal its float32 gradients to bfloat16
    precision (loss: the sum of the squared outputs)."""
    def loss(a, b):
        return jnp.sum(conv(a, b).astype(jnp.float32) ** 2)

    grads = jax.jit(jax.grad(loss, (0, 1)))(x, w)
    want = jax.jit(jax.grad(loss, (0, 1)))(x.astype(jnp.float32), w.astype(jnp.float32))
    for got, ref in zip(grads, want):
        assert got.dtype == jnp.bfloat16
        np.testing.assert_allclose(np.asarray(got, np.float32), ref, atol=3e-2 * float(jnp.abs(ref).max()))


@pytest.mark.parametrize("case", CASES)
def test_bfloat16_patches_are_the_bits_moved_and_their_gradient_adds_in_float32(case):
    """A bfloat16 matrix-product convolution cuts its patches from the 16-bit patterns (no conversion: the
    compiled forward holds none), and the patches' gradient is the float32 col2im of the cotangent, rounded once."""
    n, h, wd, ci, co, k, stride, pads, dilation = case
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(n, h, wd, ci)), jnp.bfloat16)
    geometry = ((co, ci) + k, stride, pads, dilation, False)
    patches, vjp = jax.vjp(lambda a: _nn_conv_gemm._bf16_patches(a, *geometry), x)
    np.testing.assert_array_equal(np.asarray(patches, np.float32),
                                  np.asarray(_nn_conv_gemm._patches(x, *geometry), np.float32))
    g = jnp.asarray(rng.normal(size=patches.shape), jnp.bfloat16)
    f32_grad = jax.vjp(lambda a: _nn_conv_gemm._patches(a, *geometry), x.astype(jnp.float32))[1](
        g.astype(jnp.float32))[0]
    np.testing.assert_array_equal(np.asarray(vjp(g)[0], np.float32),
                                  np.asarray(f32_grad.astype(jnp.bfloat16), np.float32))
    hlo = jax.jit(lambda a: _nn_conv_gemm._bf16_patches(a, *geometry)).lower(x).compile().as_text()
    assert " convert(" not in hlo


@pytest.mark.parametrize("case", [c for c in CASES if c[5] != (1, 1) or c[6] != (1, 1)])
def test_bfloat16_input_gradient_sums_the_float32_product_and_rounds_once(case):
    """The input gradient of a bfloat16 matrix-product convolution is the float32 col2im of the float32 product
    dy @ weight, rounded to bfloat16 once. Small integers make every float32 sum exact, so the truth is the
    float32 convolution's input gradient rounded once; rounding the product first (the rule before) loses the
    low bits of its entries above 256."""
    if jax.default_backend() != "cpu":
        pytest.skip("the rule is XLA:CPU's (a GPU takes the plain bfloat16 product)")
    n, h, wd, ci, co, k, stride, pads, dilation = case
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.integers(-4, 5, (n, h, wd, ci)), jnp.bfloat16)
    w = jnp.asarray(rng.integers(-15, 16, (co, ci) + k), jnp.bfloat16)
    y, vjp = jax.vjp(lambda a: conv_gemm(a, w, stride, pads, dilation), x)
    g = jnp.asarray(rng.integers(-15, 16, y.shape), jnp.bfloat16)
    f32 = jax.vjp(lambda a: _reference(a, w.astype(jnp.float32), stride, pads, dilation), x.astype(jnp.float32))
    want = f32[1](g.astype(jnp.float32))[0].astype(jnp.bfloat16)
    np.testing.assert_array_equal(np.asarray(vjp(g)[0], np.float32), np.asarray(want, np.float32))


def test_bfloat16_gemm_second_derivative_keeps_every_term():
    # The rule saves the bit-copied patches for the weight gradient; their stated derivative carries the weight
    # gradient's term in x into this second derivative (without it the result is zero).
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.normal(size=(2, 6, 6, 16)), jnp.bfloat16)
    w = jnp.asarray(rng.normal(size=(8, 16, 3, 3)) * 0.1, jnp.bfloat16)
    args = ((1, 1), ((1, 1), (1, 1)), (1, 1))

    def second(conv, a, b):
        def loss(a, b):
            return jnp.sum(conv(a, b, *args).astype(jnp.float32) ** 2)
        return jax.grad(lambda a: jnp.sum(jax.grad(loss, 1)(a, b).astype(jnp.float32) ** 2))(a)

    got = second(conv_gemm, x, w)
    want = second(_reference, x.astype(jnp.float32), w.astype(jnp.float32))
    np.testing.assert_allclose(np.asarray(got, np.float32), want, rtol=0.05, atol=0.02 * float(jnp.abs(want).max()))


def test_taps_reading_only_padding_are_left_out():
    # (size, kernel, stride, dilation, pads) along one axis -> the kernel offsets that read some input
    assert _live(1, 3, 1, 1, (1, 1)) == [1]          # a 1x1 map: the centre only
    assert _live(2, 3, 2, 1, (1, 1)) == [1, 2]       # 2 -> 1 at stride 2
    assert _live(3, 3, 1, 2, (2, 0)) == [1, 2]       # dilated: offset 0 reads padding rows only
    assert _live(2, 3, 1, 1, (1, 1)) == [0, 1, 2]    # every offset reads some input
    assert _live(56, 3, 1, 1, (1, 1)) == [0, 1, 2]


def test_choice_of_formulation(monkeypatch):
    one, same3 = ((0, 0), (0, 0)), ((1, 1), (1, 1))
    f32, bf16 = jnp.float32, jnp.bfloat16
    monkeypatch.setattr(_nn_conv_gemm, "default_platform", lambda: "gpu")  # XLA:GPU's convolutions are faster
    assert not gemm_suits((8, 56, 56, 256), (64, 256, 1, 1), (1, 1), one, (1, 1), 1, f32)
    assert not gemm_suits((32, 2, 2, 512), (512, 512, 3, 3), (2, 2), same3, (1, 1), 1, f32)
    assert not gemm_suits((8, 28, 28, 128), (128, 128, 3, 3), (1, 1), same3, (1, 1), 1, bf16)
    monkeypatch.setattr(_nn_conv_gemm, "default_platform", lambda: "cpu")
    assert gemm_suits((8, 56, 56, 256), (64, 256, 1, 1), (1, 1), one, (1, 1), 1, f32)           # 1x1: always
    assert gemm_suits((32, 2, 2, 512), (512, 512, 3, 3), (2, 2), same3, (1, 1), 1, f32)         # 1x1 output
    assert gemm_suits((8, 14, 14, 512), (512, 512, 3, 3), (2, 2), ((0, 1),) * 2, (1, 1), 1, f32)  # 7x7, wide
    assert not gemm_suits((8, 56, 56, 64), (64, 64, 3, 3), (1, 1), same3, (1, 1), 1, f32)       # large map
    assert not gemm_suits((8, 28, 28, 128), (128, 128, 3, 3), (1, 1), same3, (1, 1), 1, f32)    # float32
    assert gemm_suits((8, 28, 28, 128), (128, 128, 3, 3), (1, 1), same3, (1, 1), 1, bf16)       # bfloat16
    assert gemm_suits((8, 56, 56, 128), (128, 128, 3, 3), (2, 2), same3, (1, 1), 1, bf16)       # 28x28 output
    assert not gemm_suits((8, 56, 56, 64), (64, 64, 3, 3), (1, 1), same3, (1, 1), 1, bf16)      # large map
    assert not gemm_suits((32, 28, 28, 6), (16, 6, 5, 5), (1, 1), one, (1, 1), 1, bf16)         # few channels
    assert not gemm_suits((32, 32, 32, 1), (6, 1, 5, 5), (1, 1), one, (1, 1), 1, f32)           # LeNet conv1
    assert not gemm_suits((2, 4, 4, 4), (4, 2, 1, 1), (1, 1), one, (1, 1), 2, f32)              # grouped
    assert narrow_suits((16, 6, 5, 5), 1) and not narrow_suits((64, 16, 3, 3), 1)
    assert not narrow_suits((4, 2, 3, 3), 2)
    monkeypatch.setattr(_nn_conv_depthwise, "default_platform", lambda: "cpu")
    assert depthwise_suits((8, 112, 112, 96), (96, 1, 3, 3), 96)                              # MobileNetV2
    assert depthwise_suits((8, 14, 14, 4), (8, 1, 3, 3), 4)                                   # two per channel
    assert not depthwise_suits((8, 14, 14, 4), (4, 2, 3, 3), 2)                               # two per group
    assert not depthwise_suits((8, 14, 14, 1), (4, 1, 3, 3), 1)                               # not grouped
    monkeypatch.setattr(_nn_conv_depthwise, "default_platform", lambda: "gpu")
    assert not depthwise_suits((8, 112, 112, 96), (96, 1, 3, 3), 96)                          # XLA:GPU's
    assert _blockable((32, 32, 32, 1), (6, 1, 5, 5), (1, 1), one, (1, 1))                  # LeNet conv1
    assert _blockable((32, 14, 14, 6), (16, 6, 5, 5), (1, 1), one, (1, 1))                 # LeNet conv2
    assert not _blockable((32, 224, 224, 3), (64, 3, 7, 7), (2, 2), ((3, 3),) * 2, (1, 1))  # strided along W
    assert not _blockable((32, 9, 9, 1), (6, 1, 5, 5), (1, 1), one, (1, 1))                # too narrow
    assert _block((256, 32, 32, 1), (6, 1, 5, 5), (1, 1), one, (1, 1)) == (2, 4)           # 1-2 channels
    assert _block((32, 14, 14, 6), (16, 6, 5, 5), (1, 1), one, (1, 1)) == (2, 2)           # rows and columns
    assert _block((32, 15, 14, 6), (16, 6, 5, 5), (2, 1), one, (1, 1)) == (1, 2)           # strided along H
    assert _block((32, 7, 14, 6), (16, 6, 5, 5), (1, 1), one, (1, 1)) == (1, 2)            # 3 output rows
    assert _block((32, 20, 20, 1), (6, 1, 5, 5), (1, 1), one, (2, 1)) == (1, 4)            # dilated along H


def test_narrow_second_derivative_matches_xla():
    rng = np.random.default_rng(3)
    x, w = jnp.asarray(rng.normal(size=(2, 8, 8, 2))), jnp.asarray(rng.normal(size=(3, 2, 3, 3)))
    args = ((1, 1), ((1, 1), (1, 1)), (1, 1))

    def loss(f):
        return lambda a, b: jnp.sum(jnp.tanh(f(a, b, *args)))

    hvp_ref = jax.grad(lambda a: jnp.sum(jax.grad(loss(_reference), 1)(a, w) ** 2))(x)
    hvp = jax.grad(lambda a: jnp.sum(jax.grad(loss(conv_narrow), 1)(a, w) ** 2))(x)
    np.testing.assert_allclose(hvp, hvp_ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("ci, co", [(1, 6), (6, 16)])  # LeNet's conv1 (blocked products) and conv2 (blocked)
def test_narrow_bfloat16_second_derivative_keeps_every_term(ci, co):
    # A bfloat16 input is blocked as its 16-bit patterns; the blocking's own derivative keeps the term in x of the
    # weight gradient (without it this second derivative came out about half the float32 one).
    rng = np.random.default_rng(4)
    x = jnp.asarray(rng.normal(size=(2, 12, 12, ci)), jnp.bfloat16)
    w = jnp.asarray(rng.normal(size=(co, ci, 5, 5)) * 0.2, jnp.bfloat16)
    args = ((1, 1), ((0, 0), (0, 0)), (1, 1))

    def second(a, b):
        def loss(a, b):
            return jnp.sum(conv_narrow(a, b, *args).astype(jnp.float32) ** 2)
        return jax.grad(lambda a: jnp.sum(jax.grad(loss, 1)(a, b).astype(jnp.float32) ** 2))(a)

    got, want = second(x, w), second(x.astype(jnp.float32), w.astype(jnp.float32))
    np.testing.assert_allclose(np.asarray(got, np.float32), want, rtol=0.05, atol=0.02 * float(jnp.abs(want).max()))


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 2), h=st.integers(3, 9), wd=st.integers(3, 14), ci=st.integers(1, 6), co=st.integers(1, 5),
       kh=st.integers(1, 3), kw=st.integers(1, 5), sh=st.integers(1, 2), dh=st.integers(1, 2),
       pads=st.tuples(*[st.integers(0, 2)] * 4), seed=st.integers(0, 2 ** 16))
def test_narrow_matches_xla_on_random_shapes(n, h, wd, ci, co, kh, kw, sh, dh, pads, seed):
    stride, dilation, pads = (sh, 1), (dh, 1), ((pads[0], pads[1]), (pads[2], pads[3]))
    assume(h + pads[0][0] + pads[0][1] >= dh * (kh - 1) + 1 and wd + pads[1][0] + pads[1][1] >= kw)
    rng = np.random.default_rng(seed)
    x, w = jnp.asarray(rng.normal(size=(n, h, wd, ci))), jnp.asarray(rng.normal(size=(co, ci, kh, kw)))
    ref, vjp_ref = jax.vjp(lambda a, b: _reference(a, b, stride, pads, dilation), x, w)
    got, vjp = jax.vjp(lambda a, b: conv_narrow(a, b, stride, pads, dilation), x, w)
    np.testing.assert_allclose(got, ref, rtol=1e-11, atol=1e-11)
    g = jnp.asarray(rng.normal(size=ref.shape))
    for a, b in zip(vjp(g), vjp_ref(g)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("impl,case", [(conv_gemm, CASES[5]), (conv_narrow, NARROW_CASES[0])])
def test_forms_trace_with_a_symbolic_batch(impl, case):
    # Exported graphs (ms.export) have a symbolic batch size; shape-based choices must not compare it.
    n, h, wd, ci, co, k, stride, pads, dilation = case
    x = jax.ShapeDtypeStruct(jax.export.symbolic_shape(f"b, {h}, {wd}, {ci}"), jnp.float32)
    w = jnp.asarray(np.random.default_rng(0).normal(size=(co, ci) + k), jnp.float32)
    exported = jax.export.export(jax.jit(lambda a: impl(a, w, stride, pads, dilation)))(x)
    a = jnp.asarray(np.random.default_rng(1).normal(size=(3, h, wd, ci)), jnp.float32)
    np.testing.assert_allclose(exported.call(a), _reference(a, w, stride, pads, dilation), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ci, co, k, hw", [(1, 6, 5, 32), (6, 16, 5, 14), (64, 64, 1, 8), (3, 8, 3, 9),
                                           (64, 64, 3, 2)], ids=["narrow-product", "narrow-blocked", "gemm-1x1",
                                                                  "narrow-unblocked", "gemm-small-map"])
def test_an_empty_batch_convolves_in_every_form(ci, co, k, hw):
    x, w = ms.Tensor(np.zeros((0, ci, hw, hw), np.float32)), ms.Tensor(np.ones((co, ci, k, k), np.float32))
    assert ops.conv2d(x, w).shape == (0, co, hw - k + 1, hw - k + 1)
    dx, dw = ms.grad(lambda x, w: ops.conv2d(x, w).sum(), grad_position=(0, 1))(x, w)
    assert dx.shape == x.shape and dw.shape == w.shape and not np.any(dw.asnumpy())
