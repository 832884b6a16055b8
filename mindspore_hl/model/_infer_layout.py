"""``Model.infer_train_layout`` / ``Model.infer_predict_layout``: compile a step without running it and return
MindSpore's ``parameter_layout_dict`` of its Parameters.

Each value is the tuple MindSpore's graph executor gives (``GetParameterLayout``): ``(device_arrangement,
tensor_map, slice_shape, field_size, uniform_split, opt_shard_group)``. Here it is the step's parallel plan
written the way the strategy file (``strategy_ckpt_save_file``) of the same step writes it: the device
arrangement is the ``[data, model]`` mesh (``[data * model]`` for a dimension split over both), ``tensor_map``
counts device-matrix axes from the right, ``slice_shape`` is the shape each device holds, and, as this engine
neither splits fields nor shards optimizer weights, ``field_size`` is 0 and ``opt_shard_group`` is ''.
0-d Parameters (learning rate, step counters) have no layout, as in the strategy file.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._engine import _parallel_context
from .._engine._parallel_context import ParallelMode
from .._engine._strategy_ckpt import layout_of_spec
from ..common.tensor import Tensor
from ..parallel._layout_math import strategy_of
from ._data import DataSource
from ._runner import StepRunner

__all__ = ["infer_train_layout", "infer_predict_layout", "plan_layout_dict"]

_SHARDING_MODES = (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
_DATA_CLASSES = ("int", "float", "str", None, "Tensor")


def plan_layout_dict(params: Sequence[Any], specs: Sequence[Any], data: int, model: int) -> dict[str, tuple]:
    """``{parameter name: (dev_matrix, tensor_map, slice_shape, field_size, uniform_split, opt_shard_group)}``
    of Parameters laid out with ``PartitionSpec`` s ``specs`` over the ``('data', 'model')`` mesh.

    >>> from jax.sharding import PartitionSpec as P
    >>> import types
    >>> w = types.SimpleNamespace(name="fc.weight", shape=(8, 4))
    >>> plan_layout_dict([w], [P("model", None)], 4, 2)
    {'fc.weight': ([4, 2], [0, -1], [4, 4], 0, True, '')}
    """
    out: dict[str, tuple] = {}
    for param, spec in zip(params, specs):
        shape = tuple(int(n) for n in param.shape)
        if not shape:
            continue
        dev_matrix, tensor_map = layout_of_spec(tuple(spec), len(shape), data, model)
        splits = strategy_of(dev_matrix, tensor_map)
        uniform = all(n % k == 0 for n, k in zip(shape, splits))
        slice_shape = [-(-n // k) for n, k in zip(shape, splits)]
        out[param.name] = (dev_matrix, tensor_map, slice_shape, 0, uniform, "")
    return out


def _entry_layout(entry: Any) -> dict[str, tuple]:
    plan = entry.plan
    return plan_layout_dict(entry.params, [s.spec for s in plan.state_shardings], plan.data, plan.model)


def _runner(model: Any, cell: Any) -> StepRunner:
    """The Model's runner of ``cell`` (GRAPH_MODE: the one ``train`` then uses), or a throwaway one."""
    return model._runner(cell) or StepRunner(cell)


def _check_data(item: Any) -> None:
    """MindSpore's ``check_input_data`` for predict inputs (nested lists / tuples / dicts of them too)."""
    if isinstance(item, (list, tuple)):
        for v in item:
            _check_data(v)
    elif isinstance(item, dict):
        for v in item.values():
            _check_data(v)
    elif not (item is None or isinstance(item, (Tensor, str, int, float))):
        names = str(_DATA_CLASSES)
        raise TypeError(f"The types of input data must be in the Union({names}, tuple[{names}], list[{names}], "
                        f"dict[{names}]), but got type {type(item).__name__}.")


def infer_train_layout(model: Any, train_dataset: Any, dataset_sink_mode: bool = True,
                       sink_size: int = -1) -> dict[str, tuple]:
    """Compile ``model``'s train step for ``train_dataset``'s first batch; its Parameters' layouts."""
    mode = _parallel_context.mode()
    if mode not in _SHARDING_MODES:
        raise RuntimeError(f"'infer_train_layout' only supports 'semi_auto_parallel' and 'auto_parallel' mode, "
                           f"but got {mode}.")
    if not isinstance(dataset_sink_mode, bool):
        raise TypeError(f"The input value must be a bool, but got {type(dataset_sink_mode).__name__}.")
    if not dataset_sink_mode:
        raise ValueError("Only dataset sink mode is supported for now.")
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"The type of input value must be 'int', but got '{type(sink_size).__name__}'.")
    source = DataSource(train_dataset, "train_dataset")
    size = source.size()
    if size == 0:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    if sink_size < -1 or sink_size == 0:
        raise ValueError(f"For 'infer_train_layout', the argument 'sink_size' must be -1 or positive, but got "
                         f"sink_size {sink_size}.")
    first = next(iter(next(source.epochs(1))), None)
    if first is None:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    net = model._train_network
    model._push_state()
    runner = _runner(model, net)
    net.set_train(True)
    steps = min(sink_size if sink_size > 0 else size, runner.steps_per_sink_call(first))
    try:
        entry = runner.compile(first, steps)
    finally:
        runner.push()
    return _entry_layout(entry)


def infer_predict_layout(model: Any, *predict_data: Any, skip_backend_compile: bool = False) -> dict[str, tuple]:
    """Compile ``model``'s predict network for ``predict_data``; its Parameters' layouts.

    ``skip_backend_compile`` is accepted (a bool); the step is compiled either way, which gives the same layouts.
    """
    if _parallel_context.mode() not in _SHARDING_MODES:
        raise RuntimeError("Infer predict layout only supports semi auto parallel and auto parallel mode.")
    for item in predict_data:
        _check_data(item)
    if not isinstance(skip_backend_compile, bool):
        raise TypeError(f"For 'Model.infer_predict_layout', 'skip_backend_compile' must be a bool, but got "
                        f"{type(skip_backend_compile).__name__}.")
    if not all(isinstance(d, Tensor) for d in predict_data):
        # The compiled step takes arrays; a Python scalar or string input would be traced as a constant.
        raise TypeError("For 'Model.infer_predict_layout', the predict data must be Tensors here, but got "
                        f"{[type(d).__name__ for d in predict_data]}.")
    net = model.predict_network
    model._push_state()
    runner = StepRunner(net)  # predict runs the Cell itself: this compiled step only gives the plan
    net.set_train(False)
    try:
        entry = runner.compile([np.asarray(d.asnumpy()) for d in predict_data])
    finally:
        runner.push()
    return _entry_layout(entry)
