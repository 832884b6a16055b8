"""Tensor: construction defaults, attributes, printing, indexing, operators and methods (against NumPy)."""
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore_hl as ms
from mindspore_hl import Tensor


# ---- construction ------------------------------------------------------------------------------
@pytest.mark.parametrize("data, dtype", [
    (1, ms.int64), (1.0, ms.float32), (True, ms.bool_), ([1, 2], ms.int64), ([1, 2.5], ms.float32),
    ((1, 2), ms.int64), ([[True, False]], ms.bool_), (np.arange(3, dtype=np.float64), ms.float64),
    (np.arange(3, dtype=np.int32), ms.int32), (np.float32(2.0), ms.float32), ([], ms.float32),
])
def test_default_dtypes(data, dtype):
    t = Tensor(data)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(data))


def test_explicit_dtype_and_copy_from_tensor():
    t = Tensor([1, 2, 3], ms.float32)
    assert t.dtype == ms.float32 and t.asnumpy().dtype == np.float32
    u = Tensor(t, ms.int32)
    assert u.dtype == ms.int32 and u.tolist() == [1, 2, 3]
    assert Tensor(np.ones((2, 2)), dtype=np.float16).dtype == ms.float16


def test_attributes():
    t = Tensor(np.zeros((2, 3, 4), np.float32))
    assert t.shape == (2, 3, 4) and isinstance(t.shape, tuple)
    assert t.ndim == 3 and t.size == 24 and len(t) == 2
    assert t.itemsize == 4 and t.nbytes == 96 and t.strides == (48, 16, 4)
    assert t.T.shape == (4, 3, 2) and str(t.dtype) == "Float32"


def test_lazy_init_and_from_numpy():
    from mindspore_hl.common.initializer import One
    t = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    assert t.has_init and t.shape == (2, 2) and t.dtype == ms.float32
    assert t.init_data().asnumpy().tolist() == [[1, 1], [1, 1]] and not t.has_init
    assert Tensor.from_numpy(np.arange(3, dtype=np.int16)).dtype == ms.int16


def test_bad_construction_messages():
    with pytest.raises(TypeError, match="str"):
        Tensor("abc")
    with pytest.raises(ValueError, match="cannot build"):
        Tensor([[1, 2], [3]])
    with pytest.raises(ValueError, match="'shape' and 'dtype'"):
        Tensor(init="ones")


# ---- printing: MindSpore's repr and NumPy-style str ------------------------------------------------
def test_repr_matches_mindspore_docs():
    # from MindSpore's own docstrings (ms.grad / ms.vjp examples)
    assert repr(Tensor([75, 75], ms.float32)) == \
        "Tensor(shape=[2], dtype=Float32, value= [ 7.50000000e+01,  7.50000000e+01])"
    assert repr(Tensor([[3, 12], [27, 48]], ms.float32)) == (
        "Tensor(shape=[2, 2], dtype=Float32, value=\n"
        "[[ 3.00000000e+00,  1.20000000e+01],\n"
        " [ 2.70000000e+01,  4.80000000e+01]])")


