"""FlopsUtilizationCollector: model FLOPs replayed from real MindSpore (tools/oracle/record_flops_collector.py).

Hardware FLOPs are XLA's count of the compiled step (MindSpore's count only MatMul / Conv), so they are checked
against ``Compiled.cost_analysis()`` of a plain ``jax.jit`` of the same step, not against the oracle.
"""
import math
import os
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
import mindspore_hl.dataset as ds
from mindspore_hl import nn, ops
from mindspore_hl._engine._flops import matmul_conv_flops
from mindspore_hl.callbacks._flops import FlopsUtilizationCollector
from mindspore_hl.model import Model
from tests.oracle import case_params

FIXTURE = "flops_collector.npz"


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=True)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc1 = nn.Dense(4 * 6 * 6, 8)
        self.fc2 = nn.Dense(8, 5)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(self.flat(self.relu(self.conv(x))))))


class BmmNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full((4, 6, 6), 0.1, np.float32)), name="w")
        self.bmm = ops.BatchMatMul()
        self.fc = nn.Dense(6, 5)

    def construct(self, x):
        return self.fc(self.bmm(x, self.w).mean(axis=1))


NETS = {"dense": (lambda: nn.Dense(10, 5), (10,)), "conv": (ConvNet, (3, 8, 8)), "bmm": (BmmNet, (3, 6))}


def _train(net_name, batch, cb, epochs=1, mode=ms.GRAPH_MODE, evaluate=False):
    ms.set_context(mode=mode)
    make, shape = NETS[net_name]
    rng = np.random.default_rng(0)
    data = {"x": rng.random((2 * batch,) + shape).astype(np.float32),
            "y": rng.integers(0, 5, (2 * batch,)).astype(np.int32)}
    dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(batch)
    net = make()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"loss"})
    if evaluate:
        model.eval(dataset, callbacks=[cb])
    else:
        model.train(epochs, dataset, callbacks=[cb])
    return model


@pytest.mark.parametrize("case", [p for p in case_params(FIXTURE) if p.values[0].error is None])
def test_model_flops_match_mindspore(case, capsys):
    cb = FlopsUtilizationCollector(2, **case.meta["kwargs"])
    evaluate = case.meta["evaluate"]
    model = _train(case.meta["net"], case.meta["batch"], cb, evaluate=evaluate)
    np.testing.assert_array_equal([cb.full_model_flops, cb.shard_model_flops], case.outputs[0])
    # hardware: XLA's count for the executable of one step, the same the runner compiled
    runner = model._eval_runner() if evaluate else model._train_runner()
    (key, entry), = [(k, e) for k, e in runner._cache.items() if not k[0]]
    state = tuple(jax.ShapeDtypeStruct(p._value.shape, p._value.dtype) for p in runner.params)
    cols = [jax.ShapeDtypeStruct(s, d) for s, d in key[2:]]
    xla = entry.lower(state, runner.rng, cols).compile().cost_analysis()["flops"]
    assert cb.shard_hardware_flops == cb.full_hardware_flops == xla
    if jax.default_backend() == "cpu":  # (XLA:GPU's count leaves out the convolutions cuDNN runs)
        assert xla >= cb.shard_model_flops
    lines = capsys.readouterr().out.splitlines()
    model_part = case.meta["first_line"].split(", ")[0]
    assert lines[0].startswith(model_part + ", ")  # MindSpore's text, including its float round trip
    assert f"hardware flops is {xla}" in lines[0]
    # step lines: MindSpore prints at the steps whose number is not a multiple of data_size (step 1 of 2)
    assert len(lines) == 2 and re.fullmatch(r"(Eval|Train) per step time: +[\d.]+ ms mfu:[\d.]+% hfu:[\d.]+%", lines[1])
    assert lines[1].startswith("Eval" if evaluate else "Train")


@pytest.mark.parametrize("case", [p for p in case_params(FIXTURE) if p.values[0].error is not None])
def test_argument_errors_match_mindspore(case):
    with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[case.error]) as e:
        FlopsUtilizationCollector(**case.meta["kwargs"])
    assert str(e.value) == case.meta["message"]


def test_pynative_is_refused_like_mindspore():
    with pytest.raises(ValueError, match="FlopsUtilizationCollector now only support graph mode."):
        _train("dense", 4, FlopsUtilizationCollector(2), mode=ms.PYNATIVE_MODE)


def test_ma_collector_writes_files_and_prints_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MA_LOG_DIR", str(tmp_path))
    cb = FlopsUtilizationCollector(2, enable_ma_collector=True)  # computility 1 + ma: quiet, files only
    _train("dense", 4, cb)
    assert capsys.readouterr().out == ""
    flops = (tmp_path / "flops_rank_0.txt").read_text().splitlines()
    assert flops[0].startswith('flops{type="model_flops", rank_id="0"} 800.0 ')  # fwd + dW: 2 * (2*4*10*5)
    assert flops[1].startswith(f'flops{{type="hardware_flops", rank_id="0"}} {cb.shard_hardware_flops} ')
    step = (tmp_path / "time_step_rank_0.txt").read_text()
    assert re.fullmatch(r'time_monitor\{type="per_step_time", rank_id="0"\} [\d.e-]+ \d+\n', step)
    assert sorted(os.listdir(tmp_path)) == ["flops_rank_0.txt", "time_step_rank_0.txt"]


def test_matmul_conv_flops_counts_loops_and_branches():
    def f(x, w):
        y, _ = jax.lax.scan(lambda c, _: (c @ w, None), x, None, length=3)
        return jax.lax.cond(x.sum() > 0, lambda: y @ w, lambda: y)

    jaxpr = jax.make_jaxpr(f)(jnp.ones((2, 4), jnp.float32), jnp.ones((4, 4), jnp.float32))
    assert matmul_conv_flops(jaxpr) == 4 * (2 * 2 * 4 * 4)  # 3 scanned products + the costlier branch's one


@pytest.mark.parametrize("shape,weight,pad", [
    ((2, 1, 32, 32), (6, 1, 5, 5), 0),     # LeNet5's conv1: products over blocked patches
    ((2, 6, 14, 14), (16, 6, 5, 5), 0),    # LeNet5's conv2: a blocked XLA convolution
    ((2, 3, 8, 8), (4, 3, 3, 3), 0),       # few channels both ways: products over blocked patches
    ((2, 3, 16, 16), (64, 3, 3, 3), 1),    # an RGB stem: XLA's own convolution
])
def test_a_convolution_and_its_weight_gradient_count_as_mindspore_counts_them(shape, weight, pad):
    # MindSpore: Conv2D and Conv2DBackpropFilter each 2 * output size * C_in * kH * kW, whatever form computes them
    # here (the blocked forms do more arithmetic than the convolution).
    x, w = jnp.ones(shape, jnp.float32), jnp.ones(weight, jnp.float32)

    def loss(b):
        return ops.conv2d(ms.Tensor(x), ms.Tensor(b), pad_mode="pad", padding=pad)._value.sum()

    y = ops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode="pad", padding=pad)
    conv = 2 * y.size * math.prod(weight[1:])
    assert matmul_conv_flops(jax.make_jaxpr(jax.grad(loss))(w)) == 2 * conv
