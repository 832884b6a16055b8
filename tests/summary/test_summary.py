"""SummaryRecord files, summary ops in compiled steps, SummaryCollector output, lineage format.

The event files are read back with TensorBoard's own loader (an independent reader) and the lineage
records are checked against a lineage file written by real MindSpore 2.10.
"""
import glob
import json
import os
import re
import socket
import struct

import numpy as np
import pytest
from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
from tensorboard.compat.proto.graph_pb2 import GraphDef
from tensorboard.util import tensor_util

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.summary import HistogramSummary, ScalarSummary, SummaryRecord, TensorSummary
from mindspore_hl.summary._lineage import LineageEvent
from mindspore_hl.train import Model, SummaryCollector


def _events(log_dir):
    path, = glob.glob(os.path.join(str(log_dir), "*_MS"))
    return list(EventFileLoader(path).Load())


def _values(events):
    """{tag: [(step, value)]} for every summary value (scalars as floats, others as the Value proto)."""
    out = {}
    for e in events:
        for v in e.summary.value:
            plugin = v.metadata.plugin_data.plugin_name
            value = float(tensor_util.make_ndarray(v.tensor)) if plugin == "scalars" else v
            out.setdefault(v.tag, []).append((e.step, value))
    return out


def _records(path):
    data, out, off = open(path, "rb").read(), [], 0
    while off < len(data):
        (n,) = struct.unpack("<Q", data[off:off + 8])
        out.append(data[off + 12:off + 12 + n])
        off += n + 16
    return out


def test_summary_record_file_names_and_values(tmp_path):
    with SummaryRecord(str(tmp_path)) as record:
        record.add_value("scalar", "loss", ms.Tensor(0.5))
        record.add_value("image", "img", ms.Tensor(np.random.rand(3, 1, 4, 5).astype(np.float32)))
        record.add_value("histogram", "w", ms.Tensor(np.arange(10, dtype=np.float32)))
        record.add_value("tensor", "t", ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        record.record(3)
        record.add_value("scalar", "loss", 0.25)
        record.record(4)
    name, = os.listdir(tmp_path)
    host = re.escape(socket.gethostname())
    assert re.fullmatch(rf"events\.out\.tfevents\.summary\.\d{{10}}\.0\.{host}_MS", name)
    events = _events(tmp_path)
    assert events[0].file_version == "brain.Event:2"
    values = _values(events)
    assert values["loss"] == [(3, 0.5), (4, 0.25)]
    img = values["img"][0][1]
    assert img.metadata.plugin_data.plugin_name == "images"
    w, h = (int(x) for x in img.tensor.string_val[:2])
    assert (w, h) == (15, 4)  # three 4x5 images side by side
    hist = tensor_util.make_ndarray(values["w"][0][1].tensor)
    assert hist[:, 2].sum() == 10 and hist[0, 0] == 0 and hist[-1, 1] == 9
    np.testing.assert_array_equal(tensor_util.make_ndarray(values["t"][0][1].tensor),
                                  np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(RuntimeError, match="closed"):
        record.record(5)


def test_summary_record_validates(tmp_path):
    with SummaryRecord(str(tmp_path)) as record:
        with pytest.raises(ValueError, match="plugin"):
            record.add_value("audio", "a", ms.Tensor(1.0))
        with pytest.raises(ValueError, match="one element"):
            record.add_value("scalar", "s", ms.Tensor(np.ones(3, np.float32)))
        with pytest.raises(ValueError, match="N, C, H, W"):
            record.add_value("image", "i", ms.Tensor(np.ones((2, 2), np.float32)))
        with pytest.raises(ValueError, match="name"):
            record.add_value("scalar", "", 1.0)


def test_max_file_size_stops_writing(tmp_path):
    with SummaryRecord(str(tmp_path), max_file_size=400) as record:
        for step in range(50):
            record.add_value("scalar", "x", float(step))
            record.record(step)
    assert os.path.getsize(glob.glob(str(tmp_path / "*_MS"))[0]) <= 400


class OpsNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2)
        self.scalar, self.hist, self.tensor = ScalarSummary(), HistogramSummary(), TensorSummary()

    def construct(self, x):
        y = self.fc(x)
        self.scalar("y_mean", y.mean())
        self.hist("y", y)
        self.tensor("x_first", x[0])
        return y


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_summary_ops_in_construct(tmp_path, mode):
    ms.set_context(mode=mode)
    net = OpsNet()
    x = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    with SummaryRecord(str(tmp_path)) as record:
        y = net(ms.Tensor(x))
        record.record(7)
    values = _values(_events(tmp_path))
    assert values["y_mean"][0][0] == 7
    assert values["y_mean"][0][1] == pytest.approx(float(y.asnumpy().mean()), rel=1e-6)
    np.testing.assert_array_equal(tensor_util.make_ndarray(values["x_first"][0][1].tensor), x[0])
    assert "y" in values
    with pytest.raises(ValueError, match="one element"):
        ScalarSummary()("bad", ms.Tensor(np.ones(3, np.float32)))


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.conv(x))))


