"""The helpers converted code calls (``ag__.if_stmt`` ...): Python control flow on Python / concrete values,
``lax`` control flow (``_lax``) when the deciding value is a tracer, as TF AutoGraph's ``ag__`` operators do."""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import jax.numpy as jnp

from ..common.tensor import Tensor, wrap
from . import _lax
from ._carry import UNSET_RETURN, Undefined, is_traced, raw, where

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

__all__ = ["Undefined", "ld", "unset_return", "retval", "and_", "or_", "not_", "compare", "if_exp", "if_stmt",
           "while_stmt", "for_stmt", "range_"]


def ld(value: Any) -> Any:
    """A variable read: an undefined value raises its recorded reason (assigned in one branch only, ...)."""
    if isinstance(value, Undefined):
        raise value.error()
    return value


def unset_return() -> Undefined:
    return UNSET_RETURN


def retval(value: Any) -> Any:
    return None if isinstance(value, Undefined) else value


_SITE = ("<converted code>", 0)


def and_(*operands: Callable[[], Any], site: tuple[str, int] = _SITE) -> Any:
    """``a and b and ...`` (each operand a thunk): short-circuits on Python values, selects on traced ones."""
    value = operands[0]()
    for thunk in operands[1:]:
        if is_traced(value):
            value = _lax.logical("and", value, thunk(), site)
        elif not value:
            return value
        else:
            value = thunk()
    return value


def or_(*operands: Callable[[], Any], site: tuple[str, int] = _SITE) -> Any:
    """``a or b or ...`` (each operand a thunk)."""
    value = operands[0]()
    for thunk in operands[1:]:
        if is_traced(value):
            value = _lax.logical("or", value, thunk(), site)
        elif value:
            return value
        else:
            value = thunk()
    return value


_COMPARE = {"Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge, "Eq": operator.eq,
            "NotEq": operator.ne, "Is": operator.is_, "IsNot": operator.is_not,
            "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}


def compare(first: Any, *rest: Any, site: tuple[str, int] = _SITE) -> Any:
    """A comparison chain ``a < b < c``: ``rest`` alternates operator names and operand thunks; each operand
    is evaluated once, and the chain stops on a Python false value as Python does."""
    left, result = first, True
    for i in range(0, len(rest), 2):
        right = rest[i + 1]()
        part = _COMPARE[rest[i]](left, right)
        # A Python true ``result`` leaves ``part``; a traced one is combined with it.
        result = _lax.logical("and", result, part, site) if i and is_traced(result) else part
        if not is_traced(result) and not result:
            return result
        left = right
    return result


def not_(value: Any, site: tuple[str, int] = _SITE) -> Any:
    if is_traced(value):
        return wrap(jnp.logical_not(_lax.pred_array(value, site, "not")))
    return not value


def if_exp(test: Any, true_thunk: Callable[[], Any], false_thunk: Callable[[], Any], site: tuple[str, int]) -> Any:
    """``a if test else b``."""
    if is_traced(test):
        return _lax.value_cond(test, true_thunk, false_thunk, site)
    return true_thunk() if test else false_thunk()


def if_stmt(test: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], values: Sequence[Any],
            names: Sequence[str], site: tuple[str, int], guard: bool = False) -> tuple[Any, ...]:
    """``if test: ... else: ...`` over the variables ``names`` (the branches take and return their values);
    ``guard``: a generated ``if not flag`` after a ``return``/``break``/``continue``."""
    if is_traced(test):
        return _lax.cond(test, true_fn, false_fn, values, names, site, guard)
    return true_fn(*values) if test else false_fn(*values)


def while_stmt(test_fn: Callable[..., Any], body_fn: Callable[..., Any], values: Sequence[Any], names: Sequence[str],
               site: tuple[str, int]) -> Any:
    """``while test: body``; Python iterations until the test is a traced value, then one ``lax.while_loop``."""
    while True:
        test = test_fn(*values)
        if is_traced(test):
            return _lax.loop(body_fn, values, names, site, "while", test_fn=test_fn)
        if not test:
            return values
        values = body_fn(*values)


