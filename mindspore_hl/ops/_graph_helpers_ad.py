"""``get_grad``, ``derivative``, ``jet``, ``linearize`` (higher-order / forward-mode autodiff) and the
``tensordump``, ``move_to``, ``reshard`` helpers of ``mindspore.ops``.

``jet`` and ``derivative`` use Taylor-mode differentiation (``jax.experimental.jet``) with MindSpore's convention:
the series are derivatives, ``x(t) = x + s1 t + s2 t^2 / 2! + ...``, and ``out_series[k]`` is the (k+1)-th
derivative of ``fn(x(t))`` at ``t = 0``.
"""
from __future__ import annotations

import os
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import jet as _jet
from jax.sharding import NamedSharding

from .._engine import _layout, _plan, _scope
from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array, wrap

__all__ = ["get_grad", "derivative", "jet", "linearize", "tensordump", "move_to", "reshard"]


def _tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _array_fn(fn: Callable[..., Any]) -> Callable[..., Any]:
    def f(*arrays):
        out = fn(*[wrap(a) for a in arrays])
        return jax.tree_util.tree_map(lambda t: t._value if isinstance(t, Tensor) else t, out,
                                      is_leaf=lambda t: isinstance(t, Tensor))
    return f


def _wrap_tree(tree: Any) -> Any:
    return jax.tree_util.tree_map(wrap, tree)


def get_grad(gradients: Any, identifier: int | Parameter) -> Tensor:
    """The gradient of position ``identifier`` (an int) or Parameter ``identifier`` in the output of
    ``grad(..., return_ids=True)``."""
    key: str | int
    if isinstance(identifier, Parameter):
        key = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise TypeError(f"For 'get_grad', the identifier must be a position (int) or a Parameter, but got "
                        f"{type(identifier).__name__}.")

    def search(node):
        if isinstance(node, tuple) and len(node) == 2 and isinstance(node[0], (int, str)) \
                and not isinstance(node[1], (int, str)):
            return node[1] if node[0] == key and type(node[0]) is type(key) else None
        if isinstance(node, (tuple, list)):
            for item in node:
                found = search(item)
                if found is not None:
                    return found
        return None

    found = search(gradients)
    if found is None:
        what = "Parameter" if isinstance(key, str) else "position"
        raise RuntimeError(f"For 'get_grad', there is no gradient for {what} {key!r}; compute the gradients "
                           f"with grad(..., return_ids=True).")
    return found


def jet(fn: Callable[..., Any], primals: Any, series: Any) -> tuple[Any, Any]:
    """``(fn(primals), out_series)``: Taylor-mode derivatives of ``fn`` along the input ``series`` (each of shape
    ``(order, *primal.shape)``, one per primal)."""
    xs = [to_array(p) for p in _tuple(primals)]
    ss = [to_array(s) for s in _tuple(series)]
    if len(ss) != len(xs):
        raise ValueError(f"For 'jet', expected one series per primal ({len(xs)}), but got {len(ss)}.")
    for x, s in zip(xs, ss):
        if s.ndim != x.ndim + 1 or tuple(s.shape[1:]) != tuple(x.shape):
            raise ValueError(f"For 'jet', a series must have shape (order, *primal.shape) = (order, "
                             f"{', '.join(map(str, x.shape))}), but got {tuple(s.shape)}.")
    terms = [[s[k].astype(x.dtype) for k in range(s.shape[0])] for x, s in zip(xs, ss)]
    with _scope.StatelessScope():
        out, out_series = _jet.jet(_array_fn(fn), tuple(xs), tuple(terms))
    stacked = jax.tree_util.tree_map(lambda *ks: jnp.stack(ks), *out_series) if isinstance(out_series, list) \
        else out_series
    return _wrap_tree(out), _wrap_tree(stacked)


def derivative(fn: Callable[..., Any], primals: Any, order: int) -> tuple[Any, Any]:
    """``(fn(primals), d^order/dt^order fn(primals + t))``: the ``order``-th derivative along all-ones."""
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise ValueError(f"For 'derivative', order must be a positive int, but got {order!r}.")
    xs = [to_array(p) for p in _tuple(primals)]
    terms = [[jnp.ones_like(x)] + [jnp.zeros_like(x)] * (order - 1) for x in xs]
    with _scope.StatelessScope():
        out, out_series = _jet.jet(_array_fn(fn), tuple(xs), tuple(terms))
    last = out_series[order - 1] if isinstance(out_series, list) else out_series
    return _wrap_tree(out), _wrap_tree(last)


