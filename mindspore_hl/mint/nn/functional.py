"""``mindspore.mint.nn.functional``: PyTorch-style neural-network functions over ``mindspore_hl.ops``.

Each function adapts its arguments (PyTorch keyword names and defaults, as MindSpore 2.10's mint) and calls the one
functional op; names whose ops do not exist yet are not exported.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ... import ops as _ops
from ...ops._nn_resize import upsample_bicubic2d
from .._functions import _op

if TYPE_CHECKING:
    from ...common import dtype as mstype
    from ...common.tensor import Tensor

_TARGETS: dict[str, tuple[str, ...]] = {}


def _uses(*targets):
    def deco(fn):
        _TARGETS[fn.__name__] = targets
        return fn
    return deco


def _pair(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


@_uses("relu")
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(input, 0)."""
    return _op("relu")(input)


@_uses("relu")
def relu_(input: Tensor) -> Tensor:
    """max(input, 0) (returned; Tensors here are immutable values)."""
    return _op("relu")(input)


@_uses("relu6")
def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(input, 0), 6)."""
    return _op("relu6")(input)


@_uses("sigmoid")
def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-input))."""
    return _op("sigmoid")(input)


@_uses("sigmoid")
def sigmoid_(input: Tensor) -> Tensor:
    """1 / (1 + exp(-input)) (returned)."""
    return _op("sigmoid")(input)


@_uses("tanh")
def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return _op("tanh")(input)


@_uses("silu")
def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """input * sigmoid(input)."""
    return _op("silu")(input)


@_uses("gelu")
def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """GELU (exact erf form, or ``approximate='tanh'``)."""
    return _op("gelu")(input, approximate)


@_uses("elu")
def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """input if input > 0 else alpha * (exp(input) - 1)."""
    return _op("elu")(input, alpha)


@_uses("elu")
def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """ELU (returned)."""
    return _op("elu")(input, alpha)


@_uses("leaky_relu")
def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """input if input > 0 else negative_slope * input."""
    return _op("leaky_relu")(input, negative_slope)


@_uses("hardtanh")
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """clip(input, min_val, max_val)."""
    return _op("hardtanh")(input, min_val, max_val)


@_uses("hardtanh")
def hardtanh_(input: Tensor, min_val: float = -1, max_val: float = 1) -> Tensor:
    """clip(input, min_val, max_val) (returned)."""
    return _op("hardtanh")(input, min_val, max_val)


@_uses("threshold")
def threshold(input: Tensor, threshold: float, value: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """input if input > threshold else value."""
    return _op("threshold")(input, threshold, value)


@_uses("threshold")
def threshold_(input: Tensor, threshold: float, value: Tensor) -> Tensor:
    """input if input > threshold else value (returned)."""
    return _op("threshold")(input, threshold, value)


@_uses("glu")
def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b) for the halves a, b of ``input`` along ``dim``."""
    return _op("glu")(input, dim)


@_uses("logsigmoid")
def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(input))."""
    return _op("logsigmoid")(input)


@_uses("prelu")
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """input if input > 0 else weight * input (weight per channel, dim 1)."""
    return _op("prelu")(input, weight)


@_uses("softmax")
def softmax(input: Tensor, dim: int | None = None, dtype: mstype.Type | None = None) -> Tensor:
    """Softmax along ``dim`` (the last dim by default)."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("softmax")(x, -1 if dim is None else dim)


@_uses("log_softmax")
def log_softmax(input: Tensor, dim: int | None = None, *, dtype: mstype.Type | None = None) -> Tensor:
    """Log-softmax along ``dim`` (the last dim by default)."""
    x = input if dtype is None else _op("cast")(input, dtype)
    return _op("log_softmax")(x, -1 if dim is None else dim)


@_uses("dense")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias."""
    return _op("dense")(input, weight, bias)


@_uses("l2_normalize", "vector_norm")
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    n = _op("vector_norm")(input, p, dim, True)
    return _op("div")(input, _op("clamp")(n, eps, None))


