"""Record real MindSpore's loss landscape flow: ``SummaryCollector(collect_landscape=...)`` + ``SummaryLandscape``.

    python tools/oracle/record_landscape.py            ->  tests/fixtures/oracle/landscape.npz
    python tools/oracle/record_landscape.py --check DIR    parse the landscape values of the event files in DIR
                                                           (written by mindspore_hl) with MindSpore's own proto

Case ``landscape/flow``: a two-layer Dense net with fixed initial weights trains 3 epochs of 2 batches (SGD) with
``collect_landscape`` (steps 1-5, grid 3x3, 8 samples); then ``np.random.seed(123)`` and
``gen_landscapes_with_multi_process`` on one device. Inputs: the data, the initial weights, the parameters of
each interval checkpoint (``ckpt/<step>/<name>``) and the event file gen_landscapes wrote (``ms_event_file``).
Outputs: for each LossLandscape value written (PCA, then Random), its serialized bytes (uint8) and its arrays.
Meta: the checkpoint file names, train_metadata.json (without the directory) and the tags.
Case ``collector/default``: the checkpoint files a default ``SummaryCollector`` leaves (steps 1-19 of the default
intervals); ``collector/epoch_sink``: ``unit='epoch'`` in sink mode. ``pca/*``: MindSpore's ``_PCA`` on random
trajectories (the exact and the randomized SVD path). ``errors/*``: argument errors.
"""
import glob
import json
import os
import pathlib
import struct
import sys
import tempfile

import numpy as np
from google.protobuf.message import DecodeError

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
from mindspore import SummaryCollector, SummaryLandscape, Tensor, nn  # noqa: E402
from mindspore.train import Loss, Model  # noqa: E402
from mindspore.train.summary_pb2 import Event  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

W1 = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
W2 = np.linspace(1, -0.5, 6, dtype=np.float32).reshape(2, 3)
rng = np.random.RandomState(0)
X = rng.randn(8, 4).astype(np.float32)
Y = (rng.rand(8) > 0.5).astype(np.int32)
LANDSCAPE = {"landscape_size": 3, "unit": "step", "create_landscape": {"train": True, "result": True},
             "num_samples": 8, "intervals": [[1, 2, 3, 4, 5]]}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, weight_init=Tensor(W1), bias_init="zeros")
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(3, 2, weight_init=Tensor(W2), bias_init="zeros")

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def data():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)


def loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def callback_fn():
    net = Net()
    metrics = {"Loss": Loss()}
    return Model(net, loss_fn(), metrics=metrics), net, data(), metrics


def landscape_values_of(path):
    """(tag, LossLandscape) of every landscape value in one event file."""
    with open(path, "rb") as f:
        raw = f.read()
    pos = 0
    while pos < len(raw):
        (n,) = struct.unpack("<Q", raw[pos:pos + 8])
        body = raw[pos + 12:pos + 12 + n]
        pos += 16 + n
        try:
            event = Event.FromString(body)
        except DecodeError:  # a TensorBoard-only record of a mindspore_hl file (e.g. a TF GraphDef)
            continue
        for value in event.summary.value:
            if value.HasField("loss_landscape"):
                yield value.tag, value.loss_landscape


def landscape_values(directory):
    """(tag, LossLandscape) of every landscape value in the event files of ``directory``."""
    return [found for path in sorted(glob.glob(os.path.join(directory, "*_MS"))) for found in
            landscape_values_of(path)]


def arrays(point):
    return [np.asarray(t.float_data, np.float32).reshape(tuple(t.dims)) for t in (point.x, point.y, point.z)]


def check(directory):
    for tag, msg in landscape_values(directory):
        x, y, z = arrays(msg.landscape)
        print(tag, msg.metadata.decomposition, msg.metadata.unit, msg.metadata.step_per_epoch,
              "dtypes", [t.data_type for t in (msg.landscape.x, msg.landscape.y, msg.landscape.z)],
              "shapes", x.shape, y.shape, z.shape, "path intervals", list(msg.loss_path.intervals),
              "convergence z", list(msg.convergence_point.z.float_data))
        print("  z =", np.round(z, 6).tolist())


