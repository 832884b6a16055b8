"""Decompositions, solvers and norms (``ops.svd``, ``ops.qr``, ``ops.cholesky``, ``ops.pinv``, ``ops.lstsq`` ...).

As MindSpore 2.10 defines them: ``svd`` returns ``(s, u, v)`` (``v``, not its adjoint), LU pivots are 1-based
row swaps (LAPACK's, Int32), decompositions accept Float32/Float64/Complex and reject integer inputs.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["svd", "cholesky", "cholesky_inverse", "cholesky_solve", "pinv", "vector_norm", "matrix_norm",
           "qr", "eig", "eigvals", "slogdet", "log_matrix_determinant", "logdet", "matrix_determinant",
           "matrix_power", "matrix_exp", "lstsq", "matrix_solve", "lu_solve", "lu_unpack", "geqrf", "orgqr", "ormqr",
           "adjoint", "matrix_band_part"]

_FLOATS = (jnp.float32, jnp.float64, jnp.complex64, jnp.complex128)


def _square(name, x, floats=True):
    check(jnp.ndim(x) >= 2 and jnp.shape(x)[-1] == jnp.shape(x)[-2], name,
          f"the input must be a (batch of) square matrices, but got shape {list(jnp.shape(x))}.")
    if floats:
        _floating(name, x)


def _matrix(name, x):
    check(jnp.ndim(x) >= 2, name, f"the input must have at least 2 dimensions, but got shape {list(jnp.shape(x))}.")
    _floating(name, x)


def _floating(name, x):
    check(x.dtype in _FLOATS, name, f"the dtype of the input must be in (float32, float64, complex64, complex128), "
          f"but got {x.dtype}.", TypeError)


def _mT(x):
    return jnp.conj(jnp.swapaxes(x, -1, -2))


@op("svd")
def svd(input: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> Tensor | tuple[Tensor, Tensor, Tensor]:
    """Singular values ``s`` (descending), and with ``compute_uv`` the tuple ``(s, u, v)``: input = u diag(s) v^H."""
    _matrix("svd", input)
    if not compute_uv:
        return jnp.linalg.svd(input, compute_uv=False)
    u, s, vh = jnp.linalg.svd(input, full_matrices=full_matrices)
    return s, u, _mT(vh)


@op("cholesky")
def cholesky(input_x: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite matrix (lower, or upper with ``upper=True``)."""
    _square("cholesky", input_x)
    low = jnp.linalg.cholesky(input_x)
    return _mT(low) if upper else low


@op("cholesky_inverse")
def cholesky_inverse(input_x: Tensor, upper: bool = False) -> Tensor:
    """The inverse of A from its Cholesky factor ``input_x`` (A = L L^H, or U^H U with ``upper=True``)."""
    _square("cholesky_inverse", input_x)
    eye = jnp.broadcast_to(jnp.eye(input_x.shape[-1], dtype=input_x.dtype), input_x.shape)
    return jsl.cho_solve((input_x, not upper), eye)


@op("cholesky_solve")
def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """Solve A X = ``input`` given the Cholesky factor ``input2`` of A."""
    _square("cholesky_solve", input2)
    return jsl.cho_solve((input2, not upper), input)


