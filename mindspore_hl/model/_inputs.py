"""Model's check that a dataset's columns fit the network they feed, before anything is compiled.

MindSpore checks per step that a dataset feeding ``WithLossCell`` has two columns ("When 'loss_fn' is not None,
'train_dataset' should return two elements, but got 3"); this check runs once, names the columns and says
what the network's ``construct`` takes.
"""
from __future__ import annotations

import inspect
from typing import Any

from ._data import DataSource, as_columns

__all__ = ["check_columns"]


def _columns(source):
    """(number of columns, their names or None) of the dataset behind ``source``; (None, None) if unknown."""
    dataset = source.dataset
    if source.is_ms and hasattr(dataset, "get_col_names"):
        names = list(dataset.get_col_names())
        return len(names), names
    for element in dataset:  # a re-iterable of batches: the first one tells
        keys = list(element) if isinstance(element, dict) else None
        return len(as_columns(element, source.name)), keys
    return None, None


def _arity(cell):
    """(required, maximum or None for *args, parameter names) of ``cell.construct``'s positional inputs."""
    try:
        params = list(inspect.signature(cell.construct).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(1 for p in positional if p.default is p.empty)
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    names = [p.name for p in positional] + [f"*{p.name}" for p in params if p.kind == p.VAR_POSITIONAL]
    return required, None if variadic else len(positional), names


def _describe(n, names, what):
    shown = f" {names}" if names else ""
    return f"the {what} gives {n} column{'s' if n != 1 else ''}{shown} per batch"


def check_columns(api: str, source: DataSource, network: Any, loss_fn: Any, what: str = "train_dataset",
                  wrapper: str = "WithLossCell") -> None:
    """Raise ValueError when ``source``'s columns cannot be the inputs of the network Model builds.

    Args:
        api: 'train', 'fit' or 'eval' (for the message).
        source: the DataSource.
        network: the user's network (its ``construct`` takes the columns when ``loss_fn`` is None).
        loss_fn: the loss Cell, or None.
        what: the argument name, for the message.
        wrapper: the Cell that takes (data, label) when ``loss_fn`` is set ('WithLossCell' / 'WithEvalCell').
    """
    n, names = _columns(source)
    if n is None:
        return
    cls = type(network).__name__
    if loss_fn is not None:
        if n != 2:
            first = f"'{names[0]}'" if names else "the first column"
            raise ValueError(
                f"For 'Model.{api}', {_describe(n, names, what)}, but with 'loss_fn' set the network is called as "
                f"{wrapper}(network, loss_fn)(data, label), which takes 2: {first} would go to "
                f"{cls}.construct and the second column to {type(loss_fn).__name__}. When 'loss_fn' is not None, "
                f"'{what}' should return two elements (data, label), but got {n}; drop the extra columns "
                f"(dataset.project([...])) or pass loss_fn=None with a network whose construct takes them all.")
        return
    arity = _arity(network)
    if arity is None:
        return
    required, maximum, params = arity
    if n < required or (maximum is not None and n > maximum):
        takes = f"{required}" if maximum == required else (
            f"{required} to {maximum}" if maximum is not None else f"at least {required}")
        raise ValueError(
            f"For 'Model.{api}', {_describe(n, names, what)}, but {cls}.construct({', '.join(params)}) takes "
            f"{takes} input{'s' if maximum != 1 else ''}: with loss_fn=None every column is passed to the "
            f"network, in order.")
