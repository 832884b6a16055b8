"""A small two-process check run by the tests: ``ms.jit`` over each process's part of the global batch.

Usage: dp_smoke_script.py OUT_DIR. Process r feeds rows [4r, 4r + 4) of a 8 x 3 batch; the compiled function
sees the global batch (mean over all 8 rows) and updates a replicated Parameter with it.
"""
import os
import sys

from mindspore_hl.communication import get_group_size, get_local_rank, get_rank, init

init()

import numpy as np  # noqa: E402

import mindspore_hl as ms  # noqa: E402
from mindspore_hl import parallel  # noqa: E402


def main():
    rank, size = get_rank(), get_group_size()
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.DATA_PARALLEL, device_num=size)
    w = ms.Parameter(ms.Tensor(np.ones((3,), np.float32)), name="w")

    @ms.jit
    def step(x):
        w.set_data(w + x.mean(0))
        return (x * w).sum()

    batch = np.arange(24, dtype=np.float32).reshape(8, 3)
    local = batch[4 * rank:4 * rank + 4]
    out = [float(step(ms.Tensor(local)).asnumpy()) for _ in range(2)]
    np.savez(os.path.join(sys.argv[1], f"rank{rank}.npz"), out=np.asarray(out), w=w.asnumpy(),
             who=np.asarray([rank, size, get_local_rank()]))


if __name__ == "__main__":
    main()
