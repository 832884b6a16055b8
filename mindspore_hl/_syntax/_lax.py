"""Converted control flow on traced values: ``lax.cond``, ``lax.while_loop`` and ``lax.scan`` with state.

Each branch / loop body runs inside a child ``StatelessScope``: Parameters it assigns (``set_data``) and random
keys it draws are collected there and carried as extra outputs / loop state, then recorded into the enclosing
scope after the ``lax`` call, so the compile engine sees them exactly as it sees straight-line updates.
A first, shape-only trace of each branch / body (``probe``) finds the variables' shapes and dtypes, the assigned
Parameters and whether random keys are drawn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

import jax
import jax.numpy as jnp

from .._engine import _scope
from ..common.tensor import Tensor, wrap
from ._carry import RETVAL, Desc, Plan, Undefined, display, normalize, pack_all, raw, unpack_all, where

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence


def pred_array(x: Any, site: tuple[str, int], what: str) -> jax.Array:
    """A scalar bool array for a condition, or a clear error for non-scalar Tensors."""
    arr = jnp.asarray(raw(x))
    if arr.size != 1:
        raise ValueError(f"{where(site)}: the condition of this `{what}` is a Tensor of shape {list(arr.shape)}; its "
                         f"truth value is ambiguous. Fix: reduce it with .any() or .all().")
    return arr.reshape(()).astype(jnp.bool_)


def _rng_scope():
    s = _scope.current()
    while s is not None and s.rng is None:
        s = s.parent
    return s


class _Probe:
    """One shape-only run of ``fn(*args)``: descriptions of its outputs, assigned Parameters, rng use."""

    def __init__(self, fn, args, rng, closure_consts=False):
        self.consts: Sequence[Any] = ()

        def run():
            with _scope.StatelessScope(rng=rng) as sc:
                out = fn(*args)
            self.out = [Desc(v) for v in out]
            self.params = [p for p, _ in sc.updates()]
            self.rng_used = sc.rng is not rng
            return [jnp.asarray(raw(x)) for v in out if not isinstance(v, Undefined)
                    for x in jax.tree_util.tree_leaves(v) if _is_array_leaf(x)]

        if closure_consts:
            _, self.consts = jax.closure_convert(run)
        else:
            jax.eval_shape(run)


def _is_array_leaf(x):
    return isinstance(x, (jax.core.Tracer, jax.Array)) or type(x) in (bool, int, float, complex) or hasattr(x, "dtype")


def _union(*lists):
    seen, out = set(), []
    for lst in lists:
        for p in lst:
            if id(p) not in seen:
                seen.add(id(p))
                out.append(p)
    return out


def _commit(params, values, rng_scope, rng):
    for p, v in zip(params, values):
        p._set_value(v)
    if rng is not None and rng_scope is not None:
        rng_scope.rng = rng


def cond(pred: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], values: Sequence[Any],
         names: Sequence[str], site: tuple[str, int], guard: bool = False) -> tuple[Any, ...]:
    """``lax.cond`` over the variables ``names``: undefined/mismatched ones become Undefined markers.

    ``guard``: the ``if`` skips the rest of a block after ``return``/``break``/``continue``; a variable assigned
    only on the path that did not jump gets zeros on the other, which is never read (the rest of the block
    is guarded by the same flag).
    """
    p = pred_array(pred, site, "if")
    values = normalize(values)
    rs = _rng_scope()
    rng0 = rs.rng if rs is not None else None
    pt, pf = _Probe(true_fn, values, rng0), _Probe(false_fn, values, rng0)
    plans = []
    for name, a, b, _v in zip(names, pt.out, pf.out, values):
        is_value = name == RETVAL or name.startswith("ag__value")
        fill = is_value or guard

        def mismatch(msg, name=name, is_value=is_value):
            text = (f"{where(site)}: {display(name)} differs between the branches of this `if` on a Tensor "
                    f"condition: {msg}. Both branches must give Tensors of the same shape and dtype "
                    f"(cast with ops.cast or reshape first)")
            if is_value:
                raise TypeError(text + ".")
            return Plan("undefined", Undefined(name, text + f", or not use {display(name)} after the `if`."))

        if a.undefined is not None and b.undefined is not None:
            plans.append(Plan("static", a.undefined))
        elif a.undefined is not None or b.undefined is not None:
            if fill:
                plans.append(Plan.carry_of(b if a.undefined is not None else a))
            else:
                side = "true" if b.undefined is not None else "false"
                plans.append(Plan("undefined", Undefined(name, (
                    f"{where(site)}: '{name}' is assigned only in the {side} branch of this `if` on a Tensor "
                    f"condition, so it has no value after the `if` when the other branch runs. Fix: assign "
                    f"'{name}' before the `if` or in both branches."))))
        else:
            plans.append(Plan.from_pair(a, b, mismatch))
    params = _union(pt.params, pf.params)
    carry_rng = rng0 is not None and (pt.rng_used or pf.rng_used)

    def branch(fn):
        def run(_):
            with _scope.StatelessScope(rng=rng0) as sc:
                out = fn(*values)
            new = {id(q): sc.values[id(q)] for q, _ in sc.updates()}
            pv = [new.get(id(q), q._value) for q in params]
            return pack_all(plans, out, names, site), pv, (sc.rng if carry_rng else None)
        return run

    arrays, pv, rng = jax.lax.cond(p, branch(true_fn), branch(false_fn), None)
    _commit(params, pv, rs, rng)
    return unpack_all(plans, arrays)


def _reverse_check(probe, values, site, what):
    """Reverse mode cannot go through a loop whose trip count is only known at run time: say so here."""
    leaves = list(probe.consts) + [raw(x) for v in values if not isinstance(v, Undefined)
                                   for x in jax.tree_util.tree_leaves(v)]
    if any(type(x).__name__ == "LinearizeTracer" for x in leaves):
        raise ValueError(
            f"{where(site)}: reverse-mode differentiation (grad) through this `{what}` is not possible: the number "
            f"of iterations depends on a Tensor value, so the backward pass has no bound (MindSpore-on-JAX limit; "
            f"forward values and forward-mode jvp work). Fix: loop over `range(N)` with a Python int N and "
            f"`break` when done (`for i in range(N):` ... `if stop: break`), or wrap the loop's inputs in "
            f"ops.stop_gradient if no gradient has to flow through it.")


def _loop_plans(probe, values, names, site, what):
    plans = []
    for name, init, out, _v in zip(names, [Desc(v) for v in values], probe.out, values):
        if init.undefined is not None and out.undefined is not None:
            plans.append(Plan("static", init.undefined))
        elif init.undefined is not None:
            plans.append(Plan.carry_of(out))
        elif out.undefined is not None:
            plans.append(Plan("undefined", out.undefined))
        else:
            def mismatch(msg, name=name):
                raise TypeError(f"{where(site)}: {display(name)} changes in this `{what}` loop on a Tensor "
                                f"condition: {msg}. A loop variable must keep its type, shape and dtype across "
                                f"iterations (cast with ops.cast, or give it its final shape before the loop).")
            plans.append(Plan.from_pair(out, init, mismatch))
    return plans


def loop(body_fn: Callable[..., Any], values: Sequence[Any], names: Sequence[str], site: tuple[str, int], what: str,
         test_fn: Callable[..., Any] | None = None, xs: Tensor | None = None) -> Any:
    """``lax.while_loop`` (``test_fn`` given) or ``lax.scan`` over ``xs``'s first axis (``body_fn(x, *vars)``)."""
    values = normalize(values)
    rs = _rng_scope()
    rng0 = rs.rng if rs is not None else None
    first = None if xs is None else wrap(raw(xs)[0])
    probe_fn = body_fn if xs is None else (lambda *v: body_fn(first, *v))
    try:
        probe = _Probe(probe_fn, values, rng0, closure_consts=test_fn is not None)
    except UnboundLocalError as e:
        raise UnboundLocalError(f"{e} ({where(site)}: a variable of this `{what}` loop is read before it is "
                                f"assigned; give it a value before the loop.)") from None
    if test_fn is not None:
        _reverse_check(probe, values, site, what)
    plans = _loop_plans(probe, values, names, site, what)
    params = list(probe.params)
    carry_rng = rng0 is not None and probe.rng_used
    init_vals = [plan.value if plan.kind == "undefined" else v for plan, v in zip(plans, values)]
    carry0 = (pack_all(plans, init_vals, names, site), [q._value for q in params], rng0 if carry_rng else None)

    def unpack(carry):
        return unpack_all(plans, carry[0]), carry[1], carry[2]

    def step(carry, x):
        vals, pv, rng = unpack(carry)
        with _scope.StatelessScope(params, pv, rng=rng if carry_rng else rng0) as sc:
            out = body_fn(*vals) if xs is None else body_fn(wrap(x), *vals)
        new_pv = [sc.values[id(q)] for q in params]
        return pack_all(plans, out, names, site), new_pv, (sc.rng if carry_rng else None)

    if xs is None:
        cond_fn = cast("Callable[..., Any]", test_fn)  # the while form: test_fn is given

        def test(carry):
            vals, pv, rng = unpack(carry)
            with _scope.StatelessScope(params, pv, rng=rng if carry_rng else rng0):
                t = cond_fn(*vals)
            return pred_array(t, site, what)

        carry = jax.lax.while_loop(test, lambda c: step(c, None), carry0)
    else:
        carry, _ = jax.lax.scan(lambda c, x: (step(c, x), None), carry0, raw(xs))
    vals, pv, rng = unpack(carry)
    _commit(params, pv, rs, rng)
    return vals


