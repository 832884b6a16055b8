"""Replay real MindSpore 2.10's window, CTC, NMS, sequence-helper and shape Primitives
(tools/oracle/record_primitives_ext.py), eagerly on small inputs.

Cases whose kernel MindSpore 2.10's CPU build lacks (NonMaxSuppressionV3, MultilabelMarginLoss,
ComputeAccidentalHits: recorded as RuntimeError) are checked against NumPy below instead. Random Primitives
(Dropout2D/3D) are replayed at keep_prob=1 and checked by statistics and seed reproducibility otherwise.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from tests.oracle import assert_close, case_params
from tests.sweep import call_recorded, flatten, split_params

FIXTURE = "primitives_ext.npz"


def _params():
    out = []
    for p in case_params(FIXTURE):
        if p.values[0].error == "RuntimeError" and "MapUniform" not in p.values[0].id:
            p = pytest.param(*p.values, id=p.id, marks=[pytest.mark.skip(reason="no CPU kernel in MindSpore 2.10; "
                                                                                "checked against NumPy below")])
        out.append(p)
    return split_params(out)  # the first case of each name by default, the others marked slow


@pytest.mark.parametrize("case", _params())
def test_oracle_case(case):
    if case.error:
        with pytest.raises((TypeError, ValueError, IndexError)):
            flatten(call_recorded(case, ops))
        return
    outs = flatten(call_recorded(case, ops))
    if case.name == "P.TensorToTuple":  # Python ints, as MindSpore returns
        assert all(isinstance(v, int) for v in outs)
        outs = [np.asarray(v, np.int64) for v in outs]
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        if case.name == "P.TensorToTuple":
            np.testing.assert_array_equal(got, want)
        else:
            assert_close(got, want, what=f"{case.id} output {i}")


def _t(v, dt):
    return ms.Tensor(np.asarray(v, dt))


def test_nms_v3_numpy():
    boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3], [1.5, 1.5, 0.5, 0.5]], np.float32)
    scores = np.array([0.6, 0.9, 0.7, 0.8], np.float32)
    got = ops.NonMaxSuppressionV3()(_t(boxes, np.float32), _t(scores, np.float32), _t(4, np.int32),
                                    _t(0.5, np.float32), _t(0.65, np.float32))
    # NumPy: box 1 (0.9) kept, box 3 (0.8, no overlap) kept, box 2 (0.7) kept, box 0 below score_threshold
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == [1, 3, 2]
    got = ops.NonMaxSuppressionV3()(_t(boxes, np.float32), _t(scores, np.float32), _t(4, np.int32),
                                    _t(0.5, np.float32), _t(0.0, np.float32))
    assert got.asnumpy().tolist() == [1, 3, 2]  # box 0 overlaps box 1 with IoU 0.9/1.1 > 0.5


def test_multilabel_margin_loss_numpy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    y = np.array([[1, 2, -1, 0], [3, -1, 0, 0]], np.int32)
    loss, is_target = ops.MultilabelMarginLoss(reduction="none")(_t(x, np.float32), _t(y, np.int32))
    want, hot = [], np.zeros_like(y)
    for r in range(2):
        labels = []
        for v in y[r]:
            if v < 0:
                break
            labels.append(v)
        hot[r, labels] = 1
        others = [j for j in range(4) if j not in labels]
        want.append(sum(max(0, 1 - (x[r, i] - x[r, j])) for i in labels for j in others) / 4)
    assert_close(loss, np.asarray(want, np.float32))
    np.testing.assert_array_equal(is_target.asnumpy(), hot)
    assert is_target.dtype == ms.int32


def test_compute_accidental_hits_numpy():
    idx, ids, w = ops.ComputeAccidentalHits(2)(_t([[1, 2], [0, 4]], np.int64), _t([0, 1, 2, 3, 4], np.int64))
    assert idx.asnumpy().tolist() == [0, 0, 1, 1] and ids.asnumpy().tolist() == [1, 2, 0, 4]
    assert (idx.dtype, ids.dtype, w.dtype) == (ms.int32, ms.int64, ms.float32)
    assert (w.asnumpy() == np.finfo(np.float32).min).all()
    with pytest.raises(ValueError, match="num_true|batch"):
        ops.ComputeAccidentalHits(1)(_t([[1, 2]], np.int64), _t([1], np.int64))


def test_channel_dropout_random():
    ms.set_seed(3)
    x = ms.Tensor(np.ones((8, 16, 3, 3), np.float32))
    out, mask = ops.Dropout2D(keep_prob=0.75)(x)
    o, m = out.asnumpy(), mask.asnumpy()
    assert mask.dtype == ms.bool_ and m.shape == o.shape
    assert (m == m[:, :, :1, :1]).all()  # one decision per channel
    np.testing.assert_allclose(o, np.where(m, 1 / 0.75, 0), rtol=1e-6)
    assert 0.6 < m.mean() < 0.9
    ms.set_seed(3)
    again, _ = ops.Dropout2D(keep_prob=0.75)(x)
    np.testing.assert_array_equal(again.asnumpy(), o)
    out3, mask3 = ops.Dropout3D(0.5)(ms.Tensor(np.ones((2, 4, 2, 2, 2), np.float32)))
    assert out3.shape == mask3.shape == (2, 4, 2, 2, 2)
    with pytest.raises(ValueError, match="keep_prob"):
        ops.Dropout2D(keep_prob=1.5)(x)


def test_gradient_hooks():
    seen = []
    hook = ops.HookBackward(lambda g: seen.append(g.asnumpy()))
    twice = ops.InsertGradientOf(lambda g: g * 2)

    def fn(x):
        return (hook(x) * twice(x) * 3).sum()

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    g = ops.grad(fn)(x)
    # d/dx sum(3 x x): the hooked branch gets 3x (seen, unchanged), the other 3x doubled
    np.testing.assert_allclose(g.asnumpy(), [9.0, 18.0])
    np.testing.assert_allclose(seen[0], [3.0, 6.0])
    assert ops.HookBackward(lambda g: None)(x).asnumpy().tolist() == [1.0, 2.0]


def test_shape_dtype_assert():
    assert ops.DynamicShape()(ms.Tensor(np.zeros((2, 5), np.float32))).asnumpy().tolist() == [2, 5]
    # MindSpore 2.10's TypeId numbers, as its DtypeToEnum returns them
    assert [ops.DtypeToEnum()("op", "x", t) for t in (ms.float32, ms.int32, ms.float16, ms.bool_, ms.int64)] == \
        [43, 34, 42, 30, 35]
    assert ops.Assert()(ms.Tensor(True), [ms.Tensor([1.0])]).asnumpy().tolist() == [0]
    with pytest.raises(RuntimeError, match="condition is false"):
        ops.Assert()(ms.Tensor(False), [ms.Tensor([1.0])])