def _conv_data(n=5):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(8, 1, 8, 8)).astype(np.float32), rng.integers(0, 3, 8).astype(np.int32))
            for _ in range(n)]


def test_summary_collector_end_to_end(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})
    data = _conv_data()
    losses = []
    from mindspore_hl.train import LambdaCallback
    rec = LambdaCallback(on_train_step_end=lambda rc: losses.append(float(rc.original_args().net_outputs.asnumpy())))
    collector = SummaryCollector(str(tmp_path), collect_freq=2, custom_lineage_data={"team": "a", "trial": 3})
    model.fit(2, data, data[:2], callbacks=[rec, collector])
    values = _values(_events(tmp_path))
    # loss/auto: first step always, then every 2 steps (global step count)
    assert [s for s, _ in values["loss/auto"]] == [1, 2, 4, 6, 8, 10]
    np.testing.assert_allclose([v for _, v in values["loss/auto"]], [losses[s - 1] for s in (1, 2, 4, 6, 8, 10)],
                               rtol=1e-6)
    assert values["learning_rate/auto"][0][1] == pytest.approx(0.1)
    assert {t for t in values if t.endswith("/auto")} >= {"conv.weight/auto", "fc.weight/auto", "fc.bias/auto",
                                                           "input_data/auto"}
    assert [s for s, _ in values["eval/acc"]] == [5, 10] and "eval/loss" in values
    tree = json.loads(values["network/cell_tree"][0][1].tensor.string_val[0])
    assert tree["name"] == "ConvNet" and tree["type"] == "ConvNet"
    conv = next(c for c in tree["children"] if c["name"] == "conv")
    assert conv["type"] == "Conv2d" and conv["params"] == [["conv.weight", [4, 1, 3, 3], "Float32"]]
    hp = [v for v in values["_hparams_/session_start_info"]]
    assert hp, "hparams session start missing"
    assert [s for s, _ in values["hparam/acc"]] == [10]
    # the graph: NodeDefs scoped by the Cells, with output shapes, and a Gradients scope
    graph_event, = [e for e in _events(tmp_path) if e.HasField("graph_def")]
    graph = GraphDef.FromString(graph_event.graph_def)
    names = {n.name: n for n in graph.node}
    # The conv layer's ops sit under its Cell scope; how the convolution is lowered (a convolution or an
    # im2col matmul) is an implementation choice, so look for the node that produces the layer's output shape.
    scope = "TrainOneStepCell/network/_backbone/conv/"
    conv_nodes = [n for name, n in names.items() if name.startswith(scope)]
    assert conv_nodes, sorted(names)[:20]
    shapes = [sorted(d.size for d in n.attr["_output_shapes"].list.shape[0].dim) for n in conv_nodes
              if n.attr["_output_shapes"].list.shape]
    assert sorted([8, 4, 6, 6]) in shapes  # (N=8, C=4, 6, 6), NCHW or the layer's internal NHWC
    assert all(i.split(":")[0] in names for n in graph.node for i in n.input)
    assert "Parameters/conv.weight" in names and any(n.startswith("Gradients/") for n in names)
    # lineage, in MindSpore's LineageEvent format
    lineage, = glob.glob(str(tmp_path / "*_lineage"))
    events = [LineageEvent.FromString(r) for r in _records(lineage)]
    train = next(e.train_lineage for e in events if e.HasField("train_lineage"))
    assert (train.hyper_parameters.optimizer, train.hyper_parameters.loss_function) == \
        ("Momentum", "SoftmaxCrossEntropyWithLogits")
    assert train.hyper_parameters.epoch == 2 and train.hyper_parameters.batch_size == 8
    assert train.algorithm.network == "ConvNet" and train.algorithm.loss == pytest.approx(losses[-1], rel=1e-6)
    user = next(e.user_defined_info for e in events if e.HasField("user_defined_info"))
    assert dict(user.map_str) == {"team": "a"} and dict(user.map_int32) == {"trial": 3}
    assert "acc" in json.loads(next(e.evaluation_lineage for e in events if e.HasField("evaluation_lineage")).metric)


