"""Reading the Chrome trace that ``jax.profiler`` writes (``plugins/profile/<run>/<host>.trace.json.gz``).

XLA's CPU and GPU runtimes emit one complete event per executed HLO instruction, with ``args.hlo_module``
(``jit_<function>``), ``args.hlo_op`` and ``args.run_id`` (one id per execution of a module); the profiler's
own steps are ``ProfilerStep#<n>`` spans (from :meth:`profile.step`) on the calling thread.
"""

from __future__ import annotations

import glob
import gzip
import json
import os
from typing import Any

__all__ = ["find_traces", "load_events", "Trace"]

STEP_PREFIX = "ProfilerStep#"


def find_traces(logdir: str) -> list:
    """The ``*.trace.json.gz`` files under ``logdir/plugins/profile/*/``, oldest run first."""
    return sorted(glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.trace.json.gz")))


def load_events(path: str) -> list:
    with gzip.open(path, "rt") as f:
        data = json.load(f)
    return data.get("traceEvents", []) if isinstance(data, dict) else data


class Trace:
    """XLA op events grouped by execution (``runs``) and the profiler's step spans, times in microseconds."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.ops = []       # dicts: module, op, run, ts, dur, tid
        self.runs: dict[Any, dict[str, Any]] = {}   # run id -> {"module", "start", "end", "busy", "ops": [op dicts]}
        self.steps = []     # (step number, start, end) from ProfilerStep# spans
        self.host_spans = []  # (name, start, end): the profiler's data and callback spans
        self.thread_names = {}
        self.events = events
        for e in events:
            if e.get("ph") == "M" and e.get("name") == "thread_name":
                self.thread_names[e.get("tid")] = e.get("args", {}).get("name", "")
            if e.get("ph") != "X":
                continue
            args = e.get("args") or {}
            name = e.get("name", "")
            if name.startswith(STEP_PREFIX):
                try:
                    self.steps.append((int(name[len(STEP_PREFIX):]), float(e["ts"]), float(e["ts"]) + float(e["dur"])))
                except ValueError:
                    pass
                continue
            if name == "data" or name.startswith("callback:"):
                self.host_spans.append((name, float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0.0))))
                continue
            if "hlo_module" not in args or "hlo_op" not in args:
                continue
            op = {"module": args["hlo_module"], "op": args["hlo_op"], "run": args.get("run_id", ""),
                  "ts": float(e["ts"]), "dur": float(e.get("dur", 0.0)), "tid": e.get("tid")}
            self.ops.append(op)
            run = self.runs.get((op["module"], op["run"]))
            if run is None:
                run = self.runs[(op["module"], op["run"])] = {"module": op["module"], "start": op["ts"],
                                                              "end": op["ts"] + op["dur"], "busy": 0.0, "ops": []}
            run["start"] = min(run["start"], op["ts"])
            run["end"] = max(run["end"], op["ts"] + op["dur"])
            run["busy"] += op["dur"]
            run["ops"].append(op)
        self.steps.sort()

    def main_module(self) -> str | None:
        """The module that took the most time: the train (or eval) step."""
        busy: dict[str, float] = {}
        for run in self.runs.values():
            busy[run["module"]] = busy.get(run["module"], 0.0) + run["busy"]
        return max(busy, key=lambda m: busy[m]) if busy else None

    def step_windows(self) -> list[tuple[int, float, float]]:
        """``[(step number, start, end)]``: the profiler's step spans, else one window per execution of the main
        module, from the end of the previous one (the first: from its own start) to its end, so the host work
        that prepares a step (data, compiling, dispatch) counts to that step."""
        if self.steps:
            return list(self.steps)
        main = self.main_module()
        runs = sorted((r for r in self.runs.values() if r["module"] == main), key=lambda r: r["start"])
        out = []
        for i, run in enumerate(runs):
            start = min(runs[i - 1]["end"], run["start"]) if i else run["start"]
            out.append((i + 1, start, run["end"]))
        return out

    def runs_in(self, start: float, end: float) -> list[dict[str, Any]]:
        """Executions that ended inside ``(start, end]``."""
        return [r for r in self.runs.values() if start < r["end"] <= end]
