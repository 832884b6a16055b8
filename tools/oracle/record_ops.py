"""Record real MindSpore 2.10's ``ops`` functions, Primitives and Tensor methods on generated inputs.

Run with the MindSpore venv (never part of the project):

    ../ms-oracle/bin/python tools/oracle/record_ops.py      # writes tests/fixtures/oracle/ops_sweep.npz
    .venv/bin/python -m benchmarks.api_coverage --dump-names /tmp/names.json
    ../ms-oracle/bin/python tools/oracle/record_ops.py --auto /tmp/names.json /tmp/crashed.txt  # ops_auto.npz
    (a name whose call segfaults MindSpore is in /tmp/crashed.txt.progress: append it to crashed.txt, rerun)

A case's ``name`` says how it is called, the same way here and in ``tests/ops/test_oracle_ops.py``:

- ``ops.<f>``: ``ops.f(*inputs, **kwargs)``
- ``Tensor.<m>``: ``Tensor(inputs[0]).m(*inputs[1:], **kwargs)``
- ``P.<Cls>``: ``ops.Cls(**meta["init"])(*inputs)``

Inputs are positional arrays ``a0, a1, ...`` (scalars travel in ``kwargs`` or ``meta["scalars"]``). Outputs are
the returned Tensor(s); a raised error is recorded by its type.
"""
from __future__ import annotations

import importlib.util
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("oracle", ROOT / "tests" / "oracle.py")
oracle = importlib.util.module_from_spec(_spec)
sys.modules["oracle"] = oracle  # (dataclasses look their module up there)
_spec.loader.exec_module(oracle)

RNG = np.random.default_rng(2024)


