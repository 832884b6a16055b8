"""Wrong inputs get errors that name the Cell / columns and what was expected vs received; where real MindSpore
2.10 (CPU) accepts or rejects an input, mindspore_hl does the same (replayed from
tests/fixtures/oracle/input_errors.npz, recorded by tools/oracle/record_input_errors.py)."""
import re

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn
from mindspore_hl.train import Model
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

CASES = load_cases(FIXTURE_ROOT / "input_errors.npz")
LOSSES = {
    "SoftmaxCrossEntropyWithLogits-mean": lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
    "SoftmaxCrossEntropyWithLogits-none": lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="none"),
    "SoftmaxCrossEntropyWithLogits-sum": lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum"),
    "CrossEntropyLoss": nn.CrossEntropyLoss,
    "NLLLoss": nn.NLLLoss,
}


def _ids(prefix):
    return [k for k in CASES if k.startswith(prefix)]


# ---------------------------------------------------------------------------------------------------------------
# labels out of range
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case_id", _ids("loss/pynative/"))
def test_label_range_like_mindspore(case_id):
    """Where MindSpore raises (or crashes: NLLLoss with label 11 can segfault its CPU kernel) there is a
    ValueError naming the loss, the valid range and the label; where it returns, the same values."""
    case = CASES[case_id]
    _, _, loss_id, label_id = case_id.split("/")
    loss = LOSSES[loss_id]()
    logits, labels = Tensor(case.inputs["logits"]), Tensor(case.inputs["labels"])
    # MindSpore's sparse kernel checks label <= num_classes, so label == num_classes reads past the row and
    # returns an unspecified value; here it is an error like label > num_classes.
    raises = case.error is not None or (loss_id.endswith("-mean") and label_id == "eq_classes")
    if raises:
        cls = case.meta["cls"]
        bad = [v for v in case.inputs["labels"].tolist() if not 0 <= v < 10]
        with pytest.raises(ValueError, match=rf"For '{cls}', the labels must be class indices in \[-?\d+, 10\).*"
                                             rf"but got label {bad[0]} at index"):
            loss(logits, labels)
    else:
        assert_close(loss(logits, labels), case.outputs[0])


def test_graph_mode_label_error_when_the_step_runs():
    """Compiled, the labels are known only when the step runs: the same message comes out of the step."""
    ms.set_context(mode=ms.GRAPH_MODE)
    case = CASES["loss/graph/SoftmaxCrossEntropyWithLogits-mean/above"]
    assert case.error == "RuntimeError"  # MindSpore's GRAPH_MODE raises too
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    ok = Tensor(np.array([1, 2, 9, 0], np.int32))
    logits = Tensor(case.inputs["logits"])
    assert np.isfinite(loss(logits, ok).asnumpy())
    with pytest.raises(Exception, match=r"For 'SoftmaxCrossEntropyWithLogits', the labels must be class indices in "
                                        r"\[0, 10\), as the logits have 10 classes, but got label 11 at index 2"):
        np.asarray(loss(logits, Tensor(case.inputs["labels"])).asnumpy())


def test_model_train_stops_with_the_label_error_not_nan(model_factory, batch_factory):
    """The issue's case: LossMonitor used to stop with "loss is NAN or INF"."""
    from mindspore_hl.train import LossMonitor
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    batches = batch_factory()
    batches[3] = (batches[3][0], np.full_like(batches[3][1], 3))  # 3 classes: label 3 is out of range
    with pytest.raises(Exception, match=r"labels must be class indices in \[0, 3\), as the logits have 3 classes, "
                                        r"but got label 3 at index 0 \(16 of 16"):
        model.train(1, batches, callbacks=[LossMonitor()])


