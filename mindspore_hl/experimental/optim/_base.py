"""The base of the PyTorch-style optimizers: parameter groups with their own hyper-parameters, state slots as
Parameters named ``<slot>.<param name>`` (MindSpore's names, so checkpoints interoperate)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor, to_array, wrap
from ...nn.cell import Cell

if TYPE_CHECKING:
    from typing import Any, Iterable

__all__ = ["Optimizer"]


class Optimizer(Cell):
    """Args: params (Parameters, or dicts ``{'params': [...], 'lr': ..., ...}``), defaults (the hyper-parameters
    each group falls back to). Subclasses define ``construct(gradients)`` using ``self.param_groups``.
    ``param_groups[i]['lr']`` may be changed between steps (learning-rate schedules)."""

    # Set through ``__dict__`` (plain lists, not registered as cells/parameters) or by subclasses (``step_t``).
    param_groups: list[dict[str, Any]]
    _params_flat: list[Parameter]
    step_t: Parameter

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        super().__init__(auto_prefix=False)
        params = list(params) if not isinstance(params, Parameter) else [params]
        if not params:
            raise ValueError(f"For '{self.cls_name}', 'params' must not be empty.")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults = dict(defaults)
        self.__dict__["param_groups"] = []
        for group in groups:
            self.add_param_group(group)
        flat = [p for g in self.param_groups for p in g["params"]]
        names = [p.name for p in flat]
        if len(set(names)) != len(names):
            raise ValueError(f"For '{self.cls_name}', parameter names must be unique, but got {names}.")
        self.__dict__["_params_flat"] = flat
        self.parameters = ParameterTuple(flat)
        self.__dict__["_step_count"] = 0

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        if not isinstance(param_group, dict) or "params" not in param_group:
            raise TypeError(f"For '{self.cls_name}', a parameter group must be a dict with a 'params' key.")
        group = dict(param_group)
        group["params"] = [group["params"]] if isinstance(group["params"], Parameter) else list(group["params"])
        for p in group["params"]:
            if not isinstance(p, Parameter):
                raise TypeError(f"For '{self.cls_name}', 'params' must hold Parameters, but got {type(p).__name__}.")
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        lr = group.get("lr")
        if lr is not None and not isinstance(lr, Parameter):
            # A Parameter (not registered as state), so a schedule that changes it reaches compiled steps.
            group["lr"] = Parameter(Tensor(np.float32(float(lr.asnumpy()) if isinstance(lr, Tensor) else lr)),
                                    name="learning_rate", requires_grad=False)
        self.param_groups.append(group)

    def __setattr__(self, name, value):
        if isinstance(value, ParameterTuple):
            # Slots keep their own names ('exp_avg.fc.weight'), as in MindSpore.
            for i, p in enumerate(value):
                self.__dict__["_params"][f"{name}.{i}"] = p
            self.__dict__[name] = value
            return
        super().__setattr__(name, value)

    def _step_param(self, name):
        return Parameter(Tensor(np.array(0, np.int32)), name=name, requires_grad=False)

    def _advance_step(self):
        """Count this update in ``self.step_t`` and return the new step number."""
        step = self.step_t._value + 1
        self._set(self.step_t, step)
        return step

    def _slots(self, prefix, init=0.0):
        return ParameterTuple([Parameter(Tensor(np.full(p.shape, init, np.float32)).astype(p.dtype),
                                         name=f"{prefix}.{p.name}", requires_grad=False)
                               for p in self._params_flat])

    def _grouped(self, gradients):
        """(group, index into the flat parameter list, parameter, gradient array) for every parameter."""
        if not isinstance(gradients, (tuple, list)) or len(gradients) != len(self._params_flat):
            got_len = len(gradients) if hasattr(gradients, '__len__') else '?'
            raise ValueError(f"For '{self.cls_name}', expected a tuple of {len(self._params_flat)} gradients, but "
                             f"got {type(gradients).__name__} of length {got_len}.")
        i = 0
        for group in self.param_groups:
            for p in group["params"]:
                g = to_array(gradients[i]).astype(p._value.dtype)
                if tuple(g.shape) != tuple(p.shape):
                    raise ValueError(f"For '{self.cls_name}', the gradient of '{p.name}' has shape {tuple(g.shape)}, "
                                     f"but the parameter has shape {tuple(p.shape)}.")
                yield group, i, p, (-g if group.get("maximize") else g)
                i += 1

    @staticmethod
    def _set(param, value):
        param._set_value(value.astype(param._value.dtype))

    def construct(self, gradients: tuple[Tensor, ...]) -> Any:
        raise NotImplementedError(f"{self.cls_name} must define construct(gradients).")

    @staticmethod
    def _ok():
        return wrap(np.asarray(True))
