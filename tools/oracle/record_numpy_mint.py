"""Record real MindSpore 2.10's ``mindspore.numpy``, ``mint`` and ``mint.nn.functional`` on generated inputs.

    ../ms-oracle/bin/python tools/oracle/record_numpy_mint.py   # -> tests/fixtures/oracle/numpy.npz, mint.npz
"""
import inspect
import json
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
import mindspore.mint as mint  # noqa: E402
import mindspore.mint.nn.functional as F  # noqa: E402
import mindspore.numpy as mnp  # noqa: E402
import mindspore.ops as ops  # noqa: E402
from _sweep import D, T, record  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(0)


def f32(*s):
    return T(rng.standard_normal(s).astype(np.float32))


def f16(*s):
    return T(rng.standard_normal(s).astype(np.float16))


def f64(*s):
    return T(rng.standard_normal(s))


def pos(*s, dt=np.float32):
    return T((rng.random(s) * 2 + 0.1).astype(dt))


def unit(*s):
    return T((rng.random(s) * 1.8 - 0.9).astype(np.float32))


def i32(*s, lo=-5, hi=6):
    return T(rng.integers(lo, hi, s).astype(np.int32))


def i64(*s, lo=-5, hi=6):
    return T(rng.integers(lo, hi, s).astype(np.int64))


def u8(*s):
    return T(rng.integers(0, 10, s).astype(np.uint8))


def b(*s):
    return T(rng.random(s) > 0.5)


SPECIAL = T(np.array([0.0, -0.0, 1.5, -2.5, np.nan, np.inf, -np.inf], np.float32))

UNARY_NP = ("abs absolute arccos arccosh arcsin arcsinh arctan arctanh cbrt ceil cos cosh deg2rad exp exp2 expm1 "
            "fabs floor isfinite isinf isnan log log10 log1p log2 negative positive rad2deg radians reciprocal rint "
            "sign signbit sin sinh sqrt square tan tanh trunc fix isneginf isposinf").split()
BINARY_NP = ("add subtract multiply divide true_divide floor_divide power float_power mod remainder fmod maximum "
             "minimum arctan2 hypot copysign heaviside logaddexp logaddexp2 equal not_equal greater greater_equal "
             "less less_equal logical_and logical_or logical_xor").split()
INT_BINARY_NP = "gcd lcm bitwise_and bitwise_or bitwise_xor".split()


def _domain(name):
    if name in ("arccosh",):
        return pos(2, 3) if False else T((rng.random((2, 3)) * 3 + 1).astype(np.float32))
    if name in ("arccos", "arcsin", "arctanh"):
        return unit(2, 3)
    if name in ("log", "log10", "log2", "sqrt", "reciprocal"):
        return pos(2, 3)
    return f32(2, 3)


