"""Smaller top-level names of MindSpore 2.10: the type objects (``Int``, ``TensorType``, ``type_none``, float8
dtypes, ``QuantDtype``, ``get_py_obj_dtype``), ``Generator`` / ``default_generator``, ``frombuffer``,
``swap_tensors`` and ``run_check``."""
from __future__ import annotations

import enum
import logging
import os
import sys
from typing import Any, cast

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from .common import dtype as mstype
from .common import seed as _seed
from .common.tensor import Tensor
from .context import set_context

__all__ = ["Int", "TensorType", "tensor_type", "type_none", "get_py_obj_dtype", "float8_e4m3fn", "float8_e5m2",
           "QuantDtype", "Generator", "default_generator", "frombuffer", "swap_tensors", "run_check", "get_level",
           "get_log_config", "set_recursion_limit", "RowTensor"]

# 8-bit floats (OCP FP8, as in ml_dtypes / XLA): registered so ``to_ms_dtype``, Tensor and checkpoints know them.
float8_e4m3fn = mstype.Type("Float8E4M3FN", "float8_e4m3fn", np.dtype(ml_dtypes.float8_e4m3fn))
float8_e5m2 = mstype.Type("Float8E5M2", "float8_e5m2", np.dtype(ml_dtypes.float8_e5m2))
for _t in (float8_e4m3fn, float8_e5m2):
    mstype._FROM_NP[_t.to_numpy()] = _t
    mstype._BY_NAME[str(_t)] = mstype._BY_NAME[repr(_t).split(".", 1)[1]] = _t


class _NamedType:
    """A non-numeric MindSpore type object (``List``, ``Tuple``, ``String``-like, ``TypeType``, ``None``)."""

    def __init__(self, name: str, attr: str) -> None:
        self._name, self._attr = name, attr

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"mindspore.{self._attr}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _NamedType) and other._name == self._name

    def __hash__(self) -> int:
        return hash(("type", self._name))


type_none = _NamedType("None", "type_none")
_list_type, _tuple_type, _dict_type = _NamedType("List", "list_"), _NamedType("Tuple", "tuple"), \
    _NamedType("Dictionary", "dict")
_type_type = _NamedType("TypeType", "type_type")


class _IntMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, mstype.Type) and str(obj).startswith("Int")


class Int(metaclass=_IntMeta):
    """The signed integer type family: ``Int(8)`` is ``mindspore.int8``; ``isinstance(ms.int32, Int)`` is True."""

    def __new__(cls, nbits: int = 64) -> mstype.Type:  # type: ignore[misc]
        if nbits not in (8, 16, 32, 64):
            raise ValueError(f"For 'Int', 'nbits' must be 8, 16, 32 or 64, but got {nbits!r}.")
        return mstype.to_ms_dtype(f"int{nbits}")


class TensorType:
    """The type of a Tensor: ``TensorType(ms.float32)`` prints ``Tensor[Float32]``; :data:`tensor_type` is the
    Tensor type with no element type."""

    def __init__(self, element: Any = None) -> None:
        self._element = None if element is None else mstype.to_ms_dtype(element)

    def element_type(self) -> mstype.Type | None:
        """The element dtype (None for the bare :data:`tensor_type`)."""
        return self._element

    def __str__(self) -> str:
        return "Tensor" if self._element is None else f"Tensor[{self._element}]"

    def __repr__(self) -> str:
        return "mindspore.tensor" if self._element is None else str(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorType) and other._element == self._element

    def __hash__(self) -> int:
        return hash(("TensorType", self._element))


tensor_type = TensorType()


def get_py_obj_dtype(obj: Any) -> Any:
    """The MindSpore type of a Python object: ``1`` -> Int64, ``1.0`` -> Float64, a Tensor -> ``Tensor[...]``.

    >>> str(get_py_obj_dtype(1.0)), str(get_py_obj_dtype([1])), str(get_py_obj_dtype(None))
    ('Float64', 'List', 'None')
    """
    if isinstance(obj, Tensor):
        return TensorType(obj.dtype)
    if isinstance(obj, (mstype.Type, TensorType, _NamedType)):
        return _type_type
    if obj is None:
        return type_none
    if isinstance(obj, type):
        return get_py_obj_dtype(obj()) if obj in (bool, int, float, str, list, tuple, dict) else _type_type
    if isinstance(obj, bool):
        return mstype.bool_
    if isinstance(obj, int):
        return mstype.int64
    if isinstance(obj, float):
        return mstype.float64
    if isinstance(obj, str):
        return mstype.string
    if isinstance(obj, list):
        return _list_type
    if isinstance(obj, tuple):
        return _tuple_type
    if isinstance(obj, dict):
        return _dict_type
    raise TypeError(f"For 'get_py_obj_dtype', the object {obj!r:.60} of type {type(obj).__name__} has no "
                    f"MindSpore type.")


