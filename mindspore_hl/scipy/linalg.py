"""``mindspore.scipy.linalg``: SciPy's dense linear algebra over Tensors, as MindSpore 2.10 returns it.

Operations MindSpore's ``ops`` has (Cholesky, determinant, triangular solve, LU solve) call that op; the
SciPy-only forms (``eigh``, ``lu``, ``lu_factor``, ``block_diag``) compute on the arrays here. Integer inputs to
``inv`` compute in Float64 (as MindSpore does).

>>> import numpy as np, mindspore_hl as ms
>>> from mindspore_hl.scipy import linalg
>>> linalg.det(ms.Tensor(np.eye(2, dtype=np.float32) * 2)).asnumpy().item()
4.0
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp
import jax.scipy.linalg as jsl

from .. import ops
from ..common.tensor import Tensor, to_array, wrap
from ..ops import _linalg_decomp

if TYPE_CHECKING:
    pass

__all__ = ["block_diag", "cho_factor", "cho_solve", "cholesky", "det", "eigh", "inv", "lstsq", "lu", "lu_factor",
           "lu_pivots_to_permutation", "lu_solve", "solve_triangular"]


def _a(x):
    return to_array(x)


def block_diag(*arrs: Tensor) -> Tensor:
    """A block-diagonal matrix of the inputs."""
    return wrap(jsl.block_diag(*[_a(a) for a in arrs]))


def cholesky(a: Tensor, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The Cholesky factor (upper unless ``lower``)."""
    return ops.cholesky(a, upper=not lower)


def cho_factor(a: Tensor, lower: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> tuple[Tensor, bool]:
    """(factor, lower) for ``cho_solve``."""
    return cholesky(a, lower), lower


def cho_solve(c_and_lower: tuple[Tensor, bool], b: Tensor, overwrite_b: bool = False,
              check_finite: bool = True) -> Tensor:
    """Solve A x = b from ``cho_factor``'s result."""
    c, lower = c_and_lower
    return ops.cholesky_solve(b, c, upper=not lower)


def det(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The determinant."""
    return ops.matrix_determinant(a)


def eigh(a: Tensor, b: Tensor | None = None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, turbo: bool = True, eigvals: tuple[int, int] | None = None, type: int = 1,
         check_finite: bool = True) -> Tensor | tuple[Tensor, Tensor]:  # noqa: A002  (SciPy's name)
    """Eigenvalues (ascending) and eigenvectors of a symmetric / Hermitian matrix."""
    if b is not None:
        raise ValueError("mindspore.scipy.linalg.eigh: the generalized problem (b is not None) is not supported.")
    w, v = jnp.linalg.eigh(_a(a), UPLO="L" if lower else "U")
    return wrap(w) if eigvals_only else (wrap(w), wrap(v))


def inv(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The matrix inverse (integer inputs in Float64)."""
    x = _a(a)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.float64)
    return ops.matrix_inverse(wrap(x))


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None,
          driver: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(solution, residues, rank, singular values) like SciPy (residues and singular values empty, as MindSpore)."""
    x = ops.lstsq(A, B)
    a = _a(A)
    empty = wrap(jnp.zeros((0,), a.dtype))
    return x, empty, wrap(jnp.asarray(jnp.linalg.matrix_rank(a), jnp.int64)), empty


def lu_factor(a: Tensor, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Tensor, Tensor]:
    """(packed LU, 0-based Int32 pivots)."""
    lu_, piv = jsl.lu_factor(_a(a))
    return wrap(lu_), wrap(piv.astype(jnp.int32))


def lu(a: Tensor, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Tensor, ...]:
    """(P, L, U) with a = P @ L @ U (P Int32, as MindSpore); (P @ L, U) with ``permute_l``."""
    p, l_, u = jsl.lu(_a(a))
    if permute_l:
        return wrap(p @ l_), wrap(u)
    return wrap(p.astype(jnp.int32)), wrap(l_), wrap(u)


def lu_pivots_to_permutation(pivots: Tensor, permutation_size: int) -> Tensor:
    """The permutation that 0-based LAPACK pivots (row i swapped with pivots[i]) describe."""
    perm = _linalg_decomp._perm_from_pivots(_a(pivots) + 1, permutation_size)
    return wrap(perm.astype(jnp.int32))


def lu_solve(lu_and_piv: tuple[Tensor, Tensor], b: Tensor, trans: int = 0, overwrite_b: bool = False,
             check_finite: bool = True) -> Tensor:
    """Solve a x = b from ``lu_factor``'s result (``trans`` 0: a, 1: a^T, 2: a^H)."""
    lu_, piv = lu_and_piv
    if trans == 0:
        return ops.lu_solve(b, lu_, ops.add(piv, 1))
    return wrap(jsl.lu_solve((_a(lu_), _a(piv)), _a(b), trans=trans))


def solve_triangular(a: Tensor, b: Tensor, trans: int | str = 0, lower: bool = False, unit_diagonal: bool = False,
                     overwrite_b: bool = False, debug: bool | None = None, check_finite: bool = True) -> Tensor:
    """Solve a x = b for triangular ``a`` (``trans`` 0/'N', 1/'T' or 2/'C')."""
    t = {"N": 0, "T": 1, "C": 2}.get(trans, trans) if isinstance(trans, str) else trans
    return wrap(jsl.solve_triangular(_a(a), _a(b), trans=t, lower=lower, unit_diagonal=unit_diagonal))