def numpy_cases():
    c = []
    for n in UNARY_NP:
        c.append((f"{n}/f32", "numpy", n, [_domain(n)], {}))
        c.append((f"{n}/f16", "numpy", n, [f16(4)], {}))
        c.append((f"{n}/i32", "numpy", n, [i32(5, lo=1)], {}))
        c.append((f"{n}/special", "numpy", n, [SPECIAL], {}))
        c.append((f"{n}/empty", "numpy", n, [T(np.zeros((0, 2), np.float32))], {}))
    for n in BINARY_NP:
        c.append((f"{n}/f32_bcast", "numpy", n, [f32(2, 3), pos(3)], {}))
        c.append((f"{n}/i32", "numpy", n, [i32(4), i32(4, lo=1)], {}))
        c.append((f"{n}/i32_pyfloat", "numpy", n, [i32(4), 2.5], {}))
        c.append((f"{n}/f16_i32", "numpy", n, [f16(4), i32(4, lo=1)], {}))
        c.append((f"{n}/i8_u8", "numpy", n, [T(np.array([1, -2, 3], np.int8)), T(np.array([1, 2, 3], np.uint8))], {}))
        c.append((f"{n}/dtype", "numpy", n, [f32(3), f32(3)], {"dtype": D("float16")}))
    for n in INT_BINARY_NP:
        c.append((f"{n}/i32", "numpy", n, [i32(5), i32(5, lo=1)], {}))
        c.append((f"{n}/bcast", "numpy", n, [i32(2, 3, lo=0), i32(3, lo=1)], {}))
    c.append(("bitwise_not/i32", "numpy", "bitwise_not", [i32(4)], {}))
    c.append(("invert/bool", "numpy", "invert", [b(4)], {}))
    c.append(("logical_not/f32", "numpy", "logical_not", [f32(4)], {}))
    c.append(("divmod/i32", "numpy", "divmod", [i32(4), i32(4, lo=1)], {}))
    c.append(("clip/f32", "numpy", "clip", [f32(2, 3), -0.5, 0.5], {}))
    # reductions
    x = f32(2, 3, 4)
    xi = i32(2, 3)
    for n in ("sum", "mean", "amax", "amin", "max", "min", "std", "var", "ptp", "nansum", "nanmax", "nanmin",
              "nanmean", "nanstd", "nanvar", "count_nonzero", "sometrue"):
        c.append((f"{n}/all", "numpy", n, [x], {}))
        c.append((f"{n}/axis1", "numpy", n, [x], {"axis": 1}))
        c.append((f"{n}/keep", "numpy", n, [x], {"axis": (0, 2), "keepdims": True}))
        c.append((f"{n}/i32", "numpy", n, [xi], {"axis": 0}))
    nanx = T(np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], np.float32))
    for n in ("nansum", "nanmax", "nanmin", "nanmean", "nanstd", "nanvar", "nancumsum"):
        c.append((f"{n}/nan", "numpy", n, [nanx], {"axis": 1}))
    for n in ("argmax", "argmin"):
        c.append((f"{n}/all", "numpy", n, [x], {}))
        c.append((f"{n}/axis", "numpy", n, [x], {"axis": 2}))
    for n in ("cumsum", "cumprod", "nancumsum"):
        c.append((f"{n}/all", "numpy", n, [f32(2, 3)], {}))
        c.append((f"{n}/axis", "numpy", n, [i32(2, 3)], {"axis": 1}))
    c.append(("average/w", "numpy", "average", [f32(2, 3)], {"axis": 1, "weights": pos(3)}))
    c.append(("average/ret", "numpy", "average", [f32(2, 3)], {"returned": True}))
    c.append(("trace/f32", "numpy", "trace", [f32(3, 4)], {"offset": 1}))
    c.append(("norm/vec", "numpy", "norm", [f32(5)], {}))
    c.append(("norm/fro", "numpy", "norm", [f32(3, 4)], {}))
    c.append(("norm/ord1", "numpy", "norm", [f32(3, 4)], {"ord": 1}))
    c.append(("norm/axis", "numpy", "norm", [f32(3, 4)], {"axis": 1, "keepdims": True}))
    # creation
    c += [("array/int", "numpy", "array", [[1, 2, 3]], {}), ("array/float", "numpy", "array", [[1.0, 2.5]], {}),
          ("array/ndmin", "numpy", "array", [[1.0, 2.5]], {"ndmin": 3}),
          ("array/dtype", "numpy", "array", [[1, 2]], {"dtype": D("float16")}),
          ("asarray/bool", "numpy", "asarray", [[True, False]], {}),
          ("asfarray/int", "numpy", "asfarray", [[1, 2]], {}),
          ("arange/int", "numpy", "arange", [5], {}), ("arange/float", "numpy", "arange", [0.5, 3.0, 0.5], {}),
          ("arange/dtype", "numpy", "arange", [1, 7, 2], {"dtype": D("float32")}),
          ("linspace/basic", "numpy", "linspace", [0, 1, 5], {}),
          ("linspace/noend", "numpy", "linspace", [1.0, 2.0, 4], {"endpoint": False}),
          ("logspace/basic", "numpy", "logspace", [0, 2, 3], {}),
          ("geomspace/basic", "numpy", "geomspace", [1, 1000, 4], {}),
          ("zeros/basic", "numpy", "zeros", [(2, 3)], {}), ("ones/int", "numpy", "ones", [3], {"dtype": D("int32")}),
          ("full/int", "numpy", "full", [(2, 2), 3], {}), ("full/float", "numpy", "full", [(2,), 1.5], {}),
          ("zeros_like/f16", "numpy", "zeros_like", [f16(2, 2)], {}),
          ("ones_like/dtype", "numpy", "ones_like", [f32(2)], {"dtype": D("int32")}),
          ("full_like/basic", "numpy", "full_like", [i32(3), 7], {}),
          ("eye/basic", "numpy", "eye", [3], {}), ("eye/k", "numpy", "eye", [3, 4, 1], {}),
          ("identity/basic", "numpy", "identity", [3], {}), ("tri/basic", "numpy", "tri", [3, 4, -1], {}),
          ("diag/vec", "numpy", "diag", [f32(3)], {"k": 1}), ("diag/mat", "numpy", "diag", [f32(3, 3)], {}),
          ("diagflat/basic", "numpy", "diagflat", [f32(2, 2)], {}),
          ("indices/basic", "numpy", "indices", [(2, 3)], {}),
          ("meshgrid/xy", "numpy", "meshgrid", [f32(3), f32(2)], {}),
          ("meshgrid/ij", "numpy", "meshgrid", [f32(3), f32(2)], {"indexing": "ij"}),
          ("vander/basic", "numpy", "vander", [f32(3)], {}), ("vander/N", "numpy", "vander", [i32(3)], {"N": 4}),
          ("bartlett/5", "numpy", "bartlett", [5], {}), ("blackman/5", "numpy", "blackman", [5], {}),
          ("hamming/5", "numpy", "hamming", [5], {}), ("hanning/5", "numpy", "hanning", [5], {}),
          ("tril_indices/basic", "numpy", "tril_indices", [3], {}),
          ("triu_indices/k", "numpy", "triu_indices", [3, 1, 4], {}),
          ("tril_indices_from/basic", "numpy", "tril_indices_from", [f32(3, 3)], {}),
          ("triu_indices_from/basic", "numpy", "triu_indices_from", [f32(3, 3)], {}),
          ("diag_indices/basic", "numpy", "diag_indices", [3], {})]
    # manipulation
    a = f32(2, 3)
    c += [("append/none", "numpy", "append", [a, f32(2)], {}), ("append/axis", "numpy", "append", [a, f32(1, 3)],
                                                                          {"axis": 0}),
          ("split/int", "numpy", "split", [f32(6)], {"indices_or_sections": 3}),
          ("split/list", "numpy", "split", [f32(6, 2)], {"indices_or_sections": [1, 4]}),
          ("array_split/uneven", "numpy", "array_split", [f32(7)], {"indices_or_sections": 3}),
          ("hsplit/basic", "numpy", "hsplit", [f32(2, 4), 2], {}),
          ("vsplit/basic", "numpy", "vsplit", [f32(4, 2), 2], {}),
          ("dsplit/basic", "numpy", "dsplit", [f32(1, 2, 4), 2], {}),
          ("atleast_1d/s", "numpy", "atleast_1d", [f32()], {}), ("atleast_2d/v", "numpy", "atleast_2d", [f32(3)], {}),
          ("atleast_3d/m", "numpy", "atleast_3d", [f32(2, 3)], {}),
          ("broadcast_arrays/basic", "numpy", "broadcast_arrays", [f32(2, 1), f32(3)], {}),
          ("broadcast_to/basic", "numpy", "broadcast_to", [f32(3)], {"shape": (2, 3)}),
          ("column_stack/basic", "numpy", "column_stack", [[f32(3), f32(3)]], {}),
          ("concatenate/axis1", "numpy", "concatenate", [[f32(2, 3), f32(2, 1)]], {"axis": 1}),
          ("concatenate/none", "numpy", "concatenate", [[f32(2, 3), i32(2)]], {"axis": None}),
          ("dstack/basic", "numpy", "dstack", [[f32(2, 3), f32(2, 3)]], {}),
          ("hstack/basic", "numpy", "hstack", [[f32(2), f32(3)]], {}),
          ("vstack/basic", "numpy", "vstack", [[f32(3), f32(3)]], {}),
          ("stack/axis", "numpy", "stack", [[f32(2, 3), f32(2, 3)]], {"axis": -1}),
          ("expand_dims/basic", "numpy", "expand_dims", [a, 1], {}),
          ("flip/none", "numpy", "flip", [a], {}), ("flip/axis", "numpy", "flip", [a], {"axis": 1}),
          ("fliplr/basic", "numpy", "fliplr", [a], {}), ("flipud/basic", "numpy", "flipud", [a], {}),
          ("moveaxis/basic", "numpy", "moveaxis", [f32(2, 3, 4), 0, -1], {}),
          ("ravel/basic", "numpy", "ravel", [a], {}),
          ("repeat/none", "numpy", "repeat", [a, 2], {}), ("repeat/axis", "numpy", "repeat", [a, 2], {"axis": 1}),
          ("reshape/basic", "numpy", "reshape", [a, (3, -1)], {}),
          ("roll/none", "numpy", "roll", [a, 2], {}), ("roll/axis", "numpy", "roll", [a, -1], {"axis": 1}),
          ("rollaxis/basic", "numpy", "rollaxis", [f32(2, 3, 4), 2], {}),
          ("rot90/basic", "numpy", "rot90", [a], {}), ("rot90/k", "numpy", "rot90", [a, 3], {}),
          ("squeeze/basic", "numpy", "squeeze", [f32(1, 3, 1)], {}),
          ("swapaxes/basic", "numpy", "swapaxes", [f32(2, 3, 4), 0, 2], {}),
          ("tile/basic", "numpy", "tile", [a, (2, 1)], {}),
          ("transpose/none", "numpy", "transpose", [f32(2, 3, 4)], {}),
          ("transpose/axes", "numpy", "transpose", [f32(2, 3, 4)], {"axes": (1, 0, 2)}),
          ("diagonal/basic", "numpy", "diagonal", [f32(3, 4)], {"offset": 1}),
          ("tril/basic", "numpy", "tril", [f32(3, 3)], {}), ("triu/k", "numpy", "triu", [f32(3, 3)], {"k": 1}),
          ("take/none", "numpy", "take", [a, i32(3, lo=0, hi=6)], {}),
          ("take/axis", "numpy", "take", [a, i32(2, lo=0, hi=3)], {"axis": 1}),
          ("take/clip", "numpy", "take", [a, T(np.array([-1, 9], np.int32))], {}),
          ("take/wrap", "numpy", "take", [a, T(np.array([-1, 9], np.int32))], {"mode": "wrap"}),
          ("take_along_axis/basic", "numpy", "take_along_axis", [a, i32(2, 3, lo=0, hi=3), 1], {}),
          ("choose/basic", "numpy", "choose", [i32(3, lo=0, hi=2), [f32(3), f32(3)]], {}),
          ("select/basic", "numpy", "select", [[b(4), b(4)], [f32(4), f32(4)]], {}),
          ("where/three", "numpy", "where", [b(2, 3), f32(2, 3), 0.0], {}),
          ("where/int_float", "numpy", "where", [b(3), i32(3), f32(3)], {}),
          ("pad/constant", "numpy", "pad", [a, ((1, 1), (0, 2))], {}),
          ("pad/reflect", "numpy", "pad", [a, 1], {"mode": "reflect"}),
          ("pad/edge", "numpy", "pad", [a, ((0, 1), (2, 0))], {"mode": "edge"}),
          ("ix_/basic", "numpy", "ix_", [i32(2, lo=0), i32(3, lo=0)], {}),
          ("size/basic", "numpy", "size", [a], {}), ("size/axis", "numpy", "size", [a, 1], {}),
          ("isscalar/int", "numpy", "isscalar", [3], {}),
          ("ravel_multi_index/basic", "numpy", "ravel_multi_index", [(i32(3, lo=0, hi=3), i32(3, lo=0, hi=4)),
                                                                       (3, 4)], {}),
          ("unravel_index/basic", "numpy", "unravel_index", [i32(4, lo=0, hi=12), (3, 4)], {})]
    # math / misc
    v = f32(5)
    c += [("dot/mat", "numpy", "dot", [f32(2, 3), f32(3, 2)], {}), ("dot/vec", "numpy", "dot", [v, v], {}),
          ("inner/basic", "numpy", "inner", [f32(2, 3), f32(4, 3)], {}),
          ("outer/basic", "numpy", "outer", [f32(3), i32(2)], {}),
          ("kron/basic", "numpy", "kron", [f32(2, 2), f32(2, 3)], {}),
          ("matmul/batch", "numpy", "matmul", [f32(2, 3, 4), f32(4, 2)], {}),
          ("tensordot/basic", "numpy", "tensordot", [f32(2, 3, 4), f32(3, 4, 2)], {}),
          ("tensordot/axes", "numpy", "tensordot", [f32(2, 3), f32(3, 2)], {"axes": 1}),
          ("cross/basic", "numpy", "cross", [f32(2, 3), f32(2, 3)], {}),
          ("multi_dot/basic", "numpy", "multi_dot", [[f32(2, 3), f32(3, 4), f32(4, 2)]], {}),
          ("convolve/full", "numpy", "convolve", [f32(5), f32(3)], {}),
          ("convolve/same", "numpy", "convolve", [f32(5), f32(3)], {"mode": "same"}),
          ("correlate/valid", "numpy", "correlate", [f32(5), f32(3)], {}),
          ("cov/basic", "numpy", "cov", [f32(3, 5)], {}), ("cov/bias", "numpy", "cov", [f32(3, 5)], {"bias": True}),
          ("corrcoef/basic", "numpy", "corrcoef", [f32(3, 5)], {}),
          ("diff/basic", "numpy", "diff", [f32(2, 5)], {}), ("diff/n2", "numpy", "diff", [i32(6)], {"n": 2}),
          ("ediff1d/basic", "numpy", "ediff1d", [f32(2, 3)], {}),
          ("gradient/basic", "numpy", "gradient", [f32(6)], {}),
          ("gradient/2d", "numpy", "gradient", [f32(3, 4)], {}),
          ("interp/basic", "numpy", "interp", [T(np.array([0.5, 1.5, 3.5, -1], np.float32)),
                                               T(np.array([0, 1, 2, 3], np.float32)), f32(4)], {}),
          ("trapz/basic", "numpy", "trapz", [f32(2, 5)], {}),
          ("trapz/x", "numpy", "trapz", [f32(5)], {"x": T(np.array([0, 1, 3, 4, 7], np.float32))}),
          ("unwrap/basic", "numpy", "unwrap", [T(np.array([0, 3, 6.5, 1, -3], np.float32))], {}),
          ("digitize/basic", "numpy", "digitize", [f32(6), T(np.array([-1, 0, 1], np.float32))], {}),
          ("digitize/right", "numpy", "digitize", [T(np.array([-1, 0, 0.5], np.float32)),
                                                   T(np.array([-1, 0, 1], np.float32))], {"right": True}),
          ("searchsorted/left", "numpy", "searchsorted", [T(np.array([1, 2, 2, 5], np.float32)),
                                                          T(np.array([2, 0, 6], np.float32))], {}),
          ("searchsorted/right", "numpy", "searchsorted", [T(np.array([1, 2, 2, 5], np.float32)),
                                                           T(np.array([2, 0, 6], np.float32))], {"side": "right"}),
          ("bincount/basic", "numpy", "bincount", [i32(8, lo=0, hi=5)], {}),
          ("bincount/w", "numpy", "bincount", [i32(4, lo=0, hi=3)], {"weights": f32(4), "minlength": 5}),
          ("histogram/basic", "numpy", "histogram", [f32(20)], {}),
          ("histogram/range", "numpy", "histogram", [f32(20)], {"bins": 4, "range": (-1, 1)}),
          ("histogram_bin_edges/basic", "numpy", "histogram_bin_edges", [f32(10)], {"bins": 3}),
          ("histogram2d/basic", "numpy", "histogram2d", [f32(10), f32(10)], {"bins": 3}),
          ("isclose/basic", "numpy", "isclose", [T(np.array([1, 1.0001, np.nan], np.float32)),
                                                 T(np.array([1, 1, np.nan], np.float32))], {}),
          ("isclose/nan", "numpy", "isclose", [T(np.array([1, np.nan], np.float32)),
                                               T(np.array([1, np.nan], np.float32))], {"equal_nan": True}),
          ("array_equal/basic", "numpy", "array_equal", [a, a], {}),
          ("array_equiv/basic", "numpy", "array_equiv", [f32(3), f32(3)], {}),
          ("isin/basic", "numpy", "isin", [i32(2, 3), i32(3)], {}),
          ("isin/invert", "numpy", "isin", [i32(4), i32(3)], {"invert": True}),
          ("in1d/basic", "numpy", "in1d", [i32(2, 3), i32(3)], {}),
          ("intersect1d/basic", "numpy", "intersect1d", [i32(6), i32(6)], {}),
          ("setdiff1d/basic", "numpy", "setdiff1d", [i32(6), i32(3)], {}),
          ("unique/basic", "numpy", "unique", [i32(8)], {}),
          ("unique/inverse", "numpy", "unique", [i32(2, 4)], {"return_inverse": True}),
          ("polyadd/basic", "numpy", "polyadd", [f32(3), f32(2)], {}),
          ("polysub/basic", "numpy", "polysub", [f32(2), f32(3)], {}),
          ("polymul/basic", "numpy", "polymul", [f32(3), f32(2)], {}),
          ("polyder/basic", "numpy", "polyder", [f32(4)], {}), ("polyder/m2", "numpy", "polyder", [f32(4), 2], {}),
          ("polyint/basic", "numpy", "polyint", [f32(3)], {}),
          ("polyval/basic", "numpy", "polyval", [f32(3), f32(4)], {}),
          ("argwhere/basic", "numpy", "argwhere", [i32(2, 3)], {}),
          ("float_power/pyint", "numpy", "float_power", [i32(3, lo=1), 2], {})]
    return c


