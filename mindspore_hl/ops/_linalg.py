"""Matrix products and linear algebra (``ops.matmul``, ``ops.bmm``, ``ops.tensor_dot``, ``ops.norm`` ...)."""

from __future__ import annotations

import jax.numpy as jnp

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import OpError, OpTypeError, check, op

__all__ = ["matmul", "mm", "bmm", "batch_matmul", "dot", "inner", "outer", "ger", "tensor_dot", "tensordot",
           "einsum", "norm", "inverse", "matrix_inverse", "det", "trace", "cosine_similarity", "l2_normalize",
           "cdist", "kron", "baddbmm", "addmm"]


def check_matmul(name: str, a: Tensor, b: Tensor) -> None:
    """Validate the operands of a matrix product (also used by ``Tensor.__matmul__``)."""
    sa, sb = jnp.shape(a), jnp.shape(b)
    if not sa or not sb:
        raise OpError(f"For '{name}', the inputs must have at least 1 dimension, but got shapes {list(sa)} and "
                      f"{list(sb)}.")
    if sa[-1] != (sb[0] if len(sb) == 1 else sb[-2]):
        raise OpError(f"For '{name}', the last dimension of the first input must equal the contracted dimension of "
                      f"the second (shape1[-1] == shape2[-2]), but got shapes {list(sa)} and {list(sb)}.")
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da == jnp.bool_ or db == jnp.bool_:
        raise OpTypeError(f"For '{name}', Bool tensors are not supported, but got dtypes {da} and {db}.")


@op("matmul")
def matmul(input: Tensor, other: Tensor | float) -> Tensor:
    """Matrix product with NumPy semantics (1-D operands, batch broadcasting)."""
    check_matmul("matmul", input, other)
    return jnp.matmul(input, other)


@op("mm")
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Product of two 2-D matrices."""
    check(jnp.ndim(input) == 2 and jnp.ndim(mat2) == 2, "mm",
          f"both inputs must be 2-D, but got shapes {list(jnp.shape(input))} and {list(jnp.shape(mat2))}.")
    check_matmul("mm", input, mat2)
    return jnp.matmul(input, mat2)


@op("bmm")
def bmm(input_x: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product of 3-D (or higher, batch-broadcast) tensors."""
    check(jnp.ndim(input_x) >= 3 and jnp.ndim(mat2) >= 3, "bmm",
          f"both inputs must have at least 3 dimensions, but got shapes {list(jnp.shape(input_x))} and "
          f"{list(jnp.shape(mat2))}.")
    check_matmul("bmm", input_x, mat2)
    return jnp.matmul(input_x, mat2)


@op("batch_matmul")
def batch_matmul(x: Tensor, y: Tensor | float, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """Batched matrix product, optionally transposing the last two axes of either operand."""
    if transpose_a:
        x = jnp.swapaxes(x, -1, -2)  # type: ignore[assignment]  # @op body: a jax.Array here
    if transpose_b:
        y = jnp.swapaxes(y, -1, -2)  # type: ignore[assignment]  # @op body: a jax.Array here
    check_matmul("batch_matmul", x, y)
    return jnp.matmul(x, y)


@op("dot")
def dot(input: Tensor, other: Tensor | float) -> Tensor:
    """Dot product over the last axis of ``input`` and the second-to-last of ``other`` (like np.dot)."""
    return jnp.dot(input, other)


@op("inner")
def inner(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.inner(input, other)


@op("outer")
def outer(input: Tensor, vec2: Tensor) -> Tensor:
    return jnp.outer(input, vec2)


ger = outer


@op("tensor_dot")
def tensor_dot(x1: Tensor, x2: Tensor, axes: int | tuple[int, ...]) -> Tensor:
    """Sum of products over the given axes (int, or a pair of axis lists), like np.tensordot."""
    return jnp.tensordot(x1, x2, axes)


tensordot = tensor_dot


@op("einsum")
def einsum(equation: str, *operands: Tensor) -> Tensor:
    """Einstein summation, e.g. ``ops.einsum('ij,jk->ik', a, b)``."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return jnp.einsum(equation, *operands)


@op("norm")
def norm(A: Tensor, ord: int | float | str | None = None, dim: int | tuple[int, ...] | None = None,
         keepdim: bool = False, *, dtype: mstype.Type | None = None) -> Tensor:
    """Vector or matrix norm (``ord`` as in ``numpy.linalg.norm``)."""
    x = A if dtype is None else A.astype(dtype)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.float32)
    if isinstance(dim, list):
        dim = tuple(dim)
    return jnp.linalg.norm(x, ord, dim, keepdims=keepdim)


@op("inverse")
def inverse(input: Tensor) -> Tensor:
    check(jnp.ndim(input) >= 2 and jnp.shape(input)[-1] == jnp.shape(input)[-2], "inverse",
          f"the input must be a square matrix (batch), but got shape {list(jnp.shape(input))}.")
    return jnp.linalg.inv(input)


matrix_inverse = inverse


@op("det")
def det(input: Tensor) -> Tensor:
    return jnp.linalg.det(input)


@op("trace")
def trace(input: Tensor) -> Tensor:
    check(jnp.ndim(input) == 2, "trace", f"the input must be 2-D, but got shape {list(jnp.shape(input))}.")
    return jnp.trace(input)


@op("cosine_similarity")
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim``."""
    n1 = jnp.sqrt(jnp.sum(x1 * x1, dim))
    n2 = jnp.sqrt(jnp.sum(x2 * x2, dim))
    return jnp.sum(x1 * x2, dim) / jnp.maximum(n1 * n2, eps)


@op("l2_normalize")
def l2_normalize(x: Tensor, axis: int | tuple[int, ...] = 0, epsilon: float = 1e-4) -> Tensor:
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    return x / jnp.sqrt(jnp.maximum(jnp.sum(x * x, axis, keepdims=True), epsilon))


@op("cdist")
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0) -> Tensor:
    """Batched p-norm distances between the rows of ``x1`` and ``x2``."""
    diff = jnp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == float("inf"):
        return jnp.max(diff, -1)
    return jnp.sum(diff ** p, -1) ** (1.0 / p)


@op("kron")
def kron(input: Tensor, other: Tensor | float) -> Tensor:
    return jnp.kron(input, other)


@op("baddbmm")
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: Tensor | float = 1,
            alpha: Tensor | float = 1) -> Tensor:
    """beta * input + alpha * (batch1 @ batch2)."""
    return beta * input + alpha * jnp.matmul(batch1, batch2)  # type: ignore[operator]  # @op body: jax Arrays


@op("addmm")
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Tensor | float = 1, alpha: Tensor | float = 1) -> Tensor:
    """beta * input + alpha * (mat1 @ mat2)."""
    return beta * input + alpha * jnp.matmul(mat1, mat2)  # type: ignore[operator]  # @op body: jax Arrays
