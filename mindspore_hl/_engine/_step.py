"""The compiled step every path shares: a pure function of (state, rng, inputs), its cache key, its executable.

``make_pure(fn, params)`` runs ``fn`` under a StatelessScope mapping each state Parameter to its array and
returns ``(outputs, new_state, new_rng)``. :func:`build` compiles it (``jax.jit`` with the engine's compiler
options; in a parallel mode with the shardings of a ``_plan.Plan``), and :class:`Entry` calls the
executable: it places state and inputs for the plan, runs small steps asynchronously and big ones inline
(``_host_memory``), and turns failures into messages that name the user's line. ``CompiledFunction``
(state read from and written back to the Parameters on every call) and ``StepRunner`` (state held between
calls, sink mode) differ only in where the state lives.
"""
from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import jax
import numpy as np

from .. import _dump, _host_memory
from ..common.tensor import Tensor, copy_array, wrap
from . import _options, _plan, _scope, _state

__all__ = ["signature", "split_args", "make_pure", "register_input_check", "build", "Entry", "explain", "unshare"]

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _is_array(x):
    return isinstance(x, (Tensor, jax.Array, np.ndarray))


def _as_array(x):
    if isinstance(x, Tensor):
        return x._value
    return x


def signature(args: Sequence[Any]) -> tuple[Any, ...]:
    """Hashable cache key: (shape, dtype) for arrays, the value itself for static Python arguments."""
    key: list[Any] = []
    for a in args:
        if _is_array(a):
            v = _as_array(a)
            sharding = getattr(v, "sharding", None) if isinstance(v, jax.Array) else None
            key.append((tuple(v.shape), str(v.dtype), sharding))
        elif isinstance(a, (list, tuple)) and a and all(_is_array(x) for x in a):
            key.append(("seq", type(a).__name__, signature(a)))
        else:
            try:
                hash(a)
            except TypeError:
                raise TypeError(f"Compiled functions take Tensors and hashable Python values as arguments; "
                                f"got an unhashable {type(a).__name__}. Wrap array data in a Tensor.") from None
            key.append(("static", a))
    return tuple(key)


def split_args(args: Sequence[Any]) -> tuple[list[Any], Callable[[Sequence[Any]], list[Any]]]:
    """(dynamic arrays, a rebuild function) for a call's positional arguments."""
    dyn: list[Any] = []
    spec: list[tuple[Any, ...]] = []
    for a in args:
        if _is_array(a):
            spec.append(("a", len(dyn)))
            dyn.append(_as_array(a))
        elif isinstance(a, (list, tuple)) and a and all(_is_array(x) for x in a):
            spec.append(("s", type(a), len(dyn), len(a)))
            dyn.extend(_as_array(x) for x in a)
        else:
            spec.append(("c", a))

    def rebuild(arrays):
        out = []
        for s in spec:
            if s[0] == "a":
                out.append(wrap(arrays[s[1]]))
            elif s[0] == "s":
                out.append(s[1](wrap(arrays[s[2]:s[2] + s[3]])))
            else:
                out.append(s[1])
        return out

    return dyn, rebuild


InputCheck = tuple[int, Callable[[np.ndarray], None]]  # (step input position, check(host array))


class PureStep(Protocol):
    """What :func:`make_pure` returns: the pure step, and the host checks its last outermost trace registered."""
    input_checks: list[InputCheck]

    def __call__(self, state: Any, rng: Any, arrays: Sequence[Any],
                 rebuild: Callable[..., Any]) -> tuple[Any, Any, Any]: ...


def register_input_check(value: Any, check: Callable[[np.ndarray], None]) -> bool:
    """Ask for ``check(host array)`` to run before each call of the step being traced, on the step input that
    ``value`` (a tracer) is; False when ``value`` is not one of the outermost step's inputs.

    An op that must reject some input values (class labels out of range) registers a host check instead of
    putting a host callback in the executable: the check runs on the NumPy/host input before the step, so a bad
    batch is refused before any Parameter changes, and the executable stays free of callbacks, which JAX's
    persistent compile cache cannot store.
    """
    trace = _state.trace
    position = trace.step_inputs.get(id(value)) if trace.step_inputs is not None else None
    if position is None or trace.input_checks is None:
        return False
    trace.input_checks.append((position, check))
    return True


_NO_DUMP = contextlib.nullcontext()


