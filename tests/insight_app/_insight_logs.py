"""Log directories written the way users write them (tensorboardX), with the values kept for checking."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np

FIXTURE_SUMMARY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "fixtures", "mindspore", "lenet5", "summary")
CELL_TREE = {"name": "LeNet5", "type": "LeNet5", "params": [], "children": [
    {"name": "conv1", "type": "Conv2d", "params": [["weight", [6, 1, 5, 5], "Float32"]], "children": []},
    {"name": "fc1", "type": "Dense", "params": [["weight", [120, 400], "Float32"], ["bias", [120], "Float32"]],
     "children": []},
]}
GRAPH_NODES = [  # name, op, inputs, output shape
    ("input", "Placeholder", [], [8, 1, 32, 32]),
    ("conv1/weight", "VariableV2", [], [6, 1, 5, 5]),
    ("conv1/Conv2D", "Conv2D", ["input", "conv1/weight"], [8, 6, 28, 28]),
    ("conv1/Relu", "Relu", ["conv1/Conv2D"], [8, 6, 28, 28]),
    ("fc1/MatMul", "MatMul", ["conv1/Relu"], [8, 120]),
    ("fc1/BiasAdd", "BiasAdd", ["fc1/MatMul"], [8, 120]),
    ("loss/Mean", "Mean", ["fc1/BiasAdd"], []),
]


def loss_curve(n: int, seed: int) -> np.ndarray:
    """A noisy decaying loss, float32-representable (what add_scalar stores)."""
    rng = np.random.default_rng(seed)
    return (2.3 * np.exp(-np.arange(n) / 40.0) + 0.05 * rng.standard_normal(n)).astype(np.float32)


def graph_def_bytes() -> bytes:
    from tensorboardX.proto import attr_value_pb2, graph_pb2, node_def_pb2, tensor_shape_pb2

    g = graph_pb2.GraphDef()
    for name, op, inputs, shape in GRAPH_NODES:
        shp = tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=d) for d in shape])
        attr = {"_output_shapes": attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(shape=[shp]))}
        g.node.append(node_def_pb2.NodeDef(name=name, op=op, input=inputs, attr=attr))
    return g.SerializeToString()


def pr_data(step: int):
    """Labels and scores of a classifier that gets better with ``step`` (for add_pr_curve)."""
    rng = np.random.default_rng(step)
    labels = rng.random(400) < 0.3
    preds = np.clip(labels * (0.3 + step / 400) + rng.random(400) * 0.6, 0, 1)
    return labels, preds


def png_image(seed: int, h: int = 24, w: int = 32) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((3, h, w), np.float32)
    img[0] = np.linspace(0, 1, w)[None, :]
    img[1] = np.linspace(0, 1, h)[:, None]
    img[2] = rng.random((h, w))
    return img


def write_tbx_logs(root: str, steps: int = 120) -> dict:
    """Two training runs (scalars, histograms, images, text, graph, Cell tree) and two hparams sessions.

    Returns a dict of what was written, for the tests to check against.
    """
    from tensorboardX import SummaryWriter
    from tensorboardX.proto import event_pb2

    truth = {"loss": {}, "acc": {}, "hist_steps": [], "hist_values": {}, "image_steps": [], "hparams": {}}
    for k, run in enumerate(["lr_0.1", "lr_0.01"]):
        loss = loss_curve(steps, seed=k)
        acc = np.clip(1 - loss / 3, 0, 1).astype(np.float32)
        with SummaryWriter(os.path.join(root, run), flush_secs=1) as w:
            fw = w._get_file_writer()
            if k == 0:
                fw.add_event(event_pb2.Event(graph_def=graph_def_bytes(), wall_time=1.7e9))
                w.add_text("network/cell_tree", json.dumps(CELL_TREE), 0)
            for s in range(steps):
                w.add_scalar("train/loss", float(loss[s]), s, walltime=1.7e9 + 10 * k + s)
                if s % 10 == 0:
                    w.add_scalar("eval/acc", float(acc[s]), s, walltime=1.7e9 + 10 * k + s)
                if k == 0 and s % 20 == 0:
                    vals = np.random.default_rng(s).normal(s / 40.0, 1.0, 500)
                    w.add_histogram("fc1.weight", vals, s, walltime=1.7e9 + s)
                    truth["hist_steps"].append(s)
                    truth["hist_values"][s] = vals
                if k == 0 and s % 40 == 0:
                    w.add_image("input", png_image(s), s, walltime=1.7e9 + s)
                    truth["image_steps"].append(s)
            w.add_text("notes", "lr <b>not bold</b> & co", 0)
            if k == 0:
                w.add_text("readme", "# Run notes\n\n**bold** and `code`", 0)
                w.add_custom_scalars({"Training": {"loss and acc": ["Multiline", ["train/loss$", "^eval/"]]}})
                for s in (0, 100):
                    labels, preds = pr_data(s)
                    w.add_pr_curve("pr/class0", labels, preds, s, num_thresholds=11)
                truth["pr_steps"] = [0, 100]
        truth["loss"][run] = loss
        truth["acc"][run] = acc[::10]
    with SummaryWriter(os.path.join(root, "sweep")) as w:
        for lr, bs, opt in ((0.1, 32, "sgd"), (0.01, 64, "adam")):
            w.add_hparams({"lr": lr, "batch_size": bs, "optimizer": opt}, {"hparam/accuracy": 1 - lr},
                          name=f"trial_lr{lr}")
            truth["hparams"][f"sweep/trial_lr{lr}"] = {"lr": lr, "batch_size": bs, "optimizer": opt,
                                                       "hparam/accuracy": 1 - lr}
    return truth


def copy_fixture(root: str, name: str = "lenet5_ms") -> str:
    dst = os.path.join(root, name)
    shutil.copytree(FIXTURE_SUMMARY, dst)
    for f in os.listdir(dst):
        os.chmod(os.path.join(dst, f), 0o644)
    return dst
