"""Math, linear-algebra and segment/search Primitives and functions against real MindSpore 2.10
(tools/oracle/record_ops_math.py), and NumPy where MindSpore's CPU build has no kernel for a name.

Decompositions defined only up to signs or order (Eig's eigenvalue order) compare in a canonical form.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from tests.oracle import assert_close, case_params
from tests.sweep import decode, split_params

_OPTIM = set(ops._optim_updates.__all__)
_CASES = split_params([p for p in case_params("ops_math_more.npz")  # (a name's further cases are marked slow)
                       if p.values[0].name[2:] not in _OPTIM and p.values[0].error != "RuntimeError"])
_TOL = {"float32": (1e-4, 1e-5), "complex64": (1e-4, 1e-5)}


def _run(case):
    args = [decode(a, case.inputs) for a in case.meta["args"]]
    kwargs = {k: decode(v, case.inputs) for k, v in case.meta["kwargs"].items()}
    if case.name.startswith("P."):
        init = {k: decode(v, case.inputs) for k, v in case.meta["init"].items()}
        return getattr(ops, case.name[2:])(**init)(*args, **kwargs)
    return getattr(ops, case.name[4:])(*args, **kwargs)


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flat(o)]
    return [out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)]


@pytest.mark.parametrize("case", _CASES)
def test_matches_mindspore(case):
    if case.error:
        with pytest.raises((ValueError, TypeError)):
            _run(case)
        return
    outs = _flat(_run(case))
    want = list(case.outputs)
    assert len(outs) == len(want), f"{case.id}: {len(outs)} outputs, recorded {len(want)}"
    if case.name == "P.Eig":  # eigenvalue order is not defined
        outs[0], want[0] = np.sort_complex(outs[0]), np.sort_complex(want[0])
    for i, (got, w) in enumerate(zip(outs, want)):
        if w.ndim == 0 and got.ndim == 0 and w.dtype.kind == "i":  # a Python int output
            got = got.astype(w.dtype)
        rtol, atol = _TOL.get(str(w.dtype), (None, None))
        assert_close(got, w, rtol=rtol, atol=atol, what=f"{case.id} output {i}")


# Names whose MindSpore 2.10 CPU build has no kernel (the recorder got "Unsupported op"): checked against NumPy.
_RNG = np.random.default_rng(5)


def _t(a):
    return ms.Tensor(np.asarray(a))


def test_quantile_against_numpy():
    x = _RNG.standard_normal((3, 5)).astype(np.float32)
    got = ops.Quantile(dim=1, keep_dims=True)(_t(x), _t(np.array([0.25, 0.5], np.float32)))
    np.testing.assert_allclose(got.asnumpy(), np.quantile(x, [0.25, 0.5], axis=1, keepdims=True), rtol=1e-5)
    x[0, 1] = np.nan
    got = ops.Quantile(dim=1, ignore_nan=True)(_t(x), _t(np.float32(0.3)))
    np.testing.assert_allclose(got.asnumpy(), np.nanquantile(x, 0.3, axis=1), rtol=1e-5)


def test_split_v_against_numpy():
    x = _RNG.standard_normal((2, 6)).astype(np.float32)
    outs = ops.SplitV(size_splits=[1, -1, 2], split_dim=1, num_split=3)(_t(x))
    for got, want in zip(outs, np.split(x, [1, 4], axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    with pytest.raises(ValueError, match="SplitV.*sum to 6"):
        ops.SplitV(size_splits=[1, 2, 2], split_dim=1, num_split=3)(_t(x))


def test_histogram_fixed_width_against_numpy():
    x = np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], np.float32)
    got = ops.HistogramFixedWidth(5)(_t(x), _t(np.array([0.0, 5.0], np.float32)))
    # NumPy's histogram over [0, 5) with values outside clamped into the first / last bin (TF/MindSpore rule)
    want = np.histogram(np.clip(x, 0.0, 4.999), bins=5, range=(0.0, 5.0))[0]
    assert got.asnumpy().tolist() == want.tolist() and got.asnumpy().dtype == np.int32


def test_lerp_scalar_confusion_matrix_euclidean_norm_against_numpy():
    a, b = _RNG.standard_normal((2, 3)).astype(np.float32), _RNG.standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(ops.LerpScalar()(_t(a), _t(b), 0.3).asnumpy(), a + 0.3 * (b - a), rtol=1e-6)
    labels, pred, w = np.array([0, 1, 1, 3]), np.array([0, 2, 1, 3]), np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    want = np.zeros((4, 4), np.int32)
    np.add.at(want, (labels, pred), 1)
    assert ops.ConfusionMatrix(4)(_t(labels.astype(np.int32)), _t(pred.astype(np.int32))).asnumpy().tolist() == \
        want.tolist()
    wf = np.zeros((4, 4), np.float32)
    np.add.at(wf, (labels, pred), w)
    np.testing.assert_array_equal(ops.ConfusionMatrix(4, "float")(_t(labels), _t(pred), _t(w)).asnumpy(), wf)
    x = _RNG.standard_normal((2, 3, 2)).astype(np.float32)
    got = ops.EuclideanNorm(keep_dims=True)(_t(x), _t(np.array([0, 2], np.int64)))
    np.testing.assert_allclose(got.asnumpy(), np.sqrt((x ** 2).sum(axis=(0, 2), keepdims=True)), rtol=1e-6)


def test_count_nonzero_and_scatter_non_aliasing_add_against_numpy():
    x = np.array([[0, 1, 2], [0, 0, 3]], np.float32)
    got = ops.CountNonZero(dims=[1])(_t(x))
    assert got.asnumpy().tolist() == np.count_nonzero(x, axis=1).tolist() and got.asnumpy().dtype == np.int64
    assert ops.CountNonZero()(_t(x)).asnumpy().item() == 3
    var = ms.Parameter(_t(np.arange(6, dtype=np.float32)), name="var")
    out = ops.ScatterNonAliasingAdd()(var, _t(np.array([[2], [4], [2]], np.int32)),
                                      _t(np.array([1.0, 2.0, 3.0], np.float32)))
    want = np.arange(6, dtype=np.float32)
    np.add.at(want, [2, 4, 2], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(var.asnumpy(), want)
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_ormqr_against_numpy():
    a = _RNG.standard_normal((4, 3))
    q_full, _ = np.linalg.qr(a, mode="complete")
    h, tau = ops.geqrf(_t(a))
    c = _RNG.standard_normal((4, 2))
    got = ops.Ormqr()(h, tau, _t(c)).asnumpy()
    # Q from the Householder reflectors equals NumPy's complete Q up to column signs: compare Q^T Q-invariant forms
    q_ms = ops.Ormqr()(h, tau, _t(np.eye(4))).asnumpy()
    np.testing.assert_allclose(np.abs(q_ms), np.abs(q_full), atol=1e-10)
    np.testing.assert_allclose(got, q_ms @ c, atol=1e-10)
    np.testing.assert_allclose(ops.Ormqr(left=True, transpose=True)(h, tau, _t(c)).asnumpy(), q_ms.T @ c,
                               atol=1e-10)


def test_inplace_sigmoid_against_numpy():
    x = _RNG.standard_normal((2, 3)).astype(np.float32)
    t = _t(x)
    out = ops.inplace_sigmoid(t)
    assert out is t
    np.testing.assert_allclose(t.asnumpy(), 1 / (1 + np.exp(-x)), rtol=1e-6)


def test_bad_inputs_name_the_op():
    with pytest.raises(ValueError, match="SegmentSum.*sorted"):
        ops.SegmentSum()(_t(np.ones(3, np.float32)), _t(np.array([1, 0, 2], np.int32)))
    with pytest.raises(ValueError, match="matrix_diag_part.*align"):
        ops.matrix_diag_part(_t(np.ones((2, 2), np.float32)), 0, 0.0, align="UP")
    with pytest.raises(ValueError, match="matrix_set_diag.*diagonal.*shape"):
        ops.matrix_set_diag(_t(np.ones((3, 3), np.float32)), _t(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="CompareAndBitpack.*multiple of 8"):
        ops.CompareAndBitpack()(_t(np.ones(5, np.float32)), _t(np.float32(0)))
    with pytest.raises(ValueError, match="inplace_index_add.*updates"):
        ops.inplace_index_add(_t(np.ones((3, 2), np.float32)), _t(np.array([0], np.int32)),
                              _t(np.ones((2, 2), np.float32)), 0)
