"""TrainFaultTolerance: the checkpoint saved when training fails.

Real MindSpore runs this callback only with MindIO on Ascend (on CPU it refuses, see
tools/oracle/record_fault_tolerance.py), so the saved state is checked against a second run that stops cleanly
after the same steps, and the layout against MindSpore's ``_save_checkpoint_on_failure`` / ``_rename_save_result``.
"""
import os

import numpy as np
import pytest

import mindspore_hl as ms
import mindspore_hl.dataset as ds
from mindspore_hl import nn
from mindspore_hl.callbacks import Callback
from mindspore_hl.callbacks._fault_tolerance import TrainFaultTolerance
from mindspore_hl.model import Model
from tests.oracle import load_cases

RNG = np.random.default_rng(0)
X = RNG.random((12, 6)).astype(np.float32)
Y = RNG.integers(0, 3, (12,)).astype(np.int32)
W0 = RNG.standard_normal((3, 6)).astype(np.float32)


class FailAt(Callback):
    """Raises before the given (1-based, global) step runs."""

    def __init__(self, step):
        self.step = step

    def on_train_step_begin(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise RuntimeError(f"device lost at step {self.step}")


def _model(x=X, y=Y):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(6, 3, weight_init=ms.Tensor(W0), bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    return model, net, ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


def test_failure_saves_last_completed_step(tmp_path):
    model, net, data = _model()
    tft = TrainFaultTolerance(ckpt_save_path=str(tmp_path), initial_step=10)
    with pytest.raises(RuntimeError, match="device lost at step 5"):
        model.train(2, data, callbacks=[tft, FailAt(5)])   # 3 batches per epoch: fails in epoch 2, step 2
    assert os.listdir(tmp_path) == ["ttp_saved_checkpoints-step_14"]   # step 4 done (+ initial_step 10)
    path = tmp_path / "ttp_saved_checkpoints-step_14" / "rank_0" / "ttp_rank_0-2_1.ckpt"
    saved = ms.load_checkpoint(str(path))
    assert {k: saved[k].asnumpy().item() for k in ("__exception_save__", "epoch_num", "step_num", "cur_rank",
                                                   "batch_num")} == {"__exception_save__": True, "epoch_num": 2,
                                                                     "step_num": 4, "cur_rank": 0, "batch_num": 3}
    assert int(saved["global_step"].asnumpy().reshape(-1)[0]) == 4
    # the same 4 steps without a failure: batches 1, 2, 3 then 1 again
    ref_model, ref_net, ref_data = _model(np.concatenate([X, X[:4]]), np.concatenate([Y, Y[:4]]))
    ref_model.train(1, ref_data)
    for name, p in ref_net.parameters_and_names():
        np.testing.assert_allclose(saved[name].asnumpy(), p.asnumpy(), rtol=1e-6, atol=1e-7, err_msg=name)
    opt_state = [k for k in saved if k.startswith("moments")]
    assert opt_state, sorted(saved)   # the optimizer's state is saved too, so training can resume from it
    # and the failed run's network holds that state as well
    np.testing.assert_array_equal(net.weight.asnumpy(), saved["weight"].asnumpy())


def test_ckpt_save_fn_is_preferred(tmp_path):
    seen = []
    model, _, data = _model()
    tft = TrainFaultTolerance(ckpt_save_path=str(tmp_path),
                              ckpt_save_fn=lambda cb, extra: seen.append((cb.cur_step_num, dict(extra))))
    with pytest.raises(RuntimeError):
        model.train(1, data, callbacks=[tft, FailAt(3)])
    assert seen == [(2, {"__exception_save__": True})] and os.listdir(tmp_path) == []


def test_nothing_saved_without_failure_or_before_a_step(tmp_path):
    model, _, data = _model()
    model.train(1, data, callbacks=[TrainFaultTolerance(ckpt_save_path=str(tmp_path))])
    with pytest.raises(RuntimeError):
        model.train(1, data, callbacks=[TrainFaultTolerance(ckpt_save_path=str(tmp_path)), FailAt(1)])
    assert os.listdir(tmp_path) == []


def test_arguments(monkeypatch):
    case = load_cases("fault_tolerance.npz")["TrainFaultTolerance/no_save_target"]
    with pytest.raises(ValueError) as e:
        TrainFaultTolerance()
    assert str(e.value) == case.meta["message"]
    monkeypatch.setenv("MS_ENABLE_TFT", "{TRE:1}")
    with pytest.raises(ValueError, match="TRE / TSP / ATO"):
        TrainFaultTolerance(ckpt_save_path="x")
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1,UCE:1}")
    assert TrainFaultTolerance(ckpt_save_path="x").ckpt_save_path == "x"
    assert TrainFaultTolerance.get_optimizer_wrapper(nn.Momentum) is nn.Momentum