def f32(*shape, lo=-3.0, hi=3.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def special_f32():
    """Values that stress elementwise ops: 0, -0, negatives, NaN, +-inf."""
    return np.array([[0.0, -0.0, 1.5, -2.25], [np.nan, np.inf, -np.inf, 0.5]], np.float32)


def ints(*shape, lo=-5, hi=6, dtype=np.int32):
    return RNG.integers(lo, hi, shape).astype(dtype)


UNARY_FLOAT = """abs neg exp expm1 log log1p log2 log10 sqrt rsqrt square reciprocal sin cos tan asin acos atan
sinh cosh asinh acosh atanh arcsinh arccosh arctanh sigmoid tanh relu sign floor ceil trunc erf erfc sinc frac
signbit sgn positive isnan isinf isfinite isneginf isposinf nan_to_num softsign mish logsigmoid selu hardswish
hardsigmoid tanhshrink exp2 deg2rad rad2deg relu6 silu fast_gelu softplus elu celu hardtanh softshrink hardshrink
inv logit angle real isreal""".split()
UNARY_POSITIVE = "log log2 log10 sqrt rsqrt acosh arccosh lgamma digamma".split()
UNARY_INT = "abs neg sign square isnan isfinite signbit positive invert population_count".split()
BINARY = """add sub mul div maximum minimum pow atan2 arctan2 hypot fmax fmin copysign heaviside logaddexp
logaddexp2 xlogy xdivy floor_div floor_divide floor_mod remainder fmod truncate_div truncate_mod equal not_equal
greater greater_equal less less_equal eq ne gt ge lt le subtract multiply true_divide nextafter
float_power""".split()
BINARY_INT = "add sub mul floor_div floor_mod gcd lcm bitwise_and bitwise_or bitwise_xor bitwise_left_shift " \
             "bitwise_right_shift truncate_div truncate_mod maximum minimum equal".split()
TENSOR_UNARY = """abs neg exp log sqrt square reciprocal sin cos tan sinh cosh asin acos atan tanh sigmoid floor
ceil trunc erf erfc log2 log10 log1p expm1 sign isnan isinf isfinite nan_to_num frac sinc arcsinh arctanh
deg2rad rad2deg t ravel flatten""".split()


def cases():
    """Yield (id, name, inputs list, kwargs, extra meta)."""
    x, xs, x16, x64 = f32(2, 3), special_f32(), f32(2, 3).astype(np.float16), f32(2, 3).astype(np.float64)
    pos = f32(2, 3, lo=0.1, hi=4.0)
    for n in UNARY_FLOAT:
        yield f"ops.{n}/f32", f"ops.{n}", [x], {}, {}
        yield f"ops.{n}/special", f"ops.{n}", [xs], {}, {}
        yield f"ops.{n}/f16", f"ops.{n}", [x16], {}, {}
        if n in UNARY_FLOAT[::3]:  # (a third of the names: keeps the replay short)
            yield f"ops.{n}/f64", f"ops.{n}", [x64], {}, {}
            yield f"ops.{n}/empty", f"ops.{n}", [np.zeros((0, 3), np.float32)], {}, {}
    for n in UNARY_POSITIVE:
        yield f"ops.{n}/pos", f"ops.{n}", [pos], {}, {}
    for n in UNARY_INT:
        yield f"ops.{n}/i32", f"ops.{n}", [ints(2, 3)], {}, {}
        yield f"ops.{n}/i64", f"ops.{n}", [ints(4, dtype=np.int64)], {}, {}
    for n in UNARY_FLOAT[:20]:
        if n not in UNARY_INT:
            yield f"ops.{n}/i32", f"ops.{n}", [ints(2, 3)], {}, {}
    for n in BINARY:
        yield f"ops.{n}/f32", f"ops.{n}", [f32(2, 3), f32(2, 3)], {}, {}
        yield f"ops.{n}/bcast", f"ops.{n}", [f32(2, 1, 3), f32(4, 1)], {}, {}
        yield f"ops.{n}/f16", f"ops.{n}", [x16, f32(3).astype(np.float16)], {}, {}
        if n in BINARY[::2]:
            yield f"ops.{n}/special", f"ops.{n}", [xs, f32(2, 4)], {}, {}
        yield f"ops.{n}/f32_i32", f"ops.{n}", [f32(3), ints(3)], {}, {}
    for n in BINARY_INT:
        yield f"ops.{n}/i32", f"ops.{n}", [ints(2, 3, lo=1), ints(2, 3, lo=1, hi=4)], {}, {}
        yield f"ops.{n}/i64", f"ops.{n}", [ints(3, lo=1, dtype=np.int64), ints(3, lo=1, hi=4, dtype=np.int64)], {}, {}
    for n in TENSOR_UNARY:
        yield f"Tensor.{n}/f32", f"Tensor.{n}", [x], {}, {}
        yield f"Tensor.{n}/special", f"Tensor.{n}", [xs], {}, {}
    yield from reductions()
    yield from array_cases()
    yield from nn_cases()
    yield from primitive_cases()
    yield from more_cases()
    yield from primitive_more()
    yield from misc_cases()


def reductions():
    x, xi = f32(3, 4), ints(3, 4)
    xb = np.array([[True, False], [True, True]])
    for n in ["sum", "mean", "prod", "amax", "amin", "std", "var", "nansum", "nanmean"]:
        yield f"ops.{n}/all", f"ops.{n}", [x], {}, {}
        yield f"ops.{n}/ax1", f"ops.{n}", [x], {}, {"pos": [1]}
        yield f"Tensor.{n}/ax0", f"Tensor.{n}", [x], {"axis": 0}, {}
    for n in ["sum", "prod", "amax", "amin"]:
        yield f"ops.{n}/i32", f"ops.{n}", [xi], {}, {"pos": [1]}
    yield "ops.sum/bool", "ops.sum", [xb], {}, {}
    yield "ops.mean/i32", "ops.mean", [xi], {}, {}
    for n in ["max", "min"]:
        yield f"ops.{n}/ax1", f"ops.{n}", [x], {"axis": 1}, {}
        yield f"ops.{n}/keep", f"ops.{n}", [x], {"axis": 0, "keepdims": True}, {}
        yield f"Tensor.{n}/idx", f"Tensor.{n}", [x], {"axis": 1, "return_indices": True}, {}
        yield f"Tensor.{n}/all", f"Tensor.{n}", [x], {}, {}
    for n in ["argmax", "argmin"]:
        yield f"ops.{n}/ax1", f"ops.{n}", [x], {}, {"pos": [1]}
        yield f"ops.{n}/flat", f"ops.{n}", [x], {}, {}
        yield f"Tensor.{n}/ax1", f"Tensor.{n}", [x], {"axis": 1}, {}
    for n in ["cummax", "cummin", "cumsum", "cumprod", "logcumsumexp"]:
        yield f"ops.{n}/ax1", f"ops.{n}", [x], {}, {"pos": [1]}
    yield "ops.logsumexp/kw", "ops.logsumexp", [x], {"dim": 1, "keepdim": True}, {}
    yield "Tensor.logsumexp/ax", "Tensor.logsumexp", [x], {}, {"pos": [1]}
    yield "ops.all/b", "ops.all", [xb], {}, {}
    yield "ops.any/ax", "ops.any", [xb], {"axis": 1}, {}
    yield "ops.count_nonzero/i", "ops.count_nonzero", [xi], {}, {}
    yield "ops.aminmax/ax", "ops.aminmax", [x], {"axis": 1}, {}
    yield "ops.topk/k2", "ops.topk", [x], {}, {"pos": [2]}
    yield "ops.topk/small", "ops.topk", [x], {"dim": 0, "largest": False}, {"pos": [2]}
    yield "ops.top_k/k2", "ops.top_k", [x], {}, {"pos": [2]}
    yield "ops.sort/desc", "ops.sort", [x], {"descending": True}, {}
    yield "ops.argsort/ax0", "ops.argsort", [x], {"axis": 0}, {}
    yield "ops.median/ax", "ops.median", [x], {"axis": 1}, {}
    yield "ops.msort/x", "ops.msort", [x], {}, {}
    yield "ops.diff/x", "ops.diff", [x], {}, {}
    yield "ops.trapz/x", "ops.trapz", [x], {}, {}
    yield "ops.cov/x", "ops.cov", [x], {}, {}
    yield "ops.renorm/x", "ops.renorm", [x], {}, {"pos": [2, 0, 1.0]}
    yield "ops.dist/x", "ops.dist", [x, f32(3, 4)], {}, {}
    yield "ops.histc/x", "ops.histc", [x], {"bins": 4}, {}
    yield "ops.cond/x", "ops.cond", [f32(3, 3)], {}, {}
    yield "ops.nanmedian/x", "ops.nanmedian", [special_f32()], {}, {}
    yield "ops.quantile/x", "ops.quantile", [x, np.array([0.25, 0.5], np.float32)], {"axis": 1}, {}


def array_cases():
    x, x3 = f32(2, 3), f32(3, 3)
    xi = np.array([3, 1, 3, 2, 1, 5], np.int32)
    yield "ops.unique/i32", "ops.unique", [xi], {}, {}
    yield "ops.unique/i64", "ops.unique", [xi.astype(np.int64)], {}, {}
    yield "ops.unique/f32", "ops.unique", [xi.astype(np.float32)], {}, {}
    yield "Tensor.unique/i32", "Tensor.unique", [xi], {}, {}
    yield "ops.unique_consecutive/x", "ops.unique_consecutive", [np.array([1, 1, 2, 2, 3, 1], np.int64)], \
        {"return_inverse": True, "return_counts": True}, {}
    yield "ops.diag/1d", "ops.diag", [f32(3)], {}, {}
    yield "ops.diag/2d", "ops.diag", [x], {}, {}
    yield "ops.cross/33", "ops.cross", [x3, f32(3, 3)], {}, {}
    yield "ops.cross/dim1", "ops.cross", [x3, f32(3, 3)], {"dim": 1}, {}
    yield "ops.cross/23", "ops.cross", [f32(2, 3), f32(2, 3)], {}, {}
    for n in ["hstack", "vstack", "dstack", "column_stack", "row_stack"]:
        yield f"ops.{n}/2d", f"ops.{n}", [x, x], {}, {"seq": True}
        yield f"ops.{n}/1d", f"ops.{n}", [f32(3), f32(3)], {}, {"seq": True}
    yield "ops.hsplit/x", "ops.hsplit", [f32(2, 4)], {}, {"pos": [2]}
    yield "ops.vsplit/x", "ops.vsplit", [f32(4, 2)], {}, {"pos": [2]}
    yield "ops.tensor_split/x", "ops.tensor_split", [f32(7, 2)], {}, {"pos": [3]}
    yield "ops.diagonal/x", "ops.diagonal", [f32(3, 4)], {"offset": 1}, {}
    yield "ops.diagonal/3d", "ops.diagonal", [f32(2, 3, 4)], {"dim1": 1, "dim2": 2}, {}
    yield "ops.diag_embed/x", "ops.diag_embed", [x], {}, {}
    yield "ops.diag_embed/off", "ops.diag_embed", [x], {"offset": 1}, {}
    yield "ops.diagflat/x", "ops.diagflat", [f32(3)], {"offset": -1}, {}
    yield "ops.fliplr/x", "ops.fliplr", [x], {}, {}
    yield "ops.flipud/x", "ops.flipud", [x], {}, {}
    yield "ops.rot90/x", "ops.rot90", [x], {}, {"pos": [1, [0, 1]]}
    yield "ops.ravel/x", "ops.ravel", [x], {}, {}
    yield "ops.t/x", "ops.t", [x], {}, {}
    yield "ops.swapdims/x", "ops.swapdims", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "ops.expand/x", "ops.expand", [f32(3, 1), np.array([3, 4], np.int32)], {}, {}
    yield "ops.take/x", "ops.take", [x, np.array([[0, 5], [2, 3]], np.int64)], {}, {}
    yield "ops.searchsorted/x", "ops.searchsorted", [np.array([1, 3, 5, 7], np.float32),
                                                     np.array([0, 3, 6, 8], np.float32)], {}, {}
    yield "ops.searchsorted/right", "ops.searchsorted", [np.array([1, 3, 5, 7], np.float32),
                                                         np.array([3, 6], np.float32)], {"right": True,
                                                                                        "out_int32": True}, {}
    yield "ops.bucketize/x", "ops.bucketize", [np.array([0, 3, 6, 8], np.float32)], {}, {"pos": [[1.0, 3.0, 5.0]]}
    yield "ops.argwhere/x", "ops.argwhere", [np.array([[1, 0], [0, 2]], np.int32)], {}, {}
    yield "ops.transpose/dims", "ops.transpose", [f32(2, 3, 4)], {"dims": (2, 0, 1)}, {}
    yield "ops.roll/x", "ops.roll", [x], {}, {"pos": [1, 1]}
    yield "Tensor.roll/x", "Tensor.roll", [x], {}, {"pos": [1, 1]}
    yield "ops.tril_indices/x", "ops.tril_indices", [], {}, {"pos": [3, 4]}
    yield "ops.triu_indices/x", "ops.triu_indices", [], {}, {"pos": [3, 4, 1]}
    yield "ops.cartesian_prod/x", "ops.cartesian_prod", [np.array([1, 2], np.int32), np.array([3, 4, 5], np.int32)], \
        {}, {}
    yield "ops.combinations/x", "ops.combinations", [np.array([1, 2, 3, 4], np.int32)], {}, {}
    yield "ops.block_diag/x", "ops.block_diag", [f32(2, 2), f32(1, 3)], {}, {}
    yield "ops.vander/x", "ops.vander", [f32(3)], {}, {}
    yield "ops.channel_shuffle/x", "ops.channel_shuffle", [f32(1, 4, 2, 2)], {}, {"pos": [2]}
    yield "ops.pixel_shuffle/x", "ops.pixel_shuffle", [f32(1, 4, 2, 2)], {}, {"pos": [2]}
    yield "ops.pixel_unshuffle/x", "ops.pixel_unshuffle", [f32(1, 1, 4, 4)], {}, {"pos": [2]}
    idx = np.array([[0], [2]], np.int32)
    yield "ops.tensor_scatter_elements/x", "ops.tensor_scatter_elements", \
        [f32(3, 3), np.array([[1, 0, 2], [0, 2, 1]], np.int32), f32(2, 3)], {}, {}
    yield "ops.tensor_scatter_elements/add", "ops.tensor_scatter_elements", \
        [f32(3, 3), np.array([[1], [0]], np.int64), f32(2, 1)], {"axis": 1, "reduction": "add"}, {}
    for k in ["sub", "mul", "div", "max", "min"]:
        yield f"ops.tensor_scatter_{k}/x", f"ops.tensor_scatter_{k}", [f32(3, 2), idx, f32(2, 2)], {}, {}
    yield "ops.index_fill/x", "ops.index_fill", [x, np.array([0, 2], np.int32)], {}, {"pos": [1, None, 5.0],
                                                                                      "order": [0, "s0", 1, "s2"]}
    yield "ops.select_scatter/x", "ops.select_scatter", [f32(2, 3), f32(3)], {}, {"pos": [0, 1]}
    yield "ops.slice_scatter/x", "ops.slice_scatter", [f32(4, 3), f32(2, 3)], {"axis": 0, "start": 1, "end": 3}, {}
    yield "ops.diagonal_scatter/x", "ops.diagonal_scatter", [f32(3, 3), f32(3)], {}, {}
    seg = np.array([0, 1, 0], np.int32)
    for k in ["max", "min", "prod", "sum"]:
        yield f"ops.unsorted_segment_{k}/x", f"ops.unsorted_segment_{k}", [f32(3, 2), seg], {}, {"pos": [2]}
    yield "ops.gather_elements/x", "ops.gather_elements", [x, np.array([[0, 2], [1, 0]], np.int64)], {}, \
        {"pos": [1], "order": [0, "s0", 1]}
    yield "Tensor.gather_elements/x", "Tensor.gather_elements", [x, np.array([[0, 2], [1, 0]], np.int64)], {}, \
        {"pos": [1], "order": [0, "s0", 1]}
    yield "ops.scatter/x", "ops.scatter", [f32(3, 3), np.array([[1, 0]], np.int64), f32(1, 2)], {}, \
        {"pos": [0], "order": [0, "s0", 1, 2]}
    yield "Tensor.scatter/x", "Tensor.scatter", [f32(3, 3), np.array([[1, 0]], np.int64), f32(1, 2)], {}, \
        {"pos": [1], "order": [0, "s0", 1, 2]}
    yield "Tensor.trace/off", "Tensor.trace", [f32(3, 4)], {"offset": 1}, {}
    yield "Tensor.mm/x", "Tensor.mm", [x, f32(3, 2)], {}, {}
    yield "Tensor.bmm/x", "Tensor.bmm", [f32(2, 2, 3), f32(2, 3, 2)], {}, {}
    yield "Tensor.new_zeros/x", "Tensor.new_zeros", [ints(2)], {}, {"pos": [(2, 3)]}
    yield "Tensor.new_ones/x", "Tensor.new_ones", [x], {}, {"pos": [(3,)]}
    yield "Tensor.diagonal/x", "Tensor.diagonal", [f32(3, 3)], {}, {}
    yield "Tensor.masked_fill/x", "Tensor.masked_fill", [x, x > 0], {}, {"pos": [2.0]}
    yield "Tensor.repeat_interleave/x", "Tensor.repeat_interleave", [x], {}, {"pos": [2, 0]}


def nn_cases():
    x4 = f32(1, 2, 3, 4)
    for mode, kw in [("nearest", {"size": (5, 6)}), ("bilinear", {"size": (5, 7)}),
                     ("bilinear", {"size": (6, 8), "align_corners": True}), ("bicubic", {"size": (5, 7)}),
                     ("area", {"size": (2, 2)}), ("nearest", {"scale_factor": 2.0})]:
        tag = "_".join(str(v) for v in kw.values()).replace(" ", "")
        yield f"ops.interpolate/{mode}_{tag}", "ops.interpolate", [x4], dict(kw, mode=mode), {}
    yield "ops.interpolate/linear", "ops.interpolate", [f32(1, 2, 5)], {"size": 8, "mode": "linear"}, {}
    yield "ops.interpolate/trilinear", "ops.interpolate", [f32(1, 1, 2, 3, 2)], {"size": (3, 4, 3),
                                                                                "mode": "trilinear"}, {}
    yield "ops.prelu/x", "ops.prelu", [x4, np.array([0.1, 0.3], np.float32)], {}, {}
    yield "ops.glu/x", "ops.glu", [f32(2, 4)], {}, {}
    yield "ops.softmin/x", "ops.softmin", [f32(2, 4)], {}, {}
    yield "ops.threshold/x", "ops.threshold", [f32(2, 4)], {}, {"pos": [0.5, -1.0]}
    yield "ops.bias_add/x", "ops.bias_add", [x4, f32(2)], {}, {}
    yield "ops.pdist/x", "ops.pdist", [f32(4, 3)], {}, {}
    a, b, y = f32(4), f32(4), np.array([1, -1, 1, -1], np.float32)
    yield "ops.margin_ranking_loss/x", "ops.margin_ranking_loss", [a, b, y], {"margin": 0.1}, {}
    yield "ops.soft_margin_loss/x", "ops.soft_margin_loss", [a, y], {}, {}
    yield "ops.hinge_embedding_loss/x", "ops.hinge_embedding_loss", [a, y], {"reduction": "none"}, {}
    yield "ops.cosine_embedding_loss/x", "ops.cosine_embedding_loss", [f32(4, 3), f32(4, 3), y], {}, {}
    yield "ops.gaussian_nll_loss/x", "ops.gaussian_nll_loss", [f32(4, 3), f32(4, 3),
                                                              f32(4, 3, lo=0.1, hi=2.0)], {}, {}
    yield "ops.multilabel_soft_margin_loss/x", "ops.multilabel_soft_margin_loss", \
        [f32(3, 4), np.array([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]], np.float32)], {}, {}
    yield "ops.triplet_margin_loss/x", "ops.triplet_margin_loss", [f32(3, 4), f32(3, 4), f32(3, 4)], {}, {}
    yield "ops.multi_margin_loss/x", "ops.multi_margin_loss", [f32(3, 4), np.array([1, 0, 3], np.int64)], {}, {}
    yield "ops.relu/inplace", "ops.relu", [f32(2, 3)], {"inplace": False}, {}
    yield "ops.clip_by_global_norm/one", "ops.clip_by_global_norm", [np.array([3.0, 4.0], np.float32)], {}, {}


