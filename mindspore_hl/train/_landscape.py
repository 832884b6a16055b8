"""``SummaryLandscape``: loss landscapes from the checkpoints ``SummaryCollector(collect_landscape=...)`` saved.

For each interval of checkpoints (``train``), the parameter trajectory relative to the last checkpoint is
reduced to two PCA directions; each direction is rescaled per parameter to that parameter's norm
("filter-normalised"), the checkpoints are projected onto them by least squares, and the loss is computed on a
``landscape_size`` x ``landscape_size`` grid spanning the projections plus 20% on each side, and along the
projected path. For the final checkpoint (``result``) the two directions are random normal vectors (NumPy's
global generator: seed it with ``np.random.seed`` to repeat a landscape), normalised the same way, on the grid
[-1, 1]^2. Only parameters whose name contains ``weight`` or ``bias`` (and not ``moment``) move. Each loss is the
``'Loss'`` metric of the model's train network over ``num_samples`` samples of the dataset. The landscapes are
written as MindSpore ``LossLandscape`` summary values tagged ``landscape_[first, last]`` / ``landscape_[last]``.

The maths, grids, dtypes and records are MindSpore 2.10's. Two differences: the grid is evaluated in this
process, one point after another (MindSpore splits the rows over worker processes, one per entry of
``device_ids``; the values are the same), and the PCA is an exact SVD (MindSpore uses a randomized SVD when a
parameter vector is longer than 500; it is exact as long as an interval has at most 13 checkpoints).
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import stat
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import linalg

from ..callbacks._landscape_collect import check_create_landscape, check_intervals, check_landscape_size, check_unit
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..metrics import get_metrics
from ..serialization import load_checkpoint, load_param_into_net
from ..summary._landscape_proto import LossLandscape, fill_array_to_tensor
from ..summary._record import SummaryRecord
from ._sink import DatasetHelper

__all__ = ["SummaryLandscape"]

_log = logging.getLogger(__name__)
Points = namedtuple("Points", ["x", "y", "z"])
_PROZ = 0.2          # margin around the projected path, as a fraction of its extent
_RANDOM_BOUND = 5    # the random landscape spans +-_PROZ * _RANDOM_BOUND
_META = "train_metadata.json"
_META_KEYS = ("epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples", "landscape_size",
              "create_landscape")
_OWNER = "SummaryLandscape"


def _moves(name: str) -> bool:
    """The parameters a landscape direction moves (not moments, BatchNorm statistics, hyper-parameters)."""
    return ("weight" in name or "bias" in name) and "moment" not in name


def pca_directions(trajectory: np.ndarray, n_comps: int = 2) -> np.ndarray:
    """(checkpoints, features) -> (features, n_comps): MindSpore's ``_PCA`` (U scaled by S, sign-fixed)."""
    x = np.array(trajectory, np.float64).T
    x -= np.mean(x, axis=0)
    u, s, _ = linalg.svd(x, full_matrices=False)
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])  # deterministic signs, as sklearn's
    u *= signs
    s = np.where(s == 0, 1e-19, s)
    return u[:, :n_comps] * s[:n_comps]


def _reshape(vector: np.ndarray, params: list[tuple[str, np.ndarray]]) -> list[np.ndarray]:
    """Cut a flat direction into the shapes of the moving parameters; the others keep their data (zeroed later)."""
    out, index = [], 0
    for name, data in params:
        if not _moves(name):
            out.append(np.array(data, np.float32))
            continue
        out.append(np.array(vector[index:index + data.size].reshape(data.shape), np.float32))
        index += data.size
    return out


