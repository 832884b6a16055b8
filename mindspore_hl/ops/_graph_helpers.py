"""The graph-syntax helpers MindSpore exports as ``mindspore.ops`` functions (``make_tuple``, ``tail``, ...).

MindSpore's compiler lowers Python syntax to these (``a and b`` -> ``bool_and``, ``x += y`` ->
``augassign_add``, ``for v in seq`` -> ``iter_converter`` / ``ms_hasnext`` / ``ms_next``); user code may call
them too. Here each is its Python meaning, so it runs the same eagerly and while a step is being compiled:
values known while compiling (Python scalars, strings, tuples, dicts) are computed in Python, Tensor values
with array ops. As in MindSpore, ``augassign_*`` on a Tensor updates that Tensor in place inside a compiled
step (eagerly it returns a new Tensor, as MindSpore's PyNative does).
"""
from __future__ import annotations

import functools
import operator
from typing import Any, Callable

import jax
import jax.numpy as jnp

from .. import _toplevel_misc as _types
from ..common import dtype as mstype
from ..common.tensor import Tensor, wrap
from . import _math
from ._graph_helpers_ad import *  # noqa: F401,F403  (this module lists all of ops' graph-syntax helpers)
from ._graph_helpers_ad import __all__ as _ad_all

__all__ = ["bool_and", "bool_or", "bool_not", "bool_eq", "is_not", "in_dict", "not_in_dict", "dict_getitem",
           "dict_setitem", "make_dict", "make_list", "make_tuple", "make_slice", "make_range", "tail", "isconstant",
           "string_concat", "string_eq", "zip_operation", "partial", "switch", "switch_layer", "array_to_scalar",
           "reduced_shape", "broadcast_gradient_args", "augassign_add", "augassign_sub", "augassign_mul",
           "augassign_div", "augassign_floordiv", "augassign_mod", "hyper_add", "ms_next", "ms_hasnext",
           "iter_converter", "add_flags", "hastype"] + _ad_all


def _is_tensor_like(x: Any) -> bool:
    return isinstance(x, (Tensor, jax.Array))


def _value(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


def _logical(name: str, py: Callable[..., Any], arr: Callable[..., Any], *xs: Any) -> Any:
    if all(isinstance(x, bool) for x in xs):
        return py(*xs)
    if not all(isinstance(x, bool) or _is_tensor_like(x) for x in xs):
        raise TypeError(f"For '{name}', the inputs must be bools or bool Tensors, but got "
                        f"{', '.join(type(x).__name__ for x in xs)}.")
    return wrap(arr(*(jnp.asarray(_value(x), jnp.bool_) for x in xs)))


def bool_and(x: Any, y: Any) -> Any:
    """``x and y`` of two bools (a bool Tensor for Tensor inputs)."""
    return _logical("bool_and", lambda a, b: a and b, jnp.logical_and, x, y)


def bool_or(x: Any, y: Any) -> Any:
    """``x or y`` of two bools (a bool Tensor for Tensor inputs)."""
    return _logical("bool_or", lambda a, b: a or b, jnp.logical_or, x, y)


def bool_not(x: Any) -> Any:
    """``not x`` of a bool (a bool Tensor for a Tensor input)."""
    return _logical("bool_not", operator.not_, jnp.logical_not, x)


def bool_eq(x: Any, y: Any) -> Any:
    """``x == y`` of two bools (a bool Tensor for Tensor inputs)."""
    return _logical("bool_eq", operator.eq, jnp.equal, x, y)


def is_not(x: Any, y: Any) -> bool:
    """``x is not y``."""
    return x is not y


def _check_dict(name: str, d: Any) -> None:
    if not isinstance(d, dict):
        raise TypeError(f"For '{name}', the input must be a dict, but got {type(d).__name__}.")


def in_dict(key: Any, d: dict) -> bool:
    """``key in d``."""
    _check_dict("in_dict", d)
    return key in d


def not_in_dict(key: Any, d: dict) -> bool:
    """``key not in d``."""
    _check_dict("not_in_dict", d)
    return key not in d


def dict_getitem(d: dict, key: Any) -> Any:
    """``d[key]``."""
    _check_dict("dict_getitem", d)
    if key not in d:
        raise KeyError(f"For 'dict_getitem', the key {key!r} is not in the dict (keys {list(d)}).")
    return d[key]


def dict_setitem(d: dict, key: Any, value: Any) -> dict:
    """A new dict: ``d`` with ``key`` set to ``value`` (graph values are immutable, so ``d`` is unchanged)."""
    _check_dict("dict_setitem", d)
    out = dict(d)
    out[key] = value
    return out


def make_dict(keys: tuple, values: tuple) -> dict:
    """``dict(zip(keys, values))``; the two tuples have the same length."""
    if len(keys) != len(values):
        raise ValueError(f"For 'make_dict', keys and values must have the same length, but got {len(keys)} and "
                         f"{len(values)}.")
    return dict(zip(keys, values))


def make_list(*elements: Any) -> list:
    """``[*elements]``."""
    return list(elements)


def make_tuple(*elements: Any) -> tuple:
    """``(*elements,)``."""
    return tuple(elements)


def make_slice(start: Any, stop: Any, step: Any) -> slice:
    """``slice(start, stop, step)``."""
    return slice(start, stop, step)


def make_range(*args: int) -> tuple:
    """``tuple(range(*args))`` (start, stop, step as ``range``; ints known while compiling)."""
    if not 1 <= len(args) <= 3 or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise TypeError(f"For 'make_range', expected 1 to 3 int arguments, but got {args!r}.")
    if len(args) == 3 and args[2] == 0:
        raise ValueError("For 'make_range', the step must not be 0.")
    return tuple(range(*args))


def tail(x: tuple | list) -> tuple | list:
    """Everything but the first element of a tuple or list."""
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"For 'tail', the input must be a tuple or list, but got {type(x).__name__}.")
    if not x:
        raise ValueError("For 'tail', the input must not be empty.")
    return x[1:]


