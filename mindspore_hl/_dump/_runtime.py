"""Synchronous dump of compiled steps: every op's inputs and outputs, as MindSpore's ``MINDSPORE_DUMP_CONFIG``.

While the outermost compiled step (a GRAPH_MODE Cell call, ``jit``, a Model step) is traced with dump on, an
op observer (``_engine._state.trace.op_observer``) sees each op call: it names the op as MindSpore's kernel
(``Default/fc-Dense/Dense-op0``: the Cells' attribute paths and classes from the top-level Cell down, then the
MindSpore primitive name) and adds ``jax.debug.callback``s with ordered effects to the program, which hand the
values the op received and produced to the host on every execution. One execution of a step is one iteration;
``jax.effects_barrier()`` after each call makes the files complete when the call returns.

Layout (MindSpore 2.10's synchronous dump)::

    {path}/rank_{rank}/.dump_metadata/{data_dump.json, config.json}
    {path}/rank_{rank}/execution_order/ms_execution_order_graph_{graph}.csv, ms_global_execution_order_graph_{graph}.csv
    {path}/rank_{rank}/{net_name}/{graph}/{iteration}/{op_type}.{op_name}.0.0.{timestamp}.{input|output}.{slot}.DefaultFormat.{dtype}.npy
    {path}/rank_{rank}/{net_name}/{graph}/{iteration}/Parameter.{name}.0.0.{timestamp}.output.0.DefaultFormat.{dtype}.npy

What differs from MindSpore because this backend is not MindSpore's: an op is one of this package's functional
ops (``nn.Dense`` is one ``Dense`` kernel, where MindSpore runs ``MatMul`` and ``BiasAdd``); only Tensor and
array arguments are dumped as inputs (Python scalars such as ``transpose_b`` are not); ops inside another op
are not dumped separately; the backward pass that ``grad`` derives is not made of ops, so gradients are not
dumped (the forward ops are, and optimizer updates written with ops). PYNATIVE_MODE ops run eagerly are not
dumped, as in MindSpore 2.10 (whose dynamic-graph dump moved to the msprobe tool); ``jit`` functions called
from it are. An op in a loop body (``while`` in a construct) writes its files once per loop trip, all in the
iteration's directory. A step run on several devices (a parallel mode) is refused with NotImplementedError.
With the variable unset nothing is added: the compiled program is the one built without dump.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import json
import logging
import os
import sys
import time
from typing import Any, Sequence

import jax
import numpy as np

from .._engine import _state
from .._engine._cache import _rank
from ..common._primitive_names import primitive_name
from ..common.tensor import Tensor
from ._config import ENV, DumpConfig, parse

__all__ = ["current", "key", "trace_step", "sync", "dtype_name"]

_DTYPE_NAMES = {"float16": "Float16", "bfloat16": "BFloat16", "float32": "Float32", "float64": "Float64",
                "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
                "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "bool": "Bool",
                "complex64": "Complex64", "complex128": "Complex128"}


def dtype_name(dtype: Any) -> str:
    """MindSpore's name of a dtype in dump file names (``float32`` -> ``Float32``, ``bool`` -> ``Bool``)."""
    name = np.dtype(dtype).name
    return _DTYPE_NAMES.get(name, name[:1].upper() + name[1:])


class _Session:
    """Process-wide dump state for the configuration now named by the environment variable."""

    def __init__(self) -> None:
        self.env: str | None = None       # the variable's value last read (None: unset)
        self.stamp: tuple[int, int] | None = None  # (mtime, size) of the file it named
        self.config: DumpConfig | None = None
        self.key: tuple[Any, ...] = ()     # added to compiled-step cache keys while dump is on
        self.generation = 0
        self.start()

    def start(self) -> None:
        self.iteration = -1                  # the iteration now running (each step execution adds one)
        self.graphs: dict[int, int] = {}     # traced step -> graph id (in the order they first run)
        self.runs: dict[int, list[int]] = {}  # graph id -> the iterations it ran
        self.directory: str | None = None    # where the running iteration's files go (None: not dumped)
        self.metadata = False


_S = _Session()
_TOKENS = itertools.count()
_log = logging.getLogger(__name__)


def _clear() -> None:
    """Forget the configuration read (``_state.reset``): the next step reads the variable again."""
    _S.env, _S.config, _S.key, _S.stamp = None, None, (), None
    _S.start()


_state.on_reset(_clear)


def _stamp(file: str) -> tuple[int, int] | None:
    try:
        st = os.stat(file)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def current() -> DumpConfig | None:
    """The dump configuration in force, or None. ``MINDSPORE_DUMP_CONFIG`` is read again when it or the file
    it names changed (MindSpore reads it once per process; a later change then applies to steps compiled after)."""
    env = os.environ.get(ENV) or None
    if env != _S.env or (env is not None and _stamp(env) != _S.stamp):
        stamp = _stamp(env) if env else None
        config = parse(env) if env else None  # (a bad file raises, and is read again at the next step)
        _S.env, _S.config, _S.stamp = env, config, stamp
        _S.generation += 1
        _S.key = () if config is None else (("dump", _S.generation),)
        _S.start()
    return _S.config


