"""``Model``: MindSpore's high-level train / eval / predict / fit API over a Cell, a loss and an optimizer."""
from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._engine import _mode, _parallel_context
from ..callbacks._callback import Callback, CallbackManager, CallbackParam
from ..common.tensor import Tensor
from ..metrics import Loss, Metric, get_metrics
from ..nn.cell import Cell
from . import _infer_layout
from ._data import DataSource
from ._inputs import check_columns
from ._loop import eval_loop, train_loop
from ._runner import StepRunner

if TYPE_CHECKING:
    from ..amp import LossScaleManager

__all__ = ["Model"]

_log = logging.getLogger(__name__)
_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")


def _check_int(api: str, name: str, value: object, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"For 'Model.{api}', the argument '{name}' must be an int >= {minimum}, but got {value!r}.")


def _check_bool(api: str, name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For 'Model.{api}', the argument '{name}' must be a bool, but got {type(value).__name__}.")


def _parallel() -> tuple[str, int]:
    """(parallel mode string, device number) from the auto-parallel context (stand-alone when unavailable)."""
    mode = _parallel_context.mode()
    return mode, (len(_parallel_context.devices()) if mode != "stand_alone" else 1)


class Model:
    """Train, evaluate and predict with a network.

    The train network is ``TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)`` (or the loss-scale
    variant, built by :func:`mindspore_hl.amp.build_train_network`). In GRAPH_MODE each step is one compiled
    XLA computation whose state (parameters, optimizer and loss-scale state, RNG key) stays on the device
    between steps; Parameters are brought up to date at epoch ends, when a callback reads
    ``cb_params.network`` / ``train_network``, and when training returns.

    Args:
        network (Cell): the network (or a loss network when ``loss_fn`` is None).
        loss_fn (Cell): the loss; None when ``network`` computes the loss itself.
        optimizer (Cell): the optimizer; None when ``network`` updates its weights itself.
        metrics (set | dict): e.g. ``{'accuracy'}`` or ``{'acc': Accuracy()}``; keys of ``eval()``'s result.
        eval_network (Cell): the evaluation network (default ``WithEvalCell(network, loss_fn)``).
        eval_indexes (list): positions of (loss, prediction, label) in ``eval_network``'s outputs.
        amp_level (str): 'O0' (default), 'O1', 'O2', 'O3' or 'auto' (see ``mindspore_hl.amp``).
        boost_level (str): accepted for compatibility ('O0', 'O1', 'O2'); no boost is applied.
        kwargs: ``loss_scale_manager``, ``keep_batchnorm_fp32``, ``boost_config_dict``.

    Example:
        >>> from mindspore_hl.train import LossMonitor
        >>> x = np.random.default_rng(0).normal(size=(32, 4)).astype(np.float32)
        >>> data = ms.dataset.NumpySlicesDataset({'data': x, 'label': (x[:, 0] > 0).astype(np.int32)},
        ...                                      shuffle=False).batch(8)
        >>> net = nn.Dense(4, 2, weight_init='zeros')
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> model = Model(net, loss_fn=loss, optimizer=opt, metrics={'accuracy'})
        >>> model.train(2, data, callbacks=[LossMonitor(per_print_times=4)])
        epoch: 1 step: 4, loss is 0.632...
        epoch: 2 step: 4, loss is 0.387...
        >>> model.eval(data)
        {'accuracy': 0.875}
    """

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Cell | None = None,
                 metrics: dict[str, Metric] | set[str] | None = None, eval_network: Cell | None = None,
                 eval_indexes: list[int] | None = None, amp_level: str = "O0", boost_level: str = "O0",
                 **kwargs: Any) -> None:
        for key in kwargs:
            if key not in _KWARGS:
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' "
                                 f"or 'boost_config_dict', but got '{key}'.")
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the argument 'network' must be a Cell, but got {type(network).__name__}.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        if boost_level not in ("O0", "O1", "O2"):
            raise ValueError(f"For 'Model', 'boost_level' must be one of ['O0', 'O1', 'O2'], but got {boost_level!r}.")
        self._network, self._loss_fn, self._optimizer = network, loss_fn, optimizer
        self._amp_level, self._boost_level = amp_level, kwargs.get("acc_level", boost_level)
        self._loss_scale_manager: LossScaleManager | None = kwargs.get("loss_scale_manager")
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._parallel_mode, self._device_number = _parallel()
        self._metrics = metrics
        self._train_network = self._build_train_network()
        self._metric_fns: dict[str, Metric] = get_metrics(metrics) or {}
        self._eval_network: Cell | None = None
        self._eval_indexes: list[int] | None = None
        self._eval_built = False
        self._build_eval_network(eval_network, eval_indexes)
        self._predict_network = network
        self._runners: dict[int, StepRunner] = {}
        self._current_epoch_num = 0
        self._current_step_num = 0

    # ---- networks -----------------------------------------------------------------------------
    def _build_train_network(self) -> Cell:
        network = self._network
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if self._optimizer is not None:
            from ..amp import build_train_network
            amp_config: dict[str, Any] = {}
            if self._loss_scale_manager is not None:
                amp_config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                amp_config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                       boost_level=self._boost_level, **amp_config)
        if self._loss_fn is not None:
            from ..nn.wrap import WithLossCell
            return WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, eval_network: Cell | None, eval_indexes: list[int] | None) -> None:
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(f"The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            self._eval_network, self._eval_indexes = eval_network, eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't "
                             "want an evaluation.\nIf evaluation is required, you need to specify `eval_network`, or "
                             "set `loss_fn` so that Model builds WithEvalCell(network, loss_fn).")
        from ..nn.wrap import WithEvalCell
        self._eval_network = WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]
        self._eval_built = True

    @property
    def train_network(self) -> Cell:
        """The network trained by ``train`` (with loss and optimizer)."""
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs (the ``network`` given to Model)."""
        return self._predict_network

    @property
    def eval_network(self) -> Cell | None:
        """The network ``eval`` runs (None when the Model has no metrics)."""
        return self._eval_network

    # ---- compiled steps and their state ---------------------------------------------------------
    def _runner(self, cell: Cell | None) -> StepRunner | None:
        """The StepRunner of ``cell`` when steps compile (None: run the Cell as called, op by op)."""
        if cell is None or not _mode.should_compile():
            return None  # (no eval network without metrics)
        runner = self._runners.get(id(cell))
        if runner is None:
            runner = self._runners[id(cell)] = StepRunner(cell)
        return runner

    def _train_runner(self) -> StepRunner | None:
        return self._runner(self._train_network)

    def _eval_runner(self) -> StepRunner | None:
        return self._runner(self._eval_network)

    def _push_state(self) -> None:
        """Write every runner's state back into the Parameters (they are current again)."""
        for runner in self._runners.values():
            runner.push()

    @property
    def metric_names(self) -> list[str]:
        """The names of the metrics ``eval`` reports (empty without an eval network)."""
        return list(self._metric_fns) if self._eval_network is not None else []

    def train_step_graph(self, columns: Iterable[Any]) -> Any:
        """The ClosedJaxpr of one compiled train step on a batch's ``columns`` (what SummaryCollector draws)."""
        self._push_state()
        runner = self._runners.get(id(self._train_network)) or StepRunner(self._train_network)
        try:
            return runner.jaxpr(list(columns))
        finally:
            runner.push()

    # ---- metrics --------------------------------------------------------------------------------
    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs: Any, eval_loss: Loss | None = None) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, (tuple, list)):
            raise ValueError(f"The eval network's outputs should be a tuple, but got {type(outputs).__name__}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of the eval network's outputs must be >= 3, but got {len(outputs)}.")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])
        if eval_loss is not None:
            eval_loss.update(outputs[self._eval_indexes[0] if self._eval_indexes else 0])

    def _get_metrics(self) -> dict[str, Any]:
        return {name: metric.eval() for name, metric in self._metric_fns.items()}

    # ---- train / fit ---------------------------------------------------------------------------
    def _check_reuse_dataset(self, dataset: Any) -> None:
        try:
            owner = getattr(dataset, "__model_hash__", None)
            if owner is None:
                dataset.__model_hash__ = hash(self)
            elif owner != hash(self):
                raise RuntimeError("The dataset object had been used in other model by model.train(...), please "
                                   "create a new dataset.")
        except AttributeError:  # a list or another object without attributes cannot be tagged
            pass

    def _check_train(self, api: str, epoch: int, train_dataset: Any, dataset_sink_mode: bool, sink_size: int,
                     initial_epoch: int) -> DataSource:
        _check_bool(api, "dataset_sink_mode", dataset_sink_mode)
        _check_int(api, "epoch", epoch, 1)
        _check_int(api, "initial_epoch", initial_epoch, 0)
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For 'Model.{api}', 'sink_size' must be an int, but got {type(sink_size).__name__}.")
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', "
                             f"but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        source = DataSource(train_dataset, "train_dataset")
        if source.size() == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For 'Model.{api}', The argument 'sink_size' must be -1 or positive, but got "
                             f"{sink_size}.")
        return source

    def train(self, epoch: int, train_dataset: Any, callbacks: Callback | list[Callback] | None = None,
              dataset_sink_mode: bool = False, sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train for ``epoch`` epochs (``initial_epoch`` already done).

        Args:
            epoch (int): the final epoch number.
            train_dataset: a dataset (or a re-iterable of batches) yielding (data, label) -- or all network
                inputs when ``loss_fn`` is None.
            callbacks (Callback | list): called at each stage (see ``mindspore_hl.callbacks``).
            dataset_sink_mode (bool): run ``sink_size`` steps per device call (GRAPH_MODE); step callbacks
                then fire once per sink, as in MindSpore's sink mode.
            sink_size (int): steps per sink / per epoch in sink mode; -1 = the whole dataset.
            initial_epoch (int): epochs already trained (resuming).
        """
        source = self._check_train("train", epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch)
        check_columns("train", source, self._network, self._loss_fn)
        self._train(epoch, source, callbacks, dataset_sink_mode, sink_size, initial_epoch, (None, 1, False))

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None, valid_frequency: int | list[int] = 1,
            callbacks: Callback | list[Callback] | None = None, dataset_sink_mode: bool = False,
            valid_dataset_sink_mode: bool = False, sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs (int, or a list of epochs).

        The evaluation results are in ``cb_params.metrics`` / ``cb_params.eval_results`` (with ``eval_loss``)
        during ``on_train_epoch_end``; LossMonitor prints ``Eval result: epoch N, metrics: {...}``.
        """
        _check_bool("fit", "valid_dataset_sink_mode", valid_dataset_sink_mode)
        source = self._check_train("fit", epoch, train_dataset, dataset_sink_mode, sink_size, initial_epoch)
        check_columns("fit", source, self._network, self._loss_fn)
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be "
                             "None or empty, you should set the argument 'metrics' for model.")
        self._train(epoch, source, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    (valid_dataset, valid_frequency, valid_dataset_sink_mode))

    def _train(self, epoch: int, source: DataSource, callbacks: Callback | list[Callback] | None, sink_mode: bool,
               sink_size: int, initial_epoch: int, valid_infos: tuple[Any, int | list[int], bool]) -> None:
        self._check_reuse_dataset(source.dataset)
        steps = sink_size if sink_mode and sink_size > 0 else None
        cb = CallbackParam()
        cb.train_network = self._train_network
        cb.epoch_num = epoch - initial_epoch
        cb.batch_num = steps if steps is not None else source.size()
        cb.mode = "train"
        cb.loss_fn = self._loss_fn
        cb.optimizer = self._optimizer
        cb.parallel_mode = self._parallel_mode
        cb.device_number = self._device_number
        cb.train_dataset = source.dataset
        cb.list_callback = _callback_list(callbacks)
        cb.train_dataset_element = None
        cb.network = self._network
        cb.last_save_ckpt_step = None
        cb.latest_ckpt_file = None
        cb.loss_scale_mananger = self._loss_scale_manager  # (sic) MindSpore's spelling
        cb.initial_step = 0
        cb.cur_epoch_num = initial_epoch
        cb.cur_step_num = 0
        cb.dataset_sink_mode = sink_mode
        cb.net_outputs = None
        sink = sink_mode and self._train_runner() is not None
        if initial_epoch:
            # Resuming (e.g. from a ModelCheckpoint file) goes the way BackupAndRestore resumes: the data of the
            # epochs already done is read and skipped, so the dataset's shuffle state and the step count are
            # those of an uninterrupted run. (BackupAndRestore replaces this when its backup is further on.)
            cb["_resume"] = (initial_epoch, initial_epoch * cb.batch_num)
        with CallbackManager(cb.list_callback) as cbs:
            train_loop(self, source, epoch, 0, sink, steps, cbs, cb, valid_infos)
        self._sync_loss_scale_manager()

    def _sync_loss_scale_manager(self) -> None:
        """Give a DynamicLossScaleManager the scale the compiled steps reached (MindSpore updates it per step)."""
        sense = getattr(self._train_network, "scale_sense", None)
        manager: Any = self._loss_scale_manager  # any manager with a loss_scale attribute
        if sense is not None and hasattr(manager, "loss_scale"):
            manager.loss_scale = float(sense.asnumpy())

    def _eval_during_train(self, valid_infos: tuple[Any, int | list[int], bool], cb: CallbackParam,
                           cbs: CallbackManager) -> None:
        valid_dataset, frequency, _ = valid_infos
        if valid_dataset is None:
            return
        epoch = cb.cur_epoch_num
        if not (epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency):
            return
        from ..callbacks import TimeMonitor
        saved = {k: cb.get(k) for k in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        eval_cbs = [c for c in cbs.callbacks
                    if not type(c).__module__.startswith("mindspore_hl.") or isinstance(c, TimeMonitor)]
        source = DataSource(valid_dataset, "valid_dataset")
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = source.size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        with CallbackManager(eval_cbs) as ecbs:
            eval_loop(self, source, ecbs, cb, add_eval_loss=True)
        cb.mode = "train"
        cb.update(saved)
        self._train_network.set_train(True)

    # ---- eval / predict -------------------------------------------------------------------------
    def eval(self, valid_dataset: Any, callbacks: Callback | list[Callback] | None = None,
             dataset_sink_mode: bool = False) -> dict[str, Any]:
        """Evaluate the metrics on ``valid_dataset``; returns ``{metric name: value}``.

        ``dataset_sink_mode`` is accepted; evaluation always runs one compiled step per batch (as MindSpore
        does on CPU).
        """
        _check_bool("eval", "dataset_sink_mode", dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        source = DataSource(valid_dataset, "valid_dataset")
        if self._eval_built:  # WithEvalCell(network, loss_fn)(data, label)
            check_columns("eval", source, self._network, self._loss_fn, "valid_dataset", "WithEvalCell")
        else:
            check_columns("eval", source, self._eval_network, None, "valid_dataset")
        cb = CallbackParam()
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = source.size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        cb.list_callback = _callback_list(callbacks)
        cb.network = self._network
        self._push_state()
        with CallbackManager(cb.list_callback) as cbs:
            return eval_loop(self, source, cbs, cb)

    def predict(self, *predict_data: Any, backend: str | None = None, config: dict[str, Any] | None = None) -> Any:
        """The network's output for ``predict_data`` (Tensors), in inference mode (``set_train(False)``)."""
        if not predict_data:
            raise ValueError("For 'Model.predict', 'predict_data' must not be empty.")
        for i, data in enumerate(predict_data):
            if not isinstance(data, (Tensor, int, float, str, type(None), list, tuple)):
                raise TypeError(f"For 'Model.predict', input {i} must be a Tensor (or a number, str, list, tuple, "
                                f"None), but got {type(data).__name__}.")
        self._push_state()
        self._predict_network.set_train(False)
        return self._predict_network(*predict_data)

    def build(self, train_dataset: Any = None, valid_dataset: Any = None, sink_size: int = -1, epoch: int = 1,
              sink_mode: bool = True) -> None:
        """Compile the train step (and the eval step) for the datasets' first batch ahead of ``train``.

        In GRAPH_MODE the compiled executables are cached, so the first epoch does not pay for compilation.
        """
        if train_dataset is None and valid_dataset is None:
            raise ValueError("The argument 'train_dataset' and 'valid_dataset' can not both be None or empty.")
        self._push_state()
        net: Any  # (None only together with runner None: no eval network without metrics)
        for dataset, runner, net, train in ((train_dataset, self._train_runner(), self._train_network, True),
                                            (valid_dataset, self._eval_runner(), self._eval_network, False)):
            if dataset is None or runner is None:
                continue
            source = DataSource(dataset, "train_dataset" if train else "valid_dataset")
            first = next(iter(next(source.epochs(1))), None)
            if first is not None:
                net.set_train(train)
                steps = 0
                if train and sink_mode:
                    steps = min(sink_size if sink_size > 0 else source.size(), runner.steps_per_sink_call(first))
                runner.compile(first, steps)
        self._push_state()

    def infer_train_layout(self, train_dataset: Any, dataset_sink_mode: bool = True,
                           sink_size: int = -1) -> dict[str, tuple]:
        """Compile the train step (not run it) in SEMI_AUTO / AUTO_PARALLEL; ``{parameter name: (dev_matrix,
        tensor_map, slice_shape, field_size, uniform_split, opt_shard_group)}`` (see ``_infer_layout``)."""
        return _infer_layout.infer_train_layout(self, train_dataset, dataset_sink_mode, sink_size)

    def infer_predict_layout(self, *predict_data: Any, skip_backend_compile: bool = False) -> dict[str, tuple]:
        """Compile the predict network for ``predict_data`` in SEMI_AUTO / AUTO_PARALLEL; its Parameters'
        layouts, as ``infer_train_layout`` gives them (for ``load_distributed_checkpoint(predict_strategy=)``)."""
        return _infer_layout.infer_predict_layout(self, *predict_data, skip_backend_compile=skip_backend_compile)


def _callback_list(callbacks: Callback | list[Callback] | tuple[Callback, ...] | None) -> list[Callback]:
    if callbacks is None:
        return []
    if isinstance(callbacks, (list, tuple)):
        return list(callbacks)
    return [callbacks]
