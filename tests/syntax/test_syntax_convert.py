"""convert(): caching, Python conditions staying Python, closures / super() / private names, Parameter and
random-key threading through converted branches and loops, PYNATIVE code untouched."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops
from mindspore_hl._syntax import convert, is_converted
from mindspore_hl.common import _scope
from mindspore_hl.common.tensor import wrap


def _jit(fn, *args, params=(), rng=None):
    """Run ``fn`` under jax.jit inside a stateless scope; returns (output arrays, new Parameter values, rng)."""
    params = list(params)

    def run(pvals, arrays, key):
        with _scope.StatelessScope(params, pvals, rng=key) as scope:
            out = fn(*[wrap(a) for a in arrays])
            new = [scope.values[id(p)] for p in params]
            leaves = out if isinstance(out, tuple) else (out,)
            arrays = [x._value if isinstance(x, Tensor) else jnp.asarray(x) for x in leaves]
        return arrays, new, scope.rng

    key = jax.random.PRNGKey(0) if rng is None else rng
    cache_key = (fn, tuple(id(p) for p in params))
    jitted = _JITTED.get(cache_key)
    if jitted is None:
        jitted = _JITTED[cache_key] = jax.jit(run)
    return jitted([p._value for p in params], [jnp.asarray(a) for a in args], key)


_JITTED = {}  # one jitted runner per function, so calls with the same shapes compile once


def _primitives(fn, *args):
    jaxpr = jax.make_jaxpr(lambda *a: convert(fn)(*[wrap(x) for x in a])._value)(*args)
    return {e.primitive.name for e in jaxpr.jaxpr.eqns}


def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x * 3
    return y


def test_conversion_is_cached_and_marked():
    c = convert(branchy)
    assert c is convert(branchy) and is_converted(c) and not is_converted(branchy)
    assert convert(c) is c
    assert c.__name__ == "branchy" and c.__wrapped__ is branchy


def test_python_and_concrete_conditions_stay_python():
    def f(x, flag=True):
        if flag and x.shape[0] == 3:
            y = x + 1
        else:
            y = x - 1
        for _ in range(2):
            y = y * 2
        return y

    x = np.ones(3, np.float32)
    assert "cond" not in _primitives(f, x) and "while" not in _primitives(f, x)
    assert {"cond"} <= _primitives(branchy, x)
    # A concrete Tensor condition runs as Python too, eagerly.
    assert convert(branchy)(Tensor(np.array([-1.0], np.float32))).asnumpy().tolist() == [-3.0]


def test_loops_lower_to_lax():
    def while_fn(x):
        while x.sum() < 10:
            x = x * 2
        return x

    def scan_fn(x):
        acc = x[0]
        for row in x:
            acc = acc + row
        return acc

    assert "while" in _primitives(while_fn, np.ones(2, np.float32))
    assert "scan" in _primitives(scan_fn, np.ones((3, 2), np.float32))


def test_bound_method_closure_super_and_private_names():
    offset = Tensor(np.float32(1.0))

    class Base(nn.Cell):
        def construct(self, x):
            return x * 10

    class Net(Base):
        def __init__(self):
            super().__init__()
            self.__scale = 2.0

        def construct(self, x):
            if x.sum() > 0:
                y = super().construct(x) + offset
            else:
                y = x * self.__scale
            return y

    net = Net()
    method = convert(net.construct)
    assert method.__self__ is net and is_converted(method)
    (pos,), _, _ = _jit(method, np.ones(2, np.float32))
    (neg,), _, _ = _jit(method, -np.ones(2, np.float32))
    assert pos.tolist() == [11.0, 11.0] and neg.tolist() == [-2.0, -2.0]


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.zeros(2, np.float32)), name="total", requires_grad=False)
        self.steps = Parameter(Tensor(np.array(0, np.int32)), name="steps", requires_grad=False)

    def construct(self, x):
        while self.steps < 3:
            ops.assign(self.total, self.total + x)
            ops.assign(self.steps, self.steps + 1)
        if x.sum() > 0:
            ops.assign(self.total, self.total * 2)
        return self.total


def test_parameters_are_threaded_through_loops_and_branches():
    net = Counter()
    params = [net.total, net.steps]
    (out,), (total, steps), _ = _jit(convert(net.construct), np.ones(2, np.float32), params=params)
    assert out.tolist() == [6.0, 6.0] and total.tolist() == [6.0, 6.0] and int(steps) == 3
    # The loop reads the carried value of the Parameter it updates (3 more steps from 1 would differ).
    net.steps.set_data(Tensor(np.array(1, np.int32)))
    (out,), (_, steps), _ = _jit(convert(net.construct), -np.ones(2, np.float32), params=params)
    assert out.tolist() == [-2.0, -2.0] and int(steps) == 3


def test_random_keys_are_threaded_through_branches():
    def f(x):
        if x.sum() > 0:
            y = x + ops.uniform((2,), Tensor(0.0, ms.float32), Tensor(1.0, ms.float32))
        else:
            y = x
        return y

    key = jax.random.PRNGKey(3)
    (a,), _, key_a = _jit(convert(f), np.zeros(2, np.float32) + 1, rng=key)
    (b,), _, _ = _jit(convert(f), -np.ones(2, np.float32), rng=key)
    assert np.all((a > 1) & (a < 2)) and b.tolist() == [-1.0, -1.0]
    assert not np.array_equal(jax.random.key_data(key_a) if hasattr(key_a, "dtype") and
                              jnp.issubdtype(key_a.dtype, jax.dtypes.prng_key) else key_a, key)


def test_pynative_runs_the_original_code():
    calls = []

    class Net(nn.Cell):
        def construct(self, x):
            calls.append(type(x._value).__name__)
            if x.sum() > 0:
                return x * 2
            return x

    out = Net()(Tensor(np.ones(2, np.float32)))
    assert out.asnumpy().tolist() == [2.0, 2.0] and calls == ["ArrayImpl"]


def test_if_expression_and_logic_on_tensors_give_tensors():
    def f(x, y):
        both = x.sum() > 0 and y.sum() > 0
        either = x.sum() > 5 or not y.sum() > 0
        z = x if both else y
        return z, both, either

    (z, both, either), _, _ = _jit(convert(f), np.ones(2, np.float32), -np.ones(2, np.float32))
    assert z.tolist() == [-1.0, -1.0] and both.dtype == jnp.bool_ and not bool(both) and bool(either)


def if_on_vector(x):
    if x > 0:
        x = x + 1
    return x


def test_condition_on_a_vector_is_ambiguous():
    with pytest.raises(ValueError, match=r'test_syntax_convert\.py", line \d+: the condition of this `if` is a '
                                         r"Tensor of shape \[2\]; its truth value is ambiguous"):
        _jit(convert(if_on_vector), np.ones(2, np.float32))


def range_loops(x, n):
    total = x * 0
    for i in range(n):
        if total.sum() > 10:
            break
        total = total + x * i
    for j in range(n, 0, -2):
        total = total - j
    k = 0
    while k < 3:
        k += 1
        if (total * k).sum() > 1000:
            break
    else:
        total = total + 100
    return total, i, j


@pytest.mark.parametrize("n", [0, 3, 7])
def test_range_over_a_tensor_with_break_step_and_else(n):
    x = np.array([1.0, 2.0], np.float32)
    want = range_loops(Tensor(x), Tensor(np.int32(n))) if n else None
    (total, i, j), _, _ = _jit(convert(range_loops), x, np.int32(n))
    if n == 0:  # the loops never run: Python would leave i and j unbound; the carried values are zeros
        assert total.tolist() == [100.0, 100.0]
        return
    assert total.tolist() == want[0].asnumpy().tolist()
    assert int(i) == int(want[1]) and int(j) == int(want[2])


def clipped(v, limit):
    if v.max() > limit:
        v = v / v.max() * limit
    return v


def pairs(v):
    yield v
    yield v * 2


class UsesHelpers(nn.Cell):
    def scale(self, v):
        return v * 3 if v.sum() > 0 else v

    def construct(self, x):
        y = clipped(x, 2.0) + self.scale(x)
        for p in pairs(y):  # a generator helper cannot be converted: it runs as written (Python iteration)
            y = y + p
        return y


def test_called_user_functions_are_converted():
    net = UsesHelpers()
    x = np.array([1.0, 4.0], np.float32)
    (got,), _, _ = _jit(convert(net.construct), x)
    want = net(Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)


# Jumps mixed with loop else-blocks, `while True`, and/or values: converted == eager on random inputs.
def jumps_in_for(x):
    for k in range(3):
        if x.sum() > 4:
            return x * k
        elif x.min() < -2:
            continue
        x = x + 1
    else:
        x = x * 10
    return x - 1
def jumps_in_scan(m):
    acc = m[0] * 0
    for row in m:
        if row.sum() < 0:
            continue
        if acc.sum() > 2:
            break
        acc = acc + row
    else:
        acc = acc * 100
    return acc
def while_true(x):
    while True:
        x = x * 2
        if x.max() > 5:
            break
        if x.min() < -10:
            return x
    return x + 1
def logic_values(x, y):
    z = x if x.sum() > y.sum() else y
    w = (x.sum() > 0) and (y.sum() > 0) or (x.max() > 1)
    if not w:
        z = z * 3
    return z


@pytest.mark.parametrize("fn, shapes", [(jumps_in_for, [(3,)]), (jumps_in_scan, [(4, 3)]), (while_true, [(3,)]),
                                       (logic_values, [(3,), (3,)])])
def test_jumps_and_logic_match_eager(fn, shapes):
    rng = np.random.RandomState(0)
    for _ in range(6):
        args = [(rng.randn(*s) * 2).astype(np.float32) for s in shapes]
        (got,), _, _ = _jit(convert(fn), *args)
        np.testing.assert_allclose(got, fn(*[Tensor(a) for a in args]).asnumpy(), rtol=1e-6)
