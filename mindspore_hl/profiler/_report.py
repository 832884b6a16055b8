"""Turning one profiling session into MindSpore-style files and a summary that insight_app reads.

Layout of a session folder (``<output_path>/<host>_<pid>_<time>_ascend_ms/``, as MindSpore names it)::

    plugins/profile/<run>/<host>.trace.json.gz, <host>.xplane.pb   as jax.profiler writes them (TensorBoard)
    FRAMEWORK/cpu_op_detail_info_0.csv, cpu_op_type_info_0.csv     MindSpore's op tables and columns
    ASCEND_PROFILER_OUTPUT/trace_view.json                         op and step spans, Chrome trace format
    profiler_summary.json                                          steps, ops, Cells, compiles, memory
"""

from __future__ import annotations

import csv
import json
import os
from typing import Any

from ._hlo import CONTAINERS, cell_of
from ._instrument import category
from ._trace import Trace, find_traces, load_events

__all__ = ["write_session", "load_summary", "SUMMARY"]

SUMMARY = "profiler_summary.json"
NO_CELL = "(no Cell)"
SINK_LOOP = "(sink loop)"
CUDA_GRAPH = "command_buffer"  # XLA:GPU's name for the CUDA graphs it runs (no instruction of the HLO text)


def _instruction(op, a):
    """The name of the HLO instruction of analysis ``a`` that an op event ran.

    On the CPU that is the event's ``hlo_op``. A GPU kernel inside a CUDA graph names the graph as its ``hlo_op``
    and its fusion in the event's name, as XLA:GPU names kernels (``.`` and ``-`` written ``_``); None for work
    of the graph that no instruction stands for (its copies)."""
    found = a["kernels"].get(op["kernel"])
    if found is not None:
        return found
    if op["op"].startswith(CUDA_GRAPH) and op["op"] not in a["instructions"]:
        return None
    return op["op"]


def _match_analysis(run, analyses):
    """The compiled step whose HLO holds every op of this execution (module names alone repeat: jit_step)."""
    for a in analyses:
        names = {_instruction(op, a) for op in run["ops"]} - {None}
        if a["module"] == run["module"] and names <= a["instructions"].keys():
            return a
    return None


def _overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


def _step_rows(trace, windows, main, compiles):
    """Per step: the main module's execution, other XLA executions, compiling (JAX tracing, lowering, XLA),
    waiting for data, checkpoint saves, summaries, other callbacks, and the rest of the host's time (dispatch)."""
    rows = []
    for n, start, end in windows:
        compiling = sum(_overlap(start, end, c0, c1) for c0, c1 in compiles)
        compiled = other = 0.0
        busy = []
        for run in trace.runs_in(start, end):
            span = run["end"] - run["start"]
            busy.append((run["start"], run["end"]))
            if run["module"] == main:
                compiled += span
            else:
                other += span
        total = end - start
        compiling = min(compiling, max(total - compiled - other, 0.0))
        row = {"step": n, "start_us": start, "total_ms": total / 1e3, "compiled_step_ms": compiled / 1e3,
               "other_xla_ms": other / 1e3, "compile_ms": compiling / 1e3, "data_ms": 0.0, "callbacks_ms": 0.0,
               "checkpoint_ms": 0.0, "summary_ms": 0.0}
        for name, s0, s1 in trace.host_spans:
            part = category(name)
            if part is None:
                continue
            s0, s1 = max(s0, start), min(s1, end)
            # only the time the device was not executing counts: a fetch that overlaps a step costs nothing
            waited = max(s1 - s0, 0.0) - sum(_overlap(s0, s1, b0, b1) for b0, b1 in busy)
            row[part] += max(waited, 0.0) / 1e3
        host = max(total / 1e3 - row["compiled_step_ms"] - row["other_xla_ms"] - row["compile_ms"], 0.0)
        named = row["data_ms"] + row["callbacks_ms"] + row["checkpoint_ms"] + row["summary_ms"]
        if named > host:   # compiling inside a span (a callback that compiles): keep the parts within the step
            for k in ("data_ms", "callbacks_ms", "checkpoint_ms", "summary_ms"):
                row[k] *= host / named
            named = host
        row["host_ms"] = host - named   # dispatch and the loop itself
        rows.append(row)
    return rows


