"""Shared rules of ``mindspore_hl.numpy``: converting inputs, MindSpore's NumPy dtype promotion, the op table."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypeAlias, overload

import jax.numpy as jnp
import numpy as np

from .. import ops as _ops
from ..common import dtype as mstype
from ..common._tensor_registry import lookup as _lookup
from ..common.tensor import Tensor, wrap

if TYPE_CHECKING:
    from typing import Callable

# What the functions here accept as an array (a Tensor, a NumPy array or Python data) and as a dtype.
ArrayLike: TypeAlias = "Tensor | np.ndarray | list[Any] | tuple[Any, ...] | int | float | bool | complex"
DTypeLike: TypeAlias = "mstype.Type | np.dtype[Any] | type | str"

__all__ = ["asarray_const", "op", "promote", "result_dtype", "apply_dtype", "np_dtype", "ms_dtype", "arr", "Tensor",
           "wrap"]


def op(name: str) -> Callable[..., Any]:
    """The functional op ``name`` from the op table (or ``mindspore_hl.ops``)."""
    try:
        return _lookup(name)
    except (AttributeError, KeyError):
        return getattr(_ops, name)


@overload
def np_dtype(dtype: None) -> None: ...
@overload
def np_dtype(dtype: DTypeLike) -> np.dtype: ...
@overload
def np_dtype(dtype: Any) -> np.dtype | None: ...
def np_dtype(dtype: Any) -> np.dtype | None:
    return None if dtype is None else np.dtype(mstype.to_ms_dtype(dtype).to_numpy())


@overload
def ms_dtype(dtype: None) -> None: ...
@overload
def ms_dtype(dtype: DTypeLike) -> mstype.Type: ...
@overload
def ms_dtype(dtype: Any) -> mstype.Type | None: ...
def ms_dtype(dtype: Any) -> mstype.Type | None:
    return None if dtype is None else mstype.to_ms_dtype(dtype)


def _python(value: Any) -> np.ndarray:
    """MindSpore's NumPy defaults for Python data: int -> Int32, float -> Float32, bool -> Bool."""
    arr = np.asarray(value)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int32)
    if arr.dtype.kind == "f":
        return arr.astype(np.float32)
    if arr.dtype.kind == "c":
        return arr.astype(np.complex64)
    if arr.dtype.kind in "USO":
        raise TypeError(f"mindspore.numpy: expected array-like input, but got {type(value).__name__} {value!r:.60}.")
    return arr


def asarray_const(value: Any, dtype: Any = None) -> Tensor:
    """A Tensor from a Tensor, NumPy array or Python data (Python ints -> Int32, floats -> Float32)."""
    if isinstance(value, Tensor):
        t = value
    elif isinstance(value, (np.ndarray, np.generic)):
        t = wrap(jnp.asarray(value))
    elif isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        t = op("stack")([asarray_const(v) for v in value], 0)
    else:
        t = wrap(jnp.asarray(_python(value)))
    return t if dtype is None else op("cast")(t, ms_dtype(dtype))


def result_dtype(a: np.dtype, b: np.dtype) -> np.dtype:
    """MindSpore's promotion: a float beats any int/bool (keeping its width); otherwise NumPy's table."""
    if a == b:
        return a
    fa, fb = a.kind in "fc", b.kind in "fc"
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    return np.promote_types(a, b)


def promote(*values: Any) -> list[Tensor]:
    """Tensors of the common dtype of ``values``."""
    ts = [asarray_const(v) for v in values]
    dts = [np.dtype(t._value.dtype) for t in ts]
    out = functools.reduce(result_dtype, dts)
    return [t if d == out else op("cast")(t, ms_dtype(out)) for t, d in zip(ts, dts)]


def apply_dtype(out: Any, dtype: Any) -> Any:
    """Cast the result to ``dtype`` when given."""
    return out if dtype is None else op("cast")(out, ms_dtype(dtype))


def arr(x: Any) -> jnp.ndarray:
    """The JAX array of a numpy-namespace input (Python defaults: Int32 / Float32)."""
    return asarray_const(x)._value

