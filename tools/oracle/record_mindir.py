"""Record MindIR files that real MindSpore 2.10 exports, with its outputs on them (run with the oracle venv).

Writes ``tests/fixtures/oracle/mindir/<net>.mindir`` and ``mindir.npz`` (inputs and real MindSpore's outputs of
``nn.GraphCell(load(file))``). ModelZoo's ResNet50 (``ms_reference_nets.resnet50``, weights from
``tests/serialization/mindir_weights.py``) makes a 94 MB file: it is written to ``build/mindir/resnet50.mindir``,
and only its graph (``resnet50_graph.mindir``, the parameters without their data) and its SHA-256 are kept; the
test refills the weights from the same seed and checks the hash, so it reads the very bytes real MindSpore wrote.
Then runs the MindIR files that mindspore_hl exported (``tools/oracle/export_mindir_here.py``, ``hl_<net>.mindir``,
ResNet50's in ``build/mindir``) in real MindSpore and records its outputs on them and their SHA-256 into
``hl_outputs.npz``. The networks are small on purpose (compact fixtures) but use the operations of
ResNet (Conv2D with padding and stride, BatchNorm in eval mode, residual Add, MaxPool, mean pooling, Dense) and of
a Transformer encoder (MatMul, LayerNorm, Softmax, ReLU feed-forward, reshapes and transposes).
"""
import hashlib
import os
import pathlib
import sys

import mindspore as ms
import numpy as np
from mindspore import nn, ops
from mindspore.train.mind_ir_pb2 import ModelProto

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "serialization")]
from mindir_weights import seeded_value  # noqa: E402
from ms_reference_nets import resnet50  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "mindir"
LARGE = ROOT / "build" / "mindir"
RESNET50_SEED = 6


class Block(nn.Cell):
    """A ResNet bottleneck: 1x1 -> 3x3 (stride 2) -> 1x1, BatchNorm after each, a projected shortcut."""

    def __init__(self, cin, mid, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, mid, 1)
        self.bn1 = nn.BatchNorm2d(mid, eps=1e-4)
        self.conv2 = nn.Conv2d(mid, mid, 3, stride=stride, pad_mode="pad", padding=1)
        self.bn2 = nn.BatchNorm2d(mid, eps=1e-4)
        self.conv3 = nn.Conv2d(mid, cout, 1)
        self.bn3 = nn.BatchNorm2d(cout, eps=1e-4)
        self.down = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride=stride), nn.BatchNorm2d(cout, eps=1e-4)])
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return self.relu(y + self.down(x))


class MiniResNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, stride=2, pad_mode="pad", padding=3)
        self.bn1 = nn.BatchNorm2d(8, eps=1e-4)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        self.layer1 = Block(8, 4, 16, 1)
        self.layer2 = Block(16, 8, 32, 2)
        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(32, 10)

    def construct(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        return self.fc(self.flatten(self.mean(x, (2, 3))))


class MiniEncoder(nn.Cell):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Dense(16, 4)

    def construct(self, x):
        return self.head(self.encoder(x))


def _seed_weights(net, seed):
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        if "moving_variance" in p.name:
            value = rng.uniform(0.5, 1.5, p.shape)
        else:
            value = rng.normal(0, 0.3, p.shape)
        p.set_data(ms.Tensor(value.astype(np.float32)))


def _sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def _graph_only(path, out, seed):
    """Write ``path`` without its parameters' data to ``out``, after checking that refilling the data from
    ``seeded_value`` and serializing again gives the original bytes (what the test does)."""
    data = pathlib.Path(path).read_bytes()
    model = ModelProto()
    model.ParseFromString(data)
    prefix = model.graph.name + ":"
    for t in model.graph.parameter:
        name = t.name[len(prefix):] if t.name.startswith(prefix) else t.name
        expected = seeded_value(name, tuple(t.dims), seed).tobytes()
        assert t.raw_data == expected, f"{name}: the file holds other values than seeded_value gives"
        t.raw_data = b""
    pathlib.Path(out).write_bytes(model.SerializeToString())
    for t in model.graph.parameter:
        name = t.name[len(prefix):] if t.name.startswith(prefix) else t.name
        t.raw_data = seeded_value(name, tuple(t.dims), seed).tobytes()
    assert model.SerializeToString() == data, "re-serializing the refilled graph does not give the original bytes"


def _record_resnet50(w):
    net = resnet50(10)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(seeded_value(p.name, tuple(p.shape), RESNET50_SEED)))
    net.set_train(False)
    x = np.random.default_rng(12).normal(size=(2, 3, 32, 32)).astype(np.float32)
    LARGE.mkdir(parents=True, exist_ok=True)
    path = str(LARGE / "resnet50")
    ms.export(net, ms.Tensor(x), file_name=path, file_format="MINDIR")
    out = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, net(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-6)
    _graph_only(path + ".mindir", OUT / "resnet50_graph.mindir", RESNET50_SEED)
    w.add("resnet50", inputs={"x0": x}, outputs=[out], seed=RESNET50_SEED, sha256=_sha256(path + ".mindir"),
          params={p.name: list(p.shape) for p in net.get_parameters()})
    print("resnet50", os.path.getsize(path + ".mindir"), "bytes; graph only:",
          os.path.getsize(OUT / "resnet50_graph.mindir"))


def main():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    cases = {
        "lenet5": None,  # exported by the fixture set in tests/fixtures/mindspore/lenet5
        "mini_resnet": (MiniResNet(), [rng.normal(size=(2, 3, 32, 32)).astype(np.float32)]),
        "mini_encoder": (MiniEncoder(), [rng.normal(size=(2, 5, 16)).astype(np.float32)]),
    }
    with FixtureWriter(OUT / "mindir.npz") as w:
        for i, (name, spec) in enumerate(cases.items()):
            if spec is None:
                continue
            net, inputs = spec
            _seed_weights(net, i)
            net.set_train(False)
            path = str(OUT / name)
            ms.export(net, *[ms.Tensor(x) for x in inputs], file_name=path, file_format="MINDIR")
            graph = nn.GraphCell(ms.load(path + ".mindir"))
            out = graph(*[ms.Tensor(x) for x in inputs])
            direct = net(*[ms.Tensor(x) for x in inputs])
            np.testing.assert_allclose(out.asnumpy(), direct.asnumpy(), rtol=1e-5, atol=1e-6)
            w.add(name, inputs={f"x{k}": x for k, x in enumerate(inputs)}, outputs=[out.asnumpy()],
                  params={p.name: list(p.shape) for p in net.get_parameters()})
            print(name, os.path.getsize(path + ".mindir"), "bytes")
        _record_resnet50(w)
    hl_inputs = OUT / "hl_inputs.npz"
    if hl_inputs.exists():
        with np.load(hl_inputs) as data, FixtureWriter(OUT / "hl_outputs.npz") as w:
            for name in data.files:
                path = OUT / f"hl_{name}.mindir"
                path = path if path.exists() else LARGE / f"hl_{name}.mindir"
                graph = nn.GraphCell(ms.load(str(path)))
                out = graph(ms.Tensor(data[name])).asnumpy()
                w.add(name, inputs={"x": data[name]}, outputs=[out], sha256=_sha256(path))
                print("mindspore_hl's", name, "runs in real MindSpore:", out.shape)


if __name__ == "__main__":
    main()