def isconstant(x: Any) -> bool:
    """Whether ``x`` is known while compiling (False for a Tensor traced in a compiled step; True eagerly)."""
    leaves = jax.tree_util.tree_leaves(x, is_leaf=lambda v: isinstance(v, Tensor))
    return not any(isinstance(_value(v), jax.core.Tracer) for v in leaves)


def string_concat(x: str, y: str) -> str:
    """``x + y`` of two strings."""
    if not isinstance(x, str) or not isinstance(y, str):
        raise TypeError(f"For 'string_concat', both inputs must be str, but got {type(x).__name__} and "
                        f"{type(y).__name__}.")
    return x + y


def string_eq(x: str, y: str) -> bool:
    """``x == y`` of two strings."""
    if not isinstance(x, str) or not isinstance(y, str):
        raise TypeError(f"For 'string_eq', both inputs must be str, but got {type(x).__name__} and "
                        f"{type(y).__name__}.")
    return x == y


def hastype(x: Any, type_: Any) -> bool:
    """Whether ``x`` has the MindSpore type ``type_``: a Tensor matches ``tensor_type`` and ``TensorType(its
    dtype)``; a Python number matches ``number`` and its own type as MindSpore types it (bool -> Bool, int ->
    Int64, float -> Float32). As in MindSpore, ``string`` and ``type_none`` are not accepted as ``type_``."""
    if isinstance(type_, _types.TensorType):
        element = type_.element_type()
        return isinstance(x, Tensor) and (element is None or element == x.dtype)
    if not isinstance(type_, mstype.Type) or type_ == mstype.string:
        raise TypeError(f"For 'hastype', the type must be a Tensor or number type (ms.tensor_type, ms.int64, "
                        f"ms.number, ...), but got {type_!r}.")
    if not isinstance(x, (bool, int, float)):
        return False
    if type_ == mstype.number:
        return True
    own = {bool: mstype.bool_, int: mstype.int64, float: mstype.float32}[type(x)]
    return own == type_


