"""MaxPool2d / AvgPool2d / AdaptiveAvgPool2d against window sums and maxima over kernel offsets written here."""
import math

import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def geometry(size, k, s, d, pad_mode, padding, ceil_mode):
    """(pad_lo, explicit pad_hi, out) for one dim, from MindSpore's formulas."""
    if pad_mode == "same":
        out = math.ceil(size / s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        return total // 2, total - total // 2, out
    lo = hi = padding if pad_mode == "pad" else 0
    span = (size + lo + hi - d * (k - 1) - 1) / s
    out = (math.ceil(span) if ceil_mode else math.floor(span)) + 1
    if ceil_mode and (out - 1) * s >= size + lo:
        out -= 1
    return lo, hi, out


def windows(x, k, s, d, lo, outs, fill):
    """The input value under kernel offset (i, j) of every output window: a list over offsets."""
    (kh, kw), (sh, sw), (dh, dw), (th, tw), (oh, ow) = k, s, d, lo, outs
    need_h, need_w = (oh - 1) * sh + dh * (kh - 1) + 1, (ow - 1) * sw + dw * (kw - 1) + 1
    h, w = x.shape[2:]
    xp = jnp.pad(x, ((0, 0), (0, 0), (th, max(need_h - h - th, 0)), (tw, max(need_w - w - tw, 0))),
                 constant_values=fill)
    return [xp[:, :, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw]
            for i in range(kh) for j in range(kw)]


def ref_max_pool(x, k, s, d, lo, outs):
    out = None
    for win in windows(x, k, s, d, lo, outs, -jnp.inf):
        out = win if out is None else jnp.maximum(out, win)
    return out


def ref_avg_pool(x, k, s, lo, hi_explicit, outs, include_pad, divisor=None):
    total = sum(windows(x, k, s, (1, 1), lo, outs, 0.0))
    if divisor:
        return total / divisor
    h, w = x.shape[2:]
    counts = np.zeros(outs)
    for a in range(outs[0]):
        for b in range(outs[1]):
            rows = [r for r in range(a * s[0] - lo[0], a * s[0] - lo[0] + k[0])
                    if (-lo[0] if include_pad else 0) <= r < h + (hi_explicit[0] if include_pad else 0)]
            cols = [c for c in range(b * s[1] - lo[1], b * s[1] - lo[1] + k[1])
                    if (-lo[1] if include_pad else 0) <= c < w + (hi_explicit[1] if include_pad else 0)]
            counts[a, b] = len(rows) * len(cols)
    return total / counts


MAX_CASES = {
    "lenet_k2_s2": (dict(kernel_size=2, stride=2), (2, 3, 8, 8)),
    "default_stride_1": (dict(kernel_size=3), (1, 2, 6, 5)),
    "resnet_stem_same": (dict(kernel_size=3, stride=2, pad_mode="same"), (2, 2, 9, 10)),
    "pad_ceil": (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True), (1, 2, 8, 7)),
    "dilation": (dict(kernel_size=2, stride=1, pad_mode="pad", dilation=2), (1, 1, 6, 6)),
    "tiles_with_crop": (dict(kernel_size=2, stride=2), (1, 2, 7, 5)),
    "rect_kernel": (dict(kernel_size=(2, 3), stride=(2, 3)), (2, 1, 6, 9)),
}


def _max_geometry(kw, shape):
    k, s, d = _pair(kw["kernel_size"]), _pair(kw.get("stride", 1)), _pair(kw.get("dilation", 1))
    g = [geometry(shape[2 + i], k[i], s[i], d[i], kw.get("pad_mode", "valid"), kw.get("padding", 0),
                  kw.get("ceil_mode", False)) for i in range(2)]
    return k, s, d, (g[0][0], g[1][0]), (g[0][1], g[1][1]), (g[0][2], g[1][2])


@pytest.mark.parametrize("case", list(MAX_CASES))
def test_max_pool2d(mode, case):
    kw, shape = MAX_CASES[case]
    k, s, d, lo, _, outs = _max_geometry(kw, shape)
    run_layer_test(lambda: nn.MaxPool2d(**kw), [_x(*shape)], expected_shape=shape[:2] + outs,
                   reference=lambda p, x: ref_max_pool(x, k, s, d, lo, outs), bad_input=_x(*shape[1:3]),
                   finite_diff=True)


