"""``ms.mutable``: mark a Python value as a variable (not a compile-time constant) input of a compiled function."""

from typing import Any

__all__ = ["mutable"]


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """Return ``input_data`` unchanged.

    MindSpore needs this hint so that a tuple/list/scalar passed to a GRAPH_MODE Cell does not get folded into
    the graph. Here Tensors (also inside tuples and lists) are always variable inputs of compiled functions,
    so no marking is needed; the call exists so that MindSpore code runs unchanged.
    """
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', 'dynamic_len' must be a bool, but got {type(dynamic_len).__name__}.")
    return input_data
