"""``SummaryCollector``: write what MindSpore's collector writes, for the dashboard and TensorBoard.

Per collected step (the first step, then every ``collect_freq`` steps -- epochs in sink mode):
``loss/auto`` (scalar), ``learning_rate/auto`` (scalar; an addition over MindSpore, whose learning rate is
only in the lineage), ``input_data/auto`` (image grid of the first column of the batch), ``<param>/auto``
(histograms of the parameters matching ``histogram_regular``; None = the first 5). Once: the Cell tree
(text ``network/cell_tree``, JSON ``{"name", "type", "params": [[name, shape, dtype]], "children"}``) and the
traced train step as a TensorBoard graph. Each ``fit`` evaluation: scalars ``eval/<metric>`` and
``eval/loss``. Lineage (optimizer, learning rate, loss function, epochs, batch size, dataset size, network,
final loss, eval metrics, ``custom_lineage_data``) goes to the ``_lineage`` file in MindSpore's format and,
as TensorBoard hparams, into the event file. With ``collect_landscape`` (on by default, as in MindSpore: steps
1-19), the interval checkpoints and ``ckpt_dir/train_metadata.json`` that ``SummaryLandscape`` reads.
"""
from __future__ import annotations

import logging
import os
import re
from typing import Any

import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ._callback import Callback, RunContext, handle_loss
from ._landscape_collect import DEFAULT_LANDSCAPE, LandscapeSaver, check_collect_landscape

__all__ = ["SummaryCollector"]

_log = logging.getLogger(__name__)
_DEFAULTS: dict[str, Any] = {"collect_metric": True, "collect_graph": True, "collect_train_lineage": True,
             "collect_eval_lineage": True, "collect_input_data": True, "collect_dataset_graph": True,
             "histogram_regular": None, "collect_landscape": DEFAULT_LANDSCAPE, "collect_learning_rate": True}


def _configured_lr(optimizer: Any) -> float | None:
    """The learning rate the run was configured with: the first of a schedule's rates, as MindSpore's lineage."""
    from ..nn.cell import Cell
    if optimizer is None or getattr(optimizer, "is_group_lr", False):
        return None
    lr = getattr(optimizer, "learning_rate", None)
    if isinstance(lr, Parameter):
        return float(lr.asnumpy().reshape(-1)[0])
    if isinstance(lr, Cell):
        return float(np.asarray(lr(Tensor(np.asarray([0], np.int32))).asnumpy()).reshape(-1)[0])
    return _current_lr(optimizer)


def _current_lr(optimizer: Any) -> float | None:
    """The learning rate of the step just run (None for per-group rates or unknown optimizers)."""
    from ..nn.cell import Cell
    if optimizer is None or getattr(optimizer, "is_group_lr", False):
        return None
    lr = getattr(optimizer, "learning_rate", None)
    step = getattr(optimizer, "global_step", None)
    step = max(int(np.asarray(step.asnumpy()).reshape(-1)[0]) - 1, 0) if step is not None else 0
    if isinstance(lr, Parameter):
        values = lr.asnumpy()
        return float(values) if values.ndim == 0 else float(values.reshape(-1)[min(step, values.size - 1)])
    if isinstance(lr, Cell):
        return float(np.asarray(lr(Tensor(np.asarray([step], np.int32))).asnumpy()).reshape(-1)[0])
    if isinstance(lr, (int, float)):
        return float(lr)
    return None


