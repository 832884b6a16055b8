"""Callbacks: hook order and legacy mapping, cb_params, the console formats, History / EarlyStopping /
TerminateOnNaN / LR callbacks / ProgressBar."""
import io
import re

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.callbacks import ProgressBar, TerminateOnNaN
from mindspore_hl.common.tensor import Tensor
from mindspore_hl.train import (
    Callback,
    EarlyStopping,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    ReduceLROnPlateau,
    RunContext,
    TimeMonitor,
)


class Recorder(Callback):
    """Records hook names (new-style overrides only) and a snapshot of cb_params at each step end."""

    def __init__(self):
        self.calls, self.steps = [], []

    def on_train_begin(self, rc):
        self.calls.append("train_begin")

    def on_train_epoch_begin(self, rc):
        self.calls.append("epoch_begin")

    def on_train_step_begin(self, rc):
        self.calls.append("step_begin")

    def on_train_step_end(self, rc):
        cb = rc.original_args()
        self.calls.append("step_end")
        self.steps.append((cb.cur_epoch_num, cb.cur_step_num, float(cb.net_outputs.asnumpy())))

    def on_train_epoch_end(self, rc):
        self.calls.append("epoch_end")

    def on_train_end(self, rc):
        self.calls.append("train_end")


class Legacy(Callback):
    """Overrides only the legacy hooks: MindSpore calls them for both train and eval stages."""

    def __init__(self):
        self.calls = []

    def begin(self, rc):
        self.calls.append(("begin", rc.original_args().mode))

    def step_end(self, rc):
        self.calls.append(("step_end", rc.original_args().mode))

    def end(self, rc):
        self.calls.append(("end", rc.original_args().mode))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_hook_order_and_global_step(model_factory, batch_factory, mode):
    ms.set_context(mode=mode)
    model, _, _ = model_factory()
    rec = Recorder()
    model.train(2, batch_factory(n_batches=3), callbacks=[rec])
    epoch = ["epoch_begin"] + ["step_begin", "step_end"] * 3 + ["epoch_end"]
    assert rec.calls == ["train_begin"] + epoch * 2 + ["train_end"]
    assert [(e, s) for e, s, _ in rec.steps] == [(1, 1), (1, 2), (1, 3), (2, 4), (2, 5), (2, 6)]


def test_legacy_hooks_run_in_train_and_eval(model_factory, batches):
    model, _, _ = model_factory(metrics={"acc"})
    leg = Legacy()
    model.train(1, batches[:2], callbacks=leg)
    model.eval(batches[:2], callbacks=[leg])
    assert leg.calls == [("begin", "train"), ("step_end", "train"), ("step_end", "train"), ("end", "train"),
                         ("begin", "eval"), ("step_end", "eval"), ("step_end", "eval"), ("end", "eval")]


def test_cb_params_fields(model_factory, batches):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, opt = model_factory()
    seen = {}

    class Check(Callback):
        def on_train_step_end(self, rc):
            cb = rc.original_args()
            seen.update(dict(cb))
            seen["attr_is_key"] = cb.cur_step_num == cb["cur_step_num"]

    cbs = [Check()]
    model.train(2, batches, callbacks=cbs)
    expected = {"batch_num", "cur_epoch_num", "cur_step_num", "dataset_sink_mode", "device_number", "epoch_num",
                "initial_step", "last_save_ckpt_step", "latest_ckpt_file", "list_callback", "loss_fn",
                "loss_scale_mananger", "mode", "net_outputs", "network", "optimizer", "parallel_mode",
                "train_dataset", "train_dataset_element", "train_network"}
    assert expected <= set(seen)
    assert seen["attr_is_key"] and seen["mode"] == "train" and seen["dataset_sink_mode"] is False
    assert seen["batch_num"] == 6 and seen["epoch_num"] == 2 and seen["cur_epoch_num"] == 2
    assert seen["cur_step_num"] == 12 and seen["network"] is net and seen["optimizer"] is opt
    assert seen["train_network"] is model.train_network and seen["list_callback"] == cbs
    assert seen["parallel_mode"] == "stand_alone" and seen["device_number"] == 1
    assert isinstance(seen["net_outputs"], Tensor) and seen["net_outputs"].shape == ()
    assert all(isinstance(t, Tensor) for t in seen["train_dataset_element"])
    np.testing.assert_array_equal(seen["train_dataset_element"][1].asnumpy(), batches[-1][1])


