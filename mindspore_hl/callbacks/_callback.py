"""``Callback``, ``RunContext``, the callback parameter dict and the manager that dispatches hooks.

MindSpore 2.x has twelve hooks (``on_train_*`` / ``on_eval_*``, each ``begin``, ``epoch_begin``,
``step_begin``, ``step_end``, ``epoch_end``, ``end``). The six legacy hooks (``begin``, ``epoch_begin``, ...)
are what the new ones call by default, so a callback that only overrides ``step_end`` runs at every
train *and* eval step, exactly as in MindSpore.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from typing import Any

import numpy as np

__all__ = ["Callback", "RunContext", "CallbackParam", "CallbackManager", "handle_loss", "HOOKS"]

_log = logging.getLogger(__name__)

_STAGES = ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end")
HOOKS = tuple(f"on_{phase}_{stage}" for phase in ("train", "eval") for stage in _STAGES)
_STEP_HOOKS = ("step_begin", "step_end", "on_train_step_begin", "on_train_step_end")


class Callback:
    """Base class of training / evaluation callbacks; override the hooks you need.

    Callbacks are context managers: ``Model`` enters them when training starts and exits them at the end.
    Every hook takes a :class:`RunContext`; ``run_context.original_args()`` is the callback parameter dict
    (``cb_params``) with ``cur_epoch_num``, ``cur_step_num``, ``net_outputs``, ``train_network`` and so on.

    Example:
        >>> class PrintStep(Callback):
        ...     def on_train_step_end(self, run_context: RunContext) -> None:
        ...         print("step", run_context.original_args().cur_step_num)
    """

    def __enter__(self) -> Callback:
        return self

    def __exit__(self, *err: object) -> bool | None:
        return None

    # legacy hooks: the new hooks call these by default (both train and eval)
    def begin(self, run_context: RunContext) -> None:
        """Called once before training / evaluation (legacy alias of on_train_begin / on_eval_begin)."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Called before each epoch (legacy)."""

    def epoch_end(self, run_context: RunContext) -> None:
        """Called after each epoch (legacy)."""

    def step_begin(self, run_context: RunContext) -> None:
        """Called before each step (legacy)."""

    def step_end(self, run_context: RunContext) -> None:
        """Called after each step (legacy)."""

    def end(self, run_context: RunContext) -> None:
        """Called once after training / evaluation (legacy)."""

    def on_train_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        self.end(run_context)

    def _needs_param_sync_each_step(self) -> bool:
        """Whether Model must write the Parameters back after every step for this callback.

        Built-in callbacks reach the network only through cb_params (reading ``network`` /
        ``train_network`` brings the Parameters up to date); a user callback with a step hook might read
        Parameters it holds directly, so for it Model keeps them current after every step.
        """
        cls = type(self)
        if cls.__module__.startswith("mindspore_hl."):
            return False
        return any(getattr(cls, h) is not getattr(Callback, h) for h in _STEP_HOOKS)


class _Missing(AttributeError, KeyError):
    """A missing cb_params field: an AttributeError (so ``hasattr`` works) and a KeyError (as in MindSpore)."""


class CallbackParam(dict[str, Any]):
    """The callback parameter dict (MindSpore's ``InternalCallbackParam``): key and attribute access.

    Reading ``network``, ``train_network``, ``eval_network`` or ``optimizer`` first writes the training
    state back into the Parameters, so a callback always sees (and may change) current values. Besides
    MindSpore's fields, ``model`` is the running ``Model``, for callbacks that need it (its ``metric_names``,
    ``train_step_graph``).
    """

    _SYNC_KEYS = frozenset(("network", "train_network", "eval_network", "optimizer"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_sync_hook", None)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError:
            raise _Missing(f"cb_params has no field {key!r}; available: {sorted(self)}") from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __getitem__(self, key: str) -> Any:
        if key in self._SYNC_KEYS and self._sync_hook is not None:
            self._sync_hook()
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self else default

    def set_sync_hook(self, hook: Callable[[], object] | None) -> None:
        """``hook()`` is called before a network / optimizer field is read (Model's lazy write-back)."""
        object.__setattr__(self, "_sync_hook", hook)


class RunContext:
    """Holds the callback parameters and the stop request of a train / eval run.

    Args:
        original_args (dict): the callback parameters.
    """

    def __init__(self, original_args: dict[str, Any]) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> Any:
        """The callback parameter dict (``cb_params``)."""
        return self._original_args

    def request_stop(self) -> None:
        """Ask Model to stop after the current step (train) / batch (eval)."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        """Whether a stop has been requested."""
        return self._stop_requested


def _hook_caller(name: str) -> Callable[[CallbackManager, RunContext], None]:
    def call(self: CallbackManager, run_context: RunContext) -> None:
        for cb in self._callbacks:
            getattr(cb, name)(run_context)
    call.__name__ = name
    call.__doc__ = f"Call ``{name}`` on every callback, in order."
    return call


class CallbackManager(Callback):
    """Runs a list of callbacks in order; entering it enters every callback.

    Args:
        callbacks: None, a Callback, or a list of Callbacks.
    """

    def __init__(self, callbacks: Callback | Iterable[Callback] | None) -> None:
        self._callbacks: list[Callback] = []
        self._stack: ExitStack | None = None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError(f"When the 'callbacks' is a list, the elements in 'callbacks' must be Callback "
                                    f"functions, but got {type(cb).__name__}.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError(f"The 'callbacks' is not a Callback or a list of Callback, but got "
                            f"{type(callbacks).__name__}.")

    @property
    def callbacks(self) -> list[Callback]:
        return list(self._callbacks)

    def __enter__(self) -> CallbackManager:
        if self._stack is None:
            entered: list[Callback] = []
            self._stack = ExitStack().__enter__()
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                if not isinstance(target, Callback):
                    _log.warning("Callback %s.__enter__ should return self or a Callback.", type(cb).__name__)
                    target = cb
                entered.append(target)
            self._callbacks = entered
        return self

    def __exit__(self, *err: Any) -> bool | None:
        stack, self._stack = self._stack, None
        return stack.__exit__(*err) if stack is not None else None

    def needs_param_sync_each_step(self) -> bool:
        return any(cb._needs_param_sync_each_step() for cb in self._callbacks)


for _name in HOOKS + _STAGES:
    setattr(CallbackManager, _name, _hook_caller(_name))


def handle_loss(loss: Any) -> Any:
    """MindSpore's ``_handle_loss``: a Tensor loss -> Python float (its mean); a tuple -> its first Tensor."""
    from ..common.tensor import Tensor
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            loss = loss[0]
    elif isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