def value_cond(pred: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], site: tuple[str, int]) -> Any:
    """``a if pred else b`` on a traced ``pred``: one value, both branches must agree."""
    out = cond(pred, lambda _: (true_fn(),), lambda _: (false_fn(),), (Undefined("ag__value"),), ("ag__value",),
               site)
    return out[0]


def logical(op: str, a: Any, b: Any, site: tuple[str, int]) -> Any:
    """``a and b`` / ``a or b`` where ``a`` is traced: Python's value semantics as a select."""
    av, bv = jnp.asarray(raw(a)), jnp.asarray(raw(b) if not isinstance(b, bool) else b)
    if av.dtype == jnp.bool_ and bv.dtype == jnp.bool_:
        fn = jnp.logical_and if op == "and" else jnp.logical_or
        return wrap(fn(av, bv))
    truth = pred_array(a, site, op)
    if av.shape != bv.shape:
        raise ValueError(f"{where(site)}: `{op}` on a Tensor condition gives one of its operands, which must then "
                         f"have the same shape ({list(av.shape)} vs {list(bv.shape)}). Fix: use ops.logical_{op} "
                         f"on boolean Tensors.")
    dt = jnp.result_type(av, bv)
    chosen = jnp.where(truth, bv.astype(dt), av.astype(dt)) if op == "and" else \
        jnp.where(truth, av.astype(dt), bv.astype(dt))
    return wrap(chosen) if isinstance(a, Tensor) or isinstance(b, Tensor) else chosen
