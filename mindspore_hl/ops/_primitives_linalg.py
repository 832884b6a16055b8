"""Linear-algebra Primitive classes (``MatrixDiagV3``, ``Qr``, ``Svd``, ``Lstsq``, ``FFTWithSize`` ...).

Each delegates to a functional op (the op table) or to a small array function here; constructor arguments carry
MindSpore 2.10's names and defaults (see ``_primitives_math`` for the class factory).
"""
import inspect

import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from ..common.tensor import wrap
from . import _math_more
from ._core import check, op, unwrap
from ._primitives_math import _arr, _make
from ._registry import lookup

_E = inspect.Parameter.empty


def _fill_diagonal(a, x):
    xv = unwrap(x)
    check(xv.ndim >= 2, "FillDiagonal", f"'input_x' must have at least 2 dimensions, but got {list(xv.shape)}.")
    if xv.ndim == 2:
        rows, cols = xv.shape
        end = xv.size if a["wrap"] else min(rows, cols) * cols
        flat = np.arange(0, end, cols + 1)
    else:
        check(len(set(xv.shape)) == 1, "FillDiagonal", f"all dimensions must be equal, but got {list(xv.shape)}.")
        flat = np.ravel_multi_index((np.arange(xv.shape[0]),) * xv.ndim, xv.shape)
    return wrap(xv.reshape(-1).at[flat].set(jnp.asarray(a["fill_value"], xv.dtype)).reshape(xv.shape))


def _lp_norm(a, x):
    xv = unwrap(x)
    axis = tuple(a["axis"]) if isinstance(a["axis"], (list, tuple)) else (a["axis"],)
    p = a["p"]
    if p == 0:
        out = jnp.sum(xv != 0, axis=axis, keepdims=a["keep_dims"]).astype(xv.dtype)
    else:
        out = jnp.sum(jnp.abs(xv) ** p, axis=axis, keepdims=a["keep_dims"]) ** (1.0 / p)
    return wrap(out.astype(xv.dtype))


def _lstsq(name, x, y, l2, fast):
    a, b = unwrap(x), unwrap(y)
    check(a.ndim >= 2 and b.ndim >= 1 and a.shape[-2] == b.shape[-2 if b.ndim >= 2 else -1], name,
          f"'matrix' rows must match 'rhs', but got shapes {list(a.shape)} and {list(b.shape)}.")
    vec = b.ndim == 1
    b2 = b[:, None] if vec else b
    ah = jnp.conj(jnp.swapaxes(a, -1, -2))
    n = a.shape[-1]
    out = jnp.linalg.solve(ah @ a + l2 * jnp.eye(n, dtype=a.dtype), ah @ b2) if (fast or l2) else \
        jnp.linalg.lstsq(a, b2)[0]
    return wrap((out[:, 0] if vec else out).astype(a.dtype))


def _matrix_log(a, x):
    xv = unwrap(x)
    check(jnp.iscomplexobj(xv), "MatrixLogarithm", f"'x' must be complex64 or complex128, but got {xv.dtype}.")
    w, v = jnp.linalg.eig(xv)  # a diagonalisable matrix: log(A) = V log(diag(w)) V^-1
    return wrap(((v * jnp.log(w)[..., None, :]) @ jnp.linalg.inv(v)).astype(xv.dtype))


def _nuclear_norm(a, x):
    xv = unwrap(x)
    dim = [0, 1] if a["dim"] is None else list(a["dim"])
    check(xv.ndim >= 2 and len(dim) == 2, "NuclearNorm", f"'dim' must name 2 dimensions of a Tensor of at least "
          f"2 dimensions, but got dim={a['dim']} for shape {list(xv.shape)}.")
    dims = [d % xv.ndim for d in dim]
    moved = jnp.moveaxis(xv, dims, [-2, -1])
    out = jnp.sum(jnp.linalg.svd(moved, compute_uv=False), axis=-1)
    if a["keepdim"]:
        out = jnp.expand_dims(out, tuple(sorted(dims)))
    return wrap(out.astype(xv.dtype))


@op("TridiagonalMatMul")
def _tridiag_matmul(superdiag, maindiag, subdiag, rhs):
    m = rhs.shape[-2]
    for k, v in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag)):
        check(v.shape[-2:] == (1, m), "TridiagonalMatMul", f"'{k}' must end in [1, {m}], but got {list(v.shape)}.")
    up = jnp.swapaxes(superdiag, -1, -2) * jnp.pad(rhs[..., 1:, :], [(0, 0)] * (rhs.ndim - 2) + [(0, 1), (0, 0)])
    lo = jnp.swapaxes(subdiag, -1, -2) * jnp.pad(rhs[..., :-1, :], [(0, 0)] * (rhs.ndim - 2) + [(1, 0), (0, 0)])
    return up + jnp.swapaxes(maindiag, -1, -2) * rhs + lo


def _svd(a, x):
    if a["compute_uv"]:
        return lookup("svd")(x, full_matrices=a["full_matrices"], compute_uv=True)
    s = lookup("svd")(x, compute_uv=False)
    zero = wrap(jnp.zeros((1,), unwrap(s).dtype))  # MindSpore returns placeholder u and v
    return s, zero, zero


def _eig(a, x):
    if a["compute_v"]:
        return lookup("eig")(x)
    w = jnp.linalg.eigvals(unwrap(x))
    return wrap(w.astype(jnp.complex128 if unwrap(x).dtype in (jnp.float64, jnp.complex128) else jnp.complex64)), \
        wrap(jnp.zeros((), w.dtype))


