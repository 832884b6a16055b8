"""Keep freed host memory for reuse: XLA:CPU allocates each compiled step's buffers afresh on every call.

glibc serves an allocation above 32 MB with a fresh ``mmap`` (and one above 64 MB made by any thread but the
main one always so), and unmaps it on ``free``. A compiled step allocates its temporary buffer (ResNet50 at
224x224, batch 8: 883 MB) and its outputs on every call from XLA's worker threads, so every step the kernel
handed out ~800 MB of fresh pages one 4 KB fault at a time: 200k page faults and 0.43 s of system time in a 1.0 s
step (benchmarks/NOTES.md, change 11). With one malloc arena, no ``mmap`` and no trimming, the heap keeps those
pages and the next step reuses them. The cost: memory freed stays with the process for reuse, as in PyTorch's
GPU caching allocator (ResNet50 224x224 b8: peak RSS 2.5 GB instead of 1.9 GB).

Applied once, when ``mindspore_hl`` is imported, on Linux with glibc; ``MINDSPORE_HL_MALLOC=system`` in the
environment leaves the allocator as it is. Threads that allocated before the import keep their own arenas.
"""
import ctypes
import functools
import os
import platform

__all__ = ["keep_freed_memory"]

_M_TRIM_THRESHOLD, _M_MMAP_MAX, _M_ARENA_MAX = -1, -4, -8


@functools.lru_cache(maxsize=None)
def keep_freed_memory():
    """Tune glibc malloc for step-sized buffers, once (see the module docstring). Returns True if applied."""
    if os.environ.get("MINDSPORE_HL_MALLOC", "").lower() == "system":
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