@_uses("flatten")
def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim``..``end_dim``."""
    return _op("flatten")(input, start_dim=start_dim, end_dim=end_dim)


@_uses("one_hot")
def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """One-hot Int64 encoding (``num_classes`` = max + 1 when -1)."""
    n = int(_op("max")(tensor)) + 1 if num_classes == -1 else num_classes
    return _op("one_hot")(tensor, n, 1, 0, -1)


@_uses("pad")
def pad(input: Tensor, pad: tuple[int, ...] | list[int], mode: str = "constant", value: Tensor | None = None) -> Tensor:
    """Pad the last dims by ``pad`` (pairs from the last dim backwards)."""
    return _op("pad")(input, pad, mode, value)


@_uses("dropout")
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero elements with probability ``p`` and scale the rest by 1 / (1 - p) (identity unless training)."""
    return _op("dropout")(input, p, training)


@_uses("dropout2d")
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels with probability ``p`` (identity unless training)."""
    return _op("dropout2d")(input, p, training)


@_uses("embedding")
def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Tensor:
    """Rows of ``weight`` at the indices ``input``."""
    return _op("embedding")(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)


@_uses("conv1d")
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1, groups: int = 1) -> Tensor:
    """1-D convolution (``padding`` an int, 'valid' or 'same')."""
    mode = padding if isinstance(padding, str) else "pad"
    return _op("conv1d")(input, weight, bias, stride, mode, 0 if isinstance(padding, str) else padding, dilation,
                         groups)


@_uses("conv2d")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1, groups: int = 1) -> Tensor:
    """2-D convolution (``padding`` an int, a pair, 'valid' or 'same')."""
    mode = padding if isinstance(padding, str) else "pad"
    return _op("conv2d")(input, weight, bias, stride, mode, 0 if isinstance(padding, str) else padding, dilation,
                         groups)


@_uses("conv3d")
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] | str = 0, dilation: int | tuple[int, ...] = 1, groups: int = 1) -> Tensor:
    """3-D convolution."""
    mode = padding if isinstance(padding, str) else "pad"
    return _op("conv3d")(input, weight, bias, stride, mode, 0 if isinstance(padding, str) else padding, dilation,
                         groups)


@_uses("conv_transpose2d")
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | tuple[int, ...] = 1,
                     padding: int | tuple[int, ...] = 0, output_padding: int | tuple[int, ...] = 0,
                     groups: int = 1, dilation: int | tuple[int, ...] = 1) -> Tensor:
    """2-D transposed convolution."""
    return _op("conv_transpose2d")(input, weight, bias, stride, padding, output_padding, groups, dilation)


@_uses("avg_pool2d")
def avg_pool2d(input: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """2-D average pooling (``stride`` defaults to ``kernel_size``)."""
    return _op("avg_pool2d")(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                             count_include_pad, divisor_override)


@_uses("max_pool2d")
def max_pool2d(input: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor:
    """2-D max pooling (``stride`` defaults to ``kernel_size``)."""
    return _op("max_pool2d")(input, kernel_size, kernel_size if stride is None else stride, padding, dilation,
                             return_indices, ceil_mode)


@_uses("adaptive_avg_pool2d")
def adaptive_avg_pool2d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """2-D adaptive average pooling to ``output_size``."""
    return _op("adaptive_avg_pool2d")(input, output_size)


@_uses("batch_norm")
def batch_norm(input: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    """Batch normalisation over dim 1."""
    return _op("batch_norm")(input, running_mean, running_var, weight, bias, training, momentum, eps)


@_uses("group_norm")
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Group normalisation."""
    return _op("group_norm")(input, num_groups, weight, bias, eps)


