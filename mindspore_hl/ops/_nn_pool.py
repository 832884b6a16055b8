"""2-D pooling: ``max_pool2d``, ``avg_pool2d``, ``adaptive_avg_pool2d`` (NCHW outside, NHWC inside).

``reduce_window`` max pooling and its gradient (select-and-scatter) are slow on XLA:CPU, so max pools are
a maximum over the kernel's strided slices (with an explicit derivative), and average pools whose windows
tile the input exactly (kernel == stride, no padding, no dilation) are reshape + mean.
"""

from __future__ import annotations

import functools
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..common._device_arrays import default_platform
from ..common.tensor import Tensor
from ._core import check, op
from ._materialize import materialized
from ._nn_conv import explicit_pads, pair, pool_out_size, same_pads, to_nchw, to_nhwc
from ._nn_conv_gemm import _strided_views

__all__ = ["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d"]


def window_geometry(name: str, sizes: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
                    padding: int | Sequence[int], dilation: Sequence[int], ceil_mode: bool,
                    pad_mode: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[int, ...]]:
    """(explicit pads, pads including the ceil-mode extra, output sizes) for MindSpore's pad modes."""
    mode = str(pad_mode).lower()
    check(mode in ("same", "valid", "pad"), name, f"'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}.")
    check(all(k > 0 for k in kernel) and all(s > 0 for s in stride), name,
          f"'kernel_size' and 'stride' must be positive, but got {kernel} and {stride}.")
    if mode == "same":
        pads = tuple(same_pads(sizes[i], kernel[i], stride[i], dilation[i]) for i in range(2))
        return pads, pads, tuple(-(-sizes[i] // stride[i]) for i in range(2))
    pads = ((0, 0), (0, 0)) if mode == "valid" else explicit_pads(padding, name)
    for i in range(2):
        check(max(pads[i]) * 2 <= kernel[i], name, f"'padding' {pads[i]} must be at most half of 'kernel_size' "
              f"{kernel[i]}.")
    outs = tuple(pool_out_size(sizes[i], kernel[i], stride[i], dilation[i], *pads[i], ceil_mode) for i in range(2))
    check(all(o > 0 for o in outs), name, f"the input spatial size {tuple(sizes)} is too small for kernel_size "
          f"{kernel} (output would be {outs}).")
    full = []
    for i in range(2):
        need = (outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 - sizes[i] - pads[i][0]
        full.append((pads[i][0], max(need, 0)))
    return pads, tuple(full), outs


def _tiles(kernel, stride, dilation, full_pads, sizes, outs):
    """True when the windows tile (a cropped) input exactly, so reshape + reduce does the pooling."""
    return (kernel == stride and dilation == (1, 1) and all(lo == 0 for lo, _ in full_pads)
            and all(outs[i] * kernel[i] <= sizes[i] for i in range(2)))


def _lowest(dtype):
    return -jnp.inf if jnp.issubdtype(dtype, jnp.floating) else jnp.iinfo(dtype).min


def _window_taps(xp, kernel, stride, dilation, outs):
    """The kernel taps' strided views of the (padded) input, each shaped like the pooled output."""
    (kh, kw), (dh, dw) = kernel, dilation
    return _strided_views(xp, [(i * dh, j * dw) for i in range(kh) for j in range(kw)], outs, stride)


def _index_dtype(taps):
    """The first maximum's index type: int8 below 128 taps (the gradient loop read argmax's int64 slowly)."""
    return jnp.int8 if taps < 128 else jnp.int32


def _beats(b, a):
    """Whether ``b`` takes a window from ``a`` that it follows: greater, or NaN over a number."""
    return (b > a) | ((b != b) & (a == a))


def _max_and_first(stacked):
    """(maximum, index of its first occurrence) along axis 0, in one reduction; NaN counts as the maximum."""
    index_dtype = _index_dtype(stacked.shape[0])

    def pick(a, b):  # the reduction pairs values in any order, so an equal or NaN pair goes to the lower index
        (av, ai), (bv, bi) = a, b
        take = _beats(bv, av) | (((bv == av) | ((av != av) & (bv != bv))) & (bi < ai))
        return lax.select(take, bv, av), lax.select(take, bi, ai)

    index = lax.broadcasted_iota(index_dtype, stacked.shape, 0)
    init = (jnp.array(_lowest(stacked.dtype), stacked.dtype), jnp.array(stacked.shape[0], index_dtype))
    return lax.reduce((stacked, index), init, pick, (0,))


def _first_max_taps(t, first, kernel, stride, dilation, outs):
    """Each window's element of ``t`` at its first maximum's tap ``first``: a sum of the taps' disjoint selections."""
    taps = _window_taps(t, kernel, stride, dilation, outs)
    zero = jnp.zeros_like(taps[0])
    return functools.reduce(jnp.add, [jnp.where(first == k, tap, zero) for k, tap in enumerate(taps)])


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4))
def _window_max_and_first(xp, kernel, stride, dilation, outs):
    """Each window's maximum (in ``xp``'s dtype) and the index of its first maximum.

    One reduction over the stacked taps, except for windows that overlap in float32 on the CPU, which take a
    running comparison (``_running_max_and_first``). Low-precision taps are compared in float32 (exactly
    converted). bfloat16 taps are cut from the 16-bit patterns and widened by a shift: XLA:CPU's conversions
    inside the reduction's loop were scalar code (bfloat16 LeNet5 steps, ``step_ab`` on 2 cores: b32 1.20 ->
    1.13 ms, b256 6.73 -> 6.26 ms; ResNet50 unchanged). Its derivative is stated (the first maximum's tangent),
    so derivatives of any order see the same selection: JAX cannot differentiate a reduction that carries an
    integer index twice.
    """
    if xp.dtype == jnp.bfloat16:
        bits = jnp.stack(_window_taps(lax.bitcast_convert_type(xp, jnp.uint16), kernel, stride, dilation, outs))
        out, first = _max_and_first(lax.bitcast_convert_type(bits.astype(jnp.uint32) << 16, jnp.float32))
    elif (xp.dtype != jnp.float16 and default_platform() == "cpu"
          and not _tiles(kernel, stride, dilation, ((0, 0), (0, 0)), xp.shape[1:3], outs)):
        out, first = _running_max_and_first(xp, kernel, stride, dilation, outs)
    else:
        stacked = jnp.stack(_window_taps(xp, kernel, stride, dilation, outs), axis=0)
        out, first = _max_and_first(stacked.astype(jnp.float32) if xp.dtype == jnp.float16 else stacked)
    return out.astype(xp.dtype), first


def _running_max_and_first(xp, kernel, stride, dilation, outs):
    """``_window_max_and_first`` as a running comparison over the taps, each read where it lies.

    XLA:CPU copied each tap of the stacked form into a buffer of its own before reducing (ResNet50's 3x3 stem
    pool, float32 on one core: 17 ms of a 1.24 s step, 3.7 ms this way); ResNet50 224x224 float32 steps,
    ``step_ab`` in one process: 1232 -> 1217 ms on one core, 673 -> 666 ms on two. Where windows tile the input
    (LeNet5's 2x2 pools) the stacked form stays: this one made LeNet5 b32 0.78 -> 0.95 ms. bfloat16 taps
    already move as 16-bit patterns there, and gained nothing this way.

    A later tap takes the window only when it is greater, or NaN over a number, so ties keep the first maximum,
    as in the reduction. Both results come out of a conditional (``materialized``): behind an
    ``optimization_barrier`` XLA:CPU fused the comparisons into the gradient's loop and made them again there
    (the step got slower).
    """
    taps = _window_taps(xp, kernel, stride, dilation, outs)
    out = taps[0]
    first = jnp.zeros(out.shape, _index_dtype(len(taps)))
    for k in range(1, len(taps)):
        take = _beats(taps[k], out)
        out, first = jnp.where(take, taps[k], out), jnp.where(take, jnp.asarray(k, first.dtype), first)
    return materialized((out, first), xp)


@_window_max_and_first.defjvp
def _window_max_and_first_jvp(kernel, stride, dilation, outs, primals, tangents):
    (xp,), (txp,) = primals, tangents
    out, first = _window_max_and_first(xp, kernel, stride, dilation, outs)
    tangent = _first_max_taps(txp, first, kernel, stride, dilation, outs)
    return (out, first), (tangent, np.zeros(first.shape, jax.dtypes.float0))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4))
