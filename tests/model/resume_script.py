"""Train a small network with BackupAndRestore; with a kill step, SIGKILL itself there (used by test_resume)."""
import os
import signal
import sys

import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import BackupAndRestore, LambdaCallback, Model


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 32)
        self.relu = nn.ReLU()
        self.drop = nn.Dropout(p=0.3)
        self.fc2 = nn.Dense(32, 3)

    def construct(self, x):
        return self.fc2(self.drop(self.relu(self.fc1(x))))


def dataset():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(96, 8)).astype(np.float32)
    y = (x @ rng.normal(size=(8, 3))).argmax(1).astype(np.int32)
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(16)


def run(out, backup_dir, kill_at=0, epochs=4, mode=ms.GRAPH_MODE):
    ms.set_seed(7)
    ms.set_context(mode=mode)
    net = Net()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9))
    epochs_run = []
    cbs = [BackupAndRestore(backup_dir),
           LambdaCallback(on_train_epoch_begin=lambda rc: epochs_run.append(rc.original_args().cur_epoch_num))]
    if kill_at:
        cbs.append(LambdaCallback(on_train_step_end=lambda rc: os.kill(os.getpid(), signal.SIGKILL)
                                  if rc.original_args().cur_step_num == kill_at else None))
    model.train(epochs, dataset(), callbacks=cbs)
    np.savez(out, **{n: p.asnumpy() for n, p in net.parameters_and_names()})
    return epochs_run


if __name__ == "__main__":
    print("epochs run:", run(sys.argv[1], sys.argv[2], int(sys.argv[3])), flush=True)
