"""Metrics: the verified MindSpore 2.10 values (reference §2.7) and property tests against plain-NumPy loops."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mindspore_hl as ms
from mindspore_hl import metrics as M
from mindspore_hl.train import (
    F1,
    MAE,
    MSE,
    ROC,
    Accuracy,
    ConfusionMatrix,
    Fbeta,
    Loss,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    auc,
    get_metric_fn,
    names,
)


def T(x, dtype=ms.float32):
    return ms.Tensor(np.asarray(x), dtype)


# ---- the values real MindSpore 2.10 returns (reference §2.7) ------------------------------------------------
LOGITS = T([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])
LABELS = T([1, 0, 1], ms.int32)


def test_accuracy_two_of_three():
    m = Accuracy("classification")
    m.update(LOGITS, LABELS)
    assert isinstance(m.eval(), float)
    assert m.eval() == pytest.approx(2 / 3)


def test_precision_recall_f1_are_per_class_arrays():
    x = T([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6], [0.9, 0.05, 0.05], [0.1, 0.1, 0.8]])
    y = T([1, 2, 1, 2], ms.int32)   # predicted 1, 2, 0, 2
    p, r, f = Precision(), Recall(), F1()
    for m in (p, r, f):
        m.update(x, y)
    np.testing.assert_allclose(p.eval(), [0.0, 1.0, 1.0])
    np.testing.assert_allclose(r.eval(), [0.0, 0.5, 1.0])
    np.testing.assert_allclose(f.eval(), [0.0, 2 / 3, 1.0])
    assert isinstance(p.eval(), np.ndarray)
    assert p.eval(average=True) == pytest.approx(2 / 3)
    with pytest.raises(TypeError):
        p.eval(average=1)


def test_mae_mse_on_half_difference():
    mae, mse = MAE(), MSE()
    pred, true = T([0.1, 0.2, 0.6, 0.9]), T([0.6, 0.7, 1.1, 1.4])
    mae.update(pred, true)
    mse.update(pred, true)
    # MindSpore sums the error over elements and divides by the number of samples (leading dim)
    assert mae.eval() == pytest.approx(0.5)
    assert mse.eval() == pytest.approx(0.25)


def test_loss_is_mean_of_updates():
    m = Loss()
    m.update(T(0.5))
    m.update(T(1.5))
    assert m.eval() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="dimension"):
        m.update(T([[1.0]]))


def test_topk():
    x = T([[0.2, 0.5, 0.3, 0.1, 0.05, 0.01], [0.3, 0.1, 0.5, 0.2, 0.6, 0.7]])
    y = T([2, 5], ms.int32)
    assert Top1CategoricalAccuracy()(x, y) == pytest.approx(0.5)
    assert TopKCategoricalAccuracy(2)(x, y) == pytest.approx(1.0)
    assert Top5CategoricalAccuracy()(x, y) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        TopKCategoricalAccuracy(0)


def test_multilabel_accuracy_and_onehot_labels():
    m = Accuracy("multilabel")
    m.update(T([[0, 1, 1], [1, 0, 1]]), T([[0, 1, 1], [1, 1, 1]]))
    assert m.eval() == pytest.approx(0.5)
    onehot = Accuracy()
    onehot.update(LOGITS, T([[0, 1], [1, 0], [0, 1]]))
    assert onehot.eval() == pytest.approx(2 / 3)


def test_errors_name_the_metric_and_inputs():
    with pytest.raises(ValueError, match="Accuracy.update.*2 inputs"):
        Accuracy().update(LOGITS)
    with pytest.raises(RuntimeError, match="Accuracy"):
        Accuracy().eval()
    with pytest.raises(ValueError, match=r"class indexes in \[0, 2\)"):
        Accuracy().update(LOGITS, T([0, 1, 7], ms.int32))
    with pytest.raises(ValueError, match="class number"):
        m = Accuracy()
        m.update(LOGITS, LABELS)
        m.update(T(np.ones((3, 4))), LABELS)
    with pytest.raises(ValueError, match="eval_type"):
        Accuracy("regression")


def test_names_and_factory():
    assert {"accuracy", "acc", "loss", "top_1_accuracy", "top_5_accuracy", "precision", "recall", "F1", "mae",
            "mse", "auc", "roc", "topk", "confusion_matrix"} <= set(names())
    assert isinstance(get_metric_fn("acc"), Accuracy)
    assert isinstance(ms.nn.Accuracy() if hasattr(ms.nn, "Accuracy") else M.Accuracy(), M.Metric)
    with pytest.raises(KeyError, match="unsupported metric"):
        get_metric_fn("nope")
    assert M.get_metrics({"accuracy", "loss"}).keys() == {"accuracy", "loss"}


def test_set_indexes_picks_inputs():
    m = Accuracy().set_indexes([1, 2])
    m.update(T(0.3), LOGITS, LABELS)
    assert m.eval() == pytest.approx(2 / 3)


def test_confusion_matrix_and_normalisations():
    cm = ConfusionMatrix(num_classes=2)
    cm.update(T([[0.9, 0.1], [0.2, 0.8], [0.4, 0.6]]), T([0, 1, 0], ms.int32))
    np.testing.assert_array_equal(cm.eval(), [[1, 1], [0, 1]])
    cm_t = ConfusionMatrix(2, normalize="target")
    cm_t.update(T([[0.9, 0.1], [0.2, 0.8], [0.4, 0.6]]), T([0, 1, 0], ms.int32))
    np.testing.assert_allclose(cm_t.eval(), [[0.5, 0.5], [0.0, 1.0]])


def test_roc_and_auc():
    roc = ROC(pos_label=1)
    roc.update(T([0.1, 0.4, 0.35, 0.8]), T([0, 0, 1, 1], ms.int32))
    fpr, tpr, thresholds = roc.eval()
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 0.5, 1, 1])
    np.testing.assert_allclose(thresholds, [1.8, 0.8, 0.4, 0.35, 0.1], rtol=1e-6)
    assert auc(fpr, tpr) == pytest.approx(0.75)
    multi = ROC(class_num=3)
    multi.update(T([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]), T([0, 1, 2, 1], ms.int32))
    fprs, tprs, _ = multi.eval()
    assert len(fprs) == 3 and auc(fprs[0], tprs[0]) == pytest.approx(1.0)


def test_fbeta_against_formula():
    x = T([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6], [0.9, 0.05, 0.05], [0.1, 0.1, 0.8]])
    y = T([1, 2, 1, 2], ms.int32)
    m = Fbeta(2.0)
    m.update(x, y)
    p, r = np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.5, 1.0])
    with np.errstate(invalid="ignore"):
        expected = np.nan_to_num(5 * p * r / (4 * p + r))
    np.testing.assert_allclose(m.eval(), expected, atol=1e-12)


# ---- property tests against independent NumPy loops -------------------------------------------------------------
@st.composite
def _batches(draw):
    n = draw(st.integers(1, 20))
    c = draw(st.integers(2, 6))
    scores = draw(st.lists(st.lists(st.floats(-5, 5, allow_nan=False, width=32), min_size=c, max_size=c),
                           min_size=n, max_size=n))
    labels = draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n))
    return np.array(scores, np.float32), np.array(labels, np.int32)


@settings(max_examples=60, deadline=None)
@given(_batches(), _batches())
def test_classification_metrics_match_loops(b1, b2):
    if b1[0].shape[1] != b2[0].shape[1]:
        b2 = (b2[0][:, :1].repeat(b1[0].shape[1], 1), np.minimum(b2[1], b1[0].shape[1] - 1))
    c = b1[0].shape[1]
    acc, prec, rec, top2 = Accuracy(), Precision(), Recall(), TopKCategoricalAccuracy(2)
    tp, pp, ap, correct, top2_hits, n = np.zeros(c), np.zeros(c), np.zeros(c), 0, 0, 0
    for scores, labels in (b1, b2):
        for m in (acc, prec, rec, top2):
            m.update(ms.Tensor(scores), ms.Tensor(labels))
        for s, lab in zip(scores, labels):
            pred = int(np.argmax(s))
            correct += pred == lab
            pp[pred] += 1
            ap[lab] += 1
            tp[lab] += pred == lab
            order = sorted(range(c), key=lambda k: (-s[k], k))
            top2_hits += lab in order[:2]
            n += 1
    assert acc.eval() == pytest.approx(correct / n)
    assert top2.eval() == pytest.approx(top2_hits / n)
    np.testing.assert_allclose(prec.eval(), np.where(pp > 0, tp / np.maximum(pp, 1), 0.0))
    np.testing.assert_allclose(rec.eval(), np.where(ap > 0, tp / np.maximum(ap, 1), 0.0))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1, width=32), st.integers(0, 1)), min_size=2, max_size=40))
def test_roc_auc_equals_pairwise_ranking(points):
    scores = np.array([p[0] for p in points], np.float32)
    labels = np.array([p[1] for p in points], np.int32)
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return
    fpr, tpr, _ = ROC(pos_label=1)(ms.Tensor(scores), ms.Tensor(labels))
    # AUC = P(score_pos > score_neg) + 0.5 P(equal): the Mann-Whitney statistic
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    assert auc(fpr, tpr) == pytest.approx(wins / (len(pos) * len(neg)), abs=1e-9)
