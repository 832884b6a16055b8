"""Train with ModelCheckpoint (or BackupAndRestore), resuming from what an earlier killed run left (used by
test_kill_resume).

    python kill_resume_script.py OUT.npz DIR MODE EPOCHS

MODE: ``ckpt1`` / ``ckpt2`` (ModelCheckpoint saving at every epoch end, keep_checkpoint_max 1 / 2; the run
resumes from the newest file with ``load_checkpoint`` + ``model.train(..., initial_epoch=e)``) or ``backup``
(BackupAndRestore). The dataset shuffles; the final parameters go to OUT.npz. Prints ``resumed from epoch e``.
"""
import os
import re
import sys

import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import (
    BackupAndRestore,
    CheckpointConfig,
    Model,
    ModelCheckpoint,
    load_checkpoint,
    load_param_into_net,
)

ROWS, BATCH = 96, 16  # 6 steps per epoch
_NAME = re.compile(r"^CKP(?:_\d+)?-(\d+)_(\d+)\.ckpt$")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        # wide enough that a checkpoint write (~0.6 MB with the momenta) takes a noticeable part of a step
        self.fc1 = nn.Dense(8, 256)
        self.fc2 = nn.Dense(256, 256)
        self.fc3 = nn.Dense(256, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def dataset():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(ROWS, 8)).astype(np.float32)
    y = (x @ rng.normal(size=(8, 3))).argmax(1).astype(np.int32)
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(BATCH)


def newest_checkpoint(directory):
    """(epoch, path) of the newest epoch-end checkpoint in ``directory``, or (0, None)."""
    best = (0, None)
    for name in os.listdir(directory):
        m = _NAME.match(name)
        if m and int(m.group(2)) == ROWS // BATCH and int(m.group(1)) > best[0]:
            best = (int(m.group(1)), os.path.join(directory, name))
    return best


def run(out, directory, mode, epochs):
    ms.set_seed(3)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    opt = nn.Momentum(net.trainable_params(), 0.02, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    os.makedirs(directory, exist_ok=True)
    initial_epoch = 0
    if mode == "backup":  # the backup is kept at the end: a kill after training must still find one
        callbacks = [BackupAndRestore(directory, delete_checkpoint=False)]
    else:
        initial_epoch, path = newest_checkpoint(directory)
        if path is not None:  # crc_check: a damaged file must fail here, never load a part
            not_loaded, _ = load_param_into_net(model.train_network, load_checkpoint(path, crc_check=True))
            assert not not_loaded, not_loaded
        config = CheckpointConfig(save_checkpoint_steps=ROWS // BATCH, keep_checkpoint_max=int(mode[-1]),
                                  crc_check=True)
        callbacks = [ModelCheckpoint(prefix="CKP", directory=directory, config=config)]
    print(f"resumed from epoch {initial_epoch}", flush=True)
    if initial_epoch < epochs:  # (a run killed after its last save left nothing to do)
        model.train(epochs, dataset(), callbacks=callbacks, initial_epoch=initial_epoch)
    if mode == "backup":
        print(f"backup restored epoch {callbacks[0].restored_epoch}", flush=True)
    np.savez(out, **{n: p.asnumpy() for n, p in net.parameters_and_names()})


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
