"""Big compiled steps keep their buffers (``mindspore_hl/_host_memory.py``): GRAPH_MODE chosen before the first
computation gives synchronous dispatch, and a step with a 64 MB temporary then runs without page faults, through a
GRAPH_MODE Cell call and through ``Model.train``, as does a step inline for its arithmetic (LeNet5 at batch 256,
19 MB of temporaries, measured first); PYNATIVE_MODE and ``MINDSPORE_HL_MALLOC=system`` keep JAX's
asynchronous dispatch, where the same step faults its temporary in afresh on every call. Each case runs in a fresh
process, since the dispatch mode and malloc's settings are per process."""
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                                reason="glibc's malloc only")

_PROBE = """
import resource, sys
import numpy as np
import jax
import mindspore_hl as ms
from mindspore_hl import nn, ops
ms.set_context(mode=ms.GRAPH_MODE if sys.argv[1] == "graph" else ms.PYNATIVE_MODE)


class Big(nn.Cell):  # the (16384, 1024) product is a 64 MB temporary (read transposed, so not fused away)
    def construct(self, x, w):
        return ops.tanh(ops.matmul(x, w)).T[::3].sum()


def faults_per_call(call, groups=5, calls=3):  # the fewest over groups: the heap takes a few calls to settle
    counts = []
    for _ in range(groups):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(calls):
            call()
        counts.append((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls)
    return min(counts)


rng = np.random.default_rng(0)
# First, before a bigger step has tuned malloc: LeNet5 at batch 256, a step of 0.9 GFLOP whose temporaries (19 MB)
# stay under glibc's largest mmap threshold
from model_zoo.lenet.src import LeNet5
mid_net = LeNet5(10)
mid = ms.train.Model(mid_net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(mid_net.trainable_params(), 0.01, 0.9))
mid_batches = [(rng.normal(size=(256, 1, 32, 32)).astype(np.float32), rng.integers(0, 10, 256).astype(np.int32))] * 8
mid_train = faults_per_call(lambda: (mid.train(1, mid_batches), mid_net.trainable_params()[0].asnumpy()), 6, 1)
mid_inline = [e.inline for e in mid._train_runner()._cache.values()] if mid._train_runner() else []
net = nn.SequentialCell(nn.Dense(64, 1024), nn.ReLU(), nn.Dense(1024, 1))
model = ms.train.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
batches = [(rng.normal(size=(16384, 64)).astype(np.float32), rng.normal(size=(16384, 1)).astype(np.float32))] * 8
train = faults_per_call(lambda: (model.train(1, batches), net.trainable_params()[0].asnumpy()), 6, 1) / len(batches)

x = ms.Tensor(rng.normal(size=(16384, 64)).astype(np.float32))
w = ms.Tensor(rng.normal(size=(64, 1024)).astype(np.float32))
big = Big()
cell = faults_per_call(lambda: big(x, w).asnumpy())
small_net = nn.Dense(64, 2)
small = ms.train.Model(small_net, nn.MSELoss(), nn.Momentum(small_net.trainable_params(), 0.01, 0.9))
small.train(1, [(b[0][:32], np.zeros((32, 2), np.float32)) for b in batches[:2]])
inline = [[e.inline for e in m._train_runner()._cache.values()] if m._train_runner() else [] for m in (model, small)]
print(jax.config.read("jax_cpu_enable_async_dispatch"), cell, train, "".join(str(inline).split()),
      mid_train / len(mid_batches), "".join(str(mid_inline).split()))
"""


def _fault_size():
    """Bytes the kernel maps per fault of a fresh anonymous mapping: a huge page where THP is always on."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            if "[always]" in f.read():
                return 2 * 2 ** 20
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE")


_PAGES = 64 * 2 ** 20 / _fault_size()  # faults to map the 64 MB temporary afresh
_LENET_PAGES = 16 * 2 ** 20 / _fault_size()  # at least this many for LeNet5's temporaries (19 MB)


def _probe(mode, malloc=""):
    env = dict(os.environ, MINDSPORE_HL_MALLOC=malloc)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the probe imports model_zoo from there
    out = subprocess.run([sys.executable, "-c", _PROBE, mode], env=env, capture_output=True, text=True, timeout=600,
                         cwd=root)
    assert out.returncode == 0, out.stderr
    asynchronous, cell, train, inline, lenet, lenet_inline = out.stdout.split()
    return asynchronous == "True", float(cell), float(train), inline.strip(), float(lenet), lenet_inline


def test_graph_mode_steps_reuse_their_buffers():
    asynchronous, cell, train, inline, lenet, lenet_inline = _probe("graph")
    assert not asynchronous
    assert cell < 0.05 * _PAGES, (cell, _PAGES)
    assert train < 0.05 * _PAGES, (train, _PAGES)
    assert inline == "[[True],[False]]"  # Model's step runner readies the big step's inputs, not the small one's
    # A step inline for its arithmetic keeps its buffers too: with malloc untuned, glibc mapped LeNet5's 19 MB
    # afresh on every step (4930 faults; the step took twice as long).
    assert lenet_inline == "[True]" and lenet < 0.05 * _LENET_PAGES, (lenet, _LENET_PAGES)


def test_system_malloc_and_pynative_keep_asynchronous_dispatch():
    asynchronous, cell, _, inline, _, _ = _probe("graph", "system")
    assert asynchronous and inline == "[[False],[False]]"
    assert cell > 0.5 * _PAGES, (cell, _PAGES)  # glibc maps the temporary afresh on every call
    asynchronous, _, _, inline, _, _ = _probe("pynative")
    assert asynchronous and inline == "[[],[]]"  # PYNATIVE: op-by-op calls overlap Python with compute
