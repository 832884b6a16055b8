"""PyTorch eager in a process of its own, timed on request: ``train_throughput``'s ``torch_own`` configuration.

PyTorch beside mindspore_hl shares the process with XLA's threads (and with the malloc tuning that big GRAPH_MODE
steps switch on, ``mindspore_hl/_host_memory.py``); this worker never imports
mindspore_hl, so it measures PyTorch as users run it.
Protocol: argv = network, threads, .npz file of batches[, "bf16": under ``torch.autocast`` in bfloat16 (the
``torch_bf16_own`` configuration)]; each stdin line "round" is answered with the round's seconds on stdout; the
first line written is the first step's seconds (warm-up).
"""
import sys
import time

import numpy as np

from benchmarks import _floors


def main() -> None:
    """``_torch_worker NAME THREADS BATCHES.npz [bf16]``: print the first step's seconds, then one line per
    'round'."""
    name, threads, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    data = np.load(path)
    floor = _floors.TorchFloor(name, autocast_bf16=sys.argv[4:] == ["bf16"])
    floor.torch.set_num_threads(threads)
    batches = [floor.convert(data[f"x{i}"], data[f"y{i}"]) for i in range(len(data.files) // 2)]
    start = time.perf_counter()
    floor.step(*batches[0])
    print(time.perf_counter() - start, flush=True)
    for line in sys.stdin:
        if line.strip() != "round":
            break
        start = time.perf_counter()
        for x, y in batches:
            floor.step(x, y)
        print(time.perf_counter() - start, flush=True)


if __name__ == "__main__":
    main()