def mint_cases():
    c = []
    un = ("abs acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh ceil cos cosh erf erfc "
          "erfinv exp exp2 expm1 floor frac isfinite isinf isnan isneginf log log10 log1p log2 logical_not neg "
          "negative reciprocal rsqrt sigmoid sign sin sinc sinh sqrt square tan tanh ravel").split()
    for n in un:
        dom = (T((rng.random((2, 3)) * 3 + 1).astype(np.float32)) if "cosh" in n and "a" in n
               else unit(2, 3) if n in ("acos", "arccos", "asin", "arcsin", "atanh", "arctanh", "erfinv")
               else pos(2, 3) if n in ("log", "log10", "log2", "sqrt", "rsqrt") else f32(2, 3))
        c.append((f"{n}/f32", "mint", n, [dom], {}))
        c.append((f"{n}/f16", "mint", n, [f16(4)], {}))
        c.append((f"{n}/i32", "mint", n, [i32(4, lo=1)], {}))
        c.append((f"{n}/special", "mint", n, [SPECIAL], {}))
    bi = ("add sub mul div divide arctan2 atan2 eq ne not_equal greater gt greater_equal le less lt less_equal maximum "
          "minimum logaddexp logaddexp2 logical_and logical_or logical_xor float_power pow fmod remainder "
          "floor_divide xlogy").split()
    for n in bi:
        c.append((f"{n}/bcast", "mint", n, [f32(2, 3), pos(3)], {}))
        c.append((f"{n}/i32", "mint", n, [i32(4), i32(4, lo=1)], {}))
        c.append((f"{n}/f16_f32", "mint", n, [f16(3), f32(3)], {}))
        c.append((f"{n}/scalar", "mint", n, [f32(3), 2.0], {}))
    for n in ("gcd", "bitwise_and", "bitwise_or", "bitwise_xor"):
        c.append((f"{n}/i32", "mint", n, [i32(5), i32(5, lo=1)], {}))
    c.append(("bitwise_not/i32", "mint", "bitwise_not", [i32(4)], {}))
    c.append(("bitwise_not/bool", "mint", "bitwise_not", [b(4)], {}))
    c.append(("add/alpha", "mint", "add", [f32(3), f32(3)], {"alpha": 2}))
    c.append(("sub/alpha", "mint", "sub", [i32(3), i32(3)], {"alpha": 3}))
    c.append(("div/floor", "mint", "div", [f32(4), pos(4)], {"rounding_mode": "floor"}))
    c.append(("div/trunc", "mint", "div", [i32(4), i32(4, lo=1)], {"rounding_mode": "trunc"}))
    for n, args in (("mm", [f32(2, 3), f32(3, 4)]), ("matmul", [f32(2, 2, 3), f32(3, 4)]), ("bmm", [f32(2, 2, 3),
                    f32(2, 3, 2)]), ("dot", [f32(3), f32(3)]), ("outer", [f32(3), f32(2)]), ("vdot", [f32(3), f32(3)]),
                    ("mv", [f32(2, 3), f32(3)]), ("masked_select", [f32(2, 3), b(2, 3)]),
                    ("polar", [pos(3), f32(3)]), ("lerp", [f32(3), f32(3), 0.3]),
                    ("addcdiv", [f32(3), f32(3), pos(3)]), ("addmm", [f32(2, 2), f32(2, 3), f32(3, 2)]),
                    ("baddbmm", [f32(2, 2, 2), f32(2, 2, 3), f32(2, 3, 2)]), ("addmv", [f32(2), f32(2, 3), f32(3)]),
                    ("addbmm", [f32(2, 2), f32(3, 2, 3), f32(3, 3, 2)]), ("addr_", [f32(2, 3), f32(2), f32(3)]),
                    ("clamp", [f32(2, 3), -0.5, 0.5]), ("clamp", [i32(5), 0]),
                    ("isclose", [f32(3), f32(3)]), ("allclose", [f32(3), f32(3)]),
                    ("nan_to_num", [SPECIAL]), ("round", [f32(5)]), ("cross", [f32(3, 3), f32(3, 3)]),
                    ("where", [b(2, 3), f32(2, 3), f32(3)]), ("trace", [f32(3, 3)]), ("inverse", [f32(3, 3)])):
        c.append((f"{n}/{len([x for x in c if x[2] == n])}", "mint", n, args, {}))
    c.append(("addmm/beta", "mint", "addmm", [f32(2, 2), f32(2, 3), f32(3, 2)], {"beta": 0.5, "alpha": 2}))
    c.append(("round/decimals", "mint", "round", [f32(5)], {"decimals": 2}))
    c.append(("nan_to_num/vals", "mint", "nan_to_num", [SPECIAL], {"nan": 1.0, "posinf": 9.0, "neginf": -9.0}))
    x, xi = f32(2, 3, 4), i32(2, 3)
    for n in ("sum", "mean", "prod", "nansum", "amax", "amin", "all", "any", "std", "var", "std_mean", "var_mean",
              "logsumexp", "argmax", "argmin", "max", "min", "median", "count_nonzero", "norm"):
        c.append((f"{n}/all", "mint", n, [x], {} if n != "logsumexp" else {"dim": (0, 1, 2)}))
        c.append((f"{n}/dim", "mint", n, [x], {"dim": 1}))
        c.append((f"{n}/keep", "mint", n, [x], {"dim": 2, "keepdim": True}))
        if n not in ("logsumexp", "std", "var", "std_mean", "var_mean", "mean", "norm", "median"):
            c.append((f"{n}/i32", "mint", n, [xi], {}))
    c.append(("sum/dtype", "mint", "sum", [xi], {"dim": 1, "dtype": D("float32")}))
    c.append(("sum/bool", "mint", "sum", [b(3, 2)], {}))
    c.append(("std/correction", "mint", "std", [x], {"dim": 0, "correction": 0}))
    c.append(("max/other", "mint", "max", [f32(3), f32(3)], {}))
    c.append(("norm/p1", "mint", "norm", [x], {"p": 1, "dim": 1}))
    c.append(("norm/fro", "mint", "norm", [f32(3, 4)], {"p": "fro"}))
    for n in ("cumsum", "cumprod", "cummax", "cummin"):
        c.append((f"{n}/f32", "mint", n, [f32(2, 3)], {"dim": 1}))
        c.append((f"{n}/i32", "mint", n, [xi], {"dim": 0}))
    a = f32(3, 4)
    c += [("softmax/dim", "mint", "softmax", [a], {"dim": 0}),
          ("sort/basic", "mint", "sort", [a], {}), ("sort/desc", "mint", "sort", [a], {"dim": 0, "descending": True}),
          ("argsort/basic", "mint", "argsort", [a], {"dim": 1}),
          ("topk/basic", "mint", "topk", [a, 2], {}), ("topk/small", "mint", "topk", [a, 2],
                                                         {"dim": 0, "largest": False}),
          ("kthvalue/basic", "mint", "kthvalue", [a, 2], {}),
          ("kthvalue/keep", "mint", "kthvalue", [a, 1], {"dim": 0, "keepdim": True}),
          ("searchsorted/basic", "mint", "searchsorted", [T(np.array([1, 2, 2, 5], np.float32)),
                                                          T(np.array([2, 0, 6], np.float32))], {}),
          ("searchsorted/right", "mint", "searchsorted", [T(np.array([1, 2, 2, 5], np.float32)),
                                                          T(np.array([2, 0, 6], np.float32))], {"right": True}),
          ("unique_consecutive/basic", "mint", "unique_consecutive", [T(np.array([1, 1, 2, 2, 3, 1], np.int64))],
           {"return_inverse": True, "return_counts": True}),
          ("bincount/basic", "mint", "bincount", [i64(6, lo=0)], {}),
          ("histc/basic", "mint", "histc", [f32(10)], {"bins": 4, "min": -1, "max": 1}),
          ("gather/basic", "mint", "gather", [a, 1, i64(3, 2, lo=0, hi=4)], {}),
          ("index_select/basic", "mint", "index_select", [a, 1, i32(2, lo=0, hi=4)], {}),
          ("index_add/basic", "mint", "index_add", [a, 0, i32(2, lo=0, hi=3), f32(2, 4)], {}),
          ("scatter/basic", "mint", "scatter", [a, 1, i64(3, 2, lo=0, hi=4), f32(3, 2)], {}),
          ("scatter_add/basic", "mint", "scatter_add", [a, 1, i64(3, 2, lo=0, hi=4), f32(3, 2)], {}),
          ("take/basic", "mint", "take", [a, i64(4, lo=0, hi=12)], {}),
          ("narrow/basic", "mint", "narrow", [a, 1, 1, 2], {}),
          ("select/basic", "mint", "select", [a, 1, -1], {}),
          ("nonzero/basic", "mint", "nonzero", [i32(2, 3)], {}),
          ("nonzero/tuple", "mint", "nonzero", [i32(2, 3)], {"as_tuple": True}),
          ("cat/basic", "mint", "cat", [[a, a]], {"dim": 1}), ("concat/basic", "mint", "concat", [[a, a]], {}),
          ("stack/basic", "mint", "stack", [[a, a]], {"dim": 2}),
          ("hstack/basic", "mint", "hstack", [[a, a]], {}), ("dstack/basic", "mint", "dstack", [[a, a]], {}),
          ("split/int", "mint", "split", [a, 2], {"dim": 1}), ("split/list", "mint", "split", [a, [1, 2]], {}),
          ("chunk/basic", "mint", "chunk", [a, 2], {"dim": 1}), ("unbind/basic", "mint", "unbind", [a], {"dim": 1}),
          ("reshape/basic", "mint", "reshape", [a, (2, -1)], {}),
          ("flatten/basic", "mint", "flatten", [f32(2, 3, 4)], {}),
          ("flatten/range", "mint", "flatten", [f32(2, 3, 4)], {"start_dim": 1}),
          ("squeeze/basic", "mint", "squeeze", [f32(1, 3, 1)], {}),
          ("squeeze/dim", "mint", "squeeze", [f32(1, 3, 1)], {"dim": 2}),
          ("unsqueeze/basic", "mint", "unsqueeze", [a, 1], {}),
          ("permute/basic", "mint", "permute", [f32(2, 3, 4), (2, 0, 1)], {}),
          ("transpose/basic", "mint", "transpose", [f32(2, 3, 4), 0, 2], {}),
          ("swapaxes/basic", "mint", "swapaxes", [f32(2, 3, 4), 0, 1], {}), ("t/basic", "mint", "t", [a], {}),
          ("broadcast_to/basic", "mint", "broadcast_to", [f32(3), (2, 3)], {}),
          ("flip/basic", "mint", "flip", [a, (0, 1)], {}),
          ("roll/basic", "mint", "roll", [a, 1], {}), ("roll/dims", "mint", "roll", [a, (1, -1), (0, 1)], {}),
          ("tile/basic", "mint", "tile", [a, (2, 1)], {}),
          ("repeat_interleave/basic", "mint", "repeat_interleave", [a, 2], {"dim": 0}),
          ("tril/basic", "mint", "tril", [a], {"diagonal": 1}), ("triu/basic", "mint", "triu", [a], {}),
          ("diff/basic", "mint", "diff", [a], {}), ("diag/vec", "mint", "diag", [f32(3)], {}),
          ("diag/mat", "mint", "diag", [a], {"diagonal": 1}),
          ("meshgrid/basic", "mint", "meshgrid", [f32(3), f32(2)], {}),
          ("meshgrid/xy", "mint", "meshgrid", [f32(3), f32(2)], {"indexing": "xy"}),
          ("einsum/basic", "mint", "einsum", ["ij,jk->ik", f32(2, 3), f32(3, 2)], {}),
          ("cdist/basic", "mint", "cdist", [f32(3, 2), f32(4, 2)], {}),
          ("triangular_solve/basic", "mint", "triangular_solve",
           [f32(3, 2), T(np.triu(rng.standard_normal((3, 3))).astype(np.float32) + 3 * np.eye(3, dtype=np.float32))],
           {}),
          ("arange/int", "mint", "arange", [5], {}), ("arange/float", "mint", "arange", [0, 2, 0.5], {}),
          ("eye/basic", "mint", "eye", [3], {}), ("eye/m", "mint", "eye", [2, 3], {"dtype": D("int32")}),
          ("zeros/basic", "mint", "zeros", [(2, 3)], {}), ("ones_like/basic", "mint", "ones_like", [i32(3)], {}),
          ("zeros_like/dtype", "mint", "zeros_like", [a], {"dtype": D("int32")}),
          ("full/int", "mint", "full", [(2, 2), 3], {}), ("full/float", "mint", "full", [(2,), 1.5], {}),
          ("full_like/basic", "mint", "full_like", [a, 2], {}), ("clone/basic", "mint", "clone", [a], {}),
          ("real/basic", "mint", "real", [f32(3)], {}), ("imag/basic", "mint", "imag",
                                                         [T(np.array([1 + 2j, 3 - 1j], np.complex64))], {})]
    return c


