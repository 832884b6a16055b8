"""What the profiler collects besides XLA's trace, only while a profile is active.

* compile events, from JAX's own compile log (its DEBUG records are switched on for the profile only): the
  function, its input signature (avals), and the tracing / lowering / XLA compile times;
* memory samples (``profile_memory``): bytes held by live device arrays and the process's resident memory,
  taken by a background thread every ``interval`` seconds;
* the compiled steps of ``Model``'s step runners, to map XLA's ops back to the Cells that emitted them.
"""
from __future__ import annotations

import logging
import os
import re
import threading
import time
from typing import Any

import jax

from .._engine import _state

__all__ = ["CompileLog", "MemorySampler", "compiled_steps"]

_LOGGERS = ("jax._src.interpreters.pxla", "jax._src.dispatch")
_FINISHED = re.compile(r"Finished (tracing|jaxpr to MLIR module conversion|XLA compilation)(?: of)? (\S+)"
                       r"(?: for jit)? in ([0-9.eE+-]+) sec")
_PHASE = {"tracing": "trace_s", "jaxpr to MLIR module conversion": "lower_s", "XLA compilation": "compile_s"}


def _fn_name(name: str) -> str:
    """``jit(step)`` / ``jit_step`` -> ``step``."""
    if name.startswith("jit(") and name.endswith(")"):
        return name[4:-1]
    return name[4:] if name.startswith("jit_") else name


def _aval(a) -> str:
    return a.str_short() if hasattr(a, "str_short") else str(a)


class CompileLog(logging.Handler):
    """Collects JAX's compile records while attached (``attach`` / ``detach``)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.events = []      # {"function", "signature": [str], "t", "trace_s", "lower_s", "compile_s"}
        self._saved = []
        self._pending_trace = {}

    def attach(self) -> None:
        for name in _LOGGERS:
            lg = logging.getLogger(name)
            self._saved.append((lg, lg.level, lg.propagate))
            lg.setLevel(logging.DEBUG)
            lg.propagate = False  # JAX's DEBUG chatter goes to the profile, not to the user's console
            lg.addHandler(self)

    def detach(self) -> None:
        for lg, level, propagate in self._saved:
            lg.removeHandler(self)
            lg.setLevel(level)
            lg.propagate = propagate
        self._saved = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            msg = record.msg
            if isinstance(msg, str) and msg.startswith("Compiling %s with global shapes"):
                args: Any = record.args   # (function name, avals) for this message
                name, avals = args[0], args[1]
                fn = _fn_name(name)
                self.events.append({"function": fn, "signature": [_aval(a) for a in avals], "t": record.created,
                                    "trace_s": self._pending_trace.pop(fn, 0.0), "lower_s": 0.0,
                                    "compile_s": 0.0})
                return
            m = _FINISHED.match(record.getMessage())
            if m is None:
                return
            phase, fn, secs = _PHASE[m.group(1)], m.group(2), float(m.group(3))
            fn = _fn_name(fn)
            if phase == "trace_s":  # tracing finishes before the "Compiling" record of the same function
                self._pending_trace[fn] = self._pending_trace.get(fn, 0.0) + secs
                return
            for ev in reversed(self.events):
                if ev["function"] == fn:
                    ev[phase] += secs
                    break
        except Exception:  # a logging handler must never break the program it observes
            self.handleError(record)

    def report(self) -> list[dict[str, Any]]:
        """The compiles, each with ``recompile_of`` (the previous signature of the same function) when the
        same function was compiled before with as many inputs but other shapes or dtypes."""
        last: dict[Any, Any] = {}
        out = []
        for ev in self.events:
            ev = dict(ev)
            prev = last.get(ev["function"])
            if prev is not None and len(prev) == len(ev["signature"]) and prev != ev["signature"]:
                ev["recompile_of"] = prev
                ev["changed"] = [{"arg": i, "before": a, "after": b}
                                 for i, (a, b) in enumerate(zip(prev, ev["signature"])) if a != b]
            last[ev["function"]] = ev["signature"]
            out.append(ev)
        return out


def _rss_bytes():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


class MemorySampler:
    """Samples live device-array bytes and host RSS on a background thread, with ``time.perf_counter`` stamps."""

    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.samples: list[tuple[float, int, int]] = []   # (t, device_bytes, host_rss_bytes)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sample(self) -> None:
        try:
            dev = sum(a.nbytes for a in jax.live_arrays() if not a.is_deleted())
        except Exception:  # arrays freed or donated while being summed: skip this sample
            return
        self.samples.append((time.perf_counter(), dev, _rss_bytes()))

    def _run(self):
        while not self._stop.wait(self.interval):
            self.sample()

    def start(self) -> None:
        self.sample()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="mindspore_hl-profiler-memory", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        self.sample()


def compiled_steps() -> list[tuple[Any, tuple, Any, list[jax.ShapeDtypeStruct]]]:
    """``[(runner, key, columns_avals)]`` for every compiled step of Model's step runners still alive."""
    out = []
    for obj in list(_state.compiled):
        cache = getattr(obj, "_cache", None)
        if not isinstance(cache, dict) or not hasattr(obj, "_pure_step"):
            continue
        for key, entry in list(cache.items()):
            if not (isinstance(key, tuple) and len(key) >= 2 and hasattr(entry, "lower")):
                continue
            cols = [jax.ShapeDtypeStruct(s, d) for s, d in key[2:]]
            out.append((obj, key, entry, cols))
    return out