def record_flow(w):
    directory = tempfile.mkdtemp()
    net = Net()
    model = Model(net, loss_fn(), nn.SGD(net.trainable_params(), 0.5))
    collector = SummaryCollector(directory, collect_specified_data={"collect_landscape": LANDSCAPE})
    model.train(3, data(), callbacks=[collector], dataset_sink_mode=False)
    with open(os.path.join(directory, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as f:
        metadata = json.load(f)
    files = {k: os.path.basename(v) for k, v in metadata.pop("model_params_file_map").items()}
    inputs = {"x": X, "y": Y, "w1": W1, "w2": W2}
    for step, name in files.items():
        for pname, param in ms.load_checkpoint(os.path.join(directory, "ckpt_dir", name)).items():
            inputs[f"ckpt/{step}/{pname}"] = param.asnumpy()
    np.random.seed(123)
    SummaryLandscape(directory).gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
    outputs, tags = [], []
    for path in glob.glob(os.path.join(directory, "*_MS")):  # the file gen_landscapes wrote, kept whole
        if any(True for _ in landscape_values_of(path)):
            with open(path, "rb") as f:
                inputs["ms_event_file"] = np.frombuffer(f.read(), np.uint8)
    for tag, msg in landscape_values(directory):
        tags.append([tag, msg.metadata.decomposition, msg.metadata.unit, msg.metadata.step_per_epoch,
                     list(msg.loss_path.intervals),
                     [t.data_type for t in (msg.landscape.x, msg.landscape.y, msg.landscape.z)]])
        outputs.append(np.frombuffer(msg.SerializeToString(), np.uint8))
        outputs += arrays(msg.landscape)
        outputs += arrays(msg.loss_path.points) if msg.HasField("loss_path") else [np.zeros(0, np.float32)] * 3
        outputs += arrays(msg.convergence_point)
    w.add("landscape/flow", inputs=inputs, outputs=outputs, name="SummaryLandscape", ckpt_files=files,
          metadata=metadata, tags=tags, seed=123)


def record_default(w):
    directory = tempfile.mkdtemp()
    net = nn.Dense(4, 2)
    model = Model(net, loss_fn(), nn.SGD(net.trainable_params(), 0.5))
    model.train(1, ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(2),
                callbacks=[SummaryCollector(directory)], dataset_sink_mode=False)
    with open(os.path.join(directory, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as f:
        metadata = json.load(f)
    metadata.pop("model_params_file_map")
    w.add("collector/default", outputs=[], name="SummaryCollector",
          files=sorted(os.listdir(os.path.join(directory, "ckpt_dir"))), metadata=metadata)


def record_epoch_sink(w):
    directory = tempfile.mkdtemp()
    net = nn.Dense(4, 2)
    model = Model(net, loss_fn(), nn.SGD(net.trainable_params(), 0.5))
    landscape = {"intervals": [[1, 2, 3]], "unit": "epoch"}
    model.train(2, ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(2),
                callbacks=[SummaryCollector(directory, collect_specified_data={"collect_landscape": landscape})],
                dataset_sink_mode=True)
    with open(os.path.join(directory, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as f:
        metadata = json.load(f)
    metadata.pop("model_params_file_map")
    w.add("collector/epoch_sink", outputs=[], name="SummaryCollector", landscape=landscape,
          files=sorted(os.listdir(os.path.join(directory, "ckpt_dir"))), metadata=metadata)


def record_pca(w):
    # more than 500 features: MindSpore's randomized SVD path (exact while an interval has <= 13 checkpoints)
    from mindspore.train.callback._landscape import _PCA
    for k, features in ((3, 40), (5, 600)):
        trajectory = np.random.RandomState(k).randn(k, features)
        w.add(f"pca/{k}x{features}", inputs={"trajectory": trajectory},
              outputs=[_PCA(n_comps=2).compute(np.array(trajectory.T))], name="_PCA")


def record_errors(w):
    directory = tempfile.mkdtemp()
    bad = {"size_2": {"landscape_size": 2, "intervals": [[1, 2, 3]]},
           "size_float": {"landscape_size": 4.0, "intervals": [[1, 2, 3]]},
           "unit": {"unit": "batch", "intervals": [[1, 2, 3]]},
           "short_interval": {"intervals": [[1, 2]]},
           "interval_str": {"intervals": [[1, 2, "3"]]},
           "interval_not_list": {"intervals": [1, 2, 3]},
           "no_intervals": {"landscape_size": 4},
           "key": {"size": 4, "intervals": [[1, 2, 3]]},
           "create_key": {"create_landscape": {"train": True, "plot": True}, "intervals": [[1, 2, 3]]},
           "create_value": {"create_landscape": {"train": 1, "result": True}, "intervals": [[1, 2, 3]]},
           "num_samples": {"num_samples": 8.0, "intervals": [[1, 2, 3]]},
           "not_dict": [1, 2]}
    for name, value in bad.items():
        try:
            SummaryCollector(directory, collect_specified_data={"collect_landscape": value})
            w.add(f"errors/collector/{name}", outputs=[], name="SummaryCollector", value=value)
        except (TypeError, ValueError) as e:
            w.add(f"errors/collector/{name}", outputs=[], name="SummaryCollector", value=value,
                  error=type(e).__name__)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check(sys.argv[2])
        return
    with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "landscape.npz") as w:
        record_flow(w)
        record_default(w)
        record_epoch_sink(w)
        record_pca(w)
        record_errors(w)


if __name__ == "__main__":
    main()
