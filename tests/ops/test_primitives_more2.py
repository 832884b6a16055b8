"""Replay real MindSpore 2.10's ExtractImagePatches, FractionalMaxPool / FractionalAvgPool and TensorDump
and ScaleAndTranslate Primitives (tools/oracle/record_primitives_more2.py), eagerly on small inputs.

- ExtractImagePatches, Dilation2D and DepthwiseConv2dNative have no working CPU kernel in MindSpore 2.10
  (recorded as RuntimeError): their argument handling (the attributes MindSpore stored) and errors are replayed,
  their values are checked against NumPy loops.
- The fractional pools' sequences are random: the recorded input pooled over the recorded sequences must give the
  recorded output; the Primitive's own sequences are checked for shape, dtype and structure.
- TensorDump: the file name and its content as MindSpore wrote them.
"""
import os

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl.ops import _graph_helpers_ad
from mindspore_hl.ops._primitives_more2 import fractional_pool_with_sequences
from tests.oracle import assert_close, case_params
from tests.sweep import call_recorded, decode, flatten

FIXTURE = "primitives_more2.npz"


def _init(case):
    return {k: decode(v, case.inputs) for k, v in case.meta.get("init", {}).items()}


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_oracle_case(case, tmp_path, monkeypatch):
    name = case.name.split(".", 1)[1]
    if case.error and case.error != "RuntimeError":
        with pytest.raises((TypeError, ValueError)):
            monkeypatch.chdir(tmp_path)
            call_recorded(case, ops)
        return
    if name in _NO_CPU_KERNEL:  # the attributes MindSpore derived, then the values of a NumPy loop
        prim = getattr(ops, name)(**_init(case))
        for k, v in case.meta["attrs"].items():
            if k == "padding":  # MindSpore stores an enum number
                continue
            mine = getattr(prim, k)
            assert (tuple(mine) if isinstance(mine, (tuple, list)) else mine) == (tuple(v) if isinstance(v, list)
                                                                                  else v), f"{case.id}: {k}"
        args = [case.inputs[k] for k in sorted(case.inputs)]
        got = prim(*[ms.Tensor(a) for a in args]).asnumpy()
        np.testing.assert_allclose(got, _NO_CPU_KERNEL[name](prim, *args), rtol=1e-5, atol=1e-6)
        return
    if name == "TensorDump":
        monkeypatch.chdir(tmp_path)
        before = set(os.listdir(tmp_path))
        monkeypatch.setattr(_graph_helpers_ad, "_dump_count", [int(case.meta["file"].rsplit("_", 1)[1][:-4])])
        call_recorded(case, ops)
        (written,) = set(os.listdir(tmp_path)) - before
        assert written == case.meta["file"]
        assert_close(np.load(tmp_path / written), case.outputs[0])
        return
    if not name.startswith("Fractional"):
        outs = flatten(call_recorded(case, ops))
        assert len(outs) == len(case.outputs)
        for i, (got, want) in enumerate(zip(outs, case.outputs)):
            assert_close(got, want, rtol=1e-4, atol=1e-5, what=f"{case.id} output {i}")
        return
    # fractional pools: deterministic part against the recorded sequences, structure of our own sequences
    x = case.inputs["a0"]
    y, rows, cols = case.outputs
    init = _init(case)
    mode = "max" if name == "FractionalMaxPool" else "avg"
    got = fractional_pool_with_sequences(ms.Tensor(x), ms.Tensor(rows), ms.Tensor(cols),
                                         init.get("overlapping", False), mode)
    assert_close(got, y, what=case.id)
    outs = flatten(call_recorded(case, ops))
    for i, (mine, want) in enumerate(zip(outs, case.outputs)):
        assert mine.shape == want.shape and mine.dtype == ms.Tensor(want).dtype, f"{case.id} output {i}"
    for seq, n in ((outs[1].asnumpy(), x.shape[1]), (outs[2].asnumpy(), x.shape[2])):
        assert seq[0] == 0 and seq[-1] == n and np.all(np.diff(seq) >= 1)
    again = fractional_pool_with_sequences(ms.Tensor(x), outs[1], outs[2], init.get("overlapping", False), mode)
    np.testing.assert_array_equal(outs[0].asnumpy(), again.asnumpy())