def _wall_times(run):
    """Each op's share of its execution's wall time: the time it ran (split with ops running beside it) and the
    idle time before it started since the previous op ended (waiting for a thread: its launch latency)."""
    ops = sorted(run["ops"], key=lambda o: o["ts"])
    bounds = sorted({run["start"], run["end"]} | {o["ts"] for o in ops} | {o["ts"] + o["dur"] for o in ops})
    wall = {id(o): 0.0 for o in ops}
    pending_gap = 0.0
    for a, b in zip(bounds, bounds[1:]):
        live = [o for o in ops if o["ts"] <= a and o["ts"] + o["dur"] >= b]
        if not live:
            pending_gap += b - a
            continue
        starting = [o for o in live if o["ts"] == a]
        for o in starting or live:
            wall[id(o)] += pending_gap / len(starting or live)
        pending_gap = 0.0
        for o in live:
            wall[id(o)] += (b - a) / len(live)
    if pending_gap and ops:
        wall[id(ops[-1])] += pending_gap
    return wall


def _op_tables(trace, analyses, windows, side):
    """Per-op rows (MindSpore's cpu_op_detail_info columns and the Cell) and per-Cell totals."""
    in_window = [(s, e) for _, s, e in windows]
    detail: dict[Any, Any] = {}
    cells: dict[Any, Any] = {}
    for run in trace.runs.values():
        if in_window and not any(s < run["end"] <= e for s, e in in_window):
            continue
        a = _match_analysis(run, analyses)
        names = {id(o): (_instruction(o, a) if a else None) or o["op"] for o in run["ops"]}
        if a is not None:   # a while loop's span holds its body's ops: count those, not the loop as well
            run = dict(run, ops=[o for o in run["ops"]
                                 if a["instructions"].get(names[id(o)], ("",))[0] not in CONTAINERS])
        wall = _wall_times(run)
        for op in run["ops"]:
            name = names[id(op)]
            opcode, meta = a["instructions"].get(name, ("", "")) if a else ("", "")
            prim = meta.rsplit("/", 1)[-1] if meta else (opcode or name.split(".")[0])
            cell, backward = cell_of(meta) if meta else ("", False)
            if not cell and "/while/" in meta:
                cell = SINK_LOOP   # a sink's scan slicing the stacked batches: the loop's own work
            key = (op["module"], name)
            row = detail.get(key)
            if row is None:
                row = detail[key] = {"op_side": side, "op_type": prim,
                                     "op_name": name, "full_op_name": meta or name, "module": op["module"],
                                     "cell": cell or NO_CELL, "backward": backward, "op_occurrences": 0,
                                     "op_total_time(ms)": 0.0, "wall_time(ms)": 0.0}
            row["op_occurrences"] += 1
            row["op_total_time(ms)"] += op["dur"] / 1e3
            row["wall_time(ms)"] += wall[id(op)] / 1e3
            c = cells.setdefault(cell or NO_CELL, {"forward_ms": 0.0, "backward_ms": 0.0, "flops": 0.0,
                                                   "busy_ms": 0.0})
            c["backward_ms" if backward else "forward_ms"] += wall[id(op)] / 1e3
            c["busy_ms"] += op["dur"] / 1e3
    total = sum(r["op_total_time(ms)"] for r in detail.values()) or 1.0
    for row in detail.values():
        row["op_avg_time(ms)"] = row["op_total_time(ms)"] / row["op_occurrences"]
        row["total_proportion"] = row["op_total_time(ms)"] / total
    return sorted(detail.values(), key=lambda r: -r["op_total_time(ms)"]), cells


