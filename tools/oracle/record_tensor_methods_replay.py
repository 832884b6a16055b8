"""Record real MindSpore 2.10's Tensor methods and attributes that no other fixture replays yet (``T``, ``shape``,
``addmm``, ``clamp_``, ``lu_solve`` ...).

    ../ms-oracle/bin/python tools/oracle/record_tensor_methods_replay.py
    # -> tests/fixtures/oracle/tensor_methods_replay.npz

A case is named ``Tensor.<name>``. ``meta["on"]`` is the encoded Tensor the method is called on (``None`` for a
static method called on the class), ``args`` / ``kwargs`` use ``_sweep``'s encoding, and ``meta["how"]`` is
``call`` (``t.name(*args, **kwargs)``) or ``attr`` (the property ``t.name``). A Tensor result (or a tuple of them)
is the outputs; a Python result is recorded as an output too (``np.asarray`` of an int, bool or tuple of ints)
with its type in ``meta["pytype"]``, and a dtype result as ``meta["py"]`` (its str, ``Float32``). ``meta["then"]`` is
``"self"`` when the Tensor after the call is appended to the outputs (in-place methods), or ``"meta"`` when only
the result's shape (as an output) and dtype (``meta["dtype"]``) are recorded, for ``new_empty``'s uninitialised
values. Lazily initialised tensors (``has_init``, ``init_data``) are ``meta["init"]``: ``[initializer, shape,
dtype]`` instead of ``on``.

Where this CPU build has no kernel for the method (``clamp_``, ``zero_``, ``repeat`` ... raise RuntimeError or
NotImplementedError "Ascend only") or its Tensor method is broken (``eigvals`` raises TypeError in 2.10), the
case records what a second real-MindSpore call with the documented same semantics returns -- the out-of-place
method, ``ops.tile`` for ``repeat``, ``ops.full`` for ``new_full``, ``orgqr`` times ``other`` for ``ormqr`` -- and
``meta["truth"]`` names it (``meta["primary"]`` keeps the first call's error). ``fmin``, ``quantile`` and
``nanquantile`` have no CPU kernel and no such equivalent: the test checks them against NumPy instead.
"""
import pathlib
import sys

import numpy as np
import scipy.linalg

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import D, T, _flush, decode_ms, encode, flatten_outputs  # noqa: E402
from mindspore import ops  # noqa: E402
from mindspore.common import initializer as msinit  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "tensor_methods_replay.npz"


def f32(*shape, scale=1.0, shift=0.0):
    return T((np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * scale + shift).astype(np.float32))


def arr(v, dtype):
    return T(np.asarray(v, dtype))


X = f32(2, 3, scale=0.2, shift=-0.5)            # [-0.5 .. 0.5]
X16 = arr([[-1.5, 0.25, 2.0], [3.5, -0.75, 0.0]], np.float16)
I32 = arr([[3, -1, 0], [7, 2, -5]], np.int32)
B = arr([[True, False, True], [False, False, True]], np.bool_)
SPD = np.array([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], np.float32)
MASK = arr([[True, False, True], [False, True, False]], np.bool_)
ROW_MASK = arr([False, True, True], np.bool_)
IDX = arr([0, 2], np.int32)
SEG = arr([0, 2], np.int32)
POS = arr([[0.5, 1.0, 1.5], [2.0, 3.5, 7.25]], np.float32)
A3 = np.array([[2., 1., 1.], [4., -6., 0.], [-2., 7., 2.]], np.float32)
LU, PIV = scipy.linalg.lu_factor(A3)
PIV1 = (PIV + 1).astype(np.int32)  # MindSpore's LU_pivots are 1-based row swaps (LAPACK's getrf)
TAU = np.array([1.2, 0.4], np.float32)
GEQ = np.array([[1., 0.3, 0.2], [0.5, 1., 0.7], [-0.25, 0.6, 1.]], np.float32)
RHS = np.array([[1., 2.], [0., -1.], [3., 0.5]], np.float32)

