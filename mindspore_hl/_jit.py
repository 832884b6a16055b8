"""One compile mechanism: a function over Tensors and Parameters becomes a cached, pure ``jax.jit`` step.

``pure(state, rng, *arrays) -> (outputs, new_state, new_rng)`` runs the user's function under a
StatelessScope that maps each state Parameter to its array; the compiled step is cached per input
signature; after the call the new state is written back into the Parameters. GRAPH_MODE Cells,
``ms.jit`` functions and the train steps of ``Model`` all go through :class:`CompiledFunction`.
Outside STAND_ALONE mode, ``mindspore_hl.parallel`` gives each compiled step its mesh shardings (a ``Plan``).
"""
import os
import sys
import traceback

import jax
import numpy as np

from . import _host_memory
from .common import _scope, seed
from .common.tensor import Tensor, wrap

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


# XLA:CPU hands convolutions to YNNPACK by default; for small-channel convolutions (LeNet) YNNPACK's weight
# gradient is 3-4x slower than XLA's own emitter, so compiled steps keep YNNPACK for products and reductions only
# (LeNet5 train step 1.26x faster at batch 256, ResNet50 unchanged; benchmarks/NOTES.md). A user's XLA_FLAGS
# setting of the option wins; a jaxlib that does not know the option gets none.
_CPU_OPTIONS = {"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_REDUCE"}
_options = []


def compiler_options():
    """The XLA compiler options of every compiled step (None off CPU)."""
    if not _options:
        opts = None
        if jax.default_backend() == "cpu" and not any(k in os.environ.get("XLA_FLAGS", "") for k in _CPU_OPTIONS):
            try:
                jax.jit(lambda a: a + 1, compiler_options=_CPU_OPTIONS).lower(np.float32(0)).compile()
                opts = dict(_CPU_OPTIONS)
            except Exception:  # an XLA that does not know the option: default compilation
                opts = None
        _options.append(opts)
    return _options[0]


def _is_array(x):
    return isinstance(x, (Tensor, jax.Array, np.ndarray))


def _as_array(x):
    if isinstance(x, Tensor):
        return x._value
    return x


def signature(args):
    """Hashable cache key: (shape, dtype) for arrays, the value itself for static Python arguments."""
    key = []
    for a in args:
        if _is_array(a):
            v = _as_array(a)
            key.append((tuple(v.shape), str(v.dtype), getattr(v, "sharding", None) if isinstance(v, jax.Array) else None))
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


def split_args(args):
    """(dynamic arrays, a rebuild function) for a call's positional arguments."""
    dyn, spec = [], []
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


def make_pure(fn, params):
    """``pure(state, rng, arrays, rebuild) -> (outputs, new_state, new_rng)`` for ``fn`` over ``params``."""
    params = tuple(params)

    def pure(state, rng, arrays, rebuild):
        with _scope.StatelessScope(params, state, rng=rng) as scope:
            out = fn(*rebuild(arrays))
            new_state = tuple(scope.values[id(p)] for p in params)
            extra = [p for p, _ in scope.updates() if id(p) not in _ids(params)]
        if extra:
            names = ", ".join(getattr(p, "name", "?") for p in extra[:5])
            raise RuntimeError(f"A compiled function assigned Parameters that are not part of its state ({names}). "
                               f"Make them attributes of the Cell being run.")
        return out, new_state, scope.rng

    return pure


def _ids(params):
    return {id(p) for p in params}


class _Entry:
    __slots__ = ("jitted", "params", "plan", "place", "inline")

    def __init__(self, jitted, params, plan=None):
        self.jitted, self.params, self.plan = jitted, params, plan
        self.inline = None if plan is None else False  # whether calls get their inputs ready (_host_memory)
        # Parallel modes: put state and inputs on the plan's shardings before the call (None in STAND_ALONE).
        self.place = None if plan is None else plan.place