def _write_csvs(folder, ops, n_steps):
    fw = os.path.join(folder, "FRAMEWORK")
    os.makedirs(fw, exist_ok=True)
    cols = ["op_side", "op_type", "op_name", "full_op_name", "op_occurrences", "op_total_time(ms)",
            "op_avg_time(ms)", "total_proportion", "subgraph", "pid"]
    with open(os.path.join(fw, "cpu_op_detail_info_0.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in ops:
            w.writerow([r["op_side"], r["op_type"], r["op_name"], r["full_op_name"], r["op_occurrences"],
                        f"{r['op_total_time(ms)']:.6g}", f"{r['op_avg_time(ms)']:.6g}",
                        f"{r['total_proportion']:.6g}", r["module"], os.getpid()])
    types: dict[str, Any] = {}
    for r in ops:
        t = types.setdefault(r["op_type"], [0, 0.0])
        t[0] += r["op_occurrences"]
        t[1] += r["op_total_time(ms)"]
    total = sum(t[1] for t in types.values()) or 1.0
    with open(os.path.join(fw, "cpu_op_type_info_0.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op_type", "type_occurrences", "execution_frequency(per-step)", "total_compute_time",
                    "avg_time(ms)", "percent"])
        for name, (count, t) in sorted(types.items(), key=lambda kv: -kv[1][1]):
            w.writerow([name, count, round(count / max(n_steps, 1)), f"{t:.6g}", f"{t / count:.6g}",
                        f"{t / total:.6g}"])


def _write_trace_view(folder, trace, windows):
    out = os.path.join(folder, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    events = [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "XLA ops"}}]
    events += [{"ph": "X", "pid": 1, "tid": 0, "name": f"Step {n}", "ts": s, "dur": e - s} for n, s, e in windows]
    events += [{"ph": "X", "pid": 1, "tid": 1, "name": op["op"], "ts": op["ts"], "dur": op["dur"],
                "args": {"hlo_module": op["module"]}} for op in trace.ops]
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        json.dump(events, f)


def write_session(folder: str, collected: dict[str, Any], analyses: list[dict[str, Any]],
                  config: dict[str, Any]) -> dict[str, Any]:
    """Analyse the jax trace under ``folder`` with what was collected alongside; write the files; return the summary."""
    paths = find_traces(folder)
    if not paths:
        raise RuntimeError(f"Profiler.analyse: no jax.profiler trace (*.trace.json.gz) under '{folder}/plugins/"
                           "profile'; was the profiler started and stopped?")
    trace = Trace(load_events(paths[-1]))
    main = trace.main_module()
    windows = trace.step_windows()
    active = collected.get("active_steps")
    if active is not None:   # schedule: warm-up steps are traced but not reported
        windows = [w for w in windows if w[0] in active]
    t0_wall = collected.get("t0_wall", 0.0)
    compiles = [((c["t"] - t0_wall - c["trace_s"]) * 1e6, (c["t"] - t0_wall + c["lower_s"] + c["compile_s"]) * 1e6)
                for c in collected.get("compiles", [])]
    steps = _step_rows(trace, windows, main, compiles)
    ops, cells = _op_tables(trace, analyses, windows, "Host" if config.get("backend") == "cpu" else "Device")
    main_analysis = next((a for a in analyses if a["module"] == main), None)
    n = max(len(windows), 1)
    for a in analyses:
        if a is not main_analysis:
            continue
        for (cell, _backward), flops in a["cell_flops"].items():
            cells.setdefault(cell or NO_CELL, {"forward_ms": 0.0, "backward_ms": 0.0, "flops": 0.0,
                                               "busy_ms": 0.0})["flops"] += flops
    for c in cells.values():
        c["time_ms_per_step"] = (c["forward_ms"] + c["backward_ms"]) / n
        c["gflops_per_s"] = c["flops"] / (c["time_ms_per_step"] * 1e6) if c["time_ms_per_step"] > 0 else 0.0
    t0 = collected.get("t0", 0.0)
    memory = [{"t_us": (t - t0) * 1e6, "device_bytes": d, "host_rss_bytes": h}
              for t, d, h in collected.get("memory", [])]
    for row in steps:
        inside = [m["device_bytes"] for m in memory if row["start_us"] <= m["t_us"] < row["start_us"] +
                  row["total_ms"] * 1e3]
        row["peak_device_bytes"] = max(inside) if inside else None
    summary = {"config": config, "trace": os.path.relpath(paths[-1], folder), "main_module": main,
               "steps": steps, "ops": ops, "cells": cells, "compiles": collected.get("compiles", []),
               "memory": memory,
               "modules": [{"module": a["module"], "flops": a["flops"], "bytes_accessed": a["bytes_accessed"],
                            "memory": a["memory"], "signature": a["signature"]} for a in analyses]}
    if main_analysis is not None and steps:
        mean_compiled = sum(s["compiled_step_ms"] for s in steps) / len(steps)
        summary["step_gflops_per_s"] = main_analysis["flops"] / (mean_compiled * 1e6) if mean_compiled else 0.0
    _write_csvs(folder, ops, n)
    _write_trace_view(folder, trace, windows)
    with open(os.path.join(folder, SUMMARY), "w") as f:
        json.dump(summary, f)
    return summary


def load_summary(folder: str) -> dict:
    """The summary a session folder holds (``profiler_summary.json``)."""
    with open(os.path.join(folder, SUMMARY)) as f:
        return json.load(f)
