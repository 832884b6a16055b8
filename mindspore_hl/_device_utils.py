"""Device memory, synchronization and stream utilities (``mindspore.runtime`` names MindSpore 2.10 exports at top
level), backed by what JAX/XLA reports for the current device.

Memory numbers come from ``jax.Device.memory_stats()`` (XLA's allocator): ``bytes_in_use`` is "allocated",
``pool_bytes`` (or ``bytes_reserved``) is "reserved". XLA's CPU client keeps no allocator statistics
(``memory_stats()`` is None): every number is then 0, as real MindSpore reports on its CPU target.

XLA runs all work of one device on one ordered queue, so every :class:`Stream` names that queue; waiting
on a stream or event waits for the arrays enqueued before it.
"""
from __future__ import annotations

import gc
import threading
import time
import weakref
from collections import namedtuple
from typing import Any

import jax

from .context import get_context

__all__ = ["memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
           "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "empty_cache", "synchronize", "Stream", "Event", "StreamCtx", "current_stream", "default_stream",
           "communication_stream", "set_cur_stream", "get_current_device", "ms_memory_recycle"]

DeviceInfo = namedtuple("DeviceInfo", ["device_target", "device_id"])

# XLA's peak counters cannot be reset: after a reset, a peak is XLA's when it grew past the value seen at the
# reset (a new all-time high is exact), otherwise the highest current usage observed since (a lower bound).
_peaks: dict[str, dict[str, int]] = {"allocated": {}, "reserved": {}}
_lock = threading.Lock()


def _device() -> Any:
    """The device arrays are placed on by default (set by ``set_context(device_id=...)`` / ``set_device``)."""
    dev = jax.config.jax_default_device  # type: ignore[attr-defined]  # jax's flags are set at run time
    if dev is None or isinstance(dev, str):
        return jax.devices()[0]
    return dev


def _raw() -> dict[str, int]:
    stats = _device().memory_stats()
    return dict(stats) if stats else {}


def _current(kind: str, raw: dict[str, int]) -> int:
    if kind == "allocated":
        return int(raw.get("bytes_in_use", 0))
    return int(raw.get("pool_bytes", raw.get("bytes_reserved", 0)))


def _xla_peak(kind: str, raw: dict[str, int]) -> int:
    if kind == "allocated":
        return int(raw.get("peak_bytes_in_use", 0))
    return int(raw.get("peak_pool_bytes", raw.get("peak_bytes_reserved", 0)))


def _peak(kind: str, raw: dict[str, int]) -> int:
    xla_peak, cur = _xla_peak(kind, raw), _current(kind, raw)
    with _lock:
        state = _peaks[kind]
        if "at_reset" not in state:
            return max(xla_peak, cur)
        state["seen"] = max(state["seen"], cur)
        return xla_peak if xla_peak > state["at_reset"] else state["seen"]


def _reset(kind: str) -> None:
    raw = _raw()
    with _lock:
        _peaks[kind] = {"at_reset": _xla_peak(kind, raw), "seen": _current(kind, raw)}


def memory_allocated() -> int:
    """Bytes of device memory held by live arrays (XLA's ``bytes_in_use``; 0 where XLA keeps no stats, e.g. CPU)."""
    return _current("allocated", _raw())


def max_memory_allocated() -> int:
    """Peak of :func:`memory_allocated` since start or the last :func:`reset_peak_memory_stats`."""
    return _peak("allocated", _raw())


def memory_reserved() -> int:
    """Bytes the device allocator holds from the device (XLA's ``pool_bytes``; 0 where XLA keeps no stats)."""
    return _current("reserved", _raw())


def max_memory_reserved() -> int:
    """Peak of :func:`memory_reserved` since start or the last :func:`reset_peak_memory_stats`."""
    return _peak("reserved", _raw())