def linearize(fn: Callable[..., Any], inputs: Any) -> tuple[Any, Callable[..., Any]]:
    """``(fn(*inputs), jvp_fn)``: ``jvp_fn(v)`` is the derivative of ``fn`` at ``inputs`` along the tangents
    ``v`` (one Tensor, or a tuple with one per input), evaluated by the linearized function."""
    if not isinstance(inputs, (Tensor, tuple, list)):
        raise TypeError(f"For 'linearize', inputs must be a Tensor or a tuple of Tensors, but got "
                        f"{type(inputs).__name__}.")
    xs = [to_array(x) for x in _tuple(inputs)]
    with _scope.StatelessScope():
        out, lin = jax.linearize(_array_fn(fn), *xs)

    def jvp_fn(v: Any) -> Any:
        vs = [to_array(t).astype(x.dtype) for t, x in zip(_tuple(v), xs)]
        if len(vs) != len(xs):
            raise ValueError(f"For 'linearize', expected one tangent per input ({len(xs)}), but got {len(vs)}.")
        return _wrap_tree(lin(*vs))

    return _wrap_tree(out), jvp_fn


# ---- tensordump / move_to / reshard ------------------------------------------------------------------------
_dump_count = [0]


def _save(path_base: str, mode: str, array: np.ndarray) -> None:
    array = np.asarray(array)
    dtype = str(array.dtype)
    if dtype == "bfloat16":  # stored as float32, named by the original dtype (as MindSpore does)
        array = array.astype(np.float32)
    middle = "" if mode == "out" else f"_{mode}"
    path = f"{path_base}{middle}_{dtype}_{_dump_count[0]}.npy"
    _dump_count[0] += 1
    np.save(path, array)
    os.chmod(path, 0o400)  # MindSpore writes dump files read-only


def tensordump(file_name: str, tensor: Tensor, mode: str = "out") -> None:
    """Save ``tensor`` to ``<file_name>_<dtype>_<id>.npy`` (``id`` counts the dumps of this process; a
    ``.npy`` suffix of ``file_name`` is dropped). Inside a compiled step the file is written when the step runs."""
    if not isinstance(file_name, str):
        raise TypeError(f"For 'tensordump', file_name must be a str, but got {type(file_name).__name__}.")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'tensordump', the input must be a Tensor, but got {type(tensor).__name__}.")
    if mode not in ("in", "out"):
        raise ValueError(f"For 'tensordump', mode must be 'in' or 'out', but got {mode!r}.")
    base = file_name[:-4] if file_name.endswith(".npy") else file_name
    value = tensor._value
    if isinstance(value, jax.core.Tracer):
        jax.debug.callback(lambda a: _save(base, mode, a), value, ordered=True)
    else:
        _save(base, mode, value)


def move_to(input: Tensor, to: str = "CPU", blocking: bool = True) -> Tensor:
    """A copy of ``input`` on the host CPU (``to='CPU'``) or the accelerator (``'Ascend'``: JAX's default
    device, the CPU when there is none)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'move_to', the input must be a Tensor, but got {type(input).__name__}.")
    if to not in ("CPU", "Ascend"):
        raise ValueError(f"For 'move_to', 'to' must be 'CPU' or 'Ascend', but got {to!r}.")
    if not isinstance(blocking, bool):
        raise TypeError(f"For 'move_to', blocking must be a bool, but got {type(blocking).__name__}.")
    value = input._value
    if isinstance(value, jax.core.Tracer):
        return wrap(value)
    device = jax.devices("cpu")[0] if to == "CPU" else jax.devices()[0]
    out = jax.device_put(value, device)
    if blocking:
        out.block_until_ready()
    return wrap(out)


def reshard(tensor: Tensor, layout: Any) -> Tensor:
    """Give ``tensor`` the layout ``layout`` (a strategy tuple such as ``(2, 1)``) inside a parallel step;
    elsewhere (one device, eager code) the Tensor itself."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'reshard', the input must be a Tensor, but got {type(tensor).__name__}.")
    plan = _plan.active_plan()
    mesh = getattr(plan, "mesh", None)
    if mesh is None or layout is None or not isinstance(tensor._value, jax.core.Tracer):
        return tensor
    spec = _layout.to_spec(tuple(layout), tuple(tensor.shape), mesh.shape["data"], mesh.shape["model"], "reshard",
                           batch_first=True)
    return wrap(jax.lax.with_sharding_constraint(tensor._value, NamedSharding(mesh, spec)))
