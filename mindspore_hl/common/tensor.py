"""``Tensor``: MindSpore's tensor, a thin shell over a ``jax.Array`` (or a tracer while compiling)."""
import numpy as np
import jax
import jax.numpy as jnp

from . import dtype as mstype
from ._tensor_methods import TensorMethods

__all__ = ["Tensor", "to_array", "wrap"]


def _infer_python(data):
    """MindSpore's default dtypes for Python data: int -> Int64, float -> Float32, bool -> Bool."""
    arr = np.asarray(data)
    if arr.dtype == np.float64:
        return arr.astype(np.float32)
    if arr.dtype.kind in "iu" and arr.dtype != np.int64 and not isinstance(data, np.ndarray):
        return arr.astype(np.int64)
    if arr.dtype.kind in "US" or arr.dtype == object:
        raise TypeError(f"Tensor: cannot build a tensor from {type(data).__name__} data {data!r:.80}")
    return arr


def to_array(data, dtype=None):
    """Convert Tensor / array / NumPy / Python data to a JAX array with MindSpore's default dtypes."""
    if isinstance(data, Tensor):
        arr = data._value
    elif isinstance(data, (jax.Array, jax.core.Tracer)):
        arr = data
    elif isinstance(data, np.ndarray) or np.isscalar(data) and isinstance(data, np.generic):
        arr = np.asarray(data)
    elif isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in data):
        arr = jnp.stack([to_array(d) for d in data])
    else:
        arr = _infer_python(data)
    if dtype is not None:
        np_dt = mstype.to_ms_dtype(dtype).to_numpy()
        if arr.dtype != np_dt:
            arr = arr.astype(np_dt)
    return jnp.asarray(arr) if isinstance(arr, np.ndarray) else arr


def wrap(x):
    """Wrap arrays (and nests of them) into Tensors; leave other values alone."""
    if isinstance(x, (jax.Array, jax.core.Tracer)):
        t = Tensor.__new__(Tensor)
        t._data = x
        t._init = None
        return t
    if isinstance(x, tuple):
        return tuple(wrap(v) for v in x)
    if isinstance(x, list):
        return [wrap(v) for v in x]
    return x


def _arr(x):
    return x._value if isinstance(x, Tensor) else x


def _index(idx):
    if isinstance(idx, tuple):
        return tuple(_arr(i) for i in idx)
    return _arr(idx)


def _binary(fn, name):
    def method(self, other):
        a = self._value
        b = _arr(other)
        try:
            out = fn(a, b)
        except TypeError as e:
            if not isinstance(other, (Tensor, jax.Array, np.ndarray, int, float, bool, complex, np.generic)):
                return NotImplemented
            raise TypeError(f"For '{name}', unsupported operand types: {_desc(self)} and {_desc(other)}") from e
        except ValueError as e:
            raise ValueError(f"For '{name}', shapes cannot be broadcast together: {_desc(self)} and "
                             f"{_desc(other)}.") from e
        # MindSpore keeps Float32 when an int tensor meets a Python float (JAX with x64 would give Float64).
        if out.dtype == jnp.float64 and isinstance(other, float) and a.dtype != jnp.float64:
            out = out.astype(jnp.float32)
        return wrap(out)
    method.__name__ = name
    return method


def _rbinary(fn, name):
    forward = _binary(lambda a, b: fn(b, a), name)
    forward.__name__ = "r" + name
    return forward


def _desc(x):
    if isinstance(x, Tensor):
        return f"Tensor(shape={list(x.shape)}, dtype={x.dtype})"
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return f"array(shape={list(x.shape)}, dtype={x.dtype})"
    return f"{type(x).__name__} {x!r:.40}"