def test_lineage_schema_reads_real_mindspore_file(fixtures_dir):
    path, = glob.glob(str(fixtures_dir / "lenet5" / "summary" / "*_lineage"))
    train = next(e.train_lineage for e in map(LineageEvent.FromString, _records(path)) if e.HasField("train_lineage"))
    hp = train.hyper_parameters
    assert (hp.optimizer, hp.loss_function, hp.epoch, hp.batch_size, hp.parallel_mode, hp.device_num) == \
        ("Momentum", "SoftmaxCrossEntropyWithLogits", 1, 8, "stand_alone", 1)
    assert hp.learning_rate == pytest.approx(0.01) and train.algorithm.network == "LeNet5"
    assert json.loads(train.model.path)["ckpt"].endswith("checkpoint_lenet-1_4.ckpt")


def test_collector_flushes_every_epoch(tmp_path):
    """The dashboard sees the data of finished epochs while training is still running."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    seen = []
    from mindspore_hl.train import LambdaCallback
    peek = LambdaCallback(on_train_epoch_begin=lambda rc: seen.append(
        len(_values(_events(tmp_path)).get("loss/auto", [])) if glob.glob(str(tmp_path / "*_MS")) else 0))
    model.train(3, _conv_data(), callbacks=[SummaryCollector(str(tmp_path), collect_freq=5), peek])
    assert seen == [0, 2, 3]


def test_collector_options(tmp_path):
    with pytest.raises(ValueError, match="unsupported"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_everything": True})
    with pytest.raises(ValueError, match="collect_freq"):
        SummaryCollector(str(tmp_path), collect_freq=0)
    with pytest.raises(ValueError, match="regular expression"):
        SummaryCollector(str(tmp_path), collect_specified_data={"histogram_regular": "("})
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    collector = SummaryCollector(str(tmp_path), collect_freq=1, keep_default_action=False,
                                 collect_specified_data={"collect_metric": True, "histogram_regular": "^moments"})
    model.train(1, _conv_data(2), callbacks=collector)
    tags = set(_values(_events(tmp_path)))
    assert tags == {"loss/auto", "moments.conv.weight/auto", "moments.fc.weight/auto", "moments.fc.bias/auto"}
    with pytest.raises(ValueError, match="Only one SummaryCollector"):
        model.train(1, _conv_data(2), callbacks=[SummaryCollector(str(tmp_path / "a")),
                                                 SummaryCollector(str(tmp_path / "b"))])


def test_collector_in_sink_mode_counts_epochs(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(3, _conv_data(), callbacks=SummaryCollector(str(tmp_path), collect_freq=2), dataset_sink_mode=True)
    values = _values(_events(tmp_path))
    assert [s for s, _ in values["loss/auto"]] == [5, 10]  # the first sink, then every 2nd epoch (5 steps each)
    assert any(e.HasField("graph_def") for e in _events(tmp_path))


def test_importing_the_package_leaves_the_summary_writers_unloaded_until_used():
    # tensorboardX imports PyTorch whenever it is installed: only a SummaryRecord should pay for that.
    import subprocess
    import sys
    code = ("import sys, mindspore_hl as ms; before = 'tensorboardX' in sys.modules; "
            "from mindspore_hl.train import SummaryRecord; "
            "print(before, 'tensorboardX' in sys.modules, SummaryRecord is ms.summary.SummaryRecord)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True"]
