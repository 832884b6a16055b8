"""``Parameter`` (a named, trainable Tensor whose value a stateless scope can swap) and ``ParameterTuple``."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import _scope
from .tensor import Tensor, copy_array, to_array

__all__ = ["Parameter", "ParameterTuple"]


class Parameter(Tensor):
    """A Tensor that belongs to a Cell: it has a name, may require grad, and is state of the pure function.

    Args:
        default_input: Tensor, NumPy array, number, or an initialised ``initializer(...)`` Tensor.
        name: the name; a Cell renames it to its dotted attribute path (``conv1.weight``).
        requires_grad: whether optimizers update it (``False`` for BatchNorm moving statistics).
    """

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True, storage_format: str = "",
                 device: str | None = None) -> None:
        if isinstance(default_input, Tensor):
            default_input = default_input.init_data()
            # Own the buffer: compiled steps donate Parameter buffers, which must not be shared.
            default_input = copy_array(default_input._value)
        Tensor.__init__(self, default_input)
        self.name = name if name is not None else "Parameter"
        self._has_user_name = name is not None
        self.requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self.sharding: Any = None  # set by Cell.shard / parallel layouts

    @property
    def _value(self):
        if _scope._stack:
            v = _scope._stack[-1].lookup(self)
            if v is not None:
                return v
        return self._data

    def _set_value(self, value):
        scope = _scope.current()
        if scope is not None:
            scope.assign(self, value)
        else:
            self._data = value

    @property
    def data(self) -> Tensor:
        """The Parameter itself (settable like Tensor.data, so typed as the Tensor property it overrides)."""
        return self

    @data.setter
    def data(self, new: Any) -> None:
        """``p.data = value`` is ``p.set_data(value)`` (cast to the Parameter's dtype), as in MindSpore."""
        self.set_data(new)

    def value(self) -> Tensor:
        """The current value as a plain Tensor."""
        from .tensor import wrap
        v = self._value
        # A copy, since compiled steps donate (and so invalidate) the Parameter's own buffer.
        return wrap(copy_array(v) if isinstance(v, jax.Array) else v)

    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the value (cast to this Parameter's dtype); inside a compiled step it records an update."""
        arr = to_array(data)
        if isinstance(data, Tensor) and arr is data._value and isinstance(arr, jax.Array):
            arr = copy_array(arr)  # own the buffer: compiled steps donate Parameter buffers
        if not slice_shape and tuple(arr.shape) != tuple(self.shape) and self._data is not None:
            if arr.size != self.size or arr.ndim:
                raise ValueError(f"Parameter '{self.name}'.set_data: shape {tuple(arr.shape)} does not match the "
                                 f"parameter's shape {tuple(self.shape)}.")
            arr = jnp.reshape(arr, self.shape)
        if self._data is not None and arr.dtype != self._value.dtype:
            arr = arr.astype(self._value.dtype)
        self._set_value(arr)
        return self

    def assign_value(self, value: Any) -> Parameter:
        return self.set_data(value)

    def clone(self, init: Any = "same") -> Parameter:
        """A copy with the same name, value and flags (``init='same'``) or re-initialised values."""
        if init == "same":
            data = Tensor(np.array(self.asnumpy()))
        else:
            from .initializer import initializer
            data = initializer(init, self.shape, self.dtype)
        return Parameter(data, self.name, self.requires_grad)

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __reduce__(self):
        return (_rebuild, (self.asnumpy(), self.name, self.requires_grad))


def _rebuild(array, name, requires_grad):
    return Parameter(Tensor(array), name, requires_grad)


class ParameterTuple(tuple):
    """A tuple of Parameters (what ``optimizer.parameters`` and ``GradOperation(get_by_list=True)`` take)."""

    def __new__(cls, iterable: Iterable[Parameter]) -> ParameterTuple:
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: every element must be a Parameter, but got {type(p).__name__}.")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: Any = "same") -> ParameterTuple:
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)


def _flatten(p):
    return (p._value,), None


def _unflatten_as_tensor(_, children):
    from .tensor import _unflatten
    return _unflatten(None, children)


jax.tree_util.register_pytree_node(Parameter, _flatten, _unflatten_as_tensor)
# A ParameterTuple returned from a compiled function comes back as a tuple of Tensors.
def _unflatten_as_tuple(_: None, children: Iterable[Any]) -> Any:
    return tuple(children)


jax.tree_util.register_pytree_node(ParameterTuple, lambda t: (tuple(t), None), _unflatten_as_tuple)
