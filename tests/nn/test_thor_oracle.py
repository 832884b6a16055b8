"""THOR against real MindSpore 2.10 (tools/oracle/record_thor.py): network conversion, the optimizer ``nn.thor``
builds and its attributes, argument errors, DenseThor / EmbeddingThor statistics (A in the forward pass, G from
the backward pass) and Conv2dThor's first-order forward. MindSpore's CPU build cannot run a THOR training step
(no CPU kernel for CholeskyTrsm / ThorIm2Col, recorded in the fixture): the update maths is checked against a
NumPy re-implementation in test_thor_optim.py."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

CASES = load_cases(FIXTURE_ROOT / "thor.npz")


class Net(nn.Cell):
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


def _init():
    case = CASES["convert/net"]
    return {k[len("init:"):]: v for k, v in case.inputs.items()}


def test_convert_to_thor_net_matches_mindspore():
    case = CASES["convert/net"]
    net = Net(_init())
    ms.train.ConvertNetUtils().convert_to_thor_net(net)
    params = list(net.get_parameters())
    assert [p.name for p in params] == case.meta["names"]
    assert [list(p.shape) for p in params] == case.meta["shapes"]
    assert [p.requires_grad for p in params] == case.meta["requires_grad"]
    assert {n: type(c).__name__ for n, c in net.cells_and_names() if n} == case.meta["cells"]
    fp16 = {n: c.__dict__.get("_compute_dtype") == ms.float16 for n, c in net.cells_and_names() if n}
    # Dense layers run in float16 off GPU, as in MindSpore (recorded on its CPU build); in float32 on a GPU
    on_gpu = ms.get_context("device_target") == "GPU"
    assert fp16 == ({n: False for n in fp16} if on_gpu else case.meta["mixed_precision"])
    for p, expected in zip(params, case.outputs):  # the Conv2d bias starts again at zero
        assert_close(p, expected, what=p.name)


def test_thor_optimizer_attributes_match_mindspore():
    case = CASES["thor/attrs"]
    meta = case.meta
    net = Net(_init())
    lr = Tensor(np.array([0.1, 0.05, 0.02, 0.01], np.float32))
    damping = Tensor(np.array([0.3, 0.2, 0.1, 0.05], np.float32))
    opt = nn.thor(net, lr, damping, 0.9, weight_decay=1e-4, loss_scale=8.0, batch_size=4, frequency=3,
                  decay_filter=lambda x: "bias" not in x.name)
    assert type(opt).__name__ == meta["cls"]
    assert opt.get_frequency() == meta["frequency"]
    assert [p.name for p in opt.params] == meta["params"]
    assert [p.name for p in opt.get_parameters()] == meta["opt_param_names"]
    assert [p.name for p in opt.matrix_a_cov] == meta["matrix_a_cov"]
    assert [p.name for p in opt.matrix_g_cov] == meta["matrix_g_cov"]
    assert [p.name for p in opt.moments] == meta["moments"]
    assert [[p.name, list(p.shape)] for p in opt.matrix_a] == meta["matrix_a"]
    assert [[p.name, list(p.shape)] for p in opt.matrix_g] == meta["matrix_g"]
    assert [kind for kind, _, _ in opt._layers] == meta["weight_layertype_idx_map"]
    assert [slot for _, _, slot in opt._layers] == meta["weight_fim_idx_map"]
    assert list(opt.decay_flags) == meta["decay_flags"]
    assert_close(opt.cov_step, case.outputs[0])
    assert_close(opt.momentum, case.outputs[4])
    assert opt.batch_size == float(case.outputs[1]) and opt.batch_size_scale == float(case.outputs[2])
    # MindSpore's CPU build stops at the first THOR update (recorded); this package trains (test_thor_optim.py).
    assert CASES["thor/train_step"].error == "RuntimeError"
    assert "CholeskyTrsm" in CASES["thor/train_step"].meta["message"]


@pytest.mark.parametrize("cid", [c for c in CASES if c.startswith("thor/error/")])
def test_thor_argument_errors_match_mindspore(cid):
    case = CASES[cid]
    args = {"learning_rate": Tensor(np.full((4,), 0.1, np.float32)),
            "damping": Tensor(np.full((4,), 0.1, np.float32)), "momentum": 0.9}
    args.update(case.kwargs)
    with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[case.error]):
        nn.thor(Net(_init()), **args)


@pytest.mark.parametrize("act", ["None", "tanh"])
def test_dense_thor_statistics_match_mindspore(act):
    case = CASES[f"DenseThor/{act}"]
    x, sens = Tensor(case.inputs["x"]), Tensor(case.inputs["sens"])
    d = nn.DenseThor(3, 4, weight_init=Tensor(case.inputs["weight"]), bias_init=Tensor(case.inputs["bias"]),
                     activation=None if act == "None" else act)
    assert [p.name for p in d.get_parameters()] == case.meta["names"]
    out = d(x)
    assert_close(out, case.outputs[0], rtol=1e-5, atol=1e-6, what="output")
    assert_close(d.matrix_a, case.outputs[1], rtol=1e-5, atol=1e-6, what="matrix_a")
    gx = ms.grad(lambda t: (d(t) * sens).sum())(x)
    assert_close(d.matrix_g, case.outputs[2], rtol=1e-5, atol=1e-6, what="matrix_g")
    assert_close(gx, case.outputs[3], rtol=1e-5, atol=1e-6, what="dx")


def test_embedding_thor_statistics_match_mindspore():
    case = CASES["EmbeddingThor/basic"]
    e = nn.EmbeddingThor(7, 4, embedding_table=Tensor(case.inputs["table"]))
    assert [p.name for p in e.get_parameters()] == case.meta["names"]
    ids, sens = Tensor(case.inputs["ids"]), Tensor(case.inputs["sens"])
    assert_close(e(ids), case.outputs[0], what="output")
    assert_close(e.matrix_a, case.outputs[1], what="matrix_a")
    ms.grad(lambda t: (e(t) * sens).sum(), grad_position=None, weights=e.trainable_params())(ids)
    assert_close(e.matrix_g, case.outputs[2], rtol=1e-5, atol=1e-6, what="matrix_g")


@pytest.mark.parametrize("mode", ["same", "valid", "pad"])
def test_conv2d_thor_forward_matches_mindspore(mode):
    case = CASES[f"Conv2dThor/{mode}"]
    c = nn.Conv2dThor(2, 3, 3, stride=2, pad_mode=mode, padding=case.meta["padding"],
                      weight_init=Tensor(case.inputs["weight"]))
    assert [p.name for p in c.get_parameters()] == case.meta["names"]
    assert [list(p.shape) for p in c.get_parameters()] == case.meta["shapes"]
    c.thor = False
    assert_close(c(Tensor(case.inputs["x"])), case.outputs[0], rtol=1e-5, atol=1e-5)
    c.thor = True  # MindSpore's CPU build has no ThorIm2Col (recorded): A/G are checked against NumPy elsewhere
    assert_close(c(Tensor(case.inputs["x"])), case.outputs[0], rtol=1e-5, atol=1e-5)
    assert "ThorIm2Col" in CASES["Conv2dThor/thor_forward"].meta["message"]


def test_convert_to_thor_model_matches_mindspore():
    meta = CASES["ConvertModelUtils/convert"].meta
    net = Net(_init())
    lr = Tensor(np.array([0.1, 0.05, 0.02, 0.01], np.float32))
    opt = nn.thor(net, lr, lr, 0.9, frequency=3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
    m2 = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
    assert type(m2).__name__ == meta["thor_cls"]
    assert [b.__name__ for b in type(m2).__mro__[1:3]] == meta["thor_bases"]
    assert (m2._frequency, m2.switch_branch_one, m2.index_first_order) == (
        meta["frequency"], meta["switch_branch_one"], meta["index_first_order"])
    net3 = Net(_init())
    mom = nn.Momentum(net3.trainable_params(), 0.1, 0.9)
    model3 = ms.train.Model(net3, loss_fn=loss, optimizer=mom)
    assert (ms.train.ConvertModelUtils.convert_to_thor_model(model3, network=net3, loss_fn=loss, optimizer=mom)
            is model3) == meta["other_is_same"]