def functional_cases():
    x4, x3, x2 = f32(2, 3, 6, 6), f32(2, 3, 8), f32(4, 5)
    tgt = i64(4, lo=0, hi=5)
    c = [("relu/basic", "F", "relu", [x2], {}), ("relu6/basic", "F", "relu6", [T(np.array([-1, 3, 7], np.float32))],
                                                 {}),
         ("relu_/basic", "F", "relu_", [x2], {}),
         ("sigmoid/basic", "F", "sigmoid", [x2], {}), ("tanh/basic", "F", "tanh", [x2], {}),
         ("silu/basic", "F", "silu", [x2], {}), ("gelu/basic", "F", "gelu", [x2], {}),
         ("gelu/tanh", "F", "gelu", [x2], {"approximate": "tanh"}), ("elu/basic", "F", "elu", [x2], {"alpha": 0.5}),
         ("leaky_relu/basic", "F", "leaky_relu", [x2], {}), ("hardtanh/basic", "F", "hardtanh", [x2], {}),
         ("threshold/basic", "F", "threshold", [x2, 0.1, 20.0], {}), ("glu/basic", "F", "glu", [f32(4, 6)], {}),
         ("logsigmoid/basic", "F", "logsigmoid", [x2], {}),
         ("prelu/basic", "F", "prelu", [f32(2, 3, 4), T(np.array([0.1, 0.2, 0.3], np.float32))], {}),
         ("softmax/basic", "F", "softmax", [x2], {"dim": 1}),
         ("log_softmax/basic", "F", "log_softmax", [x2], {"dim": 0}),
         ("linear/basic", "F", "linear", [x2, f32(3, 5), f32(3)], {}),
         ("normalize/basic", "F", "normalize", [x2], {}),
         ("flatten/basic", "F", "flatten", [x4], {"start_dim": 1}),
         ("one_hot/basic", "F", "one_hot", [tgt], {"num_classes": 6}),
         ("pad/constant", "F", "pad", [x4, (1, 2)], {"value": 0.5}),
         ("pad/reflect", "F", "pad", [x4, (1, 1, 2, 0)], {"mode": "reflect"}),
         ("dropout/eval", "F", "dropout", [x2], {"training": False}),
         ("embedding/basic", "F", "embedding", [i64(2, 3, lo=0, hi=5), f32(5, 4)], {}),
         ("conv1d/basic", "F", "conv1d", [x3, f32(4, 3, 3)], {"padding": 1}),
         ("conv2d/basic", "F", "conv2d", [x4, f32(4, 3, 3, 3), f32(4)], {"stride": 2, "padding": 1}),
         ("conv_transpose2d/basic", "F", "conv_transpose2d", [x4, f32(3, 2, 3, 3)], {"stride": 2}),
         ("avg_pool2d/basic", "F", "avg_pool2d", [x4, 2], {}),
         ("avg_pool2d/pad", "F", "avg_pool2d", [x4, 3], {"stride": 2, "padding": 1}),
         ("max_pool2d/basic", "F", "max_pool2d", [x4, 2], {}),
         ("adaptive_avg_pool2d/basic", "F", "adaptive_avg_pool2d", [x4, (2, 3)], {}),
         ("adaptive_avg_pool1d/basic", "F", "adaptive_avg_pool1d", [x3, 4], {}),
         ("adaptive_max_pool2d/basic", "F", "adaptive_max_pool2d", [x4, 3], {}),
         ("avg_pool1d/basic", "F", "avg_pool1d", [x3, 2], {}),
         ("batch_norm/eval", "F", "batch_norm", [x4, f32(3), pos(3)], {}),
         ("group_norm/basic", "F", "group_norm", [f32(2, 4, 3), 2], {}),
         ("layer_norm/basic", "F", "layer_norm", [f32(2, 3, 4), (4,)], {}),
         ("mse_loss/basic", "F", "mse_loss", [x2, f32(4, 5)], {}),
         ("mse_loss/none", "F", "mse_loss", [x2, f32(4, 5)], {"reduction": "none"}),
         ("binary_cross_entropy/basic", "F", "binary_cross_entropy", [T(rng.random((4, 5)).astype(np.float32)),
                                                                      T(rng.random((4, 5)).astype(np.float32))], {}),
         ("binary_cross_entropy_with_logits/basic", "F", "binary_cross_entropy_with_logits",
          [x2, T(rng.random((4, 5)).astype(np.float32))], {}),
         ("cross_entropy/basic", "F", "cross_entropy", [x2, tgt], {}),
         ("cross_entropy/smooth", "F", "cross_entropy", [x2, tgt], {"label_smoothing": 0.1}),
         ("nll_loss/basic", "F", "nll_loss", [x2, tgt], {}),
         ("kl_div/basic", "F", "kl_div", [x2, T(rng.random((4, 5)).astype(np.float32))], {}),
         ("soft_margin_loss/basic", "F", "soft_margin_loss", [x2, T(np.sign(rng.standard_normal((4, 5))).astype(
             np.float32))], {}),
         ("cosine_embedding_loss/basic", "F", "cosine_embedding_loss",
          [x2, f32(4, 5), T(np.array([1, -1, 1, -1], np.int32))], {}),
         ("pixel_shuffle/basic", "F", "pixel_shuffle", [f32(1, 8, 2, 2), 2], {}),
         ("interpolate/nearest", "F", "interpolate", [x4], {"size": (3, 4)}),
         ("interpolate/bilinear", "F", "interpolate", [x4], {"scale_factor": 2.0, "mode": "bilinear",
                                                             "align_corners": False}),
         ("unfold/basic", "F", "unfold", [f32(1, 2, 4, 4), 2], {}),
         ("fold/basic", "F", "fold", [f32(1, 8, 9), (4, 4), 2], {})]
    return [("F." + case[0],) + tuple(case[1:]) for case in c]