def zip_operation(*sequences: Any) -> tuple:
    """``tuple(zip(*sequences))`` (each element a tuple)."""
    if not sequences or not all(isinstance(s, (tuple, list)) for s in sequences):
        raise TypeError("For 'zip_operation', the inputs must be tuples or lists.")
    return tuple(zip(*sequences))


def partial(func: Callable[..., Any], *args: Any) -> Callable[..., Any]:
    """``func`` with its first arguments bound (``functools.partial``)."""
    if not callable(func):
        raise TypeError(f"For 'partial', the first input must be callable, but got {type(func).__name__}.")
    return functools.partial(func, *args)


def _pred(name: str, cond: Any) -> Any:
    """A Python bool, or a scalar bool array when only known at run time."""
    if isinstance(cond, (bool, int)):
        return bool(cond)
    v = jnp.asarray(_value(cond))
    if v.size != 1:
        raise ValueError(f"For '{name}', the condition must be a scalar, but got shape {tuple(v.shape)}.")
    v = v.reshape(()).astype(jnp.bool_)
    return v if isinstance(v, jax.core.Tracer) else bool(v)


def switch(cond: Any, true_branch: Any, false_branch: Any) -> Any:
    """``true_branch if cond else false_branch``; a condition known only at run time selects elementwise
    between two values of the same structure and shapes."""
    p = _pred("switch", cond)
    if isinstance(p, bool):
        return true_branch if p else false_branch
    t_leaves, t_tree = jax.tree_util.tree_flatten(true_branch, is_leaf=lambda v: isinstance(v, Tensor))
    f_leaves, f_tree = jax.tree_util.tree_flatten(false_branch, is_leaf=lambda v: isinstance(v, Tensor))
    if t_tree != f_tree:  # type: ignore[operator]  # jax's PyTreeDef compares with == / != (no stub here)
        raise TypeError("For 'switch', with a condition known only at run time both branches must have the same "
                        "structure.")
    out = [wrap(jnp.where(p, _value(a), _value(b))) for a, b in zip(t_leaves, f_leaves)]
    return jax.tree_util.tree_unflatten(t_tree, out)


def switch_layer(index: Any, branches: tuple) -> Callable[..., Any]:
    """The function ``branches[index]``; with an index known only at run time, a function whose call runs
    the chosen branch (``lax.switch``: an index out of range is clamped)."""
    if not isinstance(branches, (tuple, list)) or not branches or not all(callable(b) for b in branches):
        raise TypeError("For 'switch_layer', branches must be a non-empty tuple of functions or Cells.")
    idx = jnp.asarray(_value(index)).reshape(())
    if not isinstance(idx, jax.core.Tracer):
        i = int(idx)
        if not -len(branches) <= i < len(branches):
            raise IndexError(f"For 'switch_layer', index {i} is out of range for {len(branches)} branches.")
        return branches[i]

    def run(*args: Any) -> Any:
        def branch(fn):
            return lambda *a: jax.tree_util.tree_map(_value, fn(*a), is_leaf=lambda v: isinstance(v, Tensor))
        out = jax.lax.switch(idx.astype(jnp.int32), [branch(b) for b in branches], *args)
        return jax.tree_util.tree_map(wrap, out)

    return run


def array_to_scalar(x: Any) -> Any:
    """The Python scalar held by a one-element Tensor (the 0-d value itself while compiling)."""
    v = jnp.asarray(_value(x))
    if v.size != 1:
        raise ValueError(f"For 'array_to_scalar', the input must have one element, but got shape {tuple(v.shape)}.")
    v = v.reshape(())
    return wrap(v) if isinstance(v, jax.core.Tracer) else v.item()


def reduced_shape(shape: tuple, axis: int | tuple) -> tuple:
    """``shape`` with the reduced ``axis`` dimensions set to 1 (every dimension for ``()``)."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    n = len(shape)
    if not axes:
        return (1,) * n
    for a in axes:
        if not -n <= a < n:
            raise ValueError(f"For 'reduced_shape', axis {a} is out of range for a shape of rank {n}.")
    norm = {a % n for a in axes}
    return tuple(1 if i in norm else d for i, d in enumerate(shape))


def broadcast_gradient_args(x_shape: tuple, y_shape: tuple) -> tuple:
    """The axes to sum each input's gradient over after broadcasting ``x_shape`` with ``y_shape``."""
    n = max(len(x_shape), len(y_shape))
    out = jnp.broadcast_shapes(tuple(x_shape), tuple(y_shape))

    def axes(shape):
        pad = n - len(shape)
        return tuple(i for i in range(n) if i < pad or (shape[i - pad] == 1 and out[i] != 1))
    return axes(tuple(x_shape)), axes(tuple(y_shape))