# (case id suffix, method, self, args, kwargs, how, then)
CASES = [
    # ---- attributes ---------------------------------------------------------------------------
    ("float32", "T", X, [], {}, "attr", None),
    ("int32_3d", "T", T(np.arange(24, dtype=np.int32).reshape(2, 3, 4)), [], {}, "attr", None),
    ("bool", "T", B, [], {}, "attr", None),
    ("scalar", "T", arr(1.5, np.float32), [], {}, "attr", None),
    ("float32", "mT", X, [], {}, "attr", None),
    ("int64_3d", "mT", T(np.arange(24, dtype=np.int64).reshape(2, 3, 4)), [], {}, "attr", None),
    ("one_d", "mT", arr([1., 2.], np.float32), [], {}, "attr", None),
    ("float32", "dtype", X, [], {}, "attr", None),
    ("float16", "dtype", X16, [], {}, "attr", None),
    ("int64", "dtype", arr([1, 2], np.int64), [], {}, "attr", None),
    ("bool", "dtype", B, [], {}, "attr", None),
    ("float32", "shape", X, [], {}, "attr", None),
    ("scalar", "shape", arr(3, np.int32), [], {}, "attr", None),
    ("empty", "shape", T(np.zeros((0, 4), np.float32)), [], {}, "attr", None),
    ("matrix", "ndim", X, [], {}, "attr", None),
    ("scalar", "ndim", arr(3, np.int32), [], {}, "attr", None),
    ("three_d", "ndim", T(np.zeros((1, 2, 3), np.bool_)), [], {}, "attr", None),
    ("matrix", "size", X, [], {}, "attr", None),
    ("scalar", "size", arr(3, np.int32), [], {}, "attr", None),
    ("empty", "size", T(np.zeros((0, 4), np.float32)), [], {}, "attr", None),
    ("float32", "itemsize", X, [], {}, "attr", None),
    ("float16", "itemsize", X16, [], {}, "attr", None),
    ("int64", "itemsize", arr([1], np.int64), [], {}, "attr", None),
    ("bool", "itemsize", B, [], {}, "attr", None),
    ("complex64", "itemsize", arr([1 + 2j], np.complex64), [], {}, "attr", None),
    ("float32", "nbytes", X, [], {}, "attr", None),
    ("int8", "nbytes", arr([1, 2, 3], np.int8), [], {}, "attr", None),
    ("scalar", "nbytes", arr(2.0, np.float64), [], {}, "attr", None),
    ("float32", "strides", X, [], {}, "attr", None),
    ("int64_3d", "strides", T(np.ones((2, 3, 4), np.int64)), [], {}, "attr", None),
    ("float16", "strides", X16, [], {}, "attr", None),
    ("scalar", "strides", arr(1.0, np.float32), [], {}, "attr", None),
    ("plain", "has_init", X, [], {}, "attr", None),
    # ---- arithmetic / special functions ---------------------------------------------------------
    ("value", "addcdiv", X, [f32(2, 3, shift=1.0), POS], {"value": 0.5}, "call", None),
    ("default", "addcdiv", X, [X, POS], {}, "call", None),
    ("broadcast", "addcdiv", X, [arr([1., 2., 3.], np.float32), POS], {"value": -2}, "call", None),
    ("float32", "addmm", T(SPD), [T(SPD), T(A3)], {}, "call", None),
    ("beta_alpha", "addmm", arr([1., -1.], np.float32), [X, f32(3, 2)], {"beta": 0.5, "alpha": 2}, "call", None),
    ("float16", "addmm", T(np.ones((2, 2), np.float16)), [X16, T(X16.value.T.copy())], {}, "call", None),
    ("float32", "baddbmm", T(np.ones((2, 2, 2), np.float32)), [f32(2, 2, 3), f32(2, 3, 2, scale=0.5)], {},
     "call", None),
    ("beta_alpha", "baddbmm", f32(2, 2, 2), [f32(2, 2, 3), f32(2, 3, 2)], {"beta": 2, "alpha": 0.5}, "call", None),
    ("complex64", "angle", arr([1 + 1j, -1, -2j, 0], np.complex64), [], {}, "call", None),
    ("complex128", "angle", arr([[3 - 4j, -1 + 0.5j]], np.complex128), [], {}, "call", None),
    ("float32", "angle", arr([-1., 2.], np.float32), [], {}, "call", None),
    ("float32", "digamma", arr([0.5, 1., 2.5, 10., -0.5, -1.5], np.float32), [], {}, "call", None),
    ("float64", "digamma", arr([0.1, 3.], np.float64), [], {}, "call", None),
    ("float16", "digamma", arr([0.5, 2.], np.float16), [], {}, "call", None),
    ("zero", "digamma", arr([0.], np.float32), [], {}, "call", None),
    ("float32", "lgamma", arr([0.5, 1., 2.5, 10., -0.5, -1.5], np.float32), [], {}, "call", None),
    ("float64", "lgamma", arr([0.1, 30.], np.float64), [], {}, "call", None),
    ("float16", "lgamma", arr([0.5, 3.], np.float16), [], {}, "call", None),
    ("poles", "lgamma", arr([0., -2.], np.float32), [], {}, "call", None),
    ("float32", "igamma", POS, [arr([[1., 2., 0.5], [2., 3., 1.]], np.float32)], {}, "call", None),
    ("broadcast", "igamma", arr([[1.], [3.]], np.float64), [arr([0.5, 2., 6.], np.float64)], {}, "call", None),
    ("x_zero", "igamma", arr([1., 2.], np.float32), [arr([0., 0.], np.float32)], {}, "call", None),
    ("float32", "igammac", POS, [arr([[1., 2., 0.5], [2., 3., 1.]], np.float32)], {}, "call", None),
    ("broadcast", "igammac", arr([[1.], [3.]], np.float64), [arr([0.5, 2., 6.], np.float64)], {}, "call", None),
    ("p1", "mvlgamma", POS, [1], {}, "call", None),
    ("p2", "mvlgamma", arr([[1.5, 2.], [3., 10.]], np.float32), [2], {}, "call", None),
    ("p3_float64", "mvlgamma", arr([2.5, 4.], np.float64), [3], {}, "call", None),
    ("too_small", "mvlgamma", arr([0.2, 2.], np.float32), [2], {}, "call", None),
    ("int32", "bitwise_not", arr([0, 1, -3, 2 ** 31 - 1], np.int32), [], {}, "call", None),
    ("int8", "bitwise_not", arr([0, 127, -128], np.int8), [], {}, "call", None),
    ("uint8", "bitwise_not", arr([0, 5, 255], np.uint8), [], {}, "call", None),
    ("bool", "bitwise_not", B, [], {}, "call", None),
    # ---- linear algebra -----------------------------------------------------------------------
    ("lower", "cholesky", T(SPD), [], {}, "call", None),
    ("upper", "cholesky", T(SPD), [], {"upper": True}, "call", None),
    ("batch_float64", "cholesky", T(np.stack([SPD, 2 * SPD]).astype(np.float64)), [], {}, "call", None),
    ("lower", "cholesky_solve", T(RHS), [T(np.linalg.cholesky(SPD))], {}, "call", None),
    ("upper", "cholesky_solve", T(RHS), [T(np.linalg.cholesky(SPD).T.copy()), True], {}, "call", None),
    ("float32", "dot", X, [f32(3, 2, scale=0.5)], {}, "call", None),
    ("three_d", "dot", f32(2, 3, 4, scale=0.1), [f32(2, 4, 2, scale=0.1)], {}, "call", None),
    ("float16", "dot", X16, [arr([[1., 0.], [0.5, 2.], [-1., 1.]], np.float16)], {}, "call", None),
    ("symmetric", "eigvals", T(SPD[:2, :2]), [], {}, "call", None),
    ("rotation", "eigvals", arr([[0., -1.], [1., 0.]], np.float32), [], {}, "call", None),
    ("float64", "eigvals", T(A3.astype(np.float64)), [], {}, "call", None),
    ("float32", "lu_solve", T(RHS), [T(LU), T(PIV1)], {}, "call", None),
    ("float64", "lu_solve", T(RHS[:, :1].astype(np.float64)), [T(LU.astype(np.float64)), T(PIV1)], {}, "call",
     None),
    ("square", "orgqr", T(GEQ), [T(TAU)], {}, "call", None),
    ("tall", "orgqr", T(GEQ[:, :2].copy()), [T(TAU)], {}, "call", None),
    ("float64", "orgqr", T(GEQ.astype(np.float64)), [T(np.array([0.8, 1.1, 0.], np.float64))], {}, "call", None),
    ("left", "ormqr", T(GEQ), [T(TAU), T(RHS)], {}, "call", None),
    ("left_transpose", "ormqr", T(GEQ), [T(TAU), T(RHS)], {"transpose": True}, "call", None),
    ("right", "ormqr", T(GEQ), [T(TAU), T(RHS.T.copy())], {"left": False}, "call", None),
    # ---- shape and selection ------------------------------------------------------------------
    ("sections", "dsplit", f32(2, 2, 4), [2], {}, "call", None),
    ("indices", "dsplit", T(np.arange(12, dtype=np.int32).reshape(1, 2, 6)), [[1, 4]], {}, "call", None),
    ("two_d", "dsplit", X, [2], {}, "call", None),
    ("rows", "repeat", X, [2, 1], {}, "call", None),
    ("extra_dims", "repeat", arr([1, 2], np.int32), [2, 1, 3], {}, "call", None),
    ("tuple", "repeat", B, [(1, 2)], {}, "call", None),
    ("axis0", "reverse", X, [[0]], {}, "call", None),
    ("both_int32", "reverse", I32, [[0, 1]], {}, "call", None),
    ("negative", "reverse", f32(2, 2, 2), [[-1]], {}, "call", None),
    ("dim_index", "select", X, [1, 2], {}, "call", None),
    ("negative_index", "select", I32, [0, -1], {}, "call", None),
    ("condition_tensor", "select", X, [MASK, f32(2, 3, shift=10.)], {}, "call", None),
    ("condition_float", "select", X, [MASK, 7.5], {}, "call", None),
    ("condition_int", "select", I32, [MASK, 9], {}, "call", None),
    ("int32", "bincount", arr([0, 1, 1, 3, 1], np.int32), [], {}, "call", None),
    ("weights_minlength", "bincount", arr([0, 1, 1, 3], np.int32), [arr([.5, 1., 1., 2.], np.float32), 6], {},
     "call", None),
    ("int64", "bincount", arr([4, 0], np.int64), [], {"minlength": 2}, "call", None),
    ("empty", "bincount", T(np.zeros(0, np.int32)), [], {}, "call", None),
    ("float_input", "bincount", arr([0., 1.], np.float32), [], {}, "call", None),
    ("float32", "unsorted_segment_min", X, [SEG, 3], {}, "call", None),
    ("int32", "unsorted_segment_min", I32, [arr([1, 1], np.int32), 2], {}, "call", None),
    ("float32", "unsorted_segment_prod", X, [SEG, 3], {}, "call", None),
    ("int32", "unsorted_segment_prod", I32, [arr([1, 1], np.int32), 2], {}, "call", None),
    ("one_d", "unsorted_segment_prod", arr([4., 2., 3.], np.float32), [arr([0, 0, 1], np.int32), 3], {}, "call",
     None),
    # ---- creation and copies ------------------------------------------------------------------
    ("float32", "fill", X, [2.0], {}, "call", None),
    ("int32_float_value", "fill", I32, [2.7], {}, "call", None),
    ("bool", "fill", B, [0], {}, "call", None),
    ("tensor_value", "fill", X16, [arr(3.0, np.float32)], {}, "call", None),
    ("float32", "new_full", I32, [(2, 3), 1.5], {"dtype": D("float32")}, "call", None),
    ("same_dtype", "new_full", X, [[2], 3], {}, "call", None),
    ("bool", "new_full", B, [(1, 2), True], {}, "call", None),
    ("tuple", "new_empty", X, [(2, 3)], {}, "call", "meta"),
    ("int_dtype", "new_empty", X, [4], {"dtype": D("int32")}, "call", "meta"),
    ("float32", "clone", X, [], {}, "call", "self"),
    ("int32", "clone", I32, [], {}, "call", None),
    ("bool", "clone", B, [], {}, "call", None),
    ("float32", "from_numpy", None, [np.arange(3, dtype=np.float32)], {}, "call", None),
    ("int64", "from_numpy", None, [np.array([[1, -2]], np.int64)], {}, "call", None),
    ("bool", "from_numpy", None, [np.array([True, False])], {}, "call", None),
    ("same_shape", "assign_value", X, [f32(2, 3)], {}, "call", "self"),
    ("new_shape", "assign_value", arr([1, 2, 3, 4], np.int64), [arr([[5, 6], [7, 8]], np.int64)], {}, "call", "self"),
    ("float_to_int", "set_dtype", X, [D("int32")], {}, "call", "self"),
    ("int_to_float", "set_dtype", I32, [D("float16")], {}, "call", "self"),
    # ---- in-place -----------------------------------------------------------------------------
    ("min_max", "clamp_", X, [-0.2, 0.3], {}, "call", "self"),
    ("min_only", "clamp_", X, [0.0], {}, "call", "self"),
    ("max_only", "clamp_", I32, [], {"max": 2}, "call", "self"),
    ("tensor_bounds", "clamp_", X, [arr([-1., 0., 0.1], np.float32), arr(0.2, np.float32)], {}, "call", "self"),
    ("float32", "fill_", X, [2.0], {}, "call", "self"),
    ("int32_float_value", "fill_", I32, [2.7], {}, "call", "self"),
    ("bool", "fill_", B, [1], {}, "call", "self"),
    ("tensor_value", "fill_", X16, [arr(3.0, np.float32)], {}, "call", "self"),
    ("float32", "zero_", X, [], {}, "call", "self"),
    ("int32", "zero_", I32, [], {}, "call", "self"),
    ("bool", "zero_", B, [], {}, "call", "self"),
    ("float32", "floor_", arr([-1.5, -0.5, 0., 0.5, 2.7], np.float32), [], {}, "call", "self"),
    ("float16", "floor_", X16, [], {}, "call", "self"),
    ("float32", "sigmoid_", X, [], {}, "call", "self"),
    ("float16", "sigmoid_", X16, [], {}, "call", "self"),
    ("float32", "tanh_", X, [], {}, "call", "self"),
    ("float16", "tanh_", X16, [], {}, "call", "self"),
    ("scalar", "masked_fill_", X, [MASK, 9.0], {}, "call", "self"),
    ("broadcast_int32", "masked_fill_", I32, [ROW_MASK, 0], {}, "call", "self"),
    ("tensor_value", "masked_fill_", X16, [MASK, arr(-1.0, np.float16)], {}, "call", "self"),
    ("dim1", "index_fill_", X, [1, IDX, 5.0], {}, "call", "self"),
    ("negative_dim_int32", "index_fill_", I32, [-2, arr([1], np.int32), -7], {}, "call", "self"),
    ("tensor_value", "index_fill_", X, [0, arr([0], np.int32), arr(-3.0, np.float32)], {}, "call", "self"),
]

