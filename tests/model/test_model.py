"""Model: train / eval / predict / fit / build, GRAPH vs PYNATIVE, sink mode, datasets, errors, state handling."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl._engine import _runner as _engine_runner
from mindspore_hl.model import _loop
from mindspore_hl.model._runner import StepRunner
from mindspore_hl.train import Callback, LambdaCallback, LossMonitor, Model


def _params(net):
    return {n: p.asnumpy().copy() for n, p in net.parameters_and_names()}


def _losses():
    seen = []
    return seen, LambdaCallback(on_train_step_end=lambda rc: seen.append(
        (rc.original_args().cur_step_num, float(rc.original_args().net_outputs.asnumpy()))))


def _reference_train(net, batches, epochs, lr=0.1, momentum=0.9):
    """An independent NumPy implementation of the same training (Dense-ReLU-Dense, softmax CE, Momentum)."""
    w1, b1 = net.fc1.weight.asnumpy().astype(np.float64), net.fc1.bias.asnumpy().astype(np.float64)
    w2, b2 = net.fc2.weight.asnumpy().astype(np.float64), net.fc2.bias.asnumpy().astype(np.float64)
    params = [w1, b1, w2, b2]
    moments = [np.zeros_like(p) for p in params]
    for _ in range(epochs):
        for x, y in batches:
            x = x.astype(np.float64)
            h = x @ w1.T + b1
            a = np.maximum(h, 0)
            z = a @ w2.T + b2
            p = np.exp(z - z.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            dz = p.copy()
            dz[np.arange(len(y)), y] -= 1
            dz /= len(y)
            gw2, gb2 = dz.T @ a, dz.sum(0)
            dh = (dz @ w2) * (h > 0)
            gw1, gb1 = dh.T @ x, dh.sum(0)
            for i, g in enumerate((gw1, gb1, gw2, gb2)):
                moments[i] = momentum * moments[i] + g
                params[i] -= lr * moments[i]
    return params


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_train_matches_numpy_reference(model_factory, batches, mode):
    ms.set_context(mode=mode)
    model, net, _ = model_factory()
    expected = _reference_train(net, batches, epochs=2)
    model.train(2, batches)
    for got, want in zip((net.fc1.weight, net.fc1.bias, net.fc2.weight, net.fc2.bias), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-4, atol=2e-5)


def test_sink_mode_same_result_and_callbacks_per_sink(model_factory, batches, capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(3)
    model, net, _ = model_factory()
    ms.set_seed(3)
    model2, net2, _ = model_factory()
    model.train(3, batches)
    seen, rec = _losses()
    model2.train(3, batches, callbacks=[rec, LossMonitor()], dataset_sink_mode=True)
    a, b = _params(net), _params(net2)
    for name in a:
        np.testing.assert_allclose(a[name], b[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert [s for s, _ in seen] == [6, 12, 18]  # one step_end per sink (= epoch), global step advanced by 6
    lines = [l for l in capsys.readouterr().out.splitlines() if l.startswith("epoch")]
    assert [l.split(",")[0] for l in lines] == ["epoch: 1 step: 6", "epoch: 2 step: 6", "epoch: 3 step: 6"]


def test_sink_size_continues_the_data(model_factory, batches):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    seen_batches = []

    class Watch(Callback):
        def on_train_step_end(self, rc):
            cb = rc.original_args()
            seen_batches.append((cb.batch_num, cb.cur_step_num, cb.train_dataset_element[1].asnumpy().copy()))

    model.train(4, batches, callbacks=Watch(), dataset_sink_mode=True, sink_size=4)
    assert [(b, s) for b, s, _ in seen_batches] == [(4, 4), (4, 8), (4, 12), (4, 16)]
    # epochs of 4 steps walk through the 6 batches continuously: last batches seen are 4, 2, 6, 4 (1-based)
    for (_, _, labels), k in zip(seen_batches, (3, 1, 5, 3)):
        np.testing.assert_array_equal(labels, batches[k][1])


def test_eval_predict_and_metric_names(model_factory, batches):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, _ = model_factory(metrics={"acc", "loss", "top_1_accuracy"})
    model.train(2, batches)
    result = model.eval(batches)
    assert set(result) == {"acc", "loss", "top_1_accuracy"}
    x = np.concatenate([b[0] for b in batches])
    y = np.concatenate([b[1] for b in batches])
    logits = model.predict(ms.Tensor(x))
    assert isinstance(logits, ms.Tensor)
    np.testing.assert_allclose(logits.asnumpy(), net(ms.Tensor(x)).asnumpy(), rtol=1e-6)
    assert result["acc"] == pytest.approx(float((logits.asnumpy().argmax(1) == y).mean()))
    assert result["top_1_accuracy"] == pytest.approx(result["acc"])
    z = logits.asnumpy().astype(np.float64)
    ce = np.log(np.exp(z - z.max(1, keepdims=True)).sum(1)) + z.max(1) - z[np.arange(len(y)), y]
    assert result["loss"] == pytest.approx(ce.reshape(len(batches), -1).mean(1).mean(), rel=1e-5)
    assert model.eval(batches, dataset_sink_mode=True) == result


def test_fit_prints_eval_result_and_sets_eval_results(model_factory, batches, capsys):
    model, _, _ = model_factory(metrics={"accuracy"})
    seen = {}

    class Watch(Callback):
        def on_train_epoch_end(self, rc):
            cb = rc.original_args()
            if "eval_results" in cb:
                seen[cb.cur_epoch_num] = dict(cb.eval_results)

        def on_eval_step_end(self, rc):
            seen.setdefault("eval_steps", 0)
            seen["eval_steps"] += 1

    model.fit(2, batches, batches[:2], valid_frequency=[2], callbacks=[Watch(), LossMonitor(6)])
    out = capsys.readouterr().out
    assert "Eval result: epoch 1" not in out
    line = [l for l in out.splitlines() if l.startswith("Eval result")]
    assert len(line) == 1 and line[0].startswith("Eval result: epoch 2, metrics: {'accuracy': ")
    assert set(seen[2]) == {"accuracy", "eval_loss"} and seen["eval_steps"] == 2 and 1 not in seen
    assert sum(l.startswith("epoch:") for l in out.splitlines()) == 2  # LossMonitor is not run in eval


def test_initial_epoch(model_factory, batches):
    model, _, _ = model_factory()
    epochs = []
    model.train(3, batches, callbacks=LambdaCallback(on_train_epoch_end=lambda rc: epochs.append(
        (rc.original_args().cur_epoch_num, rc.original_args().epoch_num))), initial_epoch=1)
    assert epochs == [(2, 2), (3, 2)]


def test_datasets_from_the_dataset_package(model_factory, batches):
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.concatenate([b[0] for b in batches])
    y = np.concatenate([b[1] for b in batches])
    ds = ms.dataset.NumpySlicesDataset({"data": x, "label": y}, shuffle=False).batch(16)
    model, net, _ = model_factory(metrics={"acc"})
    ref_model, ref_net, _ = model_factory()
    for p, q in zip(ref_net.get_parameters(), net.get_parameters()):
        p.set_data(q.asnumpy())
    model.train(2, ds)
    ref_model.train(2, batches)
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), ref_net.fc1.weight.asnumpy())
    assert 0 <= model.eval(ms.dataset.NumpySlicesDataset({"data": x, "label": y}, shuffle=False).batch(32))["acc"] <= 1


def test_network_without_loss_fn(batches):
    net = nn.Dense(8, 3)
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    before = net.weight.asnumpy().copy()
    Model(loss_net, optimizer=opt).train(1, batches)
    assert not np.array_equal(before, net.weight.asnumpy())
    step_net = nn.TrainOneStepCell(loss_net, opt)
    after_one = net.weight.asnumpy().copy()
    Model(step_net).train(1, batches)
    assert not np.array_equal(after_one, net.weight.asnumpy())


def test_argument_errors(model_factory, batches):
    net = nn.Dense(8, 3)
    with pytest.raises(ValueError, match="Auto mixed precision will not work because 'optimizer' is None"):
        Model(net, nn.SoftmaxCrossEntropyWithLogits(), amp_level="O2")
    with pytest.raises(ValueError, match="kwargs"):
        Model(net, foo=1)
    with pytest.raises(ValueError, match="eval_network"):
        Model(net, metrics={"acc"})
    with pytest.raises(TypeError, match="Cell"):
        Model(lambda x: x)
    model, _, _ = model_factory()
    with pytest.raises(ValueError, match="'epoch' must bigger than parameter 'initial_epoch'"):
        model.train(2, batches, initial_epoch=2)
    with pytest.raises(ValueError, match="sink_size"):
        model.train(1, batches, dataset_sink_mode=True, sink_size=0)
    with pytest.raises(ValueError, match="metrics"):
        model.eval(batches)
    with pytest.raises(TypeError, match="one-shot iterator"):
        model.train(1, iter(batches))
    with pytest.raises(ValueError, match="no valid data"):
        model.train(1, [])
    ds = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 8), np.float32), "y": np.zeros(4, np.int32)}).batch(2)
    model.train(1, ds)
    other, _, _ = model_factory()
    with pytest.raises(RuntimeError, match="The dataset object had been used in other model"):
        other.train(1, ds)


def test_no_parameter_writes_in_the_step_loop(model_factory, batches, monkeypatch):
    """With no callback that needs them, Parameters are written back once per epoch, not per step."""
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    pushes = []
    original = StepRunner.push

    def counting(self):
        pushes.append(self.state is not None)
        original(self)

    monkeypatch.setattr(StepRunner, "push", counting)
    model.train(3, batches * 5)  # 30 steps per epoch
    assert sum(pushes) == 3


class _RecordedBatches:
    """A re-iterable list of batches that logs each batch it hands out."""

    def __init__(self, batches, log):
        self.batches, self.log = batches, log

    def __len__(self):
        return len(self.batches)

    def __iter__(self):
        for i, b in enumerate(self.batches):
            self.log.append(("drawn", i))
            yield b


def _log_steps(monkeypatch):
    """A list that each compiled step call appends ("step", whether it was given device arrays only) to."""
    log, original = [], StepRunner.step

    def logged(self, columns):
        log.append(("step", all(isinstance(c, jax.Array) for c in columns)))
        return original(self, columns)

    monkeypatch.setattr(StepRunner, "step", logged)
    return log


def _drawn_and_run(n, ahead, placed):
    """The log of an epoch of ``n`` batches: ``ahead``, each batch is drawn before the step ahead of it runs;
    ``placed``, every step is given device arrays."""
    step = ("step", placed)
    if ahead:
        return [("drawn", 0)] + [e for i in range(1, n) for e in (("drawn", i), step)] + [step]
    return [e for i in range(n) for e in (("drawn", i), step)]


@pytest.mark.parametrize("how", ["direct", "callback", "sink"])
def test_off_the_cpu_each_batch_is_placed_while_the_step_before_it_runs(model_factory, batches, monkeypatch, how):
    """On an accelerator each batch is drawn and copied to the device before the step ahead of it has run, so the
    copy overlaps that step; in sink mode too where batches are too large to stack. The training is unchanged,
    callbacks see the step's own batch, and parallel modes (which place shards themselves) take NumPy batches."""
    monkeypatch.setattr(_loop, "default_platform", lambda: "gpu")  # (the CPU takes NumPy columns directly)
    monkeypatch.setattr(_engine_runner, "_SINK_BYTES", 1)  # a sink of one batch per call, as large batches make
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, _ = model_factory()
    expected = _reference_train(net, batches, epochs=2)
    log, seen = _log_steps(monkeypatch), []
    callbacks = [LambdaCallback(on_train_step_begin=lambda rc: seen.append(
        rc.original_args().train_dataset_element[0].asnumpy()))] if how == "callback" else None
    model.train(2, _RecordedBatches(batches, log), callbacks=callbacks, dataset_sink_mode=how == "sink")
    # (before the steps Model reads the first batch for its batch size)
    assert log[-2 * len(batches) * 2:] == _drawn_and_run(len(batches), ahead=True, placed=True) * 2
    if how == "callback":
        assert len(seen) == 2 * len(batches)
        for got, (x, _) in zip(seen, batches * 2):
            np.testing.assert_array_equal(got, x)
    for got, want in zip((net.fc1.weight, net.fc1.bias, net.fc2.weight, net.fc2.bias), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-4, atol=2e-5)

    monkeypatch.setattr(_loop, "is_parallel", lambda: True)
    log.clear()
    model.train(1, _RecordedBatches(batches, log), callbacks=callbacks, dataset_sink_mode=how == "sink")
    # (the sink holds a chunk, here of one batch, until the next batch is drawn; a callback's Tensors are on
    # the device)
    assert log[-2 * len(batches):] == _drawn_and_run(len(batches), ahead=how == "sink", placed=how == "callback")


