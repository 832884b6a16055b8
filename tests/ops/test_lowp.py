"""bfloat16 products (``ops/_lowp.py``) and the convolutions and Dense layers that use them.

The truth is the same computation in float32 on the bfloat16-rounded operands (a second implementation: real
MindSpore's CPU build has no bfloat16 convolution). A product of bfloat16 operands accumulated in float32 differs
from it only by the final rounding to bfloat16 (relative 2**-8); the gradients go through one more rounded product.
"""
import re

import jax
import jax.extend.core
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, ops
from mindspore_hl.ops._lowp import cast_weight, product

BF16_RTOL = 2.0 ** -7  # two bfloat16 roundings


def _bf16(a):
    return jnp.asarray(a, jnp.bfloat16)


def _close(got, want, scale):
    np.testing.assert_allclose(np.asarray(got, np.float32), np.asarray(want, np.float32), rtol=0,
                               atol=BF16_RTOL * scale)


def test_product_and_its_gradients_are_bfloat16_products():
    rng = np.random.default_rng(0)
    a, b = _bf16(rng.normal(size=(7, 5))), _bf16(rng.normal(size=(3, 5)))
    weights = jnp.asarray(rng.normal(size=(7, 3)), jnp.float32)

    def loss(a, b):
        return jnp.sum(product(a, b).astype(jnp.float32) * weights)

    value, grads = jax.value_and_grad(loss, argnums=(0, 1))(a, b)
    a32, b32 = a.astype(jnp.float32), b.astype(jnp.float32)
    want, want_grads = jax.value_and_grad(lambda a, b: jnp.sum((a @ b.T) * weights), argnums=(0, 1))(a32, b32)
    assert product(a, b).dtype == jnp.bfloat16 and all(g.dtype == jnp.bfloat16 for g in grads)
    _close(value, want, float(jnp.sum(jnp.abs(a32 @ b32.T) * jnp.abs(weights))))
    for g, w in zip(grads, want_grads):
        _close(g, w, float(jnp.max(jnp.abs(w))) * 2)
    # every product of the forward and both gradients multiplies bfloat16 operands into float32 (which XLA:CPU
    # runs natively; a mixed or bfloat16-out product is converted to float32 first)
    jaxpr = jax.make_jaxpr(jax.value_and_grad(loss, argnums=(0, 1)))(a, b)
    dots = [e for e in _equations(jaxpr.jaxpr) if e.primitive.name == "dot_general"]
    assert len(dots) == 3
    for e in dots:
        assert [v.aval.dtype for v in e.invars] == [jnp.bfloat16] * 2
        assert e.params["preferred_element_type"] == jnp.float32


@pytest.mark.host_cpu
def test_xla_cpu_keeps_every_gradient_product_in_bfloat16():
    """The compiled products take bfloat16 operands, the weight gradient's transposed copy included: XLA:CPU
    converts the operands of a product YNNPACK cannot take (a column-major one) to float32, which once happened
    to every weight gradient."""
    rng = np.random.default_rng(0)
    a, b = _bf16(rng.normal(size=(96, 40))), _bf16(rng.normal(size=(24, 40)))
    grad = jax.jit(jax.grad(lambda a, b: jnp.sum(product(a, b).astype(jnp.float32) ** 2), argnums=(0, 1)))
    hlo = grad.lower(a, b).compile().as_text()
    types = dict(re.findall(r"%(\S+) = (\w+)\[", hlo))
    dots = re.findall(r"= \w+\[[\d,]*\]\S* dot\(%(\S+), %(\S+)\)", hlo)
    assert len(dots) == 3
    assert [(types[x], types[y]) for x, y in dots] == [("bf16", "bf16")] * 3


def _equations(jaxpr):
    for e in jaxpr.eqns:
        yield e
        for sub in jax.extend.core.jaxprs_in_params(e.params):
            yield from _equations(sub)


def test_other_dtypes_keep_their_product():
    a = jnp.ones((2, 3), jnp.float32)
    assert product(a, a).dtype == jnp.float32
    np.testing.assert_array_equal(product(a, a), np.full((2, 2), 3.0, np.float32))


@pytest.mark.parametrize("kernel,shape", [(1, (2, 16, 5, 5)), (3, (2, 32, 4, 4))])
def test_bfloat16_conv2d_and_its_gradients_match_float32(kernel, shape):
    """1x1 and 3x3 convolutions of bfloat16 inputs (the product forms) against float32 on the same values."""
    rng = np.random.default_rng(1)
    x = _bf16(rng.normal(size=shape)).astype(jnp.float32)
    w = _bf16(rng.normal(size=(8, shape[1], kernel, kernel)) * 0.2).astype(jnp.float32)

    def f(dtype):
        def run(x, w):
            y = ops.conv2d(ms.Tensor(x.astype(dtype)), ms.Tensor(w.astype(dtype)), pad_mode="same")
            return jnp.sum(jnp.sin(y._value.astype(jnp.float32)))
        return jax.value_and_grad(run, argnums=(0, 1))

    (v16, g16), (v32, g32) = f(jnp.bfloat16)(x, w), f(jnp.float32)(x, w)
    _close(v16, v32, float(np.prod(shape)))
    for g, want in zip(g16, g32):
        _close(g, want, float(jnp.max(jnp.abs(want))) * 4)


