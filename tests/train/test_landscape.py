"""The loss landscape flow against real MindSpore 2.10 (``tools/oracle/record_landscape.py`` -> landscape.npz).

``SummaryCollector(collect_landscape=...)`` saves the interval checkpoints and ``train_metadata.json``;
``SummaryLandscape`` computes the PCA / random-direction landscapes and writes MindSpore ``LossLandscape`` values.
"""
import glob
import json
import os
import struct

import numpy as np
import pytest
from tensorboardX.proto.event_pb2 import Event

import mindspore_hl as ms
import mindspore_hl.dataset as ds
from mindspore_hl import Tensor, nn
from mindspore_hl.summary._landscape_proto import LossLandscape
from mindspore_hl.train import Loss, Model
from mindspore_hl.train._landscape import Points, SummaryLandscape, pca_directions
from tests.oracle import load_cases

CASES = load_cases("landscape.npz")
FLOW = CASES["landscape/flow"]
LANDSCAPE = {"landscape_size": 3, "unit": "step", "create_landscape": {"train": True, "result": True},
             "num_samples": 8, "intervals": [[1, 2, 3, 4, 5]]}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, weight_init=Tensor(FLOW.inputs["w1"]), bias_init="zeros")
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(3, 2, weight_init=Tensor(FLOW.inputs["w2"]), bias_init="zeros")

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _data(batch=4):
    return ds.NumpySlicesDataset({"x": FLOW.inputs["x"], "y": FLOW.inputs["y"]}, shuffle=False).batch(batch)


def _loss():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _callback_fn():
    net = Net()
    metrics = {"Loss": Loss()}
    return Model(net, _loss(), metrics=metrics), net, _data(), metrics


def _train(directory, landscape=LANDSCAPE, net=None, epochs=3, batch=4, sink=False):
    net = net or Net()
    model = Model(net, _loss(), nn.SGD(net.trainable_params(), 0.5))
    specified = None if landscape == "default" else {"collect_landscape": landscape}
    model.train(epochs, _data(batch), callbacks=[ms.SummaryCollector(str(directory), collect_specified_data=specified)],
                dataset_sink_mode=sink)


def _landscapes(directory):
    """(tag, LossLandscape) of each landscape value in the event files of ``directory``."""
    found = []
    for path in sorted(glob.glob(os.path.join(str(directory), "*_MS"))):
        raw = open(path, "rb").read()
        pos = 0
        while pos < len(raw):
            (n,) = struct.unpack("<Q", raw[pos:pos + 8])
            event = Event.FromString(raw[pos + 12:pos + 12 + n])
            pos += 16 + n
            for value in event.summary.value:
                body = _field10(value.SerializeToString())  # TensorBoard's Summary.Value keeps it as unknown
                if body is not None:
                    found.append((value.tag, LossLandscape.FromString(body)))
    return found


def _field10(body):
    """The bytes of field 10 (MindSpore's ``loss_landscape``) in a serialized Summary.Value, or None."""
    pos = 0
    while pos < len(body):
        key, pos = _varint(body, pos)
        if key & 7 != 2:  # a scalar value (TensorBoard's simple_value): not a landscape
            return None
        length, pos = _varint(body, pos)
        if key == (10 << 3 | 2):
            return body[pos:pos + length]
        pos += length
    return None


def _varint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _arrays(point):
    return [np.asarray(t.float_data, np.float32).reshape(tuple(t.dims)) for t in (point.x, point.y, point.z)]


def test_landscape_bytes_as_mindspore_writes_them():
    # Each recorded LossLandscape, rebuilt from its arrays (in the dtypes MindSpore uses) by SummaryLandscape's
    # message writer, serializes to exactly the bytes real MindSpore wrote.
    outs = FLOW.outputs
    for k, (tag, decomposition, unit, step_per_epoch, intervals, _) in enumerate(FLOW.meta["tags"]):
        raw, x, y, z, px, py, pz, cx, cy, cz = outs[10 * k:10 * k + 10]
        grid = Points(*np.meshgrid(x.astype(np.float64), y.astype(np.float64)), z.astype(np.float64))
        if decomposition == "PCA":
            path = Points(px, py, pz.astype(np.float64))
            convergence = Points(np.array([0]), np.array([0]), cz.astype(np.float64))
        else:
            path, convergence = None, Points(cx.astype(np.float64), cy.astype(np.float64), cz.astype(np.float64))
        msg = SummaryLandscape._message((grid, path, convergence), decomposition,
                                        {"unit": unit, "step_per_epoch": step_per_epoch}, intervals)
        assert msg.SerializeToString() == raw.tobytes(), tag


