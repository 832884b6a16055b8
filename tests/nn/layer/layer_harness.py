"""One shared test for every layer (the Keras ``run_layer_test`` idea).

``run_layer_test`` builds the layer in the current execution mode (the ``mode`` fixture) and checks, in one call:
parameter names and shapes; the output shape (from MindSpore's formulas, given by the test); the values against
an independent plain-JAX reference written in the test (run in float64); gradients w.r.t. inputs and parameters
against ``jax.grad`` of that reference; the input gradient against central finite differences of the layer
itself (float64); float16 inputs (output float16, parameters stay float32); train vs eval behaviour; and that a
wrongly shaped input raises a ValueError naming the Cell and both shapes.
"""
import os
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor


def _leaves(out):
    return jax.tree_util.tree_leaves(out, is_leaf=lambda x: x is None or isinstance(x, Tensor))


def _np(out):
    return [None if t is None else np.asarray(t.asnumpy()) for t in _leaves(out)]


def _is_float(a):
    return np.issubdtype(np.asarray(a).dtype, np.floating)


def _invoke(cell, args):
    call = getattr(cell, "_test_call", None)
    return call(cell, *args) if call is not None else cell(*args)


def _call(cell, arrays, dtype=None):
    return _invoke(cell, [Tensor(a.astype(dtype) if dtype is not None and _is_float(a) else a) for a in arrays])


def _shapes(out):
    return [None if t is None else tuple(t.shape) for t in _leaves(out)]


def _grad_fn(cell, inputs, cots, float_pos):
    """ms.grad of sum(out * cot) w.r.t. the float inputs and the trainable parameters (compiled in GRAPH_MODE)."""
    def loss(*xs):
        total = 0
        for o, c in zip(_leaves(_invoke(cell, xs)), cots):
            if o is not None and c is not None:
                total = total + (o * Tensor(c).astype(o.dtype)).sum()
        return total

    fn = ms.grad(loss, grad_position=tuple(float_pos) or None, weights=cell.trainable_params())
    if ms.get_context("mode") == ms.GRAPH_MODE:
        fn = ms.jit(fn)
    return fn


def run_layer_test(make, inputs, *, expected_shape, params=(), reference=None, train=False, train_eval="same",
                   bad_input=None, rtol=2e-5, atol=2e-5, grad_rtol=1e-4, grad_atol=1e-5, check_grads=True,
                   finite_diff=False, fp16=True, error_names=None, call=None):
    """Check one layer. Returns ``(cell, outputs as NumPy list)``.

    Args:
        make: () -> Cell, called after ``ms.set_seed(0)``.
        inputs: NumPy arrays passed as Tensors (float ones are differentiated).
        expected_shape: the output shape, or a list of shapes for several outputs (None for a None output).
        params: [(name, shape)] expected from ``parameters_and_names()``, in order.
        reference: ``fn(params: {name: float64 array}, *float64 inputs) -> output(s)``, in plain JAX.
        train: the mode the checks run in. train_eval: 'same' or 'differ' (outputs in the other mode), or None.
        bad_input: a wrongly shaped replacement for inputs[0]; must raise ValueError naming the Cell and shapes.
        finite_diff: also check the input gradient by central differences of the layer in float64.
        error_names: the Cell class the bad-input error must name (default: the layer's own class).
        call: ``fn(cell, *tensors)`` to call the layer when the inputs are not plain positional Tensors.
    """
    ms.set_seed(0)
    cell = make().set_train(train)
    if call is not None:
        cell.__dict__["_test_call"] = call
    graph = ms.get_context("mode") == ms.GRAPH_MODE
    assert [(n, tuple(p.shape)) for n, p in cell.parameters_and_names()] == [(n, tuple(s)) for n, s in params]
    assert all(p.dtype == ms.float32 for _, p in cell.parameters_and_names())

    out = _call(cell, inputs)
    want = [expected_shape] if isinstance(expected_shape, tuple) else list(expected_shape)
    assert _shapes(out) == [tuple(s) if s is not None else None for s in want]
    if graph:
        assert cell._compiled is not None, "GRAPH_MODE call did not go through the compiled path"
    values = _np(out)

    p64 = {n: jnp.asarray(np.asarray(p.asnumpy()), jnp.float64) for n, p in cell.parameters_and_names()}
    x64 = [jnp.asarray(a, jnp.float64) if _is_float(a) else jnp.asarray(a) for a in inputs]
    float_pos = [i for i, a in enumerate(inputs) if _is_float(a)]
    rng = np.random.default_rng(1)
    cots = [None if v is None or not _is_float(v) else rng.normal(size=v.shape) for v in values]
    names = [p.name for p in cell.trainable_params()]
    if reference is not None:
        ref, ref_in, ref_w = _reference(reference, p64, x64, float_pos, names, cots)
        for got, exp in zip(values, ref):
            if exp is not None:
                np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol)

    if check_grads:
        grads = _grad_fn(cell, inputs, cots, float_pos)(*[Tensor(a) for a in inputs])
        g_in, g_w = (grads if float_pos else ((), grads))
        g_in = (g_in,) if isinstance(g_in, Tensor) else tuple(g_in)
        if reference is not None:
            for k, (g, r) in enumerate(zip(g_in, ref_in)):
                np.testing.assert_allclose(g.asnumpy(), r, rtol=grad_rtol, atol=grad_atol, err_msg=f"input {k}")
            for n, g in zip(names, g_w):
                np.testing.assert_allclose(g.asnumpy(), ref_w[n], rtol=grad_rtol, atol=grad_atol, err_msg=n)
        if finite_diff and float_pos:
            _finite_difference(cell, inputs, float_pos, cots, g_in)

    # float16 and the unchanged train/eval behaviour are the same traced code in both modes: PYNATIVE checks
    # them; GRAPH checks the train/eval difference (the training flag is part of the compiled signature).
    if fp16 and float_pos and not graph:
        half = _call(cell, inputs, np.float16)
        for h, v in zip(_leaves(half), values):
            if h is not None and _is_float(v):
                assert h.dtype == ms.float16
                scale = np.max(np.abs(v)) + 1e-3
                np.testing.assert_allclose(h.asnumpy().astype(np.float64) / scale, v / scale, atol=2e-2)
        assert all(p.dtype == ms.float32 for _, p in cell.parameters_and_names())

    if train_eval == "differ" or (train_eval == "same" and not graph):
        cell.set_train(not train)
        other = _np(_call(cell, inputs))
        cell.set_train(train)
        same = all(np.allclose(a, b, rtol=1e-6, atol=1e-7) for a, b in zip(values, other) if a is not None)
        assert same == (train_eval == "same"), f"train vs eval outputs should be {train_eval}"

    if bad_input is not None:
        with pytest.raises(ValueError) as err:
            _call(cell, [bad_input] + list(inputs[1:]))
        msg = str(err.value)
        named = (error_names or type(cell).__name__) in msg
        assert named and str(tuple(bad_input.shape)) in msg and "expected" in msg, msg
    return cell, values


