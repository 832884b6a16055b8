"""Autodiff with MindSpore's calling and return conventions, on JAX's jaxpr-level transformations.

Conventions (real MindSpore 2.10):
- ``grad(fn)`` (grad_position=0) -> one Tensor; ``grad_position=(0, 1)`` -> tuple;
  ``grad(fn, None, weights)`` -> tuple over weights; position and weights -> ``(pos_grads, weight_grads)``.
- Several outputs without ``has_aux``: the gradient of their sum (every output gets a ones sensitivity).
- ``has_aux=True``: only the first output is differentiated; ``grad`` returns ``(grads, aux_tuple)``.
- ``value_and_grad`` returns ``(value, grads)``, with ``value`` the whole output.
In GRAPH_MODE a top-level gradient call is compiled (the forward and backward pass become one XLA program,
through ``_compiled.CompiledFunction``); in a parallel mode a top-level gradient call in PYNATIVE_MODE is an
eager parallel step (``_compiled.eager_step``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common._tensor_methods_ext import with_grad_hooks
from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array, wrap
from . import _compiled, _mode, _saved_tensors, _scope
from ._step import signature

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "GradOperation", "differentiate"]


def _positions(grad_position, name="grad"):
    if grad_position is None:
        return ()
    gp = (grad_position,) if isinstance(grad_position, int) else grad_position
    if not isinstance(gp, (tuple, list)) or not all(isinstance(i, int) for i in gp):
        raise TypeError(f"For '{name}', 'grad_position' must be None, an int or a tuple of ints, but got "
                        f"{grad_position!r}.")
    if any(i < 0 for i in gp):
        raise ValueError(f"For '{name}', the elements of 'grad_position' must be >= 0, but got {grad_position!r}.")
    if len(set(gp)) != len(gp):
        raise ValueError(f"For '{name}', 'grad_position' has duplicate positions: {grad_position!r}.")
    return tuple(gp)


def _weights(weights, name="grad"):
    if weights is None:
        return ()
    if isinstance(weights, Parameter):
        return (weights,)
    ws = tuple(weights)
    for w in ws:
        if not isinstance(w, Parameter):
            raise TypeError(f"For '{name}', 'weights' must be Parameters (e.g. net.trainable_params()), but got "
                            f"{type(w).__name__}.")
    return ws


def _is_float(x):
    return jnp.issubdtype(jnp.result_type(x), jnp.inexact)


def _zero_ct(x):
    return jnp.zeros_like(x) if _is_float(x) else np.zeros(np.shape(x), jax.dtypes.float0)


def _leaves(out):
    return jax.tree_util.tree_leaves(out)


def linearize(fn: Callable[..., Any], args: Sequence[Any], positions: Sequence[int], weights: Sequence[Any],
              has_aux: bool = False) -> tuple[Any, list[Any], Callable[..., Any]]:
    """Run ``fn(*args)`` once; return ``(output, differentiated_leaves, pullback)``.

    ``pullback(cotangent_leaves)`` takes one cotangent per leaf of the differentiated output (the first
    output when ``has_aux``);
    ``pullback`` returns ``(position_grads, weight_grads)`` as arrays. Parameters assigned inside ``fn``
    (BatchNorm statistics) are written to the enclosing scope or to the Parameters.
    """
    for i in positions:
        if i >= len(args):
            raise IndexError(f"grad: grad_position {i} is out of range for a function called with {len(args)} "
                             f"positional argument(s).")
    pos_arrays = [to_array(args[i]) for i in positions]
    w_arrays = [w._value for w in weights]
    assigned: list[Any] = []

    def f(pos_vals, w_vals):
        call_args = list(args)
        for i, v in zip(positions, pos_vals):
            call_args[i] = wrap(with_grad_hooks(args[i], v))
        w_vals = [with_grad_hooks(w, v) for w, v in zip(weights, w_vals)]
        with _scope.StatelessScope(weights, w_vals) as scope:
            out = fn(*call_args)
        updates = scope.updates()
        assigned[:] = [p for p, _ in updates]
        return out, [v for _, v in updates]

    with _saved_tensors.CallWatch(fn) as saved:  # saved_tensors_hooks: pack the residuals the pullback keeps
        (out, upd_vals), vjp_fn = jax.vjp(f, pos_arrays, w_arrays)
    vjp_fn = saved.pack(vjp_fn)
    for p, v in zip(assigned, upd_vals):
        p._set_value(v)
    if has_aux and (not isinstance(out, (tuple, list)) or len(out) < 1):
        raise ValueError("grad with has_aux=True needs a function that returns a tuple (loss, *aux), but it returned "
                         f"{type(out).__name__}.")
    leaves, tree = jax.tree_util.tree_flatten(out)
    n_diff = len(_leaves(out[0])) if has_aux else len(leaves)
    upd_ct = [_zero_ct(v) for v in upd_vals]

    def pullback(cot_leaves):
        if len(cot_leaves) != n_diff:
            raise ValueError(f"The sensitivity has {len(cot_leaves)} value(s) but the function's differentiated "
                             f"output has {n_diff}.")
        full = [jnp.asarray(to_array(c), l.dtype).reshape(jnp.shape(l)) if _is_float(l) else _zero_ct(l)
                for c, l in zip(cot_leaves, leaves[:n_diff])]
        full += [_zero_ct(l) for l in leaves[n_diff:]]
        g_pos, g_w = vjp_fn((jax.tree_util.tree_unflatten(tree, full), upd_ct))
        g_pos = [jnp.zeros(jnp.shape(a), a.dtype) if g.dtype == jax.dtypes.float0 else g
                 for g, a in zip(g_pos, pos_arrays)]
        return g_pos, list(g_w)

    return out, leaves[:n_diff], pullback


def differentiate(fn: Callable[..., Any], args: Sequence[Any], positions: Sequence[int], weights: Sequence[Any],
                  has_aux: bool = False, sens: Any = None, sens_scale: Any = None) -> tuple[Any, list[Any], list[Any]]:
    """Core: ``(output, position_grads, weight_grads)`` (grads as arrays) of ``fn(*args)``.

    The cotangent is ``sens`` (a Tensor or a tuple matching the differentiated output), or ones scaled by
    ``sens_scale`` (default 1) for every differentiated output leaf.
    """
    out, diff_leaves, pullback = linearize(fn, args, positions, weights, has_aux)
    if sens is not None:
        cots = [to_array(s) for s in _leaves(sens)]
    else:
        scale = 1 if sens_scale is None else to_array(sens_scale)
        cots = [jnp.ones_like(l) * jnp.asarray(scale, l.dtype) if _is_float(l) else jnp.zeros_like(l)
                for l in diff_leaves]
    g_pos, g_w = pullback(cots)
    return out, g_pos, g_w


def _pack(pos_grads, w_grads, grad_position, weights, return_ids, weight_list):
    pos = [wrap(g) for g in pos_grads]
    ws = [wrap(g) for g in w_grads]
    if return_ids:
        pos = [(i, g) for i, g in zip(_positions(grad_position), pos)]
        ws = [(w.name, g) for w, g in zip(weight_list, ws)]
    pos_part = pos[0] if isinstance(grad_position, int) else tuple(pos)
    if weights is None:
        return pos_part
    w_part = ws[0] if isinstance(weights, Parameter) else tuple(ws)
    if grad_position is None:
        return w_part
    return pos_part, w_part


def _graph_mode_compiled(impl, name, fn, weights):
    """``impl`` compiled per input signature when ``_mode.should_compile``; in a parallel mode a top-level
    PYNATIVE call is an eager parallel step over ``fn``'s and ``weights``' Parameters; else called directly."""
    holder: dict[str, _compiled.CompiledFunction] = {}

    def call(*args):
        if not _mode.should_compile(args):
            if _compiled.parallel_step_now(args):
                return _compiled.eager_step(call, impl, _step_params(fn, weights), args, name)
            return impl(*args)
        try:
            signature(args)
        except TypeError:  # unhashable static arguments: run eagerly rather than refuse
            return impl(*args)
        if any(getattr(getattr(a, "_grad_hooks", None), "fns", None) for a in args):
            # Gradient hooks belong to the caller's Tensor objects, which a compiled signature cannot see.
            return impl(*args)
        cf = holder.get("cf")
        if cf is None:
            cf = holder["cf"] = _compiled.CompiledFunction(impl, None, name=name)
        return cf(*args)

    return call


def _step_params(fn, weights):
    """The Parameters an eager parallel gradient step puts on the mesh: a Cell's, and the weights."""
    found: dict[int, Any] = {}
    if hasattr(fn, "get_parameters"):
        found.update((id(p), p) for p in fn.get_parameters())
    found.update((id(w), w) for w in _weights(weights))
    return tuple(found.values())


