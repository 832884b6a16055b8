"""Record real MindSpore 2.10's math, linear-algebra, segment/search and optimizer-update Primitives and functions.

    ../ms-oracle/bin/python tools/oracle/record_ops_math.py   # -> tests/fixtures/oracle/ops_math_more.npz

A case is named ``P.<Cls>`` (``ops.Cls(*init)(*args)``) or ``ops.<f>`` (``ops.f(*args, **kwargs)``); arguments use
``_sweep``'s encoding. ``meta["refs"]`` lists the positions of arguments passed as Parameters (the optimizer
updates write into them): their values after the call are recorded after the returned outputs.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
import mindspore.ops as ops  # noqa: E402
from _sweep import D, T, decode_ms, encode, flatten_outputs  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(18)


def f(*s, lo=-2.0, hi=2.0):
    return T(rng.uniform(lo, hi, s).astype(np.float32))


def pos(*s):
    return f(*s, lo=0.1, hi=1.5)


def sc(v):
    """A Float32 scalar Tensor."""
    return T(np.float32(v))


def i32(v):
    return T(np.asarray(v, np.int32))


def i64(v):
    return T(np.asarray(v, np.int64))


def optim_cases():
    s = (2, 3)
    c = [
        ("ApplyGradientDescent", {}, [f(*s), sc(0.1), f(*s)], (0,)),
        ("ApplyMomentum", {}, [f(*s), f(*s), sc(0.1), f(*s), sc(0.9)], (0, 1)),
        ("ApplyMomentum", {"use_nesterov": True, "gradient_scale": 0.5}, [f(*s), f(*s), sc(0.1), f(*s), sc(0.9)],
         (0, 1)),
        ("ApplyAdagrad", {}, [f(*s), pos(*s), sc(0.1), f(*s)], (0, 1)),
        ("ApplyAdagrad", {"update_slots": False}, [f(*s), pos(*s), sc(0.1), f(*s)], (0, 1)),
        ("ApplyAdagradV2", {"epsilon": 1e-6}, [f(*s), pos(*s), sc(0.1), f(*s)], (0, 1)),
        ("ApplyAdaMax", {}, [f(*s), f(*s), pos(*s), sc(0.9), sc(0.01), sc(0.9), sc(0.99), sc(1e-8), f(*s)],
         (0, 1, 2)),
        ("ApplyAdadelta", {}, [f(*s), pos(*s), pos(*s), sc(0.1), sc(0.9), sc(1e-6), f(*s)], (0, 1, 2)),
        ("ApplyAddSign", {}, [f(*s), f(*s), sc(0.1), sc(1.0), sc(0.5), sc(0.9), f(*s)], (0, 1)),
        ("ApplyPowerSign", {}, [f(*s), f(*s), sc(0.1), sc(np.e), sc(0.5), sc(0.9), f(*s)], (0, 1)),
        ("ApplyProximalGradientDescent", {}, [f(*s), sc(0.1), sc(0.05), sc(0.1), f(*s)], (0,)),
        ("ApplyProximalAdagrad", {}, [f(*s), pos(*s), sc(0.1), sc(0.05), sc(0.1), f(*s)], (0, 1)),
        ("ApplyRMSProp", {}, [f(*s), pos(*s), f(*s), sc(0.1), f(*s), 0.9, 0.8, 1e-6], (0, 1, 2)),
        ("ApplyCenteredRMSProp", {}, [f(*s), f(*s, lo=-0.1, hi=0.1), pos(*s), f(*s), f(*s), sc(0.1), sc(0.9),
                                      sc(0.8), sc(1e-6)], (0, 1, 2, 3)),
        ("ApplyFtrl", {}, [f(*s), pos(*s), f(*s), f(*s), sc(0.1), sc(0.05), sc(0.1), sc(-0.5)], (0, 1, 2)),
        # (l1 = 0: MindSpore's CPU kernel and its documented formula agree only there, see the test)
        ("ApplyFtrl", {}, [f(*s), pos(*s), f(*s), f(*s), sc(0.1), sc(0.0), sc(0.1), sc(-0.5)], (0, 1, 2)),
        ("ApplyAdagradDA", {}, [f(*s), f(*s), pos(*s), f(*s), sc(0.1), sc(0.0), sc(0.1), i64(2)], (0, 1, 2)),
        ("ApplyKerasMomentum", {}, [f(*s), f(*s), sc(0.1), f(*s), sc(0.9)], (0, 1)),
        ("ApplyKerasMomentum", {"use_nesterov": True}, [f(*s), f(*s), sc(0.1), f(*s), sc(0.9)], (0, 1)),
        ("ApplyAdagradDA", {}, [f(*s), f(*s), pos(*s), f(*s), sc(0.1), sc(0.05), sc(0.1), i64(3)], (0, 1, 2)),
        ("ApplyAdamWithAmsgrad", {}, [f(*s), f(*s), pos(*s), pos(*s), sc(0.9), sc(0.99), sc(0.01), f(*s)],
         (0, 1, 2, 3)),
        ("ApplyAdamWithAmsgrad", {"beta1": 0.8, "beta2": 0.9, "epsilon": 1e-6},
         [f(*s), f(*s), pos(*s), pos(*s), sc(0.5), sc(0.7), sc(0.01), f(*s)], (0, 1, 2, 3)),
        ("ApplyAdamWithAmsgradV2", {}, [f(*s), f(*s), pos(*s), pos(*s), sc(0.9), sc(0.99), sc(0.01), sc(0.9),
                                        sc(0.999), sc(1e-8), f(*s)], (0, 1, 2, 3)),
        ("Adam", {}, [f(*s), f(*s), pos(*s), sc(0.9), sc(0.99), sc(0.01), sc(0.9), sc(0.999), sc(1e-8), f(*s)],
         (0, 1, 2)),
        ("Adam", {"use_nesterov": True}, [f(*s), f(*s), pos(*s), sc(0.9), sc(0.99), sc(0.01), sc(0.9),
                                           sc(0.999), sc(1e-8), f(*s)], (0, 1, 2)),
        ("AdamNoUpdateParam", {}, [f(*s), pos(*s), sc(0.9), sc(0.99), sc(0.01), sc(0.9), sc(0.999), sc(1e-8),
                                   f(*s)], (0, 1)),
        ("AdamWeightDecay", {}, [f(*s), f(*s), pos(*s), 0.01, 0.9, 0.999, 1e-8, 0.1, f(*s)], (0, 1, 2)),
        ("SGD", {}, [f(*s), f(*s), sc(0.1), f(*s), sc(0.9), f(*s)], (0, 3, 5)),
        ("SGD", {"dampening": 0.1, "weight_decay": 0.01, "nesterov": True},
         [f(*s), f(*s), sc(0.1), f(*s), sc(0.9), f(*s)], (0, 3, 5)),
        ("LARSUpdate", {}, [f(*s), f(*s), sc(2.0), sc(1.5), sc(0.01), sc(0.1)], ()),
        ("LARSUpdate", {"use_clip": True, "hyperpara": 0.01}, [f(*s), f(*s), sc(2.0), sc(1.5), sc(0.01), sc(0.1)],
         ()),
        ("FusedWeightScaleApplyMomentum", {}, [sc(0.01), sc(2.0), f(*s), f(*s), sc(0.1), f(*s), sc(0.9)], (2, 3)),
    ]
    return [(f"P.{n}/{i}", f"P.{n}", init, args, {}, refs) for i, (n, init, args, refs) in enumerate(c)]


def math_cases():
    x23, sq = f(2, 3), f(3, 3)
    seg = i32([0, 0, 1, 3])
    c = [(f"P.{n}", {}, [f(4, 2), seg], {}) for n in ("SegmentMax", "SegmentMin", "SegmentSum", "SegmentProd",
                                                        "SegmentMean")]
    c += [
        ("P.SegmentSum", {}, [i32([[1, 2], [3, 4], [5, 6]]), i32([0, 1, 1])], {}),
        ("P.Median", {}, [f(3, 4)], {}),
        ("P.Median", {"axis": 1, "keep_dims": True}, [f(3, 4)], {}),
        ("P.Median", {"global_median": True}, [f(3, 4)], {}),
        ("P.Quantile", {}, [f(3, 4), sc(0.3)], {}),
        ("P.Quantile", {"dim": 1, "keep_dims": True}, [f(3, 4), T(np.array([0.25, 0.5], np.float32))], {}),
        ("P.ReduceStd", {}, [f(3, 4)], {}),
        ("P.ReduceStd", {"axis": 1, "unbiased": False, "keep_dims": True}, [f(3, 4)], {}),
        ("P.SearchSorted", {}, [T(np.array([1, 3, 5, 7], np.float32)), T(np.array([0, 3, 6, 9], np.float32))], {}),
        ("P.SearchSorted", {"right": True},
         [T(np.array([1, 3, 5, 7], np.float32)), T(np.array([0, 3, 6, 9], np.float32))], {}),
        ("P.LowerBound", {}, [T(np.array([[1, 3, 5, 7]], np.float32)), T(np.array([[0, 3, 6, 9]], np.float32))], {}),
        ("P.UpperBound", {"out_type": D("int64")},
         [T(np.array([[1, 3, 3, 7]], np.float32)), T(np.array([[0, 3, 6, 9]], np.float32))], {}),
        ("P.UniqueConsecutive", {"return_inverse": True, "return_counts": True},
         [i32([1, 1, 2, 2, 3, 1, 1, 2])], {}),
        ("P.UniqueConsecutive", {}, [i32([1, 1, 2, 2, 3])], {}),
        ("P.UniqueWithPad", {}, [i32([1, 1, 2, 3, 3, 5]), i32(8)], {}),
        ("ops.unique_with_pad", {}, [i64([4, 4, 1, 9, 1]), i64(0)], {}),
        ("P.UnravelIndex", {}, [i32([5, 7]), i32([3, 4])], {}),
        ("P.TrilIndices", {"row": 3, "col": 4, "offset": 1}, [], {}),
        ("P.TriuIndices", {"row": 4, "col": 3, "offset": -1, "dtype": D("int64")}, [], {}),
        ("P.SplitV", {"size_splits": [1, 2], "split_dim": 1, "num_split": 2}, [x23], {}),
        ("P.SquareSumAll", {}, [x23, f(2, 3)], {}),
        ("P.Rint", {}, [T(np.array([-1.5, -0.5, 0.5, 1.5, 2.5, 2.7], np.float32))], {}),
        ("P.Complex", {}, [x23, f(2, 3)], {}),
        ("P.ComplexAbs", {}, [T((rng.standard_normal(4) + 1j * rng.standard_normal(4)).astype(np.complex64))], {}),
        ("P.Betainc", {}, [pos(4), pos(4), T(rng.uniform(0.05, 0.95, 4).astype(np.float32))], {}),
        ("P.Bincount", {}, [i32([0, 1, 1, 3, 2]), i32(5), T(np.array([1, 2, 3, 4, 5], np.float32))], {}),
        ("P.Cross", {"dim": 1}, [f(2, 3), f(2, 3)], {}),
        ("P.CumulativeLogsumexp", {}, [f(4), i64(0)], {}),
        ("P.CumulativeLogsumexp", {"exclusive": True, "reverse": True}, [f(2, 3), i64(1)], {}),
        ("P.DivNoNan", {}, [x23, T(np.array([[0, 1, 2], [0.5, 0, -1]], np.float32))], {}),
        ("P.MulNoNan", {}, [T(np.array([[np.inf, 1, 2], [np.nan, 0, -1]], np.float32)),
                            T(np.array([[0, 1, 2], [0, 0, -1]], np.float32))], {}),
        ("P.EqualCount", {}, [i32([1, 2, 3, 4]), i32([1, 0, 3, 0])], {}),
        ("P.Histogram", {"bins": 4, "min": 0.0, "max": 3.0}, [T(np.array([0, 1, 1, 2, 3, 5], np.float32))], {}),
        ("P.HistogramFixedWidth", {"nbins": 5}, [T(np.array([-1, 0, 1.5, 2, 5, 15], np.float32)),
                                                 T(np.array([0, 5], np.float32))], {}),
        ("P.InvertPermutation", {}, [[3, 4, 0, 2, 1]], {}),
        ("P.LinSpace", {}, [sc(1.0), sc(10.0), 5], {}),
        ("P.LogSpace", {"steps": 4, "base": 2}, [sc(0.0), sc(3.0)], {}),
        ("P.LerpScalar", {}, [x23, f(2, 3), 0.3], {}),
        ("P.NonZero", {}, [i32([[0, 1, 2], [3, 0, 0]])], {}),
        ("P.NthElement", {}, [f(2, 5), 2], {}),
        ("P.NthElement", {"reverse": True}, [f(2, 5), i32(1)], {}),
        ("P.IdentityN", {}, [[x23, i32([1, 2])]], {}),
        ("P.ConfusionMatrix", {"num_classes": 4}, [i32([0, 1, 1, 3]), i32([0, 2, 1, 3])], {}),
        ("P.ConfusionMatrix", {"num_classes": 3, "dtype": "float"}, [i32([0, 1, 2]), i32([0, 2, 2]),
                                                                    T(np.array([1, 2, 3], np.float32))], {}),
        ("P.CheckNumerics", {}, [x23], {}),
        ("P.Coalesce", {}, [i64([[2, 0, 0], [1, 0, 0]]), T(np.array([1, 2, 3], np.float32)), i64([3, 3])], {}),
        ("P.RaggedRange", {"Tsplits": D("int64")}, [i32([2, 5, 8]), i32([3, 5, 12]), i32([1, 1, 1])], {}),
        ("P.IndexPut", {}, [x23, T(np.array([1.0, 2.0], np.float32)), (i64([0, 1]), i64([1, 2]))], {}),
        ("P.IndexPut", {"accumulate": 1}, [x23, T(np.array([5.0], np.float32)), (i64([0, 0]),)], {}),
        ("P.MaskedScatter", {}, [x23, T(np.array([[True, False, True], [False, True, False]])), f(6)], {}),
        ("P.ScatterAddWithAxis", {"axis": 1}, [x23, i32([[0, 2], [1, 1]]), f(2, 2)], {}),
        ("P.ScatterNonAliasingAdd", {}, [f(6), i32([[2], [4], [1]]), f(3)], {}),
        ("P.CompareAndBitpack", {}, [f(2, 8), sc(0.0)], {}),
        ("P.InplaceUpdateV2", {}, [f(4, 2), i32([0, 2]), f(2, 2)], {}),
        ("P.InplaceIndexAdd", {"axis": 0}, [f(4, 2), i32([0, 2, 0]), f(3, 2)], {}),
        ("ops.inplace_index_add", {}, [f(3, 4), i32([1, 3]), f(3, 2), 1], {}),
        ("ops.matrix_diag", {}, [f(2, 3)], {}),
        ("ops.matrix_diag", {}, [f(2, 3)], {"k": 1, "num_rows": 4, "num_cols": -1, "padding_value": 9}),
        ("ops.matrix_diag", {}, [f(2, 2, 3)], {"k": i32([-1, 0]), "align": "LEFT_RIGHT"}),
        ("ops.matrix_diag_part", {}, [f(3, 4), i32(0), sc(0.0)], {}),
        ("ops.matrix_diag_part", {}, [f(3, 4), i32([-1, 1]), sc(7.0)], {}),
        ("ops.matrix_diag_part", {}, [f(2, 3, 4), i32([-1, 1]), sc(7.0)], {"align": "LEFT_RIGHT"}),
        ("ops.matrix_set_diag", {}, [f(3, 4), f(3)], {}),
        ("ops.matrix_set_diag", {}, [f(3, 4), f(3, 3)], {"k": i32([-1, 1])}),
        ("ops.matrix_set_diag", {}, [f(2, 4, 3), f(2, 2, 3)], {"k": i32([0, 1]), "align": "LEFT_LEFT"}),
        ("P.MatrixDiagV3", {}, [f(2, 3), i32([-1, 0]), i32(3), i32(4), sc(0.0)], {}),
        ("P.MatrixDiagPartV3", {"align": "LEFT_LEFT"}, [f(3, 4), i32([-1, 1]), sc(5.0)], {}),
        ("P.MatrixSetDiagV3", {}, [f(3, 4), f(3), i32(0)], {}),
        ("P.DiagPart", {}, [f(2, 3, 2, 3)], {}),
        ("P.FillDiagonal", {"fill_value": 5.0}, [f(3, 3)], {}),
        ("P.FillDiagonal", {"fill_value": -1.0, "wrap": True}, [f(7, 3)], {}),
        ("P.EuclideanNorm", {}, [f(2, 3), i64([1])], {}),
        ("P.EuclideanNorm", {"keep_dims": True}, [f(2, 3, 2), i64([0, 2])], {}),
        ("P.LpNorm", {"axis": [1], "p": 3}, [f(2, 3)], {}),
        ("P.LpNorm", {"axis": [0, 1], "p": 1, "keep_dims": True}, [f(2, 3)], {}),
        ("P.ConjugateTranspose", {}, [T((rng.standard_normal((2, 3)) + 1j).astype(np.complex64)), (1, 0)], {}),
        ("P.MatrixInverse", {}, [sq], {}),
        ("P.MatrixInverse", {"adjoint": True}, [sq], {}),
        ("P.MatrixTriangularSolve", {}, [T(np.tril(rng.uniform(0.5, 2, (3, 3))).astype(np.float32)), f(3, 2)], {}),
        ("P.MatrixTriangularSolve", {"lower": False, "adjoint": True},
         [T(np.triu(rng.uniform(0.5, 2, (3, 3))).astype(np.float32)), f(3, 2)], {}),
        ("P.MatrixSolveLs", {}, [f(4, 3), f(4, 2), T(np.float64(0.0))], {}),
        ("P.Lstsq", {}, [f(4, 3), f(4, 2)], {}),
        ("P.MatrixLogarithm", {}, [T((np.eye(3) + 0.2 * rng.standard_normal((3, 3))).astype(np.complex64))], {}),
        ("P.NuclearNorm", {}, [f(3, 4)], {}),
        ("P.NuclearNorm", {"dim": [1, 2], "keepdim": True}, [f(2, 3, 4)], {}),
        ("P.TridiagonalMatMul", {}, [f(1, 4), f(1, 4), f(1, 4), f(4, 2)], {}),
        ("P.Qr", {}, [f(4, 3)], {}),
        ("P.Qr", {"full_matrices": True}, [f(4, 3)], {}),
        ("P.Svd", {"compute_uv": False}, [f(4, 3)], {}),
        ("P.Svd", {"full_matrices": True, "compute_uv": False}, [f(2, 3)], {}),
        ("P.Eig", {}, [T(np.diag([3.0, 1.0, 2.0]).astype(np.float32))], {}),
        ("P.LuUnpack", {}, [T(np.array([[4, 3], [0.5, 2]], np.float32)), i32([2, 2])], {}),
        ("P.Ormqr", {}, [f(3, 2), f(2), f(3, 3)], {}),
        ("P.Ormqr", {"left": False, "transpose": True}, [f(3, 2), f(2), f(4, 3)], {}),
        ("P.FFTWithSize", {"signal_ndim": 1, "inverse": False, "real": True}, [f(2, 8)], {}),
        ("P.FFTWithSize", {"signal_ndim": 2, "inverse": False, "real": False},
         [T((rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np.complex64))], {}),
        ("P.STFT", {"n_fft": 8, "hop_length": 4, "win_length": 8, "normalized": False, "onesided": True,
                    "return_complex": True}, [f(32), T(np.hanning(8).astype(np.float32))], {}),
        ("ops.stft", {}, [f(32), 8], {"hop_length": 2, "window": T(np.hanning(8).astype(np.float32)),
                                      "return_complex": True}),
        ("ops.stft", {}, [f(2, 40), 16], {"center": False, "return_complex": False}),
        ("ops.inplace_sigmoid", {}, [x23], {}),
    ]
    out, seen = [], {}
    for name, init, args, kw in c:
        seen[name] = seen.get(name, -1) + 1
        out.append((f"{name}/{seen[name]}", name, init, args, kw, ()))
    return out


def call(name, init, args, kwargs, refs, inputs):
    if name.startswith("P."):
        fn = getattr(ops, name[2:])(**{k: decode_ms(v, inputs, ms) for k, v in init.items()})
    else:
        fn = getattr(ops, name[4:])
    real = [decode_ms(a, inputs, ms) for a in args]
    for i in refs:
        real[i] = ms.Parameter(real[i], name=f"p{i}")
    out = fn(*real, **{k: decode_ms(v, inputs, ms) for k, v in kwargs.items()})
    return flatten_outputs(out) + [real[i].asnumpy() for i in refs]


def main():
    path = ROOT / "tests" / "fixtures" / "oracle" / "ops_math_more.npz"
    with FixtureWriter(path) as w:
        for cid, name, init, args, kwargs, refs in optim_cases() + math_cases():
            inputs = {}
            enc_init = {k: encode(v, inputs) for k, v in init.items()}
            enc_args = [encode(a, inputs) for a in args]
            enc_kw = {k: encode(v, inputs) for k, v in kwargs.items()}
            try:
                outs, error, message = call(name, enc_init, enc_args, enc_kw, refs, inputs), None, None
            except Exception as e:  # noqa: BLE001  (the error type is the recorded truth)
                outs, error, message = [], type(e).__name__, " ".join(str(e).split())[:200]
                print(f"{cid}: {error}: {message}")
            w.add(cid, inputs=inputs, outputs=outs, name=name, error=error, init=enc_init, args=enc_args,
                  kwargs=enc_kw, refs=list(refs), message=message)
    print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