def _window_max(xp, kernel, stride, dilation, outs):
    return functools.reduce(jnp.maximum, _window_taps(xp, kernel, stride, dilation, outs))


@_window_max.defjvp
def _window_max_jvp(kernel, stride, dilation, outs, primals, tangents):
    # The first maximum in the window (row-major order) takes the whole gradient, as in MindSpore (checked
    # against 2.10: tests/ops/test_ops_pool_grad.py). Written out, the derivative compares each tap with the
    # pooled maximum once; autodiff of the chain of maximums instead re-evaluated the chain for every tap
    # (ResNet50's 3x3 stem pool: 71 ms of a 1.24 s step).
    (xp,), (txp,) = primals, tangents
    # The winning tap's index comes from a reduction, which XLA materialises once; the same selection made
    # of elementwise comparisons was fused into every consumer of the gradient and recomputed there
    # (LeNet5 b256 step: 38 ms instead of 11; a running comparison still 13% slower, ResNet50 11%). The taps
    # are stacked on a new leading axis: stacked on a new last axis (..., 9) they cost ResNet50 224x224 5% of
    # its step, because XLA writes such an array slowly. The same reduction gives the maximum, which its
    # consumers then read instead of each recomputing the window from the (4x larger) input, and an int8 index
    # rather than argmax's int64, which the gradient loop read slowly (LeNet5 b256 15.9 -> 12.9 ms per step).
    # Low-precision taps are compared in float32 (``_window_max_and_first``), because XLA:CPU emulates each
    # bfloat16 comparison in the reduction with conversions: LeNet5's two pools took 10.6 ms of a bfloat16 step
    # on one core, against 0.3 ms in float32.
    low = txp.dtype in (jnp.bfloat16, jnp.float16)
    out, first = _window_max_and_first(xp, kernel, stride, dilation, outs)
    # The tangent is a sum of disjoint selections, not a chain of wheres: the chain's transpose (the backward)
    # threaded a "not yet taken" mask through every tap, and XLA re-evaluated that chain inside each tap's padded
    # sum. Low-precision tangents are summed in float32: the selection is exact either way, but a bfloat16 sum
    # rounds after every add, conversions that XLA:CPU re-emits per tap and cannot vectorise (bfloat16 ResNet50
    # 224x224 on one core: the stem pool's backward 302 -> 66 ms). Both changes together, bfloat16 training steps
    # on two cores: ResNet50 224x224 1.49 -> 1.36 s, LeNet5 b256 31.0 -> 16.5 ms; float32 unchanged.
    #
    # Where the windows tile the input (LeNet's 2x2 pools at stride 2), the taps are the axes of a reshape
    # instead of strided slices, so the backward is a broadcast of the cotangent rather than a sum of four
    # interior-padded arrays. XLA fused the cotangent's producers (the next layer's input gradient, reordered)
    # into this loop, and behind the four pads that loop was slower (LeNet5 b256 step on one core: 22.3 -> 20.4
    # ms). A narrow convolution's input gradient now reaches it in a buffer of its own on the CPU
    # (``_materialize``).
    tangent_in = txp.astype(jnp.float32) if low else txp
    if _tiles(kernel, stride, dilation, ((0, 0), (0, 0)), xp.shape[1:3], outs):
        (oh, ow), (kh, kw) = outs, kernel
        blocks = tangent_in[:, :oh * kh, :ow * kw].reshape(xp.shape[0], oh, kh, ow, kw, xp.shape[3])
        tap = lax.broadcasted_iota(first.dtype, (1, 1, kh, 1, kw, 1), 2) * kw + lax.broadcasted_iota(
            first.dtype, (1, 1, kh, 1, kw, 1), 4)
        tangent = jnp.where(first[:, :, None, :, None, :] == tap, blocks, 0).sum(axis=(2, 4))
    else:
        tangent = _first_max_taps(tangent_in, first, kernel, stride, dilation, outs)
        if low and default_platform() == "cpu":
            # Each tap's selection reads the cotangent; a low-precision cotangent's producers (ResNet50's stem:
            # two input gradients rounded to bfloat16, converted and added) were fused into all nine and
            # recomputed there. Computed once (``_materialize``), bfloat16 ResNet50 224x224 trains 1029 -> 979
            # ms per step on one core and 601 -> 586 ms on two, 32x32 83.2 -> 81.7 ms; float32 unchanged (1244
            # vs 1241 ms), so it keeps its fused form.
            tangent = materialized(tangent, out)
    return out, tangent.astype(txp.dtype)


