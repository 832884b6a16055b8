"""The op table: one functional implementation per operation, looked up by name.

Every public functional op of ``mindspore_hl.ops`` is registered here when the package is imported, under its
``ops`` name. Tensor methods, Primitive classes and the ``mint`` / ``numpy`` namespaces reach the computation
through this table instead of re-implementing it, so there is one implementation and one dtype rule (the
``@op`` decorator's: Float64 out only for Float64 in).

API (for ``mindspore_hl.mint``, ``mindspore_hl.numpy`` and other front ends):

- ``lookup(name)`` -> the functional op (``lookup("sinh")(x)`` is ``ops.sinh(x)``); AttributeError if absent.
- ``register(name, fn)`` -> add or replace an implementation (a front end registering an op of its own).
- ``registered()`` -> every registered name.
- ``method(name)`` / ``inplace_method(name)`` -> a Tensor-method function delegating to ``lookup(name)``.

>>> import mindspore_hl as ms
>>> from mindspore_hl.ops import _registry
>>> _registry.lookup("sinh") is ms.ops.sinh
True
"""
from __future__ import annotations

import inspect
from typing import Any, Iterable, Mapping

from ..common._tensor_registry import inplace_method, install_methods, lookup, method, register, registered

__all__ = ["lookup", "register", "registered", "method", "inplace_method", "register_namespace"]


def register_namespace(namespace: Mapping[str, Any], names: Iterable[str]) -> int:
    """Register ``namespace[name]`` for each listed name that is a function (not a class); returns the count."""
    n = 0
    for name in names:
        fn = namespace.get(name)
        if callable(fn) and not inspect.isclass(fn):
            register(name, fn)
            n += 1
    install_methods()  # the Tensor methods whose ops are now registered
    return n