# Lazily initialised tensors: (case id suffix, method, initializer, shape, dtype, how, then).
INIT_CASES = [
    ("lazy", "has_init", "One", (2, 3), "float32", "attr", None),
    ("one", "init_data", "One", (2, 3), "float32", "call", "self"),
    ("zero_int32", "init_data", "Zero", (4,), "int32", "call", None),
    ("constant", "init_data", "Constant", (2, 2), "float16", "call", None),
]
INITIALIZERS = {"One": msinit.One, "Zero": msinit.Zero, "Constant": lambda: msinit.Constant(2.5)}


def _tile(target, args, kwargs):
    reps = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    return ops.tile(target, tuple(reps))


def _ormqr(target, args, kwargs):
    tau, other = args
    q = target.orgqr(tau)  # H_1 ... H_k as a full square matrix (the input is square)
    q = q.T if kwargs.get("transpose") else q
    return ops.matmul(q, other) if kwargs.get("left", True) else ops.matmul(other, q)


def _full(target, args, kwargs):
    return ops.full(tuple(args[0]), args[1], dtype=kwargs.get("dtype") or target.dtype)


def _out_of_place(name):
    return lambda target, args, kwargs: getattr(target, name)(*args, **kwargs)


# Method -> (the real-MindSpore call with the same documented semantics, used when the method's own CPU call
# fails, and its name).
FALLBACK = {
    "addcdiv": ("ops.addcdiv", lambda t, a, k: ops.addcdiv(t, *a, **k)),
    "bitwise_not": ("ops.invert / ops.logical_not (bool)",
                    lambda t, a, k: ops.logical_not(t) if t.dtype == ms.bool_ else ops.invert(t)),
    "clamp_": ("Tensor.clamp", _out_of_place("clamp")),
    "clone": ("Tensor.copy", _out_of_place("copy")),
    "eigvals": ("ops.eigvals", lambda t, a, k: ops.eigvals(t)),
    "fill_": ("ops.full_like", lambda t, a, k: ops.full_like(t, a[0].asnumpy().item() if hasattr(a[0], "asnumpy")
                                                              else a[0])),
    "floor_": ("Tensor.floor", _out_of_place("floor")),
    "index_fill_": ("Tensor.index_fill", _out_of_place("index_fill")),
    "masked_fill_": ("Tensor.masked_fill", _out_of_place("masked_fill")),
    "new_full": ("ops.full", _full),
    "ormqr": ("Tensor.orgqr then ops.matmul", _ormqr),
    "repeat": ("ops.tile", _tile),
    "sigmoid_": ("Tensor.sigmoid", _out_of_place("sigmoid")),
    "tanh_": ("Tensor.tanh", _out_of_place("tanh")),
    "zero_": ("ops.zeros_like", lambda t, a, k: ops.zeros_like(t)),
}
NO_KERNEL = ("RuntimeError", "NotImplementedError")