def make_pure(fn: Callable[..., Any], params: Sequence[Any]) -> PureStep:
    """``pure(state, rng, arrays, rebuild) -> (outputs, new_state, new_rng)`` for ``fn`` over ``params``.

    ``pure.input_checks`` holds the host checks the ops registered (:func:`register_input_check`) at its last
    trace as the outermost step, as ``(input position, check)`` pairs.
    """
    params = tuple(params)
    ids = {id(p) for p in params}
    input_checks: list[InputCheck] = []  # pure.input_checks

    def pure(state, rng, arrays, rebuild):
        trace = _state.trace
        outer = trace.compiling == 0
        saved = trace.step_inputs, trace.input_checks
        # Only the outermost step's inputs reach the host before a call; nested steps keep in-graph checks.
        trace.step_inputs = {id(a): i for i, a in enumerate(arrays)} if outer else None
        checks: list[InputCheck] = []
        trace.input_checks = checks
        trace.compiling += 1  # nested Cells trace their construct through the static-graph syntax hook
        try:
            with _scope.StatelessScope(params, state, rng=rng) as scope, \
                    (_dump.trace_step(params, state, arrays) if outer else _NO_DUMP):  # MINDSPORE_DUMP_CONFIG
                out = fn(*rebuild(arrays))
                new_state = tuple(scope.values[id(p)] for p in params)
                extra = [p for p, _ in scope.updates() if id(p) not in ids]
        finally:
            trace.compiling -= 1
            trace.step_inputs, trace.input_checks = saved
        if outer:
            input_checks[:] = checks
        if extra:
            names = ", ".join(getattr(p, "name", "?") for p in extra[:5])
            raise RuntimeError(f"A compiled function assigned Parameters that are not part of its state ({names}). "
                               f"Make them attributes of the Cell being run.")
        return out, new_state, scope.rng

    step: Any = pure  # (a function object takes the attribute; PureStep says so to the type checker)
    step.input_checks = input_checks
    return step


def unshare(params: Sequence[Any], state: tuple[Any, ...]) -> tuple[Any, ...]:
    """Copy buffers shared by several Parameters (tied weights), since one buffer cannot be donated twice."""
    if len({id(v) for v in state}) == len(state):
        return state
    seen, out = set(), []
    for p, v in zip(params, state):
        if id(v) in seen:
            v = p._data = copy_array(v)
        seen.add(id(v))
        out.append(v)
    return tuple(out)


def _scan(step):
    """Several steps as one call: a ``lax.scan`` of ``step`` over batches stacked along a leading axis."""
    def scan(state, rng, stacked):
        def body(carry, arrays):
            out, new_state, new_rng = step(carry[0], carry[1], arrays)
            return (new_state, new_rng), out
        (state, rng), outs = jax.lax.scan(body, (state, rng), stacked)
        return outs, state, rng

    return scan


def build(name: str, step: Callable[..., Any], params: Sequence[Any], arrays: Sequence[Any], donate: bool = True,
          sink: bool = False, top_level: bool = True, input_checks: list[Any] | None = None) -> Entry:
    """Compile ``step(state, rng, arrays)`` (a scan of it over stacked batches when ``sink``) for these inputs.

    In a parallel mode the executable gets the shardings of :func:`_plan.plan_step`; else it is a plain
    ``jax.jit`` with the engine's compiler options. ``input_checks``: the step's ``pure.input_checks`` (filled
    when it is traced). Returns an :class:`Entry`.
    """
    plan = _plan.plan_step(name, params, arrays, step, top_level=top_level, stacked=sink)
    fn = _scan(step) if sink else step
    donate_argnums = (0,) if donate else ()
    if plan is None:
        jitted = jax.jit(fn, donate_argnums=donate_argnums, compiler_options=_options.compiler_options())
    else:
        jitted = plan.jit(fn, donate_argnums)
    return Entry(name, jitted, params, plan, input_checks, step)


