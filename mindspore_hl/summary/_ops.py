"""Where the summary ops of ``construct`` (``ops.ScalarSummary()('tag', value)``, ``ImageSummary``,
``HistogramSummary``, ``TensorSummary``) meet the summary files.

The ops live in ``mindspore_hl.ops`` and hand ``(kind, tag, value)`` to registered listeners; without a
listener they do nothing, as in MindSpore without a SummaryRecord. The first ``SummaryRecord`` registers the
listener below, which keeps the last value per tag (several steps in one sink: the last one wins, as in
MindSpore) until ``SummaryRecord.record(step)`` writes them with tag = the op's name.

Inside a compiled step the ops use ``jax.debug.callback`` (an unordered effect, so the step is not serialised
with the host). That works in every compiled path (Model's steps and sink scans, GRAPH_MODE Cell calls,
``ms.jit``); a step compiled before the listener existed has no callback, so create the SummaryRecord /
SummaryCollector before the first step. The price is a device-to-host copy and a Python call each time the
step runs: one ``ScalarSummary`` in LeNet5 cost 1-5 ms per step on the 2-core CPU
(``python -m benchmarks.model_train``, batch 32 and 256), against 3.8 / 42 ms steps. Returning the values as
extra outputs of the step would be cheaper but would work only where Model owns the step.
"""
from __future__ import annotations

import threading
from typing import Any

import jax
import numpy as np

from ..ops import add_summary_listener

__all__ = ["listen", "take_pending", "clear_pending"]

_lock = threading.Lock()
_pending: dict[str, tuple[str, np.ndarray]] = {}  # tag -> (kind, numpy value)
_registered: list[Any] = []


def _store(kind: str, tag: str, value: Any) -> None:
    with _lock:
        _pending[tag] = (kind, np.asarray(value))


def listen() -> None:
    """Start receiving summary-op values (idempotent; stays registered for the process)."""
    with _lock:
        if not _registered:
            _registered.append(add_summary_listener(_store))


def take_pending() -> dict[str, tuple[str, np.ndarray]]:
    """``{tag: (kind, value)}`` received since the last call (first waits for running steps' callbacks)."""
    jax.effects_barrier()
    with _lock:
        out = dict(_pending)
        _pending.clear()
    return out


def clear_pending() -> None:
    """Drop the values received so far (e.g. those of an evaluation, which are not train values)."""
    with _lock:
        _pending.clear()