def primitive_cases():
    x = f32(2, 3)
    for n in ["Sinh", "Cosh", "Tan", "Asinh", "Atan", "Expm1", "Erfc", "Trunc", "Inv", "Softsign", "Mish", "SeLU",
              "Sinc"]:
        yield f"P.{n}/f32", f"P.{n}", [x], {}, {"init": {}}
    for n in ["Fmax", "Fmin", "Hypot", "Xdivy", "Xlogy", "TruncateDiv", "TruncateMod", "Heaviside"]:
        yield f"P.{n}/f32", f"P.{n}", [x, f32(2, 3)], {}, {"init": {}}
    yield "P.ArgMaxWithValue/x", "P.ArgMaxWithValue", [x], {}, {"init": {"axis": 1}}
    yield "P.ArgMinWithValue/x", "P.ArgMinWithValue", [x], {}, {"init": {"axis": 0}}
    yield "P.Cummax/x", "P.Cummax", [x], {}, {"init": {"axis": 1}}
    yield "P.Cummin/x", "P.Cummin", [x], {}, {"init": {"axis": 1}}
    yield "P.Roll/x", "P.Roll", [x], {}, {"init": {"shifts": 1, "dims": 1}}
    yield "P.Tril/x", "P.Tril", [f32(3, 3)], {}, {"init": {"diagonal": -1}}
    yield "P.GLU/x", "P.GLU", [f32(2, 4)], {}, {"init": {}}
    yield "P.Pdist/x", "P.Pdist", [f32(4, 3)], {}, {"init": {}}
    yield "P.SoftShrink/x", "P.SoftShrink", [x], {}, {"init": {"lambd": 0.7}}
    yield "P.TensorScatterElements/x", "P.TensorScatterElements", \
        [f32(3, 3), np.array([[1, 0, 2]], np.int32), f32(1, 3)], {}, {"init": {"axis": 0}}
    yield "P.Unique/x", "P.Unique", [np.array([4, 1, 4, 0], np.int32)], {}, {"init": {}}
    yield "P.ApproximateEqual/x", "P.ApproximateEqual", [x, x + 1e-6], {}, {"init": {"tolerance": 1e-3}}


