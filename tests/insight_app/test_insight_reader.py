"""Reading logs written by tensorboardX and the real MindSpore LeNet5 summary; live and damaged files."""

from __future__ import annotations

import io
import os
import shutil
import struct

import numpy as np
import pytest
from _insight_logs import CELL_TREE, FIXTURE_SUMMARY, GRAPH_NODES, png_image
from PIL import Image

from insight_app import LogStore, frame, scan_frames
from insight_app._graph import build_model
from insight_app._reader import read_image_bytes


def _run(store, name):
    (run,) = [r for r in store.runs.values() if r.name == name]
    return run


@pytest.fixture(scope="module")
def store(tbx_logs):
    return LogStore(tbx_logs[0])


def test_runs_are_named_by_relative_path(store):
    assert sorted(r.name for r in store.runs.values()) == [
        "lenet5_ms", "lr_0.01", "lr_0.1", "sweep", "sweep/trial_lr0.01", "sweep/trial_lr0.1"]
    assert sorted(store.runs) == [f"r{i}" for i in range(6)]
    assert store.problems() == []


def test_scalars_match_what_tensorboardx_wrote(store, tbx_logs):
    truth = tbx_logs[1]
    for k, name in enumerate(["lr_0.1", "lr_0.01"]):
        run = _run(store, name)
        step, wall, value = run.scalars["train/loss"].arrays()
        np.testing.assert_array_equal(step, np.arange(120))
        np.testing.assert_array_equal(value, truth["loss"][name].astype(np.float64))
        np.testing.assert_allclose(wall, 1.7e9 + 10 * k + np.arange(120))
        step, _, value = run.scalars["eval/acc"].arrays()
        np.testing.assert_array_equal(step, np.arange(0, 120, 10))
        np.testing.assert_array_equal(value, truth["acc"][name].astype(np.float64))


def test_scalars_agree_with_tensorboards_own_loader(store, tbx_logs):
    ea_mod = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator",
                                 reason="tensorboard is not installed (optional cross-check)")
    ea = ea_mod.EventAccumulator(os.path.join(tbx_logs[0], "lr_0.1"), size_guidance={"scalars": 0})
    ea.Reload()
    events = ea.Scalars("train/loss")
    _, _, value = _run(store, "lr_0.1").scalars["train/loss"].arrays()
    np.testing.assert_array_equal(value, np.array([e.value for e in events]))


def test_histograms_match_numpy(store, tbx_logs):
    truth = tbx_logs[1]
    hists = _run(store, "lr_0.1").histograms["fc1.weight"]
    assert [h.step for h in hists] == truth["hist_steps"]
    for h in hists:
        vals = truth["hist_values"][h.step]
        # Buckets are contiguous from min to max and hold every value; re-counting the values with numpy
        # on those edges gives the same counts.
        assert h.counts.sum() == vals.size == h.total
        np.testing.assert_allclose(h.left[1:], h.right[:-1])
        assert h.left[0] == pytest.approx(vals.min()) and h.right[-1] == pytest.approx(vals.max())
        inner = h.right[:-1]
        expect = np.histogram(vals, bins=np.concatenate([[vals.min()], inner, [vals.max()]]))[0]
        np.testing.assert_array_equal(h.counts, expect)


def test_images_decode_to_the_written_pixels(store, tbx_logs):
    refs = _run(store, "lr_0.1").images["input"]
    assert [r.step for r in refs] == tbx_logs[1]["image_steps"]
    for ref in refs:
        img = np.asarray(Image.open(io.BytesIO(read_image_bytes(ref, 1 << 20))))
        expect = (png_image(ref.step).transpose(1, 2, 0) * 255).astype(np.uint8)
        assert img.shape == (24, 32, 3) and (ref.height, ref.width) == (24, 32)
        assert np.abs(img.astype(int) - expect.astype(int)).max() <= 1


def test_image_size_cap(store):
    ref = _run(store, "lr_0.1").images["input"][0]
    with pytest.raises(ValueError, match="limit"):
        read_image_bytes(ref, 100)


