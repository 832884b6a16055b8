"""Conv1d / Conv2d / Conv2dTranspose against an explicit per-kernel-offset convolution written here."""
import math

import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

import mindspore_hl as ms
from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def same_pad(size, k, s, d):
    """MindSpore 'same': total = max((ceil(H/s)-1)*s + (k-1)*d + 1 - H, 0), top = total // 2."""
    total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def conv_out(size, k, s, d, lo, hi):
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


def _taps(xp, kh, kw, stride, dilation, oh, ow):
    """(N, C, OH, OW, kH*kW): the input under each kernel tap of each output position (im2col by slicing)."""
    (sh, sw), (dh, dw) = stride, dilation
    return jnp.stack([xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw]
                      for i in range(kh) for j in range(kw)], axis=-1)


def ref_conv2d(x, w, b, stride, pads, dilation, groups):
    """Explicit correlation: output = sum over channels and kernel taps of input patch * weight (no lax.conv)."""
    x = jnp.pad(x, ((0, 0), (0, 0), pads[0], pads[1]))
    _, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
    patches = _taps(x, kh, kw, stride, dilation, oh, ow)
    og = o // groups
    out = jnp.concatenate([jnp.einsum("nchwk,ock->nohw", patches[:, g * cg:(g + 1) * cg],
                                      w[g * og:(g + 1) * og].reshape(og, cg, kh * kw)) for g in range(groups)], axis=1)
    return out if b is None else out + b[None, :, None, None]


CONV2D_CASES = {
    # name: (constructor kwargs, input shape)
    "lenet_valid": (dict(in_channels=1, out_channels=6, kernel_size=5, pad_mode="valid"), (2, 1, 12, 12)),
    "default_same_stride2_bias": (dict(in_channels=3, out_channels=4, kernel_size=3, stride=2, has_bias=True),
                                  (2, 3, 9, 8)),
    "pad4_dilation_groups": (dict(in_channels=4, out_channels=6, kernel_size=(3, 2), stride=(1, 2), pad_mode="pad",
                                  padding=(1, 2, 0, 1), dilation=(2, 1), group=2, has_bias=True), (1, 4, 7, 6)),
    "same_even_kernel_dilated": (dict(in_channels=2, out_channels=3, kernel_size=4, stride=3, dilation=2),
                                 (1, 2, 10, 11)),
}


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _conv2d_geometry(kw, shape):
    k, s, d = _pair(kw["kernel_size"]), _pair(kw.get("stride", 1)), _pair(kw.get("dilation", 1))
    mode = kw.get("pad_mode", "same")
    if mode == "same":
        pads = [same_pad(shape[2 + i], k[i], s[i], d[i]) for i in range(2)]
    elif mode == "valid":
        pads = [(0, 0), (0, 0)]
    else:
        p = kw["padding"]
        p = (p,) * 4 if isinstance(p, int) else p
        pads = [(p[0], p[1]), (p[2], p[3])]
    out = tuple(conv_out(shape[2 + i], k[i], s[i], d[i], *pads[i]) for i in range(2))
    return k, s, d, pads, out