@op("FFTWithSize")
def _fft_with_size(x, signal_ndim, inverse, real, norm, onesided, signal_sizes):
    axes = tuple(range(-signal_ndim, 0))
    if not real:
        return (jnp.fft.ifftn if inverse else jnp.fft.fftn)(x, axes=axes, norm=norm).astype(
            jnp.complex128 if x.dtype in (jnp.float64, jnp.complex128) else jnp.complex64)
    if not inverse:
        out = (jnp.fft.rfftn if onesided else jnp.fft.fftn)(x, axes=axes, norm=norm)
        return out.astype(jnp.complex128 if x.dtype == jnp.float64 else jnp.complex64)
    sizes = tuple(signal_sizes) if signal_sizes else None
    out = jnp.fft.irfftn(x, s=sizes, axes=axes, norm=norm) if onesided else \
        jnp.fft.ifftn(x, axes=axes, norm=norm).real
    return out.astype(jnp.float64 if x.dtype == jnp.complex128 else jnp.float32)


def _diag_part_nd(x):
    check(x.ndim % 2 == 0 and x.shape[:x.ndim // 2] == x.shape[x.ndim // 2:], "DiagPart",
          f"'input_x' must have shape (D1, ..., Dk, D1, ..., Dk), but got {list(x.shape)}.")
    half = x.shape[:x.ndim // 2]
    n = int(np.prod(half))
    return jnp.diagonal(x.reshape(n, n)).reshape(half)


# (name, ((constructor argument, default), ...), body(attrs, *inputs))
_SPECS = [
    ("MatrixDiagV3", (("align", "RIGHT_LEFT"),), lambda a, x, k, r, c, p: _math_more.matrix_diag(
        x, k, r, c, p, align=a["align"])),
    ("MatrixDiagPartV3", (("align", "RIGHT_LEFT"),), lambda a, x, k, p: _math_more.matrix_diag_part(
        x, k, p, align=a["align"])),
    ("MatrixSetDiagV3", (("align", "RIGHT_LEFT"),), lambda a, x, d, k: _math_more.matrix_set_diag(
        x, d, k, align=a["align"])),
    ("DiagPart", (), _arr(lambda x: _diag_part_nd(x))),
    ("FillDiagonal", (("fill_value", _E), ("wrap", False)), _fill_diagonal),
    ("LpNorm", (("axis", _E), ("p", 2), ("keep_dims", False), ("epsilon", 1e-12)), _lp_norm),
    ("ConjugateTranspose", (), lambda a, x, perm: wrap(jnp.conj(jnp.transpose(unwrap(x), tuple(perm))))),
    ("MatrixInverse", (("adjoint", False),), lambda a, x: lookup("inverse")(
        wrap(jnp.conj(jnp.swapaxes(unwrap(x), -1, -2))) if a["adjoint"] else x)),
    ("MatrixTriangularSolve", (("lower", True), ("adjoint", False)), lambda a, m, r: wrap(jsl.solve_triangular(
        unwrap(m), unwrap(r), lower=a["lower"], trans="C" if a["adjoint"] else 0))),
    ("MatrixSolveLs", (("fast", True),), lambda a, m, r, l2: _lstsq("MatrixSolveLs", m, r, unwrap(l2), a["fast"])),
    ("Lstsq", (("fast", True), ("l2_regularizer", 0.0)),
     lambda a, x, y: _lstsq("Lstsq", x, y, a["l2_regularizer"], a["fast"])),
    ("MatrixLogarithm", (), _matrix_log),
    ("EuclideanNorm", (("keep_dims", False),), lambda a, x, axes: wrap(jnp.sqrt(jnp.sum(
        jnp.square(unwrap(x)), axis=tuple(int(i) for i in np.asarray(unwrap(axes)).reshape(-1)),
        keepdims=a["keep_dims"])).astype(unwrap(x).dtype))),
    ("Ormqr", (("left", True), ("transpose", False)),
     lambda a, x, tau, other: lookup("ormqr")(x, tau, other, left=a["left"], transpose=a["transpose"])),
    ("NuclearNorm", (("dim", None), ("keepdim", False)), _nuclear_norm),
    ("TridiagonalMatMul", (), lambda a, *xs: _tridiag_matmul(*xs)),
    ("Qr", (("full_matrices", False),), lambda a, x: lookup("qr")(x, "complete" if a["full_matrices"] else "reduced")),
    ("Svd", (("full_matrices", False), ("compute_uv", True)), _svd),
    ("Eig", (("compute_v", False),), _eig),
    ("LuUnpack", (("unpack_data", True), ("unpack_pivots", True)),
     lambda a, lu, piv: lookup("lu_unpack")(lu, piv)),  # (MindSpore's LuUnpack gives all three whatever its flags)
    ("FFTWithSize", (("signal_ndim", _E), ("inverse", _E), ("real", _E), ("norm", "backward"), ("onesided", True),
                     ("signal_sizes", ())),
     lambda a, x: _fft_with_size(x, a["signal_ndim"], a["inverse"], a["real"], a["norm"], a["onesided"],
                                 a["signal_sizes"])),
    ("STFT", (("n_fft", _E), ("hop_length", _E), ("win_length", _E), ("normalized", _E), ("onesided", _E),
              ("return_complex", _E)),
     lambda a, x, w: _math_more.stft(x, a["n_fft"], a["hop_length"], a["win_length"], w, center=False,
                                     normalized=a["normalized"], onesided=a["onesided"],
                                     return_complex=a["return_complex"])),
]

for _name, _args, _body in _SPECS:
    globals()[_name] = _make(_name, _args, _body)
    globals()[_name].__module__ = __name__

__all__ = [s[0] for s in _SPECS]