def _numpy_patches(x, k, s, r, padding):
    """TensorFlow's extract_image_patches on NCHW x, by loops: depth ordered (row, col, channel)."""
    n, c, h, w = x.shape
    eff = [(k[i] - 1) * r[i] + 1 for i in range(2)]
    if padding == "SAME":
        out = [-(-h // s[0]), -(-w // s[1])]
        pad = [max((out[i] - 1) * s[i] + eff[i] - (h, w)[i], 0) for i in range(2)]
        x = np.pad(x, ((0, 0), (0, 0), (pad[0] // 2, pad[0] - pad[0] // 2), (pad[1] // 2, pad[1] - pad[1] // 2)))
    else:
        out = [(h - eff[0]) // s[0] + 1, (w - eff[1]) // s[1] + 1]
    res = np.zeros((n, k[0] * k[1] * c, out[0], out[1]), x.dtype)
    for i in range(out[0]):
        for j in range(out[1]):
            for a in range(k[0]):
                for b in range(k[1]):
                    d = (a * k[1] + b) * c
                    res[:, d:d + c, i, j] = x[:, :, i * s[0] + a * r[0], j * s[1] + b * r[1]]
    return res


def _numpy_dilation2d(p, x, f):
    """Grey-scale dilation by loops over a -inf padded input."""
    (sh, sw), (dh, dw) = p.stride[2:], p.dilation[2:]
    c, kh, kw = f.shape
    h, w = x.shape[2:]
    if p.pad_mode == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        ph = max((oh - 1) * sh + (kh - 1) * dh + 1 - h, 0)
        pw = max((ow - 1) * sw + (kw - 1) * dw + 1 - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)), constant_values=-np.inf)
    else:
        oh, ow = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
    out = np.full(x.shape[:2] + (oh, ow), -np.inf, x.dtype)
    for a in range(kh):
        for b in range(kw):
            win = x[:, :, a * dh:a * dh + (oh - 1) * sh + 1:sh, b * dw:b * dw + (ow - 1) * sw + 1:sw]
            out = np.maximum(out, win + f[None, :, a, b, None, None])
    return out


def _numpy_depthwise(p, x, w):
    """Per-channel cross-correlation by loops (weight (1, C, kh, kw))."""
    s, d = p.stride[2], p.dilation[2]
    kh, kw = w.shape[2:]
    h, wd = x.shape[2:]
    if p.pad_mode == "same":
        oh, ow = -(-h // s), -(-wd // s)
        ph, pw = max((oh - 1) * s + (kh - 1) * d + 1 - h, 0), max((ow - 1) * s + (kw - 1) * d + 1 - wd, 0)
        pads = (ph // 2, ph - ph // 2, pw // 2, pw - pw // 2)
    else:
        pads = p.pad if p.pad_mode == "pad" else (0, 0, 0, 0)
    x = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    oh, ow = (x.shape[2] - (kh - 1) * d - 1) // s + 1, (x.shape[3] - (kw - 1) * d - 1) // s + 1
    out = np.zeros(x.shape[:2] + (oh, ow), np.float64)
    for a in range(kh):
        for b in range(kw):
            win = x[:, :, a * d:a * d + (oh - 1) * s + 1:s, b * d:b * d + (ow - 1) * s + 1:s]
            out += win * w[0, None, :, a, b, None, None]
    return out.astype(x.dtype)


_NO_CPU_KERNEL = {
    "ExtractImagePatches": lambda p, x: _numpy_patches(x, p.ksizes, p.strides, p.rates, p.padding),
    "Dilation2D": _numpy_dilation2d,
    "DepthwiseConv2dNative": _numpy_depthwise,
}


def test_extract_image_patches_dilated_and_unfold_share_it():
    x = np.arange(2 * 3 * 7 * 6, dtype=np.float32).reshape(2, 3, 7, 6)
    got = ops.ExtractImagePatches([1, 1, 2, 3], [1, 1, 2, 1], [1, 1, 2, 1], "same")(ms.Tensor(x))
    np.testing.assert_array_equal(got.asnumpy(), _numpy_patches(x, (2, 3), (2, 1), (2, 1), "SAME"))
    unfold = ms.nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 2, 1, 1], "same")(ms.Tensor(x))
    np.testing.assert_array_equal(unfold.asnumpy(), got.asnumpy())


def test_fractional_sequences_reproducible_with_seed():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 9, 8, 2)).astype(np.float32))
    p = ops.FractionalAvgPool([1.0, 1.6, 1.3, 1.0], pseudo_random=True, deterministic=True, seed=5, seed2=1)
    a, b = p(x), p(x)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u.asnumpy(), v.asnumpy())
    rows = a[1].asnumpy()
    assert rows.dtype == np.int64 and rows.shape == (6,) and set(np.diff(rows)) <= {1, 2}