def test_missing_cb_params_field_is_attribute_and_key_error():
    from mindspore_hl.callbacks import CallbackParam
    cb = CallbackParam(a=1)
    assert cb.a == 1 and not hasattr(cb, "b")
    with pytest.raises(KeyError):
        cb.b  # noqa: B018
    with pytest.raises(TypeError, match="dict"):
        RunContext([1])


def test_callbacks_see_current_parameters(model_factory, batches):
    """Through cb_params or directly, a callback reads the values after the step it is called for."""
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, _ = model_factory()
    via_cb, direct = [], []

    class Read(Callback):
        def on_train_step_end(self, rc):
            via_cb.append(rc.original_args().network.fc1.weight.asnumpy().copy())
            direct.append(net.fc2.bias.asnumpy().copy())  # a user callback may hold the net itself

    model.train(1, batches, callbacks=Read())
    assert len(via_cb) == 6 and all(not np.array_equal(a, b) for a, b in zip(via_cb, via_cb[1:]))
    np.testing.assert_array_equal(via_cb[-1], net.fc1.weight.asnumpy())
    np.testing.assert_array_equal(direct[-1], net.fc2.bias.asnumpy())


def test_loss_monitor_lines(model_factory, batches, capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    rec = Recorder()
    model.train(2, batches, callbacks=[rec, LossMonitor(per_print_times=2)])
    lines = [l for l in capsys.readouterr().out.splitlines() if l.startswith("epoch")]
    assert [re.match(r"^epoch: (\d+) step: (\d+), loss is (\S+)$", l).groups()[:2] for l in lines] == \
        [("1", "2"), ("1", "4"), ("1", "6"), ("2", "2"), ("2", "4"), ("2", "6")]
    printed = [float(l.rsplit(" ", 1)[1]) for l in lines]
    assert printed == [loss for _, step, loss in rec.steps if step % 2 == 0]
    with pytest.raises(ValueError):
        LossMonitor(-1)


def test_time_monitor_line(model_factory, batches, capsys):
    model, _, _ = model_factory()
    model.train(1, batches, callbacks=TimeMonitor())
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", out), out


class _Clock:
    """A stand-in for the monitors' ``time`` module: advanced by the callback below, never by real time."""

    def __init__(self):
        self.now = 1000.0

    def time(self):
        return self.now


class _ClockSteps(Callback):
    """Each training step takes 1 s on the clock, each evaluation step 10 s."""

    def __init__(self, clock):
        self.clock = clock

    def on_train_step_end(self, rc):
        self.clock.now += 1.0

    def on_eval_step_end(self, rc):
        self.clock.now += 10.0


def test_time_monitor_under_fit_times_training_and_evaluation_apart(model_factory, batches, capsys, monkeypatch):
    from mindspore_hl.callbacks import _monitors
    clock = _Clock()
    monkeypatch.setattr(_monitors, "time", clock)
    model, _, _ = model_factory(metrics={"acc"})
    model.fit(2, batches, batches[:2], callbacks=[_ClockSteps(clock), TimeMonitor(data_time=True)])
    lines = [l for l in capsys.readouterr().out.splitlines() if "epoch time" in l]
    # the evaluation runs inside the training epoch, before its end: its 20 s are its own line, not training's
    assert lines == ["Eval epoch time: 20000.000 ms, per step time: 10000.000 ms",
                     "Train epoch time: 6000.000 ms, per step time: 1000.000 ms (data time: 0.000 ms)"] * 2


def test_history(model_factory, batches):
    model, _, _ = model_factory()
    rec, hist = Recorder(), History()
    model.train(3, batches, callbacks=[rec, hist])
    assert hist.epoch == {"epoch": [1, 2, 3]}
    assert list(hist.history) == ["net_output"]
    last_losses = [loss for _, step, loss in rec.steps if step % 6 == 0]
    np.testing.assert_allclose(hist.history["net_output"], last_losses)


def test_early_stopping_prints_and_stops(model_factory, batches, capsys):
    model, _, _ = model_factory(metrics={"acc"}, lr=0.0)  # lr 0: eval_loss never improves after epoch 1
    hist = History()
    model.fit(5, batches, batches[:2], callbacks=[EarlyStopping(patience=1, verbose=True), hist])
    out = capsys.readouterr().out
    assert "Epoch 00002: early stopping" in out
    assert hist.epoch == {"epoch": [1, 2]}
    assert set(hist.history) == {"net_output", "acc"}


def test_early_stopping_restores_best_weights(model_factory, batches):
    model, net, opt = model_factory(metrics={"acc"}, lr=0.05)
    weights = []
    grow = LambdaCallback(on_train_epoch_end=lambda rc: (weights.append(net.fc1.weight.asnumpy().copy()),
                                                         opt.learning_rate.set_data(np.float32(5.0))))
    es = EarlyStopping(monitor="acc", patience=2, restore_best_weights=True, mode="max")
    model.fit(6, batches, batches, callbacks=[grow, es])
    assert es.stopped_epoch > 0
    assert any(np.array_equal(net.fc1.weight.asnumpy(), w) for w in weights)


def test_terminate_on_nan_names_the_step(model_factory, batch_factory, capsys):
    data = batch_factory(n_batches=5)
    data[2] = (np.full_like(data[2][0], np.nan), data[2][1])
    model, _, _ = model_factory()
    rec = Recorder()
    model.train(2, data, callbacks=[rec, TerminateOnNaN()])
    assert "epoch: 1 step: 3 (global step 3), loss is nan" in capsys.readouterr().out
    assert [s for _, s, _ in rec.steps] == [1, 2, 3]
    model2, _, _ = model_factory()
    with pytest.raises(ValueError, match="In epoch: 1 step: 3, loss is NAN or INF"):
        model2.train(1, data, callbacks=LossMonitor())


def test_request_stop_mid_epoch(model_factory, batches):
    model, _, _ = model_factory()
    rec = Recorder()
    stop = LambdaCallback(on_train_step_end=lambda rc: rc.request_stop()
                          if rc.original_args().cur_step_num == 2 else None)
    model.train(3, batches, callbacks=[rec, stop])
    assert [s for _, s, _ in rec.steps] == [1, 2] and rec.calls[-2:] == ["epoch_end", "train_end"]


def test_reduce_lr_on_plateau(model_factory, batches, capsys):
    model, _, opt = model_factory(metrics={"acc"}, lr=0.1)
    # accuracy can never improve by min_delta=2: after epoch 1 (the first best) the rate halves every epoch
    model.fit(3, batches, batches[:1], callbacks=[ReduceLROnPlateau(monitor="acc", patience=0, factor=0.5,
                                                                    min_delta=2.0, verbose=True)])
    out = capsys.readouterr().out
    assert "Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.05" in out
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.1 * 0.5 ** 2)


