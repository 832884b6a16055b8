"""The one table from an operation's name to its functional implementation (MindSpore's registry pattern).

MindSpore's ``Tensor`` methods look their functional op up in ``tensor_operator_registry``; so do ours.
The table lives at the bottom of the import graph (here, beside Tensor) and is *filled* from above:
``mindspore_hl.ops`` registers every public functional op when it is imported, so ``Tensor.sinh`` reaches
``ops.sinh`` by name without ``common`` importing ``ops``. Lookups happen at call time.

One dtype rule for everything routed through the table: the functional op's own (``ops._core.op``):
results keep the dtype the op computes, except that Float64 appears only if an input was Float64
(JAX's x64 mode would otherwise widen ints and Python floats to Float64 where MindSpore gives Float32).
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["register", "lookup", "registered", "method", "inplace_method", "defer_methods", "install_methods"]

_TABLE: dict[str, Callable[..., Any]] = {}
_PENDING: list[tuple[type, str, str, bool]] = []


def register(name: str, fn: Callable[..., Any], *, replace: bool = True) -> None:
    """Make ``fn`` the implementation of operation ``name`` (``replace=False`` keeps an existing entry)."""
    if not callable(fn):
        raise TypeError(f"register: the implementation of {name!r} must be callable, but got {type(fn).__name__}.")
    if replace or name not in _TABLE:
        _TABLE[name] = fn


def lookup(name: str) -> Callable[..., Any]:
    """The functional implementation of operation ``name``; a clear error when none is registered."""
    try:
        return _TABLE[name]
    except KeyError:
        raise AttributeError(f"The operation {name!r} has no functional implementation registered "
                             f"(mindspore_hl.ops is not imported, or {name!r} is not provided yet).") from None


def registered() -> list[str]:
    """Every registered operation name, sorted."""
    return sorted(_TABLE)


def method(op_name: str, doc: str | None = None) -> Callable[..., Any]:
    """A Tensor method ``t.name(*args, **kwargs)`` that calls ``ops.<op_name>(t, *args, **kwargs)``."""
    def fn(self, *args, **kwargs):
        return lookup(op_name)(self, *args, **kwargs)
    fn.__name__ = op_name
    fn.__doc__ = doc or f"``Tensor.{op_name}(...)`` is ``ops.{op_name}(self, ...)``."
    fn._op_name = op_name  # type: ignore[attr-defined]  # marks the op a method delegates to
    return fn


def inplace_method(op_name: str) -> Callable[..., Any]:
    """An in-place Tensor method ``t.name_(...)``: computes ``ops.<op_name>(t, ...)``, stores it in ``t``,
    returns ``t``.

    The result is cast back to the Tensor's dtype (in-place ops never change a Tensor's dtype).
    """
    def fn(self, *args, **kwargs):
        out = lookup(op_name)(self, *args, **kwargs)
        self._set_value(out._value.astype(self._value.dtype))
        return self
    fn.__name__ = op_name + "_"
    fn.__doc__ = f"In-place ``Tensor.{op_name}``: ``self`` becomes ``ops.{op_name}(self, ...)``; returns ``self``."
    fn._op_name = op_name  # type: ignore[attr-defined]  # marks the op a method delegates to
    return fn


def defer_methods(cls: type, mapping: dict[str, str], *, inplace: bool = False) -> None:
    """Give ``cls`` the methods ``{method_name: op_name}`` once ``install_methods`` runs (ops registered).

    Only methods whose op is registered by then are installed, so a method exists exactly when it works;
    methods the class defines itself are kept.
    """
    _PENDING.extend((cls, name, op_name, inplace) for name, op_name in mapping.items())


def install_methods() -> list[str]:
    """Install the deferred methods whose op is registered; returns the names of those still lacking an op."""
    lacking = []
    for cls, name, op_name, inplace in _PENDING:
        if name in cls.__dict__:
            continue
        if op_name not in _TABLE:
            lacking.append(name)
            continue
        setattr(cls, name, (inplace_method if inplace else method)(op_name))
    return lacking
