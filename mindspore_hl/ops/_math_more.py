"""More math functions: the batched diagonal family (``matrix_diag`` / ``matrix_diag_part`` / ``matrix_set_diag``),
``unique_with_pad``, ``inplace_index_add``, ``inplace_sigmoid`` and ``stft``.

The diagonal ops follow MindSpore's MatrixDiagV3 convention: ``k`` is one diagonal offset or a ``(low, high)`` band,
diagonals are stored from ``high`` down to ``low``, and ``align`` ('RIGHT_LEFT', 'LEFT_RIGHT', 'LEFT_LEFT',
'RIGHT_RIGHT') says how the shorter diagonals sit in the stored rows (superdiagonals first, subdiagonals second).

>>> import numpy as np, mindspore_hl as ms
>>> ms.ops.matrix_diag(ms.Tensor(np.array([1., 2.], np.float32))).asnumpy().tolist()
[[1.0, 0.0], [0.0, 2.0]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor, wrap
from ._core import OpTypeError, check, op, unwrap

__all__ = ["matrix_diag", "matrix_diag_part", "matrix_set_diag", "unique_with_pad", "inplace_index_add",
           "inplace_sigmoid", "stft"]

_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(name, k):
    """``k`` (an int, a pair, or an int Tensor of one or two elements; must be concrete) -> (low, high)."""
    try:
        v = np.asarray(unwrap(k)).reshape(-1)
    except (TypeError, jax.errors.ConcretizationTypeError):
        raise OpTypeError(f"For '{name}', 'k' must be a concrete int or pair of ints, but got {k!r}.") from None
    check(v.size in (1, 2) and v.dtype.kind in "iu", name,
          f"'k' must be an int or an int Tensor of 1 or 2 elements, but got {v.tolist()} ({v.dtype}).")
    low, high = int(v[0]), int(v[-1])
    check(low <= high, name, f"'k[0]' must not be greater than 'k[1]', but got k = ({low}, {high}).")
    return low, high


def _check_align(name, align):
    check(align in _ALIGNS, name, f"'align' must be one of {list(_ALIGNS)}, but got {align!r}.")


def _offset(d, max_len, rows, cols, align):
    """Where diagonal ``d``'s first element sits in its stored row of length ``max_len``."""
    length = min(rows + min(d, 0), cols - max(d, 0))
    left = (d >= 0 and align.startswith("LEFT")) or (d <= 0 and align.endswith("LEFT"))
    return 0 if left else max_len - length


def _diag_part(x, low, high, padding_value, align):
    rows, cols = x.shape[-2:]
    max_len = min(rows + min(high, 0), cols + min(-low, 0))
    out = []
    for d in range(high, low - 1, -1):
        t = np.arange(max_len)
        i = t - _offset(d, max_len, rows, cols, align)
        r, c = i + max(-d, 0), i + max(d, 0)
        valid = (i >= 0) & (r < rows) & (c < cols)
        vals = x[..., np.clip(r, 0, rows - 1), np.clip(c, 0, cols - 1)]
        out.append(jnp.where(valid, vals, jnp.asarray(padding_value, x.dtype)))
    return out[0] if low == high else jnp.stack(out, axis=-2)


def _band_source(shape, low, high, max_len, align):
    """For each (row, col) of a matrix of ``shape``: inside the band, and the (diagonal row, position) it reads."""
    rows, cols = shape
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    d = c - r
    inside = (d >= low) & (d <= high)
    offsets = np.array([_offset(k, max_len, rows, cols, align) for k in range(low, high + 1)])
    dd = np.clip(d, low, high)
    pos = np.minimum(r, c) + offsets[dd - low]
    inside &= (pos >= 0) & (pos < max_len)
    return inside, high - dd, np.clip(pos, 0, max_len - 1)


def _scalar(name, key, v):
    v = unwrap(v)
    check(np.ndim(v) == 0, name, f"'{key}' must be a scalar, but got shape {list(np.shape(v))}.")
    return v