def max_pool_nhwc(x: jax.Array, kernel: tuple[int, ...], stride: tuple[int, ...],
                  full_pads: tuple[tuple[int, int], ...], dilation: tuple[int, ...],
                  outs: tuple[int, ...]) -> jax.Array:
    """Max pooling of an NHWC array (the one internal max pool).

    The elementwise maximum over the kernel's strided slices of the padded input, with an explicit
    derivative (the first of tied maxima takes the gradient, as in MindSpore). On XLA:CPU this is faster
    than ``reduce_window`` (whose gradient is select-and-scatter) and than reshape + max for windows that
    tile the input (forward 2-3x, forward + backward ~1.2x on LeNet's pools), and it supports dilation.
    """
    if any(p for pair in full_pads for p in pair):
        x = jnp.pad(x, ((0, 0), *full_pads, (0, 0)), constant_values=_lowest(x.dtype))
    return _window_max(x, tuple(kernel), tuple(stride), tuple(dilation), tuple(outs))


def _argmax_nhwc(x, kernel, stride, full_pads, dilation):
    """Flat (h * W + w) index of each window's first maximum."""
    h, w = x.shape[1:3]
    idx = jnp.broadcast_to(jnp.arange(h * w, dtype=jnp.int64).reshape(1, h, w, 1), x.shape)

    def pick(a, b):
        (av, ai), (bv, bi) = a, b
        take = (bv > av) | ((bv == av) & (bi < ai) & (bi >= 0)) | (ai < 0)
        return jnp.where(take, bv, av), jnp.where(take, bi, ai)

    init = (jnp.array(_lowest(x.dtype), x.dtype), jnp.array(-1, jnp.int64))
    _, out = lax.reduce_window((lax.stop_gradient(x), idx), init, pick, (1, *kernel, 1), (1, *stride, 1),
                               ((0, 0), *full_pads, (0, 0)), window_dilation=(1, *dilation, 1))
    return out