def more_cases():
    """Calls that need specific arguments: creation, shape, indexing, scatter, linear-algebra fronts."""
    x, x3, i2 = f32(2, 3), f32(3, 3, lo=0.5, hi=2.0), np.array([[0, 2], [1, 0]], np.int64)
    spd = (x3 @ x3.T + 3 * np.eye(3, dtype=np.float32)).astype(np.float32)
    ix = np.array([[0], [2]], np.int32)
    yield "ops.arange/x", "ops.arange", [], {}, {"pos": [1, 7, 2]}
    yield "ops.eye/x", "ops.eye", [], {}, {"pos": [2, 3]}
    yield "ops.linspace/x", "ops.linspace", [], {}, {"pos": [0.0, 1.0, 5]}
    yield "ops.logspace/x", "ops.logspace", [], {}, {"pos": [0.0, 2.0, 3]}
    yield "ops.ones/x", "ops.ones", [], {}, {"pos": [(2, 3)]}
    yield "ops.zeros/x", "ops.zeros", [], {}, {"pos": [(2,)]}
    yield "ops.full/x", "ops.full", [], {}, {"pos": [(2, 2), 3.5]}
    yield "ops.full_like/x", "ops.full_like", [x], {}, {"pos": [2]}
    yield "ops.range/x", "ops.range", [], {}, {"pos": [0, 5, 2]}
    yield "ops.fills/x", "ops.fills", [x], {}, {"pos": [1.5]}
    for n in ["hann_window", "hamming_window", "bartlett_window", "blackman_window", "kaiser_window"]:
        yield f"ops.{n}/5", f"ops.{n}", [], {}, {"pos": [5]}
        yield f"ops.{n}/sym", f"ops.{n}", [], {"periodic": False}, {"pos": [6]}
    yield "ops.cat/x", "ops.cat", [x, x], {}, {"seq": True, "pos": [1]}
    yield "ops.concat/x", "ops.concat", [x, x], {}, {"seq": True}
    yield "ops.reshape/x", "ops.reshape", [x], {}, {"pos": [(3, 2)]}
    yield "ops.tile/x", "ops.tile", [x], {}, {"pos": [(2, 1)]}
    yield "ops.broadcast_to/x", "ops.broadcast_to", [f32(1, 3)], {}, {"pos": [(2, 3)]}
    yield "ops.expand_dims/x", "ops.expand_dims", [x], {}, {"pos": [1]}
    yield "ops.unsqueeze/x", "ops.unsqueeze", [x], {}, {"pos": [0]}
    yield "ops.permute/x", "ops.permute", [f32(2, 3, 4)], {}, {"pos": [(2, 0, 1)]}
    yield "ops.swapaxes/x", "ops.swapaxes", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "ops.moveaxis/x", "ops.moveaxis", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "ops.movedim/x", "ops.movedim", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "ops.flip/x", "ops.flip", [x], {}, {"pos": [(1,)]}
    yield "ops.narrow/x", "ops.narrow", [x], {}, {"pos": [1, 1, 2]}
    yield "ops.split/x", "ops.split", [f32(4, 2)], {}, {"pos": [2]}
    yield "ops.chunk/x", "ops.chunk", [f32(4, 2)], {}, {"pos": [2]}
    yield "ops.dsplit/x", "ops.dsplit", [f32(1, 2, 4)], {}, {"pos": [2]}
    yield "ops.slice/x", "ops.slice", [f32(3, 4)], {}, {"pos": [(1, 0), (2, 3)]}
    yield "ops.strided_slice/x", "ops.strided_slice", [f32(3, 4)], {}, {"pos": [(0, 1), (3, 4), (2, 2)]}
    yield "ops.repeat_interleave/x", "ops.repeat_interleave", [x], {}, {"pos": [2, 1]}
    yield "ops.repeat_elements/x", "ops.repeat_elements", [x], {}, {"pos": [2, 0]}
    yield "ops.cast/x", "ops.cast", [x], {}, {"pos": [], "dtype_arg": "int32"}
    yield "ops.gather/x", "ops.gather", [f32(4, 3), np.array([0, 2], np.int32)], {}, {"pos": [0]}
    yield "ops.gather_d/x", "ops.gather_d", [x, i2], {}, {"pos": [1], "order": [0, "s0", 1]}
    yield "ops.gather_nd/x", "ops.gather_nd", [f32(3, 2), ix], {}, {}
    yield "ops.index_select/x", "ops.index_select", [f32(4, 3), np.array([0, 2], np.int32)], {}, \
        {"pos": [0], "order": [0, "s0", 1]}
    yield "ops.masked_fill/x", "ops.masked_fill", [x, x > 0], {}, {"pos": [0.0]}
    yield "ops.masked_select/x", "ops.masked_select", [x, x > 0], {}, {}
    yield "ops.where/x", "ops.where", [x > 0, x, f32(2, 3)], {}, {}
    yield "ops.select/x", "ops.select", [x > 0, x, f32(2, 3)], {}, {}
    yield "ops.one_hot/x", "ops.one_hot", [np.array([0, 2, 1], np.int32)], {}, {"pos": [3, 1.0, 0.0]}
    yield "ops.scatter_nd/x", "ops.scatter_nd", [ix, f32(2, 2)], {}, {"pos": [(3, 2)]}
    yield "ops.tensor_scatter_update/x", "ops.tensor_scatter_update", [f32(3, 2), ix, f32(2, 2)], {}, {}
    yield "ops.tensor_scatter_add/x", "ops.tensor_scatter_add", [f32(3, 2), ix, f32(2, 2)], {}, {}
    yield "ops.meshgrid/x", "ops.meshgrid", [f32(2), f32(3)], {}, {"seq": True}
    yield "ops.matmul/x", "ops.matmul", [x, f32(3, 2)], {}, {}
    yield "ops.mm/x", "ops.mm", [x, f32(3, 2)], {}, {}
    yield "ops.bmm/x", "ops.bmm", [f32(2, 2, 3), f32(2, 3, 2)], {}, {}
    yield "ops.dot/x", "ops.dot", [x, f32(3, 2)], {}, {}
    yield "ops.outer/x", "ops.outer", [f32(3), f32(2)], {}, {}
    yield "ops.ger/x", "ops.ger", [f32(3), f32(2)], {}, {}
    yield "ops.addmm/x", "ops.addmm", [f32(2, 2), x, f32(3, 2)], {}, {}
    yield "ops.baddbmm/x", "ops.baddbmm", [f32(2, 2, 2), f32(2, 2, 3), f32(2, 3, 2)], {}, {}
    yield "ops.tensor_dot/x", "ops.tensor_dot", [x, f32(3, 2)], {}, {"pos": [1]}
    yield "ops.einsum/x", "ops.einsum", [x, f32(3, 2)], {}, {"order": ["s0", 0, 1], "pos": ["ij,jk->ik"]}
    yield "ops.cholesky/x", "ops.cholesky", [spd], {}, {}
    yield "ops.cholesky_solve/x", "ops.cholesky_solve", [f32(3, 2), np.linalg.cholesky(spd).astype(np.float32)], {}, {}
    yield "ops.matrix_power/x", "ops.matrix_power", [x3], {}, {"pos": [3]}
    yield "ops.matrix_exp/x", "ops.matrix_exp", [x3 / 4], {}, {}
    yield "ops.matrix_solve/x", "ops.matrix_solve", [spd, f32(3, 2)], {}, {}
    yield "ops.matrix_band_part/x", "ops.matrix_band_part", [f32(3, 4)], {}, {"pos": [1, 0]}
    yield "ops.angle/c64", "ops.angle", [(f32(3) + 1j * f32(3)).astype(np.complex64)], {}, {}
    yield "ops.view_as_real/c64", "ops.view_as_real", [(f32(3) + 1j * f32(3)).astype(np.complex64)], {}, {}
    yield "ops.bincount/x", "ops.bincount", [np.array([0, 2, 2, 5], np.int32)], {}, {}
    yield "ops.clip/x", "ops.clip", [x], {}, {"pos": [-1.0, 1.0]}
    yield "ops.clip_by_norm/x", "ops.clip_by_norm", [x], {}, {"pos": [1.0]}
    yield "ops.igamma/x", "ops.igamma", [f32(3, lo=0.5, hi=3), f32(3, lo=0.5, hi=3)], {}, {}
    yield "ops.igammac/x", "ops.igammac", [f32(3, lo=0.5, hi=3), f32(3, lo=0.5, hi=3)], {}, {}
    yield "ops.polygamma/x", "ops.polygamma", [np.array(1, np.int64), f32(3, lo=0.5, hi=3)], {}, {}
    yield "ops.mvlgamma/x", "ops.mvlgamma", [f32(3, lo=2.0, hi=4)], {}, {"pos": [2]}
    yield "ops.swiglu/x", "ops.swiglu", [f32(2, 4)], {}, {}
    yield "ops.upsample/x", "ops.upsample", [f32(1, 1, 2, 2)], {"size": (4, 4), "mode": "nearest"}, {}
    yield "ops.pad/x", "ops.pad", [x], {}, {"pos": [(1, 1)]}
    yield "ops.max_pool2d/x", "ops.max_pool2d", [f32(1, 1, 4, 4)], {}, {"pos": [2]}
    yield "ops.adaptive_avg_pool2d/x", "ops.adaptive_avg_pool2d", [f32(1, 2, 4, 4)], {}, {"pos": [(2, 2)]}
    yield "ops.nll_loss/x", "ops.nll_loss", [f32(3, 4), np.array([1, 0, 3], np.int32)], {}, {}
    yield "ops.binary_cross_entropy/x", "ops.binary_cross_entropy", [f32(4, lo=0.1, hi=0.9),
                                                                    f32(4, lo=0.0, hi=1.0)], {}, {}
    yield "ops.embedding/x", "ops.embedding", [np.array([1, 0, 2], np.int32), f32(3, 2)], {}, {}
    yield "ops.layer_norm/x", "ops.layer_norm", [x], {}, {"pos": [(3,)]}
    yield "ops.conv2d/x", "ops.conv2d", [f32(1, 2, 4, 4), f32(3, 2, 3, 3)], {}, {}
    yield "ops.conv1d/x", "ops.conv1d", [f32(1, 2, 6), f32(3, 2, 3)], {}, {}
    yield "Tensor.diagonal_scatter/x", "Tensor.diagonal_scatter", [f32(3, 3), f32(3)], {}, {}
    yield "Tensor.rot90/x", "Tensor.rot90", [x], {}, {"pos": [1, [0, 1]]}
    yield "Tensor.tensor_split/x", "Tensor.tensor_split", [f32(7, 2)], {}, {"pos": [3]}
    yield "Tensor.hsplit/x", "Tensor.hsplit", [f32(2, 4)], {}, {"pos": [2]}
    yield "Tensor.vsplit/x", "Tensor.vsplit", [f32(4, 2)], {}, {"pos": [2]}
    yield "Tensor.swapdims/x", "Tensor.swapdims", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "Tensor.swapaxes/x", "Tensor.swapaxes", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "Tensor.moveaxis/x", "Tensor.moveaxis", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "Tensor.movedim/x", "Tensor.movedim", [f32(2, 3, 4)], {}, {"pos": [0, 2]}
    yield "Tensor.reshape/x", "Tensor.reshape", [x], {}, {"pos": [3, 2]}
    yield "Tensor.view/x", "Tensor.view", [x], {}, {"pos": [3, 2]}
    yield "Tensor.tile/x", "Tensor.tile", [x], {}, {"pos": [(2, 1)]}
    yield "Tensor.repeat/x", "Tensor.repeat", [f32(3)], {}, {"pos": [2]}
    yield "Tensor.flip/x", "Tensor.flip", [x], {}, {"pos": [(1,)]}
    yield "Tensor.unsqueeze/x", "Tensor.unsqueeze", [x], {}, {"pos": [0]}
    yield "Tensor.expand_dims/x", "Tensor.expand_dims", [x], {}, {"pos": [0]}
    yield "Tensor.broadcast_to/x", "Tensor.broadcast_to", [f32(1, 3)], {}, {"pos": [(2, 3)]}
    yield "Tensor.expand/x", "Tensor.expand", [f32(3, 1), np.array([3, 4], np.int32)], {}, {}
    yield "Tensor.narrow/x", "Tensor.narrow", [x], {}, {"pos": [1, 1, 2]}
    yield "Tensor.split/x", "Tensor.split", [f32(4, 2)], {}, {"pos": [2]}
    yield "Tensor.chunk/x", "Tensor.chunk", [f32(4, 2)], {}, {"pos": [2]}
    yield "Tensor.gather/x", "Tensor.gather", [f32(4, 3), np.array([0, 2], np.int32)], {}, {"pos": [0]}
    yield "Tensor.gather_nd/x", "Tensor.gather_nd", [f32(3, 2), ix], {}, {}
    yield "Tensor.index_select/x", "Tensor.index_select", [f32(4, 3), np.array([0, 2], np.int32)], {}, \
        {"pos": [0], "order": [0, "s0", 1]}
    yield "Tensor.masked_select/x", "Tensor.masked_select", [x, x > 0], {}, {}
    yield "Tensor.where/x", "Tensor.where", [x, x > 0, f32(2, 3)], {}, {"order": [0, 1, 2]}
    yield "Tensor.matmul/x", "Tensor.matmul", [x, f32(3, 2)], {}, {}
    yield "Tensor.dot/x", "Tensor.dot", [f32(3), f32(3)], {}, {}
    yield "Tensor.outer/x", "Tensor.outer", [f32(3), f32(2)], {}, {}
    yield "Tensor.ger/x", "Tensor.ger", [f32(3), f32(2)], {}, {}
    yield "Tensor.softmax/x", "Tensor.softmax", [x], {}, {"pos": [1]}
    yield "Tensor.topk/x", "Tensor.topk", [x], {}, {"pos": [2]}
    yield "Tensor.top_k/x", "Tensor.top_k", [x], {}, {"pos": [2]}
    yield "Tensor.cummax/x", "Tensor.cummax", [x], {}, {"pos": [1]}
    yield "Tensor.cummin/x", "Tensor.cummin", [x], {}, {"pos": [1]}
    yield "Tensor.cumprod/x", "Tensor.cumprod", [x], {}, {"pos": [1]}
    yield "Tensor.logcumsumexp/x", "Tensor.logcumsumexp", [x], {}, {"pos": [1]}
    yield "Tensor.clip/x", "Tensor.clip", [x], {}, {"pos": [-1.0, 1.0]}
    yield "Tensor.take/x", "Tensor.take", [x, i2], {}, {}
    yield "Tensor.index_fill/x", "Tensor.index_fill", [x, np.array([0, 2], np.int32)], {}, \
        {"pos": [1, None, 5.0], "order": [0, "s0", 1, "s2"]}
    yield "Tensor.select_scatter/x", "Tensor.select_scatter", [f32(2, 3), f32(3)], {}, {"pos": [0, 1]}
    yield "Tensor.renorm/x", "Tensor.renorm", [x], {}, {"pos": [2, 0, 1.0]}
    yield "Tensor.bitwise_and/x", "Tensor.bitwise_and", [ints(3), ints(3)], {}, {}
    yield "Tensor.bitwise_or/x", "Tensor.bitwise_or", [ints(3), ints(3)], {}, {}
    yield "Tensor.bitwise_xor/x", "Tensor.bitwise_xor", [ints(3), ints(3)], {}, {}
    yield "Tensor.bitwise_not/x", "Tensor.bitwise_not", [ints(3)], {}, {}
    yield "Tensor.bitwise_left_shift/x", "Tensor.bitwise_left_shift", [ints(3, lo=0), ints(3, lo=0, hi=3)], {}, {}
    yield "Tensor.bitwise_right_shift/x", "Tensor.bitwise_right_shift", [ints(3, lo=0), ints(3, lo=0, hi=3)], {}, {}
    yield "Tensor.gcd/x", "Tensor.gcd", [ints(3, lo=1), ints(3, lo=1)], {}, {}
    yield "Tensor.lcm/x", "Tensor.lcm", [ints(3, lo=1), ints(3, lo=1)], {}, {}
    yield "Tensor.addcdiv/x", "Tensor.addcdiv", [x, f32(2, 3), f32(2, 3, lo=1, hi=2)], {}, {}
    yield "Tensor.unsorted_segment_max/x", "Tensor.unsorted_segment_max", [f32(3, 2), np.array([0, 1, 0], np.int32)],\
        {}, {"pos": [2]}
    yield "Tensor.matrix_power/x", "Tensor.matrix_power", [x3], {}, {"pos": [2]}
    yield "Tensor.astype/x", "Tensor.astype", [x], {}, {"dtype_arg": "int32"}
    yield "Tensor.item/x", "Tensor.item", [np.array([2.5], np.float32)], {}, {}


