"""Elementwise math, comparison and logic ops against NumPy (hypothesis property tests)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore_hl as ms
from mindspore_hl import Tensor, ops

_SHAPE = (2, 3)  # one shape per op: each new shape costs an XLA compile (~0.1 s); values vary freely


def _arr(lo, hi):
    lo, hi = float(np.float32(lo)), float(np.float32(hi))  # bounds exactly representable in float32
    return hnp.arrays(np.float32, _SHAPE, elements=st.floats(lo, hi, width=32, allow_subnormal=False))


# name -> (op, numpy reference, value range)
_UNARY = {
    "neg": (ops.neg, np.negative, (-50, 50)), "abs": (ops.abs, np.abs, (-50, 50)),
    "exp": (ops.exp, np.exp, (-5, 5)), "expm1": (ops.expm1, np.expm1, (-5, 5)), "exp2": (ops.exp2, np.exp2, (-5, 5)),
    "log": (ops.log, np.log, (0.01, 50)), "log1p": (ops.log1p, np.log1p, (0, 50)),
    "log2": (ops.log2, np.log2, (0.01, 50)), "log10": (ops.log10, np.log10, (0.01, 50)),
    "sqrt": (ops.sqrt, np.sqrt, (0, 50)), "rsqrt": (ops.rsqrt, lambda x: 1 / np.sqrt(x), (0.01, 50)),
    "square": (ops.square, np.square, (-50, 50)), "reciprocal": (ops.reciprocal, np.reciprocal, (0.1, 50)),
    "sin": (ops.sin, np.sin, (-5, 5)), "cos": (ops.cos, np.cos, (-5, 5)), "tan": (ops.tan, np.tan, (-1.4, 1.4)),
    "asin": (ops.asin, np.arcsin, (-0.99, 0.99)), "acos": (ops.acos, np.arccos, (-0.99, 0.99)),
    "atan": (ops.atan, np.arctan, (-5, 5)), "sinh": (ops.sinh, np.sinh, (-3, 3)), "cosh": (ops.cosh, np.cosh, (-3, 3)),
    "tanh": (ops.tanh, np.tanh, (-5, 5)), "asinh": (ops.asinh, np.arcsinh, (-5, 5)),
    "acosh": (ops.acosh, np.arccosh, (1, 5)), "atanh": (ops.atanh, np.arctanh, (-0.9, 0.9)),
    "erf": (ops.erf, np.vectorize(math.erf), (-3, 3)), "erfc": (ops.erfc, np.vectorize(math.erfc), (-3, 3)),
    "floor": (ops.floor, np.floor, (-50, 50)), "ceil": (ops.ceil, np.ceil, (-50, 50)),
    "round": (ops.round, np.round, (-50, 50)), "trunc": (ops.trunc, np.trunc, (-50, 50)),
    "sign": (ops.sign, np.sign, (-50, 50)), "sigmoid": (ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-10, 10)),
    "relu": (ops.relu, lambda x: np.maximum(x, 0), (-10, 10)),
    "isfinite": (ops.isfinite, np.isfinite, (-10, 10)), "isnan": (ops.isnan, np.isnan, (-10, 10)),
    "logical_not": (lambda x: ops.logical_not(x > 0), lambda x: ~(x > 0), (-5, 5)),
}


@pytest.mark.parametrize("name", sorted(_UNARY))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_unary_ops_match_numpy(name, data):
    fn, ref, (lo, hi) = _UNARY[name]
    a = data.draw(_arr(lo, hi))
    got = fn(Tensor(a))
    want = np.asarray(ref(a))
    assert got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-5, atol=2e-5)


_BINARY = {
    "add": (ops.add, np.add), "sub": (ops.sub, np.subtract), "mul": (ops.mul, np.multiply),
    "div": (ops.div, np.divide), "true_divide": (ops.true_divide, np.true_divide),
    "floor_div": (ops.floor_div, np.floor_divide), "floor_mod": (ops.floor_mod, np.mod),
    "remainder": (ops.remainder, np.mod), "fmod": (ops.fmod, np.fmod), "pow": (ops.pow, np.power),
    "maximum": (ops.maximum, np.maximum), "minimum": (ops.minimum, np.minimum), "atan2": (ops.atan2, np.arctan2),
    "equal": (ops.equal, np.equal), "not_equal": (ops.not_equal, np.not_equal), "greater": (ops.greater, np.greater),
    "greater_equal": (ops.ge, np.greater_equal), "less": (ops.less, np.less), "less_equal": (ops.le, np.less_equal),
    "logaddexp": (ops.logaddexp, np.logaddexp), "hypot": (ops.hypot, np.hypot),
    "xlogy": (ops.xlogy, lambda x, y: x * np.log(y)),
    "logical_and": (lambda a, b: ops.logical_and(a > 1, b > 1), lambda a, b: (a > 1) & (b > 1)),
    "logical_or": (lambda a, b: ops.logical_or(a > 1, b > 1), lambda a, b: (a > 1) | (b > 1)),
    "logical_xor": (lambda a, b: ops.logical_xor(a > 1, b > 1), lambda a, b: (a > 1) ^ (b > 1)),
}


@pytest.mark.parametrize("name", sorted(_BINARY))
@settings(max_examples=8, deadline=None)
@given(data=st.data(), shapes=st.just(((2, 3), (3,))))
def test_binary_ops_broadcast_like_numpy(name, data, shapes):
    fn, ref = _BINARY[name]
    a = data.draw(hnp.arrays(np.float32, shapes[0], elements=st.floats(0.5, 4, width=32)))
    b = data.draw(hnp.arrays(np.float32, shapes[1], elements=st.floats(0.5, 4, width=32)))
    got = fn(Tensor(a), Tensor(b))
    np.testing.assert_allclose(got.asnumpy(), ref(a, b), rtol=2e-5, atol=2e-5)


@settings(max_examples=10, deadline=None)
@given(a=hnp.arrays(np.int64, (5,), elements=st.integers(-20, 20)),
       b=hnp.arrays(np.int64, (5,), elements=st.integers(1, 7)))
def test_integer_arithmetic_matches_python(a, b):
    np.testing.assert_array_equal(ops.floor_div(Tensor(a), Tensor(b)).asnumpy(), a // b)
    np.testing.assert_array_equal(ops.floor_mod(Tensor(a), Tensor(b)).asnumpy(), a % b)
    np.testing.assert_array_equal(ops.bitwise_and(Tensor(a), Tensor(b)).asnumpy(), a & b)
    np.testing.assert_array_equal(ops.div(Tensor(a), Tensor(b), rounding_mode="trunc").asnumpy(),
                                  np.trunc(a / b).astype(np.int64))
    out = ops.div(Tensor(a), Tensor(b))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), a / b, rtol=1e-6)


def test_dtypes_follow_mindspore():
    i = Tensor([1, 2, 3])
    assert ops.exp(i).dtype == ms.float32 and ops.sqrt(i).dtype == ms.float32
    assert ops.add(i, 1).dtype == ms.int64 and ops.mul(i, 0.5).dtype == ms.float32
    assert ops.add(Tensor([1.0], ms.float16), 1.0).dtype == ms.float16
    assert ops.exp(Tensor([1.0], ms.float64)).dtype == ms.float64
    assert ops.equal(i, 2).dtype == ms.bool_ and ops.equal(i, 2).tolist() == [False, True, False]


def test_clamp_lerp_addn_and_more():
    x = Tensor([-2.0, 0.5, 3.0])
    assert ops.clamp(x, -1, 1).tolist() == [-1, 0.5, 1] and ops.clip(x, max=0).tolist() == [-2, 0, 0]
    assert ops.clip_by_value(x, Tensor(0.0), Tensor(1.0)).tolist() == [0, 0.5, 1]
    a, b = ops.clip_by_value([x, x], -1.0, 1.0)
    assert a.tolist() == b.tolist() == [-1, 0.5, 1]
    np.testing.assert_allclose(ops.lerp(Tensor([0.0, 10.0]), Tensor([10.0, 20.0]), 0.25).asnumpy(), [2.5, 12.5])
    assert ops.addn([Tensor([1, 2]), Tensor([3, 4]), Tensor([5, 6])]).tolist() == [9, 12]
    assert ops.isclose(Tensor([1.0, 2.0]), Tensor([1.0, 2.1])).tolist() == [True, False]
    assert ops.isinf(Tensor([np.inf, 1.0])).tolist() == [True, False]
    assert ops.is_floating_point(x) and not ops.is_floating_point(Tensor([1]))
    np.testing.assert_allclose(ops.erfinv(ops.erf(Tensor([0.3]))).asnumpy(), [0.3], rtol=1e-5)
    np.testing.assert_allclose(ops.addcmul(Tensor([1.0]), Tensor([2.0]), Tensor([3.0]), 0.5).asnumpy(), [4.0])


def test_errors_name_op_and_inputs():
    with pytest.raises(ValueError, match=r"For 'mul'.*\[2, 3\].*\[4\]"):
        ops.mul(Tensor(np.ones((2, 3))), Tensor(np.ones(4)))
    with pytest.raises(ValueError, match="For 'clamp'"):
        ops.clamp(Tensor([1.0]))
    with pytest.raises(TypeError, match="For 'bitwise_and'.*integer or bool"):
        ops.bitwise_and(Tensor([1.0]), Tensor([2.0]))
    with pytest.raises(ValueError, match="For 'addn'.*same shape"):
        ops.addn([Tensor([1, 2]), Tensor([1])])
