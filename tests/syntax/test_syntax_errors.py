"""Unsupported syntax and invalid programs give errors naming the file, the line and what to write instead."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mindspore_hl import Tensor, ops
from mindspore_hl._syntax import GraphSyntaxError, convert
from mindspore_hl.common.tensor import wrap

FILE = r'test_syntax_errors\.py", line \d+'
STATE = 0


def _trace(fn, *args):
    return jax.jit(lambda *a: convert(fn)(*[wrap(x) for x in a])._value)(*[jnp.asarray(x) for x in args])


def gen(x):
    yield x


def uses_global(x):
    global STATE
    STATE = 1
    return x


def try_return(x):
    try:
        return x + 1
    except ValueError:
        return x


def del_in_branch(x):
    y = x
    if x.sum() > 0:
        del y  # noqa: F821
    return x


def outer():
    v = 1

    def inner(x):
        nonlocal v
        v = 2
        return x
    return inner


@pytest.mark.parametrize("fn, what", [
    (gen, r"`yield` \(a generator\) is not supported .* Fix: return a tuple"),
    (uses_global, r"`global` is not supported .* Fix: pass the value as an argument"),
    (try_return, r"`return`, `break` or `continue` inside `try` is not supported .* Fix: move"),
    (del_in_branch, r"`del` of a variable inside an if/while/for body is not supported .* Fix: assign"),
    (outer(), r"`nonlocal` is not supported .* Fix: return the new value"),
])
def test_unsupported_syntax(fn, what):
    with pytest.raises(GraphSyntaxError, match=FILE + ": " + what):
        convert(fn)


def one_branch_used(x):
    if x.sum() > 0:
        y = x * 2
    return y


def one_branch_unused(x):
    if x.sum() > 0:
        tmp = x * 2
        x = tmp + 1
    return x


def dtype_differs(x):
    if x.sum() > 0:
        y = x
    else:
        y = ops.cast(x, Tensor(1).dtype)
    return y


def shape_differs_unused(x):
    if x.sum() > 0:
        y = x[:1]
    else:
        y = x  # noqa: F841  (never used: the shapes may differ)
    return x


def loop_changes_shape(x):
    while x.sum() < 10:
        x = ops.concat((x, x))
    return x


def read_before_assigned(x):
    while x.sum() < 10:
        x = x + acc  # noqa: F821  (read before assignment on purpose)
        acc = x  # noqa: F841
    return x


def value_differs(x):
    return x[:1] if x.sum() > 0 else x


def returns_differ(x):
    if x.sum() > 0:
        return x, x
    return x


def test_variable_assigned_in_one_branch():
    with pytest.raises(UnboundLocalError, match=FILE + r": 'y' is assigned only in the true branch of this `if` on "
                                                       r"a Tensor condition.*Fix: assign 'y' before the `if`"):
        _trace(one_branch_used, np.ones(2, np.float32))
    # A temporary of one branch that is not used afterwards is fine.
    assert _trace(one_branch_unused, np.ones(2, np.float32)).tolist() == [3.0, 3.0]


def test_branches_differing_in_dtype_or_shape():
    with pytest.raises(UnboundLocalError, match=FILE + r": 'y' differs between the branches of this `if` on a "
                                                       r"Tensor condition: its dtype differs \(float32 vs int64\)"):
        _trace(dtype_differs, np.ones(2, np.float32))
    assert _trace(shape_differs_unused, np.ones(2, np.float32)).tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match=FILE + r": the value of this conditional expression differs .* its shape "
                                               r"differs \(\[1\] vs \[2\]\)"):
        _trace(value_differs, np.ones(2, np.float32))
    with pytest.raises(TypeError, match=FILE + r": the return value differs between the branches .* type or "
                                               r"structure"):
        _trace(returns_differ, np.ones(2, np.float32))


def test_loop_errors():
    with pytest.raises(TypeError, match=FILE + r": 'x' changes in this `while` loop on a Tensor condition: its "
                                               r"shape differs \(\[4\] vs \[2\]\)"):
        _trace(loop_changes_shape, np.ones(2, np.float32))
    with pytest.raises(UnboundLocalError, match=r"'acc' is used before it is assigned.*" + FILE + r": a variable "
                                                r"of this `while` loop is read before it is assigned"):
        _trace(read_before_assigned, np.ones(2, np.float32))
