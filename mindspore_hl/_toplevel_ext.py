"""Top-level ``mindspore`` graph-compilation decorators and the auto-parallel algorithm parameters.

``no_inline`` / ``lazy_inline`` mark functions and Cells the way MindSpore does (``fn.no_inline``,
``cell.cell_init_args``); XLA decides inlining itself, so the marks change no result, as in MindSpore, where they
only change how the graph is compiled. ``set_algo_parameters`` / ``get_algo_parameters`` /
``reset_algo_parameters`` keep, validate and return the strategy-search parameters with MindSpore's checks,
messages and defaults.
"""
from __future__ import annotations

import inspect
import logging
from functools import wraps
from typing import Any, Callable

import numpy as np

from ._engine import _state

__all__ = ["no_inline", "lazy_inline", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

_logger = logging.getLogger(__name__)


def no_inline(fn: Callable | None = None) -> Callable:
    """Mark a function as a reusable subgraph that is not inlined (sets ``fn.no_inline = True``; returns ``fn``).

    >>> @no_inline
    ... def f(x):
    ...     return x * 3 + 2
    >>> f.no_inline, f(1)
    (True, 5)
    """
    def no_inline_wrap(fn: Callable) -> Callable:
        fn.no_inline = True  # type: ignore[attr-defined]
        return fn
    if fn is not None:
        return no_inline_wrap(fn)
    return no_inline_wrap


def _warn_construct_defaults(fn: Callable, cell: Any) -> None:
    """MindSpore's one-time note that a lazy-inline Cell's construct should not have default arguments."""
    if hasattr(fn, "has_tips_"):
        return
    construct = getattr(cell, "construct", None)
    if construct is None:
        _logger.warning("The %s must be a cell and must has a construct function.", type(cell).__name__)
        fn.has_tips_ = True  # type: ignore[attr-defined]
        return
    defaults = [n for n, p in inspect.signature(construct).parameters.items() if p.default is not p.empty]
    if defaults:
        _logger.info("The function construct's parameters: %s must be key word or positional arguments and can't "
                     "have default values.", ", ".join(defaults))
        fn.has_tips_ = True  # type: ignore[attr-defined]


def lazy_inline(fn: Callable | None = None, attrs: list[str] | str | None = None,
                policy: str | None = None) -> Callable:
    """Decorate a Cell's ``__init__`` to make it a reusable (not inlined) subgraph.

    After ``__init__`` runs, the Cell gets ``cell_init_args = "lazy_inline_<Class>" + str(args)`` where ``args``
    are the ``__init__`` arguments (``attrs=None``) or the values of the named attributes; ``policy='front'``
    also sets ``no_inline = False``.

    >>> import mindspore_hl as ms
    >>> class Block(ms.nn.Cell):
    ...     @lazy_inline
    ...     def __init__(self, width, scale=2):
    ...         super().__init__()
    ...         self.dense = ms.nn.Dense(width, width)
    ...     def construct(self, x):
    ...         return self.dense(x)
    >>> Block(4).cell_init_args
    'lazy_inline_Blockdict_values([4])'
    """
    def lazy_inline_wrap(fn: Callable) -> Callable:
        if inspect.isclass(fn):
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the class {fn.__name__}. "
                             f"File: {inspect.getfile(fn)}")
        if fn.__name__ != "__init__":
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the function: "
                             f"{fn.__name__}. line: {fn.__code__.co_firstlineno} in {fn.__code__.co_filename}")

        @wraps(fn)
        def lazy_inline_deco(self, *args, **kwargs):
            _warn_construct_defaults(fn, self)
            new_args: Any = []
            if attrs is None:
                bound = inspect.signature(fn).bind(self, *args, **kwargs).arguments
                del bound["self"]
                new_args = bound.values()
            fn(self, *args, **kwargs)
            if isinstance(policy, str) and policy == "front":
                self.no_inline = False
            elif policy is not None:
                raise ValueError("policy must be None or 'front'")
            if attrs is not None:
                if isinstance(attrs, list):
                    for attr in attrs:
                        if not isinstance(attr, str):
                            raise ValueError("attr must be a string")
                        if hasattr(self, attr):
                            new_args.append(getattr(self, attr))
                elif isinstance(attrs, str):
                    if hasattr(self, attrs):
                        new_args = getattr(self, attrs)
                else:
                    raise ValueError("attrs must be list or string")
            # Cell.cell_init_args is read-only here; MindSpore's setter stores the string in _cell_init_args.
            self.__dict__["_cell_init_args"] = "lazy_inline_" + type(self).__name__ + str(new_args)

        return lazy_inline_deco

    if fn is not None:
        return lazy_inline_wrap(fn)
    return lazy_inline_wrap


# Recorded and returned, as the parallel context's "recorded" keys: this project's AUTO_PARALLEL search
# (``_engine._auto``) ranks layouts by XLA's own cost analysis and does not read them. Reset with every other
# global setting (``_engine._state.reset``).
_ALGO_DEFAULTS: dict[str, Any] = {
    "fully_use_devices": False,
    "elementwise_op_strategy_follow": False,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": float(np.float32(0.1)),  # MindSpore's default is a C++ float; set values are kept
    "tensor_slice_align_enable": False,
    "tensor_slice_align_size": 16,
}
_ALGO_TYPES: dict[str, type] = {k: type(v) for k, v in _ALGO_DEFAULTS.items()}
_algo = dict(_ALGO_DEFAULTS)


def set_algo_parameters(**kwargs: Any) -> None:
    """Set parameters of the parallel strategy search (keys as ``get_algo_parameters``), validated as MindSpore.

    >>> set_algo_parameters(fully_use_devices=True, tensor_slice_align_size=32)
    >>> get_algo_parameters("tensor_slice_align_size")
    32
    >>> reset_algo_parameters()
    """
    for key, value in kwargs.items():
        want = _ALGO_TYPES.get(key)
        if want is not None and not isinstance(value, want):
            raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
    for key, value in kwargs.items():
        if key not in _ALGO_DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon":
            if not 0 < value <= 1:
                raise RuntimeError("'epsilon' must be in (0, 1]")
        _algo[key] = value


def get_algo_parameters(attr_key: str) -> Any:
    """The value of one strategy-search parameter: ``fully_use_devices``, ``elementwise_op_strategy_follow``,
    ``enable_algo_approxi``, ``algo_approxi_epsilon``, ``tensor_slice_align_enable`` or ``tensor_slice_align_size``.

    >>> get_algo_parameters("fully_use_devices")
    False
    """
    if attr_key not in _algo:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _algo[attr_key]


@_state.on_reset
def reset_algo_parameters() -> None:
    """Restore every strategy-search parameter to its default."""
    _algo.clear()
    _algo.update(_ALGO_DEFAULTS)