_REF_CACHE = {}


def _case_key():
    """The running test's id without its execution mode: the GRAPH and PYNATIVE runs share a reference."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    return re.sub(r"\[(graph|pynative)-?", "[", test) if test else None


def _reference(reference, p64, x64, float_pos, names, cots):
    """The reference's outputs and the gradients of sum(out * cot) w.r.t. float inputs and ``names``, in one jit.

    Reused when the same test case already computed it with identical inputs, parameters and cotangents.
    """
    key = _case_key()
    data = [np.asarray(a) for a in x64] + [np.asarray(p64[n]) for n in sorted(p64)] + \
        [np.asarray(c) for c in cots if c is not None]
    hit = _REF_CACHE.get(key)
    if hit is not None and len(hit[0]) == len(data) and all(
            a.shape == b.shape and np.array_equal(a, b) for a, b in zip(hit[0], data)):
        return hit[1]
    result = _compute_reference(reference, p64, x64, float_pos, names, cots)
    if key is not None:
        _REF_CACHE[key] = (data, result)
    return result


def _compute_reference(reference, p64, x64, float_pos, names, cots):
    @jax.jit
    def run(xs, ws):
        def f(xs, ws):
            args = list(x64)
            for i, v in zip(float_pos, xs):
                args[i] = v
            outs = jax.tree_util.tree_leaves(reference({**p64, **ws}, *args), is_leaf=lambda x: x is None)
            return [o if o is None or jnp.issubdtype(o.dtype, jnp.floating) else o.astype(jnp.float64) for o in outs]

        outs, pull = jax.vjp(f, xs, ws)
        ct = [None if o is None else jnp.zeros_like(o) if c is None else jnp.asarray(c, o.dtype)
              for o, c in zip(outs, cots)]
        return outs, pull(ct)

    outs, (g_in, g_w) = run([x64[i] for i in float_pos], {n: p64[n] for n in names})
    return ([None if o is None else np.asarray(o) for o in outs], [np.asarray(g) for g in g_in],
            {n: np.asarray(g) for n, g in g_w.items()})


def _finite_difference(cell, inputs, float_pos, cots, g_in, eps=1e-6):
    """Directional central difference of sum(out * cot) along a random direction, in float64."""
    rng = np.random.default_rng(2)
    dirs = {i: rng.normal(size=inputs[i].shape) for i in float_pos}

    def f(sign):
        xs = [inputs[i].astype(np.float64) + sign * eps * dirs[i] if i in dirs else inputs[i]
              for i in range(len(inputs))]
        outs = _np(_invoke(cell, [Tensor(a) for a in xs]))
        return sum(float(np.sum(o * c)) for o, c in zip(outs, cots) if o is not None and c is not None)

    fd = (f(1) - f(-1)) / (2 * eps)
    analytic = sum(float(np.sum(g.asnumpy() * dirs[i])) for g, i in zip(g_in, float_pos))
    np.testing.assert_allclose(analytic, fd, rtol=1e-4, atol=1e-6)