def test_labels_of_a_step_input_are_checked_before_the_step(model_factory, batch_factory):
    """Labels that enter the step as an input are checked on the host before the call: the bad batch changes no
    Parameter, training goes on with the next good one, and the executable has no host callback (so the
    persistent compile cache can store it)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, _ = model_factory()
    batches = batch_factory()
    model.train(1, batches[:1])
    runner = next(iter(model._runners.values()))
    entry = next(iter(runner._cache.values()))
    assert [pos for pos, _ in entry.input_checks] == [1]
    hlo = entry.lower(tuple(p._value for p in runner.params), runner.rng, list(batches[0])).as_text()
    assert "callback" not in hlo
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    with pytest.raises(ValueError, match=r"but got label -1 at index 0"):
        model.train(1, [(batches[1][0], np.full_like(batches[1][1], -1))])
    assert all(np.array_equal(b, p.asnumpy()) for b, p in zip(before, net.trainable_params()))
    model.train(1, batches[1:2])
    assert not all(np.array_equal(b, p.asnumpy()) for b, p in zip(before, net.trainable_params()))


# ---------------------------------------------------------------------------------------------------------------
# optimizers
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case_id", _ids("optim/"))
def test_optimizer_arguments_like_mindspore(case_id):
    case = CASES[case_id]
    _, name, arg, value_id = case_id.split("/")
    value = {"nan": float("nan"), "inf": float("inf"), "neg": -0.1, "zero": 0.0, "big": 1.5}[value_id]
    net = nn.Dense(3, 2)
    kwargs = {"learning_rate": 0.1, **({"momentum": 0.9} if name == "Momentum" else {}), arg: value}
    if case.error is None:
        getattr(nn, name)(net.trainable_params(), **kwargs)
        return
    assert case.error == "ValueError"
    if value_id in ("nan", "inf"):  # MindSpore's own words
        expected = case.meta["message"]
    else:
        expected = f"For '{name}', '{arg}' must be "
    with pytest.raises(ValueError, match=re.escape(expected)):
        getattr(nn, name)(net.trainable_params(), **kwargs)


def test_momentum_nan_learning_rate_message():
    net = nn.Dense(3, 2)
    with pytest.raises(ValueError, match=r"For 'Momentum', the 'learning rate' must be a legal value, but got 'nan'"):
        nn.Momentum(net.trainable_params(), learning_rate=float("nan"), momentum=0.9)
    with pytest.raises(ValueError, match=r"For 'Momentum', every 'learning_rate' value must be a finite number >= 0, "
                                         r"but value 1 of 3 is nan"):
        nn.Momentum(net.trainable_params(), learning_rate=[0.1, float("nan"), 0.1], momentum=0.9)


# ---------------------------------------------------------------------------------------------------------------
# Conv2d kernel larger than its input
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case_id", _ids("conv/"))
def test_conv_kernel_larger_than_input_like_mindspore(case_id):
    case = CASES[case_id]
    ms.set_context(mode=ms.GRAPH_MODE if "/graph/" in case_id else ms.PYNATIVE_MODE)
    conv = nn.Conv2d(1, 2, 5, **case.kwargs)
    x = Tensor(case.inputs["x"])
    if case.error is None:
        assert tuple(conv(x).shape) == tuple(case.outputs[0].tolist())
        return
    assert case.error == "ValueError"
    hw = case.inputs["x"].shape[2]
    with pytest.raises(ValueError, match=rf"Conv2d: the kernel \(5, 5\) is larger than the input's spatial size "
                                         rf"\({hw}, {hw}\).*pad_mode='{case.kwargs['pad_mode']}', for input of shape "
                                         rf"\(1, 1, {hw}, {hw}\)"):
        conv(x)


# ---------------------------------------------------------------------------------------------------------------
# dataset columns vs the network's inputs
# ---------------------------------------------------------------------------------------------------------------
def _three_columns(batches):
    return [(x, y, np.ones(len(y), np.float32)) for x, y in batches]


def test_three_columns_with_loss_fn(model_factory, batch_factory):
    model, _, _ = model_factory()
    with pytest.raises(ValueError, match=r"For 'Model.train', the train_dataset gives 3 columns per batch, but with "
                                         r"'loss_fn' set the network is called as WithLossCell\(network, loss_fn\)"
                                         r"\(data, label\), which takes 2: the first column would go to MLP.construct "
                                         r"and the second column to SoftmaxCrossEntropyWithLogits.*should return two "
                                         r"elements \(data, label\), but got 3"):
        model.train(1, _three_columns(batch_factory()))


def test_three_named_columns_with_loss_fn(model_factory, batch_factory):
    x = np.concatenate([b[0] for b in batch_factory()])
    y = np.concatenate([b[1] for b in batch_factory()])
    ds = ms.dataset.NumpySlicesDataset({"image": x, "label": y, "weight": np.ones(len(y), np.float32)},
                                       shuffle=False).batch(16)
    model, _, _ = model_factory()
    with pytest.raises(ValueError, match=r"the train_dataset gives 3 columns \['image', 'label', 'weight'\] per "
                                         r"batch.*'image' would go to MLP.construct"):
        model.train(1, ds)
    model2, _, _ = model_factory(metrics={"accuracy"})
    with pytest.raises(ValueError, match=r"For 'Model.eval', the valid_dataset gives 3 columns \['image', 'label', "
                                         r"'weight'\] per batch, but with 'loss_fn' set the network is called as "
                                         r"WithEvalCell"):
        model2.eval(ds)


class _TwoInputLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 3)
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, y):
        return self.loss(self.fc(x), y)


def test_columns_without_loss_fn_name_construct(batch_factory):
    net = _TwoInputLoss()
    model = Model(net, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    with pytest.raises(ValueError, match=r"For 'Model.train', the train_dataset gives 3 columns per batch, but "
                                         r"_TwoInputLoss.construct\(x, y\) takes 2 inputs"):
        model.train(1, _three_columns(batch_factory()))
    model.train(1, batch_factory())  # two columns fit


# ---------------------------------------------------------------------------------------------------------------
# NumPy inputs: MindSpore passes them to construct unconverted in both modes; ops that need a Tensor reject them
# ---------------------------------------------------------------------------------------------------------------
def _numpy_case(case_id):
    case = CASES[case_id]
    cell = {"Dense": lambda: nn.Dense(3, 2), "ReLU": nn.ReLU, "Twice": _Twice}[case_id.rsplit("/", 1)[1]]()
    x = case.inputs["x"]
    if case.error is not None:
        assert case.error == "TypeError"
        with pytest.raises(TypeError, match=rf"{type(cell).__name__}: expected a Tensor input, but got ndarray"):
            cell(x)
        return
    out = cell(x)
    assert type(out).__name__ == str(case.outputs[1]) == "ndarray"
    np.testing.assert_array_equal(out, case.outputs[0])


class _Twice(nn.Cell):
    def construct(self, x):
        return x * 2


@pytest.mark.parametrize("case_id", _ids("numpy_input/pynative/"))
def test_numpy_input_pynative_like_mindspore(case_id):
    _numpy_case(case_id)


@pytest.mark.parametrize("case_id", _ids("numpy_input/graph/"))
def test_numpy_input_graph_like_mindspore(case_id):
    ms.set_context(mode=ms.GRAPH_MODE)
    _numpy_case(case_id)
