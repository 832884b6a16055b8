"""MindSpore 2.10's special-function, matrix and image layers: ``LGamma``, ``DiGamma``, ``IGamma``, ``LBeta``,
``MatDet``, ``MatInverse``, ``MatrixDiag``, ``MatrixDiagPart``, ``MatrixSetDiag``, ``ImageGradients``, ``PSNR``,
``SSIM``, ``MSSSIM`` and the PyTorch-style ``DropoutExt``, ``Dropout2dExt``, ``EmbeddingExt``, ``LayerNormExt``,
``MaxPool2dExt``.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import Normal, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops._core import op
from ..cell import Cell
from ._checks import check_float, check_input
from ._container import CellList
from ._conv import Conv2d

__all__ = ["LGamma", "DiGamma", "IGamma", "LBeta", "MatDet", "MatInverse", "MatrixDiag", "MatrixDiagPart",
           "MatrixSetDiag", "ImageGradients", "PSNR", "SSIM", "MSSSIM", "DropoutExt", "Dropout2dExt", "EmbeddingExt",
           "LayerNormExt", "MaxPool2dExt"]


class LGamma(Cell):
    """``log|Gamma(x)|`` element-wise."""

    def construct(self, x: Tensor) -> Tensor:
        check_float(self, x)
        return ops.lgamma(x)


class DiGamma(Cell):
    """``d/dx log Gamma(x)`` element-wise."""

    def construct(self, x: Tensor) -> Tensor:
        check_float(self, x)
        return ops.digamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)`` (broadcast)."""

    def construct(self, a: Tensor, x: Tensor) -> Tensor:
        check_float(self, a)
        check_float(self, x)
        return ops.igamma(a, x)


@op("nn_lbeta")
def _lbeta(x, y):
    return jax.scipy.special.betaln(x, y)


class LBeta(Cell):
    """``log(|Beta(x, y)|) = lgamma(x) + lgamma(y) - lgamma(x + y)`` (broadcast), stable for large arguments."""

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        check_float(self, x)
        check_float(self, y)
        return _lbeta(x, y)


class MatDet(Cell):
    """Determinant of symmetric positive-definite matrices ``(..., M, M)`` (MindSpore computes it via Cholesky)."""

    def construct(self, a: Tensor) -> Tensor:
        check_float(self, a)
        check_input(self, a, ("...", "M", "M"))
        return ops.det(a)


class MatInverse(Cell):
    """Inverse of symmetric positive-definite matrices ``(..., M, M)`` (MindSpore computes it via Cholesky)."""

    def construct(self, a: Tensor) -> Tensor:
        check_float(self, a)
        check_input(self, a, ("...", "M", "M"))
        return ops.matrix_inverse(a)


@op("nn_matrix_diag")
def _matrix_diag(x):
    return x[..., :, None] * jnp.eye(x.shape[-1], dtype=x.dtype)


@op("nn_matrix_diag_part")
def _matrix_diag_part(x):
    return jnp.diagonal(x, axis1=-2, axis2=-1)


@op("nn_matrix_set_diag")
def _matrix_set_diag(x, d):
    k = min(x.shape[-2], x.shape[-1])
    i = jnp.arange(k)
    return x.at[..., i, i].set(jnp.broadcast_to(d, x.shape[:-2] + (k,)).astype(x.dtype))


class MatrixDiag(Cell):
    """``(..., k) -> (..., k, k)``: the last axis becomes the diagonal of zero matrices."""

    def construct(self, input_x: Tensor) -> Tensor:
        return _matrix_diag(input_x)


class MatrixDiagPart(Cell):
    """``(..., M, N) -> (..., min(M, N))``: the main diagonals."""

    def construct(self, input_x: Tensor) -> Tensor:
        check_input(self, input_x, ("...", "M", "N"))
        return _matrix_diag_part(input_x)


class MatrixSetDiag(Cell):
    """``input_x`` (..., M, N) with its main diagonals replaced by ``diagonal`` (..., min(M, N))."""

    def construct(self, input_x: Tensor, diagonal: Tensor) -> Tensor:
        check_input(self, input_x, ("...", "M", "N"))
        k = min(input_x.shape[-2], input_x.shape[-1])
        check_input(self, diagonal, ("...", k), note=f"min(M, N) of input_x {tuple(input_x.shape)}")
        return _matrix_set_diag(input_x, diagonal)


@op("nn_image_gradients")
def _image_gradients(x):
    dy = jnp.concatenate([x[:, :, 1:, :] - x[:, :, :-1, :], jnp.zeros_like(x[:, :, :1, :])], axis=2)
    dx = jnp.concatenate([x[:, :, :, 1:] - x[:, :, :, :-1], jnp.zeros_like(x[:, :, :, :1])], axis=3)
    return dy, dx