def misc_cases():
    x = f32(2, 3)
    for n in ["tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv", "tensor_mod", "tensor_pow",
              "tensor_ge", "tensor_gt", "tensor_le", "tensor_lt", "isnan_ext"]:
        yield f"ops.{n}/x", f"ops.{n}", [x, f32(2, 3, lo=0.5)] if n != "isnan_ext" else [special_f32()], {}, {}
    yield "ops.tensor_muls/x", "ops.tensor_muls", [x], {}, {"pos": [2.5]}
    for n in ["tensor_exp", "tensor_expm1", "eps"]:
        yield f"ops.{n}/x", f"ops.{n}", [x], {}, {}
    yield "ops.tensor_range/x", "ops.tensor_range", [np.array(0, np.int32), np.array(7, np.int32),
                                                     np.array(2, np.int32)], {}, {}
    yield "ops.tensor_slice/x", "ops.tensor_slice", [f32(3, 4)], {}, {"pos": [(1, 0), (2, 3)]}
    yield "ops.accumulate_n/x", "ops.accumulate_n", [x, x, x], {}, {"seq": True}
    yield "ops.addbmm/x", "ops.addbmm", [f32(2, 2), f32(3, 2, 4), f32(3, 4, 2)], {"beta": 0.5, "alpha": 2}, {}
    yield "ops.addmv/x", "ops.addmv", [f32(2), x, f32(3)], {}, {}
    yield "ops.addr/x", "ops.addr", [x, f32(2), f32(3)], {"beta": 2}, {}
    yield "ops.mv/x", "ops.mv", [x, f32(3)], {}, {}
    yield "ops.vecdot/x", "ops.vecdot", [x, f32(2, 3)], {}, {}
    yield "ops.batch_dot/x", "ops.batch_dot", [f32(2, 3, 4), f32(2, 4, 5)], {}, {}
    yield "ops.batch_dot/2d", "ops.batch_dot", [f32(2, 3), f32(2, 3)], {}, {}
    yield "ops.float_power_ext/x", "ops.float_power_ext", [f32(3, lo=0.5), f32(3)], {}, {}
    yield "ops.diff_ext/x", "ops.diff_ext", [x], {"dim": 0}, {}
    yield "ops.mse_loss_ext/x", "ops.mse_loss_ext", [x, f32(2, 3)], {}, {}
    yield "ops.baddbmm_ext/x", "ops.baddbmm_ext", [f32(2, 2, 2), f32(2, 2, 3), f32(2, 3, 2)], {"alpha": 0.5}, {}
    yield "ops.rms_norm/x", "ops.rms_norm", [x, f32(3)], {}, {}
    yield "ops.add_rms_norm/x", "ops.add_rms_norm", [x, f32(2, 3), f32(3)], {}, {}
    yield "ops.avg_pool1d/x", "ops.avg_pool1d", [f32(1, 2, 7)], {"kernel_size": 3, "stride": 2}, {}
    yield "ops.avg_pool1d/pad", "ops.avg_pool1d", [f32(1, 2, 7)], {"kernel_size": 3, "stride": 2, "padding": 1,
                                                                    "count_include_pad": False}, {}
    yield "ops.reverse_sequence/x", "ops.reverse_sequence", [f32(2, 3), np.array([2, 3], np.int32)], {}, \
        {"pos": [1]}
    yield "ops.dyn_shape/x", "ops.dyn_shape", [x], {}, {}
    yield "ops.intopk/x", "ops.intopk", [f32(3, 4), np.array([1, 0, 3], np.int32)], {}, {"pos": [2]}
    yield "ops.iou/x", "ops.iou", [np.array([[0, 0, 4, 4], [1, 1, 6, 6]], np.float32),
                                   np.array([[2, 2, 5, 5]], np.float32)], {}, {}
    yield "ops.iou/iof", "ops.iou", [np.array([[0, 0, 4, 4]], np.float32), np.array([[2, 2, 5, 5]], np.float32)], \
        {"mode": "iof"}, {}
    yield "ops.check_valid/x", "ops.check_valid", [np.array([[1, 1, 5, 5], [0, 0, 20, 9]], np.float32),
                                                   np.array([10, 10, 1], np.float32)], {}, {}
    yield "ops.multilabel_margin_loss/x", "ops.multilabel_margin_loss", \
        [f32(2, 4), np.array([[3, 0, -1, 1], [0, 1, 2, 3]], np.int32)], {}, {}
    yield "ops.lrn/x", "ops.lrn", [f32(1, 4, 2, 2)], {"depth_radius": 1}, {}