def test_tensor_dump_in_compiled_step(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dump = ops.TensorDump()

    @ms.jit
    def step(x):
        dump("inside", x * 2)
        return x + 1

    x = np.arange(3, dtype=np.float32)
    step(ms.Tensor(x))
    step(ms.Tensor(x))  # the file of each run of the compiled step
    written = sorted(f for f in os.listdir(tmp_path) if f.startswith("inside_float32_"))
    assert len(written) == 2
    for name in written:
        np.testing.assert_array_equal(np.load(tmp_path / name), x * 2)


def test_depthwise_and_dilation_extra_checks():
    x = ms.Tensor(np.ones((1, 2, 4, 4), np.float32))
    with pytest.raises(ValueError, match="channel_multiplier"):
        ops.DepthwiseConv2dNative(2, 2)(x, ms.Tensor(np.ones((1, 2, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="filter"):
        ops.Dilation2D(1, 1)(x, ms.Tensor(np.ones((3, 2, 2), np.float32)))
    got = ops.Dilation2D(1, 1)(ms.Tensor(np.arange(4, dtype=np.int32).reshape(1, 1, 2, 2)),
                               ms.Tensor(np.zeros((1, 2, 2), np.int32)))
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == [[[[3, 3], [3, 3]]]]


@pytest.mark.parametrize("noise, mean, std", [("uniform", 0.0, 1 / np.sqrt(3)), ("gaussian", 10.0, 0.5)])
def test_extract_glimpse_noise_statistics(noise, mean, std):
    """Outside the image MindSpore 2.10's CPU kernel fills U(-1, 1) / N(10, 0.5**2) whatever the image holds
    (measured on the oracle: means -0.006 / 10.00, deviations 0.58 / 0.50 over 7200 values)."""
    x = ms.Tensor(np.full((1, 4, 5, 2), 100.0, np.float32))
    prim = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=noise == "uniform", noise=noise)
    ms.set_seed(3)
    y = prim(x, ms.Tensor(np.array([40, 40], np.int32)), ms.Tensor(np.array([[-50.0, -50.0]], np.float32)))
    vals = y.asnumpy()
    assert vals.shape == (1, 40, 40, 2) and abs(vals.mean() - mean) < 0.05 and abs(vals.std() - std) < 0.05
    if noise == "uniform":
        assert vals.min() >= -1.0 and vals.max() < 1.0
    ms.set_seed(3)
    again = prim(x, ms.Tensor(np.array([40, 40], np.int32)), ms.Tensor(np.array([[-50.0, -50.0]], np.float32)))
    np.testing.assert_array_equal(again.asnumpy(), vals)