def _pool_args(name, input, kernel_size, stride, dilation, data_format):
    """(spatial sizes, kernel, stride, dilation) after validation."""
    check(data_format in ("NCHW", "NHWC"), name, f"'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}.")
    check(input.ndim == 4, name, f"'input' must be 4-D ({data_format}), but got shape {list(input.shape)}.")
    kernel = pair(kernel_size, name, "kernel_size")
    stride = kernel if stride is None or stride == () else pair(stride, name, "stride")
    sizes = tuple(input.shape[1:3] if data_format == "NHWC" else input.shape[2:])
    return sizes, kernel, stride, pair(dilation, name, "dilation")


@op("max_pool2d")
def max_pool2d(x: Tensor, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
               padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
               return_indices: bool = False, ceil_mode: bool = False, *, pad_mode: str = "pad",
               data_format: str = "NCHW") -> Tensor:
    """2-D max pooling (MindSpore ``ops.max_pool2d``).

    Args:
        x: (N, C, H, W). kernel_size, stride (default: kernel_size), dilation: int or 2 ints.
        padding: int or (pad_h, pad_w), implicit -inf padding on both sides (at most half the kernel).
        return_indices: also return the flat (h * W + w) index of each maximum.
        ceil_mode: round the output size up (the last window must start inside the input or left padding).
        pad_mode: 'pad' (use ``padding``), 'same' (output ceil(H/stride)) or 'valid'.
    Returns:
        (N, C, H_out, W_out), and the int64 indices when ``return_indices``.
    """
    sizes, kernel, stride, dilation = _pool_args("max_pool2d", x, kernel_size, stride, dilation, data_format)
    _, full, outs = window_geometry("max_pool2d", sizes, kernel, stride, padding, dilation, ceil_mode, pad_mode)
    return _max_pool_core(x, kernel, stride, full, dilation, outs, data_format == "NHWC", bool(return_indices))


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5, 6, 7))
def _max_pool_core(x, kernel, stride, full, dilation, outs, nhwc, return_indices):
    xh = x if nhwc else to_nhwc(x)
    back = (lambda a: a) if nhwc else to_nchw
    y = back(max_pool_nhwc(xh, kernel, stride, full, dilation, outs))
    if return_indices:
        return y, back(_argmax_nhwc(xh, kernel, stride, full, dilation))
    return y


def _counts(size, kernel, stride, lo, out, limit_lo, limit_hi):
    """Per-output window sizes along one dim, clipped to [limit_lo, limit_hi) in input coordinates."""
    start = np.arange(out) * stride - lo
    return np.minimum(start + kernel, limit_hi) - np.maximum(start, limit_lo)