def key() -> tuple[Any, ...]:
    """What compiled-step caches add to their keys: ``()`` with dump off (keys as without dump)."""
    current()
    return _S.key


def sync() -> None:
    """After a step's call: wait for its dump files (no-op with dump off or while an outer step is traced)."""
    if _S.config is not None and _state.trace.compiling == 0:
        jax.effects_barrier()


def trace_step(params: Sequence[Any], state: Sequence[Any], arrays: Sequence[Any]) -> Any:
    """Context for tracing the outermost step: with dump on, the op observer that adds the dump callbacks."""
    config = current()
    if config is None or _state.trace.op_observer is not None:  # (an exporter is recording)
        return contextlib.nullcontext()
    mesh = getattr(_state.trace.plan, "mesh", None)
    if mesh is not None and mesh.size > 1:
        # Ordered host callbacks (what keeps an iteration's files together and in order) need a single device.
        raise NotImplementedError(f"Dump ({ENV}={config.file}) of a step run on {mesh.size} devices (a parallel "
                                  f"mode) is not supported by mindspore_hl; unset {ENV} or run in STAND_ALONE mode.")
    return _StepTrace(config, params, state, arrays)


# --- host side: runs during execution, in program order --------------------------------------------------------

def _rank_dir(config: DumpConfig) -> str:
    return os.path.join(config.path, f"rank_{_rank()}")


