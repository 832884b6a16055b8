"""Decode the records of one chunk of an event file into a run's containers.

Single-scalar events go through the vectorised fast path (``_fastscalar``); every other record is
decoded with protobuf: tensorboardX's bundled ``event_pb2`` for TensorBoard files, the classes of
``_msproto`` for MindSpore summary and lineage files.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
from tensorboardX.proto import event_pb2, graph_pb2, layout_pb2, plugin_hparams_pb2

from . import _msproto
from ._fastscalar import decode_scalars
from ._series import ImageRef, PRCurve, Text, ms_histogram, tb_histogram

if TYPE_CHECKING:
    from ._reader import RunData

# TensorFlow DataType -> numpy dtype, for tensor_content.
_TF_DTYPES = {1: "<f4", 2: "<f8", 3: "<i4", 9: "<i8", 19: "<f2", 4: "u1", 10: "?"}
CELL_TREE_TAGS = ("network/cell_tree", "network/cell_tree/text_summary")
# A lineage metric is a flat {"name": value} JSON; more brackets than this is not a metric (and deep
# nesting would make json.loads raise RecursionError).
MAX_JSON_BRACKETS = 1000


def _tb_tensor_values(t) -> np.ndarray:
    """Numeric values of a TensorFlow TensorProto as float64 (empty for strings)."""
    if t.tensor_content and t.dtype in _TF_DTYPES:
        return np.frombuffer(t.tensor_content, _TF_DTYPES[t.dtype]).astype(np.float64)
    for name in ("float_val", "double_val", "int_val", "int64_val"):
        vals = getattr(t, name)
        if len(vals):
            return np.asarray(vals, np.float64)
    if len(t.half_val):
        return np.asarray(t.half_val, np.uint16).view(np.float16).astype(np.float64)
    return np.zeros(0)


def _pb_value(v):
    """A google.protobuf.Value (hparams) as a plain Python value."""
    kind = v.WhichOneof("kind")
    return None if kind in (None, "null_value") else getattr(v, kind)


class _Scalars:
    """Scalar points of a chunk from both decode paths, merged back into record order."""

    def __init__(self) -> None:
        self.slow: dict[str, list] = {}

    def add(self, rec: int, tag: str, step: int, wall: float, value: float) -> None:
        self.slow.setdefault(tag, []).append((rec, step, wall, value))

    def flush(self, run, fast) -> None:
        ok, wall, step, value, tag_ids, tags = fast
        fast_rec = np.flatnonzero(ok)
        names = sorted(set(tags) | set(self.slow))
        fast_parts = {}
        if tags:
            # Distinct byte strings can decode to one str; group by the decoded name.
            where = {t: k for k, t in enumerate(names)}
            canon = np.array([where[t] for t in tags], np.int64)[tag_ids]
            order = np.argsort(canon, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(canon, minlength=len(names)))])
            for k, tag in enumerate(names):
                sel = order[bounds[k]:bounds[k + 1]]
                if sel.size:
                    fast_parts[tag] = (fast_rec[sel], step[sel], wall[sel], value[sel])
        for tag in names:
            parts = [fast_parts[tag]] if tag in fast_parts else []
            if tag in self.slow:
                rs, ss, ws, vs = zip(*self.slow[tag])
                parts.append((np.asarray(rs, np.int64), np.asarray(ss, np.int64), np.asarray(ws, np.float64),
                              np.asarray(vs, np.float64)))
            if len(parts) == 1:
                _, s, w, v = parts[0]
            else:
                r = np.concatenate([p[0] for p in parts])
                order = np.argsort(r, kind="stable")
                s, w, v = (np.concatenate([p[k] for p in parts])[order] for k in (1, 2, 3))
            run.add_scalars(tag, s, w, v)


def decode_events(run: RunData, buf: bytes, a: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fmt: str,
                  path: str, base: int) -> None:
    """Decode summary-event records (fmt "tb" or "ms") into ``run``.

    Args:
        run: the RunData receiving the values.
        buf, a: the chunk as bytes and as a uint8 array; ``starts``/``lengths`` index into it.
        fmt: "tb" (TensorBoard Event) or "ms" (MindSpore Event).
        path, base: the file and the file offset of ``buf[0]``, kept in image references.
    """
    fast = decode_scalars(a, starts, lengths, fmt)
    scalars = _Scalars()
    for rec in np.flatnonzero(~fast[0]).tolist():
        s, n = int(starts[rec]), int(lengths[rec])
        try:
            if fmt == "tb":
                _tb_event(run, scalars, rec, event_pb2.Event.FromString(buf[s:s + n]), path, base + s, n)
            else:
                _ms_event(run, scalars, rec, _msproto.Event.FromString(buf[s:s + n]), path, base + s, n)
        except Exception as exc:  # a record with valid CRCs but undecodable content: report, carry on
            run.problem(path, base + s, f"undecodable {fmt} event ({type(exc).__name__}: {exc})")
    scalars.flush(run, fast)


def _tb_event(run, scalars, rec, e, path, offset, length) -> None:
    step, wall = int(e.step), float(e.wall_time)
    run.saw_wall_time(wall)
    if e.HasField("file_version"):
        run.version = e.file_version
        return
    if e.HasField("graph_def"):
        try:  # parsed here too, so a graph that cannot be shown is listed, not a failing page
            graph_pb2.GraphDef.FromString(e.graph_def)
        except Exception as exc:  # noqa: BLE001 -- any protobuf decode failure
            run.problem(path, offset, f"graph_def is not a TensorFlow GraphDef ({type(exc).__name__}: {exc}); "
                        "graph not shown")
            return
        run.set_graph(e.graph_def, "tb", step)
        return
    if not e.HasField("summary"):
        return
    for i, v in enumerate(e.summary.value):
        tag = v.tag
        plugin = v.metadata.plugin_data.plugin_name if v.HasField("metadata") else ""
        if plugin:
            run.plugin_of[tag] = plugin
        plugin = plugin or run.plugin_of.get(tag, "")
        kind = v.WhichOneof("value")
        if kind == "simple_value":
            scalars.add(rec, tag, step, wall, v.simple_value)
        elif kind == "histo":
            run.add_histogram(tag, tb_histogram(step, wall, v.histo))
        elif kind == "image":
            run.add_image(tag, ImageRef(step, wall, v.image.height, v.image.width, path, offset, length, i, "tb"))
        elif plugin == "hparams":
            _hparams(run, v.metadata.plugin_data.content)
        elif kind == "tensor" and plugin == "text":
            text = b"\n".join(v.tensor.string_val).decode("utf-8", "replace")
            run.add_text(tag, Text(step, wall, text))
            if tag in CELL_TREE_TAGS:
                run.set_cell_tree(text, path)
        elif kind == "tensor" and plugin == "scalars":
            vals = _tb_tensor_values(v.tensor)
            if vals.size:
                scalars.add(rec, tag, step, wall, float(vals[0]))
        elif kind == "tensor" and plugin == "pr_curves":
            vals = _tb_tensor_values(v.tensor)
            if vals.size % 6:
                raise ValueError(f"pr_curves tensor of {vals.size} values is not 6 rows (TP, FP, TN, FN, "
                                 "precision, recall)")
            run.add_pr_curve(tag, PRCurve(step, wall, vals.reshape(6, -1)))
        elif kind == "tensor" and plugin == "custom_scalars":
            run.custom_layout = _custom_layout(v.tensor.string_val[0] if v.tensor.string_val else b"")
        elif kind == "tensor" and plugin == "histograms":
            k = _tb_tensor_values(v.tensor).reshape(-1, 3)
            run.add_histogram_arrays(tag, step, wall, k[:, 0], k[:, 1], k[:, 2])
        else:
            run.other_tags.add(tag)


def _custom_layout(data: bytes) -> list:
    """A custom-scalars Layout as [(category, [(chart title, "multiline", [tag regex]) or
    (chart title, "margin", [(value, lower, upper)])])]."""
    lay = layout_pb2.Layout.FromString(data)
    out = []
    for cat in lay.category:
        charts = []
        for ch in cat.chart:
            if ch.HasField("margin"):
                charts.append((ch.title, "margin", [(m.value, m.lower, m.upper) for m in ch.margin.series]))
            else:
                charts.append((ch.title, "multiline", list(ch.multiline.tag)))
        out.append((cat.title, charts))
    return out


def _hparams(run, content: bytes) -> None:
    data = plugin_hparams_pb2.HParamsPluginData.FromString(content)
    which = data.WhichOneof("data")
    if which == "session_start_info":
        run.hparams.update({k: _pb_value(v) for k, v in data.session_start_info.hparams.items()})
    elif which == "experiment":
        run.hparam_metrics.update(m.name.tag for m in data.experiment.metric_infos)


def _ms_event(run, scalars, rec, e, path, offset, length) -> None:
    step, wall = int(e.step), float(e.wall_time)
    run.saw_wall_time(wall)
    if e.HasField("version"):
        run.version = e.version
        return
    if e.HasField("graph_def"):
        run.set_graph(e.graph_def, "ms", step)
        return
    for i, v in enumerate(e.summary.value):
        if v.HasField("scalar_value"):
            scalars.add(rec, v.tag, step, wall, v.scalar_value)
        elif v.HasField("histogram"):
            run.add_histogram(v.tag, ms_histogram(step, wall, v.histogram))
        elif v.HasField("image"):
            run.add_image(v.tag, ImageRef(step, wall, v.image.height, v.image.width, path, offset, length, i, "ms"))
        else:
            run.other_tags.add(v.tag)


def decode_lineage(run: RunData, buf: bytes, starts: np.ndarray, lengths: np.ndarray, path: str, base: int) -> None:
    """Decode MindSpore ``*_lineage`` records into ``run.lineage`` (a flat dict of display values)."""
    for s, n in zip(starts.tolist(), lengths.tolist()):
        try:
            _lineage_event(run, _msproto.LineageEvent.FromString(buf[s:s + n]))
        except Exception as exc:  # noqa: BLE001 -- one bad record never stops the run
            run.problem(path, base + s, f"undecodable lineage event ({type(exc).__name__}: {str(exc)[:200]})")


def _scalar_json(val):
    """A metric value from a lineage JSON: numbers, strings and booleans as they are, anything else as text."""
    if isinstance(val, (int, float, str, bool)) or val is None:
        return val
    return json.dumps(val)[:200]


def _lineage_event(run, e) -> None:
    """Fold one LineageEvent into the run (train, eval, dataset graph, user-defined info)."""
    lin = run.lineage
    if e.HasField("train_lineage"):
        t = e.train_lineage
        hp = t.hyper_parameters
        for name in ("optimizer", "learning_rate", "loss_function", "epoch", "parallel_mode",
                     "device_num", "batch_size"):
            if hp.HasField(name):
                lin[name] = _round_f32(getattr(hp, name))
        if t.train_dataset.HasField("train_dataset_size"):
            lin["train_dataset_size"] = t.train_dataset.train_dataset_size
        if t.train_dataset.HasField("train_dataset_path"):
            lin["train_dataset_path"] = t.train_dataset.train_dataset_path
        if t.algorithm.HasField("network"):
            lin["network"] = t.algorithm.network
        if t.algorithm.HasField("loss"):
            run.lineage_metrics["loss"] = _round_f32(t.algorithm.loss)
        if t.model.HasField("size"):
            lin["model_size"] = t.model.size
        if t.model.HasField("path"):
            lin["model_path"] = t.model.path
    if e.HasField("evaluation_lineage"):
        ev = e.evaluation_lineage
        if ev.metric:
            if ev.metric.count("[") + ev.metric.count("{") > MAX_JSON_BRACKETS:
                raise ValueError(f"eval metric JSON nests more than {MAX_JSON_BRACKETS} brackets "
                                 f"({len(ev.metric)} characters); not read")
            try:
                metrics = json.loads(ev.metric)
            except ValueError:
                metrics = {"metric": ev.metric}
            for k, val in (metrics.items() if isinstance(metrics, dict) else []):
                run.lineage_metrics[f"eval/{k}"] = _scalar_json(val)
        if ev.valid_dataset.HasField("valid_dataset_size"):
            lin["valid_dataset_size"] = ev.valid_dataset.valid_dataset_size
    if e.HasField("dataset_graph"):
        lin["dataset_pipeline"] = " <- ".join(_dataset_ops(e.dataset_graph))
    if e.HasField("user_defined_info"):
        for k, val in _user_info(e.user_defined_info).items():
            lin[f"user/{k}"] = val


def _round_f32(x):
    """float32 lineage fields come back as float64 noise (0.01 -> 0.009999999776); round to 7 digits."""
    return float(f"{x:.7g}") if isinstance(x, float) else x


def _dataset_ops(g) -> list[str]:
    """The dataset pipeline as "Op(k=v, ...)" strings, outermost first."""
    p = g.parameter
    op = p.mapStr.get("op_type", "?")
    args = [f"{k}={v}" for k, v in sorted(p.mapInt.items()) if k in ("batch_size", "count", "num_shards")]
    args += [f"{k}={v}" for k, v in sorted(p.mapStr.items()) if k not in ("op_type",)]
    out = [f"{op}({', '.join(args)})"]
    for child in g.children:
        out += _dataset_ops(child)
    return out


def _user_info(u, prefix: str = "") -> dict:
    out = {}
    for m in ("map_int32", "map_str", "map_double"):
        for k, v in getattr(u, m).items():
            out[prefix + k] = v
    for k, v in u.map_dict.items():
        out.update(_user_info(v, f"{prefix}{k}."))
    for child in u.user_info:
        out.update(_user_info(child, prefix))
    return out