def test_dense_in_bfloat16_under_auto_mixed_precision():
    net = ms.amp.auto_mixed_precision(nn.Dense(6, 4), "O3", dtype=ms.bfloat16)
    x = np.random.default_rng(2).normal(size=(3, 2, 6)).astype(np.float32)
    out = net(ms.Tensor(x))
    assert out.dtype == ms.float32 and out.shape == (3, 2, 4)
    dense = net._backbone
    w, b = dense.weight.asnumpy(), dense.bias.asnumpy()
    want = _bf16(x).astype(np.float32) @ np.asarray(_bf16(w), np.float32).T + np.asarray(_bf16(b), np.float32)
    _close(out.asnumpy(), want, float(np.abs(want).max()) * 2)


def test_weight_cast_rounds_on_the_bits_exactly_as_astype():
    # The truth is XLA's own conversion, on random bit patterns (every NaN payload, subnormals, ties) and the
    # special values; NaNs come out as XLA's quiet NaN with the sign kept.
    rng = np.random.default_rng(0)
    special = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF812345, 0x7FFFFFFF, 0x7F800000, 0xFF800000, 0,
                        0x80000000, 1, 0x807FFFFF, 0x7F7FFFFF, 0x7F7F8000, 0x3F808000, 0x3F818000], np.uint32)
    bits = np.concatenate([special, rng.integers(0, 2 ** 32, 1 << 20, dtype=np.uint64).astype(np.uint32)])
    x = jnp.asarray(bits.view(np.float32))
    want = jax.lax.bitcast_convert_type(x.astype(jnp.bfloat16), jnp.uint16)
    got = jax.lax.bitcast_convert_type(jax.jit(cast_weight, static_argnums=1)(x, jnp.bfloat16), jnp.uint16)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    # On the CPU the cast works on the bits; a GPU converts natively (astype), so there the values alone are checked
    jaxpr = str(jax.make_jaxpr(cast_weight, static_argnums=1)(x, jnp.bfloat16))
    assert ("bitcast_convert_type" in jaxpr) == (jax.default_backend() == "cpu")


def test_weight_cast_has_every_derivative_of_astype():
    w = jnp.asarray(np.random.default_rng(1).normal(size=(4, 3)), jnp.float32)

    def f(cast, w):
        return jnp.sum(jnp.sin(cast(w, jnp.bfloat16).astype(jnp.float32) * w))

    def astype(w, dtype):
        return w.astype(dtype)

    for order in (jax.grad, lambda g: jax.jacfwd(jax.grad(g))):
        np.testing.assert_array_equal(order(lambda v: f(cast_weight, v))(w), order(lambda v: f(astype, v))(w))


def test_float32_product_has_every_derivative_of_a_plain_product():
    # The float32 rule only rearranges where the weight gradient's transpose happens: every mode and order of
    # derivative equals the plain product's (to float32 rounding: the weight gradient sums in another order).
    rng = np.random.default_rng(3)
    a, b = (jnp.asarray(rng.normal(size=s), jnp.float32) for s in ((7, 5), (3, 5)))

    def f(prod):
        return lambda a, b: jnp.sum(jnp.tanh(prod(a, b)))

    def plain(a, b):
        return jax.lax.dot_general(a, b, (((1,), (1,)), ((), ())))

    for derivative in (jax.grad, jax.hessian, jax.jacfwd):
        got, want = derivative(f(product), (0, 1))(a, b), derivative(f(plain), (0, 1))(a, b)
        for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_float32_weight_gradient_is_a_product_of_row_major_operands():
    # Reverse mode multiplies a transposed copy of the cotangent (contracting its last axis), which YNNPACK takes;
    # autodiff of a plain product contracts the leading axes of both operands instead (Eigen, on XLA:CPU).
    if jax.default_backend() != "cpu":
        pytest.skip("the float32 rule is for XLA:CPU")
    rng = np.random.default_rng(4)
    a, b = (jnp.asarray(rng.normal(size=s), jnp.float32) for s in ((64, 32), (16, 32)))
    hlo = jax.jit(jax.grad(lambda b: jnp.sum(jnp.tanh(product(a, b))))).lower(b).compile().as_text()
    contractions = re.findall(r"lhs_contracting_dims=\{(\d)\}", hlo)
    assert contractions and "0" not in contractions
