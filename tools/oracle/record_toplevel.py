"""Record real MindSpore's top-level names: the BLEU / cosine / surface-distance metrics on generated inputs,
``frombuffer``, ``get_py_obj_dtype``, ``Generator`` states and ``ckpt_to_safetensors`` output bytes (run with the
MindSpore 2.10 interpreter).

    python tools/oracle/record_toplevel.py   ->  tests/fixtures/oracle/toplevel.npz
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import train  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(7)
WORDS = ["a", "the", "cat", "dog", "sat", "on", "mat", "is", "red"]


def sentence(n):
    return [WORDS[i] for i in rng.integers(0, len(WORDS), n)]


def blob(x, radius, shape=(12, 12)):
    yy, xx = np.mgrid[:shape[0], :shape[1]]
    return ((yy - x[0]) ** 2 + (xx - x[1]) ** 2 <= radius ** 2).astype(np.int64)


with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "toplevel.npz") as w:
    # BleuScore: token corpora are stored as JSON in the meta, scores as outputs.
    for i, kwargs in enumerate([{}, {"n_gram": 2}, {"smooth": True}, {"n_gram": 3, "smooth": True}]):
        cands = [sentence(int(rng.integers(4, 9))) for _ in range(3)]
        refs = [[sentence(int(rng.integers(4, 9))) for _ in range(2)] + [list(c[:-1])] for c in cands]
        m = train.BleuScore(**kwargs)
        m.update(cands, refs)
        w.add(f"BleuScore/{i}", inputs={}, outputs=[np.asarray(m.eval(), np.float64)], name="BleuScore",
              kwargs=kwargs, candidates=cands, references=refs)
    x = rng.standard_normal((4, 5))
    for sim in ("cosine", "dot"):
        for red in ("none", "sum", "mean"):
            for zd in (True, False):
                kwargs = {"similarity": sim, "reduction": red, "zero_diagonal": zd}
                m = train.CosineSimilarity(**kwargs)
                m.update(x)
                w.add(f"CosineSimilarity/{sim}_{red}_{zd}", inputs={"x": x}, outputs=[m.eval()],
                      name="CosineSimilarity", kwargs=kwargs)
    pairs = {"overlap": (blob((5, 5), 3) * 2, blob((6, 7), 3) * 2),
             "shifted": (blob((3, 3), 2), blob((8, 8), 3)),
             "empty_pred": (np.zeros((12, 12), np.int64), blob((6, 6), 3))}
    surface = [("HausdorffDistance", {}), ("HausdorffDistance", {"distance_metric": "chessboard"}),
               ("HausdorffDistance", {"percentile": 50.0}), ("HausdorffDistance", {"directed": True}),
               ("HausdorffDistance", {"crop": False, "distance_metric": "taxicab"}),
               ("MeanSurfaceDistance", {}), ("MeanSurfaceDistance", {"symmetric": True}),
               ("MeanSurfaceDistance", {"distance_metric": "taxicab"}),
               ("RootMeanSquareDistance", {}), ("RootMeanSquareDistance", {"symmetric": True, "distance_metric":
                                                                           "chessboard"})]
    for pname, (pred, true) in pairs.items():
        label = int(true.max())
        for j, (cls, kwargs) in enumerate(surface):
            m = getattr(train, cls)(**kwargs)
            m.update(pred, true, label)
            w.add(f"{cls}/{pname}_{j}", inputs={"y_pred": pred, "y": true}, outputs=[np.asarray(m.eval(),
                                                                                                np.float64)],
                  name=cls, kwargs=kwargs, label=label)
    # ConfusionMatrixMetric: one-hot (batch, class, H, W) predictions and labels, two updates per case
    def onehot(b, c, hw):
        return np.eye(c, dtype=np.int64)[rng.integers(0, c, (b,) + hw)].transpose(0, 3, 1, 2)
    batches = [(onehot(2, 3, (4, 4)), onehot(2, 3, (4, 4))) for _ in range(2)]
    cm_cases = [{"metric_name": n} for n in ("sensitivity", "specificity", "precision", "npv", "miss rate", "fpr",
                                             "fdr", "for", "pt", "ts", "accuracy", "ba", "f1 score", "mcc", "fm",
                                             "bm", "mk")]
    cm_cases += [{"metric_name": "f1", "calculation_method": True}, {"metric_name": "tpr", "calculation_method": True,
                                                                   "decrease": "sum"},
                 {"metric_name": "precision", "calculation_method": True, "skip_channel": False},
                 {"metric_name": "accuracy", "skip_channel": False}]
    for j, kwargs in enumerate(cm_cases):
        m = train.ConfusionMatrixMetric(**kwargs)
        for yp, yt in batches:
            m.update(yp, yt)
        w.add(f"ConfusionMatrixMetric/{j}", inputs={"p0": batches[0][0], "y0": batches[0][1], "p1": batches[1][0],
                                                     "y1": batches[1][1]},
              outputs=[np.asarray(m.eval(), np.float64)], name="ConfusionMatrixMetric", kwargs=kwargs)
    # OcclusionSensitivity: Flatten + Dense(12, 3) with recorded weights, one (1, 3, 2, 2) input
    net = ms.nn.SequentialCell([ms.nn.Flatten(), ms.nn.Dense(12, 3)])
    weight, bias = rng.standard_normal((3, 12)).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    net[1].weight.set_data(ms.Tensor(weight))
    net[1].bias.set_data(ms.Tensor(bias))
    image = rng.standard_normal((1, 3, 2, 2)).astype(np.float32)
    for j, kwargs in enumerate([{}, {"margin": 1, "n_batch": 5}, {"pad_val": 1.5, "b_box": [0, 1, 0, -1, 1, 1]}]):
        m = train.OcclusionSensitivity(**kwargs)
        m.update(net, image, np.array(2))
        w.add(f"OcclusionSensitivity/{j}", inputs={"image": image, "weight": weight, "bias": bias},
              outputs=[np.asarray(m.eval(), np.float64)], name="OcclusionSensitivity", kwargs=kwargs, label=2)
    # frombuffer, get_py_obj_dtype, Generator state bytes
    buf = np.arange(6, dtype=np.float32).tobytes()
    w.add("frombuffer/f32", inputs={"buf": np.frombuffer(buf, np.uint8)}, outputs=[ms.frombuffer(buf, ms.float32)],
          name="frombuffer")
    objs = {"int": 1, "float": 1.0, "bool": True, "none": None, "list": [1], "tuple": (1,), "str": "a"}
    w.add("get_py_obj_dtype", inputs={}, outputs=[], name="get_py_obj_dtype",
          strs={k: str(ms.get_py_obj_dtype(v)) for k, v in objs.items()},
          tensor=str(ms.get_py_obj_dtype(ms.Tensor([1], ms.float32))))
    g = ms.Generator()
    g.manual_seed(300)
    w.add("Generator/state", inputs={}, outputs=[g.get_state().asnumpy()], name="Generator")
    # ckpt_to_safetensors: the bytes real MindSpore writes for a known checkpoint
    with tempfile.TemporaryDirectory() as d:
        params = {"w": ms.Tensor(rng.standard_normal((2, 3)).astype(np.float32)),
                  "b": ms.Tensor(np.arange(3, dtype=np.int32)), "h": ms.Tensor(np.ones((2,), np.float16))}
        ckpt = os.path.join(d, "net.ckpt")
        ms.save_checkpoint([{"name": k, "data": v} for k, v in params.items()], ckpt)
        ms.ckpt_to_safetensors(ckpt)
        with open(ckpt, "rb") as f:
            ckpt_bytes = np.frombuffer(f.read(), np.uint8)
        with open(os.path.join(d, "net.safetensors"), "rb") as f:
            st_bytes = np.frombuffer(f.read(), np.uint8)
        w.add("ckpt_to_safetensors", inputs={"ckpt": ckpt_bytes}, outputs=[st_bytes], name="ckpt_to_safetensors")
