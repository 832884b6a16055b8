"""Record real MindSpore's ``FlopsUtilizationCollector`` FLOPs and argument errors (MindSpore 2.10 interpreter).

    python tools/oracle/record_flops_collector.py   ->  tests/fixtures/oracle/flops_collector.npz

Each net case trains a tiny network for one epoch of two batches in GRAPH_MODE on CPU and records the model and
hardware FLOPs MindSpore counted (MatMul / BatchMatMul / Conv2D, forward and backward) and the first line it
printed. The test rebuilds the same network from ``meta['net']``.
"""
import contextlib
import io
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
from mindspore import nn, ops  # noqa: E402
from mindspore.train import FlopsUtilizationCollector, Model  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


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
    """(B, T, 6) -> batched matmul with a (6, 6) weight broadcast over B -> mean over T -> Dense."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full((4, 6, 6), 0.1, np.float32)), name="w")
        self.bmm = ops.BatchMatMul()
        self.fc = nn.Dense(6, 5)

    def construct(self, x):
        return self.fc(self.bmm(x, self.w).mean(axis=1))


NETS = {"dense": (lambda: nn.Dense(10, 5), (10,)), "conv": (ConvNet, (3, 8, 8)), "bmm": (BmmNet, (3, 6))}


def run(net_name, batch, kwargs, evaluate=False):
    ms.set_context(mode=ms.GRAPH_MODE)
    make, shape = NETS[net_name]
    rng = np.random.default_rng(0)
    data = {"x": rng.random((2 * batch,) + shape).astype(np.float32),
            "y": rng.integers(0, 5, (2 * batch,)).astype(np.int32)}
    dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(batch)
    net = make()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    cb = FlopsUtilizationCollector(dataset.get_dataset_size(), **kwargs)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"loss"})
        if evaluate:
            model.eval(dataset, callbacks=[cb])
        else:
            model.train(1, dataset, callbacks=[cb])
    return cb, out.getvalue().splitlines()


with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "flops_collector.npz") as w:
    for net_name, batch, kwargs, evaluate in (("dense", 32, {"computility": 10e6}, False),
                                              ("conv", 4, {"computility": 10e6}, False),
                                              ("bmm", 4, {"full_flops": False}, False),
                                              ("conv", 4, {"computility": 10e6}, True)):
        cb, lines = run(net_name, batch, kwargs, evaluate)
        w.add(f"FlopsUtilizationCollector/{net_name}{'_eval' if evaluate else ''}", inputs={}, evaluate=evaluate,
              outputs=[np.array([cb.full_model_flops, cb.shard_model_flops], np.float64)],
              name="FlopsUtilizationCollector", net=net_name, batch=batch, kwargs=kwargs, first_line=lines[0],
              hardware=[cb.full_hardware_flops, cb.shard_hardware_flops])
    for i, kwargs in enumerate((dict(data_size=0), dict(data_size=1.5), dict(data_size=True),
                                dict(data_size=2, full_flops=1), dict(data_size=2, enable_ma_collector="x"))):
        try:
            FlopsUtilizationCollector(**kwargs)
        except (TypeError, ValueError) as e:
            w.add(f"FlopsUtilizationCollector/error{i}", inputs={}, name="FlopsUtilizationCollector",
                  error=type(e).__name__, message=str(e), kwargs=kwargs)