class ImageGradients(Cell):
    """``(dy, dx)`` of NCHW images: forward differences, zero in the last row/column."""

    def construct(self, images: Tensor) -> Tensor:
        check_input(self, images, ("N", "C", "H", "W"))
        return _image_gradients(images)


def _check_max_val(cell, max_val):
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)) or max_val <= 0:
        raise ValueError(f"For '{cell}', 'max_val' must be an int or float > 0, but got {max_val!r}.")
    return max_val


def _to_float(img, max_val):
    """MindSpore's scaling: integer images are divided by their dtype's maximum, as is max_val then."""
    if not img.dtype.is_floating:
        top = float(np.iinfo(mstype.dtype_to_nptype(img.dtype)).max)
        return ops.cast(img, mstype.float32) / top, max_val / top
    return ops.cast(img, mstype.float32), max_val


class PSNR(Cell):
    """Peak signal-to-noise ratio per image of two NCHW batches: ``10 log10(max_val^2 / MSE)``, shape (N,)."""

    def __init__(self, max_val: float = 1.0) -> None:
        super().__init__()
        self.max_val = _check_max_val("PSNR", max_val)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        check_input(self, img1, ("N", "C", "H", "W"))
        check_input(self, img2, tuple(img1.shape), note="img2 must have img1's shape")
        a, max_val = _to_float(img1, self.max_val)
        b, _ = _to_float(img2, self.max_val)
        mse = ops.mean(ops.square(a - b), (-3, -2, -1))
        return 10.0 * ops.log(max_val ** 2 / mse) / float(np.log(10.0))


def _window(size, sigma):
    """The (1, 1, size, size) normalised Gaussian MindSpore's SSIM convolves with."""
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)[None, None]


def _check_ssim_args(cell, max_val, filter_size, filter_sigma, k1, k2):
    _check_max_val(cell, max_val)
    if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
        raise ValueError(f"For '{cell}', 'filter_size' must be an int >= 1, but got {filter_size!r}.")
    if not isinstance(filter_sigma, float) or filter_sigma <= 0:
        raise ValueError(f"For '{cell}', 'filter_sigma' must be a float > 0, but got {filter_sigma!r}.")
    for name, k in (("k1", k1), ("k2", k2)):
        if not isinstance(k, float):
            raise TypeError(f"For '{cell}', '{name}' must be a float, but got {type(k).__name__}.")


def _ssim_cs(conv, img1, img2, c1, c2):
    """Per-channel mean SSIM and contrast-structure terms, (N, C) each; channels filtered one at a time."""
    n, c, h, w = img1.shape

    def f(t):
        return conv(ops.reshape(t, (n * c, 1, h, w)))

    mu1, mu2 = f(img1), f(img2)
    s11, s22, s12 = f(img1 * img1) - mu1 * mu1, f(img2 * img2) - mu2 * mu2, f(img1 * img2) - mu1 * mu2
    v1, v2 = 2 * s12 + c2, s11 + s22 + c2
    ssim = (2 * mu1 * mu2 + c1) * v1 / ((mu1 * mu1 + mu2 * mu2 + c1) * v2)
    return (ops.reshape(ops.mean(ssim, (1, 2, 3)), (n, c)), ops.reshape(ops.mean(v1 / v2, (1, 2, 3)), (n, c)))


def _gauss_conv(filter_size, filter_sigma):
    conv = Conv2d(1, 1, filter_size, pad_mode="valid", weight_init=Tensor(_window(filter_size, filter_sigma)))
    conv.weight.requires_grad = False
    return conv


