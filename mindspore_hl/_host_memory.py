"""Big compiled steps on CPU run on the calling thread, so their buffers are reused instead of mapped afresh.

XLA:CPU allocates a call's temporaries anew on every call (one block: 880 MB for a ResNet50 224x224 batch-8
train step). Under JAX's default asynchronous dispatch the call runs on an XLA worker thread, and glibc serves a
worker thread's block above 64 MB (the heap size of a thread's malloc arena) with a fresh ``mmap`` whatever
``mallopt`` says, and unmaps it on ``free``: the kernel zero-fills the block page by page every step (198k page
faults and ~250 ms of system time per 1 s step on the project's Intel host). A call made with its inputs
ready under *synchronous* dispatch runs on the calling (main) thread instead, allocating from the main arena,
where ``mallopt`` can turn ``mmap`` and trimming off: the heap keeps the pages and the next step reuses them.

Synchronous dispatch costs op-by-op execution its overlap of Python with compute (PYNATIVE LeNet5 steps
22-38% slower, ResNet50 34%), and the choice is fixed when JAX creates its CPU client, at the first
computation. So ``set_context(mode=GRAPH_MODE)`` before any computation chooses synchronous dispatch, and
PYNATIVE_MODE keeps JAX's asynchronous default. Under synchronous dispatch a compiled step whose temporaries
reach glibc's largest mmap threshold (32 MB) is called with its inputs ready (``runs_inline``, ``ready``), and
so is a step of >= 0.75 GFLOP, where running inline beats overlapping the host's per-step work with a worker
thread; malloc is tuned at the first such step, once. Smaller steps keep running asynchronously while their
NumPy inputs are still being copied in. Measured (docs/performance.md): ResNet50 224x224 b8 1.07 -> 0.91 s per
step, 32x32 b32 127 -> 109 ms; LeNet5 b32 unchanged. A step inline for its arithmetic needs the tuning too: in a
fresh process glibc mapped LeNet5 b256's 19 MB of temporaries afresh on every step (4930 page faults), and
``Model.train`` took 11.5-13.8 ms per step instead of 6.2-6.4. The cost: memory freed by the main thread stays
with the process. ``MINDSPORE_HL_MALLOC=system`` leaves JAX's dispatch and glibc's malloc as they are.
"""
import ctypes
import functools
import os
import platform
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

__all__ = ["choose_dispatch", "runs_inline", "ready"]

_M_TRIM_THRESHOLD, _M_MMAP_MAX = -1, -4
_MMAP_THRESHOLD_MAX = 32 * 2 ** 20  # glibc's ceiling for its dynamic mmap threshold on 64-bit hosts
# Above this much arithmetic a step gains more from running inline than from overlapping the host's per-step
# work with a worker thread: LeNet5 Model.train steps of 0.18 / 0.51 / 1.0 GFLOP (batch 64 / 128 / 256) took
# 3.00 / 5.81 / 11.18 ms fed asynchronously and 3.38 / 5.85 / 10.88 ms with their inputs ready.
_INLINE_FLOPS = 0.75e9


def _enabled():
    return (os.environ.get("MINDSPORE_HL_MALLOC", "").lower() != "system" and platform.system() == "Linux"
            and platform.libc_ver()[0] == "glibc")


def _client_created():
    try:  # no public way to ask whether the backends exist yet; a jax without it: assume they do (no change)
        from jax._src import xla_bridge
        return xla_bridge.backends_are_initialized()
    except (ImportError, AttributeError):
        return True


_ASYNC = "jax_cpu_enable_async_dispatch"


def choose_dispatch(graph_mode: bool) -> None:
    """Before JAX's CPU client exists: synchronous dispatch for GRAPH_MODE, JAX's asynchronous default else."""
    if _enabled() and _ASYNC in jax.config.values and not _client_created():
        jax.config.update(_ASYNC, not graph_mode)


def _inline_dispatch():
    return (_enabled() and _ASYNC in jax.config.values and not jax.config.values[_ASYNC] and _client_created()
            and jax.default_backend() == "cpu")


def runs_inline(compiled_fn: Callable[[], Any]) -> bool:
    """Whether calls of a compiled step should be made with their inputs ready, so they run on this thread.

    Args:
        compiled_fn: () -> the step's ``jax.stages.Compiled`` (called only under synchronous dispatch).
    Returns:
        True under synchronous dispatch for a step whose temporaries reach 32 MB or whose arithmetic reaches
        0.75 GFLOP; malloc is tuned then (see the module docstring).
    """
    if not _inline_dispatch():
        return False
    compiled = compiled_fn()
    stats = compiled.memory_analysis()
    if stats is not None and stats.temp_size_in_bytes >= _MMAP_THRESHOLD_MAX:
        return _keep_freed_memory()
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) and cost else cost  # older jax: one dict per program
    if not cost or cost.get("flops", 0.0) < _INLINE_FLOPS:
        return False
    _keep_freed_memory()  # its temporaries, under 32 MB, were mapped afresh on every step too
    return True


@functools.lru_cache(maxsize=None)
def _keep_freed_memory():
    """The main arena without mmap and trimming (mallopt returns 1 on success; -1 turns trimming off)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    return all(libc.mallopt(p, v) == 1 for p, v in ((_M_MMAP_MAX, 0), (_M_TRIM_THRESHOLD, -1)))


def ready(args: Any) -> Any:
    """``args`` (a pytree) as device arrays whose values exist, NumPy ones copied in, so a call on them runs
    inline: one input still being computed or copied sends the call to a worker thread, and its outputs, the
    next step's inputs, would then be pending too."""
    return jax.block_until_ready(jax.tree_util.tree_map(
        lambda a: jax.device_put(a) if isinstance(a, np.ndarray) else a, args))
