"""``nn.Optimizer``: the base Cell of every optimizer (learning rates, parameter groups, weight decay, loss scale).

An optimizer is a Cell whose state is Parameters named as MindSpore names them, so checkpoints interoperate:
``global_step`` (Int32, shape (1,)), ``learning_rate`` (Float32 scalar, or the per-step array for a list of
rates), ``learning_rate_group_<n>`` for parameter groups with their own ``lr``, and per-parameter slots cloned
from the trained parameters (``moments.conv1.weight`` ...). The trained parameters themselves are Parameters of
the optimizer too (MindSpore registers ``optimizer.parameters`` the same way), so a compiled
``optimizer(grads)`` owns everything it updates.

``opt(grads)`` updates through ``Parameter._set_value``: eagerly it mutates, inside a compiled step it records
into the stateless scope. The built-in optimizers' ``construct`` is wrapped in ``ms.jit`` (as in MindSpore),
so even in PYNATIVE mode one call is one compiled XLA computation.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import jax.numpy as jnp
import numpy as np

from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor, to_array, wrap
from ..cell import Cell
from ..learning_rate_schedule import LearningRateSchedule

if TYPE_CHECKING:
    from typing import Any

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "grad_centralization", "order_params")


def _finite_rates(owner, rates):
    """Per-step / Tensor learning rates: every one finite and >= 0 (MindSpore checks a float rate only)."""
    bad = np.flatnonzero(~np.isfinite(rates) | (rates < 0))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"For '{owner}', every 'learning_rate' value must be a finite number >= 0, but value {i} "
                         f"of {rates.size} is {float(rates.reshape(-1)[i])}.")
    return rates


class _IteratorLearningRate(LearningRateSchedule):
    """Per-step learning rates indexed by ``global_step``; the last one is held after the list ends."""

    def __init__(self, values, name):
        super().__init__()
        self.learning_rate = Parameter(Tensor(np.asarray(values, np.float32)), name)

    def construct(self, global_step):
        rates = self.learning_rate._value
        index = jnp.clip(to_array(global_step).reshape(-1)[0], 0, rates.shape[0] - 1)
        return wrap(rates[index])


def _lr_value(source, global_step):
    """The learning rate of ``source`` (a scalar Parameter or a schedule Cell) at ``global_step``, a f32 scalar."""
    if isinstance(source, Parameter):
        return source._value.astype(jnp.float32).reshape(())
    return to_array(source(wrap(global_step))).astype(jnp.float32).reshape(())


def _centralize(g):
    """MindSpore's gradient centralization: subtract the mean over all but axis 0 when axis 1 is a multiple of 16."""
    if g.ndim >= 2 and g.shape[1] % 16 == 0:
        return g - jnp.mean(g, axis=tuple(range(1, g.ndim)), keepdims=True)
    return g