def _encode_result(res, then, target):
    """(outputs, extra meta) of one result."""
    outs, extra = [], {}
    if then == "meta":
        return [np.asarray(res.shape, np.int64)], dict(dtype=str(res.dtype))
    if isinstance(res, ms.dtype.Type):
        extra.update(py=str(res), pytype="dtype")
    elif isinstance(res, tuple) and all(isinstance(r, int) for r in res):
        outs, extra["pytype"] = [np.asarray(res, np.int64)], "tuple"
    elif isinstance(res, bool):
        outs, extra["pytype"] = [np.asarray(res)], "bool"
    elif isinstance(res, int):
        outs, extra["pytype"] = [np.asarray(res, np.int64)], "int"
    else:
        outs = flatten_outputs(res)
    if then == "self":
        outs.append(target.asnumpy())
    return outs, extra


def _target(meta, inputs):
    if meta.get("init"):
        init, shape, dtype = meta["init"]
        return ms.Tensor(shape=tuple(shape), dtype=getattr(ms, dtype), init=INITIALIZERS[init]())
    return ms.Tensor if meta["on"] is None else decode_ms(meta["on"], inputs, ms)


def _attempt(name, inputs, meta):
    """(outputs, extra meta) of one call of the method, or of its fallback when the method has no CPU kernel."""
    args = [np.asarray(inputs[a["np"]]) if isinstance(a, dict) and "np" in a else decode_ms(a, inputs, ms)
            for a in meta["args"]]
    kwargs = {k: decode_ms(v, inputs, ms) for k, v in meta["kwargs"].items()}
    target = _target(meta, inputs)
    try:
        res = getattr(target, name)
        if meta["how"] == "call":
            res = res(*args, **kwargs)
        return _encode_result(res, meta["then"], target)
    except Exception as e:  # noqa: BLE001
        broken = name == "eigvals" and isinstance(e, TypeError)  # 2.10 calls the op table's entry wrongly
        if name not in FALLBACK or not (type(e).__name__ in NO_KERNEL or broken):
            raise
        primary = f"{type(e).__name__}: {' '.join(str(e).split())[:100]}"
    truth, fn = FALLBACK[name]
    target = _target(meta, inputs)  # fresh: the failed call must not have touched it
    res = fn(target, args, kwargs)
    if meta["then"] == "self":  # the in-place method returns self holding the out-of-place result
        outs = flatten_outputs(res)
        return outs + outs, dict(truth=truth, primary=primary)
    outs, extra = _encode_result(res, meta["then"], target)
    return outs, dict(extra, truth=truth, primary=primary)


