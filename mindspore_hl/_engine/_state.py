"""Every piece of mindspore_hl's global state, in one module, and :func:`reset` to bring it back to the start.

Two kinds of state live here:

- **Tracing state**, per thread (``trace``): the stack of StatelessScopes, the parallel plan of the step
  being traced, and how deep the thread is inside an eager parallel step. Two threads tracing at once never
  see each other's scopes.
- **Settings**, per process (MindSpore's context is process-wide, and a dataset worker thread must see the
  seed and mode the user set): ``set_context`` values, the auto-parallel context, the seed and the eager
  random key stream, the device plug-in's op overrides, device meshes, and the compiled functions whose
  caches a context change clears.

The modules that own each setting (``context``, ``common.seed``, the parallel context) keep reading and
writing these objects in place, so ``reset()`` restores all of them at once, as ``tests/conftest.py`` does
around every test.
"""
import threading
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["trace", "context", "parallel", "runtime", "rng", "op_overrides", "meshes", "compiled", "phases",
           "on_reset", "reset"]


class _Trace(threading.local):
    """Per-thread tracing state (each thread starts with an empty scope stack)."""

    def __init__(self):
        self.scopes = []        # StatelessScope stack, innermost last
        self.plan = None        # the parallel Plan whose step is being traced (Cell.shard constraints read it)
        self.step_depth = 0     # > 0 while an eager top-level step runs on a device mesh (PYNATIVE parallel)
        self.compiling = 0      # > 0 while a compiled step is being traced (static-graph syntax applies)
        self.op_observer = None  # sees every op call while an exporter records a network (MindIR export)
        # While the outermost compiled step is traced: {id(input tracer): input position}, and the checks ops
        # ask to run on the host on those inputs before each call (see _step.make_pure / Entry.input_checks).
        self.step_inputs: dict[int, int] | None = None
        self.input_checks: list[tuple[int, Callable[[Any], None]]] | None = None


class _Rng:
    """The global seed, the eager random key stream and the host generator of the initializers."""
    __slots__ = ("seed", "key", "np_rng")

    def __init__(self):
        self.seed = self.key = self.np_rng = None


trace = _Trace()
context: dict[str, Any] = {}   # set_context / get_context values (mindspore_hl.context fills the defaults)
parallel: dict[str, Any] = {}  # set_auto_parallel_context values (the parallel context fills the defaults)
runtime: dict[str, Any] = {}  # runtime settings: "launch_blocking" (eager ops wait), "cpu_affinity" (set once)
rng = _Rng()
op_overrides: dict[str, Callable[..., Any]] = {}  # {op name: array function} of the device plug-in in use
meshes: dict[tuple[Any, int], Any] = {}  # (device ids, model axis size) -> jax.sharding.Mesh
compiled: weakref.WeakSet[Any] = weakref.WeakSet()  # compiled functions whose caches depend on the parallel context
# {phase name: weak reference to its Cell}: the compiled Cell calls and Model steps flops_collection counts
phases: dict[str, weakref.ref[Any]] = {}
_hooks: list[Callable[[], Any]] = []


def on_reset(fn: Callable[[], Any]) -> Callable[[], Any]:
    """Register ``fn()`` to restore one module's defaults in :func:`reset` (used by the owners of settings)."""
    _hooks.append(fn)
    return fn


def reset() -> None:
    """Restore every global setting to its default and drop this thread's tracing state.

    Example:
        >>> from mindspore_hl._engine import _state
        >>> _state.reset()
    """
    trace.scopes.clear()
    trace.plan = None
    trace.step_depth = 0
    trace.compiling = 0
    trace.op_observer = None
    trace.step_inputs = trace.input_checks = None
    rng.seed = rng.key = rng.np_rng = None
    op_overrides.clear()
    meshes.clear()
    runtime.clear()
    phases.clear()
    for fn in _hooks:
        fn()
    for cf in list(compiled):
        cf.clear_cache()
