"""Opt-in: keep freed host memory for reuse, for large models whose compiled step re-allocates big buffers.

XLA:CPU allocates each compiled step's buffers afresh on every call. glibc serves an allocation above 32 MB with
a fresh ``mmap`` (and one above 64 MB made by any thread but the main one always so) and unmaps it on ``free``,
so the kernel hands the same memory out again, zero-filled one 4 KB fault at a time, every step. With one malloc
arena, no ``mmap`` and no trimming, the heap keeps those pages and the next step reuses them. The costs: memory
freed stays with the process; and XLA's threads and Python share one malloc lock, which small steps feel.

Measured (benchmarks/NOTES.md, changes 11 and 14): on an AMD EPYC host it made a ResNet50 224x224 batch-8 step
1.03 -> 0.83 s; on the Intel Xeon host that runs this project's CI it left that step unchanged (1.03 s with
it, 1.04 s without: means of two runs each) and made LeNet5 11-18% slower (batch 256: 11.8 -> 14.3 ms). So it
is off by default; ``MINDSPORE_HL_MALLOC=reuse`` in the environment turns it on when ``mindspore_hl`` is imported
(Linux with glibc only). It must be chosen before XLA starts its threads, which is why it is an environment variable.
"""
import ctypes
import functools
import os
import platform

__all__ = ["keep_freed_memory"]

_M_TRIM_THRESHOLD, _M_MMAP_MAX, _M_ARENA_MAX = -1, -4, -8


@functools.lru_cache(maxsize=None)
def keep_freed_memory():
    """Tune glibc malloc for step-sized buffers if ``MINDSPORE_HL_MALLOC=reuse``, once. Returns True if applied."""
    if os.environ.get("MINDSPORE_HL_MALLOC", "").lower() != "reuse":
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    # One arena: glibc's other arenas cannot hold blocks above 64 MB and map each afresh. mallopt returns 1 on
    # success; -1 as the trim threshold turns trimming off.
    return all(libc.mallopt(p, v) == 1 for p, v in ((_M_ARENA_MAX, 1), (_M_MMAP_MAX, 0), (_M_TRIM_THRESHOLD, -1)))