def test_learning_rate_scheduler_sets_each_step(model_factory, batches):
    model, _, opt = model_factory(lr=0.1)
    seen = []
    model.train(1, batches, callbacks=[
        LearningRateScheduler(lambda lr, step: 0.1 / (step + 1)),
        LambdaCallback(on_train_step_end=lambda rc: seen.append(float(rc.original_args().optimizer
                                                                      .learning_rate.asnumpy())))])
    np.testing.assert_allclose(seen, [0.1 / (s + 1) for s in range(1, 7)], rtol=1e-6)


def test_progress_bar(model_factory, batches):
    model, _, _ = model_factory()
    out = io.StringIO()
    model.train(2, batches, callbacks=ProgressBar(refresh_seconds=0, file=out))
    text = out.getvalue()
    assert "Epoch 1/2" in text and "Epoch 2/2" in text and "loss=" in text and "samples/s=" in text
    assert "6/6" in text


def test_callbacks_must_be_callbacks(model_factory, batches):
    model, _, _ = model_factory()
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, batches, callbacks=[object()])


def test_summary_lineage_records_the_configured_learning_rate(tmp_path, batches):
    """As MindSpore's SummaryCollector: the lineage's learning rate is the schedule's first rate (the run's
    configured one), not the rate of the last step, which the learning_rate/auto scalar already traces."""
    from training_fixtures import MLP

    from insight_app._store import LogStore
    from mindspore_hl import nn
    from mindspore_hl.train import Model, SummaryCollector

    net = MLP()
    lr = nn.cosine_decay_lr(0.001, 0.03, len(batches) * 2, len(batches), 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9))
    model.train(2, batches, callbacks=[SummaryCollector(str(tmp_path / "run"), collect_freq=1)])
    (run,) = LogStore(str(tmp_path)).runs.values()
    assert run.lineage["learning_rate"] == pytest.approx(0.03, rel=1e-6)
    assert lr[-1] < 0.02  # the last step's rate differs, so the assertion above can tell them apart