def _write_text(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _begin(config: DumpConfig, token: int, order: list[str]) -> None:
    """A step execution starts: the next iteration, and the graph's execution order files."""
    try:
        _start_iteration(config, token, order)
    except OSError as e:  # as MindSpore: the error is logged, and the step runs on without dump files
        _S.directory = None
        _log.error("Dump: cannot write under '%s' (dump path of %s): %s", config.path, config.file, e)


def _start_iteration(config: DumpConfig, token: int, order: list[str]) -> None:
    root = _rank_dir(config)
    if not _S.metadata:
        _S.metadata = True
        meta = os.path.join(root, ".dump_metadata")
        _write_text(os.path.join(meta, "data_dump.json"), config.text)
        device = _state.context.get("device_target", "CPU")
        _write_text(os.path.join(meta, "config.json"), json.dumps({"device_target": device,
                                                                    "ms_version": "2.10.0"}))
    _S.iteration += 1
    graph = _S.graphs.get(token)
    if graph is None:
        graph = _S.graphs[token] = len(_S.graphs)
        _write_text(os.path.join(root, "execution_order", f"ms_execution_order_graph_{graph}.csv"),
                    "NodeExecutionOrder-FullNameWithScope\n" + "".join(name + "\n" for name in order))
    runs = _S.runs.setdefault(graph, [])
    runs.append(_S.iteration)
    _write_text(os.path.join(root, "execution_order", f"ms_global_execution_order_graph_{graph}.csv"),
                "".join(f"{i}\n" for i in runs))
    if config.dumps_iteration(_S.iteration):
        _S.directory = os.path.join(root, config.net_name, str(graph), str(_S.iteration))
        os.makedirs(_S.directory, exist_ok=True)
    else:
        _S.directory = None


def _save(stem: str, io: str, slot: int, value: Any) -> None:
    value = np.asarray(value)
    name = f"{stem}.0.0.{time.time_ns() // 1000}.{io}.{slot}.DefaultFormat.{dtype_name(value.dtype)}.npy"
    with open(os.path.join(_S.directory, name), "wb") as f:  # type: ignore[arg-type]
        np.save(f, value)


def _write_op(stem: str, n_inputs: int, *values: Any) -> None:
    files = [(stem, "input", slot, v) for slot, v in enumerate(values[:n_inputs])]
    _write(files + [(stem, "output", slot, v) for slot, v in enumerate(values[n_inputs:])])


def _write_parameters(names: tuple[str, ...], *values: Any) -> None:
    _write([(f"Parameter.{name}", "output", 0, value) for name, value in zip(names, values)])


def _write(files: list[tuple[str, str, int, Any]]) -> None:
    if _S.directory is None:
        return
    try:
        for file in files:
            _save(*file)
    except OSError as e:
        _log.error("Dump: cannot write in '%s': %s", _S.directory, e)


# --- trace side -------------------------------------------------------------------------------------------------

def _arrays(values: Any, out: list[Any]) -> list[Any]:
    """The Tensors / arrays in ``values`` (lists and tuples looked into), in order."""
    for v in values:
        if isinstance(v, Tensor):
            out.append(v._value)
        elif isinstance(v, (jax.Array, np.ndarray)):
            out.append(v)
        elif type(v) in (list, tuple):
            _arrays(v, out)
    return out


def _is_cell(obj: Any) -> bool:
    return hasattr(obj, "_cells") and hasattr(obj, "construct")


def _is_primitive(obj: Any) -> bool:
    return hasattr(obj, "add_prim_attr") and isinstance(getattr(obj, "attrs", None), dict)


class _StepTrace:
    """The op observer of one traced step (also the context that installs it)."""

    def __init__(self, config: DumpConfig, params: Sequence[Any], state: Sequence[Any],
                 arrays: Sequence[Any]) -> None:
        self.config, self.params, self.state, self.arrays = config, tuple(params), tuple(state), tuple(arrays)
        self.token = next(_TOKENS)
        self.order: list[str] = []             # every kernel's full name, in program order
        self.counts: dict[tuple[str, str], int] = {}
        self.depth = 0
        self.top: Any = None                   # the outermost Cell seen (its construct names the inputs)
        self.saved: Any = None

    def __enter__(self) -> _StepTrace:
        jax.debug.callback(functools.partial(_begin, self.config, self.token, self.order), ordered=True)
        self.saved = _state.trace.op_observer
        _state.trace.op_observer = self
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        _state.trace.op_observer = self.saved
        if kind is not None or self.config.dump_mode != 0 or not self.config.dumps_outputs:
            return
        # As MindSpore, after the step: the Parameters' new values (the step's scope holds them), then the inputs.
        scope = _state.trace.scopes[-1]
        values = [scope.values.get(id(p), v) for p, v in zip(self.params, self.state)] + list(self.arrays)
        names = [getattr(p, "name", f"param_{i}").replace(".", "_") for i, p in enumerate(self.params)]
        names += self._input_names()
        jax.debug.callback(functools.partial(_write_parameters, tuple(names)), *values, ordered=True)

    def _input_names(self) -> list[str]:
        """The step inputs' names: the top Cell's ``construct`` parameters (``*inputs`` gives inputs0, inputs1...)."""
        n = len(self.arrays)
        names: list[str] = []
        try:
            sig = inspect.signature(self.top.construct) if self.top is not None else None
        except (TypeError, ValueError):
            sig = None
        for p in sig.parameters.values() if sig is not None else ():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
            elif p.kind == p.VAR_POSITIONAL:
                names += [f"{p.name}{i}" for i in range(n - len(names))]
        return names[:n] if len(names) >= n else [f"input_{i}" for i in range(n)]

    def __call__(self, name: str, call: Any, args: tuple, kwargs: dict) -> Any:
        if self.depth:  # an op inside another op: the outer one is the kernel
            return call(*args, **kwargs)
        self.depth += 1
        try:
            out = call(*args, **kwargs)
        finally:
            self.depth -= 1
        self._record(name, args, kwargs, out)
        return out

    def _scope(self) -> tuple[list[Any], Any]:
        """The Cells running this op (innermost first) and the Primitive it was called through, if any."""
        cells: list[Any] = []
        prim = None
        frame: Any = sys._getframe(3)
        while frame is not None:
            code = frame.f_code.co_name
            if code == "_run" or (code == "__call__" and not cells and prim is None):
                obj = frame.f_locals.get("self")
                if code == "_run" and _is_cell(obj):
                    if not cells or cells[-1] is not obj:
                        cells.append(obj)
                elif code == "__call__" and _is_primitive(obj):
                    prim = obj
            frame = frame.f_back
        return cells, prim

    def _record(self, name: str, args: tuple, kwargs: dict, out: Any) -> None:
        cells, prim = self._scope()
        if cells:
            self.top = cells[-1]
        scope = "/".join(["Default"] + [f"{c.__dict__.get('_scope_name') or type(c).__name__}-{type(c).__name__}"
                                        for c in reversed(cells[:-1])])
        op_type = prim.name if prim is not None else primitive_name(name)
        n = self.counts.get((scope, op_type), 0)
        self.counts[(scope, op_type)] = n + 1
        full = f"{scope}/{op_type}-op{n}"
        self.order.append(full)
        config = self.config
        if config.op_debug_mode == 4:  # exception dump: no op data on this backend (nor on MindSpore's CPU)
            return
        if config.dump_mode == 1:
            if not config.dumps_kernel(full):
                return
        elif config.dump_mode == 2:
            marked = bool(cells) and cells[0].__dict__.get("_flags", {}).get("dump") is True
            if not marked and not (prim is not None and prim.attrs.get("dump") == "true"):
                return
        inputs = _arrays(list(args) + list(kwargs.values()), []) if config.dumps_inputs else []
        outputs = _arrays(out if type(out) in (list, tuple) else [out], []) if config.dumps_outputs else []
        if inputs or outputs:
            stem = f"{op_type}.{full.replace('/', '_')}"
            jax.debug.callback(functools.partial(_write_op, stem, len(inputs)), *inputs, *outputs, ordered=True)
