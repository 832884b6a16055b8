"""The Model workflow of the MindSpore tutorials (reference §1b) on real MNIST with the ModelZoo LeNet5.

Fast: 1280 training images (lr 0.05: with lr 0.01 LeNet5 leaves its initial plateau only after ~180 steps). Slow (``-m slow``): the full data set -- >= 98.5 % test accuracy within 3 epochs,
and float16 with dynamic loss scaling in the same accuracy band as float32.
"""
import os
import re

import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import (Accuracy, CheckpointConfig, DynamicLossScaleManager, LossMonitor, Model,
                                ModelCheckpoint, TimeMonitor, load_checkpoint)
from model_zoo.lenet.src import LeNet5, create_dataset


def _data(datasets_dir, n_train=None, n_test=None):
    mnist = datasets_dir / "mnist"
    return (create_dataset(mnist, 32, usage="train", num_samples=n_train),
            create_dataset(mnist, 32, usage="test", shuffle=False, num_samples=n_test))


def _workflow(ds_train, ds_eval, ckpt_dir, epochs, amp_kwargs=None, lr=0.01):
    """§1b, as a user writes it."""
    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = LeNet5(10)
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    steps = ds_train.get_dataset_size()
    config_ck = CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=10)
    ckpoint = ModelCheckpoint(prefix="checkpoint_lenet", directory=str(ckpt_dir), config=config_ck)
    model = Model(net, loss_fn=net_loss, optimizer=net_opt, metrics={"accuracy"}, **(amp_kwargs or {}))
    accs = []
    for epoch in range(1, epochs + 1):
        model.train(epoch, ds_train, callbacks=[TimeMonitor(data_size=steps), ckpoint, LossMonitor(steps // 2)],
                    dataset_sink_mode=True, initial_epoch=epoch - 1)
        accs.append(model.eval(ds_eval)["accuracy"])
    return model, net, accs


def test_workflow_on_a_few_hundred_images(datasets_dir, tmp_path, capsys):
    ds_train, ds_eval = _data(datasets_dir, 1280, 320)
    model, net, accs = _workflow(ds_train, ds_eval, tmp_path, epochs=4, lr=0.05)
    out = capsys.readouterr().out
    loss_lines = re.findall(r"^epoch: (\d) step: (\d+), loss is ([\d.e-]+)$", out, re.M)
    # sink mode: the step hooks fire once per epoch (40 steps), so LossMonitor prints step 40
    assert [(e, s) for e, s, _ in loss_lines] == [(str(e), "40") for e in (1, 2, 3, 4)]
    assert float(loss_lines[-1][2]) < float(loss_lines[0][2]) < 2.5
    assert len(re.findall(r"^Train epoch time: [\d.]+ ms, per step time: [\d.]+ ms$", out, re.M)) == 4
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".ckpt")) == \
        [f"checkpoint_lenet-{e}_40.ckpt" for e in (1, 2, 3, 4)]
    saved = load_checkpoint(str(tmp_path / "checkpoint_lenet-4_40.ckpt"))
    assert int(saved["global_step"].asnumpy()[0]) == 160 and "moments.fc3.weight" in saved
    assert accs[-1] > 0.7, accs  # 160 steps of batch 32 from random weights
    logits = model.predict(ms.Tensor(next(ds_eval.create_tuple_iterator(output_numpy=True))[0]))
    assert logits.shape == (32, 10)


def test_float16_dynamic_loss_scale_few_images(datasets_dir, tmp_path):
    ds_train, ds_eval = _data(datasets_dir, 1280, 320)
    model, net, accs = _workflow(ds_train, ds_eval, tmp_path, epochs=4, lr=0.05,
                                 amp_kwargs={"amp_level": "O2", "loss_scale_manager":
                                             DynamicLossScaleManager(init_loss_scale=2 ** 12, scale_window=50)})
    assert isinstance(model.train_network, nn.TrainOneStepWithLossScaleCell)
    assert net.conv1.weight.dtype == ms.float32
    assert accs[-1] > 0.7, accs


@pytest.mark.slow
def test_lenet5_reaches_98_5_percent_in_3_epochs(datasets_dir, tmp_path):
    ds_train, ds_eval = _data(datasets_dir)
    _, _, accs = _workflow(ds_train, ds_eval, tmp_path, epochs=3)
    assert max(accs) >= 0.985, accs


@pytest.mark.slow
def test_lenet5_float16_matches_float32_band(datasets_dir, tmp_path):
    ds_train, ds_eval = _data(datasets_dir)
    _, _, accs32 = _workflow(ds_train, ds_eval, tmp_path / "fp32", epochs=3)
    ds_train, ds_eval = _data(datasets_dir)
    _, _, accs16 = _workflow(ds_train, ds_eval, tmp_path / "fp16", epochs=3,
                             amp_kwargs={"amp_level": "O2", "loss_scale_manager": DynamicLossScaleManager()})
    assert accs16[-1] >= 0.98 and abs(accs16[-1] - accs32[-1]) <= 0.005, (accs16, accs32)
