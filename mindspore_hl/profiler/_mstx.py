"""``mindspore.profiler.mstx``: user markers and ranges in the profiler's trace.

MindSpore records these through msprof's mstx API only on Ascend, while a profile with ``mstx=True`` runs;
elsewhere (its CPU build, or no such profile) ``mark`` / ``range_end`` do nothing and ``range_start`` returns 0.
Here the same calls land in the trace ``jax.profiler`` writes for a running
:class:`~mindspore_hl.profiler.Profiler` created with ``mstx=True``: a mark is a zero-length span and a range a
span from ``range_start`` to ``range_end`` (same thread), named by the message, with ``domain`` in its args;
``mstx_domain_include`` / ``mstx_domain_exclude`` of the Profiler select domains (include wins when both are set).
Without such a profile the calls are MindSpore's no-ops.

>>> mstx.range_start("no profile running")
0
"""
from __future__ import annotations

import itertools
import logging
from typing import Any

import jax

from .._device_utils import Stream
from . import _profiler

__all__ = ["mstx"]

logger = logging.getLogger(__name__)

_ids = itertools.count(1)
_open: dict[tuple[int, str], jax.profiler.TraceAnnotation] = {}   # (range id, domain) -> its open span


def _recording(domain: str) -> bool:
    """Whether a running profile takes mstx markers of ``domain``."""
    prof = _profiler._active[0]
    if prof is None or prof._running is None or not prof._config.get("mstx"):
        return False
    include = prof._config.get("mstx_domain_include") or []
    exclude = prof._config.get("mstx_domain_exclude") or []
    return domain in include if include else domain not in exclude


def _valid(fn: str, message: Any, stream: Any, domain: Any) -> bool:
    if not message or not isinstance(message, str):
        logger.warning("mstx.%s: 'message' must be a non-empty str, but got %r.", fn, message)
        return False
    if not isinstance(domain, str) or domain == "":
        logger.warning("mstx.%s: 'domain' must be a non-empty str, but got %r.", fn, domain)
        return False
    if stream is not None and not isinstance(stream, Stream):
        logger.warning("mstx.%s: 'stream' must be a mindspore.runtime.Stream, but got %s.", fn,
                       type(stream).__name__)
        return False
    return True


class mstx:  # noqa: N801  (MindSpore's spelling: a class of static methods)
    """``mark``, ``range_start`` and ``range_end`` (see the module docstring)."""

    @staticmethod
    def mark(message: str, stream: Stream | None = None, domain: str = "default") -> None:
        """Put a zero-length marker named ``message`` in the running profile's trace."""
        if not _valid("mark", message, stream, domain) or not _recording(domain):
            return
        with jax.profiler.TraceAnnotation(message, mstx="mark", domain=domain):
            pass

    @staticmethod
    def range_start(message: str, stream: Stream | None = None, domain: str = "default") -> int:
        """Open a span named ``message``; returns its id for :meth:`range_end` (0 when nothing is recorded)."""
        if not _valid("range_start", message, stream, domain) or not _recording(domain):
            return 0
        range_id = next(_ids)
        span = jax.profiler.TraceAnnotation(message, mstx="range", domain=domain, range_id=range_id)
        span.__enter__()
        _open[(range_id, domain)] = span
        return range_id

    @staticmethod
    def range_end(range_id: int, domain: str = "default") -> None:
        """Close the span ``range_start`` opened (id 0: nothing was opened)."""
        if isinstance(range_id, int) and range_id == 0:
            return
        if isinstance(range_id, bool) or not isinstance(range_id, int) or range_id < 0:
            logger.warning("mstx.range_end: 'range_id' must be the int range_start returned, but got %r.", range_id)
            return
        if not isinstance(domain, str) or domain == "":
            logger.warning("mstx.range_end: 'domain' must be a non-empty str, but got %r.", domain)
            return
        span = _open.pop((range_id, domain), None)
        if span is None:
            logger.warning("mstx.range_end: no open range %d in domain %r.", range_id, domain)
            return
        span.__exit__(None, None, None)
