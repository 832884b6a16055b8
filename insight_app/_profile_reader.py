"""Profiles written by ``mindspore_hl.profiler`` (``Profiler.analyse()``): found under the log root, read, checked.

A session is a folder holding ``profiler_summary.json`` (steps, ops, Cells, compiles, memory) and
``ASCEND_PROFILER_OUTPUT/trace_view.json`` (op spans, for one step's timeline). Sessions are named by their path
relative to the log root; reads are cached by file modification time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

SUMMARY = "profiler_summary.json"
TRACE_VIEW = os.path.join("ASCEND_PROFILER_OUTPUT", "trace_view.json")
MAX_TIMELINE_OPS = 3000      # op spans sent for one step's timeline
MAX_OP_ROWS = 2000           # rows of the operation table
_KEYS = {"steps": list, "ops": list, "cells": dict, "compiles": list, "memory": list}
_cache: dict = {}


class ProfileError(ValueError):
    """A profile file that is not what mindspore_hl.profiler writes."""


def find_sessions(root: str | os.PathLike[str]) -> list[str]:
    """Session folders under ``root`` (relative paths, sorted), symlinks not followed out of it."""
    root = Path(root).resolve()
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "plugins"]   # jax's raw traces: nothing of ours below
        if SUMMARY in filenames:
            out.append(os.path.relpath(dirpath, root))
    return sorted(out)


def _read_json(path: Path):
    key = (str(path), path.stat().st_mtime_ns, path.stat().st_size)
    hit = _cache.get(str(path))
    if hit is not None and hit[0] == key:
        return hit[1]
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            raise ProfileError(f"{path.name}: not valid JSON ({e})") from None
    _cache[str(path)] = (key, data)
    return data


def load_summary(folder: Path) -> dict:
    """The session's summary, checked: each of steps/ops/cells/compiles/memory present with the right type."""
    data = _read_json(folder / SUMMARY)
    if not isinstance(data, dict):
        raise ProfileError(f"{SUMMARY}: expected a JSON object, got {type(data).__name__}")
    for key, typ in _KEYS.items():
        if not isinstance(data.get(key), typ):
            raise ProfileError(f"{SUMMARY}: '{key}' should be a {typ.__name__}, got "
                               f"{type(data.get(key)).__name__}")
    return data


STEP_PARTS = (("Compiled step", "compiled_step_ms"), ("Other XLA", "other_xla_ms"), ("Compiling", "compile_ms"),
              ("Waiting for data", "data_ms"), ("Checkpoint saves", "checkpoint_ms"), ("Summaries", "summary_ms"),
              ("Callbacks", "callbacks_ms"), ("Host (dispatch, loop)", "host_ms"))


def step_bars(summary: dict) -> dict:
    """Per-step stacked parts (ms), named as on the page (see ``STEP_PARTS``); parts a profile lacks are 0."""
    steps = summary["steps"]
    out = {"step": [s["step"] for s in steps]}
    for label, key in STEP_PARTS:
        out[label] = [float(s.get(key, 0.0) or 0.0) for s in steps]
    return out


def op_rows(summary: dict) -> list[dict]:
    """The operation table's rows (MindSpore's op columns, the Cell and the pass)."""
    rows = []
    for r in summary["ops"][:MAX_OP_ROWS]:
        rows.append({"op_name": r["op_name"], "op_type": r["op_type"], "cell": r["cell"],
                     "pass": "backward" if r["backward"] else "forward", "occurrences": r["op_occurrences"],
                     "total_ms": round(r["op_total_time(ms)"], 4), "avg_ms": round(r["op_avg_time(ms)"], 4),
                     "wall_ms": round(r.get("wall_time(ms)", 0.0), 4),
                     "percent": round(100 * r["total_proportion"], 2)})
    return rows


def cell_tree(summary: dict) -> dict:
    """``{path: {"self_ms", "total_ms", "flops", "children": [paths]}}``; totals include the Cell's sub-Cells."""
    n = max(len(summary["steps"]), 1)
    nodes: dict = {}

    def node(path):
        if path not in nodes:
            nodes[path] = {"self_ms": 0.0, "total_ms": 0.0, "flops": 0.0, "children": []}
            if path:
                parent = path.rsplit(".", 1)[0] if "." in path else ""
                node(parent)["children"].append(path)
        return nodes[path]

    node("")
    for path, c in summary["cells"].items():
        ms = (c["forward_ms"] + c["backward_ms"]) / n
        me = node(path)
        me["self_ms"] += ms
        me["flops"] += c.get("flops", 0.0)
        p = path
        while True:
            nodes[p]["total_ms"] += ms
            if not p:
                break
            p = p.rsplit(".", 1)[0] if "." in p else ""
    for v in nodes.values():
        v["children"].sort(key=lambda k: -nodes[k]["total_ms"])
    return nodes


def timeline(folder: Path, summary: dict, step: int) -> list[dict]:
    """The op spans of one step (``ts`` relative to the step's start, µs), at most MAX_TIMELINE_OPS."""
    row = next((s for s in summary["steps"] if s["step"] == step), None)
    if row is None:
        return []
    start, end = row["start_us"], row["start_us"] + row["total_ms"] * 1e3
    events = _read_json(folder / TRACE_VIEW)
    if not isinstance(events, list):
        raise ProfileError(f"{TRACE_VIEW}: expected a list of trace events")
    out = [{"name": e["name"], "ts": e["ts"] - start, "dur": e.get("dur", 0.0)}
           for e in events if e.get("ph") == "X" and e.get("tid") == 1 and start <= e.get("ts", -1) < end]
    return out[:MAX_TIMELINE_OPS]


def memory_curve(summary: dict) -> dict:
    mem = summary["memory"]
    return {"t_ms": [m["t_us"] / 1e3 for m in mem], "device_mb": [m["device_bytes"] / 2 ** 20 for m in mem],
            "host_mb": [m["host_rss_bytes"] / 2 ** 20 for m in mem]}