# mint names whose CPU kernel MindSpore 2.10 lacks, and the real MindSpore function with the same semantics for the
# arguments recorded here (positional arguments only, or the listed keyword names).
_SAME_AS_OPS = set(("abs acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh ceil cos cosh "
                    "erf erfc erfinv exp exp2 expm1 floor frac isfinite isinf isnan isneginf log log10 log1p log2 "
                    "logical_not neg negative reciprocal rsqrt sigmoid sign sin sinc sinh sqrt square tan tanh ravel "
                    "add sub mul div divide arctan2 atan2 eq ne not_equal greater gt greater_equal le less lt "
                    "less_equal maximum minimum logaddexp logaddexp2 logical_and logical_or logical_xor float_power "
                    "pow fmod remainder floor_divide xlogy gcd bitwise_and bitwise_or bitwise_xor mm matmul bmm dot "
                    "outer mv masked_select polar lerp addcdiv clamp isclose nan_to_num round cross where trace "
                    "inverse tril triu roll tile flip diag eye zeros ones_like zeros_like full full_like arange "
                    "take narrow index_select").split())
def _ren(fn, **names):
    """A call of ``fn`` with mint's keyword names renamed (``dim`` -> ``axis`` ...) and mint's defaults added."""
    defaults = names.pop("_defaults", {})

    def call(*args, **kwargs):
        kw = dict(defaults)
        kw.update(kwargs)
        return fn(*args, **{names.get(k, k): v for k, v in kw.items()})
    return call


