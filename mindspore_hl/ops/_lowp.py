"""Matrix products whose gradients stay fast products on the CPU: bfloat16 operands, float32 weight gradients.

XLA:CPU multiplies two bfloat16 matrices natively (YNNPACK, AVX512-BF16) only when the product is asked for in
float32; a bfloat16-in, bfloat16-out ``dot`` is rewritten into float32 converts around a float32 product, at float32
speed. Autodiff of ``dot(a, b, preferred_element_type=float32).astype(bfloat16)`` has the same problem one level
down: the cotangent reaching the product is float32, so both gradient products mix float32 and bfloat16 and run in
float32 again. :func:`product` states all three products (forward, input gradient, weight gradient) as
bfloat16 x bfloat16 -> float32, rounded to bfloat16 like the operands, which is how mixed precision (``amp`` O2/O3
with ``dtype=bfloat16``) gets bfloat16 arithmetic on CPU. Other dtypes take ``lax.dot_general`` unchanged.

The rule is a ``custom_vjp``, so forward-mode differentiation (``ops.jvp``) of a bfloat16 product is not available;
reverse mode and ``vmap`` are. A float32 product on the CPU states its tangent instead (a ``custom_jvp``, every
mode and order of derivative), written so that reverse mode's weight gradient is a product YNNPACK takes.
:func:`cast_weight` rounds a float32 weight to bfloat16 for these products.
"""
import functools
from typing import Callable

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_derivatives import SymbolicZero

from ..common._device_arrays import default_platform
from ._materialize import materialized

__all__ = ["cast_weight", "mapped_product", "product"]

_2D = (((1,), (1,)), ((), ()))  # (M, K) x (N, K) -> (M, N)


def product(a: jax.Array, b: jax.Array, precision: lax.Precision | None = None, *, linear: bool = False) -> jax.Array:
    """``a @ b.T`` for 2-D ``a`` (M, K) and ``b`` (N, K): in bfloat16 with float32 accumulation when both are
    bfloat16, else ``lax.dot_general`` in the operands' dtype (at ``precision``; None: matrix products' setting).

    ``linear``: the product is part of a ``custom_jvp`` rule's tangent, which JAX transposes for reverse mode and
    cannot transpose through the bfloat16 rule's ``custom_vjp``. Bfloat16 operands then take the same
    float32-accumulated product, rounded to bfloat16, without the rule (its gradient products run in float32).
    Float32 operands on the CPU take ``_f32_product``, whose weight gradient multiplies a transposed copy of the
    cotangent; ``linear`` ones a plain ``dot_general``.

    >>> import jax.numpy as jnp
    >>> product(jnp.ones((2, 3), jnp.bfloat16), jnp.ones((4, 3), jnp.bfloat16)).dtype
    dtype(bfloat16)
    """
    if a.dtype == jnp.bfloat16 and b.dtype == jnp.bfloat16:
        return _rounded_dot(a, b, _2D) if linear else mapped_product(a, b, _same, _same)
    if a.dtype == jnp.float32 and b.dtype == jnp.float32 and not linear and default_platform() == "cpu":
        return _f32_product(a, b, precision)
    return lax.dot_general(a, b, _2D, precision=precision)


def mapped_product(x: jax.Array, b: jax.Array, cut: Callable[[jax.Array], jax.Array],
                   cut_bits: Callable[[jax.Array], jax.Array]) -> jax.Array:
    """``product(cut(x), b)`` of bfloat16 ``x`` and ``b``, where ``cut`` is a linear map of ``x`` to 2-D rows (a
    convolution's patches) and ``cut_bits`` computes the same rows by moving ``x``'s 16-bit patterns.

    The input gradient applies ``cut``'s transpose to the float32 product ``g @ b`` and rounds once: through
    ``product``'s rule the product was rounded to bfloat16 first, and XLA:CPU converted it back to float32 in every
    tap of the transposed patches (a col2im), scalar code inside the loop (ResNet50 224x224 bfloat16 on one core:
    843 -> 817 ms per step). ``cut_bits`` must state its derivative (a ``custom_jvp``) for higher derivatives
    to keep their terms: this rule's forward saves its rows for the weight gradient. ``product`` of two bfloat16
    matrices is this rule with the identity for both maps.
    """
    return _mapped_product(x, b, cut, cut_bits, x.shape)


def _dot(a, b, dims):
    return lax.dot_general(a, b, dims, preferred_element_type=jnp.float32)


def _rounded_dot(a, b, dims):
    return _dot(a, b, dims).astype(jnp.bfloat16)


def _same(a):
    return a


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4))
def _mapped_product(x, b, cut, cut_bits, x_shape):
    return _rounded_dot(cut_bits(x), b, _2D)


def _mapped_product_fwd(x, b, cut, cut_bits, x_shape):
    a = cut_bits(x)
    return _rounded_dot(a, b, _2D), (a, b)


