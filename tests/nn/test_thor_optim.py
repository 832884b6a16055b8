"""``nn.thor`` (MindSpore's ThorGpu algorithm) against a NumPy re-implementation of the same formulas.

MindSpore's CPU build cannot run a THOR update (no CholeskyTrsm / ThorIm2Col CPU kernels, see
test_thor_oracle.py), so the second implementation is NumPy: the statistics A and G of the THOR layers from
their inputs and output gradients, and the optimizer's update from those statistics and the gradients
(``np.linalg.inv`` / ``np.linalg.cholesky`` per 128-block, then momentum and weight decay).
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn

SPLIT = 128


def _np_block_inv(m):
    """Inverses of the diagonal 128-blocks (the last one padded with the identity), as one cropped matrix."""
    d = m.shape[0]
    n = -(-d // SPLIT) if d > SPLIT else 1
    size = SPLIT if d > SPLIT else d
    full = np.eye(n * size)
    full[:d, :d] = m
    out = np.zeros_like(full)
    for i in range(n):
        s = slice(i * size, (i + 1) * size)
        out[s, s] = np.linalg.inv(full[s, s])
    return out[:d, :d]


def _np_layer_update(kind, g, a, gm, damping, batch, loss_scale, a_norm=1.0, g_norm=1.0):
    """The preconditioned gradient of one THOR layer (kind: 'fc', 'conv', 'emb')."""
    a, gm, g = a.astype(np.float64), gm.astype(np.float64), g.astype(np.float64)
    if kind == "conv":
        d_a, d_g, fmap = np.sqrt(damping / a_norm), np.sqrt(damping / g_norm), np.sqrt(1.0 / a_norm)
    else:
        d_a = d_g = np.sqrt(damping)
        fmap = 1.0
    gm = gm / loss_scale ** 2 * batch ** 2 + d_g * np.eye(gm.shape[0])
    if kind == "emb":
        a_inv = 1.0 / (a / batch + d_a)
        inv_l = np.linalg.inv(np.linalg.cholesky(gm))
        return (a_inv[:, None] * g) @ (inv_l @ inv_l)
    a_inv = _np_block_inv(a + d_a * np.eye(a.shape[0])) * fmap
    g_inv = _np_block_inv(gm) * fmap
    return (g_inv @ g.reshape(g.shape[0], -1) @ a_inv).reshape(g.shape)


class ConvNet(nn.Cell):
    def __init__(self, fc_in=48, hw=4):
        super().__init__()
        self.conv = nn.Conv2dThor(2, 3, 3, has_bias=True, weight_init="normal")
        self.flat = nn.Flatten()
        self.norm = nn.LayerNorm((3 * hw * hw,))
        self.fc = nn.DenseThor(fc_in, 5, activation="tanh")

    def construct(self, x):
        return self.fc(self.norm(self.flat(self.conv(x))))


class EmbNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingThor(7, 4)
        self.fc = nn.DenseThor(4, 3)

    def construct(self, ids):
        return self.fc(self.emb(ids).mean(1))


def _snapshot(net):
    stats = {}
    for _, cell in net.cells_and_names():
        if isinstance(cell, nn.Conv2dThor):
            stats[id(cell.weight)] = ("conv", cell.matrix_a_cov.asnumpy(), cell.matrix_g_cov.asnumpy(),
                                      float(cell.a_normalizer.asnumpy()[0]), float(cell.g_normalizer.asnumpy()[0]))
        elif isinstance(cell, nn.DenseThor):
            stats[id(cell.weight)] = ("fc", cell.matrix_a.asnumpy(), cell.matrix_g.asnumpy(), 1.0, 1.0)
        elif isinstance(cell, nn.EmbeddingThor):
            stats[id(cell.embedding_table)] = ("emb", cell.matrix_a.asnumpy(), cell.matrix_g.asnumpy(), 1.0, 1.0)
        elif isinstance(cell, nn.LayerNorm):
            for p in cell.get_parameters():
                stats[id(p)] = ("ln",)
    return stats


def _run(net, data, label, steps, wd=0.0, loss_scale=1.0, nesterov=False, clip=False, first_order_after=None):
    """Train ``steps`` steps eagerly, checking each update against NumPy; returns the optimizer."""
    batch = data.shape[0]
    lrs = np.array([0.1, 0.05, 0.02, 0.01, 0.01], np.float32)
    dampings = np.array([0.5, 0.3, 0.2, 0.1, 0.1], np.float32)
    opt = nn.thor(net, Tensor(lrs), Tensor(dampings), 0.9, weight_decay=wd, loss_scale=loss_scale, batch_size=batch,
                  use_nesterov=nesterov, enable_clip_grad=clip, frequency=2,
                  decay_filter=lambda p: "bias" not in p.name)
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    grad_fn = ms.value_and_grad(loss_net, None, opt.parameters)
    moments = [np.zeros(p.shape) for p in opt.parameters]
    stale = {}
    for step in range(steps):
        if first_order_after is not None and step >= first_order_after:
            for _, cell in net.cells_and_names():  # what ModelThor's first-order steps switch off
                cell.thor = False
            opt.thor = False
        _, grads = grad_fn(Tensor(data), Tensor(label))
        stats = _snapshot(net)
        params = [p.asnumpy().astype(np.float64) for p in opt.parameters]
        scaled = [g.asnumpy().astype(np.float64) * loss_scale for g in grads]
        opt(tuple(Tensor(g.astype(np.float32)) for g in scaled))
        for i, (p, g) in enumerate(zip(opt.parameters, scaled)):
            g = g / loss_scale
            st = stats.get(id(p))
            if st is not None and st[0] == "ln":
                g = g / (g * g / batch + np.sqrt(dampings[step]))
            elif st is not None and opt.thor:
                g = _np_layer_update(st[0], g, st[1], st[2], float(dampings[step]), batch, loss_scale, st[3], st[4])
                stale[i] = g
            elif st is not None:
                slot = [s for _, _, s in opt._layers][i]
                a_inv, g_inv = opt.matrix_a[slot].asnumpy(), opt.matrix_g[slot].asnumpy()
                if st[0] == "emb":
                    g = (a_inv[:, None] * g) @ g_inv
                else:
                    g = (g_inv[0] @ g.reshape(g.shape[0], -1) @ a_inv[0, 0]).reshape(g.shape)
            if wd and "bias" not in p.name:
                g = g + wd * params[i]
            if clip:
                g = g / max(np.linalg.norm(g), 1.0)
            moments[i] = 0.9 * moments[i] + g
            upd = g + 0.9 * moments[i] if nesterov else moments[i]
            expected = params[i] - lrs[step] * upd
            np.testing.assert_allclose(p.asnumpy(), expected, rtol=2e-4, atol=2e-5,
                                       err_msg=f"step {step} {p.name}")
    assert int(opt.cov_step.asnumpy()[0]) == steps
    assert int(opt.global_step.asnumpy()[0]) == steps
    return opt


@pytest.mark.parametrize("kw", [{"wd": 1e-2, "loss_scale": 4.0}, {"nesterov": True, "clip": True}])
def test_thor_conv_dense_layernorm_matches_numpy(kw):
    ms.set_seed(3)
    r = np.random.default_rng(0)
    _run(ConvNet(), r.standard_normal((4, 2, 4, 4)).astype(np.float32), np.array([0, 1, 2, 3], np.int32), 2, **kw)


def test_thor_embedding_and_first_order_steps_match_numpy():
    ms.set_seed(4)
    ids = np.array([[1, 2, 2], [0, 6, 1], [3, 3, 5]], np.int32)
    opt = _run(EmbNet(), ids, np.array([0, 1, 2], np.int32), 3, first_order_after=2)
    assert opt.matrix_a[0].shape == (7,) and opt.matrix_g[0].shape == (4, 4)


def test_thor_splits_large_matrices_in_128_blocks():
    ms.set_seed(5)
    net = nn.SequentialCell([nn.DenseThor(130, 3)])
    r = np.random.default_rng(1)
    opt = _run(net, r.standard_normal((6, 130)).astype(np.float32), np.array([0, 1, 2, 0, 1, 2], np.int32), 1)
    assert opt.matrix_a[0].shape == (1, 2, 128, 128) and opt.matrix_g[0].shape == (1, 3, 3)


def test_conv2d_thor_statistics_match_numpy():
    """A: 'same' patches (stride 2: padding 0 top / 1 bottom for H=6) averaged over the batch; G: the output
    gradient averaged over the batch; here the conv itself is 'valid' (A and G normalizers differ: 9 and 4)."""
    r = np.random.default_rng(2)
    x = r.standard_normal((2, 2, 6, 6)).astype(np.float32)
    conv = nn.Conv2dThor(2, 3, 3, stride=2, pad_mode="valid")
    sens = r.standard_normal((2, 3, 2, 2)).astype(np.float32)
    ms.grad(lambda t: (conv(t) * Tensor(sens)).sum())(Tensor(x))
    xp = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)))
    cols = np.stack([xp[:, :, i:i + 5:2, j:j + 5:2] for i in range(3) for j in range(3)], axis=2)  # N,C,9,3,3
    a = cols.reshape(2, 18, 9).mean(0)
    np.testing.assert_allclose(conv.matrix_a_cov.asnumpy(), a @ a.T / 9, rtol=1e-5, atol=1e-6)
    d = sens.mean(0).reshape(3, 4)
    np.testing.assert_allclose(conv.matrix_g_cov.asnumpy(), d @ d.T / 4, rtol=1e-5, atol=1e-6)
    assert conv.a_normalizer.asnumpy().tolist() == [9.0] and conv.g_normalizer.asnumpy().tolist() == [4.0]


def test_thor_train_step_compiled_equals_eager():
    """The G statistics recorded in the backward pass reach the optimizer inside a compiled step too."""
    r = np.random.default_rng(3)
    x, y = Tensor(r.standard_normal((4, 2, 4, 4)).astype(np.float32)), Tensor(np.array([0, 1, 2, 3], np.int32))
    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(6)
        net = ConvNet()
        opt = nn.thor(net, Tensor(np.full((4,), 0.1, np.float32)), Tensor(np.full((4,), 0.2, np.float32)), 0.9,
                      batch_size=4, frequency=2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")), opt)
        losses = [float(step(x, y).asnumpy()) for _ in range(3)]
        results.append((losses, [p.asnumpy() for p in net.get_parameters()]))
    assert results[0][0][-1] < results[0][0][0]
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-4)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
