"""Record real MindSpore 2.10's ExtractImagePatches, FractionalMaxPool / FractionalAvgPool, Dilation2D,
DepthwiseConv2dNative and TensorDump Primitives.

    ../ms-oracle/bin/python tools/oracle/record_primitives_more2.py   # -> tests/fixtures/oracle/primitives_more2.npz

A case ``P.<Cls>`` calls ``ops.Cls(**init)(*args)`` (arguments encoded as in ``_sweep.py``); its meta also holds
the Primitive's attributes after construction (``attrs``). Replayed by ``tests/ops/test_primitives_more2.py``.
The fractional pools return random pooling sequences: the test pools the recorded input over the recorded
sequences and compares the values. ExtractImagePatches, Dilation2D and DepthwiseConv2dNative have no working CPU
kernel in MindSpore 2.10 (their values are checked against NumPy in the test); their argument handling (the
attributes MindSpore derived, ``attrs``) and errors are recorded here. TensorDump cases record
the file MindSpore wrote (``file``: name relative to the dump folder) and its content as the output.
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import T, decode_ms, encode, flatten_outputs  # noqa: E402
from mindspore import ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(21)


def f32(*s):
    return T(rng.standard_normal(s).astype(np.float32))


def arr(v, dt):
    return T(np.asarray(v, dt))


def cases():
    x = f32(1, 2, 5, 6)
    pool_in = f32(2, 7, 9, 3)
    return [
        ("ExtractImagePatches", [x], {"ksizes": [1, 1, 2, 2], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1]}),
        ("ExtractImagePatches", [x], {"ksizes": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1]}),
        ("ExtractImagePatches", [x], {"ksizes": 2, "strides": (2, 1), "rates": 1, "padding": "same"}),
        ("ExtractImagePatches", [x], {"ksizes": [1, 1, 2, 2], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1],
                                      "padding": "pad"}),
        ("ExtractImagePatches", [f32(2, 5, 6)], {"ksizes": 2, "strides": 1, "rates": 1}),
        ("ExtractImagePatches", [x], {"ksizes": 2.0, "strides": 1, "rates": 1}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0]}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 1.4, 2.0, 1.0], "pseudo_random": True,
                                          "overlapping": True}),
        ("FractionalMaxPool", [arr(rng.integers(-50, 50, (1, 6, 5, 2)), np.int64)],
         {"pooling_ratio": [1.0, 2.0, 1.5, 1.0], "deterministic": True, "seed": 3, "seed2": 4}),
        ("FractionalMaxPool", [T(pool_in.value.astype(np.float64))], {"pooling_ratio": [1.0, 1.2, 1.7, 1.0],
                                                                    "overlapping": True}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5]}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 1, 1.5, 1.0]}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": (1.0, 1.5, 1.5, 1.0)}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0], "seed": 1.0}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [2.0, 1.5, 1.5, 1.0]}),
        ("FractionalMaxPool", [pool_in], {"pooling_ratio": [1.0, 0.5, 1.5, 1.0]}),
        ("FractionalMaxPool", [f32(7, 9, 3)], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0]}),
        ("FractionalMaxPool", [T(pool_in.value.astype(np.float16))], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0]}),
        ("FractionalAvgPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0]}),
        ("FractionalAvgPool", [pool_in], {"pooling_ratio": [1.0, 1.4, 2.0, 1.0], "pseudo_random": True,
                                          "overlapping": True}),
        ("FractionalAvgPool", [arr(rng.integers(-50, 50, (1, 6, 5, 2)), np.int32)],
         {"pooling_ratio": [1.0, 2.0, 1.5, 1.0], "overlapping": True}),
        ("FractionalAvgPool", [T(pool_in.value.astype(np.float64))], {"pooling_ratio": [1.0, 1.2, 1.7, 1.0]}),
        ("FractionalAvgPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5, 2.0]}),
        ("FractionalAvgPool", [pool_in], {"pooling_ratio": [1.0, 1.5, 1.5, 1.0], "overlapping": 1}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": (1, 1, 2, 2), "dilation": (1, 1, 1, 1)}),
        ("Dilation2D", [x, f32(2, 2, 3)], {"stride": 1, "dilation": (2, 1), "pad_mode": "valid"}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": (1, 2, 2, 1), "dilation": 1}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": 1, "dilation": 1, "data_format": "NHWC"}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": 256, "dilation": 1}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": 1, "dilation": (1, 0)}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": 1.0, "dilation": 1}),
        ("Dilation2D", [x, f32(2, 2, 2)], {"stride": 1, "dilation": 1, "pad_mode": "pad"}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 3)], {"channel_multiplier": 1, "kernel_size": (2, 3)}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 3, 3)], {"channel_multiplier": 1, "kernel_size": 3, "pad_mode": "same",
                                                         "stride": 2}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2, "pad_mode": "pad",
                                                         "pad": (1, 0, 2, 1), "dilation": 2}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2, "stride": (1, 2)}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2, "pad": 1}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2, "mode": 1}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 0, "kernel_size": 2}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2,
                                                         "pad_mode": "full"}),
        ("DepthwiseConv2dNative", [x, f32(2, 2, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2}),
        ("DepthwiseConv2dNative", [x, f32(1, 3, 2, 2)], {"channel_multiplier": 1, "kernel_size": 2}),
        ("DepthwiseConv2dNative", [x, f32(1, 2, 3, 2)], {"channel_multiplier": 1, "kernel_size": 2}),
        *scale_and_translate_cases(),
        *combined_nms_cases(),
        *glimpse_cases(),
        ("TensorDump", ["dump_a", f32(2, 3)], {}),
        ("TensorDump", ["dump_b.npy", arr([[1, 2], [3, 4]], np.int32)], {"input_output": "in"}),
        ("TensorDump", ["dump_c", f32(2)], {"input_output": "x"}),
        ("TensorDump", [1, f32(2)], {}),
    ]


ATTRS = {"ExtractImagePatches": ("ksizes", "strides", "rates", "padding"),
         "Dilation2D": ("stride", "dilation", "pad_mode"),
         "DepthwiseConv2dNative": ("kernel_size", "stride", "dilation", "pad", "pad_mode")}


def scale_and_translate_cases():
    img = f32(1, 5, 6, 2)
    size, scale, shift = arr([4, 9], np.int32), arr([0.8, 1.5], np.float32), arr([0.3, -0.6], np.float32)
    out = [("ScaleAndTranslate", [img, size, scale, shift], {"kernel_type": k})
           for k in ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic")]
    return out + [
        ("ScaleAndTranslate", [img, arr([3, 2], np.int32), arr([0.5, 0.4], np.float32), shift],
         {"kernel_type": "triangle", "antialias": False}),
        ("ScaleAndTranslate", [img, arr([3, 2], np.int32), arr([0.5, 0.4], np.float32), shift], {}),
        ("ScaleAndTranslate", [arr(rng.integers(0, 255, (2, 4, 3, 1)), np.uint8), arr([6, 6], np.int32),
                               arr([1.5, 2.0], np.float32), arr([0.0, 1.0], np.float32)], {"kernel_type": "box"}),
        ("ScaleAndTranslate", [arr(rng.integers(-99, 99, (1, 4, 3, 2)), np.int16), arr([5, 2], np.int32),
                               arr([1.3, 0.6], np.float32), arr([-0.5, 0.2], np.float32)],
         {"kernel_type": "keyscubic"}),
        ("ScaleAndTranslate", [img, size, scale, shift], {"kernel_type": "cubic"}),
        ("ScaleAndTranslate", [img, size, scale, shift], {"antialias": 1}),
        ("ScaleAndTranslate", [img, arr([4, 9], np.int64), scale, shift], {}),
        ("ScaleAndTranslate", [img, size, arr([0.8, 1.5], np.float64), shift], {}),
        ("ScaleAndTranslate", [f32(5, 6, 2), size, scale, shift], {}),
        ("ScaleAndTranslate", [img, arr([4, 9, 1], np.int32), scale, shift], {}),
    ]


def combined_nms_cases():
    corners = rng.uniform(-0.1, 0.8, (2, 6, 1, 2)).astype(np.float32)
    boxes = T(np.concatenate([corners, corners + rng.uniform(0.1, 0.5, (2, 6, 1, 2)).astype(np.float32)], -1))
    boxes_q = f32(1, 5, 3, 4)
    scores = T(rng.permutation(np.linspace(0.05, 0.95, 2 * 6 * 3)).reshape(2, 6, 3).astype(np.float32))
    scores_q = T(rng.permutation(np.linspace(0.05, 0.95, 15)).reshape(1, 5, 3).astype(np.float32))
    i32, f = (lambda v: arr(v, np.int32)), (lambda v: arr(v, np.float32))
    return [
        ("CombinedNonMaxSuppression", [boxes, scores, i32(3), i32(5), f(0.3), f(0.2)], {}),
        ("CombinedNonMaxSuppression", [boxes, scores, i32(2), i32(9), f(0.5), f(0.0)],
         {"pad_per_class": True, "clip_boxes": False}),
        ("CombinedNonMaxSuppression", [boxes, scores, i32(4), i32(20), f(0.6), f(0.4)], {"pad_per_class": True}),
        ("CombinedNonMaxSuppression", [boxes_q, scores_q, i32(2), i32(4), f(0.2), f(0.1)], {"clip_boxes": False}),
        ("CombinedNonMaxSuppression", [boxes, scores, i32(3), i32(5), f(1.5), f(0.2)], {}),
        ("CombinedNonMaxSuppression", [boxes, scores, i32(3), i32(5), f(0.5), f(0.2)], {"clip_boxes": 1}),
        ("CombinedNonMaxSuppression", [boxes_q, scores, i32(3), i32(5), f(0.5), f(0.2)], {}),
    ]


def glimpse_cases():
    img = f32(2, 6, 7, 2)
    zero = {"uniform_noise": False, "noise": "zero"}
    i32, f = (lambda v: arr(v, np.int32)), (lambda v: arr(v, np.float32))
    return [
        ("ExtractGlimpse", [img, i32([3, 4]), f([[0.1, -0.3], [-0.9, 0.95]])], zero),
        ("ExtractGlimpse", [img, i32([4, 3]), f([[0.3, 0.6], [0.7, 0.05]])], {**zero, "centered": False}),
        ("ExtractGlimpse", [img, i32([2, 5]), f([[1.5, -2.2], [-1.0, 3.7]])], {**zero, "normalized": False}),
        ("ExtractGlimpse", [img, i32([3, 3]), f([[2.6, 3.5], [0.4, 6.2]])],
         {**zero, "normalized": False, "centered": False}),
        ("ExtractGlimpse", [img, i32([2, 3]), f([[0.0, 0.1], [-0.2, 0.3]])], {}),  # inside: no noise drawn
        ("ExtractGlimpse", [img, i32([2, 3]), f([[0.0, 0.1], [-0.2, 0.3]])], {"noise": "zero"}),
        ("ExtractGlimpse", [img, i32([2, 3]), f([[0.0, 0.1], [-0.2, 0.3]])], {"noise": "blur"}),
        ("ExtractGlimpse", [img, i32([2, 3]), f([[0.0, 0.1]])], zero),
        ("ExtractGlimpse", [img, i32([2, 3]), f([[0.0, 0.1], [-0.2, 0.3]])], {"centered": 1}),
    ]


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "primitives_more2.npz"
    counts = {}
    dump_dir = tempfile.mkdtemp()
    with FixtureWriter(path) as w:
        for name, args, init in cases():
            inputs = {}
            enc_args = [encode(a, inputs) for a in args]
            enc_init = {k: encode(v, inputs) for k, v in init.items()}
            outs, error, attrs, extra = [], None, {}, {}
            try:
                prim = getattr(ops, name)(**{k: decode_ms(v, inputs, ms) for k, v in enc_init.items()})
                attrs = {k: getattr(prim, k) for k in ATTRS.get(name, ())}
                attrs = {k: list(v) if isinstance(v, (tuple, list)) else v for k, v in attrs.items()}
                call_args = [decode_ms(a, inputs, ms) for a in enc_args]
                if name == "TensorDump":
                    before = set(os.listdir(dump_dir))
                    cwd = os.getcwd()
                    os.chdir(dump_dir)
                    try:
                        prim(*call_args)
                    finally:
                        os.chdir(cwd)
                    (written,) = set(os.listdir(dump_dir)) - before
                    extra["file"] = written
                    outs = [np.load(os.path.join(dump_dir, written))]
                else:
                    outs = flatten_outputs(prim(*call_args))
            except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
                error = type(e).__name__
                print(f"{name}: {error} {' '.join(str(e).split())[:160]}", file=sys.stderr)
            counts[name] = counts.get(name, 0) + 1
            w.add(f"P.{name}/{counts[name]}", inputs=inputs, outputs=outs, name=f"P.{name}", error=error,
                  args=enc_args, kwargs={}, init=enc_init, attrs=attrs, **extra)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)", file=sys.stderr)


if __name__ == "__main__":
    main()