def _mapped_product_bwd(cut, cut_bits, x_shape, residuals, g):
    a, b = residuals
    g = g.astype(jnp.bfloat16)
    (dx,) = jax.linear_transpose(cut, jax.ShapeDtypeStruct(x_shape, jnp.float32))(
        _dot(g, b, (((1,), (0,)), ((), ()))))  # (M, N) x (N, K), summed back through cut in float32
    return dx.astype(jnp.bfloat16), _weight_gradient(g, a)


def _weight_gradient(g, a):
    """``g.T @ a``, (N, M) x (M, K), on a transposed copy of ``g``.

    The barrier keeps XLA from folding a plain transpose back into a product contracting the operands' first
    axes, which YNNPACK does not take (ResNet50 224x224 bfloat16 step 1.71 s this way, 1.77 s folded).
    """
    gt = g.T
    if default_platform() == "cpu":
        # A transposed array keeps its column-major layout through the barrier, YNNPACK takes no column-major
        # operand either, and XLA:CPU then converted both operands to float32 before multiplying; reshaped
        # inside the barrier the copy is row-major (ResNet50 224x224 bfloat16 step 1.18 -> 1.07 s). On a GPU
        # the reshaped copy was slower (bfloat16 ResNet50 at batch 256: 58 ms per step against 51-55).
        gt = gt.reshape((1,) + gt.shape)
    gt = lax.optimization_barrier(gt).reshape(g.shape[::-1])
    return _rounded_dot(gt, a, (((1,), (0,)), ((), ())))


_mapped_product.defvjp(_mapped_product_fwd, _mapped_product_bwd)


def cast_weight(w: jax.Array, dtype: jnp.dtype | type) -> jax.Array:
    """``w.astype(dtype)``, with float32 -> bfloat16 rounded on the bits on the CPU (bit-identical to ``astype``).

    XLA:CPU emits its float32 -> bfloat16 conversion as scalar code when the conversion is fused with the
    reshape a convolution's weight takes next: a 512x512x3x3 weight took 5.05 ms on one core that way and 0.17 ms
    rounded to nearest-even on the integer bits. The bits form has a stated derivative (the tangent cast plainly),
    so every order of derivative keeps its terms.

    >>> import jax.numpy as jnp
    >>> cast_weight(jnp.array([1.00390625, 1.01171875], jnp.float32), jnp.bfloat16).tolist()  # ties to even
    [1.0, 1.015625]
    """
    if w.dtype == jnp.float32 and jnp.dtype(dtype) == jnp.bfloat16 and default_platform() == "cpu":
        return _bf16_from_bits(w)
    return w.astype(dtype)


@jax.custom_jvp
def _bf16_from_bits(x):
    bits = lax.bitcast_convert_type(x, jnp.uint32)
    rounded = (bits + (jnp.uint32(0x7FFF) + ((bits >> 16) & 1))) >> 16
    quiet_nan = ((bits >> 16) & jnp.uint32(0x8000)) | jnp.uint32(0x7FC0)  # XLA's: the sign and a quiet NaN
    out = jnp.where(jnp.isnan(x), quiet_nan, rounded).astype(jnp.uint16)
    return lax.bitcast_convert_type(out, jnp.bfloat16)


@_bf16_from_bits.defjvp
def _bf16_from_bits_jvp(primals, tangents):
    return _bf16_from_bits(primals[0]), tangents[0].astype(jnp.bfloat16)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _f32_product(a, b, precision):
    return lax.dot_general(a, b, _2D, precision=precision)


def _f32_product_jvp(precision, primals, tangents):
    """The tangent ``ta @ b.T + a @ tb.T``, the second term written so that its transpose, the weight gradient
    ``g.T @ a``, multiplies a row-major copy of ``g.T``.

    Autodiff of a plain product contracts the positions, the leading axis of both ``g`` and ``a``; YNNPACK takes no
    such product, so XLA:CPU ran every weight gradient on Eigen at 60-110 GFLOP/s. Here the term is a product of
    ``tb`` and ``a`` transposed afterwards: reversed, ``g`` is transposed first, and the barrier keeps XLA from
    folding that transpose back into the product. Copying alone was slower (ResNet50 224x224 1.60 vs 1.34 s per
    step): XLA fused ``g``'s producers (BatchNorm's backward) into the transposing loop, so ``g`` is first computed
    into a buffer of its own (``materialized``). ResNet50 224x224 float32, two cores: 654 -> 638 ms per step
    (one core 1205 -> 1178 ms).
    """
    a, b = primals
    ta, tb = tangents
    y = _f32_product(a, b, precision)
    terms = []
    if not isinstance(ta, SymbolicZero):
        terms.append(lax.dot_general(ta, b, _2D, precision=precision))
    if not isinstance(tb, SymbolicZero):
        u = lax.dot_general(tb, a, _2D, precision=precision)  # (N, M): the transposed term
        u = lax.optimization_barrier(u.reshape((1,) + u.shape)).reshape(u.shape)
        terms.append(materialized(u.T, a))
    if not terms:
        return y, SymbolicZero(jax.typeof(y).to_tangent_aval())
    return y, functools.reduce(lax.add, terms)


_f32_product.defjvp(_f32_product_jvp, symbolic_zeros=True)
