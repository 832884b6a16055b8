"""``Dataset.recv``: MindSpore's dataset communication reads rows from a rank's dataset. Rows of this process's
own rank are its next row; mindspore_hl has no point-to-point channel between processes, so another rank is
refused with an error naming it (and ``send``, which only ever writes to another rank, is not provided)."""
from __future__ import annotations

import numbers
from typing import Any

from ..communication._management import GlobalComm, get_rank

__all__ = ["recv"]


def _flatten_single_lists(nested: Any) -> Any:
    """MindSpore's unwrapping of one-element lists, applied to the received rows."""
    if not isinstance(nested, list):
        return nested
    if len(nested) == 1 and isinstance(nested[0], list):
        return _flatten_single_lists(nested[0])
    return [_flatten_single_lists(item) for item in nested]


def _check_rank(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= 0xFFFFFFFF:
        raise ValueError(f"recv: {what} must be an int in [0, 4294967295], but got {value!r}")
    return int(value)


def _next_row(dataset: Any) -> Any:
    """The next row, going on into the next epoch at an epoch's end (MindSpore's iterator does the same)."""
    for _ in range(2):
        try:
            return next(dataset._recv_iter)
        except StopIteration:
            continue
    raise RuntimeError(f"recv: {type(dataset).__name__} produced no rows in a whole epoch, so there is nothing to "
                       f"receive")


def recv(dataset: Any, src: int | list[int] = 0, group: str | None = None) -> Any:
    """The next row of ``dataset`` for each rank in ``src`` (one Tensor for a one-column row)."""
    if not isinstance(src, (int, list)) or isinstance(src, bool):
        raise TypeError(f"recv: src must be an int or a list of int, but got {type(src).__name__}")
    ranks = [_check_rank(r, "element of src") for r in src] if isinstance(src, list) else [_check_rank(src, "src")]
    if group is not None and not isinstance(group, str):
        raise TypeError(f"recv: group must be a str, but got {type(group).__name__}")
    own = get_rank() if GlobalComm.INITED else 0
    rows = []
    for rank in ranks:
        if rank != own:
            raise RuntimeError(f"recv: src rank {rank} is another process (this is rank {own}); mindspore_hl has "
                               f"no point-to-point transfer between processes, so only src={own} can be read")
        if dataset._recv_iter is None:
            dataset._recv_iter = dataset.create_tuple_iterator()
        rows.append(_next_row(dataset))
    out = _flatten_single_lists(rows)
    return out[0] if len(out) == 1 else out