def matrix_diag(x: Tensor, k: int = 0, num_rows: int = -1, num_cols: int = -1, padding_value: float = 0,
                align: str = "RIGHT_LEFT") -> Tensor:
    """Batched matrices whose diagonals ``k`` are ``x`` (stored from the highest diagonal down), padded elsewhere."""
    name = "matrix_diag"
    _check_align(name, align)
    low, high = _band(name, k)
    d = unwrap(x) if isinstance(x, Tensor) else jnp.asarray(x)
    num_rows, num_cols = int(_scalar(name, "num_rows", num_rows)), int(_scalar(name, "num_cols", num_cols))
    if low != high:
        check(d.ndim >= 2 and d.shape[-2] == high - low + 1, name,
              f"'x' must have {high - low + 1} diagonals in its second last dimension for k = ({low}, {high}), "
              f"but got shape {list(d.shape)}.")
        d_rows = d
    else:
        check(d.ndim >= 1, name, "'x' must have at least 1 dimension, but got a scalar.")
        d_rows = d[..., None, :]
    max_len = d.shape[-1]
    min_rows, min_cols = max_len - min(high, 0), max_len + max(low, 0)
    rows = min_rows if num_rows == -1 else num_rows
    cols = min_cols if num_cols == -1 else num_cols
    check(rows >= min_rows and cols >= min_cols, name,
          f"'num_rows' and 'num_cols' must be at least {min_rows} and {min_cols}, but got {rows} and {cols}.")
    inside, di, pos = _band_source((rows, cols), low, high, max_len, align)
    vals = d_rows[..., di, pos]
    return wrap(jnp.where(inside, vals, jnp.asarray(unwrap(padding_value), d.dtype)))


