"""Autodiff with MindSpore's calling and return conventions, on JAX's jaxpr-level transformations.

Conventions (real MindSpore 2.10):
- ``grad(fn)`` (grad_position=0) -> one Tensor; ``grad_position=(0, 1)`` -> tuple;
  ``grad(fn, None, weights)`` -> tuple over weights; position and weights -> ``(pos_grads, weight_grads)``.
- Several outputs without ``has_aux``: the gradient of their sum (every output gets a ones sensitivity).
- ``has_aux=True``: only the first output is differentiated; aux comes back as a tuple.
- ``value_and_grad`` returns ``(value, grads)``, with ``value`` the whole output.
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..common import _scope
from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array, wrap

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "GradOperation",
           "differentiate"]


def _positions(grad_position):
    if grad_position is None:
        return ()
    if isinstance(grad_position, int):
        return (grad_position,)
    if isinstance(grad_position, (tuple, list)) and all(isinstance(i, int) for i in grad_position):
        return tuple(grad_position)
    raise TypeError(f"grad: 'grad_position' must be None, an int or a tuple of ints, but got {grad_position!r}.")


def _weights(weights):
    if weights is None:
        return ()
    if isinstance(weights, Parameter):
        return (weights,)
    ws = tuple(weights)
    for w in ws:
        if not isinstance(w, Parameter):
            raise TypeError(f"grad: 'weights' must be Parameters (e.g. net.trainable_params()), got {type(w).__name__}.")
    return ws


def _leaves(out):
    return [x for x in jax.tree_util.tree_leaves(out)]


def _is_float(x):
    return jnp.issubdtype(jnp.result_type(x), jnp.inexact)


def differentiate(fn, args, positions, weights, has_aux=False, sens=None, sens_scale=None):
    """Core: run ``fn(*args)`` and pull back a cotangent to the chosen positional inputs and weights.

    ``sens`` is a full cotangent (one value per output); ``sens_scale`` a scalar that scales the default
    ones cotangent (loss scaling: applied before the backward pass, so small float16 gradients survive).
    Returns ``(output, pos_grads_list, weight_grads_list)``. Parameters assigned inside ``fn`` (BatchNorm
    statistics) are written to the enclosing scope or to the Parameters afterwards.
    """
    for i in positions:
        if i >= len(args) or i < -len(args):
            raise IndexError(f"grad: grad_position {i} is out of range for a function called with {len(args)} "
                             f"positional argument(s).")
    pos_arrays = [to_array(args[i]) for i in positions]
    w_arrays = [w._value for w in weights]
    assigned = []

    def f(pos_vals, w_vals):
        call_args = list(args)
        for i, v in zip(positions, pos_vals):
            call_args[i] = wrap(v)
        with _scope.StatelessScope(weights, w_vals) as scope:
            out = fn(*call_args)
        updates = scope.updates()
        assigned[:] = [p for p, _ in updates]
        return out, [v for _, v in updates]

    (out, upd_vals), pullback = jax.vjp(f, pos_arrays, w_arrays)
    diff_out = out
    if has_aux:
        if not isinstance(out, (tuple, list)) or len(out) < 1:
            raise ValueError("grad with has_aux=True needs a function that returns a tuple (loss, *aux).")
        diff_out = out[0]
    if sens is not None:
        cot_leaves = [to_array(s) for s in (_leaves(sens))]
    else:
        cot_leaves = [jnp.ones_like(l) if _is_float(l) else np.zeros(np.shape(l), jax.dtypes.float0)
                      for l in _leaves(diff_out)]
        if sens_scale is not None:
            s = to_array(sens_scale)
            cot_leaves = [c * s.astype(c.dtype) if _is_float(c) else c for c in cot_leaves]
    full_cot = _cotangent(out, diff_out if has_aux else None, cot_leaves, has_aux)
    upd_cot = [jnp.zeros_like(v) if _is_float(v) else np.zeros(np.shape(v), jax.dtypes.float0) for v in upd_vals]
    g_pos, g_w = pullback((full_cot, upd_cot))
    for p, v in zip(assigned, upd_vals):
        p._set_value(v)
    return out, [_fix_int(g, a) for g, a in zip(g_pos, pos_arrays)], list(g_w)


def _fix_int(g, a):
    if getattr(g, "dtype", None) == jax.dtypes.float0:
        return jnp.zeros(np.shape(a), a.dtype)
    return g


def _cotangent(out, first, first_cot, has_aux):
    """A cotangent shaped like ``out``: ``first_cot`` for the differentiated part, zeros elsewhere."""
    leaves, tree = jax.tree_util.tree_flatten(out)
    if not has_aux:
        if len(first_cot) != len(leaves):
            raise ValueError(f"sens has {len(first_cot)} value(s) but the function returns {len(leaves)} output(s).")
        return jax.tree_util.tree_unflatten(tree, [jnp.asarray(c, l.dtype) if _is_float(l) else c
                                                   for c, l in zip(first_cot, leaves)])
    n_first = len(_leaves(first))
    cots = list(first_cot) + [jnp.zeros_like(l) if _is_float(l) else np.zeros(np.shape(l), jax.dtypes.float0)
                              for l in leaves[n_first:]]
    return jax.tree_util.tree_unflatten(tree, cots)


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


def _value(out, has_aux):
    if has_aux and isinstance(out, list):
        return tuple(out)
    return out


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """Return a function computing ``(fn(*args), grads)`` with MindSpore's return structure.

    Args:
        fn: a function or Cell returning a Tensor or a tuple of Tensors.
        grad_position: int, tuple of ints, or None (weights only).
        weights: Parameters (e.g. ``optimizer.parameters``) to differentiate with respect to.
        has_aux: if True, only the first output is differentiated; the rest are returned as aux.
    """
    positions = _positions(grad_position)
    if grad_position is None and weights is None:
        raise ValueError("grad: 'grad_position' and 'weights' cannot both be None.")

    def wrapper(*args):
        ws = _weights(weights)
        out, gp, gw = differentiate(fn, args, positions, ws, has_aux)
        return _value(out, has_aux), _pack(gp, gw, grad_position, weights, return_ids, ws)

    return wrapper


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """Return a function computing the gradients of ``fn`` (see :func:`value_and_grad` for the structure).

    Example:
        >>> dw, db = ms.grad(function, (2, 3))(x, y, w, b)
    """
    vg = value_and_grad(fn, grad_position, weights, has_aux, return_ids)

    def wrapper(*args):
        out, grads = vg(*args)
        if has_aux:
            return grads, tuple(out[1:])
        return grads

    return wrapper


class GradOperation:
    """MindSpore's ``GradOperation(get_all=False, get_by_list=False, sens_param=False)``.

    ``GradOperation(...)(fn, weights)`` returns the gradient function; with ``sens_param`` the last call
    argument is the output sensitivity.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise ValueError("GradOperation(get_by_list=True) needs the weights: grad_op(net, ParameterTuple(...)).")

        def wrapper(*args):
            sens = None
            if self.sens_param:
                args, sens = args[:-1], args[-1]
            ws = _weights(weights) if self.get_by_list else ()
            positions = tuple(range(len(args))) if self.get_all else ((0,) if not self.get_by_list else ())
            _, gp, gw = differentiate(fn, args, positions, ws, sens=sens)
            pos = tuple(wrap(g) for g in gp)
            wg = tuple(wrap(g) for g in gw)
            if self.get_all and self.get_by_list:
                return pos, wg
            if self.get_by_list:
                return wg
            return pos if self.get_all else pos[0]

        return wrapper


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``(outputs, vjp_fn)``: ``vjp_fn(v)`` pulls ``v`` back to the inputs (and weights, if given)."""
    out = fn(*inputs)
    aux = None
    if has_aux:
        out, aux = out[0], tuple(out[1:])

    def vjp_fn(*v):
        sens = v[0] if len(v) == 1 else v
        positions = tuple(range(len(inputs)))
        ws = _weights(weights)
        _, gp, gw = differentiate(fn, inputs, positions, ws, has_aux=has_aux, sens=sens)
        pos = tuple(wrap(g) for g in gp)
        pos = pos[0] if len(pos) == 1 else pos
        if weights is not None:
            return pos, tuple(wrap(g) for g in gw)
        return pos

    if has_aux:
        return out, vjp_fn, aux
    return out, vjp_fn


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _pure(fn, n):
    """fn over Tensors -> function over arrays returning array pytrees."""
    def f(*arrays):
        return fn(*[wrap(a) for a in arrays])
    return f


def jvp(fn, inputs, v, has_aux=False):
    """``(outputs, jvp_out)``: the forward-mode derivative of ``fn`` at ``inputs`` along ``v``."""
    xs = [to_array(x) for x in _as_tuple(inputs)]
    vs = [to_array(t) for t in _as_tuple(v)]
    f = _pure(fn, len(xs))
    if has_aux:
        out, tangent, aux = jax.jvp(lambda *a: (f(*a)[0], tuple(f(*a)[1:])), xs, vs, has_aux=True)
        return out, tangent, aux
    return jax.jvp(f, xs, vs)


def _jac(kind, fn, grad_position=0, has_aux=False):
    positions = _positions(grad_position)
    transform = jax.jacfwd if kind == "fwd" else jax.jacrev

    def wrapper(*args):
        def f(*pos_vals):
            call = list(args)
            for i, v in zip(positions, pos_vals):
                call[i] = wrap(v)
            out = fn(*call)
            if has_aux:
                return out[0], tuple(out[1:])
            return out
        j = transform(f, argnums=tuple(range(len(positions))), has_aux=has_aux)(*[to_array(args[i]) for i in positions])
        if has_aux:
            j, aux = j
        j = j[0] if isinstance(grad_position, int) else j
        return (j, aux) if has_aux else j

    return wrapper


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by forward-mode differentiation."""
    return _jac("fwd", fn, grad_position, has_aux)


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by reverse-mode differentiation."""
    return _jac("rev", fn, grad_position, has_aux)


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorise ``fn`` over a batch axis (``in_axes`` per positional input, ``out_axes`` per output)."""
    def wrapper(*args):
        axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        mapped = [to_array(a) if ax is not None else a for a, ax in zip(args, axes)]
        batched = jax.vmap(lambda *a: fn(*[wrap(x) if ax is not None else x for x, ax in zip(a, axes)]),
                           in_axes=tuple(axes), out_axes=out_axes)
        return batched(*mapped)

    return wrapper
