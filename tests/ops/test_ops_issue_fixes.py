"""The ops / Tensor bugs listed in the API-coverage issue, each pinned by a test (values from real MindSpore 2.10
where noted: the same calls are also replayed from tests/fixtures/oracle/ops_sweep.npz)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, ops
from mindspore_hl.ops import _registry

X = Tensor(np.array([[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]], np.float32))


def test_max_min_and_argmaxwithvalue_indices_are_int64():
    assert ops.max(X, 1)[1].dtype == ms.int64 and ops.min(X, 1)[1].dtype == ms.int64
    idx, val = ops.ArgMaxWithValue(axis=1)(X)
    assert idx.dtype == ms.int64 and idx.tolist() == [1, 2] and val.tolist() == [5.0, 4.0]
    assert ops.ArgMinWithValue(axis=1)(X)[0].dtype == ms.int64
    assert X.max(axis=1, return_indices=True)[1].dtype == ms.int64


def test_argmin_and_cummin_indices_are_int32():
    assert ops.argmin(X, 1).dtype == ms.int32 and X.argmin(1).dtype == ms.int32
    assert ops.argmin(X, 1).tolist() == [0, 1]
    assert ops.cummin(X, 1)[1].dtype == ms.int32 and ops.cummax(X, 1)[1].dtype == ms.int64


def test_unique_keeps_first_appearance_order_and_index_dtype():
    vals, inv = ops.unique(Tensor(np.array([3, 1, 3, 2], np.int32)))
    assert vals.tolist() == [3, 1, 2] and inv.tolist() == [0, 1, 0, 2] and inv.dtype == ms.int32
    assert ops.unique(Tensor(np.array([3, 1, 3], np.int64)))[1].dtype == ms.int64


@pytest.mark.parametrize("call", [
    lambda: ops.logsumexp(X, dim=1, keepdim=True),
    lambda: ops.transpose(X, dims=(1, 0)),
    lambda: X.trace(offset=1),
    lambda: ops.relu(X, inplace=False),
    lambda: ops.select(condition=X > 1, input=X, other=X),
    lambda: ops.floor_divide(input=X, other=2.0),
    lambda: ops.remainder(input=X, other=2.0),
    lambda: ops.mean(x=X, axis=0),
    lambda: ops.sqrt(x=X),
    lambda: ops.arcsin(x=X / 10),
    lambda: ops.identity(x=X),
    lambda: ops.numel(input=X),
    lambda: ops.binary_cross_entropy(logits=X / 10, labels=X / 10),
    lambda: X.sum(dim=1, keepdim=True),
    lambda: X.argmax(dim=1),
])
def test_2_10_keyword_names_are_accepted(call):
    call()


def test_keyword_values():
    np.testing.assert_allclose(ops.logsumexp(X, dim=1, keepdim=True).asnumpy(),
                               np.log(np.exp(X.asnumpy()).sum(1, keepdims=True)), rtol=1e-6)
    assert X.trace(offset=1).item() == 5.0 + 4.0
    assert ops.transpose(X, dims=(1, 0)).shape == (3, 2)


def test_from_numpy_makes_a_tensor():
    t = ms.from_numpy(np.arange(3, dtype=np.int16))
    assert isinstance(t, Tensor) and t.dtype == ms.int16 and t.tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match="numpy.ndarray"):
        ms.from_numpy([1, 2])


def test_diag_of_2d_builds_the_rank4_diagonal_tensor():
    out = ops.diag(Tensor(np.array([[1, 2], [3, 4]], np.float32)))
    assert out.shape == (2, 2, 2, 2)
    a = out.asnumpy()
    assert a[0, 1, 0, 1] == 2 and a[1, 0, 1, 0] == 3 and a.sum() == 10


def test_cross_defaults_to_the_first_axis_of_size_3():
    a, b = np.eye(3, dtype=np.float32), np.ones((3, 3), np.float32)
    got = ops.cross(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_array_equal(got, np.cross(a, b, axis=0))  # (MindSpore: [[0, 1, -1], [-1, 0, 1], [1, -1, 0]])
    np.testing.assert_array_equal(got, [[0, 1, -1], [-1, 0, 1], [1, -1, 0]])


def test_ops_cond_is_the_condition_number():
    a = np.array([[2.0, 0.0], [0.0, 0.5]], np.float32)
    assert ops.cond(Tensor(a)).item() == pytest.approx(np.linalg.cond(a))


def test_clip_by_global_norm_of_one_tensor():
    out = ops.clip_by_global_norm(Tensor(np.array([3.0, 4.0], np.float32)), 1.0)
    assert isinstance(out, Tensor)
    np.testing.assert_allclose(out.asnumpy(), [0.6, 0.8], rtol=1e-6)


def test_tensor_methods_delegate_to_the_op_table():
    assert _registry.lookup("sinh") is ops.sinh
    calls = []
    _registry.register("sinh", lambda x: calls.append(x) or ops.cosh(x))
    try:
        X.sinh()
        assert calls and calls[0] is X
    finally:
        _registry.register("sinh", ops.sinh)


def test_inplace_tensor_methods():
    t = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    assert t.masked_fill_(t < 0, 0.0) is t and t.tolist() == [1.0, 0.0, 3.0]
    t.add_(1.0)
    assert t.tolist() == [2.0, 1.0, 4.0]
    t.copy_(Tensor(np.array([7, 8, 9], np.int32)))
    assert t.dtype == ms.float32 and t.tolist() == [7.0, 8.0, 9.0]
    t.fill_(5)
    assert t.tolist() == [5.0] * 3
    t.zero_()
    assert t.tolist() == [0.0] * 3
    assert Tensor([1, 2]).new_zeros((2, 2)).dtype == ms.int64


def test_rng_state_round_trip_and_manual_seed():
    ms.manual_seed(7)
    assert ms.initial_seed() == 7
    state = ms.get_rng_state()
    a = ops.rand(3).asnumpy()
    ms.set_rng_state(state)
    np.testing.assert_array_equal(ops.rand(3).asnumpy(), a)


def test_top_level_reexports_and_jit_config():
    assert ms.Accuracy is ms.metrics.Accuracy and ms.long == ms.int64 and ms.cfloat == ms.complex64
    assert ms.JitConfig(jit_level="O1").jit_config_dict["jit_level"] == "O1"
    with pytest.raises(ValueError, match="jit_level"):
        ms.JitConfig(jit_level="O9")
    ms.set_deterministic(True)


def test_scatter_nd_update_writes_the_parameter():
    p = ms.Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p")
    out = ops.scatter_nd_update(p, Tensor(np.array([[1]], np.int32)), Tensor(np.ones((1, 2), np.float32)))
    assert out is p and p.asnumpy().tolist() == [[0, 0], [1, 1], [0, 0]]


def test_inv_of_integers_truncates_as_mindspore():
    # real MindSpore 2.10 (CPU): ops.inv(int32 [0, 1, 2, -1, 3]) = [-2147483648, 1, 0, -1, 0], Int32; int64 the
    # same with its own minimum; int8 has no kernel (TypeError)
    x = ms.Tensor(np.array([0, 1, 2, -1, 3], np.int32))
    for f in (ops.inv, ops.Inv(), lambda t: t.inv()):
        out = f(x)
        assert out.dtype == ms.int32
        np.testing.assert_array_equal(out.asnumpy(), [-2147483648, 1, 0, -1, 0])
    np.testing.assert_array_equal(ops.inv(ms.Tensor(np.array([0, -1, 5], np.int64))).asnumpy(),
                                  [np.iinfo(np.int64).min, -1, 0])
    with pytest.raises(TypeError, match="int8"):
        ops.inv(ms.Tensor(np.array([1], np.int8)))


def test_complex128_inputs_keep_double_precision_results():
    # real MindSpore 2.10: real / imag / angle of a Complex128 tensor are Float64 (Complex64 gives Float32)
    z = ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex128))
    for f in (ops.real, ops.imag, ops.angle):
        assert f(z).dtype == ms.float64
    assert ops.real(ms.Tensor(np.array([1 + 2j], np.complex64))).dtype == ms.float32
    np.testing.assert_array_equal(ops.imag(z).asnumpy(), [2.0, -1.0])