_MINT_RENAMED = {
    "argmax": lambda: _ren(ops.argmax), "argmin": lambda: _ren(ops.argmin, dim="axis", keepdim="keepdims"),
    "sum": lambda: _ren(ops.sum), "nansum": lambda: _ren(ops.nansum, dim="axis", keepdim="keepdims"),
    "std": lambda: _ren(ops.std, dim="axis", correction="ddof", keepdim="keepdims", _defaults={"correction": 1}),
    "var": lambda: _ren(ops.var, dim="axis", correction="ddof", keepdim="keepdims", _defaults={"correction": 1}),
    "std_mean": lambda: _ren(ops.std_mean, dim="axis", correction="ddof", keepdim="keepdims",
                             _defaults={"correction": 1}),
    "var_mean": lambda: _ren(ops.var_mean, dim="axis", correction="ddof", keepdim="keepdims",
                             _defaults={"correction": 1}),
    "logsumexp": lambda: _ren(ops.logsumexp), "sort": lambda: _ren(ops.sort, dim="axis"),
    "topk": lambda: _ren(ops.topk), "cumsum": lambda: _ren(ops.cumsum, dim="axis"),
    "cummin": lambda: _ren(ops.cummin, dim="axis"), "softmax": lambda: _ren(ops.softmax, dim="axis"),
    "argsort": lambda: _ren(ops.argsort, dim="axis"), "gather": lambda: ops.gather_elements,
    "stack": lambda: _ren(ops.stack, dim="axis"), "hstack": lambda: ops.hstack,
    "repeat_interleave": lambda: _ren(ops.repeat_interleave, dim="axis"),
}
_F_RENAMED = {
    "relu6": lambda: ops.relu6, "sigmoid": lambda: ops.sigmoid, "tanh": lambda: ops.tanh,
    "logsigmoid": lambda: ops.logsigmoid, "relu_": lambda: ops.relu, "elu": lambda: ops.elu,
    "hardtanh": lambda: ops.hardtanh, "threshold": lambda: ops.threshold, "prelu": lambda: ops.prelu,
    "leaky_relu": lambda: _ren(ops.leaky_relu, _defaults={"negative_slope": 0.01}, negative_slope="alpha"),
    "softmax": lambda: _ren(ops.softmax, dim="axis"), "log_softmax": lambda: _ren(ops.log_softmax, dim="axis"),
    "linear": lambda: ops.dense, "mse_loss": lambda: ops.mse_loss, "kl_div": lambda: ops.kl_div,
    "soft_margin_loss": lambda: ops.soft_margin_loss, "nll_loss": lambda: ops.nll_loss,
    "cross_entropy": lambda: ops.cross_entropy, "layer_norm": lambda: ops.layer_norm,
    "cosine_embedding_loss": lambda: ops.cosine_embedding_loss, "embedding": lambda: ops.embedding,
    "adaptive_avg_pool2d": lambda: ops.adaptive_avg_pool2d, "adaptive_avg_pool1d": lambda: ops.adaptive_avg_pool1d,
    "adaptive_max_pool2d": lambda: ops.adaptive_max_pool2d,
}


