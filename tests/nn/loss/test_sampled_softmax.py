"""``nn.SampledSoftmaxLoss`` against real MindSpore 2.10 (fixture recorded by tools/oracle/record_nn_extra.py):
with ``sampled_values`` given the loss is deterministic and replayed; with sampling (random, so not replayable) the
shapes and that it is a valid cross entropy; the argument and input errors."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import FIXTURE_ROOT, assert_outputs, load_cases

FIXTURE = FIXTURE_ROOT / "nn_extra.npz"
RAISES = {"TypeError": TypeError, "ValueError": ValueError}
CASES = {k: c for k, c in load_cases(FIXTURE).items() if c.name == "nn.SampledSoftmaxLoss"}
RUNS = {k: c for k, c in CASES.items() if c.error is None}
ARG_ERRORS = {k: c for k, c in CASES.items() if c.error is not None and "sampled_values" in c.meta}


def _sampled_values(case):
    return tuple(ms.Tensor(case.inputs[k]) for k in ("sampled", "true_expected", "sampled_expected"))


@pytest.mark.parametrize("case_id", list(RUNS))
def test_sampled_softmax_matches_mindspore(case_id):
    case = RUNS[case_id]
    loss = nn.SampledSoftmaxLoss(**case.kwargs, sampled_values=_sampled_values(case))
    out = loss(*(ms.Tensor(case.inputs[k]) for k in ("weights", "biases", "labels", "logits")))
    assert_outputs(out, case, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case_id", list(ARG_ERRORS))
def test_sampled_softmax_argument_errors(case_id):
    case = ARG_ERRORS[case_id]
    sv = {"1": 1, "(1, 2)": (1, 2), "None": None}[case.meta["sampled_values"]]
    with pytest.raises(RAISES[case.error]):
        nn.SampledSoftmaxLoss(**case.kwargs, sampled_values=sv)


def test_sampled_softmax_rejects_float_labels_and_non_tensors():
    case = CASES["nn.SampledSoftmaxLoss/err_label_dtype"]
    assert case.error == "TypeError"
    sv = (ms.Tensor(np.array([1, 3], np.int32)), ms.Tensor(np.ones((3, 1), np.float32)),
          ms.Tensor(np.ones(2, np.float32)))
    loss = nn.SampledSoftmaxLoss(2, 7, sampled_values=sv)
    w, b, x = (ms.Tensor(np.zeros(s, np.float32)) for s in ((7, 4), (7,), (3, 4)))
    with pytest.raises(TypeError, match="labels"):
        loss(w, b, ms.Tensor(np.zeros((3, 1), np.float32)), x)
    with pytest.raises(TypeError, match="weights"):
        loss(np.zeros((7, 4), np.float32), b, ms.Tensor(np.zeros((3, 1), np.int32)), x)


def test_sampled_softmax_with_sampling_is_a_valid_loss():
    """Drawn candidates: one finite, non-negative loss per example (``reduction`` does not reduce, as in
    MindSpore), equal to the loss over the candidates that a ``UniformCandidateSampler`` of the same arguments and
    seed draws."""
    rng = np.random.default_rng(3)
    w = ms.Tensor(rng.normal(0, 1, (20, 5)).astype(np.float32))
    b = ms.Tensor(rng.normal(0, 1, (20,)).astype(np.float32))
    labels = ms.Tensor(np.array([[1, 4], [7, 2], [19, 0], [3, 3]], np.int64))
    x = ms.Tensor(rng.normal(0, 1, (4, 5)).astype(np.float32))
    loss = nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, num_true=2, seed=1, reduction="mean")
    out = loss(w, b, labels, x).asnumpy()
    assert out.shape == (4,) and out.dtype == np.float32
    assert np.all(np.isfinite(out)) and np.all(out >= 0)
    int_labels = ms.Tensor(labels.asnumpy().astype(np.int32))
    sampled_values = ms.ops.UniformCandidateSampler(2, 6, True, 20, 1, True)(int_labels)
    assert sampled_values[0].shape == (6,)
    same = nn.SampledSoftmaxLoss(num_sampled=6, num_classes=20, num_true=2, sampled_values=sampled_values)
    np.testing.assert_allclose(out, same(w, b, labels, x).asnumpy(), rtol=1e-6)