class SSIM(Cell):
    """Structural similarity of two NCHW batches (Gaussian window, 'valid' filtering), mean over C, H, W: (N,).

    The Gaussian window is a frozen Parameter ``conv.weight`` as in MindSpore.
    """

    def __init__(self, max_val: float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        _check_ssim_args("SSIM", max_val, filter_size, filter_sigma, k1, k2)
        self.max_val, self.filter_size, self.filter_sigma, self.k1, self.k2 = (max_val, filter_size, filter_sigma,
                                                                               k1, k2)
        self.conv = _gauss_conv(filter_size, filter_sigma)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        check_input(self, img1, ("N", "C", "H", "W"))
        check_input(self, img2, tuple(img1.shape), note="img2 must have img1's shape")
        if min(img1.shape[2:]) < self.filter_size:
            raise ValueError(f"For 'SSIM', img1's H and W must be >= filter_size {self.filter_size}, "
                             f"but got shape {tuple(img1.shape)}.")
        a, max_val = _to_float(img1, self.max_val)
        b, _ = _to_float(img2, self.max_val)
        ssim, _ = _ssim_cs(self.conv, a, b, (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2)
        return ops.mean(ssim, -1)


class MSSSIM(Cell):
    """Multi-scale SSIM of two NCHW batches: ``prod_j relu(cs_j)^w_j`` over scales (2x2 average pooling between
    scales) with the last scale's ``relu(ssim)``, mean over channels: (N,). Parameters ``multi_convs_list.<i>.weight``
    (frozen Gaussian windows) as in MindSpore.
    """

    def __init__(self, max_val: float = 1.0,
                 power_factors: tuple[float, ...] = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size: int = 11,
                 filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__()
        _check_ssim_args("MSSSIM", max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', 'power_factors' must be a tuple or list, but got "
                            f"{type(power_factors).__name__}.")
        self.max_val, self.k1, self.k2 = max_val, k1, k2
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_gauss_conv(filter_size, filter_sigma) for _ in range(self.level)])
        self.weight_tensor = Tensor(np.asarray(power_factors, np.float32))

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        check_input(self, img1, ("N", "C", "H", "W"))
        check_input(self, img2, tuple(img1.shape), note="img2 must have img1's shape")
        a, max_val = _to_float(img1, self.max_val)
        b, _ = _to_float(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mcs = []
        for i in range(self.level):
            sim, cs = _ssim_cs(self.multi_convs_list[i], a, b, c1, c2)
            mcs.append(ops.relu(cs))
            a = ops.avg_pool2d(a, 2, 2)
            b = ops.avg_pool2d(b, 2, 2)
        stacked = ops.stack(mcs[:-1] + [ops.relu(sim)], -1)
        return ops.mean(ops.prod(ops.pow(stacked, self.weight_tensor), -1), -1)


class DropoutExt(Cell):
    """Zeroes elements with probability ``p`` in training and scales the rest by ``1/(1-p)`` (PyTorch-style)."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"For 'DropoutExt', 'p' must be in [0, 1], but got {p}.")
        self.p, self.inplace = p, inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        return ops.dropout(input, self.p, True)


class Dropout2dExt(Cell):
    """Zeroes whole channels of NCHW input with probability ``p`` in training (PyTorch-style)."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"For 'Dropout2dExt', 'p' must be in [0, 1], but got {p}.")
        self.p, self.inplace = p, inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        return ops.dropout2d(input, self.p, True)  # type: ignore[attr-defined]  # added to ops by the op table


class EmbeddingExt(Cell):
    """Lookup table ``weight`` (num_embeddings, embedding_dim), initialised N(0, 1), row ``padding_idx`` zero."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False,
                 dtype: mstype.Type | None = None) -> None:
        super().__init__()
        if sparse:
            raise ValueError("For 'EmbeddingExt', sparse=True is not supported (as in MindSpore).")
        if max_norm is not None or scale_grad_by_freq:
            raise NotImplementedError("EmbeddingExt: max_norm and scale_grad_by_freq are not supported here.")
        self.num_embeddings, self.embedding_dim = int(num_embeddings), int(embedding_dim)
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'EmbeddingExt', 'padding_idx' must be in [{-num_embeddings}, {num_embeddings}), "
                             f"but got {padding_idx}.")
        self.padding_idx = padding_idx if padding_idx is None or padding_idx >= 0 else padding_idx + num_embeddings
        dtype = mstype.float32 if dtype is None else dtype
        if _weight is None:
            w = np.array(initializer(Normal(1.0, 0.0), (num_embeddings, embedding_dim), dtype).init_data().asnumpy())
            if self.padding_idx is not None:
                w[self.padding_idx] = 0
            _weight = Tensor(w)
        elif tuple(_weight.shape) != (num_embeddings, embedding_dim):
            raise ValueError(f"For 'EmbeddingExt', _weight's shape must be {(num_embeddings, embedding_dim)}, "
                             f"but got {tuple(_weight.shape)}.")
        self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)
        self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse = max_norm, norm_type, False, False

    def construct(self, input: Tensor) -> Tensor:
        return ops.embedding(input, self.weight, self.padding_idx)


class LayerNormExt(Cell):
    """Layer normalisation over the trailing ``normalized_shape``; ``weight`` ones and ``bias`` zeros."""

    def __init__(self, normalized_shape: int | tuple[int, ...] | list[int], eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, dtype: mstype.Type | None = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)) or not normalized_shape:
            raise ValueError(f"For 'LayerNormExt', 'normalized_shape' must be a non-empty tuple/list of int, but got "
                             f"{normalized_shape!r}.")
        self.normalized_shape, self.eps, self.elementwise_affine = tuple(normalized_shape), eps, elementwise_affine
        dtype = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(Tensor(np.ones(self.normalized_shape, np.float32)).astype(dtype), name="weight") \
            if elementwise_affine else None
        self.bias = Parameter(Tensor(np.zeros(self.normalized_shape, np.float32)).astype(dtype), name="bias") \
            if elementwise_affine and bias else None

    def construct(self, input: Tensor) -> Tensor:
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class MaxPool2dExt(Cell):
    """2-D max pooling with PyTorch-style arguments (stride defaults to kernel_size)."""

    def __init__(self, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] | None = None,
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, input: Tensor) -> Tensor:
        return ops.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                              self.ceil_mode)
