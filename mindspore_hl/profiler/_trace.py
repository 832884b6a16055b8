"""Reading the Chrome trace that ``jax.profiler`` writes (``plugins/profile/<run>/<host>.trace.json.gz``).

XLA's CPU and GPU runtimes emit one complete event per executed HLO instruction, with ``args.hlo_module``
(``jit_<function>``) and ``args.hlo_op``; the profiler's own steps are ``ProfilerStep#<n>`` spans (from
:meth:`profile.step`) on the calling thread.

On the CPU each op event carries ``args.run_id``, one id per execution of a module. A GPU's kernel events do not:
they carry the ``correlation_id`` of the host call that launched them (``cuGraphLaunch``, ``cuLaunchKernel``), and
that call lies inside the host's span of the execution (``CommonPjRtLoadedExecutable::Execute (jit_step)``), which
carries the ``run_id``. Kernels that XLA:GPU runs inside a CUDA graph name the graph (``command_buffer_1``) as
their ``hlo_op`` and the fusion itself as the event's name (``loop_add_fusion_1`` for ``loop_add_fusion.1``).
"""

from __future__ import annotations

import bisect
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


def _launching_run(executions: list, starts: list, launched: float | None, module: str) -> Any:
    """The run id of the execution of ``module`` whose host span holds the launch at ``launched`` (the latest to
    start, should spans nest); "" where none does. ``executions`` are sorted by start, ``starts`` their starts."""
    if launched is None:
        return ""
    for i in range(bisect.bisect_right(starts, launched) - 1, -1, -1):
        _, end, run, name = executions[i]
        if launched <= end and (name is None or name == module):
            return run
    return ""


class Trace:
    """XLA op events grouped by execution (``runs``) and the profiler's step spans, times in microseconds."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.ops = []       # dicts: module, op, run, ts, dur, tid
        self.runs: dict[Any, dict[str, Any]] = {}   # run id -> {"module", "start", "end", "busy", "ops": [op dicts]}
        self.steps = []     # (step number, start, end) from ProfilerStep# spans
        self.host_spans = []  # (name, start, end): the profiler's data and callback spans
        self.thread_names = {}
        self.events = events
        executions: list[tuple[float, float, Any, Any]] = []  # (start, end, run id, module) per execution (GPUs)
        launches: dict[Any, float] = {}  # correlation id -> when the host launched it (GPUs)
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
                if "run_id" in args:
                    executions.append((float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0.0)), args["run_id"],
                                       args.get("name")))
                elif "correlation_id" in args:  # the host's call, and a device copy of that id after it
                    corr = args["correlation_id"]
                    launches[corr] = min(float(e["ts"]), launches.get(corr, float("inf")))
                continue
            self.ops.append({"module": args["hlo_module"], "op": args["hlo_op"], "kernel": name,
                             "run": args.get("run_id"), "correlation": args.get("correlation_id"),
                             "ts": float(e["ts"]), "dur": float(e.get("dur", 0.0)), "tid": e.get("tid")})
        executions.sort()
        starts = [x[0] for x in executions]
        for op in self.ops:
            if op["run"] is None:
                op["run"] = _launching_run(executions, starts, launches.get(op["correlation"]), op["module"])
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
