"""``Tensor``: MindSpore's tensor, a thin shell over a ``jax.Array`` (or a tracer while compiling)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._engine._state import trace as _TRACE
from . import _tensor_methods
from . import dtype as mstype
from ._device_arrays import copy_array, to_device
from ._format import describe, guard_f64, is_f64, tensor_repr  # noqa: F401  (re-exported)
from ._symbol import DynamicShape, dynamic_description
from ._tensor_math import TensorMathMethods
from ._tensor_methods import TensorMethods
from ._tensor_methods_ext import TensorExtMethods
from ._tensor_registry import lookup

__all__ = ["Tensor", "to_array", "to_device", "copy_array", "wrap", "is_tensor"]

_F64 = np.dtype(np.float64)
_ARRAY_TYPES = (jax.Array, jax.core.Tracer)


def _infer_python(data):
    """MindSpore's default dtypes for Python data: int -> Int64, float -> Float32, bool -> Bool."""
    try:
        arr = np.asarray(data)
    except ValueError as e:  # ragged nested lists
        raise ValueError(f"Tensor: cannot build a tensor from {type(data).__name__} {data!r:.80}: {e}") from None
    kind = arr.dtype.kind
    if kind == "f" and arr.dtype == _F64:
        return arr.astype(np.float32)
    if kind in "iu" and arr.dtype != np.int64:
        return arr.astype(np.int64)
    if kind == "c" and arr.dtype == np.complex128:
        return arr.astype(np.complex64)
    if kind in "USO":
        raise TypeError(f"Tensor: input_data must be a number, bool, list, tuple, NumPy array or Tensor, but got "
                        f"{type(data).__name__} {data!r:.80}.")
    return arr


def to_array(data: Any, dtype: Any = None) -> Any:
    """Convert Tensor / array / NumPy / Python data to a JAX array with MindSpore's default dtypes."""
    if isinstance(data, Tensor):
        arr = data._value
    elif isinstance(data, _ARRAY_TYPES):
        arr = data
    elif isinstance(data, (np.ndarray, np.generic)):
        arr = np.asarray(data)
        if arr.dtype.kind in "USO":
            raise TypeError(f"Tensor: NumPy arrays of dtype {arr.dtype} cannot become tensors.")
    elif isinstance(data, (list, tuple)) and any(isinstance(d, (Tensor,) + _ARRAY_TYPES) for d in data):
        arr = jnp.stack([to_array(d) for d in data])
    else:
        arr = _infer_python(data)
    if dtype is not None:
        np_dt = mstype.to_ms_dtype(dtype).to_numpy()
        if np_dt is None:
            raise TypeError(f"Tensor: dtype {dtype} cannot hold tensor data.")
        if arr.dtype != np_dt:
            arr = arr.astype(np_dt)
    return to_device(arr) if isinstance(arr, np.ndarray) else arr


def wrap(x: Any) -> Any:
    """Wrap arrays (and tuples/lists of them) into Tensors; leave other values alone."""
    if isinstance(x, _ARRAY_TYPES):
        t = Tensor.__new__(Tensor)
        t._data = x
        t._init = None
        return t
    if isinstance(x, tuple):
        return tuple(wrap(v) for v in x)
    if isinstance(x, list):
        return [wrap(v) for v in x]
    return x


def is_tensor(obj: object) -> bool:
    """True if ``obj`` is a Tensor (or Parameter)."""
    return isinstance(obj, Tensor)