class QuantDtype(enum.Enum):
    """Quantization bit widths: ``INT1``..``INT16`` (0..15) and ``UINT1``..``UINT16`` (100..115)."""

    INT1, INT2, INT3, INT4, INT5, INT6, INT7, INT8 = range(8)
    INT9, INT10, INT11, INT12, INT13, INT14, INT15, INT16 = range(8, 16)
    UINT1, UINT2, UINT3, UINT4, UINT5, UINT6, UINT7, UINT8 = range(100, 108)
    UINT9, UINT10, UINT11, UINT12, UINT13, UINT14, UINT15, UINT16 = range(108, 116)

    def value(self) -> int:  # type: ignore[override]  # MindSpore's QuantDtype.X.value() is a method
        """The enum's integer code (``QuantDtype.INT8.value() == 7``)."""
        return self._value_

    def num_bits(self) -> int:
        """The bit width (``QuantDtype.UINT4.num_bits() == 4``)."""
        return self._value_ % 100 + 1


class Generator:
    """A random-number generator state: a 64-bit seed and a 64-bit offset (how many draws were taken).

    ``get_state()`` is a 16-byte UInt8 Tensor (seed then offset, little-endian), as in MindSpore.
    :meth:`next_key` turns the state into a JAX key and advances the offset.

    >>> g = Generator().manual_seed(300)
    >>> g.initial_seed(), g.get_state().asnumpy()[:2].tolist()
    (300, [44, 1])
    """

    def __init__(self) -> None:
        self._seed_value, self._offset = 0, 0

    def manual_seed(self, seed: int) -> Generator:
        """Set the seed (and restart the offset); returns self."""
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise TypeError(f"For 'Generator.manual_seed', 'seed' must be an int, but got {type(seed).__name__}.")
        self._seed_value, self._offset = int(seed) % 2 ** 64, 0
        return self

    def seed(self) -> int:
        """Seed with a non-deterministic value and return it."""
        value = int(cast(int, np.random.SeedSequence().entropy) % 2 ** 63)  # an int when drawn from the OS
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """The seed in use."""
        return self._seed_value

    def get_state(self) -> Tensor:
        """The state as a UInt8 Tensor of 16 bytes."""
        raw = np.array([self._seed_value, self._offset], np.uint64).astype("<u8").view(np.uint8)
        return Tensor(raw, mstype.uint8)

    def set_state(self, state: Tensor) -> Generator:
        """Restore a state returned by :meth:`get_state`; returns self."""
        arr = np.asarray(state.asnumpy() if isinstance(state, Tensor) else state)
        if arr.dtype != np.uint8 or arr.shape != (16,):
            raise ValueError(f"For 'Generator.set_state', 'state' must be a UInt8 Tensor of shape (16,), but got "
                             f"dtype {arr.dtype} shape {arr.shape}.")
        self._seed_value, self._offset = (int(v) for v in arr.view("<u8"))
        return self

    def next_key(self, step: int = 1) -> jax.Array:
        """A raw JAX key for the next draw (seed folded with the offset); advances the offset by ``step``."""
        key = jax.random.fold_in(jax.random.key(self._seed_value % 2 ** 63), self._offset)
        self._offset += step
        return jax.random.key_data(key)


class _DefaultGenerator(Generator):
    """The global generator: its seed is the one ``set_seed`` / ``manual_seed`` gave."""

    def manual_seed(self, seed: int) -> Generator:
        super().manual_seed(seed)
        _seed.set_seed(self._seed_value % 2 ** 63)
        return self

    def initial_seed(self) -> int:
        seed = _seed.get_seed()
        return 0 if seed is None else int(seed)

    def get_state(self) -> Tensor:
        self._seed_value = self.initial_seed()
        return super().get_state()

    def set_state(self, state: Tensor) -> Generator:
        super().set_state(state)
        _seed.set_seed(self._seed_value % 2 ** 63)
        return self


default_generator = _DefaultGenerator()