@op("avg_pool2d")
def avg_pool2d(input_x: Tensor, kernel_size: int | tuple[int, ...] = 1, stride: int | tuple[int, ...] = 1,
               padding: int | tuple[int, ...] = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None, *, pad_mode: str = "pad", data_format: str = "NCHW") -> Tensor:
    """2-D average pooling (MindSpore ``ops.avg_pool2d``).

    Args:
        input_x: (N, C, H, W). kernel_size, stride: int or 2 ints.
        padding: int, (pad_h, pad_w) or (top, bottom, left, right) zero padding (``pad_mode='pad'``).
        count_include_pad: divide by the window size including explicit padding (never the ceil-mode extra).
        divisor_override: divide by this instead. pad_mode: 'pad', 'same' (padding never counted) or 'valid'.
    Returns:
        (N, C, H_out, W_out).
    """
    name = "avg_pool2d"
    sizes, kernel, stride, _ = _pool_args(name, input_x, kernel_size, stride, 1, data_format)
    pads, full, outs = window_geometry(name, sizes, kernel, stride, padding, (1, 1), ceil_mode, pad_mode)
    include = bool(count_include_pad) and str(pad_mode).lower() == "pad"
    return _avg_pool_core(input_x, kernel, stride, pads, full, outs, include, divisor_override or None,
                          data_format == "NHWC")


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5, 6, 7, 8))
def _avg_pool_core(x, kernel, stride, pads, full, outs, include, divisor, nhwc):
    x = x if nhwc else to_nhwc(x)
    sizes = x.shape[1:3]
    if _tiles(kernel, stride, (1, 1), full, sizes, outs) and divisor is None:
        (oh, ow), (kh, kw), (n, c) = outs, kernel, (x.shape[0], x.shape[3])
        y = x[:, :oh * kh, :ow * kw, :].reshape(n, oh, kh, ow, kw, c).mean(axis=(2, 4))
    else:
        s = lax.reduce_window(x, 0, lax.add, (1, *kernel, 1), (1, *stride, 1), ((0, 0), *full, (0, 0)))
        if divisor:
            y = s / jnp.asarray(divisor, x.dtype)
        else:
            cnt = [_counts(sizes[i], kernel[i], stride[i], full[i][0], outs[i],
                           -pads[i][0] if include else 0, sizes[i] + (pads[i][1] if include else 0))
                   for i in range(2)]
            y = s / jnp.asarray(np.outer(*cnt)[None, :, :, None], x.dtype)
    return y if nhwc else to_nchw(y)


def _adaptive_matrix(size, out):
    """(out, size) averaging matrix of adaptive pooling: window i is [floor(i*size/out), ceil((i+1)*size/out))."""
    m = np.zeros((out, size), np.float64)
    for i in range(out):
        lo, hi = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, lo:hi] = 1.0 / (hi - lo)
    return m


@op("adaptive_avg_pool2d")
def adaptive_avg_pool2d(input: Tensor, output_size: int | tuple[int, ...]) -> Tensor:
    """Adaptive 2-D average pooling to ``output_size`` (int, or 2 ints / None to keep that size).

    Args:
        input: (N, C, H, W) or (C, H, W).
    Returns:
        (..., out_h, out_w).
    """
    name = "adaptive_avg_pool2d"
    check(input.ndim in (3, 4), name, f"'input' must be 3-D or 4-D, but got shape {list(input.shape)}.")
    h, w = input.shape[-2:]
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    check(len(output_size) == 2, name, f"'output_size' must be an int or 2 values, but got {output_size!r}.")
    oh, ow = (h if output_size[0] is None else output_size[0]), (w if output_size[1] is None else output_size[1])
    check(oh > 0 and ow > 0, name, f"'output_size' must be positive, but got {output_size!r}.")
    return _adaptive_core(input, oh, ow)


@functools.partial(jax.jit, static_argnums=(1, 2))
def _adaptive_core(x, oh, ow):
    h, w = x.shape[-2:]
    if (oh, ow) == (1, 1):
        return jnp.mean(x, axis=(-2, -1), keepdims=True)
    mh = jnp.asarray(_adaptive_matrix(h, oh), x.dtype)
    mw = jnp.asarray(_adaptive_matrix(w, ow), x.dtype)
    return jnp.einsum("...hw,ph,qw->...pq", x, mh, mw)