def test_off_the_cpu_eval_places_each_batch_while_the_step_before_it_runs(model_factory, batches, monkeypatch):
    monkeypatch.setattr(_loop, "default_platform", lambda: "gpu")
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory(metrics={"acc", "loss"})
    want = model.eval(batches)
    log = _log_steps(monkeypatch)
    assert model.eval(_RecordedBatches(batches, log)) == want
    assert log[-2 * len(batches):] == _drawn_and_run(len(batches), ahead=True, placed=True)


def test_build_compiles_ahead(model_factory, batches):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory(metrics={"acc"})
    model.build(batches, batches, sink_mode=False)
    runner = model._train_runner()
    assert any(type(e.jitted).__name__ == "Compiled" for e in runner._cache.values())
    model.train(1, batches)
    assert len(runner._cache) == 1


class _Branchy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 3)

    def construct(self, x):
        if x.sum() > 0:  # graph control flow in GRAPH_MODE (static-graph syntax)
            return self.fc(x)
        return self.fc(-x)


def _train_branchy(mode, batches):
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = _Branchy()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, batches)
    return net.fc.weight.asnumpy()


def test_tensor_control_flow_trains_in_graph_mode_as_in_pynative(batches):
    np.testing.assert_allclose(_train_branchy(ms.GRAPH_MODE, batches), _train_branchy(ms.PYNATIVE_MODE, batches),
                               rtol=1e-5, atol=1e-6)