def matrix_diag_part(x: Tensor, k: int, padding_value: float, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k`` of the batched matrices ``x``, padded with ``padding_value`` to the longest."""
    name = "matrix_diag_part"
    _check_align(name, align)
    low, high = _band(name, k)
    a = unwrap(x)
    check(a.ndim >= 2, name, f"'x' must have at least 2 dimensions, but got shape {list(a.shape)}.")
    return wrap(_diag_part(a, low, high, _scalar(name, "padding_value", padding_value), align))


def matrix_set_diag(x: Tensor, diagonal: Tensor, k: int = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonals ``k`` replaced by ``diagonal`` (the layout ``matrix_diag_part`` returns)."""
    name = "matrix_set_diag"
    _check_align(name, align)
    low, high = _band(name, k)
    a, d = unwrap(x), unwrap(diagonal)
    check(a.ndim >= 2, name, f"'x' must have at least 2 dimensions, but got shape {list(a.shape)}.")
    rows, cols = a.shape[-2:]
    max_len = min(rows + min(high, 0), cols + min(-low, 0))
    want = a.shape[:-2] + ((max_len,) if low == high else (high - low + 1, max_len))
    check(tuple(d.shape) == want, name, f"'diagonal' must have shape {list(want)}, but got {list(d.shape)}.")
    d_rows = d[..., None, :] if low == high else d
    inside, di, pos = _band_source((rows, cols), low, high, max_len, align)
    return wrap(jnp.where(inside, d_rows[..., di, pos].astype(a.dtype), a))


def unique_with_pad(x: Tensor, pad_num: int) -> tuple[Tensor, Tensor]:
    """(unique values of the 1-D ``x`` in first-occurrence order padded with ``pad_num`` to ``x``'s length, and the
    index of each element of ``x`` in them); eager only (the unique count depends on the values)."""
    a = np.asarray(unwrap(x))
    check(a.ndim == 1, "unique_with_pad", f"'x' must be 1-D, but got shape {list(a.shape)}.")
    _, first, inverse = np.unique(a, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    y = np.full(a.shape, np.asarray(unwrap(pad_num)).item(), a.dtype)
    y[:order.size] = a[np.sort(first)]
    return wrap(jnp.asarray(y)), wrap(jnp.asarray(rank[inverse.reshape(-1)].astype(a.dtype)))


@op("inplace_index_add")
def _index_add(var, indices, updates, axis):
    check(jnp.issubdtype(indices.dtype, jnp.integer) and indices.ndim == 1, "inplace_index_add",
          f"'indices' must be a 1-D int Tensor, but got {indices.dtype} of shape {list(indices.shape)}.")
    axis = axis % var.ndim
    want = var.shape[:axis] + indices.shape + var.shape[axis + 1:]
    check(updates.shape == want, "inplace_index_add",
          f"'updates' must have shape {list(want)}, but got {list(updates.shape)}.")
    idx = [slice(None)] * var.ndim
    idx[axis] = indices
    return var.at[tuple(idx)].add(updates.astype(var.dtype))


def inplace_index_add(var: Tensor, indices: Tensor, updates: Tensor, axis: int) -> Tensor:
    """``var[..., indices[i], ...] += updates[..., i, ...]`` along ``axis``, written into ``var``; returns it."""
    out = _index_add(var, indices, updates, axis)
    if isinstance(var, Tensor):
        var._set_value(out._value)
        return var
    return out


def inplace_sigmoid(input: Tensor) -> Tensor:
    """``input = sigmoid(input)`` in place; returns ``input``."""
    check(isinstance(input, Tensor), "inplace_sigmoid", f"'input' must be a Tensor, but got {type(input).__name__}.",
          kind=TypeError)
    input._set_value(jax.nn.sigmoid(input._value))
    return input


@op("stft")
def _stft(x, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided, return_complex):
    name = "stft"
    check(x.ndim in (1, 2), name, f"'x' must be 1-D or 2-D, but got shape {list(x.shape)}.")
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win_len = n_fft if win_length is None else int(win_length)
    check(0 < win_len <= n_fft and hop > 0, name,
          f"expected 0 < win_length <= n_fft and hop_length > 0, but got win_length={win_len}, n_fft={n_fft}, "
          f"hop_length={hop}.")
    w = jnp.ones((win_len,), jnp.float32) if window is None else window
    check(w.shape == (win_len,), name, f"'window' must have shape [{win_len}], but got {list(w.shape)}.")
    left = (n_fft - win_len) // 2
    w = jnp.pad(w, (left, n_fft - win_len - left))
    if center:
        mode = {"REFLECT": "reflect", "CONSTANT": "constant"}.get(str(pad_mode).upper())
        check(mode is not None, name, f"'pad_mode' must be 'REFLECT' or 'CONSTANT', but got {pad_mode!r}.")
        x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=mode)
    n = x.shape[-1]
    check(n >= n_fft, name, f"the (padded) signal length {n} must be at least n_fft={n_fft}.")
    frames = 1 + (n - n_fft) // hop
    idx = np.arange(frames)[:, None] * hop + np.arange(n_fft)[None, :]
    segs = x[..., idx] * w
    complex_in = jnp.iscomplexobj(x) or jnp.iscomplexobj(w)
    one = (not complex_in) if onesided is None else bool(onesided)
    spec = jnp.fft.rfft(segs, axis=-1) if one else jnp.fft.fft(segs, axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    spec = jnp.swapaxes(spec, -1, -2).astype(jnp.complex128 if x.dtype == jnp.float64 else jnp.complex64)
    want_complex = complex_in if return_complex is None else bool(return_complex)
    return spec if want_complex else jnp.stack([spec.real, spec.imag], axis=-1)


def stft(x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "REFLECT", normalized: bool = False,
         onesided: bool | None = None, return_complex: bool | None = None) -> Tensor:
    """Short-time Fourier transform: (..., n_fft // 2 + 1 (onesided) or n_fft, frames), complex or a trailing 2."""
    return _stft(x, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided, return_complex)