@_uses("layer_norm")
def layer_norm(input: Tensor, normalized_shape: int | tuple[int, ...] | list[int], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """Layer normalisation over the trailing ``normalized_shape`` dims."""
    return _op("layer_norm")(input, normalized_shape, weight, bias, eps)


@_uses("mse_loss")
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean squared error."""
    return _op("mse_loss")(input, target, reduction)


@_uses("binary_cross_entropy")
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of probabilities."""
    return _op("binary_cross_entropy")(input, target, weight, reduction)


@_uses("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy of logits."""
    return _op("binary_cross_entropy_with_logits")(input, target, weight, pos_weight, reduction)


@_uses("cross_entropy")
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of logits against class indices or probabilities."""
    return _op("cross_entropy")(input, target, weight, ignore_index, reduction, label_smoothing)


@_uses("nll_loss")
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
             reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of log-probabilities."""
    return _op("nll_loss")(input, target, weight, ignore_index, reduction)


@_uses("kl_div")
def kl_div(input: Tensor, target: Tensor, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence (``input`` log-probabilities)."""
    return _op("kl_div")(input, target, reduction, log_target)


@_uses("soft_margin_loss")
def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """mean(log(1 + exp(-target * input)))."""
    return _op("soft_margin_loss")(input, target, reduction)


@_uses("cosine_embedding_loss")
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """1 - cos for target 1, max(0, cos - margin) for target -1."""
    return _op("cosine_embedding_loss")(input1, input2, target, margin, reduction)


@_uses("pixel_shuffle")
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Rearrange (C * r^2, H, W) into (C, H * r, W * r)."""
    return _op("pixel_shuffle")(input, upscale_factor)


@_uses("interpolate")
def interpolate(input: Tensor, size: int | tuple[int, ...] | None = None,
                scale_factor: float | tuple[float, ...] | None = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Resize by ``size`` or ``scale_factor``; 'bicubic' is PyTorch's (Keys a = -0.75), as mint's."""
    if mode == "bicubic":
        return _bicubic(input, size, scale_factor, bool(align_corners), recompute_scale_factor)
    return _op("interpolate")(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def _bicubic(input: Tensor, size: int | tuple[int, ...] | None, scale_factor: float | tuple[float, ...] | None,
             align_corners: bool, recompute_scale_factor: bool | None) -> Tensor:
    # mint's bicubic is PyTorch's UpsampleBicubic2D; ops.interpolate's is MindSpore's ResizeBicubic (TensorFlow's
    # kernel), which weighs the taps differently.
    if input.ndim != 4:
        raise ValueError(f"For 'interpolate', mode 'bicubic' needs a 4-D input (N, C, H, W), but got shape "
                         f"{tuple(input.shape)}.")
    if (size is None) == (scale_factor is None):
        raise ValueError("For 'interpolate', exactly one of 'size' and 'scale_factor' must be set.")
    scales = None
    if size is not None:
        out = (size, size) if isinstance(size, int) else tuple(size)
    else:
        sf = cast("float | tuple[float, ...]", scale_factor)  # set: size is None (checked above)
        factors = (sf,) * 2 if isinstance(sf, (int, float)) else tuple(sf)
        out = tuple(int(n * float(f)) for n, f in zip(input.shape[2:], factors))
        scales = None if recompute_scale_factor else tuple(float(f) for f in factors)
    # out / scales: 2 entries for (H, W) when size / scale_factor has 2 (an int is used for both)
    return upsample_bicubic2d(input, out, scales, align_corners)  # type: ignore[arg-type]


@_uses("interpolate")
def upsample(input: Tensor, size: int | tuple[int, ...] | None = None,
             scale_factor: float | tuple[float, ...] | None = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """Resize by ``size`` or ``scale_factor`` (``interpolate``)."""
    return interpolate(input, size, scale_factor, mode, align_corners)


@_uses("unfold")
def unfold(input: Tensor, kernel_size: int | tuple[int, ...], dilation: int | tuple[int, ...] = 1,
           padding: int | tuple[int, ...] = 0, stride: int | tuple[int, ...] = 1) -> Tensor:
    """Sliding local blocks (im2col)."""
    return _op("unfold")(input, kernel_size, dilation, padding, stride)


@_uses("fold")
def fold(input: Tensor, output_size: int | tuple[int, ...], kernel_size: int | tuple[int, ...],
         dilation: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] = 0,
         stride: int | tuple[int, ...] = 1) -> Tensor:
    """Combine sliding local blocks (col2im)."""
    return _op("fold")(input, output_size, kernel_size, dilation, padding, stride)


@_uses("grid_sample")
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` at the normalised coordinates ``grid``."""
    return _op("grid_sample")(input, grid, mode, padding_mode, bool(align_corners))


__all__ = [n for n, t in _TARGETS.items() if all(hasattr(_ops, x) for x in t)]
for _n in [n for n in _TARGETS if n not in __all__]:
    del globals()[_n]

from ._pool_ext import *  # noqa: E402,F401,F403  (1-D / 3-D pooling, adaptive max pooling, max_unpool2d)
from ._pool_ext import __all__ as _pool_ext_all  # noqa: E402

__all__ += _pool_ext_all
