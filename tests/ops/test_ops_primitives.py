"""Primitive classes (``ops.Mul()(a, b)`` ...) against NumPy, and the P / F / C module aliases."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, ops

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 3, 4)).astype(np.float32)


def _close(got, want, tol=1e-5):
    assert tuple(got.shape) == np.shape(want)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


def test_aliases_are_the_same_objects():
    import mindspore_hl.ops.operations as P2

    from mindspore_hl.ops import composite as C
    from mindspore_hl.ops import functional as F
    from mindspore_hl.ops import operations as P
    assert P.Mul is ops.Mul and P2 is P and P.ReduceMean is ops.ReduceMean and P.Conv2D is ops.Conv2D
    assert F.matmul is ops.matmul and F.depend is ops.depend and F.tensor_add is ops.add
    assert C.GradOperation is ops.GradOperation and C.HyperMap is ops.HyperMap
    assert F.dtype(Tensor([1.0])) == ms.float32 and F.shape(Tensor(A)) == (2, 3, 4)
    assert F.scalar_to_tensor(2).dtype == ms.float32 and F.tuple_to_array((1, 2)).tolist() == [1, 2]
    from mindspore_hl.common.api import jit

    from mindspore_hl.common import dtype as mstype
    from mindspore_hl.common.initializer import Normal
    assert mstype.float32 is ms.float32 and Normal is not None and jit is ms.jit
    assert repr(ops.Mul()) == "Prim[Mul]"


def test_arithmetic_primitives():
    a, b = Tensor(A), Tensor(A[0] + 5)
    _close(ops.Add()(a, b), A + A[0] + 5)
    _close(ops.Mul()(a, b), A * (A[0] + 5))
    _close(ops.RealDiv()(a, b), A / (A[0] + 5))
    _close(ops.Sub()(a, 1.0), A - 1)
    _close(ops.Square()(a), A ** 2)
    _close(ops.Sqrt()(b), np.sqrt(A[0] + 5))
    _close(ops.Exp()(a), np.exp(A))
    _close(ops.Maximum()(a, 0.0), np.maximum(A, 0))
    _close(ops.Pow()(b, 2.0), (A[0] + 5) ** 2, 1e-4)
    _close(ops.SquaredDifference()(a, b), (A - A[0] - 5) ** 2, 1e-4)
    _close(ops.AddN()((a, a, a)), 3 * A)
    _close(ops.L2Loss()(a), (A ** 2).sum() / 2, 1e-4)
    assert ops.Equal()(a, a).asnumpy().all() and ops.Cast()(a, ms.float16).dtype == ms.float16
    assert ops.DType()(a) == ms.float32 and ops.Shape()(a) == (2, 3, 4) and ops.Rank()(a) == 3


def test_reduce_and_arg_primitives():
    a = Tensor(A)
    _close(ops.ReduceMean(keep_dims=True)(a, 1), A.mean(1, keepdims=True))
    _close(ops.ReduceMean()(a), A.mean())
    _close(ops.ReduceSum(keep_dims=False)(a, (0, 2)), A.sum((0, 2)), 1e-4)
    _close(ops.ReduceMax()(a, -1), A.max(-1))
    _close(ops.ReduceMin(True)(a, 0), A.min(0, keepdims=True))
    _close(ops.ReduceProd()(a, 2), A.prod(2), 1e-4)
    idx = ops.Argmax()(a)
    assert idx.dtype == ms.int32 and idx.asnumpy().tolist() == A.argmax(-1).tolist()
    assert ops.Argmin(axis=0, output_type=ms.int64)(a).asnumpy().tolist() == A.argmin(0).tolist()
    index, values = ops.ArgMaxWithValue(axis=1)(a)
    _close(values, A.max(1))
    assert index.asnumpy().tolist() == A.argmax(1).tolist()
    _close(ops.CumSum()(a, 2), A.cumsum(2), 1e-4)
    _close(ops.CumSum(exclusive=True, reverse=True)(Tensor([1.0, 2.0, 3.0]), 0), [5.0, 3.0, 0.0])
    with pytest.raises(TypeError, match="keep_dims"):
        ops.ReduceSum(keep_dims=1)


def test_array_primitives():
    a = Tensor(A)
    _close(ops.Reshape()(a, (6, 4)), A.reshape(6, 4))
    _close(ops.Transpose()(a, (2, 1, 0)), A.transpose(2, 1, 0))
    _close(ops.ExpandDims()(a, 0), A[None])
    _close(ops.Squeeze(0)(Tensor(A[:1])), A[0])
    _close(ops.Concat(axis=1)((a, a)), np.concatenate([A, A], 1))
    _close(ops.Stack(axis=-1)([a, a]), np.stack([A, A], -1))
    assert len(ops.Unstack(axis=1)(a)) == 3 and len(ops.Split(axis=2, output_num=2)(a)) == 2
    _close(ops.Tile()(a, (1, 2, 1)), np.tile(A, (1, 2, 1)))
    _close(ops.Gather()(a, Tensor([2, 0]), 2), A[:, :, [2, 0]])
    _close(ops.GatherNd()(a, Tensor([[1, 2]])), A[[1], [2]])
    _close(ops.Select()(a > 0, a, ops.ZerosLike()(a)), np.where(A > 0, A, 0))
    _close(ops.BroadcastTo((3, 2, 3, 4))(a), np.broadcast_to(A, (3, 2, 3, 4)))
    _close(ops.Slice()(a, (0, 1, 0), (1, 2, -1)), A[0:1, 1:3, :])
    _close(ops.StridedSlice()(a, (0, 0, 1), (2, 3, 4), (1, 1, 2)), A[:, :, 1:4:2])
    _close(ops.Pad(((0, 0), (1, 1), (0, 2)))(a), np.pad(A, ((0, 0), (1, 1), (0, 2))))
    _close(ops.Flatten()(a), A.reshape(2, -1))
    v, i = ops.TopK()(a, 2)
    _close(v, -np.sort(-A, -1)[..., :2])
    v, _ = ops.Sort(axis=1, descending=True)(a)
    _close(v, -np.sort(-A, 1))
    _close(ops.Fill()(ms.float32, (2,), 3.0), [3.0, 3.0])
    _close(ops.Zeros()((2, 2), ms.float32), np.zeros((2, 2)))
    _close(ops.Eye()(2, 2, ms.float32), np.eye(2))


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def test_activation_and_loss_primitives():
    a = Tensor(A)
    _close(ops.ReLU()(a), np.maximum(A, 0))
    _close(ops.ReLU6()(a * 10), np.clip(A * 10, 0, 6))
    _close(ops.Sigmoid()(a), 1 / (1 + np.exp(-A)))
    _close(ops.Tanh()(a), np.tanh(A))
    _close(ops.Softmax()(a), _softmax(A))
    _close(ops.Softmax(axis=1)(a), _softmax(A, 1))
    _close(ops.LogSoftmax()(a), np.log(_softmax(A)), 1e-4)
    _close(ops.Elu()(a), np.where(A > 0, A, np.expm1(A)))
    _close(ops.HSwish()(a), A * np.clip(A + 3, 0, 6) / 6)
    _close(ops.Softplus()(a), np.log1p(np.exp(A)), 1e-4)
    gelu_tanh = 0.5 * A * (1 + np.tanh(np.sqrt(2 / np.pi) * (A + 0.044715 * A ** 3)))
    _close(ops.GeLU()(a), gelu_tanh, 1e-4)
    logits = RNG.standard_normal((4, 5)).astype(np.float32)
    labels = np.eye(5, dtype=np.float32)[[0, 3, 1, 4]]
    loss, dlogits = ops.SoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    _close(loss, -(labels * np.log(_softmax(logits))).sum(-1), 1e-4)
    _close(dlogits, _softmax(logits) - labels, 1e-5)
    sparse = ops.SparseSoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(np.array([0, 3, 1, 4], np.int32)))
    _close(sparse, loss.asnumpy().mean(), 1e-5)
    sig = ops.SigmoidCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    p = 1 / (1 + np.exp(-logits))
    _close(sig, -(labels * np.log(p) + (1 - labels) * np.log(1 - p)), 1e-4)


def _conv_ref(x, w, stride, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


def _pool_ref(x, k, s, fn):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, c, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = fn(x[:, :, i * s:i * s + k, j * s:j * s + k], axis=(2, 3))
    return out


def test_conv_pool_primitives_against_numpy():
    x = RNG.standard_normal((2, 3, 7, 7)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    _close(ops.Conv2D(4, 3)(Tensor(x), Tensor(w)), _conv_ref(x, w, 1, 0), 1e-4)
    _close(ops.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)(Tensor(x), Tensor(w)), _conv_ref(x, w, 2, 1), 1e-4)
    same = ops.Conv2D(4, (3, 3), pad_mode="same")(Tensor(x), Tensor(w))
    _close(same, _conv_ref(x, w, 1, 1), 1e-4)
    _close(ops.MaxPool(kernel_size=2, strides=2)(Tensor(x)), _pool_ref(x, 2, 2, np.max))
    _close(ops.AvgPool(kernel_size=3, strides=2)(Tensor(x)), _pool_ref(x, 3, 2, np.mean))
    assert ops.MaxPool(3, 2, pad_mode="SAME")(Tensor(x)).shape == (2, 3, 4, 4)
    _close(ops.BiasAdd()(Tensor(x), Tensor([1.0, 2.0, 3.0])), x + np.array([1, 2, 3]).reshape(1, 3, 1, 1))
    with pytest.raises(ValueError, match=r"For 'Conv2D', the weight must have shape \(5,"):
        ops.Conv2D(5, 3)(Tensor(x), Tensor(w))


def test_norm_and_dropout_primitives():
    x = RNG.standard_normal((4, 3, 2, 2)).astype(np.float32)
    gamma, beta = Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32))
    mean = Parameter(Tensor(np.zeros(3, np.float32)), name="mean", requires_grad=False)
    var = Parameter(Tensor(np.ones(3, np.float32)), name="var", requires_grad=False)
    y, bm, bv, _, _ = ops.BatchNorm(is_training=True, epsilon=1e-5, momentum=0.1)(Tensor(x), gamma, beta, mean, var)
    m, v = x.mean((0, 2, 3)), x.var((0, 2, 3))
    _close(y, (x - m.reshape(1, 3, 1, 1)) / np.sqrt(v.reshape(1, 3, 1, 1) + 1e-5), 1e-4)
    _close(bm, m)
    _close(mean, 0.1 * m, 1e-5)  # the running mean moved by the update factor
    y, mu, sigma2 = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
        Tensor(x), Tensor(np.ones((3, 2, 2), np.float32)), Tensor(np.zeros((3, 2, 2), np.float32)))
    flat = x.reshape(4, -1)
    want = (flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-7)
    _close(y, want.reshape(x.shape), 1e-4)
    ms.set_seed(1)
    out, mask = ops.Dropout(keep_prob=0.75)(Tensor(np.ones((100, 100), np.float32)))
    kept = mask.asnumpy()
    assert set(np.unique(kept)) <= {0.0, 1.0} and abs(kept.mean() - 0.75) < 0.03
    np.testing.assert_allclose(out.asnumpy(), kept / 0.75, rtol=1e-6)


def test_random_and_state_primitives():
    ms.set_seed(2)
    u = ops.UniformReal()((1000,))
    assert u.dtype == ms.float32 and 0 <= u.asnumpy().min() and u.asnumpy().max() < 1
    assert ops.StandardNormal()((3, 2)).shape == (3, 2)
    r = ops.UniformInt()((50,), Tensor(1), Tensor(4))
    assert r.asnumpy().min() >= 1 and r.asnumpy().max() <= 3
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    ops.Assign()(p, Tensor([5.0, 6.0]))
    ops.AssignAdd()(p, Tensor([1.0, 1.0]))
    ops.assign_sub(p, Tensor([0.5, 0.5]))
    assert p.tolist() == [5.5, 6.5]
    with pytest.raises(TypeError, match="For 'assign', 'variable' must be a Parameter"):
        ops.assign(Tensor([1.0]), Tensor([2.0]))


def test_composite_helpers():
    scale = ops.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _scale_tensor(s, g):
        return g * s

    @scale.register("Number", "Tuple")
    def _scale_tuple(s, t):
        return tuple(x * s for x in t)

    grads = (Tensor([1.0]), Tensor([2.0, 3.0]))
    out = ops.HyperMap()(ops.functional.partial(scale, 2.0), grads)
    assert [t.tolist() for t in out] == [[2.0], [4.0, 6.0]]
    assert ops.HyperMap(scale)(3.0, grads)[1].tolist() == [6.0, 9.0]
    assert ops.Map()(lambda a, b: a + b, (1, 2), (10, 20)) == (11, 22)
    assert scale(2.0, (Tensor([1.0]),))[0].tolist() == [2.0]
    with pytest.raises(TypeError, match="no overload matches"):
        scale("x", Tensor([1.0]))
    clipped = ops.clip_by_global_norm((Tensor([3.0]), Tensor([4.0])), 1.0)
    np.testing.assert_allclose([c.item() for c in clipped], [0.6, 0.8], rtol=1e-6)
    with pytest.raises(ValueError, match="same length"):
        ops.HyperMap()(lambda a, b: a, (1, 2), (1,))


def test_summary_ops_and_print(capsys):
    got = []
    listener = ops.add_summary_listener(lambda kind, name, value: got.append((kind, name, float(value.sum()))))
    try:
        ops.ScalarSummary()("loss", Tensor(1.5))
        ms.jit(lambda x: ops.HistogramSummary()("w", x) or x)(Tensor([1.0, 2.0]))
        ops.ImageSummary()("img", Tensor(np.zeros((1, 3, 2, 2), np.float32)))
    finally:
        ops.remove_summary_listener(listener)
    assert ("scalar", "loss", 1.5) in got and ("histogram", "w", 3.0) in got and got[-1][0] == "image"
    with pytest.raises(ValueError, match="ImageSummary"):
        ops.ImageSummary()("img", Tensor([1.0]))
    ops.Print()("value:", Tensor([1, 2]))
    assert "value:" in capsys.readouterr().out
