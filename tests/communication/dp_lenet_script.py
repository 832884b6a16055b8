"""A data-parallel LeNet5 training script, run by the tests under ``mindspore-hl-run -n 2``.

Usage: dp_lenet_script.py OUT_DIR STEPS LOCAL_BATCH [SLEEP_S]. Every process loads its shard of the same
rows (``num_shards=get_group_size(), shard_id=get_rank()``), trains with DATA_PARALLEL, and writes
``OUT_DIR/rank<r>.npz`` (final parameters and losses) and ``OUT_DIR/rank<r>.pid``.
"""
import os
import sys
import time

from mindspore_hl.communication import init, get_rank, get_group_size

init()  # first: joins the processes before any JAX work

import numpy as np  # noqa: E402

import mindspore_hl as ms  # noqa: E402
import mindspore_hl.dataset as ds  # noqa: E402
from mindspore_hl import nn, parallel  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "parallel"))
from parallel_nets import LeNet5, SGDMomentum, SoftmaxCE  # noqa: E402


def rows(n, seed=0):
    """The whole data set: ``n`` images and labels (the same in every process)."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 1, 32, 32)).astype(np.float32), rng.integers(0, 10, (n,)).astype(np.int32)


def main():
    out_dir, steps, local_batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sleep_s = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    rank, size = get_rank(), get_group_size()
    with open(os.path.join(out_dir, f"rank{rank}.pid"), "w") as f:
        f.write(str(os.getpid()))
    ms.set_context(mode=ms.GRAPH_MODE)
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                       device_num=size)
    x, y = rows(steps * local_batch * size)
    data = ds.NumpySlicesDataset((x, y), column_names=["image", "label"], shuffle=False, num_shards=size,
                                 shard_id=rank).batch(local_batch, drop_remainder=True)
    net = LeNet5()
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, SoftmaxCE()), SGDMomentum(net.trainable_params(), 0.05))
    train_net.grad_reducer = parallel.DistributedGradReducer(train_net.weights)
    train_net.set_train()
    losses = []
    for image, label in data.create_tuple_iterator():
        losses.append(float(train_net(image, label).asnumpy()))
        print(f"step {len(losses)} loss {losses[-1]:.6f}", flush=True)
        time.sleep(sleep_s)
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.asarray(losses),
             **{p.name: p.asnumpy() for p in net.trainable_params()})
    print("done", flush=True)


if __name__ == "__main__":
    main()
