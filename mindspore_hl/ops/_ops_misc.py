"""Less common ``ops`` functions: products with accumulation, ``*_ext`` and ``tensor_*`` aliases, box helpers,
1-D pooling, RMS norm, sequence reversal, ``intopk``.

The aliases are functions of their own (with MindSpore 2.10's parameter names) that call the one implementation.
"""

from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check, op, unwrap
from ._nn_loss import reduce_loss
from ._registry import lookup

__all__ = ["tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv", "tensor_mod", "tensor_pow",
           "tensor_exp", "tensor_expm1", "tensor_ge", "tensor_gt", "tensor_le", "tensor_lt", "tensor_muls",
           "tensor_range", "tensor_slice", "accumulate_n", "addbmm", "addmv", "addr", "mv", "vecdot", "batch_dot",
           "float_power_ext", "diff_ext", "isnan_ext", "mse_loss_ext", "baddbmm_ext", "einsum_ext", "rms_norm",
           "add_rms_norm", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "reverse_sequence",
           "shape_mul", "dyn_shape", "eps", "mixed_precision_cast", "intopk", "iou", "check_valid",
           "multilabel_margin_loss", "lrn"]


def tensor_add(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("add")(input, other)


def tensor_sub(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("sub")(input, other)


def tensor_mul(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("mul")(input, other)


def tensor_div(x: Tensor, y: Tensor | float) -> Tensor:
    return lookup("div")(x, y)


def tensor_floordiv(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("floor_div")(input, other)


def tensor_mod(x: Tensor, y: Tensor | float) -> Tensor:
    return lookup("floor_mod")(x, y)


def tensor_pow(input: Tensor, exponent: Tensor | float) -> Tensor:
    return lookup("pow")(input, exponent)


def tensor_exp(input: Tensor) -> Tensor:
    return lookup("exp")(input)


def tensor_expm1(input: Tensor) -> Tensor:
    return lookup("expm1")(input)


def tensor_ge(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("greater_equal")(input, other)


def tensor_gt(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("greater")(input, other)


def tensor_le(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("less_equal")(input, other)


def tensor_lt(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("less")(input, other)


def tensor_muls(input: Tensor, other: Tensor | float) -> Tensor:
    return lookup("mul")(input, other)


def tensor_range(start: Tensor | float, end: Tensor | float, step: Tensor | float) -> Tensor:
    return lookup("range")(start, end, step)


def tensor_slice(input: Tensor, begin: tuple[int, ...], size: int | tuple[int, ...]) -> Tensor:
    return lookup("slice")(input, begin, size)


def accumulate_n(x: Sequence[Tensor]) -> Tensor:
    """The elementwise sum of the Tensors in ``x``."""
    return lookup("addn")(x)


def float_power_ext(input: Tensor, exponent: Tensor | float) -> Tensor:
    return lookup("float_power")(input, exponent)


def diff_ext(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
             append: Tensor | None = None) -> Tensor:
    return lookup("diff")(input, n, dim, prepend, append)


def isnan_ext(tensor: Tensor) -> Tensor:
    return lookup("isnan")(tensor)


def mse_loss_ext(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    return lookup("mse_loss")(input, target, reduction)


def baddbmm_ext(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Tensor | float = 1,
                alpha: Tensor | float = 1) -> Tensor:
    return lookup("baddbmm")(input, batch1, batch2, beta, alpha)


def einsum_ext(equation: str, *operands: Tensor) -> Tensor:
    return lookup("einsum")(equation, *operands)


@op("addbmm")
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Tensor | float = 1,
           alpha: Tensor | float = 1) -> Tensor:
    """beta * input + alpha * sum_b(batch1[b] @ batch2[b])."""
    return beta * input + alpha * jnp.einsum("bij,bjk->ik", batch1, batch2)


@op("addmv")
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Tensor | float = 1, alpha: Tensor | float = 1) -> Tensor:
    """beta * input + alpha * (mat @ vec)."""
    return beta * input + alpha * jnp.matmul(mat, vec)  # type: ignore[operator]  # @op body: jax Arrays


@op("addr")
def addr(x: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Tensor | float = 1, alpha: Tensor | float = 1) -> Tensor:
    """beta * x + alpha * outer(vec1, vec2)."""
    return beta * x + alpha * jnp.outer(vec1, vec2)  # type: ignore[operator]  # @op body: jax Arrays


@op("mv")
def mv(mat: Tensor, vec: Tensor) -> Tensor:
    """Matrix-vector product."""
    check(mat.ndim == 2 and vec.ndim == 1, "mv", f"expected a 2-D mat and 1-D vec, got {mat.shape} and {vec.shape}.")
    return jnp.matmul(mat, vec)


@op("vecdot")
def vecdot(x: Tensor, y: Tensor | float, *, axis: int = -1) -> Tensor:
    """sum(conj(x) * y) along ``axis``."""
    return jnp.sum(jnp.conj(x) * y, axis=axis)


@op("batch_dot")
def batch_dot(x1: Tensor, x2: Tensor, axes: int | tuple[int, ...] | None = None) -> Tensor:
    """Per-sample tensordot of (B, ...) inputs over ``axes`` (default: the last axis of x1, x2's axis 1 or last)."""
    if axes is None:
        axes = (x1.ndim - 1, x2.ndim - 1 if x2.ndim == 2 else x2.ndim - 2)
    if isinstance(axes, int):
        axes = (axes, axes)
    a0, a1 = [a % n for a, n in zip(axes, (x1.ndim, x2.ndim))]
    out = jax.vmap(lambda a, b: jnp.tensordot(a, b, ((a0 - 1,), (a1 - 1,))))(x1, x2)
    return out[:, None] if out.ndim == 1 else out


@op("rms_norm")
def rms_norm(x: Tensor, gamma: Tensor, epsilon: float = 1e-06) -> tuple[Tensor, Tensor]:
    """(x / sqrt(mean(x^2 over gamma's axes) + eps) * gamma, rstd)."""
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = jax.lax.rsqrt(jnp.mean(jnp.square(x.astype(jnp.float32)), axes, keepdims=True) + epsilon)
    return (x * rstd).astype(x.dtype) * gamma, rstd


def add_rms_norm(x1: Tensor, x2: Tensor, gamma: Tensor, epsilon: float = 1e-06) -> tuple[Tensor, Tensor, Tensor]:
    """(rms_norm(x1 + x2), its rstd, x1 + x2)."""
    s = lookup("add")(x1, x2)
    y, rstd = rms_norm(s, gamma, epsilon)
    return y, rstd, s


@op("avg_pool1d")
def avg_pool1d(input_x: Tensor, kernel_size: int = 1, stride: int = 1,
               padding: int = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """Average over windows of the last axis of (N, C, L)."""
    check(not ceil_mode, "avg_pool1d", "ceil_mode=True is not supported.")
    x = jnp.pad(input_x, [(0, 0)] * (input_x.ndim - 1) + [(padding, padding)])
    s = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1,) * (x.ndim - 1) + (kernel_size,),
                              (1,) * (x.ndim - 1) + (stride,), "VALID")
    if count_include_pad or padding == 0:
        return (s / kernel_size).astype(input_x.dtype)
    ones = jnp.pad(jnp.ones(input_x.shape[-1], x.dtype), (padding, padding))
    n = jax.lax.reduce_window(ones, 0.0, jax.lax.add, (kernel_size,), (stride,), "VALID")
    return (s / n).astype(input_x.dtype)


def _adaptive_bounds(n_in, n_out):
    return [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


@op("adaptive_avg_pool1d")
def adaptive_avg_pool1d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Average of adaptive windows of the last axis (PyTorch's window bounds)."""
    b = _adaptive_bounds(input.shape[-1], output_size)
    return jnp.stack([jnp.mean(input[..., lo:hi], -1) for lo, hi in b], -1)


@op("adaptive_max_pool1d")
def adaptive_max_pool1d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Maximum of adaptive windows of the last axis."""
    b = _adaptive_bounds(input.shape[-1], output_size)
    return jnp.stack([jnp.max(input[..., lo:hi], -1) for lo, hi in b], -1)


@op("reverse_sequence")
def reverse_sequence(x: Tensor, seq_lengths: Tensor, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch entry ``b``."""
    n = x.shape[seq_dim]
    pos = jnp.arange(n)
    shape = [1] * x.ndim
    shape[seq_dim] = n
    lens_shape = [1] * x.ndim
    lens_shape[batch_dim] = x.shape[batch_dim]
    lens = seq_lengths.reshape(lens_shape)
    p = pos.reshape(shape)
    src = jnp.where(p < lens, lens - 1 - p, p)
    return jnp.take_along_axis(x, jnp.broadcast_to(src, x.shape).astype(jnp.int32), seq_dim)


def shape_mul(input_data: Sequence[int]) -> int:
    """The product of a shape tuple."""
    return int(np.prod(input_data, dtype=np.int64))


def dyn_shape(input_x: Tensor) -> Tensor:
    """The shape as an Int64 Tensor."""
    return Tensor(np.asarray(jnp.shape(unwrap(input_x)), np.int64))


@op("eps")
def eps(x: Tensor) -> Tensor:
    """A tensor like ``x`` filled with the machine epsilon of its float dtype."""
    check(jnp.issubdtype(x.dtype, jnp.floating), "eps", f"the input must be a float tensor, got {x.dtype}.", TypeError)
    return jnp.full_like(x, jnp.finfo(x.dtype).eps)


def mixed_precision_cast(dst_dtype: mstype.Type, x: Any) -> Any:
    """Cast the floating Tensors in ``x`` (a Tensor, or a tuple/list/dict of them) to ``dst_dtype``."""
    if isinstance(x, Tensor):
        # (ignore below) a Tensor's dtype always has a NumPy dtype (None only for String/Number)
        return lookup("cast")(x, dst_dtype) if mstype.to_ms_dtype(x.dtype).to_numpy().kind == "f" else x  # type: ignore[union-attr]
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x


@op("intopk")
def intopk(x1: Tensor, x2: Tensor, k: int) -> Tensor:
    """Whether each target ``x2[i]`` is among the ``k`` largest of ``x1[i]`` (ties count as in)."""
    target = jnp.take_along_axis(x1, x2[:, None].astype(jnp.int32), 1)
    return jnp.sum(x1 > target, axis=1) < k


def _area(b):
    return (b[..., 2] - b[..., 0] + 1) * (b[..., 3] - b[..., 1] + 1)


@op("iou")
def iou(anchor_boxes: Tensor, gt_boxes: Tensor, mode: str = "iou") -> Tensor:
    """(M, N) IoU (or IoF with mode='iof') of N anchor and M ground-truth (x1, y1, x2, y2) boxes (+1 pixel areas)."""
    check(mode in ("iou", "iof"), "iou", f"'mode' must be 'iou' or 'iof', but got {mode!r}.")
    a, g = anchor_boxes[None, :, :4], gt_boxes[:, None, :4]
    w = jnp.maximum(jnp.minimum(a[..., 2], g[..., 2]) - jnp.maximum(a[..., 0], g[..., 0]) + 1, 0)
    h = jnp.maximum(jnp.minimum(a[..., 3], g[..., 3]) - jnp.maximum(a[..., 1], g[..., 1]) + 1, 0)
    inter = w * h
    denom = _area(a) + _area(g) - inter if mode == "iou" else _area(g)
    return inter / denom


@op("check_valid")
def check_valid(bboxes: Tensor, img_metas: Tensor) -> Tensor:
    """Whether each (x1, y1, x2, y2) box lies inside the image (height, width, ratio) of ``img_metas``."""
    h, w = img_metas[0] * img_metas[2], img_metas[1] * img_metas[2]
    return (bboxes[:, 0] >= 0) & (bboxes[:, 1] >= 0) & (bboxes[:, 2] <= w - 1) & (bboxes[:, 3] <= h - 1)


@op("multilabel_margin_loss")
def multilabel_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """sum over targets j (until the first -1) and non-targets i of max(0, 1 - (x[j] - x[i])) / C."""
    c = input.shape[-1]
    valid = jnp.cumprod(target >= 0, axis=-1).astype(bool)
    is_target = jnp.zeros(input.shape, bool)
    idx = jnp.where(valid, target, 0)
    is_target = jax.vmap(lambda z, i, v: z.at[i].max(v))(is_target.reshape(-1, c), idx.reshape(-1, c),
                                                         valid.reshape(-1, c)).reshape(input.shape)
    xj = jnp.take_along_axis(input, idx, -1)
    margins = jnp.maximum(0, 1 - (xj[..., :, None] - input[..., None, :]))
    margins = margins * valid[..., :, None] * (~is_target)[..., None, :]
    loss = jnp.sum(margins, (-2, -1)) / c
    return reduce_loss(loss.astype(input.dtype), reduction, "multilabel_margin_loss")


@op("lrn")
def lrn(x: Tensor, depth_radius: int = 5, bias: Tensor | float = 1.0, alpha: Tensor | float = 1.0,
        beta: Tensor | float = 0.5, norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    """Local response normalisation over channels (axis 1): x / (bias + alpha * sum_sq) ** beta."""
    sq = jnp.square(x)
    c = x.shape[1]
    pad = jnp.pad(sq, [(0, 0), (depth_radius, depth_radius)] + [(0, 0)] * (x.ndim - 2))
    s = sum(pad[:, i:i + c] for i in range(2 * depth_radius + 1))
    return x / (bias + alpha * s) ** beta