def _record(w, suffix, name, inputs, meta):
    case_id = f"Tensor.{name}/{suffix}"
    for _try in range(3):  # the CPU runtime can report an earlier call's kernel error on the next call
        _flush(ms)
        try:
            outs, extra = _attempt(name, inputs, meta)
            w.add(case_id, inputs=inputs, outputs=outs, name=f"Tensor.{name}", **meta, **extra)
            return
        except Exception as e:  # noqa: BLE001  (the error type is the recorded truth)
            error, message = type(e).__name__, " ".join(str(e).split())[:160]
    print(f"{case_id}: {error}: {message[:100]}")
    w.add(case_id, inputs=inputs, name=f"Tensor.{name}", error=error, message=message, **meta)


def _encode_arg(a, inputs):
    if isinstance(a, np.ndarray):  # a NumPy argument (from_numpy), not a Tensor
        key = f"a{len(inputs)}"
        inputs[key] = a
        return {"np": key}
    return encode(a, inputs)


def main():
    with FixtureWriter(OUT) as w:
        for suffix, name, self_t, args, kwargs, how, then in CASES:
            inputs = {}
            meta = dict(on=encode(self_t, inputs) if self_t is not None else None,
                        args=[_encode_arg(a, inputs) for a in args],
                        kwargs={k: encode(v, inputs) for k, v in kwargs.items()}, how=how, then=then)
            _record(w, suffix, name, inputs, meta)
        for suffix, name, init, shape, dtype, how, then in INIT_CASES:
            meta = dict(on=None, init=[init, list(shape), dtype], args=[], kwargs={}, how=how, then=then)
            _record(w, suffix, name, {}, meta)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
