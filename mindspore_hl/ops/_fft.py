"""Discrete Fourier transforms (``ops.fft``, ``ops.rfft``, ``ops.fftn``, ``ops.fftshift`` ...), as in MindSpore 2.10.

Dtype rule (MindSpore's): real and integer inputs are transformed in Complex64 (Float64 and Complex128 in
Complex128); transforms with a real result (``irfft``, ``hfft``) return Float32 (Float64 from 64-bit inputs).
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check, op

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_NORMS = (None, "backward", "forward", "ortho")


def _complex_in(name, x):
    """The input as the complex dtype MindSpore computes in."""
    wide = x.dtype in (jnp.float64, jnp.complex128)
    return x.astype(jnp.complex128 if wide else jnp.complex64)


def _real_in(name, x):
    check(not jnp.issubdtype(x.dtype, jnp.complexfloating), name,
          f"the input must be a real tensor, but got {x.dtype}.", TypeError)
    return x.astype(jnp.float64 if x.dtype == jnp.float64 else jnp.float32)


def _check(name, x, norm, dims):
    check(norm in _NORMS, name, f"norm must be one of {_NORMS}, but got {norm!r}.")
    nd = jnp.ndim(x)
    check(nd >= 1, name, "the input must have at least 1 dimension, but got a scalar.")
    for d in dims:
        check(-nd <= d < nd, name, f"dim {d} is out of range for a {nd}-D input.")


def _dims(x, s, dim, default_all):
    """Normalise (s, dim) of an n-dimensional transform as numpy.fft does."""
    if isinstance(dim, int):
        dim = (dim,)
    if isinstance(s, int):
        s = (s,)
    if dim is None:
        if s is not None:
            dim = tuple(range(-len(s), 0))
        elif default_all:
            dim = tuple(range(jnp.ndim(x)))
        else:
            dim = (-2, -1)
    return (None if s is None else tuple(s)), tuple(dim)


def _one(name, fn, to_complex=True):
    def impl(input, n=None, dim=-1, norm=None):
        _check(name, input, norm, (dim,))
        check(n is None or n >= 1, name, f"n must be positive, but got {n}.")
        x = _complex_in(name, input) if to_complex else _real_in(name, input)
        return fn(x, n=n, axis=dim, norm=norm)
    impl.__name__ = name
    impl.__doc__ = f"``numpy.fft.{name}`` over ``dim`` (length ``n``), in MindSpore's dtypes."
    return op(name)(impl)


def _many(name, fn, default_all, to_complex=True):
    def impl(input, s=None, dim=None if default_all else (-2, -1), norm=None):
        s2, dims = _dims(input, s, dim, default_all)
        _check(name, input, norm, dims)
        x = _complex_in(name, input) if to_complex else _real_in(name, input)
        return fn(x, s=s2, axes=dims, norm=norm)
    impl.__name__ = name
    impl.__doc__ = f"``numpy.fft.{name}`` over the dims ``dim`` (sizes ``s``), in MindSpore's dtypes."
    return op(name)(impl)


def _hfft(x, n=None, axis=-1, norm=None):
    return jnp.fft.hfft(x, n=n, axis=axis, norm=norm)


def _ihfft(x, n=None, axis=-1, norm=None):
    return jnp.fft.ihfft(x, n=n, axis=axis, norm=norm)


_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _hfftn(x, s=None, axes=None, norm=None):
    # hfftn(x) == irfftn(conj(x)) with the forward/backward scaling swapped (as torch/MindSpore define it).
    return jnp.fft.irfftn(jnp.conj(x), s=s, axes=axes, norm=_SWAP[norm])


def _ihfftn(x, s=None, axes=None, norm=None):
    return jnp.conj(jnp.fft.rfftn(x, s=s, axes=axes, norm=_SWAP[norm]))


fft = _one("fft", jnp.fft.fft)
ifft = _one("ifft", jnp.fft.ifft)
rfft = _one("rfft", jnp.fft.rfft, to_complex=False)
irfft = _one("irfft", jnp.fft.irfft)
hfft = _one("hfft", _hfft)
ihfft = _one("ihfft", _ihfft, to_complex=False)
fft2 = _many("fft2", jnp.fft.fftn, False)
ifft2 = _many("ifft2", jnp.fft.ifftn, False)
fftn = _many("fftn", jnp.fft.fftn, True)
ifftn = _many("ifftn", jnp.fft.ifftn, True)
rfft2 = _many("rfft2", jnp.fft.rfftn, False, to_complex=False)
irfft2 = _many("irfft2", jnp.fft.irfftn, False)
rfftn = _many("rfftn", jnp.fft.rfftn, True, to_complex=False)
irfftn = _many("irfftn", jnp.fft.irfftn, True)
hfft2 = _many("hfft2", _hfftn, False)
ihfft2 = _many("ihfft2", _ihfftn, False, to_complex=False)
hfftn = _many("hfftn", _hfftn, True)
ihfftn = _many("ihfftn", _ihfftn, True, to_complex=False)


@op("fftshift")
def fftshift(input: Tensor, dim: int | tuple[int, ...] | None = None) -> Tensor:
    """Move the zero-frequency term to the centre of ``dim`` (all dims by default)."""
    return jnp.fft.fftshift(input, axes=dim)


@op("ifftshift")
def ifftshift(input: Tensor, dim: int | tuple[int, ...] | None = None) -> Tensor:
    """Inverse of ``fftshift``."""
    return jnp.fft.ifftshift(input, axes=dim)


def _np_dtype(dtype):
    return np.float32 if dtype is None else mstype.to_ms_dtype(dtype).to_numpy()


@op("fftfreq", keep_f64=True)
def fftfreq(n: int, d: float = 1.0, dtype: mstype.Type | None = None) -> Tensor:
    """Sample frequencies of an ``n``-point DFT with sample spacing ``d`` (Float32 unless ``dtype``)."""
    check(isinstance(n, int) and n >= 1, "fftfreq", f"n must be a positive int, but got {n!r}.")
    k = np.fft.ifftshift(np.arange(-(n // 2), n - n // 2))  # 0, 1, ..., -(n // 2), ..., -1
    return jnp.asarray(_freqs(k, n, d).astype(_np_dtype(dtype)))


def _freqs(k, n, d):
    """k / (n * d) in Float32 arithmetic, as MindSpore's kernel computes it whatever the output dtype."""
    return k.astype(np.float32) / (np.float32(n) * np.float32(d))


@op("rfftfreq", keep_f64=True)
def rfftfreq(n: int, d: float = 1.0, dtype: mstype.Type | None = None) -> Tensor:
    """Sample frequencies of an ``n``-point real DFT (the non-negative half)."""
    check(isinstance(n, int) and n >= 1, "rfftfreq", f"n must be a positive int, but got {n!r}.")
    return jnp.asarray(_freqs(np.arange(n // 2 + 1), n, d).astype(_np_dtype(dtype)))