def test_repr_scalars_ints_bools():
    assert repr(Tensor(1)) == "Tensor(shape=[], dtype=Int64, value= 1)"
    assert repr(Tensor(0.5)) == "Tensor(shape=[], dtype=Float32, value= 0.5)"
    assert repr(Tensor(True)) == "Tensor(shape=[], dtype=Bool, value= True)"
    assert repr(Tensor([[1, 20], [300, -4]])) == (
        "Tensor(shape=[2, 2], dtype=Int64, value=\n[[  1,  20],\n [300,  -4]])")
    assert repr(Tensor([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert repr(Tensor([1.5, -2], ms.float16)) == \
        "Tensor(shape=[2], dtype=Float16, value= [ 1.5000e+00, -2.0000e+00])"


def test_repr_summarises_long_dims():
    t = Tensor(np.arange(64).reshape(8, 8))
    assert repr(t) == (
        "Tensor(shape=[8, 8], dtype=Int64, value=\n"
        "[[ 0,  1,  2 ...  5,  6,  7],\n"
        " [ 8,  9, 10 ... 13, 14, 15],\n"
        " [16, 17, 18 ... 21, 22, 23],\n"
        " ...\n"
        " [40, 41, 42 ... 45, 46, 47],\n"
        " [48, 49, 50 ... 53, 54, 55],\n"
        " [56, 57, 58 ... 61, 62, 63]])")


def test_repr_wraps_long_1d_rows():
    body = repr(Tensor(np.arange(13), ms.float32)).split("value= ")[1]
    lines = body.split("\n")
    assert len(lines) == 2 and lines[0].count("e+") == 12 and lines[1].strip() == "1.20000000e+01])"


def test_str_is_numpy_style():
    assert str(Tensor(np.arange(6).reshape(2, 3), ms.float32)) == "[[0. 1. 2.]\n [3. 4. 5.]]"
    assert str(Tensor(np.float32(0.7226784))) == "0.7226784"
    assert f"{Tensor(2.5):.2f}" == "2.50"


# ---- conversion, indexing, containers ---------------------------------------------------------------
def test_item_tolist_numpy_scalars():
    t = Tensor([[1.5, 2.0]])
    assert t.tolist() == [[1.5, 2.0]] and Tensor(3).item() == 3 and float(Tensor(2.5)) == 2.5
    assert int(Tensor([7])) == 7 and np.asarray(t).dtype == np.float32
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([1, 2]))
    with pytest.raises(TypeError, match="0-d"):
        len(Tensor(1))


def test_indexing_matches_numpy():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = Tensor(a)
    for idx in [0, (1, 1), (slice(None), -1), (Ellipsis, 0), (0, slice(1, 3)), (None, 1), [1, 0]]:
        np.testing.assert_array_equal(t[idx].asnumpy(), a[idx])
    np.testing.assert_array_equal(t[Tensor([1, 0])].asnumpy(), a[[1, 0]])
    np.testing.assert_array_equal(t[t > 10].asnumpy(), a[a > 10])
    assert [r.shape for r in t] == [(3, 4), (3, 4)]


def test_setitem():
    t = Tensor(np.zeros((2, 3), np.float32))
    t[0, 1] = 5
    t[1] = Tensor([1, 2, 3], ms.float32)
    np.testing.assert_array_equal(t.asnumpy(), [[0, 5, 0], [1, 2, 3]])


def test_pickle_roundtrip():
    t = Tensor([[1, 2]], ms.int32)
    u = pickle.loads(pickle.dumps(t))
    assert u.dtype == ms.int32 and u.tolist() == [[1, 2]]


# ---- operators (hypothesis against NumPy) ------------------------------------------------------------
_floats = st.floats(-100, 100, allow_nan=False, width=32, allow_subnormal=False)
_shapes = st.sampled_from([((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 4)), ((4,), ()), ((), (2, 2))])

_OPS = {
    "add": (lambda a, b: a + b, np.add), "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply), "pow2": (lambda a, b: a ** 2, lambda a, b: a ** 2),
    "eq": (lambda a, b: a == b, np.equal), "ne": (lambda a, b: a != b, np.not_equal),
    "lt": (lambda a, b: a < b, np.less), "le": (lambda a, b: a <= b, np.less_equal),
    "gt": (lambda a, b: a > b, np.greater), "ge": (lambda a, b: a >= b, np.greater_equal),
    "neg": (lambda a, b: -a, lambda a, b: -a), "abs": (lambda a, b: abs(a), lambda a, b: np.abs(a)),
}


@settings(max_examples=15, deadline=None)
@given(data=st.data(), shapes=_shapes, name=st.sampled_from(sorted(_OPS)))
def test_operators_broadcast_like_numpy(data, shapes, name):
    a = data.draw(hnp.arrays(np.float32, shapes[0], elements=_floats))
    b = data.draw(hnp.arrays(np.float32, shapes[1], elements=_floats))
    ours, ref = _OPS[name]
    got = ours(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_allclose(got, ref(a, b), rtol=1e-6, atol=1e-30)  # XLA flushes subnormal results to 0


@settings(max_examples=15, deadline=None)
@given(a=hnp.arrays(np.float32, (2, 3), elements=st.floats(1, 50, width=32, allow_subnormal=False)),
       b=hnp.arrays(np.float32, (3,), elements=st.floats(1, 50, width=32, allow_subnormal=False)))
def test_division_operators(a, b):
    np.testing.assert_allclose((Tensor(a) / Tensor(b)).asnumpy(), a / b, rtol=1e-6)
    np.testing.assert_allclose((Tensor(a) // Tensor(b)).asnumpy(), a // b, rtol=1e-6)
    np.testing.assert_allclose((Tensor(a) % Tensor(b)).asnumpy(), np.mod(a, b), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose((10.0 / Tensor(b)).asnumpy(), 10.0 / b, rtol=1e-6)
    np.testing.assert_allclose((Tensor(a) @ Tensor(b)).asnumpy(), a @ b, rtol=1e-5)


def test_scalar_operands_keep_mindspore_dtypes():
    i = Tensor([1, 2])
    assert (i + 1).dtype == ms.int64 and (i * 1.5).dtype == ms.float32 and (i / 2).dtype == ms.float32
    assert (Tensor([1.0], ms.float16) * 2.0).dtype == ms.float16
    assert (Tensor([1.0]) + np.float64(1)).dtype == ms.float32
    assert (Tensor([1.0], ms.float64) + 1).dtype == ms.float64
    assert (2 - Tensor([1, 2])).tolist() == [1, 0] and (np.float32(3) * Tensor([1.0])).tolist() == [3.0]
    assert (Tensor([True]) & Tensor([False])).tolist() == [False] and (~Tensor([True])).tolist() == [False]


def test_operator_errors_name_both_operands():
    with pytest.raises(ValueError, match=r"For 'add'.*\[2, 3\].*\[4\]"):
        Tensor(np.ones((2, 3))) + Tensor(np.ones(4))
    with pytest.raises(ValueError, match=r"For 'matmul'.*\[2, 3\] and \[2, 3\]"):
        Tensor(np.ones((2, 3))) @ Tensor(np.ones((2, 3)))
    assert (Tensor([1]) == "a") is False


# ---- methods against NumPy ---------------------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(a=hnp.arrays(np.float32, (3, 4), elements=st.floats(-10, 10, width=32, allow_subnormal=False)))
def test_methods_match_numpy(a):
    t = Tensor(a)
    close = lambda x, y: np.testing.assert_allclose(x.asnumpy(), y, rtol=1e-5, atol=1e-5)  # noqa: E731
    close(t.reshape(4, 3), a.reshape(4, 3))
    close(t.reshape((2, 6)), a.reshape(2, 6))
    close(t.transpose(), a.T)
    close(t.transpose(1, 0), a.T)
    close(t.astype(ms.int32), a.astype(np.int32))
    close(t.sum(), a.sum())
    close(t.sum(axis=1, keepdims=True), a.sum(1, keepdims=True))
    close(t.mean(0), a.mean(0))
    close(t.max(), a.max())
    close(t.min(axis=1), a.min(1))
    close(t.argmax(axis=1), a.argmax(1))
    close(t.argmin(), a.argmin())
    close(t.std(), a.std())
    close(t.var(axis=0), a.var(0))
    close(t.abs(), np.abs(a))
    close(t.clip(-1, 1), np.clip(a, -1, 1))
    close(t.flatten(), a.ravel())
    close(t.expand_dims(0), a[None])
    close(t.squeeze(), a)
    close(t.cumsum(1), a.cumsum(1))
    close(t.exp() if a.max() < 10 else t, np.exp(a) if a.max() < 10 else a)
    assert t.argmax().dtype == ms.int64


def test_more_methods():
    t = Tensor([[3.0, 1.0, 2.0]])
    vals, idx = t.sort(axis=1)
    assert vals.tolist() == [[1, 2, 3]] and idx.tolist() == [[1, 2, 0]]
    v, i = t.topk(2)
    assert v.tolist() == [[3, 2]] and i.tolist() == [[0, 2]]
    assert t.item(1) == 1.0 and t.copy().tolist() == t.tolist()
    assert Tensor([1, 2]).float().dtype == ms.float32 and Tensor([1.0]).int().dtype == ms.int32
    assert Tensor([1.0]).half().dtype == ms.float16 and Tensor([0, 1]).bool().tolist() == [False, True]
    assert t.masked_fill(t > 1.5, 0.0).tolist() == [[0, 1, 0]]
    assert Tensor([[1, 2], [3, 4]]).view(4).tolist() == [1, 2, 3, 4]
    assert Tensor([1, 0, 2]).nonzero().tolist() == [[0], [2]]
    assert Tensor([2.0]).fill(7).tolist() == [7.0]
    s = Tensor([1, 2])
    assert s.set_dtype(ms.float16) == ms.float16 and s.dtype == ms.float16  # returns the dtype, as MindSpore
    assert Tensor([[1, 2]]).broadcast_to((2, 2)).tolist() == [[1, 2], [1, 2]]
    assert Tensor(np.arange(6)).reshape(2, 3).permute(1, 0).shape == (3, 2)


def test_expand_takes_sizes_as_ints_or_one_sequence_as_mindspore():
    # MindSpore 2.10: t.expand(2, 3), t.expand((2, 3)) and t.expand(Tensor([2, 3])) all give (2, 3); -1 keeps
    t = Tensor(np.arange(3, dtype=np.float32).reshape(1, 3))
    for size in [(2, 3), ((2, 3),), ([2, 3],), (Tensor(np.array([2, 3])),)]:
        out = t.expand(*size)
        assert out.shape == (2, 3) and out.asnumpy().tolist() == [[0.0, 1.0, 2.0]] * 2
    assert t.expand(-1, 3).shape == (1, 3)