def normalize_directions(params: list[tuple[str, np.ndarray]], v: list[np.ndarray],
                         w: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Scale each parameter's slice of v and w to that parameter's norm; zero the parameters that do not move."""
    for i, (name, data) in enumerate(params):
        if _moves(name):
            v[i] = v[i] * (np.linalg.norm(data) / np.linalg.norm(v[i]))
            w[i] = w[i] * (np.linalg.norm(data) / np.linalg.norm(w[i]))
        else:
            v[i], w[i] = v[i] * 0, w[i] * 0
    return v, w


def _flat(arrays: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([a.flatten() for a in arrays], axis=None)


def _axis(coords: np.ndarray, size: int) -> np.ndarray:
    lo, hi = coords.min(), coords.max()
    span = float(hi - lo)  # the difference in the coordinates' dtype, the margin in float64, as MindSpore
    return np.linspace(float(lo) - _PROZ * span, float(hi) + _PROZ * span, size)


def _fill_point(points: Points, message: Any) -> None:
    for array, tensor in zip(points, (message.x, message.y, message.z)):
        fill_array_to_tensor(np.asarray(array), tensor)


class SummaryLandscape:
    """Create loss landscapes from the checkpoints ``SummaryCollector`` saved (see the module docstring).

    Args:
        summary_dir (str): the collector's ``summary_dir``; its ``ckpt_dir`` holds the checkpoints and
            ``train_metadata.json`` (created if missing).

    Typical use: train with ``SummaryCollector(summary_dir, collect_specified_data={'collect_landscape': {...}})``,
    then ``SummaryLandscape(summary_dir).gen_landscapes_with_multi_process(callback_fn)`` and ``clean_ckpt()``.
    """

    def __init__(self, summary_dir: str | os.PathLike[str]) -> None:
        self._summary_dir = os.path.realpath(os.fspath(summary_dir))
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        os.makedirs(self._ckpt_dir, exist_ok=True)
        self._model_params_file_map: dict[str, str] = {}

    def clean_ckpt(self) -> None:
        """Delete ``ckpt_dir`` (the checkpoints and ``train_metadata.json``)."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def gen_landscapes_with_multi_process(self, callback_fn: Callable[[], Any],
                                          collect_landscape: dict[str, Any] | None = None,
                                          device_ids: list[int] | None = None, output: str | None = None) -> None:
        """Compute the landscapes and write them to a summary file.

        Args:
            callback_fn (callable): ``callback_fn()`` returns ``(model, network, dataset, metrics)`` (or a dict
                with those keys): a Model whose train network returns the loss, its network, the dataset to
                compute the loss on, and metrics with a ``'Loss'`` entry.
            collect_landscape (dict): overrides of ``landscape_size``, ``unit``, ``num_samples``,
                ``create_landscape``, ``intervals`` (written back into ``train_metadata.json``).
            device_ids (list[int]): device ids in [0, 7] (MindSpore's worker processes; here one process
                computes every point). None: one device.
            output (str): the directory of the summary file (default ``summary_dir``).
        """
        self._check_device_ids(device_ids)
        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        record = SummaryRecord(output_path)
        try:
            if collect_landscape is not None:
                self._update_metadata(collect_landscape)
            for interval, landscape in self._list_landscapes(callback_fn):
                record.add_value("landscape", f"landscape_{interval}", landscape)
                record.record(0)
                record.flush()
        finally:
            record.close()

    # ---- metadata --------------------------------------------------------------------------------
    def _meta_path(self) -> str:
        return os.path.join(self._ckpt_dir, _META)

    def _update_metadata(self, collect_landscape: dict[str, Any]) -> None:
        if not isinstance(collect_landscape, dict):
            raise TypeError(f"The parameter 'collect_landscape' must be dict, but got "
                            f"{type(collect_landscape).__name__}.")
        for key in collect_landscape:
            if key not in ("landscape_size", "unit", "num_samples", "create_landscape", "intervals"):
                raise ValueError(f'For "{_OWNER}", the key of collect landscape should be landscape_size, unit, '
                                 f'num_samples create_landscape or intervals, but got the: {key}. ')
        if "landscape_size" in collect_landscape:
            check_landscape_size(_OWNER, collect_landscape["landscape_size"], "train_metadata.json")
        if "unit" in collect_landscape:
            check_unit(_OWNER, collect_landscape["unit"], "train_metadata.json")
        if "num_samples" in collect_landscape:
            num = collect_landscape["num_samples"]
            if not isinstance(num, int) or isinstance(num, bool):
                raise TypeError(f"The parameter 'num_samples' must be int, but got {type(num).__name__}.")
        if "create_landscape" in collect_landscape:
            check_create_landscape(_OWNER, collect_landscape["create_landscape"], both=True)
        if "intervals" in collect_landscape:
            check_intervals(_OWNER, collect_landscape["intervals"])
        path = self._meta_path()
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{_OWNER}", train_metadata.json file path of {path} not exists.')
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data.update({k: v for k, v in collect_landscape.items() if k in data})
        if "intervals" in collect_landscape:
            data["epoch_group"] = {str(i): list(group) for i, group in enumerate(collect_landscape["intervals"])}
        os.remove(path)  # the file is read-only, as MindSpore leaves it
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.chmod(path, stat.S_IRUSR)

    def _load_metadata(self) -> dict[str, Any]:
        path = self._meta_path()
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{_OWNER}", train_metadata.json file does not exist under the path, please '
                                    f'use summary_collector to collect information to create the json file')
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for key in data:
            if key not in _META_KEYS:
                raise ValueError(f'"train_metadata" json file should be {list(_META_KEYS)}, but got the: {key}')
        files = data["model_params_file_map"]
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{_OWNER}", the "epoch_group" in train_metadata.json, length of each list in '
                                 f'"epoch_group" should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in files:
                    raise ValueError(f'For "{_OWNER}", the "model_params_file_map" in train_metadata.json does not '
                                     f'exist {epoch}th checkpoint in intervals.')
        if not isinstance(data["step_per_epoch"], int) or isinstance(data["step_per_epoch"], bool):
            raise TypeError(f"The parameter 'step_per_epoch' must be int, but got "
                            f"{type(data['step_per_epoch']).__name__}.")
        check_landscape_size(_OWNER, data["landscape_size"], "train_metadata.json")
        check_unit(_OWNER, data["unit"], "train_metadata.json")
        if not isinstance(data["num_samples"], int) or isinstance(data["num_samples"], bool):
            raise TypeError(f"The parameter 'num_samples' must be int, but got {type(data['num_samples']).__name__}.")
        check_create_landscape(_OWNER, data["create_landscape"], both=True)
        return data

    @staticmethod
    def _check_device_ids(device_ids: Any) -> None:
        if device_ids is None:
            return
        if not isinstance(device_ids, list):
            raise TypeError(f"The parameter 'device_ids' must be list, but got {type(device_ids).__name__}.")
        for i in device_ids:
            if not isinstance(i, int):
                raise TypeError(f'For "{_OWNER}.gen_landscapes_with_multi_process", the parameter "device_ids" type '
                                f'should be int, but got the: {type(i)}.')
            if i < 0 or i > 7:
                raise ValueError(f'For "{_OWNER}.gen_landscapes_with_multi_process", the parameter "device_ids" '
                                 f'should be between 0 and 7, but got {i}.')

    # ---- landscapes ------------------------------------------------------------------------------
    def _list_landscapes(self, callback_fn: Callable[[], Any]):
        data = self._load_metadata()
        self._model_params_file_map = data["model_params_file_map"]
        groups = list(data["epoch_group"].values())
        size = data["landscape_size"]
        if data["create_landscape"]["train"]:
            for epochs in groups:
                _log.info("SummaryLandscape: PCA landscape of checkpoints %s.", epochs)
                landscape = self._by_pca(epochs, size, callback_fn, data)
                yield [epochs[0], epochs[-1]], self._message(landscape, "PCA", data, epochs)
        if data["create_landscape"]["result"]:
            final = [groups[-1][-1]]
            _log.info("SummaryLandscape: random-direction landscape of checkpoint %s.", final)
            yield final, self._message(self._by_random(final, size, callback_fn, data), "Random", data, final)

    def _params(self, epoch: int) -> list[tuple[str, np.ndarray]]:
        path = self._model_params_file_map.get(str(epoch))
        if path is None:
            raise ValueError(f"SummaryLandscape: no checkpoint was collected for {epoch}; the collected ones are "
                             f"{sorted(self._model_params_file_map)}.")
        return [(name, p.asnumpy()) for name, p in load_checkpoint(path).items() if isinstance(p, Parameter)]

    def _by_pca(self, epochs: list[int], size: int, callback_fn: Callable[[], Any],
                data: dict[str, Any]) -> tuple[Points, Points | None, Points]:
        checkpoints = [self._params(e) for e in epochs]
        trajectory = np.vstack([np.concatenate([[]] + [d for n, d in ps if _moves(n)], axis=None)
                                for ps in checkpoints])
        components = pca_directions(trajectory[:-1] - trajectory[-1])
        final = checkpoints[-1]
        moving = [(n, d) for n, d in final if _moves(n)]
        v, w = normalize_directions(final, _reshape(components[:, 0], final), _reshape(components[:, -1], final))
        v_moving, w_moving = normalize_directions(moving, _reshape(components[:, 0], moving),
                                                  _reshape(components[:, -1], moving))
        basis = np.vstack([_flat(v_moving), _flat(w_moving)]).T
        origin = _flat([d for _, d in moving])
        coefs = np.array([np.hstack(np.linalg.lstsq(basis, _flat([d for n, d in ps if _moves(n)]) - origin,
                                                    rcond=None)[0]) for ps in checkpoints])
        x_points, y_points = np.meshgrid(_axis(coefs[:, 0], size), _axis(coefs[:, 1], size))
        evaluate = self._evaluator(callback_fn, final, v, w, data)
        path_z = np.array([evaluate(a, b) for a, b in coefs])
        z = np.vstack([[evaluate(a, row_y[0]) for a in row_x] for row_x, row_y in zip(x_points, y_points)])
        path = Points(coefs[:, 0], coefs[:, 1], path_z)
        zero = int(np.flatnonzero(path.x == 0)[-1])  # the final checkpoint projects onto the origin
        return Points(x_points, y_points, z), path, Points(np.array([0]), np.array([0]), np.array([path_z[zero]]))

    def _by_random(self, epochs: list[int], size: int, callback_fn: Callable[[], Any],
                   data: dict[str, Any]) -> tuple[Points, Points | None, Points]:
        final = self._params(epochs[-1])
        total = sum(d.size for _, d in final)
        v_rand, w_rand = np.random.normal(size=total), np.random.normal(size=total)

        def cut(vector: np.ndarray) -> list[np.ndarray]:
            offsets = np.cumsum([0] + [d.size for _, d in final])
            return [np.array(vector[a:b].reshape(d.shape), np.float32) for (_, d), a, b in
                    zip(final, offsets[:-1], offsets[1:])]
        v, w = normalize_directions(final, cut(v_rand), cut(w_rand))
        axis = np.linspace(-_PROZ * _RANDOM_BOUND, _PROZ * _RANDOM_BOUND, size)
        x_points, y_points = np.meshgrid(axis, axis)
        evaluate = self._evaluator(callback_fn, final, v, w, data)
        z = np.vstack([[evaluate(a, row_y[0]) for a in row_x] for row_x, row_y in zip(x_points, y_points)])
        mid = size // 2
        return Points(x_points, y_points, z), None, Points(axis[mid:mid + 1], axis[mid:mid + 1], z[mid, mid:mid + 1])

    @staticmethod
    def _evaluator(callback_fn: Callable[[], Any], final: list[tuple[str, np.ndarray]], v: list[np.ndarray],
                   w: list[np.ndarray], data: dict[str, Any]) -> Callable[[float, float], float]:
        """``evaluate(alpha, beta)``: the 'Loss' metric with the parameters at final + alpha * v + beta * w."""
        made = callback_fn()
        if isinstance(made, dict):
            made = tuple(made[k] for k in ("model", "network", "dataset", "metrics"))
        model, network, dataset, metrics = made
        dataset = dataset.take(data["num_samples"] // dataset.get_batch_size())
        metric_fns = get_metrics(metrics) or {}
        if "Loss" not in metric_fns:
            raise ValueError(f"For '{_OWNER}', the metrics returned by callback_fn need a 'Loss' entry, but got "
                             f"{list(metric_fns)}.")
        train_network = model.train_network

        def evaluate(alpha: float, beta: float) -> float:
            # the offsets in float32, as MindSpore's (NumPy 1) arithmetic on float32 parameters
            a, b = np.float32(alpha), np.float32(beta)
            moved = {name: Parameter(Tensor((d + a * vi + b * wi).astype(np.float32)), name=name)
                     for (name, d), vi, wi in zip(final, v, w)}
            load_param_into_net(network, moved)
            for metric in metric_fns.values():
                metric.clear()
            train_network.set_train(True)
            for inputs in DatasetHelper(dataset, False):
                outputs = train_network(*inputs)
                outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
                for metric in metric_fns.values():
                    metric.update(outputs[0])
            return float(metric_fns["Loss"].eval())
        return evaluate

    @staticmethod
    def _message(landscape: tuple[Points, Points | None, Points], decomposition: str, data: dict[str, Any],
                 epochs: list[int]) -> Any:
        grid, path, convergence = landscape
        msg = LossLandscape()
        fill_array_to_tensor(grid.x[0], msg.landscape.x)  # one row / column of the grid, as MindSpore
        fill_array_to_tensor(grid.y[:, 0], msg.landscape.y)
        fill_array_to_tensor(np.asarray(grid.z, np.float64), msg.landscape.z)
        if path is not None:
            msg.loss_path.intervals.extend(epochs)
            _fill_point(Points(path.x, path.y, np.asarray(path.z, np.float64)), msg.loss_path.points)
        _fill_point(convergence, msg.convergence_point)
        msg.metadata.decomposition = decomposition
        msg.metadata.unit = data["unit"]
        msg.metadata.step_per_epoch = data["step_per_epoch"]
        return msg
