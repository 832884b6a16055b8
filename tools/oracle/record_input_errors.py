"""Record what real MindSpore 2.10 (CPU) does with wrong inputs into tests/fixtures/oracle/input_errors.npz.

Run with the oracle interpreter, from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_input_errors.py

Cases: class-index labels out of range for SoftmaxCrossEntropyWithLogits / CrossEntropyLoss / NLLLoss (which
raise, which return, and what), invalid learning rates / momentum / weight decay of the optimizers, a Conv2d
kernel larger than its (padded) input, and NumPy arrays passed to Cells in PYNATIVE and GRAPH mode. An error is
recorded as its type and the first line of its message (meta ``message``).
"""
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
from mindspore import Tensor, nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "input_errors.npz"

LOSSES = {
    "SoftmaxCrossEntropyWithLogits-mean": (nn.SoftmaxCrossEntropyWithLogits, dict(sparse=True, reduction="mean")),
    "SoftmaxCrossEntropyWithLogits-none": (nn.SoftmaxCrossEntropyWithLogits, dict(sparse=True, reduction="none")),
    "SoftmaxCrossEntropyWithLogits-sum": (nn.SoftmaxCrossEntropyWithLogits, dict(sparse=True, reduction="sum")),
    "CrossEntropyLoss": (nn.CrossEntropyLoss, {}),
    "NLLLoss": (nn.NLLLoss, {}),
}
LABELS = {"ok": [1, 2, 9, 0], "eq_classes": [1, 2, 10, 3], "above": [1, 2, 11, 3], "minus1": [1, -1, 2, 3],
          "minus10": [1, -10, 2, 3], "minus11": [1, -11, 2, 3], "ignore": [1, -100, 2, 3]}
OPTIMIZERS = ("Momentum", "SGD", "Adam")
BAD_VALUES = {"nan": float("nan"), "inf": float("inf"), "neg": -0.1, "zero": 0.0}


def _first_line(e):
    return str(e).strip().splitlines()[0]


def _call(writer, case_id, fn, inputs=None, **meta):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - recording what MindSpore raises is the point
        writer.add(case_id, inputs=inputs, error=type(e).__name__, message=_first_line(e), **meta)
        return
    outs = out if isinstance(out, (list, tuple)) else [out]
    writer.add(case_id, inputs=inputs, outputs=outs, **meta)


def _loss_inputs(label_id):
    logits = np.random.default_rng(0).normal(size=(4, 10)).astype(np.float32)
    return logits, np.array(LABELS[label_id], np.int32)


def _loss_child(mode_name, loss_id, label_id, out):
    """One loss case in a process of its own: MindSpore's CPU kernels read out of bounds for some labels and
    can crash the interpreter (NLLLoss with label 11 after other out-of-range calls did)."""
    ms.set_context(mode=ms.GRAPH_MODE if mode_name == "graph" else ms.PYNATIVE_MODE, device_target="CPU")
    cls, kwargs = LOSSES[loss_id]
    logits, y = _loss_inputs(label_id)
    try:
        np.save(out, cls(**kwargs)(Tensor(logits), Tensor(y)).asnumpy())
    except Exception as e:  # noqa: BLE001
        pathlib.Path(out + ".err").write_text(f"{type(e).__name__}\n{_first_line(e)}")


def _losses(writer, mode_name):
    with tempfile.TemporaryDirectory() as tmp:
        for loss_id, (cls, kwargs) in LOSSES.items():
            for label_id in LABELS:
                logits, y = _loss_inputs(label_id)
                out = os.path.join(tmp, f"{mode_name}-{loss_id}-{label_id}.npy")
                proc = subprocess.run([sys.executable, __file__, "--loss", mode_name, loss_id, label_id, out],
                                      capture_output=True, text=True, timeout=600)
                case_id, meta = f"loss/{mode_name}/{loss_id}/{label_id}", dict(cls=cls.__name__, kwargs=kwargs)
                inputs = {"logits": logits, "labels": y}
                if proc.returncode < 0:
                    writer.add(case_id, inputs=inputs, error="crash", message=f"signal {-proc.returncode}", **meta)
                elif os.path.exists(out + ".err"):
                    error, message = pathlib.Path(out + ".err").read_text().split("\n", 1)
                    writer.add(case_id, inputs=inputs, error=error, message=message, **meta)
                else:
                    writer.add(case_id, inputs=inputs, outputs=[np.load(out)], **meta)


def _optimizers(writer):
    net = nn.Dense(3, 2)
    for name in OPTIMIZERS:
        cls = getattr(nn, name)
        extra = {"momentum": 0.9} if name == "Momentum" else {}
        for value_id, value in BAD_VALUES.items():
            _call(writer, f"optim/{name}/learning_rate/{value_id}",
                  lambda cls=cls, v=value, extra=extra: cls(net.trainable_params(), learning_rate=v, **extra)
                  and np.zeros(0), cls=name, value=value_id)
            _call(writer, f"optim/{name}/weight_decay/{value_id}",
                  lambda cls=cls, v=value, extra=extra: cls(net.trainable_params(), learning_rate=0.1,
                                                            weight_decay=v, **extra) and np.zeros(0),
                  cls=name, value=value_id)
    for value_id, value in dict(BAD_VALUES, big=1.5).items():
        _call(writer, f"optim/Momentum/momentum/{value_id}",
              lambda v=value: nn.Momentum(net.trainable_params(), 0.1, momentum=v) and np.zeros(0),
              cls="Momentum", value=value_id)


def _convs(writer, mode_name):
    for case_id, kwargs, hw in (("valid_k5_3x3", dict(pad_mode="valid"), 3), ("same_k5_3x3", {}, 3),
                                ("pad1_k5_2x2", dict(pad_mode="pad", padding=1), 2),
                                ("valid_k5_5x5", dict(pad_mode="valid"), 5)):
        x = np.ones((1, 1, hw, hw), np.float32)
        _call(writer, f"conv/{mode_name}/{case_id}",
              lambda kwargs=kwargs, x=x: np.asarray(nn.Conv2d(1, 2, 5, **kwargs)(Tensor(x)).shape, np.int64),
              inputs={"x": x}, kwargs=kwargs)


class Twice(nn.Cell):
    def construct(self, x):
        return x * 2


def _numpy_inputs(writer, mode_name):
    x = np.ones((2, 3), np.float32)
    for cell_id, make in (("Dense", lambda: nn.Dense(3, 2)), ("ReLU", nn.ReLU), ("Twice", Twice)):
        def run(make=make):
            out = make()(x)
            return [np.asarray(out if isinstance(out, np.ndarray) else out.asnumpy()),
                    np.asarray(type(out).__name__)]
        _call(writer, f"numpy_input/{mode_name}/{cell_id}", run, inputs={"x": x})


def main():
    os.chdir(tempfile.mkdtemp())  # MindSpore writes rank_0/om/analyze_fail.ir into the working directory
    with FixtureWriter(OUT) as writer:
        for mode, mode_name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
            ms.set_context(mode=mode, device_target="CPU")
            _losses(writer, mode_name)
            _convs(writer, mode_name)
            _numpy_inputs(writer, mode_name)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        _optimizers(writer)
    print("wrote", OUT)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--loss"]:
        _loss_child(*sys.argv[2:6])
    else:
        main()