def fallback(module, name, kwargs):
    if module == "mint" and name in _MINT_RENAMED:
        return f"ops.{name} (keywords renamed)", _MINT_RENAMED[name]()
    if module == "F" and name in _F_RENAMED:
        return f"ops.{name}", _F_RENAMED[name]()
    if module == "mint" and name in _SAME_AS_OPS and set(kwargs) <= {"alpha", "rounding_mode", "diagonal",
                                                                      "dtype", "equal_nan", "nan", "posinf",
                                                                      "neginf", "decimals"}:
        return f"ops.{name}", getattr(ops, name)
    return None


def signatures():
    """``{"numpy.add": "(x1, x2, dtype=None)", ...}`` for every public name with a Python signature."""
    names = json.loads((ROOT.parent / "shared" / "reference" / "mindspore_api_2.10" / "names.json").read_text()) \
        if (ROOT.parent / "shared").exists() else {}
    out = {}
    for key, mod, prefix in (("mindspore.numpy", mnp, "numpy"), ("mindspore.mint", mint, "mint"),
                             ("mindspore.mint.nn.functional", F, "mint.nn.functional")):
        for name in names.get(key, []):
            try:
                out[f"{prefix}.{name}"] = str(inspect.signature(getattr(mod, name)))
            except (TypeError, ValueError, AttributeError):
                continue
    return out


def main():
    modules = {"numpy": mnp, "mint": mint, "F": F}
    sigs = signatures()
    if sigs:
        (ROOT / "tests" / "fixtures" / "oracle" / "numpy_mint_signatures.json").write_text(
            json.dumps(sigs, indent=0, sort_keys=True).replace("mindspore.", "") + "\n")
    out = ROOT / "tests" / "fixtures" / "oracle"
    for fname, cases in (("numpy.npz", numpy_cases()), ("mint.npz", mint_cases() + functional_cases())):
        with FixtureWriter(out / fname) as w:
            record(w, cases, modules, ms, fallback)
        print(fname, len(cases), "cases", os.path.getsize(out / fname), "bytes")


if __name__ == "__main__":
    main()
