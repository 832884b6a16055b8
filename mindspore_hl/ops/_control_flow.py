"""Control flow over Tensors that compiles and differentiates without unrolling (``cond``, ``ops.while_loop``...).

The functions you pass take and return Tensors (or tuples/lists/dicts of them), exactly as in eager code.
They run as ``jax.lax`` control flow: one traced body, both in PYNATIVE and GRAPH_MODE. ``cond``, ``switch_case``,
``scan`` and ``fori_loop`` (with Python-int bounds) support reverse-mode gradients; ``while_loop`` supports
forward mode only (its trip count is data dependent), as in JAX. Bodies may read Parameters, but must not
assign them (return new values instead).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp

from ..common.tensor import Tensor, to_array, wrap
from ._core import OpError, OpTypeError

# ``cond`` stays private: in MindSpore 2.10 ``ops.cond`` is the matrix condition number.
__all__ = ["switch_case", "while_loop", "fori_loop", "scan"]


def _is_leaf(x):
    return isinstance(x, Tensor)


def _to_tensors(tree):
    """Every leaf (array, Python number, Tensor) as a Tensor, so carries keep one structure."""
    return jax.tree_util.tree_map(lambda x: x if isinstance(x, Tensor) else wrap(to_array(x)), tree, is_leaf=_is_leaf)


def _match(name, new, like):
    """Cast ``new``'s leaves to the dtypes of ``like`` (the carry) and check the structures agree."""
    new_t = jax.tree_util.tree_structure(new, is_leaf=_is_leaf)
    like_t = jax.tree_util.tree_structure(like, is_leaf=_is_leaf)
    if new_t != like_t:  # type: ignore[operator]  # jax's PyTreeDef compares with == / != (no stub here)
        raise OpError(f"For '{name}', the body must return a value with the same structure as the initial value: "
                      f"got {new_t}, expected {like_t}.")
    pairs = zip(jax.tree_util.tree_leaves(new, is_leaf=_is_leaf), jax.tree_util.tree_leaves(like, is_leaf=_is_leaf))
    leaves = []
    for n, l in pairs:
        n_arr = n._value if isinstance(n, Tensor) else to_array(n)
        l_arr = l._value if isinstance(l, Tensor) else to_array(l)
        if jnp.shape(n_arr) != jnp.shape(l_arr):
            raise OpError(f"For '{name}', the body changed a carried value's shape from {list(jnp.shape(l_arr))} to "
                          f"{list(jnp.shape(n_arr))}; loop-carried shapes must stay fixed.")
        leaves.append(wrap(n_arr.astype(l_arr.dtype)))
    return jax.tree_util.tree_unflatten(like_t, leaves)


def _pred(name, p):
    p = p._value if isinstance(p, Tensor) else jnp.asarray(p)
    if p.shape not in ((), (1,)):
        raise OpError(f"For '{name}', the condition must be a scalar, but got shape {list(p.shape)}.")
    return p.reshape(()).astype(jnp.bool_)


def cond(pred: Tensor, true_fn: Callable[..., Any], false_fn: Callable[..., Any], *operands: Tensor) -> Any:
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``; both branches are traced once.

    Both branches must return the same structure, shapes and dtypes.
    """
    p = _pred("cond", pred)
    ops_t = _to_tensors(operands)
    return jax.lax.cond(p, lambda o: _to_tensors(true_fn(*o)), lambda o: _to_tensors(false_fn(*o)), ops_t)


def switch_case(index: Tensor, branches: Sequence[Callable[..., Any]], *operands: Tensor) -> Any:
    """``branches[index](*operands)`` (index clamped to the valid range), traced as one XLA case."""
    if not branches:
        raise OpError("For 'switch_case', 'branches' must not be empty.")
    i = index._value if isinstance(index, Tensor) else jnp.asarray(index)
    if not jnp.issubdtype(i.dtype, jnp.integer):
        raise OpTypeError(f"For 'switch_case', 'index' must be an integer, but got {i.dtype}.")
    fns = [lambda o, f=f: _to_tensors(f(*o)) for f in branches]
    return jax.lax.switch(i.reshape(()), fns, _to_tensors(operands))


def while_loop(cond_func: Callable[..., Any], loop_func: Callable[..., Any], init_val: Any) -> Any:
    """Repeat ``val = loop_func(val)`` while ``cond_func(val)``; returns the final ``val``.

    Args:
        cond_func: ``val -> scalar Bool Tensor``.
        loop_func: ``val -> val`` (same structure, shapes and dtypes).
        init_val: a Tensor, number, or tuple/list/dict of them.
    """
    init = _to_tensors(init_val)
    return jax.lax.while_loop(lambda v: _pred("while_loop", cond_func(v)),
                              lambda v: _match("while_loop", loop_func(v), v), init)


def fori_loop(lower: int, upper: int, loop_func: Callable[..., Any], init_val: Any, unroll: bool | int = False) -> Any:
    """``val = loop_func(i, val)`` for i in [lower, upper); with Python-int bounds it is reverse-differentiable."""
    init = _to_tensors(init_val)
    lo = lower._value if isinstance(lower, Tensor) else lower
    hi = upper._value if isinstance(upper, Tensor) else upper
    if isinstance(unroll, bool):
        unroll = 1 if not unroll else max(1, (hi - lo) if isinstance(hi, int) and isinstance(lo, int) else 1)
    return jax.lax.fori_loop(lo, hi, lambda i, v: _match("fori_loop", loop_func(wrap(i), v), v), init,
                             unroll=unroll)


def scan(loop_func: Callable[..., Any], init: Any, xs: Any, length: int | None = None, reverse: bool = False,
         unroll: bool | int = 1) -> tuple[Any, Any]:
    """``carry, y = loop_func(carry, x)`` over the leading axis of ``xs``; returns ``(carry, stacked ys)``."""
    carry0 = _to_tensors(init)
    xs_t = None if xs is None else _to_tensors(xs)

    def body(c, x):
        c_new, y = loop_func(c, x)
        return _match("scan", c_new, c), _to_tensors(y)

    return jax.lax.scan(body, carry0, xs_t, length=length, reverse=reverse, unroll=unroll)