def frombuffer(buffer: Any, dtype: Any, count: int = -1, offset: int = 0) -> Tensor:
    """A 1-D Tensor of ``dtype`` read from a bytes-like ``buffer`` (``count`` items from byte ``offset``).

    >>> frombuffer(b'\\x01\\x00\\x00\\x00\\x02\\x00\\x00\\x00', ms.int32).asnumpy().tolist()
    [1, 2]
    """
    ms_dtype = mstype.to_ms_dtype(dtype)
    try:
        arr = np.frombuffer(buffer, dtype=ms_dtype.to_numpy(), count=count, offset=offset)
    except (ValueError, TypeError) as e:
        raise ValueError(f"For 'frombuffer', cannot read {ms_dtype} values (count={count}, offset={offset}) from "
                         f"the buffer: {e}") from None
    return Tensor(np.array(arr), ms_dtype)


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Exchange the contents (values, shape and dtype) of two Tensors in place."""
    if not isinstance(t1, Tensor) or not isinstance(t2, Tensor):
        raise TypeError(f"For 'swap_tensors', both arguments must be Tensors, but got {type(t1).__name__} and "
                        f"{type(t2).__name__}.")
    v1, v2 = t1._value, t2._value
    t1._set_value(v2)
    t2._set_value(v1)


def run_check() -> None:
    """Check the installation: multiply two small Tensors on the current device and print MindSpore's messages."""
    print("MindSpore version: ", getattr(sys.modules[__package__], "__version__", "unknown"))
    x = jnp.ones((2, 2), jnp.float32)
    result = np.asarray(x * x)
    platform = jax.devices()[0].platform.upper()
    if np.array_equal(result, np.ones((2, 2), np.float32)):
        print(f"The result of multiplication calculation is correct, MindSpore has been installed on platform "
              f"[{platform}] successfully!")
    else:
        print(f"The result of multiplication calculation is incorrect on platform [{platform}]: got "
              f"{result.tolist()}, expected [[1.0, 1.0], [1.0, 1.0]]. MindSpore (mindspore_hl) is not installed "
              f"correctly.")


# MindSpore's GLOG_v levels of Python's logging levels
_GLOG_LEVEL = {logging.DEBUG: "0", logging.INFO: "1", logging.WARNING: "2", logging.ERROR: "3", logging.CRITICAL: "4"}


def get_level() -> str:
    """The log level of mindspore_hl's loggers as MindSpore's GLOG_v string: '0' DEBUG, '1' INFO, '2' WARNING
    (the default), '3' ERROR, '4' CRITICAL."""
    level = logging.getLogger(__package__).getEffectiveLevel()
    return _GLOG_LEVEL.get(level, "0" if level < logging.INFO else "1" if level < logging.WARNING else
                           "2" if level < logging.ERROR else "3" if level < logging.CRITICAL else "4")


def get_log_config() -> dict[str, str]:
    """MindSpore's log configuration dict: ``GLOG_v`` (see :func:`get_level`), ``GLOG_logtostderr`` ('0' when
    mindspore_hl's logger writes to a file, then ``GLOG_log_dir`` is that file's folder).

    >>> get_log_config()["GLOG_v"]
    '2'
    """
    config = {"GLOG_v": get_level()}
    files = [h for h in logging.getLogger(__package__).handlers if isinstance(h, logging.FileHandler)]
    if files:
        config.update(GLOG_logtostderr="0", GLOG_log_dir=os.path.dirname(files[0].baseFilename))
    else:
        config["GLOG_logtostderr"] = "1"
    return config


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """Allow function calls nested ``recursion_limit`` deep while a graph is traced (``max_call_depth``).

    Graphs are traced by running Python, so Python's own recursion limit is raised to it when lower.
    """
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool) or recursion_limit <= 0:
        raise ValueError(f"For 'set_recursion_limit', 'recursion_limit' must be a positive int, but got "
                         f"{recursion_limit!r}.")
    set_context(max_call_depth=recursion_limit)
    if sys.getrecursionlimit() < recursion_limit:
        sys.setrecursionlimit(recursion_limit)


class RowTensor:
    """Rows of a dense tensor of shape ``shape``: ``values[i]`` is row ``indices[i]`` (the others are zero), as
    MindSpore represents the gradient of a gathered embedding table.

    >>> r = RowTensor(Tensor([0, 2]), Tensor([[1.0, 2.0], [3.0, 4.0]]), (4, 2))
    >>> r.dense_shape, r.indices.asnumpy().tolist()
    ((4, 2), [0, 2])
    """

    def __init__(self, indices: Tensor | None = None, values: Tensor | None = None,
                 shape: tuple[int, ...] | None = None, row_tensor: RowTensor | None = None) -> None:
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        if indices is None or values is None or shape is None:
            raise ValueError("For 'RowTensor', give 'indices', 'values' and 'shape', or 'row_tensor'.")
        if not isinstance(indices, Tensor) or not isinstance(values, Tensor):
            raise TypeError(f"For 'RowTensor', 'indices' and 'values' must be Tensors, but got "
                            f"{type(indices).__name__} and {type(values).__name__}.")
        shape = tuple(int(d) for d in shape)
        if indices.ndim != 1 or values.shape[:1] != indices.shape or tuple(values.shape[1:]) != shape[1:]:
            raise ValueError(f"For 'RowTensor', 'indices' must be 1-D with one entry per row of 'values', and the "
                             f"rows must have shape {shape[1:]} (from 'shape' {shape}), but got indices shape "
                             f"{tuple(indices.shape)} and values shape {tuple(values.shape)}.")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self) -> Tensor:
        """The row numbers."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """The rows, one per index."""
        return self._values

    @property
    def dense_shape(self) -> tuple[int, ...]:
        """The shape of the dense tensor."""
        return self._shape