@op("pinv")
def pinv(x: Tensor, *, atol: float | None = None, rtol: float | None = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse (singular values below max(atol, rtol * s_max) are dropped)."""
    _matrix("pinv", x)
    u, s, vh = jnp.linalg.svd(x, full_matrices=False, hermitian=hermitian)
    if hermitian:
        s = jnp.abs(s)
    smax = jnp.max(s, axis=-1, keepdims=True, initial=0.0)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else max(x.shape[-2:]) * jnp.finfo(x.dtype).eps
    cut = jnp.maximum(0.0 if atol is None else atol, rtol * smax)
    sinv = jnp.where(s > cut, 1.0 / jnp.where(s > cut, s, 1.0), 0.0).astype(s.dtype)
    return jnp.matmul(_mT(vh) * sinv[..., None, :], _mT(u))


def _norm_float(x, dtype):
    if dtype is not None:
        x = x.astype(dtype)
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


@op("vector_norm")
def vector_norm(x: Tensor, ord: float = 2, axis: int | tuple[int, ...] | None = None,
                keepdims: bool = False, *, dtype: mstype.Type | None = None) -> Tensor:
    """The ``ord``-norm over ``axis`` (all elements when None); ord may be 0, +-inf or any float."""
    v = jnp.abs(_norm_float(x, dtype))
    if axis is None:
        axis = tuple(range(v.ndim))
    elif isinstance(axis, int):
        axis = (axis,)
    axis = tuple(axis)
    if ord == float("inf"):
        return jnp.max(v, axis, keepdims=keepdims)
    if ord == float("-inf"):
        return jnp.min(v, axis, keepdims=keepdims)
    if ord == 0:
        return jnp.sum(v != 0, axis, keepdims=keepdims).astype(v.dtype)
    if ord == 1:
        return jnp.sum(v, axis, keepdims=keepdims)
    if ord == 2:
        return jnp.sqrt(jnp.sum(v * v, axis, keepdims=keepdims))
    return jnp.sum(v ** ord, axis, keepdims=keepdims) ** (1.0 / ord)


@op("matrix_norm")
def matrix_norm(A: Tensor, ord: int | str = "fro", axis: tuple[int, int] = (-2, -1),
                keepdims: bool = False, *, dtype: mstype.Type | None = None) -> Tensor:
    """Frobenius, nuclear, +-1, +-2 or +-inf norm of the matrices spanned by ``axis``."""
    x = _norm_float(A, dtype)
    check(ord in ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")), "matrix_norm",
          f"ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but got {ord!r}.")
    check(x.ndim >= 2, "matrix_norm", f"the input must have at least 2 dimensions, but got shape {list(x.shape)}.")
    axes = tuple(a % x.ndim for a in axis)
    out = jnp.linalg.matrix_norm(jnp.moveaxis(x, axes, (-2, -1)), ord=ord)
    return jnp.expand_dims(out, tuple(sorted(axes))) if keepdims else out


@op("qr")
def qr(input: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    """(Q, R) with input = Q R; ``mode`` 'reduced' or 'complete'."""
    check(mode in ("reduced", "complete"), "qr", f"the arg mode must be 'reduced' or 'complete', but got {mode}.",
          TypeError)
    _matrix("qr", input)
    return jnp.linalg.qr(input, mode=mode)


def _complex(x):
    return x.astype(jnp.complex128 if x.dtype in (jnp.float64, jnp.complex128) else jnp.complex64)


@op("eig")
def eig(A: Tensor) -> tuple[Tensor, Tensor]:
    """(eigenvalues, eigenvectors) of a square (batch of) matrices, both complex."""
    _square("eig", A)
    w, v = jnp.linalg.eig(A)
    return _complex(w), _complex(v)


@op("eigvals")
def eigvals(A: Tensor) -> Tensor:
    """The (complex) eigenvalues of a square (batch of) matrices."""
    _square("eigvals", A)
    return _complex(jnp.linalg.eigvals(A))


@op("slogdet")
def slogdet(input: Tensor) -> tuple[Tensor, Tensor]:
    """(sign, log|det|) of a square (batch of) matrices."""
    _square("slogdet", input)
    sign, logabs = jnp.linalg.slogdet(input)
    return sign.astype(input.dtype), logabs.astype(input.real.dtype if hasattr(input, "real") else input.dtype)


@op("log_matrix_determinant")
def log_matrix_determinant(input: Tensor) -> Tensor:
    """(sign, log|det|): the older name of ``slogdet``."""
    return slogdet._array_fn(input)  # type: ignore[attr-defined]  # set by @op


@op("logdet")
def logdet(input: Tensor) -> Tensor:
    """log(det(input)); NaN where the determinant is negative."""
    _square("logdet", input)
    sign, logabs = jnp.linalg.slogdet(input)
    return jnp.where(sign < 0, jnp.nan, logabs).astype(input.dtype)


@op("matrix_determinant")
def matrix_determinant(input: Tensor) -> Tensor:
    """The determinant of a square (batch of) matrices."""
    _square("matrix_determinant", input)
    return jnp.linalg.det(input)


@op("matrix_power")
def matrix_power(input: Tensor, n: int) -> Tensor:
    """The integer power ``n`` of a square matrix (negative ``n`` inverts first)."""
    _square("matrix_power", input, floats=False)
    check(isinstance(n, int), "matrix_power", f"n must be an int, but got {type(n).__name__}.", TypeError)
    return jnp.linalg.matrix_power(input, n)


@op("matrix_exp")
def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential of a square (batch of) matrices."""
    _square("matrix_exp", input)
    return jsl.expm(input)


@op("lstsq")
def lstsq(input: Tensor, A: Tensor) -> Tensor:
    """The least-squares solution X of ``input @ X = A`` (``input`` m x n of full rank, ``A`` m x k)."""
    _matrix("lstsq", input)
    return jnp.linalg.lstsq(input, A)[0]


@op("matrix_solve")
def matrix_solve(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """Solve ``matrix @ X = rhs`` (or ``matrix^H @ X = rhs`` with ``adjoint``)."""
    _square("matrix_solve", matrix)
    return jnp.linalg.solve(_mT(matrix) if adjoint else matrix, rhs)


def _perm_from_pivots(pivots, n):
    """Row permutation (as indices) from 1-based LAPACK pivots (row i swapped with pivots[i] - 1)."""
    perm = jnp.broadcast_to(jnp.arange(n), pivots.shape[:-1] + (n,))

    def swap(i, p):
        j = pivots[..., i].astype(jnp.int32) - 1
        a = jnp.take_along_axis(p, jnp.full(p.shape[:-1] + (1,), i), -1)
        b = jnp.take_along_axis(p, j[..., None], -1)
        p = jnp.put_along_axis(p, jnp.full(p.shape[:-1] + (1,), i), b, -1, inplace=False)
        return jnp.put_along_axis(p, j[..., None], a, -1, inplace=False)
    return jax.lax.fori_loop(0, pivots.shape[-1], swap, perm)


@op("lu_unpack")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """(P, L, U) from a packed LU factorisation and its 1-based pivots: A = P @ L @ U."""
    _matrix("lu_unpack", LU_data)
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    lower = jnp.tril(LU_data[..., :, :k], -1) + jnp.eye(m, k, dtype=LU_data.dtype)
    upper = jnp.triu(LU_data[..., :k, :])
    perm = _perm_from_pivots(LU_pivots, m)
    p = jax.nn.one_hot(perm, m, dtype=LU_data.dtype)     # p[i, perm[i]] = 1 -> A = P^T L U
    # (MindSpore returns None for the parts not asked for)
    return _mT(p) if unpack_pivots else None, lower if unpack_data else None, upper if unpack_data else None


@op("lu_solve")
def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """Solve A X = b from A's packed LU factorisation and 1-based pivots."""
    _square("lu_solve", LU_data)
    check(jnp.ndim(b) >= 2 and b.shape[-2] == LU_data.shape[-1], "lu_solve", f"'b' must have {LU_data.shape[-1]} "
          f"rows (LU_data is {LU_data.shape[-1]} x {LU_data.shape[-1]}), but got shape {list(jnp.shape(b))}.")
    perm = _perm_from_pivots(LU_pivots, LU_data.shape[-1])
    return _lu_solve_perm(LU_data, perm, b)


def _lu_solve_perm(lu, perm, b):
    pb = jnp.take_along_axis(b, jnp.broadcast_to(perm[..., None], perm.shape + (b.shape[-1],)), -2)
    y = jsl.solve_triangular(lu, pb, lower=True, unit_diagonal=True)
    return jsl.solve_triangular(lu, y, lower=False)


@op("adjoint")
def adjoint(x: Tensor) -> Tensor:
    """The conjugate transpose of the last two dimensions."""
    return _mT(x)


@op("matrix_band_part")
def matrix_band_part(x: Tensor, lower: int | Tensor, upper: int | Tensor) -> Tensor:
    """Zero everything outside the band of ``lower`` sub- and ``upper`` super-diagonals (negative: keep all)."""
    m, n = x.shape[-2:]
    i = jnp.arange(m)[:, None]
    j = jnp.arange(n)[None, :]
    keep = jnp.ones((m, n), bool)
    if lower >= 0:
        keep &= i - j <= lower
    if upper >= 0:
        keep &= j - i <= upper
    return jnp.where(keep, x, jnp.zeros_like(x))


@op("triangular_solve")
def triangular_solve(b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """(X, A) solving A X = b (or A^T X = b) for triangular A (``mint.triangular_solve``)."""
    _square("triangular_solve", A)
    x = jsl.solve_triangular(A, b, trans=1 if transpose else 0, lower=not upper, unit_diagonal=unitriangular)
    return x, A


@op("geqrf")
def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:
    """LAPACK's geqrf: (R with the Householder vectors below its diagonal, the factors tau)."""
    _matrix("geqrf", input)
    return _geqrf(input)


@jax.jit
def _geqrf(a):
    m, n = a.shape[-2:]
    taus = []
    for k in range(min(m, n)):             # one Householder reflection per column (static shapes: unrolled)
        x = a[..., k:, k]
        alpha = x[..., 0]
        tail = jnp.sum(jnp.abs(x[..., 1:]) ** 2, -1)
        norm = jnp.sqrt(jnp.abs(alpha) ** 2 + tail)
        sign = jnp.where(jnp.real(alpha) >= 0, 1.0, -1.0).astype(a.dtype)
        beta = -sign * norm
        trivial = tail == 0
        safe_beta = jnp.where(trivial, 1.0, beta)
        tau = jnp.where(trivial, 0.0, (beta - alpha) / safe_beta).astype(a.dtype)
        v = x / jnp.where(trivial, 1.0, alpha - beta)[..., None]
        v = v.at[..., 0].set(1.0)
        rest = a[..., k:, k:]
        w = jnp.einsum("...i,...ij->...j", jnp.conj(v), rest)
        rest = rest - tau[..., None, None] * v[..., :, None] * w[..., None, :]
        col = jnp.concatenate([jnp.where(trivial, alpha, beta)[..., None], v[..., 1:]], -1)
        rest = rest.at[..., :, 0].set(jnp.where(trivial[..., None], x, col))
        a = a.at[..., k:, k:].set(rest)
        taus.append(tau)
    return a, jnp.stack(taus, -1)


@op("orgqr")
def orgqr(input: Tensor, input2: Tensor) -> Tensor:
    """The explicit Q (m x n) from geqrf's Householder vectors ``input`` and factors ``input2``."""
    _matrix("orgqr", input)
    return jax.lax.linalg.householder_product(input, input2)


@op("ormqr")
def ormqr(input: Tensor, tau: Tensor, other: Tensor | float, left: bool = True, transpose: bool = False) -> Tensor:
    """``other`` multiplied by the Q that geqrf's ``input`` and ``tau`` describe (Q @ other, or other @ Q)."""
    _matrix("ormqr", input)
    return jax.lax.linalg.ormqr(input, tau, other, left=left, transpose=transpose)
