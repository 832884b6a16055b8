"""Record real MindSpore 2.10's THOR pieces that its CPU build runs into tests/fixtures/oracle/thor.npz.

    ../ms-oracle/bin/python tools/oracle/record_thor.py

MindSpore's CPU build converts networks (``ConvertNetUtils``), builds the optimizer (``nn.thor`` -> ``ThorGpu``)
and runs DenseThor / EmbeddingThor (forward statistics A, backward statistics G through ``InsertGradientOf``)
and Conv2dThor's first-order forward; it cannot train with THOR (no CPU kernel for ``CholeskyTrsm``, nor for the
``ThorIm2Col`` of Conv2dThor's THOR forward). Those errors are recorded too.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
from mindspore import Tensor, nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def _rng(seed):
    return np.random.default_rng(seed)


def _unsupported(err):
    return next(line for line in str(err).split("\n") if "Unsupported op" in line)[:120]


def weights():
    r = _rng(0)
    return {"conv.weight": r.standard_normal((3, 2, 3, 3)).astype(np.float32) * 0.3,
            "conv.bias": r.standard_normal((3,)).astype(np.float32),
            "fc.weight": r.standard_normal((5, 48)).astype(np.float32) * 0.1,
            "fc.bias": r.standard_normal((5,)).astype(np.float32),
            "emb.embedding_table": r.standard_normal((7, 4)).astype(np.float32),
            "head.0.weight": r.standard_normal((4, 4)).astype(np.float32),
            "head.0.bias": r.standard_normal((4,)).astype(np.float32)}


class Net(nn.Cell):
    """Conv2d -> Flatten -> Dense(relu), plus an Embedding and a SequentialCell(Dense, LayerNorm) head."""

    def __init__(self, w):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True,
                              weight_init=Tensor(w["conv.weight"]), bias_init=Tensor(w["conv.bias"]))
        self.flat = nn.Flatten()
        self.fc = nn.Dense(48, 5, weight_init=Tensor(w["fc.weight"]), bias_init=Tensor(w["fc.bias"]),
                           activation="relu")
        self.emb = nn.Embedding(7, 4, embedding_table=Tensor(w["emb.embedding_table"]))
        self.head = nn.SequentialCell([nn.Dense(4, 4, weight_init=Tensor(w["head.0.weight"]),
                                                bias_init=Tensor(w["head.0.bias"])), nn.LayerNorm((4,))])

    def construct(self, x):
        return self.fc(self.flat(self.conv(x)))


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "thor.npz"
    w = weights()
    with FixtureWriter(path) as wr:
        # Conversion: names, shapes, cell types, copied values (the Conv2d bias starts again at zero).
        net = Net(w)
        ms.train.ConvertNetUtils().convert_to_thor_net(net)
        params = list(net.get_parameters())
        cells = {name: type(c).__name__ for name, c in net.cells_and_names() if name}
        fp16 = {name: bool(getattr(c, "fp16", False)) for name, c in net.cells_and_names() if name}
        wr.add("convert/net", inputs={f"init:{k}": v for k, v in w.items()},
               outputs=[p.asnumpy() for p in params], name="ConvertNetUtils.convert_to_thor_net",
               names=[p.name for p in params], shapes=[list(p.shape) for p in params],
               requires_grad=[bool(p.requires_grad) for p in params], cells=cells, mixed_precision=fp16)

        # nn.thor: the optimizer class and its attributes.
        net = Net(w)
        lr = Tensor(np.array([0.1, 0.05, 0.02, 0.01], np.float32))
        damping = Tensor(np.array([0.3, 0.2, 0.1, 0.05], np.float32))
        opt = nn.thor(net, lr, damping, 0.9, weight_decay=1e-4, loss_scale=8.0, batch_size=4, frequency=3,
                      decay_filter=lambda x: "bias" not in x.name)
        wr.add("thor/attrs", outputs=[opt.cov_step.asnumpy(), opt.batch_size.asnumpy(),
                                      opt.batch_size_scale.asnumpy(), opt.loss_scale.asnumpy(),
                                      opt.momentum.asnumpy()],
               name="nn.thor", cls=type(opt).__name__, frequency=opt.get_frequency(),
               params=[p.name for p in opt.params], moments=[p.name for p in opt.moments],
               matrix_a=[[p.name, list(p.shape)] for p in opt.matrix_a],
               matrix_g=[[p.name, list(p.shape)] for p in opt.matrix_g],
               matrix_a_cov=[p.name for p in opt.matrix_a_cov], matrix_g_cov=[p.name for p in opt.matrix_g_cov],
               weight_fim_idx_map=list(opt.weight_fim_idx_map),
               weight_layertype_idx_map=list(opt.weight_layertype_idx_map),
               decay_flags=[bool(f) for f in opt.decay_flags], opt_param_names=[p.name for p in opt.get_parameters()])
        try:
            loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
            train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
            net.conv.thor = False  # ThorIm2Col has no CPU kernel: check how far the optimizer itself gets
            train(Tensor(np.ones((4, 2, 4, 4), np.float32)), Tensor(np.arange(4, dtype=np.int32)))
            wr.add("thor/train_step", outputs=[], name="nn.thor")
        except RuntimeError as e:
            wr.add("thor/train_step", error=type(e).__name__, name="nn.thor", message=_unsupported(e))

        # Argument validation.
        for cid, kwargs in [("momentum_int", {"momentum": 1}), ("momentum_neg", {"momentum": -0.1}),
                            ("frequency_1", {"frequency": 1}), ("frequency_float", {"frequency": 2.0}),
                            ("lr_float", {"learning_rate": 0.1})]:
            args = {"learning_rate": lr, "damping": damping, "momentum": 0.9}
            args.update(kwargs)
            try:
                nn.thor(Net(w), **args)
                wr.add(f"thor/error/{cid}", outputs=[], name="nn.thor", kwargs={k: v for k, v in kwargs.items()})
            except (TypeError, ValueError) as e:
                wr.add(f"thor/error/{cid}", error=type(e).__name__, name="nn.thor",
                       kwargs={k: v for k, v in kwargs.items()})

        # DenseThor: forward, A after the forward pass, G after a backward pass (float32, no to_float).
        r = _rng(1)
        x = r.standard_normal((5, 3)).astype(np.float32)
        sens = r.standard_normal((5, 4)).astype(np.float32)
        dw = r.standard_normal((4, 3)).astype(np.float32)
        db = r.standard_normal((4,)).astype(np.float32)
        for act in (None, "tanh"):
            d = nn.DenseThor(3, 4, weight_init=Tensor(dw), bias_init=Tensor(db), activation=act)
            out = d(Tensor(x))
            a = d.matrix_a.asnumpy().copy()
            gx = ms.grad(lambda t, d=d: (d(t) * Tensor(sens)).sum())(Tensor(x))
            wr.add(f"DenseThor/{act}", inputs={"x": x, "sens": sens, "weight": dw, "bias": db},
                   outputs=[out.asnumpy(), a, d.matrix_g.asnumpy(), gx.asnumpy()], name="DenseThor",
                   activation=act, names=[p.name for p in d.get_parameters()])

        # EmbeddingThor: counts A, G = dout.T dout / n_ids.
        ids = np.array([[1, 2, 2], [0, 6, 1]], np.int32)
        table = r.standard_normal((7, 4)).astype(np.float32)
        sens = r.standard_normal((2, 3, 4)).astype(np.float32)
        e = nn.EmbeddingThor(7, 4, embedding_table=Tensor(table))
        out = e(Tensor(ids))
        a = e.matrix_a.asnumpy().copy()
        ms.grad(lambda t: (e(t) * Tensor(sens)).sum(), grad_position=None, weights=e.trainable_params())(Tensor(ids))
        wr.add("EmbeddingThor/basic", inputs={"ids": ids, "table": table, "sens": sens},
               outputs=[out.asnumpy(), a, e.matrix_g.asnumpy()], name="EmbeddingThor",
               names=[p.name for p in e.get_parameters()])

        # Conv2dThor: the first-order forward (thor=False); the THOR forward needs ThorIm2Col.
        xc = r.standard_normal((2, 2, 5, 5)).astype(np.float32)
        cw = r.standard_normal((3, 2, 3, 3)).astype(np.float32)
        for mode, pad in (("same", 0), ("valid", 0), ("pad", 1)):
            c = nn.Conv2dThor(2, 3, 3, stride=2, pad_mode=mode, padding=pad, weight_init=Tensor(cw))
            c.thor = False
            wr.add(f"Conv2dThor/{mode}", inputs={"x": xc, "weight": cw}, outputs=[c(Tensor(xc)).asnumpy()],
                   name="Conv2dThor", pad_mode=mode, padding=pad, names=[p.name for p in c.get_parameters()],
                   shapes=[list(p.shape) for p in c.get_parameters()])
        c = nn.Conv2dThor(2, 3, 3, weight_init=Tensor(cw))
        try:
            c(Tensor(xc))
            wr.add("Conv2dThor/thor_forward", outputs=[], name="Conv2dThor")
        except RuntimeError as err:
            wr.add("Conv2dThor/thor_forward", error=type(err).__name__, name="Conv2dThor",
                   message=_unsupported(err))

        # ConvertModelUtils: a ModelThor for THOR optimizers, the model itself otherwise.
        net = Net(w)
        opt = nn.thor(net, lr, damping, 0.9, frequency=3)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
        m2 = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
        net3 = Net(w)
        mom = nn.Momentum(net3.trainable_params(), 0.1, 0.9)
        model3 = ms.train.Model(net3, loss_fn=loss, optimizer=mom)
        m3 = ms.train.ConvertModelUtils.convert_to_thor_model(model3, network=net3, loss_fn=loss, optimizer=mom)
        wr.add("ConvertModelUtils/convert", outputs=[], name="ConvertModelUtils.convert_to_thor_model",
               thor_cls=type(m2).__name__, thor_bases=[b.__name__ for b in type(m2).__mro__[1:3]],
               frequency=m2._frequency, switch_branch_one=m2.switch_branch_one,
               index_first_order=m2.index_first_order, other_is_same=m3 is model3)


if __name__ == "__main__":
    main()