def _operand(x):
    """An operator's other operand as an array or weakly typed Python scalar."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, np.generic):
        return x.item()  # NumPy scalars behave like Python scalars (they do not widen the tensor's dtype)
    if isinstance(x, (list, tuple)):
        return to_array(x)
    return x


_tensor_methods.provide(wrap=wrap, operand=_operand, to_array=to_array)


# While an exporter records a network op by op (MindIR), arithmetic operators go through their ops so that
# the recording sees them; otherwise they compute directly.
_RECORDED_OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "matmul": "matmul",
                       "pow": "pow"}


def _binary(fn, name, reflected=False):
    def method(self, other):
        if not isinstance(other, _OK_OPERANDS):
            return NotImplemented
        if _TRACE.op_observer is not None and name in _RECORDED_OPERATORS:
            return lookup(_RECORDED_OPERATORS[name])(*((other, self) if reflected else (self, other)))
        a, b = self._value, _operand(other)
        if reflected:
            a, b = b, a
        try:
            out = fn(a, b)
        except (TypeError, ValueError) as e:
            if getattr(e, "_names_op", False):
                raise
            left, right = (other, self) if reflected else (self, other)
            if "shape" in str(e):
                raise ValueError(f"For '{name}', the shapes of the two inputs cannot be broadcast together: "
                                 f"{describe(left)} and {describe(right)}.") from None
            raise TypeError(f"For '{name}', unsupported operand types: {describe(left)} and {describe(right)} "
                            f"({e}).") from None
        return wrap(guard_f64(out, a, b))
    method.__name__ = ("__r%s__" if reflected else "__%s__") % name
    return method


# Implementations that live in higher layers, registered by them at import (imports run one way: ops and
# initializer import this module, never the reverse): "matmul_check" validates ``a @ b`` with ops.matmul's
# messages (ops._linalg.check_matmul), "initializer" materialises a lazily initialised Tensor.
_REGISTERED: dict[str, Callable[..., Any]] = {}


def register(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give Tensor the higher layer's implementation ``fn`` of ``name`` ('matmul_check', 'initializer')."""
    _REGISTERED[name] = fn
    return fn


def _matmul(a, b):
    check = _REGISTERED.get("matmul_check")
    if check is not None:
        check("matmul", a, b)
    return jnp.matmul(a, b)


def _truediv(a, b):
    return jnp.true_divide(a, b)