class Optimizer(Cell):
    """Base class of optimizers: subclasses define ``construct(gradients)``.

    Args:
        learning_rate: float/int, scalar Tensor (fixed), a list / 1-D Tensor (one value per step, indexed by
            ``global_step``, the last one held after the end) or a ``LearningRateSchedule`` Cell.
        parameters: list of Parameters, or of group dicts ``{'params': [...], 'lr': ..., 'weight_decay': ...,
            'grad_centralization': bool}`` plus optionally ``{'order_params': [...]}``.
        weight_decay: float/int >= 0 (or a Cell of the step); without groups it is applied to parameters whose
            name contains neither 'beta' nor 'gamma'.
        loss_scale: float > 0; gradients are divided by it (weight decay is scaled to match).
    """

    _parameters: ParameterTuple  # set through __dict__: the same tuple as ``parameters``, not registered twice

    def __init__(self, learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule,
                 parameters: Iterable[Any], weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        self.__dict__["_tuple_keys"] = {}
        parameters = self._check_parameters(parameters)
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float):
            raise TypeError(f"For '{self.cls_name}', 'loss_scale' must be a float, but got "
                            f"{type(loss_scale).__name__}.")
        if loss_scale <= 0.0:
            raise ValueError(f"For '{self.cls_name}', 'loss_scale' must be > 0, but got {loss_scale}.")
        self.loss_scale = loss_scale
        self.global_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="global_step")
        self.is_group = isinstance(parameters[0], dict)
        default_lr = self._preprocess_lr(learning_rate)
        default_wd = self._preprocess_weight_decay(weight_decay)
        if self.is_group:
            params, lrs, wds, gcs = self._parse_groups(parameters, default_lr, default_wd)
        else:
            params = parameters
            lr = self._build_lr(default_lr, "learning_rate")
            lrs, wds, gcs = [lr] * len(params), [default_wd] * len(params), [False] * len(params)
        self.is_group_lr = self.is_group and any("lr" in g for g in parameters)
        self.dynamic_lr = any(isinstance(lr, Cell) for lr in lrs)
        self.dynamic_weight_decay = any(isinstance(wd, Cell) for wd in wds)
        if not self.is_group_lr:
            self.learning_rate = lrs[0]
        elif not self.dynamic_lr:
            self.learning_rate = ParameterTuple(lrs)
        else:
            self._register("learning_rate", lrs)
            self.__dict__["learning_rate"] = tuple(lrs)
        self.parameters = ParameterTuple(params)
        self.__dict__["_parameters"] = self.parameters
        self._lr_sources = tuple(lrs)
        self._wd_sources = tuple(wds)
        if self.is_group:
            self.decay_flags = tuple(isinstance(wd, Cell) or wd > 0 for wd in wds)
            self.weight_decay = tuple(wds)
            self._register("weight_decay", list({id(w): w for w in wds if isinstance(w, Cell)}.values()))
        else:
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name for p in params)
            self.weight_decay = default_wd
        self.exec_weight_decay = any(f and (isinstance(w, Cell) or w > 0) for f, w in zip(self.decay_flags, wds))
        self.grad_centralization_flags = tuple(gcs)
        self.param_length = len(params)

    # ---- state registration ---------------------------------------------------------------------------------
    def __setattr__(self, name, value):
        if isinstance(value, ParameterTuple):
            # Like MindSpore: the tuple's Parameters become this Cell's Parameters under their own names.
            self._register(name, value)
            self.__dict__[name] = value
            return
        super().__setattr__(name, value)

    def _register(self, name, items):
        """Register Parameters / Cells of a sequence attribute without renaming them."""
        d = self.__dict__
        for table, key in d["_tuple_keys"].pop(name, ()):
            d[table].pop(key, None)
        keys = []
        for i, item in enumerate(items):
            table = "_params" if isinstance(item, Parameter) else "_cells"
            d[table][f"{name}.{i}"] = item
            keys.append((table, f"{name}.{i}"))
        d["_tuple_keys"][name] = keys

    # ---- argument parsing -----------------------------------------------------------------------------------
    def _check_parameters(self, parameters, what="parameters") -> list[Any]:
        if parameters is None:
            raise ValueError(f"For '{self.cls_name}', the argument '{what}' can not be None.")
        if isinstance(parameters, Parameter) or not isinstance(parameters, Iterable):
            raise TypeError(f"For '{self.cls_name}', '{what}' must be a list of Parameters or of group dicts, "
                            f"but got {type(parameters).__name__}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For '{self.cls_name}', the argument '{what}' must not be empty.")
        if not (all(isinstance(p, Parameter) for p in parameters) or all(isinstance(p, dict) for p in parameters)):
            bad = next(p for p in parameters if not isinstance(p, (Parameter, dict)))
            raise TypeError(f"For '{self.cls_name}', every element of '{what}' must be a Parameter (or every one "
                            f"a dict), but got {type(bad).__name__}.")
        if isinstance(parameters[0], Parameter):
            self._check_unique(parameters)
        return parameters

    def _check_unique(self, params):
        seen: dict[str, Any] = {}
        for p in params:
            if p.name == "Parameter" and not p._has_user_name:
                # MindSpore renames unnamed Parameters so that their state slots get distinct names.
                n = self.__dict__["_unnamed"] = self.__dict__.get("_unnamed", 0) + 1
                p.name = f"Parameter${n - 1}"
            if p.name in seen and seen[p.name] is not p:
                raise ValueError(f"For '{self.cls_name}', parameter names must be unique, but '{p.name}' appears "
                                 f"twice; give the Parameters distinct names.")
            seen[p.name] = p

    def _preprocess_lr(self, learning_rate):
        """float, a float32 scalar array, a float32 1-D array of per-step values, or a schedule Cell."""
        if isinstance(learning_rate, bool):
            raise TypeError(f"For '{self.cls_name}', 'learning_rate' must be a float, int, Tensor, list or "
                            f"LearningRateSchedule, but got bool.")
        if isinstance(learning_rate, (int, float, np.integer, np.floating)):
            if not np.isfinite(learning_rate):  # MindSpore's words
                raise ValueError(f"For '{self.cls_name}', the 'learning rate' must be a legal value, but got "
                                 f"'{float(learning_rate)}'.")
            if learning_rate < 0:
                raise ValueError(f"For '{self.cls_name}', 'learning_rate' must be >= 0, but got {learning_rate}.")
            return float(learning_rate)
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, (Tensor, np.ndarray)):
            arr = np.asarray(learning_rate.asnumpy() if isinstance(learning_rate, Tensor) else learning_rate,
                             np.float32)
            if arr.ndim > 1:
                raise ValueError(f"For '{self.cls_name}', a Tensor 'learning_rate' must be 0-D or 1-D, but got "
                                 f"shape {arr.shape}.")
            return _finite_rates(self.cls_name, arr)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, dict)):
            arr = np.asarray(list(learning_rate), np.float32)
            if arr.ndim != 1 or arr.size == 0:
                raise ValueError(f"For '{self.cls_name}', a list 'learning_rate' must be a non-empty flat list of "
                                 f"numbers, but got shape {arr.shape}.")
            return _finite_rates(self.cls_name, arr)
        raise TypeError(f"For '{self.cls_name}', 'learning_rate' must be a float, int, Tensor, list or "
                        f"LearningRateSchedule, but got {type(learning_rate).__name__}.")

    @staticmethod
    def _build_lr(lr, name):
        """A Parameter (fixed rate) or a schedule Cell (per-step list / LearningRateSchedule)."""
        if isinstance(lr, Cell):
            return lr
        if isinstance(lr, np.ndarray) and lr.ndim == 1:
            return _IteratorLearningRate(lr, name)
        return Parameter(Tensor(np.asarray(lr, np.float32)), name)

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, Cell):
            return weight_decay
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
            raise TypeError(f"For '{self.cls_name}', 'weight_decay' must be a float, int or Cell, but got "
                            f"{type(weight_decay).__name__}.")
        if not np.isfinite(weight_decay):  # MindSpore's words
            raise ValueError(f"For '{self.cls_name}', the 'weight_decay' must be a legal value, but got "
                             f"'{float(weight_decay)}'.")
        if weight_decay < 0:
            raise ValueError(f"For '{self.cls_name}', 'weight_decay' must be >= 0, but got {weight_decay}.")
        # Gradients arrive multiplied by loss_scale and are divided by it after decay: scale the decay to match.
        return float(weight_decay) * self.loss_scale

    def _parse_groups(self, groups, default_lr, default_wd):
        default: list[Any]
        params, lrs, wds, gcs, order, default = [], [], [], [], None, []
        for n, group in enumerate(groups):
            bad = [k for k in group if k not in _GROUP_KEYS]
            if bad:
                raise KeyError(f"For '{self.cls_name}', group {n} has unknown key(s) {bad}; the keys must be among "
                               f"{list(_GROUP_KEYS)}.")
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError(f"For '{self.cls_name}', the 'order_params' group must have no other key, "
                                     f"but got {list(group)}.")
                order = self._check_parameters(group["order_params"], "order_params")
                continue
            if "params" not in group:
                raise KeyError(f"For '{self.cls_name}', group {n} has no 'params' key.")
            members = self._check_parameters(group["params"], f"params (group {n})")
            if not all(isinstance(p, Parameter) for p in members):
                raise TypeError(f"For '{self.cls_name}', group {n}: 'params' must be a list of Parameters.")
            if "lr" in group:
                lr = self._build_lr(self._preprocess_lr(group["lr"]), f"learning_rate_group_{n}")
            else:
                if not default:
                    default.append(self._build_lr(default_lr, "learning_rate"))
                lr = default[0]
            wd = self._preprocess_weight_decay(group["weight_decay"]) if "weight_decay" in group else default_wd
            gc = group.get("grad_centralization", False)
            if not isinstance(gc, bool):
                raise TypeError(f"For '{self.cls_name}', group {n}: 'grad_centralization' must be a bool, but got "
                                f"{type(gc).__name__}.")
            params += members
            lrs += [lr] * len(members)
            wds += [wd] * len(members)
            gcs += [gc] * len(members)
        if not params:
            raise ValueError(f"For '{self.cls_name}', the parameter groups hold no 'params'.")
        names = [p.name for p in params]
        dup = next((nm for i, nm in enumerate(names) if nm in names[:i]), None)
        if dup is not None:
            raise RuntimeError(f"For '{self.cls_name}', the parameter '{dup}' is in more than one group.")
        if order is not None:
            index = {id(p): i for i, p in enumerate(params)}
            if len(order) != len(params) or any(id(p) not in index for p in order):
                raise ValueError(f"For '{self.cls_name}', 'order_params' must hold exactly the grouped parameters "
                                 f"({len(params)}), but got {len(order)} that do not match.")
            perm = [index[id(p)] for p in order]
            params, lrs, wds, gcs = ([seq[i] for i in perm] for seq in (params, lrs, wds, gcs))
        return params, lrs, wds, gcs

    # ---- MindSpore's helper API for constructs --------------------------------------------------------------
    def get_lr(self) -> Tensor | tuple[Tensor, ...]:
        """The learning rate for the current step (a Parameter, Tensor, or per-parameter tuple when groups set
        ``lr``). Like MindSpore, reading it does not advance ``global_step``: only an update does."""
        step = self.global_step._value
        if self.is_group_lr:
            return tuple(src if isinstance(src, Parameter) else wrap(_lr_value(src, step))
                         for src in self._lr_sources)
        src = self._lr_sources[0]
        return src if isinstance(src, Parameter) else wrap(_lr_value(src, step))

    def _advance_step(self):
        """``global_step += 1``: what MindSpore's optimizer constructs do right after ``get_lr()``."""
        self.global_step._set_value(self.global_step._value + 1)

    def _lr_per_param(self):
        """``get_lr()`` as one float32 scalar array per parameter, then ``global_step`` advances (one update)."""
        lr = self.get_lr()
        self._advance_step()
        lrs = lr if self.is_group_lr else (lr,) * self.param_length
        return [to_array(x).astype(jnp.float32).reshape(()) for x in lrs]

    def get_weight_decay(self) -> Any:
        """The (loss-scaled) weight decay for the current step: a float, Tensor, or per-parameter tuple."""
        step = self.global_step._value

        def value(wd):
            return wrap(to_array(wd(wrap(step))).astype(jnp.float32) * self.loss_scale) if isinstance(wd, Cell) else wd

        if self.is_group:
            return tuple(value(wd) for wd in self._wd_sources)
        return value(self.weight_decay)

    def get_lr_parameter(self, param: Parameter | list[Parameter]) -> Tensor | list[Tensor]:
        """The learning-rate Parameter (or schedule Cell) used for ``param`` (a Parameter or a list of them)."""
        params = [param] if isinstance(param, Parameter) else param
        if not isinstance(params, list):
            raise TypeError(f"For 'get_lr_parameter', 'param' must be a Parameter or a list of Parameters, but got "
                            f"{type(param).__name__}.")
        index = {id(p): i for i, p in enumerate(self._parameters)}
        out = []
        for p in params:
            if not isinstance(p, Parameter) or id(p) not in index:
                raise ValueError(f"For 'get_lr_parameter', {getattr(p, 'name', p)!r} is not a parameter of this "
                                 f"{self.cls_name}.")
            src = self._lr_sources[index[id(p)]]
            out.append(src.learning_rate if isinstance(src, _IteratorLearningRate) else src)
        return out if isinstance(param, list) else out[0]

    def flatten_gradients(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        """Parameters are never flattened here: returns ``gradients`` unchanged."""
        return gradients

    def decay_weight(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        """``grad + weight_decay * param`` for the parameters that decay."""
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        out = []
        for p, g, wd, flag in zip(self._parameters, gradients, wds, self.decay_flags):
            g = to_array(g)
            if flag and (isinstance(wd, Tensor) or wd > 0):
                g = g + p._value * to_array(wd).astype(p._value.dtype)
            out.append(wrap(g))
        return tuple(out)

    def gradients_centralization(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        """Centralize the gradients of the groups with ``grad_centralization=True``."""
        return tuple(wrap(_centralize(to_array(g)) if flag else to_array(g))
                     for g, flag in zip(gradients, self.grad_centralization_flags))

    def scale_grad(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        """Undo the loss scale: ``grad / loss_scale``."""
        if self.loss_scale == 1.0:
            return tuple(gradients)
        inv = np.float32(1.0 / self.loss_scale)
        return tuple(wrap(to_array(g) * inv.astype(to_array(g).dtype)) for g in gradients)

    def _gradients(self, gradients, decay=True, centralize=True, scale=True):
        """Check ``gradients`` against the parameters and apply decay / centralization / unscaling (arrays)."""
        if isinstance(gradients, (Tensor, np.ndarray)) or not isinstance(gradients, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the gradients must be a tuple of Tensors aligned with "
                            f"'parameters', but got {type(gradients).__name__}.")
        if len(gradients) != self.param_length:
            raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for {self.param_length} "
                             f"parameters.")
        grads: Any = []  # arrays, then the sequences the hooks below return
        for p, g in zip(self._parameters, gradients):
            g = to_array(g)
            if tuple(g.shape) != tuple(p.shape):
                raise ValueError(f"For '{self.cls_name}', the gradient of '{p.name}' has shape {tuple(g.shape)}, "
                                 f"but the parameter has shape {tuple(p.shape)}.")
            grads.append(g.astype(p._value.dtype))
        if decay:
            grads = self.decay_weight(grads)
        if centralize:
            grads = self.gradients_centralization(grads)
        if scale:
            grads = self.scale_grad(grads)
        return [to_array(g) for g in grads]

    def _clone_state(self, prefix, init="zeros"):
        """Per-parameter slots named ``<prefix>.<param name>``, same shapes and dtypes as the parameters."""
        return self._parameters.clone(prefix=prefix, init=init)

    @staticmethod
    def _assign(param, value):
        param._set_value(value.astype(param._value.dtype))

    @staticmethod
    def _success():
        return wrap(jnp.asarray(True))

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError(f"{self.cls_name} must define construct(gradients).")

    def extend_repr(self) -> str:
        return f"learning_rate={self.learning_rate!r}" if isinstance(self.learning_rate, Parameter) else ""