@pytest.mark.parametrize("case", list(CONV2D_CASES))
def test_conv2d(mode, case):
    kw, shape = CONV2D_CASES[case]
    k, s, d, pads, out_hw = _conv2d_geometry(kw, shape)
    cin, cout, g = kw["in_channels"], kw["out_channels"], kw.get("group", 1)
    params = [("weight", (cout, cin // g) + k)] + ([("bias", (cout,))] if kw.get("has_bias") else [])
    bad = _x(shape[0], cin + 1, *shape[2:])
    run_layer_test(lambda: nn.Conv2d(**kw), [_x(*shape)], expected_shape=(shape[0], cout) + out_hw, params=params,
                   reference=lambda p, x: ref_conv2d(x, p["weight"], p.get("bias"), s, pads, d, g), bad_input=bad)


def test_conv2d_wrong_input_message_names_cell_and_shapes(mode):
    conv = nn.Conv2d(1, 6, 5, pad_mode="valid")
    with pytest.raises(ValueError, match=r"^Conv2d: expected input of shape \(N, 1, H, W\) \(in_channels=1\), but got "
                                         r"\(8, 3, 32, 32\)\.(\n|$)"):
        conv(Tensor(_x(8, 3, 32, 32)))
    with pytest.raises(ValueError, match=r"\(8, 32, 32\)"):
        conv(Tensor(_x(8, 32, 32)))


def test_conv2d_repr_and_defaults():
    conv = nn.Conv2d(1, 6, 5, pad_mode="valid")
    r = repr(conv)
    assert r.startswith("Conv2d(input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), "
                        "pad_mode=valid, padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=<")
    assert "HeUniform" in r and r.endswith(", bias_init=None, format=NCHW)")
    d = nn.Conv2d(3, 8, 3)
    assert d.pad_mode == "same" and not d.has_bias and d.bias is None
    # HeUniform(sqrt(5)): bound = sqrt(6 / ((1 + 5) * fan_in)) = 1 / sqrt(fan_in)
    w = nn.Conv2d(16, 64, 3).weight.asnumpy()
    bound = 1 / math.sqrt(16 * 9)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound and abs(w.mean()) < 0.05 * bound
    b = nn.Conv2d(16, 64, 3, has_bias=True).bias.asnumpy()
    assert np.abs(b).max() <= bound and np.abs(b).max() > 0.8 * bound


@pytest.mark.parametrize("kwargs, msg", [
    (dict(pad_mode="same", padding=1), "'padding' must be 0 when pad_mode is 'same'"),
    (dict(pad_mode="middle"), "'pad_mode' must be one of"),
    (dict(group=2), "'group' \\(2\\) must divide in_channels \\(3\\)"),
    (dict(padding=(1, 2)), "'padding' must be a non-negative int or 4"),
    (dict(stride=0), "'stride' must be a positive int"),
])
def test_conv2d_bad_arguments(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        nn.Conv2d(3, 4, 3, **kwargs)


def test_conv2d_nhwc_matches_nchw(mode):
    ms.set_seed(3)
    a = nn.Conv2d(3, 5, 3, stride=2, has_bias=True)
    b = nn.Conv2d(3, 5, 3, stride=2, has_bias=True, data_format="NHWC")
    assert b.weight.shape == (5, 3, 3, 3)
    b.weight.set_data(Tensor(a.weight.asnumpy().transpose(0, 2, 3, 1)))
    b.bias.set_data(Tensor(a.bias.asnumpy().copy()))
    x = _x(2, 3, 7, 6)
    ya = a(Tensor(x)).asnumpy()
    yb = b(Tensor(x.transpose(0, 2, 3, 1))).asnumpy()
    np.testing.assert_allclose(yb.transpose(0, 3, 1, 2), ya, rtol=1e-5, atol=1e-5)


def ref_conv1d(x, w, b, stride, pads, dilation, groups):
    out = ref_conv2d(x[:, :, None, :], w[:, :, None, :], b, (1, stride), ((0, 0), pads), (1, dilation), groups)
    return out[:, :, 0, :]


@pytest.mark.parametrize("kw, length", [
    (dict(in_channels=3, out_channels=4, kernel_size=3, stride=2, pad_mode="pad", padding=1, has_bias=True), 9),
    (dict(in_channels=4, out_channels=2, kernel_size=4, stride=3, dilation=2, group=2), 11),  # default 'same'
    (dict(in_channels=2, out_channels=3, kernel_size=2, pad_mode="valid"), 6),
])
def test_conv1d(mode, kw, length):
    k, s, d, g = kw["kernel_size"], kw.get("stride", 1), kw.get("dilation", 1), kw.get("group", 1)
    m = kw.get("pad_mode", "same")
    pads = same_pad(length, k, s, d) if m == "same" else (0, 0) if m == "valid" else (kw["padding"],) * 2
    cin, cout = kw["in_channels"], kw["out_channels"]
    params = [("weight", (cout, cin // g, k))] + ([("bias", (cout,))] if kw.get("has_bias") else [])
    run_layer_test(lambda: nn.Conv1d(**kw), [_x(2, cin, length)],
                   expected_shape=(2, cout, conv_out(length, k, s, d, *pads)), params=params,
                   reference=lambda p, x: ref_conv1d(x, p["weight"], p.get("bias"), s, pads, d, g),
                   bad_input=_x(2, cin, length, 1))


def ref_conv_transpose2d(x, w, b, stride, pads, dilation, groups, out_hw):
    """Definition: out[y*s + i*d - top, x*s + j*d - left] += in[y, x] * w[c, o, i, j], computed as a gather.

    The stride-dilated input, zero-padded by d*(k-1), is read under every kernel tap with the kernel flipped.
    """
    n, cin, h, wd = x.shape
    _, og, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    xd = jnp.zeros((n, cin, (h - 1) * sh + 1, (wd - 1) * sw + 1), x.dtype).at[:, :, ::sh, ::sw].set(x)
    eh, ew = dh * (kh - 1), dw * (kw - 1)
    xp = jnp.pad(xd, ((0, 0), (0, 0), (eh, eh), (ew, ew)))
    fh, fw = xd.shape[2] + eh, xd.shape[3] + ew  # the full (uncropped) output
    patches = _taps(xp, kh, kw, (1, 1), dilation, fh, fw)
    wf = w[:, :, ::-1, ::-1]
    cg = cin // groups
    full = jnp.concatenate([jnp.einsum("nchwk,cok->nohw", patches[:, g * cg:(g + 1) * cg],
                                       wf[g * cg:(g + 1) * cg].reshape(cg, og, kh * kw))
                            for g in range(groups)], axis=1)
    (top, _), (left, _) = pads
    oh, ow = out_hw
    full = jnp.pad(full, ((0, 0), (0, 0), (0, max(top + oh - fh, 0)), (0, max(left + ow - fw, 0))))
    out = full[:, :, top:top + oh, left:left + ow]
    return out if b is None else out + b[None, :, None, None]


@pytest.mark.parametrize("kw, shape", [
    (dict(in_channels=3, out_channels=4, kernel_size=3, stride=2), (2, 3, 4, 5)),  # 'same': H * stride
    (dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, pad_mode="pad", padding=1, output_padding=1,
          has_bias=True), (1, 2, 4, 3)),
    (dict(in_channels=6, out_channels=3, kernel_size=(2, 3), stride=(3, 1), pad_mode="valid", dilation=2, group=3),
     (2, 6, 3, 4)),
    (dict(in_channels=2, out_channels=2, kernel_size=4, stride=2, pad_mode="pad", padding=(1, 2, 0, 1)), (1, 2, 3, 3)),
])
def test_conv2d_transpose(mode, kw, shape):
    k, s, d = _pair(kw["kernel_size"]), _pair(kw.get("stride", 1)), _pair(kw.get("dilation", 1))
    op, m, g = _pair(kw.get("output_padding", 0)), kw.get("pad_mode", "same"), kw.get("group", 1)
    full = [(shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 for i in range(2)]
    if m == "same":
        out_hw = tuple(shape[2 + i] * s[i] for i in range(2))
        pads = [same_pad(out_hw[i], k[i], s[i], d[i]) for i in range(2)]
    elif m == "valid":
        out_hw, pads = tuple(full), [(0, 0), (0, 0)]
    else:
        p = kw["padding"]
        p = (p,) * 4 if isinstance(p, int) else p
        pads = [(p[0], p[1]), (p[2], p[3])]
        out_hw = tuple(full[i] - sum(pads[i]) + op[i] for i in range(2))
    cin, cout = kw["in_channels"], kw["out_channels"]
    params = [("weight", (cin, cout // g) + k)] + ([("bias", (cout,))] if kw.get("has_bias") else [])
    run_layer_test(lambda: nn.Conv2dTranspose(**kw), [_x(*shape)], expected_shape=(shape[0], cout) + out_hw,
                   params=params, bad_input=_x(shape[0], cin + 1, *shape[2:]),
                   reference=lambda p, x: ref_conv_transpose2d(x, p["weight"], p.get("bias"), s, pads, d, g, out_hw))


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    """<conv(x), y> == <x, conv_transpose(y)> with the same weight (stride 2, 'same')."""
    conv = nn.Conv2d(3, 4, 3, stride=2)
    tconv = nn.Conv2dTranspose(4, 3, 3, stride=2)
    tconv.weight.set_data(conv.weight)
    x, y = _x(1, 3, 8, 8), _x(1, 4, 4, 4)
    lhs = np.sum(conv(Tensor(x)).asnumpy() * y)
    rhs = np.sum(x * tconv(Tensor(y)).asnumpy())
    np.testing.assert_allclose(lhs, rhs, rtol=1e-4)
