"""Record real MindSpore 2.10's window, CTC, NMS, sequence-helper and shape Primitives.

    ../ms-oracle/bin/python tools/oracle/record_primitives_ext.py   # -> tests/fixtures/oracle/primitives_ext.npz

A case ``P.<Cls>`` calls ``ops.Cls(**init)(*args)``; arguments are encoded as in ``_sweep.py`` and replayed by
``tests/ops/test_primitives_ext.py``. Cases whose kernel MindSpore's CPU build lacks are recorded with their error
and checked against NumPy in the test instead.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import D, T, decode_ms, encode, flatten_outputs  # noqa: E402
from mindspore import ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(11)


def f32(*s):
    return T(rng.standard_normal(s).astype(np.float32))


def arr(v, dt):
    return T(np.asarray(v, dt))


def cases():
    boxes = arr([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3], [0.5, 0.5, 1.5, 1.5]], np.float32)
    return [
        ("BartlettWindow", [arr(6, np.int32)], {}),
        ("BartlettWindow", [arr(5, np.int64)], {"periodic": False, "dtype": D("float64")}),
        ("BlackmanWindow", [arr(7, np.int32)], {}),
        ("BlackmanWindow", [arr(6, np.int32)], {"periodic": False, "dtype": D("float16")}),
        ("HammingWindow", [arr([6], np.int32)], {}),
        ("HammingWindow", [arr([5], np.int64)], {"periodic": False, "alpha": 0.6, "beta": 0.3}),
        ("Dropout2D", [f32(2, 3, 4, 4)], {"keep_prob": 1.0}),
        ("Dropout3D", [f32(1, 2, 2, 3, 3)], {"keep_prob": 1.0}),
        ("CTCLoss", [f32(5, 2, 4), arr([[0, 0], [0, 1], [1, 0]], np.int64), arr([1, 2, 1], np.int32),
                     arr([5, 4], np.int32)], {}),
        ("CTCGreedyDecoder", [f32(6, 3, 4), arr([6, 4, 5], np.int32)], {}),
        ("CTCGreedyDecoder", [T(np.eye(3, dtype=np.float32)[[0, 0, 2, 1, 1, 0]][:, None]), arr([6], np.int32)],
         {"merge_repeated": False}),
        ("TensorShape", [f32(2, 3, 1)], {}),
        ("DtypeToEnum", ["Cast", "dtype", D("float32")], {}),
        ("DtypeToEnum", ["Cast", "dtype", D("int8")], {}),
        ("Assert", [T(np.array([True])), [f32(4), arr([1, 2], np.int32)]], {"summarize": 2}),
        ("Assert", [T(np.array([True, True])), [f32(4), arr([1, 2], np.int32)]], {"summarize": 2}),
        ("TensorToTuple", [arr([4, 5, 6], np.int32)], {}),
        ("FillV2", [arr([2, 3], np.int32), arr(1.5, np.float32)], {}),
        ("FillV2", [arr([4], np.int64), arr(7, np.int32)], {}),
        ("ParallelConcat", [(f32(1, 3), f32(1, 3), f32(1, 3))], {}),
        ("EditDistance", [arr([[0, 0, 0], [1, 0, 1], [1, 1, 0]], np.int64), arr([1, 2, 3], np.float32),
                          arr([2, 2, 2], np.int64), arr([[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1]], np.int64),
                          arr([1, 3, 3, 4], np.float32), arr([2, 2, 2], np.int64)], {}),
        ("EditDistance", [arr([[0, 0], [0, 1], [0, 2]], np.int64), arr([1, 2, 3], np.int32), arr([1, 3], np.int64),
                          arr([[0, 0], [0, 1]], np.int64), arr([1, 3], np.int32), arr([1, 2], np.int64)],
         {"normalize": False}),
        ("NoRepeatNGram", [arr([[[1, 2, 1, 2], [3, 3, 3, 1]]], np.int32), f32(1, 2, 5)], {"ngram_size": 2}),
        ("NoRepeatNGram", [arr([[[1, 2, 3, 1, 2]]], np.int32), f32(1, 1, 6)], {"ngram_size": 3}),
        ("MapUniform", [arr([0, 1, 2, 3, 7, 5], np.int32), 2, 3], {}),
        ("MapUniform", [arr([0, 8], np.int32), 2, 3], {}),
        ("SubAndFilter", [arr([2, 3, 11, 5, 1, 7], np.int32), 6, 2], {}),
        ("NonMaxSuppressionWithOverlaps", [arr([[1, .9, 0, .2], [.9, 1, 0, .1], [0, 0, 1, .6], [.2, .1, .6, 1]],
                                               np.float32), arr([0.9, 0.95, 0.7, 0.3], np.float32),
                                           arr(3, np.int32), arr(0.5, np.float32), arr(0.0, np.float32)], {}),
        ("NonMaxSuppressionV3", [boxes, arr([0.9, 0.8, 0.7, 0.6], np.float32), arr(3, np.int32),
                                 arr(0.5, np.float32), arr(0.0, np.float32)], {}),
        ("MultilabelMarginLoss", [f32(2, 4), arr([[1, 2, -1, 0], [3, -1, 0, 0]], np.int32)], {}),
        ("FractionalMaxPoolWithFixedKsize", [f32(1, 2, 7, 6), arr([[[0.3, 0.7], [0.5, 0.1]]], np.float32)],
         {"ksize": 2, "output_shape": (3, 4)}),
        ("FractionalMaxPoolWithFixedKsize", [f32(2, 1, 9, 8), arr([[[0.9, 0.2]], [[0.05, 0.6]]], np.float32)],
         {"ksize": (3, 2), "output_shape": 4}),
        ("FractionalMaxPool3DWithFixedKsize", [f32(1, 2, 6, 7, 5), arr([[[0.3, 0.7, 0.5], [0.1, 0.9, 0.4]]],
                                                                        np.float32)],
         {"ksize": (2, 3, 1), "output_shape": (3, 4, 4)}),
        ("ComputeAccidentalHits", [arr([[1, 2], [0, 4]], np.int64), arr([0, 1, 2, 3, 4], np.int64)],
         {"num_true": 2}),
    ]


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "primitives_ext.npz"
    counts = {}
    with FixtureWriter(path) as w:
        for name, args, init in cases():
            inputs = {}
            enc_args = [encode(a, inputs) for a in args]
            enc_init = {k: encode(v, inputs) for k, v in init.items()}
            outs, error = [], None
            try:
                prim = getattr(ops, name)(**{k: decode_ms(v, inputs, ms) for k, v in enc_init.items()})
                outs = flatten_outputs(prim(*[decode_ms(a, inputs, ms) for a in enc_args]))
            except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
                error = type(e).__name__
                print(f"{name}: {error} {' '.join(str(e).split())[:120]}", file=sys.stderr)
            counts[name] = counts.get(name, 0) + 1
            w.add(f"P.{name}/{counts[name]}", inputs=inputs, outputs=outs, name=f"P.{name}", error=error,
                  args=enc_args, kwargs={}, init=enc_init)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)", file=sys.stderr)


if __name__ == "__main__":
    main()