def _core(fn, positions, weights, has_aux, name, sens_last=False):
    """``core(*args) -> (output, position_grads, weight_grads)``, compiled in GRAPH_MODE at top level."""
    def core(*args):
        sens = None
        if sens_last:
            if not args:
                raise ValueError(f"{name}(sens_param=True): the last argument must be the sensitivity.")
            args, sens = args[:-1], args[-1]
        pos = tuple(range(len(args))) if positions == "all" else positions
        f = _compiled.graph_function(fn) if _compiled.compiling() and not hasattr(fn, "construct") else fn
        return differentiate(f, args, pos, _weights(weights, name), has_aux, sens=sens)

    return _graph_mode_compiled(core, f"{name}({getattr(fn, '__name__', type(fn).__name__)})", fn, weights)


def value_and_grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0, weights: Any = None,
                   has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> Callable[..., Any]:
    """Return a function computing ``(fn(*args), grads)`` with MindSpore's return structure.

    Args:
        fn: a function or Cell returning a Tensor or a tuple of Tensors.
        grad_position: int, tuple of ints, or None (weights only).
        weights: Parameters (e.g. ``optimizer.parameters``) to differentiate with respect to.
        has_aux: if True, only the first output is differentiated; the others are returned alongside.
        return_ids: pair each gradient with its position / parameter name.
        sens_param: the last call argument is the sensitivity (the output's cotangent) instead of ones.
    """
    if grad_position is None and weights is None:
        raise ValueError("For 'value_and_grad', 'grad_position' and 'weights' cannot both be None.")
    core = _core(fn, _positions(grad_position, "value_and_grad"), weights, has_aux, "value_and_grad", sens_param)

    def wrapper(*args):
        out, gp, gw = core(*args)
        return out, _pack(gp, gw, grad_position, weights, return_ids, _weights(weights))

    return wrapper


def grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0, weights: Any = None,
         has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> Callable[..., Any]:
    """Return a function computing the gradients of ``fn`` (see :func:`value_and_grad` for the structure).

    With ``has_aux=True`` it returns ``(grads, aux)`` where ``aux`` is the tuple of the other outputs.

    Example:
        >>> def loss(x, y, w, b):
        ...     return ((x * w + b - y) ** 2).sum()
        >>> x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([2.0, 4.0], np.float32))
        >>> dw, db = ms.grad(loss, (2, 3))(x, y, Tensor(np.float32(2.0)), Tensor(np.float32(1.0)))
        >>> float(dw.asnumpy()), float(db.asnumpy())
        (6.0, 4.0)
    """
    if grad_position is None and weights is None:
        raise ValueError("For 'grad', 'grad_position' and 'weights' cannot both be None.")
    core = _core(fn, _positions(grad_position, "grad"), weights, has_aux, "grad", sens_param)

    def wrapper(*args):
        out, gp, gw = core(*args)
        grads = _pack(gp, gw, grad_position, weights, return_ids, _weights(weights))
        return (grads, tuple(out[1:])) if has_aux else grads

    return wrapper


class GradOperation:
    """MindSpore's ``GradOperation(get_all=False, get_by_list=False, sens_param=False)``.

    ``GradOperation(...)(fn, weights)`` returns the gradient function: first input only (default), all
    inputs (``get_all``), the weights (``get_by_list``) or ``(inputs, weights)`` (both). With ``sens_param`` the
    last call argument is the output sensitivity.
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn: Callable[..., Any], weights: Any = None) -> Callable[..., Any]:
        if self.get_by_list and weights is None:
            raise ValueError("GradOperation(get_by_list=True) needs the weights: grad_op(net, ParameterTuple(...)).")
        positions = "all" if self.get_all else ((0,) if not self.get_by_list else ())
        core = _core(fn, positions, weights if self.get_by_list else None, False, "GradOperation", self.sens_param)

        def wrapper(*args):
            _, gp, gw = core(*args)
            pos = tuple(wrap(g) for g in gp)
            wg = tuple(wrap(g) for g in gw)
            if self.get_all and self.get_by_list:
                return pos, wg
            if self.get_by_list:
                return wg
            return pos if self.get_all else pos[0]

        return wrapper


def _split_aux(res):
    """MindSpore's aux for vjp/jvp/jacobians: the second output, or the tuple of all but the first."""
    return res[1] if len(res) == 2 else tuple(res[1:])