def test_max_pool2d_unbatched_and_indices(mode):
    x = _x(2, 3, 7, 6)
    pool = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)
    out, idx = pool(Tensor(x))
    outs = _max_geometry(dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), x.shape)[-1]
    assert out.shape == (2, 3) + outs and idx.shape == out.shape
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(2, 3, -1), 2).reshape(out.shape),
                                  out.asnumpy())
    for a in range(outs[0]):  # first maximum of each window, explicit loop
        for b in range(outs[1]):
            r0, c0 = a * 2 - 1, b * 2 - 1
            win = [(r, c) for r in range(max(r0, 0), min(r0 + 3, 7)) for c in range(max(c0, 0), min(c0 + 3, 6))]
            vals = np.array([x[0, 0, r, c] for r, c in win])
            r, c = win[int(np.argmax(vals))]
            assert idx.asnumpy()[0, 0, a, b] == r * 6 + c
    unbatched = nn.MaxPool2d(2, 2)(Tensor(x[0]))
    np.testing.assert_array_equal(unbatched.asnumpy(), nn.MaxPool2d(2, 2)(Tensor(x)).asnumpy()[0])


def test_max_pool2d_repr_and_bad_arguments():
    assert repr(nn.MaxPool2d(kernel_size=2, stride=2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    assert nn.MaxPool2d(3).stride == 1
    with pytest.raises(ValueError, match="'padding' must be 0 when pad_mode is 'same'"):
        nn.MaxPool2d(3, 2, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="'pad_mode' must be one of"):
        nn.MaxPool2d(3, pad_mode="full")
    with pytest.raises(ValueError, match="too small"):
        nn.MaxPool2d(5)(Tensor(_x(1, 1, 3, 3)))


AVG_CASES = {
    "k2_s2_tiles": (dict(kernel_size=2, stride=2), (2, 3, 8, 6)),
    "same_excludes_padding": (dict(kernel_size=3, stride=2, pad_mode="same"), (1, 2, 7, 8)),
    "pad_ceil_count_pad": (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True), (1, 2, 8, 7)),
    "pad_ceil_no_count_pad": (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True,
                                   count_include_pad=False), (1, 2, 8, 7)),
    "divisor_override": (dict(kernel_size=2, stride=1, divisor_override=3), (1, 2, 4, 5)),
    "pad4": (dict(kernel_size=(3, 2), stride=1, pad_mode="pad", padding=(1, 0, 1, 1)), (1, 1, 5, 4)),
}


@pytest.mark.parametrize("case", list(AVG_CASES))
def test_avg_pool2d(mode, case):
    kw, shape = AVG_CASES[case]
    k, s = _pair(kw["kernel_size"]), _pair(kw.get("stride", 1))
    mode_ = kw.get("pad_mode", "valid")
    p = kw.get("padding", 0)
    p4 = (p,) * 4 if isinstance(p, int) else p
    g = []
    for i in range(2):
        if mode_ == "pad":  # asymmetric explicit padding: use (top, bottom) / (left, right)
            lo, hi = p4[2 * i], p4[2 * i + 1]
            span = (shape[2 + i] + lo + hi - k[i]) / s[i]
            out = (math.ceil(span) if kw.get("ceil_mode") else math.floor(span)) + 1
            if kw.get("ceil_mode") and (out - 1) * s[i] >= shape[2 + i] + lo:
                out -= 1
            g.append((lo, hi, out))
        else:
            g.append(geometry(shape[2 + i], k[i], s[i], 1, mode_, 0, False))
    lo, hi, outs = (g[0][0], g[1][0]), (g[0][1], g[1][1]), (g[0][2], g[1][2])
    include = kw.get("count_include_pad", True) and mode_ == "pad"
    run_layer_test(lambda: nn.AvgPool2d(**kw), [_x(*shape)], expected_shape=shape[:2] + outs,
                   reference=lambda p_, x: ref_avg_pool(x, k, s, lo, hi, outs, include, kw.get("divisor_override")),
                   bad_input=_x(5))


def ref_adaptive(x, out):
    h, w = x.shape[2:]
    rows = []
    for i in range(out[0]):
        h0, h1 = (i * h) // out[0], math.ceil((i + 1) * h / out[0])
        rows.append(jnp.stack([x[:, :, h0:h1, (j * w) // out[1]:math.ceil((j + 1) * w / out[1])].mean(axis=(2, 3))
                               for j in range(out[1])], axis=-1))
    return jnp.stack(rows, axis=-2)


@pytest.mark.parametrize("size, shape, out", [
    ((3, None), (2, 3, 7, 5), (3, 5)),
    (1, (2, 4, 5, 6), (1, 1)),
    (4, (1, 2, 9, 3), (4, 4)),
])
def test_adaptive_avg_pool2d(mode, size, shape, out):
    run_layer_test(lambda: nn.AdaptiveAvgPool2d(size), [_x(*shape)], expected_shape=shape[:2] + out,
                   reference=lambda p, x: ref_adaptive(x, out), bad_input=_x(3, 4))