def test_text_hparams_graph_and_cell_tree(store):
    run = _run(store, "lr_0.1")
    assert run.texts["notes/text_summary"][0].text == "lr <b>not bold</b> & co"
    assert run.cell_tree == CELL_TREE
    model = build_model(run.graph)
    assert {n: (g.op, g.inputs, g.shape) for n, g in model.nodes.items()} == {
        name: (op, inputs, "[" + ", ".join(map(str, shape)) + "]") for name, op, inputs, shape in GRAPH_NODES}
    assert model.scopes() == {"conv1": 3, "fc1": 2, "loss": 1}
    for lr, bs, opt in ((0.1, 32, "sgd"), (0.01, 64, "adam")):
        trial = _run(store, f"sweep/trial_lr{lr}")
        assert trial.hparams == {"lr": lr, "batch_size": bs, "optimizer": opt}
        assert trial.hparam_metrics == {"hparam/accuracy"}
        assert trial.scalars["hparam/accuracy"].arrays()[2][-1] == pytest.approx(1 - lr, rel=1e-6)


# ---- the real MindSpore 2.10 summary (fixtures/lenet5/summary) ----

def _fields(buf):
    """A second, independent protobuf wire walker (no schema) for cross-checking the MindSpore decode."""
    i, out = 0, []
    while i < len(buf):
        key, i = _varint(buf, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = _varint(buf, i)
        elif w == 1:
            v, i = buf[i:i + 8], i + 8
        elif w == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            n, i = _varint(buf, i)
            v, i = buf[i:i + n], i + n
        out.append((f, v))
    return out


def _varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def test_mindspore_summary_scalars(store):
    run = _run(store, "lenet5_ms")
    data = open(os.path.join(FIXTURE_SUMMARY, [f for f in os.listdir(FIXTURE_SUMMARY) if f.endswith("_MS")][0]),
                "rb").read()
    expect = []
    scan = scan_frames(data)
    for s, n in zip(scan.starts.tolist(), scan.lengths.tolist()):
        ev = dict(_fields(data[s:s + n]))
        if 5 in ev:
            for _f, v in _fields(ev[5]):
                val = dict(_fields(v))
                if 3 in val:
                    expect.append((ev[2], struct.unpack("<f", val[3])[0]))
    step, wall, value = run.scalars["loss/auto"].arrays()
    assert list(zip(step.tolist(), value.tolist())) == expect
    assert step.tolist() == [1, 2, 3, 4, 4] and np.all(wall > 1.7e9)
    # MindSpore's lineage records the final loss separately; it is the last loss/auto point.
    assert run.lineage_metrics["loss"] == pytest.approx(value[-1], rel=1e-6)


def test_mindspore_summary_histograms_images_graph(store):
    run = _run(store, "lenet5_ms")
    model = build_model(run.graph)
    shapes = {name: dims for name, dims, _ in model.params}
    assert shapes["conv1.weight"] == [6, 1, 5, 5] and shapes["fc1.weight"] == [120, 400]
    assert sum(1 for n in model.nodes.values() if n.op != "Parameter") == 76
    assert any(n.op == "Conv2D" and n.name.endswith("conv1-Conv2d/Conv2D-op0") for n in model.nodes.values())
    assert sorted(run.histograms) == [f"fc{i}.{p}/auto" for i in (1, 2, 3) for p in ("bias", "weight")]
    for tag, hists in run.histograms.items():
        size = int(np.prod(shapes[tag.split("/")[0]]))
        assert [h.step for h in hists] == [1, 2, 3, 4, 4]
        for h in hists:  # every value of the parameter is counted once
            assert h.counts.sum() == h.total == size
            np.testing.assert_allclose(h.left[1:], h.right[:-1], rtol=1e-6, atol=1e-9)
    refs = run.images["input_data/auto"]
    assert [r.step for r in refs] == [1, 2, 3, 4, 4]
    img = Image.open(io.BytesIO(read_image_bytes(refs[0], 1 << 20)))
    assert img.size == (refs[0].width, refs[0].height) == (256, 32)


def test_mindspore_lineage(store):
    run = _run(store, "lenet5_ms")
    assert run.lineage["optimizer"] == "Momentum"
    assert run.lineage["learning_rate"] == 0.01
    assert run.lineage["batch_size"] == 8 and run.lineage["epoch"] == 1
    assert run.lineage["loss_function"] == "SoftmaxCrossEntropyWithLogits"
    assert run.lineage["network"] == "LeNet5" and run.lineage["train_dataset_size"] == 32
    assert run.lineage["dataset_pipeline"] == "Batch(batch_size=8) <- GeneratorDataset()"


# ---- damaged and growing files (each on a file written by tensorboardX) ----

def _one_run(tmp_path, tbx_logs, name="lr_0.1"):
    dst = tmp_path / "logs" / "run"
    shutil.copytree(os.path.join(tbx_logs[0], name), dst)
    (path,) = list(dst.iterdir())
    return tmp_path / "logs", path


def _records(path):
    data = path.read_bytes()
    scan = scan_frames(data)
    return data, [(s - 12, n + 16) for s, n in zip(scan.starts.tolist(), scan.lengths.tolist())]


def _loss(store):
    (run,) = store.runs.values()
    return run.scalars["train/loss"].arrays()[2] if "train/loss" in run.scalars else np.zeros(0)


def test_truncated_final_record(tmp_path, tbx_logs):
    root, path = _one_run(tmp_path, tbx_logs)
    data, recs = _records(path)
    off, ln = recs[-1]
    path.write_bytes(data[:off + ln - 5])  # the writer died mid-record
    store = LogStore(str(root))
    (run,) = store.runs.values()
    assert store.problems() == [] and run.files[str(path)].pending == ln - 5
    full = LogStore(os.path.join(tbx_logs[0], "lr_0.1"))
    (ref,) = full.runs.values()
    expect = {t: len(s) for t, s in ref.scalars.items()}
    got = {t: len(s) for t, s in run.scalars.items()}
    assert sum(expect.values()) - sum(got.values()) <= 1
    with open(path, "ab") as f:  # the rest arrives: read exactly once
        f.write(data[off + ln - 5:])
    store.refresh(force=True)
    assert {t: len(s) for t, s in run.scalars.items()} == expect and store.problems() == []


def test_corrupt_record_mid_file(tmp_path, tbx_logs):
    root, path = _one_run(tmp_path, tbx_logs)
    data, recs = _records(path)
    buf = bytearray(data)
    # Damage one train/loss record: its value is then missing, everything else is read.
    bad = [(o, n) for o, n in recs if b"train/loss" in data[o:o + n]][60]
    buf[bad[0] + bad[1] - 6] ^= 0xFF
    path.write_bytes(bytes(buf))
    store = LogStore(str(root))
    loss = _loss(store)
    full = _loss(LogStore(os.path.join(tbx_logs[0], "lr_0.1")))
    assert loss.size == full.size - 1
    np.testing.assert_array_equal(loss, np.delete(full, 60))
    (problem,) = store.problems()
    assert "data CRC mismatch" in problem and f"byte {bad[0]}" in problem


def test_corrupt_length_mid_file(tmp_path, tbx_logs):
    root, path = _one_run(tmp_path, tbx_logs)
    data, recs = _records(path)
    buf = bytearray(data)
    bad = [(o, n) for o, n in recs if b"train/loss" in data[o:o + n]][30]
    buf[bad[0] + 1] ^= 0x10  # the length field: the scan must find the next record by itself
    path.write_bytes(bytes(buf))
    store = LogStore(str(root))
    np.testing.assert_array_equal(_loss(store), np.delete(_loss(LogStore(os.path.join(tbx_logs[0], "lr_0.1"))), 30))
    (problem,) = store.problems()
    assert "length CRC" in problem


def test_empty_file(tmp_path):
    run_dir = tmp_path / "logs" / "empty"
    run_dir.mkdir(parents=True)
    (run_dir / "events.out.tfevents.0.host").write_bytes(b"")
    store = LogStore(str(tmp_path / "logs"))
    (run,) = store.runs.values()
    assert run.name == "empty" and not run.scalars and store.problems() == []
    assert store.refresh(force=True) == store.generation


def test_file_being_appended_to(tmp_path, tbx_logs):
    root, path = _one_run(tmp_path, tbx_logs)
    data = path.read_bytes()
    path.write_bytes(b"")
    store = LogStore(str(root))
    rng = np.random.default_rng(0)
    cuts = sorted(set(rng.integers(1, len(data), 40).tolist()) | {3, 12, 13, len(data)})
    done = 0
    gens = []
    for cut in cuts:  # chunks end anywhere: inside headers, data, footers
        with open(path, "ab") as f:
            f.write(data[done:cut])
        done = cut
        gens.append(store.refresh(force=True))
    full = LogStore(os.path.join(tbx_logs[0], "lr_0.1"))
    (ref,) = full.runs.values()
    (run,) = store.runs.values()
    for tag in ref.scalars:
        for a, b in zip(run.scalars[tag].arrays(), ref.scalars[tag].arrays()):
            np.testing.assert_array_equal(a, b)
    assert [h.step for h in run.histograms["fc1.weight"]] == [h.step for h in ref.histograms["fc1.weight"]]
    assert store.problems() == [] and gens == sorted(gens) and gens[-1] > gens[0]


def test_replaced_file_is_read_again(tmp_path, tbx_logs):
    root, path = _one_run(tmp_path, tbx_logs)
    store = LogStore(str(root))
    n = _loss(store).size
    data, recs = _records(path)
    path.write_bytes(data[:recs[5][0]])  # rewritten shorter (rsync without --inplace, a restart)
    store.refresh(force=True)
    assert _loss(store).size < n
    assert any("shrank" in p for p in store.problems())


def test_mixed_record_kinds_keep_order(tmp_path):
    # Scalar records of one tag interleaved with slow-path records (two values per event): the series
    # must come out in file order, whichever decoder handled each record.
    from tensorboardX.proto import event_pb2, summary_pb2

    recs = []
    expect = []
    for i in range(200):
        if i % 3 == 0:
            vals = [summary_pb2.Summary.Value(tag="x", simple_value=float(i)),
                    summary_pb2.Summary.Value(tag="y", simple_value=-float(i))]
        else:
            vals = [summary_pb2.Summary.Value(tag="x", simple_value=float(i))]
        expect.append(float(i))
        ev = event_pb2.Event(wall_time=1.0 + i, step=i, summary=summary_pb2.Summary(value=vals))
        recs.append(frame(ev.SerializeToString()))
    d = tmp_path / "run"
    d.mkdir()
    (d / "events.out.tfevents.1.h").write_bytes(b"".join(recs))
    store = LogStore(str(tmp_path))
    (run,) = store.runs.values()
    step, _, value = run.scalars["x"].arrays()
    assert value.tolist() == expect and step.tolist() == list(range(200))
    assert run.scalars["y"].arrays()[2].tolist() == [-float(i) for i in range(0, 200, 3)]


def _hand_varint(n):
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _hand_field(number, payload):
    """A length-delimited protobuf field, encoded by hand (independent of insight_app's schema)."""
    return _hand_varint(number << 3 | 2) + _hand_varint(len(payload)) + payload


def test_mindspore_lineage_eval_and_user_defined_info(tmp_path):
    # LineageEvent (MindInsight's lineage.proto): wall_time=1, evaluation_lineage=7 {metric=2 (JSON),
    # valid_dataset=3 {valid_dataset_size=2}}, user_defined_info=10 {map_str=4, map_double=5}.
    wall = b"\x09" + struct.pack("<d", 1.8e9)
    ev = _hand_field(2, b'{"Accuracy": 0.9375, "Loss": 0.21}') + _hand_field(3, b"\x10\x40")
    user = (_hand_field(4, _hand_field(1, b"schedule") + _hand_field(2, b"cosine"))
            + _hand_field(5, _hand_field(1, b"dropout") + b"\x11" + struct.pack("<d", 0.25)))
    run = tmp_path / "ms_run"
    run.mkdir()
    (run / "events.out.events.summary.1.0.host_lineage").write_bytes(
        frame(wall + _hand_field(7, ev)) + frame(wall + _hand_field(10, user)))
    store = LogStore(str(tmp_path))
    (r,) = store.runs.values()
    assert r.lineage_metrics == {"eval/Accuracy": 0.9375, "eval/Loss": 0.21}
    assert r.lineage == {"valid_dataset_size": 64, "user/schedule": "cosine", "user/dropout": 0.25}
    assert store.problems() == []
