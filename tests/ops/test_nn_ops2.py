"""Replay real MindSpore 2.10's neural-network / image ops and Primitives (tools/oracle/record_nn_ops2.py).

Eager calls on small inputs; shapes, dtypes and values are compared with the recording. The first case of each
name runs by default, the others are marked slow. Names whose kernel MindSpore's CPU build lacks (recorded as
RuntimeError) are checked against NumPy below instead.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from tests.oracle import assert_close, case_params
from tests.sweep import call_recorded, flatten, split_params

FIXTURE = "nn_ops2.npz"

#: Outputs not compared, by case id: (output positions, why).
_CPU_INDEX = ("MindSpore 2.10's CPU NMSWithMask returns 0..N-1 as 'selected_idx'; mindspore_hl returns each sorted "
              "box's original index, as MindSpore documents")
SKIP_OUTPUTS = {"P.NMSWithMask/1": ((1,), _CPU_INDEX), "P.NMSWithMask/2": ((1,), _CPU_INDEX)}


def _params():
    out = []
    for p in split_params(case_params(FIXTURE)):
        case = p.values[0]
        if case.error == "RuntimeError":
            p = pytest.param(case, id=p.id, marks=[pytest.mark.skip(reason="no CPU kernel in MindSpore 2.10; "
                                                                           "checked against NumPy below")])
        out.append(p)
    return out


@pytest.mark.parametrize("case", _params())
def test_oracle_case(case):
    if case.error:
        with pytest.raises((TypeError, ValueError, IndexError)):
            flatten(call_recorded(case, ops))
        return
    outs = flatten(call_recorded(case, ops))
    skip = SKIP_OUTPUTS.get(case.id, ((), ""))[0]
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        if i not in skip:
            assert_close(got, want, what=f"{case.id} output {i}")
    if case.name == "P.NMSWithMask":  # the documented indices: each sorted box's position in the input
        order = np.argsort(-case.inputs["a0"][:, 4], kind="stable")
        np.testing.assert_array_equal(outs[1].asnumpy(), order.astype(np.int32))


# ---- names MindSpore 2.10's CPU build cannot run: checked against NumPy ------------------------------------------

_RNG = np.random.default_rng(3)


def test_adaptive_avg_pool2d_ext_against_numpy():
    x = _RNG.standard_normal((2, 3, 5, 7)).astype(np.float32)
    want = np.zeros((2, 3, 3, 4), np.float32)
    for i in range(3):
        for j in range(4):
            h0, h1 = (i * 5) // 3, -(-((i + 1) * 5) // 3)
            w0, w1 = (j * 7) // 4, -(-((j + 1) * 7) // 4)
            want[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    assert_close(ops.adaptive_avg_pool2d_ext(ms.Tensor(x), (3, 4)), want)


@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding_against_numpy(mode):
    x, cos, sin = (_RNG.standard_normal(s).astype(np.float32) for s in [(1, 2, 3, 4), (1, 1, 3, 4), (1, 1, 3, 4)])
    if mode == 0:
        rot = np.concatenate([-x[..., 2:], x[..., :2]], axis=-1)
    else:
        rot = np.empty_like(x)
        rot[..., 0::2], rot[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    got = ops.rotary_position_embedding(ms.Tensor(x), ms.Tensor(cos), ms.Tensor(sin), mode)
    assert_close(got, x * cos + rot * sin)


def test_space_batch_primitives_against_numpy():
    x = _RNG.standard_normal((1, 2, 2, 4)).astype(np.float32)
    xp = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 1)))                        # (1, 2, 2, 6)
    want = xp.reshape(1, 2, 1, 2, 3, 2).transpose(3, 5, 0, 1, 2, 4).reshape(4, 2, 1, 3)
    got = ops.SpaceToBatch(2, [[0, 0], [1, 1]])(ms.Tensor(x))
    assert_close(got, want)
    back = ops.BatchToSpace(2, [[0, 0], [1, 1]])(got)
    assert_close(back, x)
    assert_close(ops.BatchToSpaceNDV2()(got, ms.Tensor(np.array([2, 2])), ms.Tensor(np.array([[0, 0], [1, 1]]))), x)


def test_rms_norm_and_log_softmax_ext_against_numpy():
    x, g = _RNG.standard_normal((2, 3, 4)).astype(np.float32), _RNG.standard_normal(4).astype(np.float32)
    rstd = 1 / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5)
    y, r = ops.RmsNorm(1e-5)(ms.Tensor(x), ms.Tensor(g))
    assert_close(y, x * rstd * g)
    assert_close(r, rstd.astype(np.float32))
    z = x - x.max(1, keepdims=True)
    assert_close(ops.LogSoftmaxExt()(ms.Tensor(x), 1), z - np.log(np.exp(z).sum(1, keepdims=True)))


@pytest.mark.slow
def test_gradients_flow():
    """The training path differentiates these ops: gradients exist and match finite differences."""
    lp = jnp.log(jax.nn.softmax(jnp.asarray(_RNG.standard_normal((5, 1, 4)), jnp.float64), axis=-1))
    tgt, il, tl = jnp.array([[1, 2]]), jnp.array([5]), jnp.array([2])

    def loss(v):
        return ops.ctc_loss(ms.Tensor(v), ms.Tensor(tgt), ms.Tensor(il), ms.Tensor(tl), reduction="sum")[0]._value

    g = jax.grad(loss)(lp)
    e = jnp.zeros_like(lp).at[2, 0, 1].set(1e-6)
    assert abs(float((loss(lp + e) - loss(lp - e)) / 2e-6) - float(g[2, 0, 1])) < 1e-5
    x = jnp.asarray(_RNG.standard_normal((1, 1, 3, 4, 4)), jnp.float32)
    gx = jax.grad(lambda v: ops.max_pool3d(ms.Tensor(v), 2)._value.sum())(x)
    assert float(gx.sum()) == 4.0  # one winner in each of the 1 * 2 * 2 windows



def _t(*shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


@pytest.mark.parametrize("fn, pattern", [
    (lambda: ops.conv3d(_t(1, 2, 3, 3), _t(1, 2, 1, 1, 1)),
     r"For 'conv3d', 'input' and 'weight' must be 5-D, but got shapes \[1, 2, 3, 3\]"),
    (lambda: ops.max_unpool2d(_t(1, 1, 2, 2), _t(1, 1, 2, dtype=np.int64), 2),
     r"For 'max_unpool2d', 'indices' must have the shape of 'x' \[1, 1, 2, 2\], but got \[1, 1, 2\]"),
    (lambda: ops.grid_sample(_t(1, 1, 2, 2), _t(1, 2, 2, 3)),
     r"For 'grid_sample', 'grid' must have shape"),
])
def test_bad_input_names_the_op(fn, pattern):
    with pytest.raises(ValueError, match=pattern):
        fn()