def vjp(fn: Callable[..., Any], *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple[Any, ...]:
    """``(outputs, vjp_fn)`` (``(outputs, vjp_fn, aux)`` with has_aux).

    ``vjp_fn(v)`` pulls ``v`` (shaped like ``outputs``) back to a tuple with one gradient per input, or to
    ``(input_grads, weight_grads)`` when ``weights`` are given.
    """
    ws = _weights(weights, "vjp")
    res, _, pullback = linearize(fn, inputs, tuple(range(len(inputs))), ws, has_aux)
    out = res[0] if has_aux else res

    def vjp_fn(*v):
        sens = v[0] if len(v) == 1 else v
        gp, gw = pullback([to_array(s) for s in _leaves(sens)])
        pos = tuple(wrap(g) for g in gp)
        return (pos, tuple(wrap(g) for g in gw)) if weights is not None else pos

    if has_aux:
        return out, vjp_fn, _split_aux(res)
    return out, vjp_fn


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def jvp(fn: Callable[..., Any], inputs: Any, v: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """``(outputs, jvp_out)`` (``(outputs, jvp_out, aux)`` with has_aux): forward-mode derivative along ``v``."""
    xs = [to_array(x) for x in _as_tuple(inputs)]
    vs = [to_array(t).astype(x.dtype) for t, x in zip(_as_tuple(v), xs)]
    if len(vs) != len(xs):
        raise ValueError(f"For 'jvp', 'v' must have one tangent per input ({len(xs)}), but got {len(vs)}.")

    def f(*arrays):
        res = fn(*[wrap(a) for a in arrays])
        if has_aux:
            if not isinstance(res, (tuple, list)) or len(res) < 2:
                raise ValueError("For 'jvp' with has_aux=True, 'fn' must return more than one output.")
            return res[0], _split_aux(res)
        return res

    with _scope.StatelessScope():  # nested Cells trace through instead of compiling (and writing back tracers)
        if has_aux:
            return jax.jvp(f, xs, vs, has_aux=True)
        return jax.jvp(f, xs, vs)


def _to_arrays(tree):
    return jax.tree_util.tree_map(lambda t: t._value if isinstance(t, Tensor) else t, tree,
                                  is_leaf=lambda t: isinstance(t, Tensor))


def _jac(kind, fn, grad_position=0, has_aux=False):
    positions = _positions(grad_position, kind)
    transform = jax.jacfwd if kind == "jacfwd" else jax.jacrev

    def wrapper(*args):
        aux_holder: list[Any] = []

        def f(*pos_vals):
            call = list(args)
            for i, v in zip(positions, pos_vals):
                call[i] = wrap(v)
            out = fn(*call)
            if has_aux:
                if not isinstance(out, (tuple, list)) or len(out) < 2:
                    raise ValueError(f"For '{kind}' with has_aux=True, 'fn' must return more than one output.")
                return _to_arrays(out[0]), _to_arrays(_split_aux(out))
            return _to_arrays(out)

        with _scope.StatelessScope():
            j = transform(f, argnums=tuple(range(len(positions))), has_aux=has_aux)(
                *[to_array(args[i]) for i in positions])
        if has_aux:
            j, aux = j
            aux_holder.append(wrap(aux))
        single_in = isinstance(grad_position, int) or len(positions) == 1
        if single_in:  # one input: drop the per-input tuple level JAX adds for argnums=(i,)
            if isinstance(j, (tuple, list)) and j and isinstance(j[0], (tuple, list)):  # several outputs
                j = type(j)(x[0] for x in j)
            else:
                j = j[0]
        j = wrap(j)
        return (j, aux_holder[0]) if has_aux else j

    return wrapper


def jacfwd(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian of ``fn`` by forward-mode differentiation (``(jac, aux)`` with has_aux)."""
    return _jac("jacfwd", fn, grad_position, has_aux)


def jacrev(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian of ``fn`` by reverse-mode differentiation (``(jac, aux)`` with has_aux)."""
    return _jac("jacrev", fn, grad_position, has_aux)


def vmap(fn: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """Vectorise ``fn`` over a batch axis (``in_axes`` per positional input, ``out_axes`` per output)."""
    def fix(axes):
        if isinstance(axes, list):
            return tuple(fix(a) for a in axes)
        if isinstance(axes, tuple):
            return tuple(fix(a) for a in axes)
        return axes

    def wrapper(*args):
        args = tuple(wrap(to_array(a)) if isinstance(a, np.ndarray) else a for a in args)
        try:
            with _scope.StatelessScope():
                return jax.vmap(fn, in_axes=fix(in_axes), out_axes=fix(out_axes))(*args)
        except ValueError as e:
            if "vmap" in str(e) and ("size" in str(e) or "axes" in str(e)):
                raise ValueError(f"For 'vmap', {e}") from None
            raise

    return wrapper
