"""Shape, joining, indexing and selection ops against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore_hl as ms
from mindspore_hl import Tensor, ops

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def _eq(got, want):
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_array_equal(got.asnumpy(), want)


def test_shape_ops():
    t = Tensor(A)
    _eq(ops.reshape(t, (4, -1)), A.reshape(4, -1))
    _eq(ops.reshape(t, [6, 4]), A.reshape(6, 4))
    _eq(ops.transpose(t, (2, 0, 1)), A.transpose(2, 0, 1))
    _eq(ops.permute(t, (1, 0, 2)), A.transpose(1, 0, 2))
    _eq(ops.expand_dims(t, 1), A[:, None])
    _eq(ops.unsqueeze(t, -1), A[..., None])
    _eq(ops.squeeze(Tensor(A[:, :1]), 1), A[:, 0])
    _eq(ops.squeeze(Tensor(A[None, :, :1])), A[:, 0])
    _eq(ops.flatten(t), A.reshape(2, -1))
    _eq(ops.flatten(t, start_dim=0), A.reshape(-1))
    _eq(ops.tile(t, (1, 2, 1)), np.tile(A, (1, 2, 1)))
    _eq(ops.broadcast_to(Tensor(A[:, :1]), (2, 3, 4)), np.broadcast_to(A[:, :1], (2, 3, 4)))
    _eq(ops.broadcast_to(Tensor(A[:, :1]), (-1, 3, -1)), np.broadcast_to(A[:, :1], (2, 3, 4)))
    _eq(ops.swapaxes(t, 0, 2), A.swapaxes(0, 2))
    _eq(ops.moveaxis(t, 0, -1), np.moveaxis(A, 0, -1))
    _eq(ops.flip(t, (0, 2)), A[::-1, :, ::-1])
    _eq(ops.roll(t, 1, 2), np.roll(A, 1, 2))
    assert ops.shape(t) == (2, 3, 4) and ops.rank(t) == 3 and ops.size(t) == 24 and ops.numel(t) == 24


@settings(max_examples=8, deadline=None)
@given(a=hnp.arrays(np.float32, (2, 3), elements=st.floats(-5, 5, width=32, allow_subnormal=False)),
       b=hnp.arrays(np.float32, (2, 3), elements=st.floats(-5, 5, width=32, allow_subnormal=False)),
       axis=st.sampled_from([0, 1, -1]))
def test_join_and_split(a, b, axis):
    _eq(ops.concat((Tensor(a), Tensor(b)), axis), np.concatenate([a, b], axis))
    _eq(ops.cat([Tensor(a), Tensor(b)], axis), np.concatenate([a, b], axis))
    _eq(ops.stack([Tensor(a), Tensor(b)], axis), np.stack([a, b], axis))
    parts = ops.unstack(Tensor(a), axis)
    assert len(parts) == a.shape[axis]
    for p, w in zip(parts, np.moveaxis(a, axis, 0)):
        _eq(p, w)
    for p, w in zip(ops.split(Tensor(a), 1, axis), np.split(a, a.shape[axis], axis)):
        _eq(p, w)
    for p, w in zip(ops.split(Tensor(b), [1, 2], 1), np.split(b, [1], 1)):
        _eq(p, w)


def test_chunk_narrow_slice():
    x = Tensor(np.arange(10))
    assert [c.tolist() for c in ops.chunk(x, 3)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert ops.narrow(x, 0, 2, 3).tolist() == [2, 3, 4]
    _eq(ops.slice(Tensor(A), (0, 1, 1), (2, 2, -1)), A[0:2, 1:3, 1:])
    _eq(ops.strided_slice(Tensor(A), (0, 0, 0), (2, 3, 4), (1, 2, 2)), A[0:2, 0:3:2, 0:4:2])
    _eq(ops.strided_slice(Tensor(A), (1, 0, 0), (2, 3, 4), (1, 1, 1), shrink_axis_mask=1), A[1])
    _eq(ops.strided_slice(Tensor(A), (0, 1, 0), (0, 3, 0), (1, 1, 1), begin_mask=1, end_mask=5), A[:, 1:3, :])


@settings(max_examples=8, deadline=None)
@given(idx=hnp.arrays(np.int64, (5,), elements=st.integers(0, 2)), axis=st.sampled_from([0, 1]))
def test_gather_family(idx, axis):
    a = A[0]  # (3, 4)
    _eq(ops.gather(Tensor(a), Tensor(idx), axis), np.take(a, idx, axis))
    _eq(ops.index_select(Tensor(a), axis, Tensor(idx)), np.take(a, idx, axis))
    index = np.stack([idx[:4], idx[1:]], 0) if axis == 0 else np.stack([idx[:3], idx[2:]], 1)
    _eq(ops.gather_elements(Tensor(a), axis, Tensor(index)), np.take_along_axis(a, index, axis))
    _eq(ops.gather_d(Tensor(a), axis, Tensor(index)), np.take_along_axis(a, index, axis))


def test_gather_nd_and_scatters():
    nd_idx = np.array([[0, 1], [2, 3]])
    _eq(ops.gather_nd(Tensor(A[0]), Tensor(nd_idx)), A[0][[0, 2], [1, 3]])
    out = ops.scatter_nd(Tensor(np.array([[0], [2], [0]])), Tensor([1.0, 2.0, 3.0]), (4,))
    assert out.tolist() == [4.0, 0.0, 2.0, 0.0]
    base = Tensor(np.zeros((2, 2), np.float32))
    assert ops.tensor_scatter_update(base, Tensor(np.array([[0, 1]])), Tensor([5.0])).tolist() == [[0, 5], [0, 0]]
    assert ops.tensor_scatter_add(base + 1, Tensor(np.array([[1, 1]])), Tensor([2.0])).tolist() == [[1, 1], [1, 3]]
    got = ops.scatter(Tensor(np.zeros((2, 3), np.float32)), 1, Tensor(np.array([[2], [0]])), Tensor([[7.0], [8.0]]))
    assert got.tolist() == [[0, 0, 7], [8, 0, 0]]


def test_where_select_masked():
    c = Tensor([True, False, True])
    x, y = Tensor([1.0, 2.0, 3.0]), Tensor([-1.0, -2.0, -3.0])
    assert ops.where(c, x, y).tolist() == [1, -2, 3] and ops.select(c, x, y).tolist() == [1, -2, 3]
    assert ops.where(c, x, 0.0).tolist() == [1, 0, 3]
    assert ops.masked_fill(x, c, 9.0).tolist() == [9, 2, 9]
    assert ops.masked_select(x, c).tolist() == [1, 3]
    with pytest.raises(TypeError, match="For 'select', the condition must be a Bool"):
        ops.select(Tensor([1, 0, 1]), x, y)


@settings(max_examples=8, deadline=None)
@given(labels=hnp.arrays(np.int32, (4,), elements=st.integers(0, 4)), axis=st.sampled_from([-1, 0]))
def test_one_hot(labels, axis):
    want = np.eye(5, dtype=np.float32)[labels]
    want = want if axis == -1 else want.T
    got = ops.one_hot(Tensor(labels), 5, Tensor(1.0, ms.float32), Tensor(0.0, ms.float32), axis)
    assert got.dtype == ms.float32
    _eq(got, want)
    prim = ops.OneHot(axis)(Tensor(labels), 5, Tensor(2.0), Tensor(-1.0))
    _eq(prim, want * 3 - 1)


def test_cast_and_misc():
    t = Tensor([1.7, -1.2])
    assert ops.cast(t, ms.int32).dtype == ms.int32 and ops.cast(t, ms.int32).tolist() == [1, -1]
    assert ops.cast(t, ms.float64).dtype == ms.float64
    assert ops.tril(Tensor(np.ones((3, 3)))).asnumpy().sum() == 6
    assert ops.triu(Tensor(np.ones((3, 3))), 1).asnumpy().sum() == 3
    assert ops.diag(Tensor([1, 2])).tolist() == [[1, 0], [0, 2]]
    xs, ys = ops.meshgrid(Tensor([1, 2]), Tensor([3, 4, 5]))
    assert xs.shape == (3, 2) and ys.tolist()[0] == [3, 3]
    vals, inv = ops.unique(Tensor([3, 1, 3]))
    assert vals.tolist() == [3, 1] and inv.tolist() == [0, 1, 0]  # first-appearance order, as MindSpore
    assert ops.nonzero(Tensor([0, 2, 3])).tolist() == [[1], [2]]
    assert ops.repeat_interleave(Tensor([1, 2]), 2).tolist() == [1, 1, 2, 2]
    assert ops.depend(t, Tensor(0)) is t and ops.identity(t) is t


def test_stop_gradient_blocks_gradient():
    g = ms.grad(lambda x: ops.stop_gradient(x * x) + x)(Tensor(3.0))
    assert g.item() == 1.0


def test_errors_name_op_and_shapes():
    with pytest.raises(ValueError, match=r"For 'concat'.*\[\[2, 3\], \[2, 4\]\]"):
        ops.concat([Tensor(np.ones((2, 3))), Tensor(np.ones((2, 4)))], 0)
    with pytest.raises(ValueError, match=r"For 'stack', all inputs must have the same shape"):
        ops.stack([Tensor([1]), Tensor([1, 2])])
    with pytest.raises(ValueError, match=r"For 'reshape', the input of shape \[2, 3, 4\].*\[5, 5\]"):
        ops.reshape(Tensor(A), (5, 5))
    with pytest.raises(ValueError, match=r"For 'transpose'.*\(0, 0, 1\)"):
        ops.transpose(Tensor(A), (0, 0, 1))
    with pytest.raises(ValueError, match=r"For 'squeeze', cannot squeeze axis 1 of length 3"):
        ops.squeeze(Tensor(A), 1)
    with pytest.raises(TypeError, match=r"For 'gather', 'input_indices' must be an integer tensor"):
        ops.gather(Tensor(A), Tensor([0.5]), 0)
    with pytest.raises(TypeError, match=r"For 'one_hot'.*integer"):
        ops.one_hot(Tensor([0.0]), 2)
