"""A data-parallel LeNet5 training script (ModelZoo style), run by the tests under ``mindspore-hl-run -n 2``.

Usage: dp_lenet_script.py OUT_DIR STEPS LOCAL_BATCH [SLEEP_S]. Every process loads its shard of the same
rows (``num_shards=get_group_size(), shard_id=get_rank()``), trains with ``Model.train`` under DATA_PARALLEL,
and writes ``OUT_DIR/rank<r>.npz`` (final parameters and the losses) and ``OUT_DIR/rank<r>.pid``.
"""
import os
import sys
import time

from mindspore_hl.communication import get_group_size, get_rank, init

init()  # first: joins the processes before any JAX work

import numpy as np  # noqa: E402

import mindspore_hl as ms  # noqa: E402
import mindspore_hl.dataset as ds  # noqa: E402
from mindspore_hl import nn, parallel  # noqa: E402
from mindspore_hl.callbacks import Callback  # noqa: E402
from mindspore_hl.model import Model  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "parallel"))
from parallel_nets import lenet5, lenet_rows  # noqa: E402


class Record(Callback):
    """Keep (and print) every step's loss; optionally slow the steps down."""

    def __init__(self, sleep_s):
        self.losses, self.sleep_s = [], sleep_s

    def step_end(self, run_context):
        self.losses.append(float(run_context.original_args().net_outputs.asnumpy()))
        print(f"step {len(self.losses)} loss {self.losses[-1]:.6f}", flush=True)
        time.sleep(self.sleep_s)


def main():
    out_dir, steps, local_batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sleep_s = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    mode = ms.PYNATIVE_MODE if len(sys.argv) > 5 and sys.argv[5] == "pynative" else ms.GRAPH_MODE
    rank, size = get_rank(), get_group_size()
    with open(os.path.join(out_dir, f"rank{rank}.pid"), "w") as f:
        f.write(str(os.getpid()))
    ms.set_context(mode=mode)
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                       device_num=size)
    x, y = lenet_rows(steps * local_batch * size)
    data = ds.NumpySlicesDataset((x, y), column_names=["image", "label"], shuffle=False, num_shards=size,
                                 shard_id=rank).batch(local_batch, drop_remainder=True)
    net = lenet5()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    record = Record(sleep_s)
    model.train(1, data, callbacks=[record])
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.asarray(record.losses),
             **{p.name: p.asnumpy() for p in net.trainable_params()})
    print("done", flush=True)


if __name__ == "__main__":
    main()