def memory_stats() -> dict[str, Any]:
    """MindSpore's memory statistics dict; the allocator block tables are XLA's counters under ``xla_stats``.

    >>> sorted(memory_stats())[:3]
    ['common_mem_pool_stats', 'max_allocated_memory', 'max_reserved_memory']
    """
    raw = _raw()
    reserved, allocated = _current("reserved", raw), _current("allocated", raw)
    return {"total_reserved_memory": reserved, "total_allocated_memory": allocated,
            "total_idle_memory": max(reserved - allocated, 0), "total_eager_free_memory": 0,
            "max_reserved_memory": _peak("reserved", raw), "max_allocated_memory": _peak("allocated", raw),
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": int(raw.get("num_allocs", 0)),
                                      "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}},
            "xla_stats": raw}


def _fmt(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n:>6} {unit}" if unit == "B" else f"{n:>6.2f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def memory_summary() -> str:
    """A printable table of :func:`memory_stats`, laid out like MindSpore's."""
    stats = memory_stats()
    rows = [("Reserved memory", stats["total_reserved_memory"]), ("Allocated memory", stats["total_allocated_memory"]),
            ("Idle memory", stats["total_idle_memory"]), ("Eager free memory", stats["total_eager_free_memory"]),
            ("Max reserved memory", stats["max_reserved_memory"]),
            ("Max allocated memory", stats["max_allocated_memory"])]
    line = "|" + "=" * 45 + "|"
    sep = "|" + "-" * 45 + "|"
    out = [line, "|" + "Memory summary".center(45) + "|", line, f"| {'Metric':<20} | {'Data':<20} |", sep]
    for name, value in rows:
        out += [f"| {name:<20} | {_fmt(value):<20} |", sep]
    return "\n".join(out[:-1] + [line]) + "\n"


def reset_peak_memory_stats() -> None:
    """Restart both peak counters (:func:`max_memory_allocated`, :func:`max_memory_reserved`) from now."""
    _reset("allocated")
    _reset("reserved")


def reset_max_memory_allocated() -> None:
    """Restart the :func:`max_memory_allocated` counter from now."""
    _reset("allocated")


def reset_max_memory_reserved() -> None:
    """Restart the :func:`max_memory_reserved` counter from now."""
    _reset("reserved")


def empty_cache() -> None:
    """Free the device memory of arrays no longer referenced (Python cycles included).

    XLA's allocator returns freed buffers to its own pool and has no call to hand the pool back to the driver;
    what is released here is every buffer whose only owners were unreachable Python objects.
    """
    gc.collect()


def _pending_arrays() -> list[Any]:
    dev = _device()
    return [a for a in jax.live_arrays() if dev in a.devices()]


# An array captured earlier may have been deleted since (a compiled step donated its buffer): its work is done.
def _ready(arr: Any) -> bool:
    return arr.is_deleted() or arr.is_ready()


def _wait(arrays: list[Any]) -> None:
    for arr in arrays:
        if not arr.is_deleted():
            try:
                arr.block_until_ready()
            except RuntimeError:  # deleted between the check and the wait
                if not arr.is_deleted():
                    raise


def synchronize() -> None:
    """Block until all work enqueued on the current device has finished (every live array is ready)."""
    _wait(_pending_arrays())


def ms_memory_recycle() -> None:
    """Release what finished work holds: unreachable arrays' buffers and JAX's caches of compiled executables
    (MindSpore recycles its per-model runtime memory), e.g. after training one model of several in a process."""
    gc.collect()
    jax.clear_caches()


class Event:
    """A marker in the device's queue: :meth:`record` captures the work enqueued so far.

    Args:
        enable_timing: stamp the host time at which the captured work finished, for :meth:`elapsed_time`.
        blocking: accepted for MindSpore compatibility (waits here always block the host).
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False) -> None:
        self.enable_timing, self.blocking = bool(enable_timing), bool(blocking)
        self._refs: list[weakref.ref[Any]] = []
        self._recorded = False
        self._done_at: float | None = None
        self._watcher: threading.Thread | None = None

    def record(self, stream: Stream | None = None) -> None:
        """Capture the work enqueued on ``stream`` (default: the current stream) up to now."""
        # weak references: an event must not keep the captured arrays' memory alive
        self._refs = [weakref.ref(a) for a in _pending_arrays() if not _ready(a)]
        self._recorded = True
        self._done_at = None
        if self.enable_timing:  # a watcher stamps the moment the captured work completes
            self._watcher = threading.Thread(target=self._stamp, daemon=True)
            self._watcher.start()

    @property
    def _arrays(self) -> list[Any]:
        return [a for a in (r() for r in self._refs) if a is not None]

    def _stamp(self) -> None:
        _wait(self._arrays)
        self._done_at = time.perf_counter()

    def query(self) -> bool:
        """True when the captured work has finished (or nothing was recorded)."""
        return all(_ready(arr) for arr in self._arrays)

    def synchronize(self) -> None:
        """Block the host until the captured work has finished."""
        _wait(self._arrays)
        if self._watcher is not None:
            self._watcher.join()

    def wait(self, stream: Stream | None = None) -> None:
        """Make later work wait for this event (one ordered queue per device: the host waits here)."""
        self.synchronize()

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event's and ``end_event``'s completion (both need ``enable_timing=True``)."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("For 'Event.elapsed_time', both events must be created with enable_timing=True.")
        if not (self._recorded and end_event._recorded):
            raise RuntimeError("For 'Event.elapsed_time', both events must be recorded first.")
        self.synchronize()
        end_event.synchronize()
        return (end_event._done_at - self._done_at) * 1000.0  # type: ignore[operator]


class Stream:
    """A handle on the current device's execution queue (XLA keeps one ordered queue per device).

    Args:
        priority: accepted for MindSpore compatibility (one queue: no priorities).
    """

    _next_id = 0

    def __init__(self, priority: int = 0, **kwargs: Any) -> None:
        self.priority = priority
        self.id = Stream._next_id
        Stream._next_id += 1

    @property
    def device(self) -> Any:
        """The device of this queue (looked up when asked: the default stream exists from import on, before the
        backend may start, e.g. before ``communication.init()`` or ``set_device``)."""
        return _device()

    def __repr__(self) -> str:
        target, dev_id = get_current_device()
        return f"Stream(device_name={target}, device_id:{dev_id}, stream id:{self.id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("Stream", self.id))

    def query(self) -> bool:
        """True when all work enqueued so far has finished."""
        return all(_ready(arr) for arr in _pending_arrays())

    def synchronize(self) -> None:
        """Block until all work enqueued so far has finished."""
        synchronize()

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new Event when None) on this stream and return it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event: Event) -> None:
        """Wait for ``event``'s captured work."""
        event.wait(self)

    def wait_stream(self, stream: Stream) -> None:
        """Wait for the work enqueued on ``stream`` so far."""
        stream.synchronize()


_default = Stream()
_current_stream = [_default]


def default_stream() -> Stream:
    """The default stream."""
    return _default


def current_stream() -> Stream:
    """The stream set by :func:`set_cur_stream` / :class:`StreamCtx` (the default stream otherwise)."""
    return _current_stream[0]


def communication_stream() -> Stream:
    """The stream collectives run on: XLA orders them in the device's one queue, so the default stream."""
    return _default


def set_cur_stream(stream: Stream) -> None:
    """Make ``stream`` the current stream."""
    if not isinstance(stream, Stream):
        raise TypeError(f"For 'set_cur_stream', 'stream' must be a Stream, but got {type(stream).__name__}.")
    _current_stream[0] = stream


class StreamCtx:
    """``with StreamCtx(stream):`` makes ``stream`` current inside the block (None: leave it unchanged)."""

    def __init__(self, ctx_stream: Stream | None) -> None:
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', 'ctx_stream' must be a Stream or None, but got "
                            f"{type(ctx_stream).__name__}.")
        self.stream = ctx_stream
        self._prev: Stream | None = None

    def __enter__(self) -> StreamCtx:
        self._prev = current_stream()
        if self.stream is not None:
            set_cur_stream(self.stream)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._prev is not None:
            set_cur_stream(self._prev)


def get_current_device() -> DeviceInfo:
    """``(device_target, device_id)`` of the device in use, e.g. ``('CPU', 0)``.

    >>> get_current_device().device_id
    0
    """
    return DeviceInfo(get_context("device_target"), get_context("device_id"))