def primitive_more():
    """Primitive forms of the functional cases (constructor arguments in ``init``)."""
    x, x3, ix = f32(2, 3), f32(3, 3, lo=0.5, hi=2.0), np.array([[0], [2]], np.int32)
    spd = (x3 @ x3.T + 3 * np.eye(3, dtype=np.float32)).astype(np.float32)
    i3, seg = ints(3, lo=1), np.array([0, 1, 0], np.int32)
    P = [("Addcdiv", [f32(3), f32(3), f32(3, lo=1, hi=2), np.array([0.5], np.float32)], {}, {}),
         ("Addcmul", [f32(3), f32(3), f32(3), np.array([0.5], np.float32)], {}, {}),
         ("BatchMatMul", [f32(2, 2, 3), f32(2, 3, 2)], {}, {}), ("BiasAdd", [f32(2, 3, 2), f32(3)], {}, {}),
         ("BitwiseAnd", [i3, ints(3, lo=1)], {}, {}), ("BitwiseOr", [i3, ints(3, lo=1)], {}, {}),
         ("BitwiseXor", [i3, ints(3, lo=1)], {}, {}), ("BroadcastTo", [f32(1, 3)], {"shape": (2, 3)}, {}),
         ("ChannelShuffle", [f32(1, 4, 2, 2)], {"group": 2}, {}), ("Cholesky", [spd], {}, {}),
         ("Concat", [x, x], {"axis": 1}, {"seq": True}), ("CumSum", [x], {}, {"pos": [1]}),
         ("CumProd", [x], {}, {"pos": [1]}), ("CumSum", [x], {"exclusive": True, "reverse": True}, {"pos": [1]}),
         ("Digamma", [f32(3, lo=0.5, hi=3)], {}, {}), ("Expand", [f32(3, 1), np.array([3, 4], np.int64)], {}, {}),
         ("ExpandDims", [x], {}, {"pos": [0]}), ("Gather", [f32(4, 3), np.array([0, 2], np.int32)], {},
                                                   {"pos": [0]}),
         ("GatherD", [x, np.array([[0, 2], [1, 0]], np.int64)], {}, {"pos": [1], "order": [0, "s0", 1]}),
         ("GatherNd", [f32(3, 2), ix], {}, {}), ("Gcd", [i3, ints(3, lo=1)], {}, {}),
         ("Lcm", [i3, ints(3, lo=1)], {}, {}), ("Ger", [f32(3), f32(2)], {}, {}),
         ("Igamma", [f32(3, lo=0.5, hi=3), f32(3, lo=0.5, hi=3)], {}, {}),
         ("Igammac", [f32(3, lo=0.5, hi=3), f32(3, lo=0.5, hi=3)], {}, {}),
         ("IsFinite", [special_f32()], {}, {}), ("Lgamma", [f32(3, lo=0.5, hi=3)], {}, {}),
         ("L2Normalize", [x], {"axis": 1}, {}), ("MaskedFill", [x, x > 0, np.array(0.0, np.float32)], {}, {}),
         ("MaskedSelect", [x, x > 0], {}, {}), ("MatMul", [x, f32(3, 2)], {}, {}),
         ("MatMul", [x, f32(2, 3)], {"transpose_b": True}, {}), ("MatrixBandPart", [f32(3, 4)], {}, {"pos": [1, 0]}),
         ("MatrixPower", [x3], {"n": 2}, {}), ("MatrixSolve", [spd, f32(3, 2)], {}, {}),
         ("Mvlgamma", [f32(3, lo=2, hi=4)], {"p": 2}, {}),
         ("OneHot", [np.array([0, 2, 1], np.int32), np.array(1.0, np.float32), np.array(0.0, np.float32)], {},
          {"pos": [3], "order": [0, "s0", 1, 2]}),
         ("Polygamma", [np.array(1, np.int64), f32(3, lo=0.5, hi=3)], {}, {}),
         ("Renorm", [x], {"p": 2, "dim": 0, "maxnorm": 1.0}, {}), ("Reshape", [x], {}, {"pos": [(3, 2)]}),
         ("ReverseV2", [x], {"axis": (1,)}, {}), ("Select", [x > 0, x, f32(2, 3)], {}, {}),
         ("Slice", [f32(3, 4)], {}, {"pos": [(1, 0), (2, 3)]}),
         ("StridedSlice", [f32(3, 4)], {}, {"pos": [(0, 1), (3, 4), (2, 2)]}),
         ("Tile", [x], {}, {"pos": [(2, 1)]}), ("Transpose", [f32(2, 3, 4)], {}, {"pos": [(2, 0, 1)]}),
         ("TopK", [x], {}, {"pos": [2]}), ("ScatterNd", [ix, f32(2, 2)], {}, {"pos": [(3, 2)]}),
         ("Fills", [x, np.array(1.5, np.float32)], {}, {}),
         ("Cast", [x], {}, {"dtype_arg": "int32"}), ("Ones", [], {}, {"pos": [(2, 3)], "dtype_arg": "float32"}),
         ("Zeros", [], {}, {"pos": [(2,)], "dtype_arg": "int32"}),
         ("Eye", [], {}, {"pos": [2, 3], "dtype_arg": "float32"}),
         ("Fill", [], {}, {"dtype_arg": "float32", "dtype_first": True, "pos": [(2, 2), 1.5]}),
         ("IndexFill", [x, np.array(1, np.int32), np.array([0, 2], np.int32), np.array(5.0, np.float32)], {}, {}),
         ("InplaceUpdate", [f32(3, 2), f32(2, 2)], {"indices": (0, 2)}, {}),
         ("InplaceAdd", [f32(3, 2), f32(2, 2)], {"indices": (0, 2)}, {}),
         ("InplaceSub", [f32(3, 2), f32(2, 2)], {"indices": (0, 2)}, {})]
    for k in ["Add", "Sub", "Mul", "Div", "Max", "Min", "Update"]:
        P.append((f"TensorScatter{k}", [f32(3, 2), ix, f32(2, 2)], {}, {}))
    for k in ["Max", "Min", "Prod", "Sum"]:
        P.append((f"UnsortedSegment{k}", [f32(3, 2), seg], {}, {"pos": [2]}))
    P += [("ACos", [f32(3, lo=-0.9, hi=0.9)], {}, {}), ("AccumulateNV2", [x, x], {}, {"seq": True}),
          ("TensorAdd", [x, x], {}, {}), ("Eps", [x], {}, {}), ("LeftShift", [i3, ints(3, lo=0, hi=3)], {}, {}),
          ("RightShift", [i3, ints(3, lo=0, hi=3)], {}, {}), ("NextAfter", [x, f32(2, 3)], {}, {}),
          ("PReLU", [f32(1, 2, 3), np.array([0.1, 0.2], np.float32)], {}, {}),
          ("Dense", [x, f32(4, 3), f32(4)], {}, {}),
          ("CheckValid", [np.array([[1, 1, 5, 5], [0, 0, 20, 9]], np.float32), np.array([10, 10, 1], np.float32)],
           {}, {}),
          ("IOU", [np.array([[0, 0, 4, 4], [1, 1, 6, 6]], np.float32), np.array([[2, 2, 5, 5]], np.float32)], {}, {}),
          ("IsClose", [x, x + 1e-6], {"atol": 1e-5}, {}), ("LRN", [f32(1, 4, 2, 2)], {"depth_radius": 1}, {}),
          ("InTopK", [f32(3, 4), np.array([1, 0, 3], np.int32)], {"k": 2}, {}),
          ("Pack", [x, x], {"axis": 1}, {"seq": True}), ("Unpack", [x], {"axis": 1}, {}),
          ("ReverseSequence", [f32(2, 3), np.array([2, 3], np.int32)], {"seq_dim": 1}, {}),
          ("Meshgrid", [f32(2), f32(3)], {"indexing": "ij"}, {"seq": True}),
          ("KLDivLoss", [f32(2, 3), f32(2, 3, lo=0.1, hi=1)], {"reduction": "sum"}, {}),
          ("Range", [np.array(0, np.int32), np.array(7, np.int32), np.array(2, np.int32)], {}, {})]
    for name, inputs, init, meta in P:
        yield f"P.{name}/x{len(init)}", f"P.{name}", inputs, {}, dict(meta, init=init)