# ---- augmented assignment -------------------------------------------------------------------------------
def _augassign(name: str, tensor_op: Callable[[Any, Any], Any], py_op: Callable[[Any, Any], Any]):
    def fn(x: Any, y: Any) -> Any:
        if isinstance(x, Tensor) and isinstance(x._value, jax.core.Tracer) \
                and (isinstance(y, Tensor) or isinstance(y, (int, float, bool))):
            # In a compiled step MindSpore updates the Tensor in place (InplaceAdd...), keeping its dtype;
            # its PyNative returns a new Tensor and leaves ``x`` as it was (both recorded by the oracle).
            x._set_value(jnp.asarray(_value(tensor_op(x, y))).astype(x._value.dtype))
            return x
        if isinstance(x, Tensor) or isinstance(y, Tensor):
            return tensor_op(x if not isinstance(x, (tuple, list)) else wrap(jnp.asarray(x)),
                             y if not isinstance(y, (tuple, list)) else wrap(jnp.asarray(y)))
        return py_op(x, y)
    fn.__name__ = name
    fn.__doc__ = (f"``x {name}`` as MindSpore runs it: the Tensor op (in place on a Tensor ``x`` inside a "
                  f"compiled step), else the Python operator.")
    return fn


augassign_add = _augassign("augassign_add", _math.add, operator.add)
augassign_sub = _augassign("augassign_sub", _math.sub, operator.sub)
augassign_mul = _augassign("augassign_mul", _math.mul, operator.mul)
augassign_div = _augassign("augassign_div", _math.div, operator.truediv)
augassign_floordiv = _augassign("augassign_floordiv", _math.floor_divide, operator.floordiv)
augassign_mod = _augassign("augassign_mod", _math.remainder, operator.mod)


def hyper_add(x: Any, y: Any) -> Any:
    """``x + y`` applied leaf by leaf through matching tuples / lists, giving tuples (Tensor leaves with
    ``ops.add``)."""
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        if len(x) != len(y):
            raise ValueError(f"For 'hyper_add', the sequences must have the same length, but got {len(x)} and "
                             f"{len(y)}.")
        return tuple(hyper_add(a, b) for a, b in zip(x, y))  # (MindSpore's HyperMap gives tuples)
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        return _math.add(x, y)
    return x + y


# ---- iteration ------------------------------------------------------------------------------------------
def iter_converter(x: Any) -> Any:
    """What ``for v in x`` iterates: the sequence itself; a dict's keys as a tuple."""
    if isinstance(x, dict):
        return tuple(x)
    if isinstance(x, (tuple, list, str, Tensor)):
        return x
    raise TypeError(f"For 'iter_converter', the input must be a tuple, list, dict, str or Tensor, but got "
                    f"{type(x).__name__}.")


def ms_hasnext(x: Any) -> bool:
    """Whether the sequence still has an element."""
    return len(x) > 0


def ms_next(x: Any) -> tuple:
    """``(first element, rest)`` of a non-empty sequence."""
    if not len(x):
        raise ValueError("For 'ms_next', the sequence is empty.")
    return x[0], x[1:]


def add_flags(fn: Callable[..., Any] | None = None, **flags: Any) -> Any:
    """Record compiler flags on ``fn`` (``fn._func_graph_flags``, merged) and return it; without ``fn`` a
    decorator that does so."""
    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        current = dict(getattr(f, "_func_graph_flags", {}) or {})
        current.update(flags)
        f._func_graph_flags = current  # type: ignore[attr-defined]
        return f
    return deco if fn is None else deco(fn)