class Tensor(TensorMethods):
    """MindSpore's Tensor.

    Args:
        input_data: list, tuple, NumPy array, Python scalar or Tensor. Python ints become Int64 and
            Python floats Float32 (MindSpore's defaults); NumPy arrays keep their dtype.
        dtype: a ``mindspore_hl`` dtype (``ms.float32``) or NumPy dtype to cast to.
        shape, init: lazy construction, ``Tensor(shape=(2, 2), dtype=ms.float32, init=One())``.

    Example:
        >>> Tensor([[1, 2], [3, 4]], ms.float32) + 1
    """

    __array_priority__ = 100

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
        self._init = None
        if init is not None:
            if shape is None or dtype is None:
                raise ValueError("Tensor: lazy initialisation with 'init' needs both 'shape' and 'dtype'.")
            self._init = (init, tuple(shape) if not isinstance(shape, int) else (shape,), dtype)
            self._data = None
            return
        if input_data is None:
            if shape is not None and dtype is not None:
                shape = (shape,) if isinstance(shape, int) else tuple(shape)
                self._data = jnp.zeros(shape, mstype.to_ms_dtype(dtype).to_numpy())
                return
            raise TypeError("Tensor: 'input_data' is required (or 'shape', 'dtype' and 'init').")
        self._data = to_array(input_data, dtype)

    # ---- value access -------------------------------------------------------------------------
    @property
    def _value(self):
        if self._data is None:
            self.init_data()
        return self._data

    def _set_value(self, value):
        self._data = value

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """Materialise a lazily initialised tensor; returns self."""
        if self._init is not None:
            from .initializer import initializer
            init, shp, dt = self._init
            self._data = initializer(init, shp, dt)._value
            self._init = None
        return self

    @classmethod
    def from_numpy(cls, array):
        return cls(np.asarray(array))

    # ---- attributes -----------------------------------------------------------------------------
    @property
    def shape(self):
        if self._data is None:
            return self._init[1]
        return tuple(self._data.shape)

    @property
    def dtype(self):
        if self._data is None:
            return mstype.to_ms_dtype(self._init[2])
        return mstype.from_numpy(self._data.dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return np.dtype(self._value.dtype).itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        return _c_strides(self.shape, self.itemsize)

    @property
    def T(self):
        return wrap(jnp.transpose(self._value))

    @property
    def mT(self):
        return wrap(jnp.swapaxes(self._value, -1, -2))

    # ---- conversion ---------------------------------------------------------------------------
    def asnumpy(self):
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

    def item(self, index=None):
        a = self.asnumpy()
        return a.item() if index is None else a.item(index)

    def tolist(self):
        return self.asnumpy().tolist()

    def astype(self, dtype, copy=True):
        return wrap(self._value.astype(mstype.to_ms_dtype(dtype).to_numpy()))

    to = astype

    def float(self):
        return self.astype(mstype.float32)

    def half(self):
        return self.astype(mstype.float16)

    def int(self):
        return self.astype(mstype.int32)

    def long(self):
        return self.astype(mstype.int64)

    def bool(self):
        return self.astype(mstype.bool_)

    def double(self):
        return self.astype(mstype.float64)

    def set_dtype(self, dtype):
        self._set_value(self._value.astype(mstype.to_ms_dtype(dtype).to_numpy()))
        return self

    def copy(self):
        return wrap(jnp.array(self._value, copy=True))

    def assign_value(self, value):
        self._set_value(to_array(value, self.dtype))
        return self

    def fill(self, value):
        return wrap(jnp.full(self.shape, value, self._value.dtype))

    def __int__(self):
        return int(self.asnumpy())

    def __float__(self):
        return float(self.asnumpy())

    def __index__(self):
        return int(self.asnumpy())

    def __bool__(self):
        v = self._value
        if isinstance(v, jax.core.Tracer):
            raise _tracer_bool_error()
        return bool(np.asarray(v))

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self.item(), spec)
        return format(str(self), spec)

    # ---- containers ---------------------------------------------------------------------------
    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d Tensor")
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self, idx):
        return wrap(self._value[_index(idx)])

    def __setitem__(self, idx, value):
        v = self._value
        self._set_value(v.at[_index(idx)].set(jnp.asarray(_arr(value), v.dtype)))

    __hash__ = object.__hash__

    # ---- printing -----------------------------------------------------------------------------
    def __repr__(self):
        v = self._value
        if isinstance(v, jax.core.Tracer):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        body = np.array2string(np.asarray(v), separator=", ")
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=\n{body})"

    def __str__(self):
        v = self._value
        if isinstance(v, jax.core.Tracer):
            return repr(self)
        return str(np.asarray(v))

    # ---- operators ----------------------------------------------------------------------------
    __add__, __radd__ = _binary(jnp.add, "add"), _rbinary(jnp.add, "add")
    __sub__, __rsub__ = _binary(jnp.subtract, "sub"), _rbinary(jnp.subtract, "sub")
    __mul__, __rmul__ = _binary(jnp.multiply, "mul"), _rbinary(jnp.multiply, "mul")
    __truediv__, __rtruediv__ = _binary(jnp.true_divide, "div"), _rbinary(jnp.true_divide, "div")
    __floordiv__, __rfloordiv__ = _binary(jnp.floor_divide, "floor_div"), _rbinary(jnp.floor_divide, "floor_div")
    __mod__, __rmod__ = _binary(jnp.mod, "mod"), _rbinary(jnp.mod, "mod")
    __pow__, __rpow__ = _binary(jnp.power, "pow"), _rbinary(jnp.power, "pow")
    __matmul__, __rmatmul__ = _binary(jnp.matmul, "matmul"), _rbinary(jnp.matmul, "matmul")
    __and__, __rand__ = _binary(jnp.logical_and, "logical_and"), _rbinary(jnp.logical_and, "logical_and")
    __or__, __ror__ = _binary(jnp.logical_or, "logical_or"), _rbinary(jnp.logical_or, "logical_or")
    __xor__, __rxor__ = _binary(jnp.logical_xor, "logical_xor"), _rbinary(jnp.logical_xor, "logical_xor")
    __eq__ = _binary(jnp.equal, "equal")
    __ne__ = _binary(jnp.not_equal, "not_equal")
    __lt__ = _binary(jnp.less, "less")
    __le__ = _binary(jnp.less_equal, "less_equal")
    __gt__ = _binary(jnp.greater, "greater")
    __ge__ = _binary(jnp.greater_equal, "greater_equal")

    def __neg__(self):
        return wrap(-self._value)

    def __pos__(self):
        return self

    def __abs__(self):
        return wrap(jnp.abs(self._value))

    def __invert__(self):
        v = self._value
        return wrap(jnp.logical_not(v) if v.dtype == jnp.bool_ else jnp.invert(v))


def _c_strides(shape, itemsize):
    strides, acc = [], itemsize
    for s in reversed(shape):
        strides.append(acc)
        acc *= s
    return tuple(reversed(strides))


def _tracer_bool_error():
    return TypeError(
        "A Tensor's truth value was used in Python control flow (if/while/and/or) while the function was "
        "being compiled (GRAPH_MODE / ms.jit), where the value is not known yet. Fix: use "
        "ops.select / ops.where for elementwise choices, mindspore_hl.ops.cond / while_loop for control "
        "flow, or run the Cell in PYNATIVE_MODE (ms.set_context(mode=ms.PYNATIVE_MODE)).")


def _unflatten(_, children):
    t = Tensor.__new__(Tensor)
    t._data = children[0]
    t._init = None
    return t


jax.tree_util.register_pytree_node(Tensor, lambda t: ((t._value,), None), _unflatten)
