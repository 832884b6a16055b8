"""Tensor methods and attributes (``T``, ``shape``, ``strides``, ``addmm``, ``clamp_``, ``lu_solve`` ...) replayed
against real MindSpore 2.10 (``tools/oracle/record_tensor_methods_replay.py``), plus NumPy checks of ``fmin``,
``quantile`` and ``nanquantile``, which MindSpore's CPU build has no kernel for."""
import builtins

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor
from mindspore_hl.common import initializer as init
from tests.oracle import Case, assert_close, case_params
from tests.sweep import decode, split_params

FIXTURE = "tensor_methods_replay.npz"
IN_PLACE = {"Tensor.assign_value", "Tensor.init_data"}  # return self, as ``fill_`` and the other ``*_``
# MindSpore's CPU kernels for these Float64 cases are only about float32-accurate; mindspore_hl's agree with SciPy
# (digamma(0.1) = -10.4237549404110768, MindSpore -10.423755645751953).
TOLERANCE = {"Tensor.digamma/float64": dict(rtol=1e-6), "Tensor.igamma/broadcast": dict(rtol=1e-7),
             "Tensor.igammac/broadcast": dict(rtol=1e-7)}
INITIALIZERS = {"One": init.One, "Zero": init.Zero, "Constant": lambda: init.Constant(2.5)}


def _target(case: Case):
    if case.meta.get("init"):
        name, shape, dtype = case.meta["init"]
        return Tensor(shape=tuple(shape), dtype=getattr(ms, dtype), init=INITIALIZERS[name]())
    return Tensor if case.meta["on"] is None else decode(case.meta["on"], case.inputs)


def _call(case: Case):
    target = _target(case)
    args = [np.asarray(case.inputs[a["np"]]) if isinstance(a, dict) and "np" in a else decode(a, case.inputs)
            for a in case.meta["args"]]
    kwargs = {k: decode(v, case.inputs) for k, v in case.meta["kwargs"].items()}
    res = getattr(target, case.name.split(".", 1)[1])
    if case.meta["how"] == "call":
        res = res(*args, **kwargs)
    return target, res


@pytest.mark.parametrize("case", split_params(case_params(FIXTURE)))  # the first case per name by default
def test_replay(case):
    if case.error:
        with pytest.raises(getattr(builtins, case.error)):
            _call(case)
        return
    target, res = _call(case)
    meta = case.meta
    if meta["then"] == "meta":  # new_empty: uninitialised values, so shape and dtype only
        assert (res.shape, str(res.dtype)) == (tuple(case.outputs[0].tolist()), meta["dtype"])
        return
    if meta.get("pytype") == "dtype":
        assert isinstance(res, ms.dtype.Type) and str(res) == meta["py"], f"{case.id}: {res!r} != {meta['py']}"
        outs = []
    elif "pytype" in meta:
        assert type(res).__name__ == meta["pytype"], f"{case.id}: {type(res).__name__} != {meta['pytype']}"
        outs = [np.asarray(res, np.int64 if meta["pytype"] != "bool" else None)]
    else:
        outs = list(res) if isinstance(res, (tuple, list)) else [res]
    if meta["then"] == "self":
        if case.name.endswith("_") or case.name in IN_PLACE:
            assert res is target, f"{case.id}: the in-place method must return self"
        outs.append(target)
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    if case.name == "Tensor.eigvals":  # the order of eigenvalues is unspecified (LAPACK's and Eigen's differ)
        outs, wanted = [np.sort_complex(outs[0].asnumpy())], [np.sort_complex(case.outputs[0])]
    else:
        wanted = case.outputs
    for i, (got, want) in enumerate(zip(outs, wanted)):
        assert_close(got, want, what=f"{case.id} output {i}", **TOLERANCE.get(case.id, {}))


# ---- no CPU kernel in MindSpore 2.10 (Fmin, Quantile): NumPy is the truth ----------------------------------
def test_fmin_against_numpy():
    a = np.array([1., np.nan, 3., np.nan, -0.5], np.float32)
    b = np.array([2., 1., np.nan, np.nan, -1.5], np.float32)
    out = Tensor(a).fmin(Tensor(b))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.fmin(a, b))
    ints = Tensor(np.array([[1, 5]], np.int32)).fmin(Tensor(np.array([[3], [0]], np.int32)))
    np.testing.assert_array_equal(ints.asnumpy(), np.fmin(np.array([[1, 5]]), np.array([[3], [0]])))


@pytest.mark.parametrize("method", ["quantile", "nanquantile"])
def test_quantile_against_numpy(method):
    a = np.array([[0.5, np.nan, 2., 4.], [1., 3., -1., 8.]], np.float32)
    ref = getattr(np, method)
    t = Tensor(a)
    np.testing.assert_allclose(getattr(t, method)(0.25, axis=1).asnumpy(), ref(a, 0.25, axis=1), rtol=1e-6)
    q = np.array([0.1, 0.9], np.float32)
    out = getattr(t, method)(Tensor(q), axis=0, keepdims=True)
    assert out.shape == (2, 1, 4) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), ref(a, q, axis=0, keepdims=True), rtol=1e-6)


def test_bad_arguments_name_the_method():
    # MindSpore's CPU build has no kernel for repeat and documents these as errors (RuntimeError on Ascend).
    x = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="Tensor.repeat"):
        x.repeat(2)
    with pytest.raises(ValueError, match="Tensor.repeat"):
        x.repeat(1, -1)
    with pytest.raises(IndexError, match="Tensor.select"):
        x.select(1, 3)
    with pytest.raises(TypeError, match="Tensor.select"):
        x.select(0)