class SummaryCollector(Callback):
    """Collect training data into summary files under ``summary_dir`` (see the module docstring for what).

    Args:
        summary_dir (str): the run's directory.
        collect_freq (int): collect every this many steps (epochs in sink mode); the first step always.
        num_process (int): accepted for compatibility.
        collect_specified_data (dict): switches, as in MindSpore (``collect_metric``, ``collect_graph``,
            ``collect_train_lineage``, ``collect_eval_lineage``, ``collect_input_data``,
            ``collect_dataset_graph``, ``histogram_regular``, ``collect_landscape``), plus
            ``collect_learning_rate``. ``collect_landscape`` (default: MindSpore's, steps 1-19) saves the
            checkpoints and ``ckpt_dir/train_metadata.json`` that ``SummaryLandscape`` reads. The dataset
            graph is not collected.
        keep_default_action (bool): with ``collect_specified_data``, also keep the other defaults.
        custom_lineage_data (dict): ``{str: int | float | str}`` added to the lineage.
        collect_tensor_freq (int): accepted for compatibility (tensors come from ``TensorSummary`` ops).
        max_file_size (int): stop writing once the event file reaches this size (bytes).
        export_options (dict): accepted for compatibility.
    """

    def __init__(self, summary_dir: str | os.PathLike[str], collect_freq: int = 10, num_process: int = 32,
                 collect_specified_data: dict[str, Any] | None = None, keep_default_action: bool = True,
                 custom_lineage_data: dict[str, int | float | str] | None = None,
                 collect_tensor_freq: int | None = None, max_file_size: int | None = None,
                 export_options: dict[str, Any] | None = None) -> None:
        super().__init__()
        if not isinstance(summary_dir, (str, os.PathLike)):
            raise TypeError(f"For 'SummaryCollector', 'summary_dir' must be a str, but got {type(summary_dir)}.")
        if isinstance(collect_freq, bool) or not isinstance(collect_freq, int) or collect_freq <= 0:
            raise ValueError(f'For "SummaryCollector", the value of `collect_freq` should be greater than 0, but got '
                             f'`{collect_freq}`.')
        if not isinstance(keep_default_action, bool):
            raise TypeError("For 'SummaryCollector', 'keep_default_action' must be a bool.")
        self._summary_dir = os.fspath(summary_dir)
        self._collect_freq = collect_freq
        self._max_file_size = max_file_size
        self._specified = self._process_specified(collect_specified_data, keep_default_action)
        self._custom_lineage_data = self._check_custom(custom_lineage_data)
        landscape = self._specified.get("collect_landscape")
        check_collect_landscape(type(self).__name__, landscape)
        self._landscape = LandscapeSaver(self._summary_dir, landscape) if landscape else None
        # a SummaryRecord while entered (typed Any: summary imports this package)
        self._record: Any = None
        self._graph_done = False  # the network is written once per collector, as MindSpore does

    @staticmethod
    def _process_specified(specified: dict[str, Any] | None, keep_default: bool) -> dict[str, Any]:
        if specified is None:
            return dict(_DEFAULTS) if keep_default else {}
        if not isinstance(specified, dict):
            raise TypeError(f"For 'collect_specified_data', the value must be a dict or None, but got "
                            f"{type(specified)}.")
        unknown = set(specified) - set(_DEFAULTS)
        if unknown:
            raise ValueError(f'For "SummaryCollector", the keys {unknown} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(_DEFAULTS)}')
        regular = specified.get("histogram_regular")
        if regular is not None:
            if not isinstance(regular, str):
                raise TypeError(f"For `collect_specified_data`, 'histogram_regular' must be a str or None, but got "
                                f"{type(regular)}.")
            try:
                re.compile(regular)
            except re.error as exc:
                raise ValueError(f"For `collect_specified_data`, the value of `histogram_regular` is not a valid "
                                 f"regular expression. Detail: {exc}.") from exc
        for key, value in specified.items():
            if key not in ("histogram_regular", "collect_landscape") and not isinstance(value, bool):
                raise TypeError(f"For `collect_specified_data`, '{key}' must be a bool, but got {type(value)}.")
        result = dict(_DEFAULTS) if keep_default else {}
        result.update(specified)
        return result

    @staticmethod
    def _check_custom(custom: dict[str, Any] | None) -> dict[str, Any]:
        if custom is None:
            return {}
        if not isinstance(custom, dict):
            raise TypeError(f"For 'SummaryCollector', 'custom_lineage_data' must be a dict, but got {type(custom)}.")
        for key, value in custom.items():
            if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise TypeError(f"For 'custom_lineage_data', keys must be str and values int, float or str, but got "
                                f"{key!r}: {type(value).__name__}.")
        return dict(custom)

    def _on(self, key: str) -> bool:
        return bool(self._specified.get(key))

    # ---- lifecycle -------------------------------------------------------------------------------
    def __enter__(self) -> SummaryCollector:
        from ..summary import SummaryRecord
        self._record = SummaryRecord(self._summary_dir, max_file_size=self._max_file_size)
        self._first_step = True
        self._final_loss: float | None = None
        self._eval_results: dict[str, Any] = {}
        return self

    def __exit__(self, *err: object) -> None:
        if self._record is not None:
            self._record.close()

    def begin(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        collectors = [c for c in cb_params.get("list_callback", []) if isinstance(c, SummaryCollector)]
        if len(collectors) > 1:
            raise ValueError("Only one SummaryCollector can be in the callback list.")
        if self._record is None:
            self.__enter__()
        self._record.set_mode(cb_params.mode)
        self._sink = bool(cb_params.get("dataset_sink_mode"))
        if cb_params.mode == "train" and self._on("collect_train_lineage"):
            self._write_hparams_start(cb_params)

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.mode != "train":
            return
        if not self._graph_done:
            self._graph_done = True
            self._collect_network(cb_params)
        current = cb_params.cur_epoch_num if self._sink else cb_params.cur_step_num
        if self._first_step or current % self._collect_freq == 0:
            self._first_step = False
            self._collect_step(cb_params)
            self._record.record(cb_params.cur_step_num)
        if self._landscape is not None and self._landscape.unit == "step":
            self._landscape.save_params(cb_params)

    def epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        results = cb_params.get("eval_results") if cb_params.mode == "train" else None
        if results and self._on("collect_metric"):
            from ..summary._ops import clear_pending
            clear_pending()  # summary ops in the network also ran during the evaluation: not train values
            self._eval_results = dict(results)
            for key, value in results.items():
                value = np.asarray(value)
                if value.size == 1:
                    name = "eval/loss" if key == "eval_loss" else f"eval/{key}"
                    self._record.add_value("scalar", name, float(value.reshape(())))
            self._record.record(cb_params.cur_step_num)
        if self._landscape is not None and self._landscape.unit == "epoch":
            self._landscape.save_params(cb_params)
        self._record.flush()

    def end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.mode == "train":
            if self._on("collect_train_lineage"):
                self._collect_train_lineage(cb_params)
            if self._landscape is not None:
                self._landscape.save_metadata(cb_params.get("batch_num"))
        elif self._on("collect_eval_lineage"):
            from ..summary._lineage import eval_lineage_event
            size = cb_params.get("batch_num")
            self._record.add_value("eval_lineage", "eval_lineage",
                                   eval_lineage_event(cb_params.get("metrics") or {}, size))
        self._record.flush()

    # ---- what is collected --------------------------------------------------------------------------
    def _collect_step(self, cb_params: Any) -> None:
        if self._on("collect_input_data"):
            self._collect_input_data(cb_params)
        if self._on("collect_metric"):
            loss = handle_loss(cb_params.net_outputs)
            if hasattr(loss, "asnumpy"):
                loss = float(np.mean(loss.asnumpy()))
            if isinstance(loss, float):
                self._final_loss = loss
                self._record.add_value("scalar", "loss/auto", loss)
        if self._on("collect_learning_rate"):
            lr = _current_lr(cb_params.get("optimizer"))
            if lr is not None:
                self._record.add_value("scalar", "learning_rate/auto", lr)
        self._collect_histograms(cb_params)

    def _collect_input_data(self, cb_params: Any) -> None:
        element = cb_params.get("train_dataset_element")
        data = element[0] if isinstance(element, (list, tuple)) and element else element
        shape: tuple[int, ...] = getattr(data, "shape", ())
        if len(shape) != 4 or shape[1] not in (1, 3, 4):
            _log.info("SummaryCollector: the input data is not an (N, C, H, W) image batch (shape %s); not "
                      "collected.", shape)
            self._specified["collect_input_data"] = False
            return
        self._record.add_value("image", "input_data/auto", data)

    def _collect_histograms(self, cb_params: Any) -> None:
        regular = self._specified.get("histogram_regular")
        if "histogram_regular" not in self._specified:
            return
        if regular is None:  # the first 5 parameters of the user's network
            chosen = list(cb_params.network.get_parameters())[:5]
        else:  # any parameter of the train network, optimizer state included
            pattern = re.compile(regular)
            chosen = [p for p in cb_params.train_network.get_parameters() if pattern.match(p.name)]
        for p in chosen:
            self._record.add_value("histogram", f"{p.name}/auto", p.asnumpy())

    def _collect_network(self, cb_params: Any) -> None:
        from ..summary._graph import cell_tree_json, jaxpr_to_graph_def, step_input_names
        if not self._on("collect_graph"):
            return
        network = cb_params.network
        self._record.add_value("text", "network/cell_tree", cell_tree_json(network))
        model = cb_params.get("model")
        element = cb_params.get("train_dataset_element")
        if model is not None and element:
            try:
                columns = [t._value if isinstance(t, Tensor) else t for t in element]
                jaxpr = model.train_step_graph(columns)
                runner_params = list(model.train_network.get_parameters())
                graph = jaxpr_to_graph_def(jaxpr, step_input_names(runner_params, len(columns)))
                self._record.add_value("graph", "train_network/auto", graph)
            except Exception as e:  # noqa: BLE001 - a graph that cannot be traced must not stop training
                _log.warning("SummaryCollector: could not trace the train network's graph: %s", e)
        self._record.record(cb_params.cur_step_num)

    # ---- lineage / hparams ---------------------------------------------------------------------------
    def _lineage_info(self, cb_params: Any) -> dict[str, Any]:
        optimizer, loss_fn = cb_params.get("optimizer"), cb_params.get("loss_fn")
        dataset = cb_params.get("train_dataset")
        batch_size = None
        if hasattr(dataset, "get_batch_size"):
            batch_size = int(dataset.get_batch_size())
        elif cb_params.get("train_dataset_element"):
            batch_size = int(np.shape(cb_params.train_dataset_element[0])[0])
        lr = _configured_lr(optimizer)
        return {"optimizer": type(optimizer).__name__ if optimizer is not None else None,
                "learning_rate": lr, "loss_function": type(loss_fn).__name__ if loss_fn is not None else None,
                "epoch": cb_params.get("epoch_num"), "parallel_mode": cb_params.get("parallel_mode"),
                "device_num": cb_params.get("device_number"), "batch_size": batch_size,
                "train_dataset_size": cb_params.get("batch_num"), "network": type(cb_params.network).__name__}

    def _metric_names(self, cb_params: Any) -> list[str]:
        model = cb_params.get("model")
        names = ["hparam/loss"]
        if model is not None and model.metric_names:
            names += [f"hparam/{k}" for k in model.metric_names] + ["hparam/eval_loss"]
        return names

    def _write_hparams_start(self, cb_params: Any) -> None:
        from tensorboardX.summary import hparams
        info = {k: v for k, v in self._lineage_info(cb_params).items() if v is not None}
        info.update(self._custom_lineage_data)
        exp, ssi, _ = hparams(info, {name: 0.0 for name in self._metric_names(cb_params)})
        self._record.write_summary(exp, 0)
        self._record.write_summary(ssi, 0)

    def _collect_train_lineage(self, cb_params: Any) -> None:
        from tensorboardX.summary import hparams

        from ..summary._lineage import train_lineage_event, user_info_event
        info = self._lineage_info(cb_params)
        loss = handle_loss(cb_params.get("net_outputs"))
        if hasattr(loss, "asnumpy"):
            loss = float(np.mean(loss.asnumpy()))
        self._final_loss = info["loss"] = loss if isinstance(loss, float) else self._final_loss
        path = cb_params.get("latest_ckpt_file")
        if path and os.path.exists(path):
            info["model_path"], info["model_size"] = path, os.path.getsize(path)
        self._record.add_value("train_lineage", "train_lineage", train_lineage_event(info, cb_params.cur_step_num))
        if self._custom_lineage_data:
            self._record.add_value("custom_lineage_data", "custom_lineage_data",
                                   user_info_event(self._custom_lineage_data))
        if self._eval_results:
            from ..summary._lineage import eval_lineage_event
            self._record.add_value("eval_lineage", "eval_lineage", eval_lineage_event(self._eval_results))
        metrics: dict[str, Any] = {"hparam/loss": self._final_loss}
        metrics.update({f"hparam/{k}": v for k, v in self._eval_results.items()})
        for tag, value in metrics.items():
            value = np.asarray(value) if value is not None else None
            if value is not None and value.size == 1:
                self._record.add_value("scalar", tag, float(value.reshape(())))
        self._record.record(cb_params.cur_step_num)
        _, _, sei = hparams({}, {})
        self._record.write_summary(sei, cb_params.cur_step_num)