class CompiledFunction:
    """Compile ``fn`` once per input signature and run it with the Parameters as threaded state.

    Args:
        fn: a function of Tensors (a Cell's ``construct`` bound method, or any function).
        params_fn: returns the Parameters that are the state (a Cell's parameters); when None the state is
            discovered by tracing ``fn`` once and noting every Parameter it reads or assigns.
        name: used in error messages.
        donate: donate the state buffers to the step (they are replaced by the new state right after).
    """

    def __init__(self, fn, params_fn=None, name=None, donate=True):
        self.fn = fn
        self.params_fn = params_fn
        self.name = name or getattr(fn, "__qualname__", "function")
        self.donate = donate
        self._cache = {}

    def _discover(self, args):
        dyn, rebuild = split_args(args)
        with _scope.StatelessScope(record_reads=True, rng=seed.global_key()) as scope:
            jax.eval_shape(lambda arrays: self.fn(*rebuild(arrays)), dyn)
        found = dict(scope.reads)
        found.update(scope.assigned)
        return tuple(found.values())

    def _build(self, args):
        params = tuple(self.params_fn()) if self.params_fn is not None else self._discover(args)
        dyn, rebuild = split_args(args)
        pure = make_pure(self.fn, params)

        def step(state, rng, arrays):
            return pure(state, rng, arrays, rebuild)  # Tensors in the output are pytrees of arrays

        from .parallel._plan import plan_step  # not at import time: parallel imports nn
        donate = (0,) if self.donate else ()
        plan = plan_step(self, params, dyn, step)  # None in STAND_ALONE; else mesh shardings for state and inputs
        jitted = (jax.jit(step, donate_argnums=donate, compiler_options=compiler_options()) if plan is None
                  else plan.jit(step, donate))
        return _Entry(jitted, params, plan)

    def __call__(self, *args):
        key = signature(args)
        entry = self._cache.get(key)
        if entry is None:
            try:
                entry = self._build(args)
            except Exception as e:
                raise _explain(e, self.name) from None
            self._cache[key] = entry
        dyn, _ = split_args(args)
        params = entry.params
        state = tuple(p._value for p in params)
        if self.donate and len({id(v) for v in state}) != len(state):
            state = _unshare(params, state)
        rng = seed.global_key()
        if entry.inline:
            state, rng, dyn = _host_memory.ready((state, rng, dyn))
        try:
            if entry.place is not None:
                state, rng, dyn = entry.place(state, rng, dyn)
            out, new_state, new_rng = entry.jitted(state, rng, dyn)
        except Exception as e:
            self._cache.pop(key, None)
            if entry.plan is not None:
                e = entry.plan.explain(e)
            raise _explain(e, self.name) from None
        for p, v in zip(params, new_state):
            p._data = v
        seed.set_global_key(new_rng)
        if entry.inline is None:  # the step is cached now: lowering it again is cheap
            entry.inline = _host_memory.runs_inline(lambda: entry.jitted.lower(new_state, new_rng, dyn).compile())
        return out

    def lower(self, *args):
        """The ``jax.stages.Lowered`` computation for these arguments (for graphs, HLO text and costs)."""
        key = signature(args)
        entry = self._cache.get(key) or self._build(args)
        dyn, _ = split_args(args)
        state, rng = tuple(p._value for p in entry.params), seed.global_key()
        if entry.place is not None:
            state, rng, dyn = entry.place(state, rng, dyn)
        return entry.jitted.lower(state, rng, dyn)


def _unshare(params, state):
    """Copy buffers shared by several Parameters (tied weights), since one buffer cannot be donated twice."""
    seen, out = set(), []
    for p, v in zip(params, state):
        if id(v) in seen:
            v = p._data = jax.numpy.array(v, copy=True)
        seen.add(id(v))
        out.append(v)
    return tuple(out)


def _user_frame(tb):
    """The innermost traceback frame that is user code (not mindspore_hl, not jax)."""
    frames = traceback.extract_tb(tb)
    for fr in reversed(frames):
        f = os.path.abspath(fr.filename)
        if not f.startswith(_PKG_DIR) and "/jax/" not in f and "/jaxlib/" not in f and "site-packages" not in f:
            return fr
    return frames[-1] if frames else None


def _explain(e, name):
    """Turn tracing errors about Python control flow on tensor values into a message naming the line."""
    tracer_errors = (jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError,
                     jax.errors.TracerIntegerConversionError)
    is_bool = isinstance(e, tracer_errors) or (isinstance(e, TypeError) and "truth value" in str(e))
    if not is_bool:
        # Our own errors (a layer's shape check, say) need no note about JAX's hidden frames.
        notes = getattr(e, "__notes__", None)
        if notes and not type(e).__module__.startswith("jax"):
            e.__notes__ = [n for n in notes if "JAX has removed its internal frames" not in n]
        return e
    fr = _user_frame(e.__traceback__)
    where = f'File "{fr.filename}", line {fr.lineno}, in {fr.name}:\n    {fr.line}\n' if fr else ""
    return TypeError(
        f"GRAPH_MODE could not compile '{name}': Python control flow depends on a Tensor's value, which is "
        f"unknown while compiling.\n{where}"
        f"Fix: use ops.select / ops.where for elementwise choices or mindspore_hl.ops.cond / "
        f"ops.while_loop for branches and loops, or run it in PYNATIVE_MODE "
        f"(ms.set_context(mode=ms.PYNATIVE_MODE)).")


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="", **options):
    """Compile a function (or a Cell method) with XLA; Parameters it reads become threaded state.

    Example:
        >>> @ms.jit
        ... def step(x): return net(x)
    """
    def decorate(fn):
        compiled = {}
        attr = f"_jit_{fn.__name__}_{id(fn)}"

        def wrapper(*args):
            from .nn.cell import Cell
            if _scope.current() is not None:  # already inside a compiled step: just trace through
                return fn(*args)
            if args and isinstance(args[0], Cell):  # @jit on a Cell method: compile per instance, kept on it
                cell = args[0]
                cf = cell.__dict__.get(attr)
                if cf is None:
                    cf = CompiledFunction(lambda *a: fn(cell, *a), lambda: cell.get_parameters(expand=True),
                                          name=f"{type(cell).__name__}.{fn.__name__}")
                    cell.__dict__[attr] = cf
                return cf(*args[1:])
            cf = compiled.get(None)
            if cf is None:
                cf = compiled[None] = CompiledFunction(fn, None, name=getattr(fn, "__qualname__", "function"))
            return cf(*args)

        wrapper.__wrapped__ = fn
        wrapper.__name__ = getattr(fn, "__name__", "jit_function")
        wrapper._ms_jit = True
        return wrapper

    return decorate(function) if function is not None else decorate


def jit_class(cls):
    """Accepted for compatibility: objects of ``cls`` may be used inside compiled functions."""
    return cls