_helper_calls = 0


def _branch_in_unconvertible_helper(x):
    global _helper_calls  # a global statement keeps the static-graph syntax from converting this helper
    _helper_calls += 1
    if x.sum() > 0:
        return x
    return -x


def test_graph_mode_error_names_the_line(batches):
    ms.set_context(mode=ms.GRAPH_MODE)

    class Bad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(8, 3)

        def construct(self, x):
            return self.fc(_branch_in_unconvertible_helper(x))

    net = Bad()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    with pytest.raises(TypeError, match="if x.sum"):
        model.train(1, batches)


def test_a_failing_step_keeps_the_trained_state(model_factory, batches):
    """A batch that cannot be compiled raises, and the weights trained so far stay usable."""
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, _ = model_factory(metrics={"acc"})
    data = batches[:3] + [(np.ones((16, 5), np.float32), batches[0][1])]  # wrong feature size
    with pytest.raises(Exception, match="5"):
        model.train(1, data)
    trained = net.fc1.weight.asnumpy()  # readable: not a donated (deleted) buffer
    model.train(1, batches[:3])
    assert not np.array_equal(trained, net.fc1.weight.asnumpy())


def test_builtin_step_callbacks_do_not_force_parameter_writes(model_factory, batches, monkeypatch, capsys):
    from mindspore_hl.callbacks import TerminateOnNaN
    from mindspore_hl.train import History, TimeMonitor
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    pushes = []
    original = StepRunner.push
    monkeypatch.setattr(StepRunner, "push", lambda self: (pushes.append(self.state is not None), original(self)))
    model.train(2, batches * 5, callbacks=[LossMonitor(), TimeMonitor(), History(), TerminateOnNaN()])
    assert sum(pushes) == 2  # once per epoch; LossMonitor reads only the loss

    class UserCallback(Callback):
        def on_train_step_end(self, rc):
            pass

    pushes.clear()
    model.train(1, batches, callbacks=[UserCallback()])
    assert sum(pushes) == len(batches)  # a user step hook may read Parameters directly