def run(ms, ops, name, inputs, kwargs, meta):
    """Call ``name`` on MindSpore with the recorded convention (the replay test mirrors this)."""
    tensors = [ms.Tensor(a) for a in inputs]
    pos = list(meta.get("pos", []))
    if "order" in meta:  # interleave tensors ("0", "1" ...) and scalars ("s0" ...)
        args = [pos[int(o[1:])] if isinstance(o, str) else tensors[o] for o in meta["order"]]
    elif meta.get("seq"):
        args = [tensors] + pos
    else:
        args = tensors + pos
    if "dtype_arg" in meta:  # a dtype argument, named by its MindSpore attribute name
        dt = getattr(ms, meta["dtype_arg"])
        args = [dt] + args if meta.get("dtype_first") else args + [dt]
    kind, _, attr = name.partition(".")
    if kind == "ops":
        return getattr(ops, attr)(*args, **kwargs)
    if kind == "Tensor":
        return getattr(args[0], attr)(*args[1:], **kwargs)
    return getattr(ops, attr)(**meta["init"])(*args, **kwargs)


def flatten(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flatten(o))
        return res
    if hasattr(out, "asnumpy"):
        return [out.asnumpy()]
    return [np.asarray(out)]


def main() -> None:
    import mindspore as ms
    from mindspore import ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "ops_sweep.npz"
    n_err = 0
    with oracle.FixtureWriter(path) as w:
        for case_id, name, inputs, kwargs, meta in cases():
            feed = {f"a{i}": a for i, a in enumerate(inputs)}
            try:
                try:
                    out = flatten(run(ms, ops, name, inputs, kwargs, meta))
                except RuntimeError:  # a kernel failure can poison the next call once: retry before recording
                    out = flatten(run(ms, ops, name, inputs, kwargs, meta))
                w.add(case_id, inputs=feed, outputs=out, name=name, kwargs=kwargs, **meta)
            except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
                n_err += 1
                w.add(case_id, inputs=feed, name=name, error=type(e).__name__, kwargs=kwargs, **meta)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {n_err} error cases)", file=sys.stderr)