def test_collector_and_landscapes_match_mindspore(tmp_path):
    _train(tmp_path)
    files = FLOW.meta["ckpt_files"]
    assert sorted(os.listdir(tmp_path / "ckpt_dir")) == sorted(list(files.values()) + ["train_metadata.json"])
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    paths = meta.pop("model_params_file_map")
    assert meta == FLOW.meta["metadata"]
    assert {k: os.path.basename(v) for k, v in paths.items()} == files
    for step in files:
        for pname, param in ms.load_checkpoint(paths[step]).items():
            np.testing.assert_allclose(param.asnumpy(), FLOW.inputs[f"ckpt/{step}/{pname}"], rtol=1e-5, atol=1e-6)

    np.random.seed(FLOW.meta["seed"])  # the random directions come from NumPy's global generator, as MindSpore's
    landscape = SummaryLandscape(str(tmp_path))
    landscape.gen_landscapes_with_multi_process(_callback_fn, device_ids=[0])
    found = _landscapes(tmp_path)
    assert [t for t, _ in found] == [t[0] for t in FLOW.meta["tags"]]
    for k, ((tag, msg), want) in enumerate(zip(found, FLOW.meta["tags"])):
        assert [msg.metadata.decomposition, msg.metadata.unit, msg.metadata.step_per_epoch,
                list(msg.loss_path.intervals)] == want[1:5]
        assert [t.data_type for t in (msg.landscape.x, msg.landscape.y, msg.landscape.z)] == want[5]
        path = _arrays(msg.loss_path.points) if msg.HasField("loss_path") else [np.zeros(0, np.float32)] * 3
        got = _arrays(msg.landscape) + path + _arrays(msg.convergence_point)
        for g, w in zip(got, FLOW.outputs[10 * k + 1:10 * k + 10]):
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6, err_msg=tag)
    landscape.clean_ckpt()
    assert not os.path.exists(tmp_path / "ckpt_dir")


def test_default_collects_steps_1_to_19_and_needs_every_checkpoint(tmp_path):
    case = CASES["collector/default"]
    _train(tmp_path, "default", net=nn.Dense(4, 2), epochs=1, batch=2)
    assert sorted(os.listdir(tmp_path / "ckpt_dir")) == case.meta["files"]
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    meta.pop("model_params_file_map")
    assert meta == case.meta["metadata"]
    with pytest.raises(ValueError, match="5th checkpoint"):  # only steps 1-4 ran
        SummaryLandscape(str(tmp_path)).gen_landscapes_with_multi_process(_callback_fn, device_ids=[0])


def test_unit_epoch_in_sink_mode(tmp_path):
    case = CASES["collector/epoch_sink"]
    _train(tmp_path, case.meta["landscape"], net=nn.Dense(4, 2), epochs=2, batch=2, sink=True)
    assert sorted(os.listdir(tmp_path / "ckpt_dir")) == case.meta["files"]
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    meta.pop("model_params_file_map")
    assert meta == case.meta["metadata"]


@pytest.mark.parametrize("case_id", [c for c in CASES if c.startswith("errors/collector/")])
def test_collect_landscape_argument_errors(tmp_path, case_id):
    case = CASES[case_id]
    error = {"TypeError": TypeError, "ValueError": ValueError}[case.error]
    with pytest.raises(error):
        ms.SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": case.meta["value"]})


def test_no_landscape_when_switched_off(tmp_path):
    _train(tmp_path, None, net=nn.Dense(4, 2), epochs=1)
    assert not os.path.exists(tmp_path / "ckpt_dir")


def test_overrides_output_and_errors(tmp_path):
    landscape = SummaryLandscape(str(tmp_path))
    with pytest.raises(FileNotFoundError):
        landscape.gen_landscapes_with_multi_process(_callback_fn, device_ids=[0])
    with pytest.raises(ValueError, match="device_ids"):
        landscape.gen_landscapes_with_multi_process(_callback_fn, device_ids=[8])
    with pytest.raises(TypeError):
        landscape.gen_landscapes_with_multi_process(_callback_fn, device_ids=(0,))
    _train(tmp_path, dict(LANDSCAPE, landscape_size=4))
    with pytest.raises(ValueError, match="create_landscape"):  # both keys are needed here
        landscape.gen_landscapes_with_multi_process(_callback_fn, {"create_landscape": {"train": True}})
    out = tmp_path / "out"
    np.random.seed(0)
    landscape.gen_landscapes_with_multi_process(
        lambda: dict(zip(("model", "network", "dataset", "metrics"), _callback_fn())),
        collect_landscape={"landscape_size": 3, "create_landscape": {"train": False, "result": True}},
        output=str(out))
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    assert meta["landscape_size"] == 3 and meta["create_landscape"] == {"train": False, "result": True}
    (tag, msg), = _landscapes(out)
    assert tag == "landscape_[5]" and msg.metadata.decomposition == "Random"
    x, y, z = _arrays(msg.landscape)
    np.testing.assert_allclose(x, [-1, 0, 1])
    assert z.shape == (3, 3) and np.all(np.isfinite(z))
    # the centre of the random landscape is the final checkpoint itself
    np.testing.assert_allclose(_arrays(msg.convergence_point)[2], z[1, 1:2])


@pytest.mark.parametrize("case_id", [c for c in CASES if c.startswith("pca/")])
def test_pca_directions_as_mindspore(case_id):
    # 600 features takes MindSpore's randomized-SVD path; with few checkpoints it equals the exact SVD used here
    case = CASES[case_id]
    got = pca_directions(case.inputs["trajectory"])
    np.testing.assert_allclose(got, case.outputs[0], rtol=1e-9, atol=1e-11)
    assert np.all(got[np.argmax(np.abs(got), axis=0), [0, 1]] > 0)