class TracedRange:
    """``range(start, stop, step)`` whose bounds are only known when the graph runs."""

    def __init__(self, start: Any, stop: Any, step: Any) -> None:
        self.start, self.stop, self.step = start, stop, step


def _int_or_traced(x, site):
    if is_traced(x):
        arr = raw(x)
        if arr.size != 1 or not jnp.issubdtype(arr.dtype, jnp.integer):
            raise TypeError(f"{where(site)}: range() takes integer scalars, but got a Tensor of shape "
                            f"{list(arr.shape)} and dtype {arr.dtype}.")
        return wrap(arr.reshape(()))
    return int(x)


def range_(*args: Any, site: tuple[str, int] = _SITE) -> range | TracedRange:
    """``range(...)`` inside converted code: a Python range when every bound is known, else a TracedRange."""
    if not any(is_traced(a) for a in args):
        return range(*[int(a) if isinstance(a, Tensor) else a for a in args])
    vals = [_int_or_traced(a, site) for a in args]
    start, stop, step = (0, vals[0], 1) if len(vals) == 1 else (vals[0], vals[1], vals[2] if len(vals) > 2 else 1)
    return TracedRange(start, stop, step)


def _guarded(body_fn, flag_index, names, site):
    """The body of a loop with ``break``: skip an iteration once the break flag is set (a traced flag: a cond)."""
    def run(item, *values):
        return if_stmt(values[flag_index], lambda *v: v, lambda *v: body_fn(item, *v), values, names, site)
    return run


def _range_loop(rng, body_fn, values, names, site, flag_index):
    stop, step = rng.stop, rng.step
    dtype = raw(stop).dtype if isinstance(stop, Tensor) else jnp.int64
    start = wrap(jnp.asarray(raw(rng.start) if isinstance(rng.start, Tensor) else rng.start, dtype))
    names = ("ag__range_index",) + tuple(names)

    def in_range(i):
        s = raw(step)
        up = jnp.less(raw(i), raw(stop))
        if isinstance(s, int):
            return wrap(up if s > 0 else jnp.greater(raw(i), raw(stop)))
        return wrap(jnp.where(s > 0, up, jnp.greater(raw(i), raw(stop))))

    def test(i, *v):
        if flag_index is None:
            return in_range(i)
        return and_(lambda: in_range(i), lambda: not_(v[flag_index]))

    def body(i, *v):
        return (i + step,) + tuple(body_fn(i, *v))

    out = _lax.loop(body, (start,) + tuple(values), names, site, "for ... in range", test_fn=test)
    return out[1:]


def for_stmt(iterable: Any, body_fn: Callable[..., Any], flag: str | None, values: Sequence[Any], names: Sequence[str],
             site: tuple[str, int]) -> Any:
    """``for x in iterable: body`` (``body_fn(x, *values)``); a traced Tensor is scanned over its first axis."""
    flag_index = names.index(flag) if flag is not None else None
    if isinstance(iterable, TracedRange):
        return _range_loop(iterable, body_fn, values, names, site, flag_index)
    if is_traced(iterable):
        arr = raw(iterable)
        if arr.ndim == 0:
            raise TypeError(f"{where(site)}: iteration over a 0-d Tensor.")
        if arr.shape[0] == 0:
            return values
        body = body_fn if flag_index is None else _guarded(body_fn, flag_index, names, site)
        return _lax.loop(body, values, names, site, "for", xs=iterable if isinstance(iterable, Tensor) else wrap(arr))
    for item in iterable:
        if flag_index is not None:
            flag_value = values[flag_index]
            if is_traced(flag_value):
                values = _guarded(body_fn, flag_index, names, site)(item, *values)
                continue
            if flag_value:
                break
        values = body_fn(item, *values)
    return values

