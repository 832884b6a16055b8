"""Host-side spans in the trace while a profile is active: data fetches and each callback's hooks.

``install()`` wraps ``DataSource.epochs`` (each batch fetch becomes a ``data`` span) and ``CallbackManager``'s
hooks (each callback's hook becomes a ``callback:<Class>.<hook>`` span); ``uninstall()`` puts the originals back.
Between the two the training code runs unchanged, so an unprofiled run pays nothing.
"""
from __future__ import annotations

import functools
from typing import Any

import jax

from ..callbacks._callback import HOOKS, CallbackManager
from ..model._data import DataSource

__all__ = ["install", "uninstall", "category"]

DATA = "data"
CALLBACK = "callback:"
_saved: dict[tuple[Any, str], Any] = {}


def _fetching(batches):
    it = iter(batches)
    while True:
        with jax.profiler.TraceAnnotation(DATA):
            try:
                columns = next(it)
            except StopIteration:
                return
        yield columns


def _epochs(original):
    @functools.wraps(original)
    def epochs(self, *args, **kwargs):
        for batches in original(self, *args, **kwargs):
            yield _fetching(batches)
    return epochs


def _hook(name):
    def call(self, run_context):
        for cb in self._callbacks:
            with jax.profiler.TraceAnnotation(f"{CALLBACK}{type(cb).__name__}.{name}"):
                getattr(cb, name)(run_context)
    call.__name__ = name
    return call


def install() -> None:
    if _saved:
        return
    _saved[(DataSource, "epochs")] = DataSource.__dict__["epochs"]
    DataSource.epochs = _epochs(DataSource.__dict__["epochs"])  # type: ignore[method-assign]  # timing wrapper
    for name in HOOKS:
        if name in CallbackManager.__dict__:
            _saved[(CallbackManager, name)] = CallbackManager.__dict__[name]
            setattr(CallbackManager, name, _hook(name))


def uninstall() -> None:
    for (cls, name), fn in _saved.items():
        setattr(cls, name, fn)
    _saved.clear()


def category(span_name: str) -> str | None:
    """The step-breakdown part of a host span, or None: data, checkpoint saves, summaries, other callbacks."""
    if span_name == DATA:
        return "data_ms"
    if span_name.startswith(CALLBACK):
        cls = span_name[len(CALLBACK):].split(".", 1)[0]
        if cls in ("ModelCheckpoint", "BackupAndRestore"):
            return "checkpoint_ms"
        if cls in ("SummaryCollector", "SummaryLandscape"):
            return "summary_ms"
        return "callbacks_ms"
    return None