class Entry:
    """One compiled executable of a step, and how to call it."""
    __slots__ = ("name", "jitted", "params", "plan", "inline", "input_checks", "traced", "step", "phases")

    def __init__(self, name: str, jitted: Any, params: Sequence[Any], plan: _plan.Plan | None = None,
                 input_checks: list[Any] | None = None, step: Callable[..., Any] | None = None) -> None:
        self.name, self.jitted, self.params, self.plan = name, jitted, params, plan
        self.step = step  # the single step compiled (a sink compiles a scan of it), for FLOP counts
        self.phases: dict[str, str] = {}  # {Cell phase: MindSpore's name of this executable}, see _flops
        self.input_checks = input_checks  # [(input position, check(host array))], see register_input_check
        self.traced = input_checks is None  # (traced before the first call, so its checks run before it too)
        # whether calls get their inputs ready (_host_memory); None until the first call decides
        self.inline: bool | None = None if plan is None else False

    def place_state(self, state: Any, rng: Any) -> tuple[Any, Any]:
        """The state and key where the executable expects them (the plan's shardings; as they are alone)."""
        return (state, rng) if self.plan is None else self.plan.place_state(state, rng)

    def __call__(self, state: Any, rng: Any, arrays: Any) -> tuple[Any, Any, Any]:
        """``(outputs, new_state, new_rng)``; ``state`` is donated. Errors are explained (see :func:`explain`)."""
        if self.input_checks is not None:
            self._check_inputs(state, rng, arrays)
        if self.inline:
            state, rng, arrays = _host_memory.ready((state, rng, arrays))
        try:
            if self.plan is not None:
                state, rng, arrays = self.plan.place(state, rng, arrays)
            out, new_state, new_rng = self.jitted(state, rng, arrays)
            _dump.sync()  # with dump on: its files are written when the call returns
        except Exception as e:
            if self.plan is not None:
                e = self.plan.explain(e)
            raise explain(e, self.name) from None
        if self.inline is None:  # the step is cached now: lowering it again is cheap
            jitted = self.jitted
            self.inline = _host_memory.runs_inline(
                lambda: jitted if hasattr(jitted, "memory_analysis") else jitted.lower(new_state, new_rng,
                                                                                      arrays).compile())
        return out, new_state, new_rng

    def _check_inputs(self, state: Any, rng: Any, arrays: Any) -> None:
        """Run the ops' host checks on the inputs (tracing the step first, once, to learn them)."""
        if any(isinstance(a, jax.core.Tracer) for a in arrays):
            return  # called while an outer step is traced: its ops checked in the graph
        if not self.traced:
            try:
                self.lower(state, rng, arrays)  # jit keeps this trace for the call that follows
            except Exception as e:
                raise explain(e, self.name) from None
        for position, check in self.input_checks or ():
            check(np.asarray(arrays[position]))

    def lower(self, state: Any, rng: Any, arrays: Any) -> Any:
        """The ``jax.stages.Lowered`` computation for these inputs."""
        if self.plan is not None:
            state, rng, arrays = self.plan.place(state, rng, arrays)
        lowered = self.jitted.lower(state, rng, arrays)
        self.traced = True
        return lowered


def _user_frame(tb):
    """The innermost traceback frame that is user code (not mindspore_hl, not jax)."""
    frames = traceback.extract_tb(tb)
    for fr in reversed(frames):
        f = os.path.abspath(fr.filename)
        if not f.startswith(_PKG_DIR) and "/jax/" not in f and "/jaxlib/" not in f and "site-packages" not in f:
            return fr
    return frames[-1] if frames else None


def explain(e: Exception, name: str) -> Exception:
    """Turn tracing errors about Python control flow on tensor values into a message naming the line."""
    tracer_errors = (jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError,
                     jax.errors.TracerIntegerConversionError)
    is_bool = isinstance(e, tracer_errors) or (isinstance(e, TypeError) and "truth value" in str(e))
    if not is_bool:
        # Our own errors (a layer's shape check, say) need no note about JAX's hidden frames.
        notes = getattr(e, "__notes__", None)
        if notes and not type(e).__module__.startswith("jax"):
            # setattr: typeshed declares __notes__ from Python 3.11 on, and JAX may set it on 3.10 too
            setattr(e, "__notes__", [n for n in notes if "JAX has removed its internal frames" not in n])  # noqa: B010
        return e
    fr = _user_frame(e.__traceback__)
    where = f'File "{fr.filename}", line {fr.lineno}, in {fr.name}:\n    {fr.line}\n' if fr else ""
    return TypeError(
        f"GRAPH_MODE could not compile '{name}': Python control flow depends on a Tensor's value, which is "
        f"unknown while compiling.\n{where}"
        f"Fix: use ops.select / ops.where for elementwise choices; move the if/while into construct or an "
        f"@ms.jit function, whose static-graph syntax turns it into graph control flow (code it calls that "
        f"cannot be converted runs as written); or run it in PYNATIVE_MODE "
        f"(ms.set_context(mode=ms.PYNATIVE_MODE)).")
