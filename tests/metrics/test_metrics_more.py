"""BleuScore, CosineSimilarity and the surface-distance metrics replayed against real MindSpore 2.10
(``tools/oracle/record_toplevel.py`` -> ``tests/fixtures/oracle/toplevel.npz``)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import assert_close, load_cases

METRICS = ("BleuScore", "CosineSimilarity", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
           "ConfusionMatrixMetric", "OcclusionSensitivity")
CASES = [pytest.param(c, id=i) for i, c in load_cases("toplevel.npz").items() if c.name in METRICS]


def test_fixture_has_every_metric():
    assert {c.values[0].name for c in CASES} == set(METRICS)


@pytest.mark.parametrize("case", CASES)
def test_metric_matches_mindspore(case):
    metric = getattr(ms.train, case.name)(**case.meta["kwargs"])
    if case.name == "BleuScore":
        metric.update(case.meta["candidates"], case.meta["references"])
    elif case.name == "CosineSimilarity":
        metric.update(ms.Tensor(case.inputs["x"]))
    elif case.name == "ConfusionMatrixMetric":
        metric.update(case.inputs["p0"], case.inputs["y0"])
        metric.update(case.inputs["p1"], case.inputs["y1"])
    elif case.name == "OcclusionSensitivity":
        net = nn.SequentialCell([nn.Flatten(), nn.Dense(12, 3)])
        net[1].weight.set_data(ms.Tensor(case.inputs["weight"]))
        net[1].bias.set_data(ms.Tensor(case.inputs["bias"]))
        metric.update(net, case.inputs["image"], np.array(case.meta["label"]))
    else:
        metric.update(case.inputs["y_pred"], case.inputs["y"], case.meta["label"])
    got = np.asarray(metric.eval(), case.outputs[0].dtype)
    # float64 NumPy arithmetic on both sides; the occlusion scores come from a float32 network
    tol = 1e-5 if case.name == "OcclusionSensitivity" else 1e-12
    assert_close(got, case.outputs[0], rtol=tol, atol=tol, what=case.id)


def test_metric_errors_name_the_metric():
    with pytest.raises(ValueError, match="BleuScore"):
        ms.BleuScore(n_gram=5)
    with pytest.raises(RuntimeError, match="update"):
        ms.CosineSimilarity().eval()
    with pytest.raises(ValueError, match="HausdorffDistance.update.*3 inputs"):
        ms.HausdorffDistance().update(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="MeanSurfaceDistance.update.*label index"):
        ms.MeanSurfaceDistance().update(np.zeros((2, 2)), np.zeros((2, 2)), 3)
    with pytest.raises(ValueError, match="RootMeanSquareDistance.*distance_metric"):
        ms.RootMeanSquareDistance(distance_metric="cosine")


def test_set_indexes_selects_inputs():
    m = ms.CosineSimilarity(similarity="dot", zero_diagonal=False).set_indexes([1])
    m.update(np.zeros((2, 2)), np.eye(2))
    np.testing.assert_array_equal(m.eval(), np.eye(2))


def test_confusion_matrix_metric_checks():
    with pytest.raises(NotImplementedError, match="not implemented"):
        ms.ConfusionMatrixMetric(metric_name="nonsense")
    with pytest.raises(ValueError, match="decrease"):
        ms.ConfusionMatrixMetric(decrease="max")
    m = ms.ConfusionMatrixMetric(calculation_method=True, decrease="none")
    y = np.eye(2, dtype=np.int64)[None, :, :, None]
    with pytest.raises(ValueError, match="'mean' or 'sum'"):
        m.update(y, y)
    with pytest.raises(ValueError, match="binarized"):
        ms.ConfusionMatrixMetric().update(y, y * 0.5)


def test_occlusion_sensitivity_checks():
    net = nn.SequentialCell([nn.Flatten(), nn.Dense(4, 2)])
    with pytest.raises(RuntimeError, match="index 0"):
        ms.OcclusionSensitivity().update(net, np.zeros((2, 4), np.float32), np.array(1))
    with pytest.raises(ValueError, match="b_box"):
        ms.OcclusionSensitivity(b_box=[0, 1]).update(net, np.zeros((1, 2, 2), np.float32), np.array(1))
    with pytest.raises(TypeError, match="Cell"):
        ms.OcclusionSensitivity().update(len, np.zeros((1, 4), np.float32), np.array(1))