class Tensor(TensorMethods, TensorMathMethods, TensorExtMethods):
    """MindSpore's Tensor.

    Args:
        input_data: list, tuple, NumPy array, Python scalar or Tensor. Python ints become Int64 and
            Python floats Float32 (MindSpore's defaults); NumPy arrays keep their dtype.
        dtype: a ``mindspore_hl`` dtype (``ms.float32``) or NumPy dtype to cast to.
        shape, init: lazy construction, ``Tensor(shape=(2, 2), dtype=ms.float32, init=One())``.

    Example:
        >>> t = Tensor([[1, 2], [3, 4]], ms.float32) + 1
        >>> t.shape, t.dtype, t.asnumpy().tolist()
        ((2, 2), mindspore.float32, [[2.0, 3.0], [4.0, 5.0]])
    """

    __array_priority__ = 100
    _data: Any  # a jax.Array, a tracer while compiling, or None while lazily initialised

    def __init__(self, input_data: Any = None, dtype: Any = None,
                 shape: int | tuple[int, ...] | list[int] | None = None, init: Any = None, const_arg: bool = False,
                 device: str | None = None, internal: bool = False) -> None:
        self._init: tuple[Any, tuple[int, ...], mstype.Type] | None = None
        if const_arg:
            self._const_arg = True  # read by the ``const_arg`` property (False when unset)
        if init is not None:
            if shape is None or dtype is None:
                raise ValueError("Tensor: lazy initialisation with 'init' needs both 'shape' and 'dtype'.")
            self._init = (init, (shape,) if isinstance(shape, int) else tuple(shape), mstype.to_ms_dtype(dtype))
            self._data = None
            return
        if input_data is None:
            dynamic = dynamic_description(shape, dtype, init)  # Tensor(shape=[None, 3], dtype=...): set_inputs / jit
            if dynamic is not None:
                self._init, self._data = (dynamic, dynamic.shape, mstype.to_ms_dtype(dtype)), None
                return
            if shape is not None and dtype is not None:
                shape = (shape,) if isinstance(shape, int) else tuple(shape)
                self._data = jnp.zeros(shape, mstype.to_ms_dtype(dtype).to_numpy())
                return
            raise TypeError("Tensor: 'input_data' is required (or 'shape', 'dtype' and 'init').")
        self._data = to_array(input_data, dtype)
        if isinstance(input_data, Tensor) and type(input_data) is not Tensor and self._data is input_data._value \
                and isinstance(self._data, jax.Array):
            # A Tensor made from a Parameter owns its buffer: compiled steps donate Parameter buffers.
            self._data = copy_array(self._data)

    # ---- value access -------------------------------------------------------------------------
    @property
    def _value(self):
        if self._data is None:
            self.init_data()
        return self._data

    def _set_value(self, value):
        self._data = value

    @property
    def has_init(self) -> bool:
        """True while the tensor is still lazily initialised (see ``init_data``)."""
        return self._data is None and self._init is not None

    def init_data(self, slice_index: int | None = None, shape: Any = None,
                  opt_shard_group: str | None = None) -> Tensor:
        """Materialise a lazily initialised tensor; returns self."""
        if self._init is not None:
            init, shp, dt = self._init
            if isinstance(init, DynamicShape):
                raise init.no_data()
            self._data = _REGISTERED["initializer"](init, shp, dt)._value
            self._init = None
        return self

    @classmethod
    def from_numpy(cls, array: Any) -> Tensor:
        """A Tensor holding ``array``'s values and dtype."""
        return cls(np.asarray(array))

    # ---- attributes ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        if self._data is None and self._init is not None:
            return self._init[1]
        return tuple(self._data.shape)

    @property
    def dtype(self) -> mstype.Type:
        if self._data is None and self._init is not None:
            return self._init[2]
        return mstype.from_numpy(self._data.dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return np.dtype(self._value.dtype).itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        strides, acc = [], self.itemsize
        for s in reversed(self.shape):
            strides.append(acc)
            acc *= s
        return tuple(reversed(strides))

    @property
    def T(self) -> Tensor:
        return wrap(jnp.transpose(self._value))

    @property
    def mT(self) -> Tensor:
        if self.ndim < 2:
            raise ValueError(f"Tensor.mT: the Tensor must be at least 2-D, but got shape {self.shape}.")
        return wrap(jnp.swapaxes(self._value, -1, -2))

    # ---- conversion ---------------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """The value as a NumPy array (synchronises with the device)."""
        v = self._value
        if isinstance(v, jax.core.Tracer):
            raise RuntimeError(
                "Tensor.asnumpy() was called on a value that is being compiled (inside GRAPH_MODE, ms.jit or "
                "a grad transformation). Return the tensor from the compiled function and convert it "
                "outside, or use PYNATIVE_MODE to debug with concrete values.")
        return np.asarray(v)

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a.astype(dtype) if dtype is not None else a

    def __int__(self):
        return int(self._scalar("int"))

    def __float__(self):
        return float(self._scalar("float"))

    def __index__(self):
        np_dtype = self.dtype.to_numpy()
        if np_dtype is None or np_dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, but got {self.dtype}.")
        return int(self._scalar("index"))

    def _scalar(self, what):
        if self.size != 1:
            raise TypeError(f"{what}() needs a Tensor with one element, but got shape {list(self.shape)}.")
        return self.asnumpy().reshape(())

    def __bool__(self):
        v = self._value
        if isinstance(v, jax.core.Tracer):
            raise _tracer_bool_error()
        if self.size != 1:
            raise ValueError(f"The truth value of a Tensor with {self.size} elements (shape {list(self.shape)}) is "
                             f"ambiguous. Use .any() or .all().")
        return bool(np.asarray(v).reshape(()))

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __reduce__(self):
        return (_rebuild, (self.asnumpy(),))

    # ---- containers ---------------------------------------------------------------------------
    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d Tensor is not defined.")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d Tensor.")
        for i in range(self.shape[0]):
            yield self[i]

    def __getitem__(self, idx):
        try:
            return wrap(self._value[_index(idx)])
        except IndexError as e:
            raise IndexError(f"For 'Tensor.__getitem__', index {idx!r} is out of range for shape "
                             f"{list(self.shape)}: {e}") from None

    def __setitem__(self, idx, value):
        v = self._value
        self._set_value(v.at[_index(idx)].set(jnp.asarray(_operand(value), v.dtype)))

    __hash__ = object.__hash__

    # ---- printing -----------------------------------------------------------------------------
    def __repr__(self):
        if self._data is None and self._init is not None and isinstance(self._init[0], DynamicShape):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<dynamic>)"
        v = self._value
        if isinstance(v, jax.core.Tracer):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        return tensor_repr(np.asarray(v), str(self.dtype))

    def __str__(self):
        v = self._value
        if isinstance(v, jax.core.Tracer):
            return repr(self)
        return str(np.asarray(v))

    # ---- operators ----------------------------------------------------------------------------
    __add__, __radd__ = _binary(jnp.add, "add"), _binary(jnp.add, "add", True)
    __sub__, __rsub__ = _binary(jnp.subtract, "sub"), _binary(jnp.subtract, "sub", True)
    __mul__, __rmul__ = _binary(jnp.multiply, "mul"), _binary(jnp.multiply, "mul", True)
    __truediv__, __rtruediv__ = _binary(_truediv, "truediv"), _binary(_truediv, "truediv", True)
    __floordiv__, __rfloordiv__ = _binary(jnp.floor_divide, "floordiv"), _binary(jnp.floor_divide, "floordiv", True)
    __mod__, __rmod__ = _binary(jnp.mod, "mod"), _binary(jnp.mod, "mod", True)
    __pow__, __rpow__ = _binary(jnp.power, "pow"), _binary(jnp.power, "pow", True)
    __matmul__, __rmatmul__ = _binary(_matmul, "matmul"), _binary(_matmul, "matmul", True)
    __and__, __rand__ = _binary(jnp.bitwise_and, "and"), _binary(jnp.bitwise_and, "and", True)
    __or__, __ror__ = _binary(jnp.bitwise_or, "or"), _binary(jnp.bitwise_or, "or", True)
    __xor__, __rxor__ = _binary(jnp.bitwise_xor, "xor"), _binary(jnp.bitwise_xor, "xor", True)
    __lshift__, __rshift__ = _binary(jnp.left_shift, "lshift"), _binary(jnp.right_shift, "rshift")
    __eq__ = _binary(jnp.equal, "eq")
    __ne__ = _binary(jnp.not_equal, "ne")
    __lt__ = _binary(jnp.less, "lt")
    __le__ = _binary(jnp.less_equal, "le")
    __gt__ = _binary(jnp.greater, "gt")
    __ge__ = _binary(jnp.greater_equal, "ge")

    def __neg__(self):
        return wrap(jnp.negative(self._value))

    def __pos__(self):
        return self

    def __abs__(self):
        return wrap(jnp.abs(self._value))

    def __invert__(self):
        v = self._value
        return wrap(jnp.logical_not(v) if v.dtype == jnp.bool_ else jnp.invert(v))


_OK_OPERANDS = (Tensor, jax.Array, jax.core.Tracer, np.ndarray, np.generic, int, float, bool, complex, list, tuple)


def _index(idx):
    if isinstance(idx, tuple):
        return tuple(_index_item(i) for i in idx)
    return _index_item(idx)


def _index_item(i):
    if isinstance(i, Tensor):
        return i._value
    if isinstance(i, list):
        return jnp.asarray(np.asarray(i))
    return i


def _rebuild(array):
    return Tensor(array)


def _tracer_bool_error():
    return TypeError(
        "A Tensor's truth value was used in Python control flow (if/while/and/or) while the function was "
        "being compiled (GRAPH_MODE / ms.jit / grad), where the value is not known yet. Fix: use "
        "ops.select / ops.where for elementwise choices; write the if/while in construct or an @ms.jit "
        "function, whose static-graph syntax turns it into graph control flow; or run the Cell in "
        "PYNATIVE_MODE (ms.set_context(mode=ms.PYNATIVE_MODE)).")


def _unflatten(_, children):
    t = Tensor.__new__(Tensor)
    t._data = children[0]
    t._init = None
    return t


jax.tree_util.register_pytree_node(Tensor, lambda t: ((t._value,), None), _unflatten)