# ---- automatic sweep: every user-facing name of names.json, called on a few generated input patterns ----------
_RANDOM = ("dropout", "rand", "random", "uniform", "normal", "bernoulli", "multinomial", "shuffle", "gamma",
           "poisson", "laplace", "standard_", "rrelu", "gumbel", "choice_with_mask", "candidate_sampler", "Random",
           "Uniform", "Normal", "Bernoulli", "Multinomial", "Gamma", "Poisson", "Laplace", "Shuffle", "Dropout",
           "Randperm", "RandomChoice", "seed", "init", "print", "Print", "Summary", "summary", "hook", "Hook", "send",
           "recv", "all_", "reduce_scatter", "broadcast", "barrier", "Send", "Receive", "AllReduce", "AllGather",
           "Broadcast", "ReduceScatter", "AlltoAll", "tensordump", "TensorDump", "kernel", "Custom", "py_func",
           "PyFunc", "data_sync", "offload", "storage", "pin_memory", "to_dlpack", "from_dlpack", "move_to",
           "flush_from_cache", "set_", "register", "remove_hook", "assign_value", "_cpp", "device", "wait_pipeline")


def _patterns():
    return [("f23", [f32(2, 3)]), ("f23x2", [f32(2, 3), f32(2, 3)]), ("f33", [f32(3, 3, lo=0.5, hi=2.0)]),
            ("f4d", [f32(1, 2, 4, 4)]), ("i23", [ints(2, 3, lo=1)]), ("f23x3", [f32(2, 3), f32(2, 3), f32(2, 3)])]


def auto_cases(names, crashed=(), progress=None):
    """For each name, the first generated call MindSpore accepts (calls it rejects are not recorded).

    ``crashed``: names whose call kills the interpreter (segfaults in MindSpore's CPU kernels), skipped;
    ``progress``: a file that gets the name being tried, so a crash can be attributed and skipped next run.
    """
    import mindspore as ms
    from mindspore import ops

    user = names["user"]
    for kind, key in (("ops", "mindspore.ops functions"), ("P", "mindspore.ops primitives"),
                      ("Tensor", "mindspore.Tensor methods")):
        for n in user[key]:
            if any(tok in n for tok in _RANDOM) or f"{kind}.{n}" in crashed:
                continue
            if progress:
                with open(progress, "w") as f:
                    f.write(f"{kind}.{n}")
            for tag, inputs in _patterns():
                meta = {"init": {}} if kind == "P" else {}
                try:
                    out = flatten(run(ms, ops, f"{kind}.{n}", inputs, {}, meta))
                except Exception:  # noqa: BLE001  (MindSpore rejects this pattern: try the next one)
                    continue
                if not out or any(o.dtype == object for o in out):
                    break
                yield f"{kind}.{n}/auto_{tag}", f"{kind}.{n}", inputs, out, meta
                break


def main_auto(names_path: str, crash_path: str | None = None) -> None:
    import json

    with open(names_path) as f:
        names = json.load(f)
    crashed = set(pathlib.Path(crash_path).read_text().split()) if crash_path and pathlib.Path(crash_path).exists() \
        else set()
    path = ROOT / "tests" / "fixtures" / "oracle" / "ops_auto.npz"
    n = 0
    with oracle.FixtureWriter(path) as w:
        progress = crash_path + ".progress" if crash_path else None
        for case_id, name, inputs, out, meta in auto_cases(names, crashed, progress):
            w.add(case_id, inputs={f"a{i}": a for i, a in enumerate(inputs)}, outputs=out, name=name, kwargs={},
                  **meta)
            n += 1
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {n} cases)", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--auto":  # --auto NAMES [CRASHLIST]  (see the module docstring)
        main_auto(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        main()
