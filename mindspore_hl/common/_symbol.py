"""Dynamic-shape descriptions: ``Symbol``, ``Tensor(shape=[None, Symbol(...)], dtype=...)`` and ``enable_dynamic``.

MindSpore compiles one graph for a dynamic input described this way. Here every concrete shape compiles its own
program, so the descriptions do what is observable: a GRAPH_MODE Cell given ``set_inputs`` and a ``jit`` function
given ``enable_dynamic`` check each call's actual inputs against them (rank, fixed dimensions, dtype, and each
Symbol's min / max / divisor / remainder / unique constraints) and raise MindSpore's errors.
"""
from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Symbol", "DynamicShape", "dynamic_description", "check_set_inputs", "enable_dynamic",
           "check_enable_dynamic", "ENABLE_DYNAMIC"]

ENABLE_DYNAMIC = "__enable_dynamic__"  # the attribute enable_dynamic sets on the function jit compiles


class Symbol:
    r"""The symbolic information of one dimension of a dynamic-shape input.

    A dimension described by ``Symbol(max, min, divisor, remainder, unique)`` takes the values
    :math:`d * N + r` (``N >= 1``) between ``min`` and ``max`` (``max`` counts when it is greater than ``min``);
    the dimensions of one ``unique`` Symbol must all have the same length.

    Example:
        >>> from mindspore_hl import Symbol
        >>> Symbol(max=32, divisor=8).to_dict()
        {'max': 32, 'divisor': 8}
    """

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0,  # noqa: A002
                 unique: bool = False, **kwargs: Any) -> None:
        for name, value in (("max", max), ("min", min), ("divisor", divisor), ("remainder", remainder)):
            if not isinstance(value, int):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', but got "
                             f"{remainder}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def __str__(self) -> str:
        return str(self.to_dict())

    def to_dict(self) -> dict[str, int]:
        """The constraints that say something (MindSpore's form, e.g. ``{'max': 32, 'divisor': 8}``)."""
        res = {}
        if self.max > self.min:
            res["max"] = self.max
        if self.min > self.divisor + self.remainder:  # d * N + r with N >= 1 already gives at least d + r
            res["min"] = self.min
        if self.divisor != 1:
            res["divisor"] = self.divisor
        if self.remainder != 0:
            res["remainder"] = self.remainder
        if self.unique:
            res["id"] = self.id
        return res

    def _check(self, value: int, axis: int, index: int, shape: Sequence[int], seen: dict[int, int]) -> None:
        where = f"The {axis + 1}th shape value of {index + 1}th actual input args"
        tail = f" Actual shape: {list(shape)}, axis: {axis}."
        c = self.to_dict()
        if "min" in c and value < self.min:
            raise ValueError(f"{where} must be greater than or equal to the 'min' value '{self.min}' of `Symbol`, "
                             f"but got '{value}'.{tail}")
        if "max" in c and value > self.max:
            raise ValueError(f"{where} must be less than or equal to the 'max' value '{self.max}' of `Symbol`, but "
                             f"got '{value}'.{tail}")
        if (value - self.remainder) % self.divisor or value - self.remainder < self.divisor:
            raise ValueError(f"{where} must match the 'divisor'(d) and 'remainder'(d) of `Symbol`. The value should "
                             f"be 'd * N + r' for 'N > 0', got d={self.divisor} and r={self.remainder}, but actual "
                             f"shape value is '{value}'.{tail}")
        if self.unique:
            previous = seen.setdefault(self.id, value)
            if previous != value:
                raise ValueError(f"{where} is a unique symbol, all values must be the same. The previous value is "
                                 f"{previous}, but the current value is {value}.{tail}")


class DynamicShape:
    """What a ``Tensor(shape=[None, Symbol(...), 3], dtype=...)`` holds instead of values.

    ``dims`` has one entry per dimension (an int, None or a Symbol), or is None for a dynamic rank (``shape=None``).
    """
    __slots__ = ("dims",)

    def __init__(self, dims: tuple[Any, ...] | None) -> None:
        self.dims = dims

    @property
    def shape(self) -> tuple[int, ...]:
        """MindSpore's shape of the description: -1 for an unknown dimension, ``(-2,)`` for an unknown rank."""
        if self.dims is None:
            return (-2,)
        return tuple(d if isinstance(d, int) else -1 for d in self.dims)

    def no_data(self) -> ValueError:
        return ValueError(f"Tensor(shape={list(self.shape)}) describes a dynamic-shape input (for Cell.set_inputs, "
                          "jit or enable_dynamic) and holds no values; call the network with a Tensor of data.")

    def check(self, actual: Any, index: int, seen: dict[int, int]) -> None:
        """Check the Symbol dimensions of ``actual`` (whose rank and fixed dimensions already match)."""
        for axis, (want, got) in enumerate(zip(self.dims or (), actual.shape)):
            if isinstance(want, Symbol):
                want._check(got, axis, index, actual.shape, seen)


def dynamic_description(shape: Any, dtype: Any, init: Any) -> DynamicShape | None:
    """The DynamicShape of ``Tensor(shape=shape, dtype=dtype, init=init)`` without data, or None if it is static.

    A shape of None (with a dtype) is a dynamic rank; None, -1 or a Symbol in a shape is a dynamic dimension.
    """
    if shape is None:
        return DynamicShape(None) if dtype is not None and init is None else None
    dims = (shape,) if isinstance(shape, (int, Symbol)) else tuple(shape)
    if not any(d is None or isinstance(d, Symbol) or (isinstance(d, int) and d == -1) for d in dims):
        return None
    if dtype is None or init is not None:
        raise ValueError("If setting dynamic shape, dtype must not be None, init must be None")
    return DynamicShape(tuple(None if isinstance(d, int) and d == -1 else d for d in dims))


def _description(t: Any) -> DynamicShape | None:
    init = getattr(t, "_init", None)
    return init[0] if init is not None and isinstance(init[0], DynamicShape) else None


def _dtype_name(dtype: Any) -> str:
    return str(dtype)  # (MindSpore's dtype names: Float32, BFloat16)


def _is_tensor(x: Any) -> bool:
    # (duck-typed on the class: Tensor is built on this module; a description's _value raises)
    return all(hasattr(type(x), a) for a in ("shape", "dtype", "_value"))


def check_set_inputs(declared: Sequence[Any], args: Sequence[Any]) -> None:
    """Check a GRAPH_MODE Cell call's ``args`` against its ``set_inputs`` (MindSpore's errors and messages)."""
    seen: dict[int, int] = {}
    for i, (want, got) in enumerate(zip(declared, args)):
        if isinstance(want, (tuple, list)) and isinstance(got, (tuple, list)):
            if len(want) != len(got) or not all(_matches(w, g) for w, g in zip(want, got)):
                raise ValueError(f"For set_inputs or tuple(list) in set_inputs, the {i + 1}th should be {want!r}, "
                                 f"but got {got!r}!")
            continue
        if _is_tensor(want) != _is_tensor(got):
            expected, actual = ("mutable", "static") if _is_tensor(want) else ("static", "mutable")
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i + 1}th should be {expected} one, "
                            f"but got {actual}!")
        if not _is_tensor(want):
            if want != got:
                raise ValueError(f"For set_inputs or tuple(list) in set_inputs, the {i + 1}th should be {want!r}, "
                                 f"but got {got!r}!")
            continue
        desc = _description(want)
        want_shape = desc.shape if desc is not None else tuple(want.shape)
        if want_shape != (-2,):
            if len(want_shape) != len(got.shape):
                raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of {i + 1}th input must be "
                                 f"the same as expected, but got expected: {len(want_shape)}, and input: "
                                 f"{len(got.shape)}!")
            for w, g in zip(want_shape, got.shape):
                if w != -1 and w != g:
                    raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of {i + 1}th input "
                                     f"must be the same as expected, but got expected: {w}, and input: {g}!")
        if want.dtype != got.dtype:
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {i + 1}th type should be "
                            f"Tensor[{_dtype_name(want.dtype)}], but got Tensor[{_dtype_name(got.dtype)}]!")
        if desc is not None:
            desc.check(got, i, seen)


def _matches(want: Any, got: Any) -> bool:
    """Whether ``got`` fits the description ``want`` (an element of a tuple in set_inputs)."""
    if isinstance(want, (tuple, list)):
        return isinstance(got, (tuple, list)) and len(want) == len(got) and all(map(_matches, want, got))
    if not _is_tensor(want) or not _is_tensor(got):
        return not _is_tensor(want) and not _is_tensor(got) and want == got
    desc = _description(want)
    shape = desc.shape if desc is not None else tuple(want.shape)
    if want.dtype != got.dtype:
        return False
    if shape == (-2,):
        return True
    if len(shape) != len(got.shape) or any(w not in (-1, g) for w, g in zip(shape, got.shape)):
        return False
    try:
        if desc is not None:
            desc.check(got, 0, {})
    except ValueError:
        return False
    return True


# ---- enable_dynamic -----------------------------------------------------------------------------------------------
def _check_arg(arg: Any, name: str) -> bool:
    """MindSpore's checks of one enable_dynamic argument; True when it has a dynamic dimension."""
    if isinstance(arg, (tuple, list)):
        return any([_check_arg(a, name) for a in arg])  # (every element is type-checked)
    if not _is_tensor(arg):
        raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
                        f"argument : {name} is type of:{type(arg)}.")
    desc = _description(arg)
    if desc is None:
        return False
    if desc.dims is not None and any(isinstance(d, int) and d <= 0 for d in desc.dims):
        raise TypeError(f"The argument '{name}' has invalid shape '{desc.shape}', only supports None or a tuple/list "
                        "of positive integers and None.")
    return True


def enable_dynamic(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Describe some arguments of a ``jit`` function as dynamic-shape Tensors; each call's inputs are checked.

    Example:
        >>> import mindspore_hl as ms
        >>> @ms.enable_dynamic(y=ms.Tensor(shape=[ms.Symbol(max=4), 3], dtype=ms.float32))
        ... @ms.jit
        ... def f(x, y):
        ...     return y + x
        >>> f(ms.Tensor(1.0, ms.float32), ms.ops.ones((2, 3), ms.float32)).shape
        (2, 3)
    """
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        if not _check_arg(arg, name):
            raise TypeError(f"When using decorator enable_dynamic, the shape of argument '{name}' at least have "
                            "one None.")

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        if not isinstance(func, (types.FunctionType, types.MethodType)):
            raise ValueError(f"Decorator enable_dynamic can only be used for function or method decrocated by "
                             f"ms.jit, but got {func}.")
        names = [n for n in inspect.signature(func).parameters if n != "self"]
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments {len(kwargs)} exceeds "
                             f"the number of function arguments {len(names)}.")
        dynamic_args = {}
        for key, value in kwargs.items():
            if key not in names:
                raise ValueError(f"'{key}' is not in list")
            dynamic_args[names.index(key)] = (key, value)
        inner = inspect.unwrap(func, stop=lambda f: not hasattr(f, "__wrapped__"))
        setattr(getattr(inner, "__func__", inner), ENABLE_DYNAMIC, dynamic_args)
        return func
    return decorator


def check_enable_dynamic(fn: Callable[..., Any], args: Sequence[Any]) -> None:
    """Check the arguments of a call of the jit function ``fn`` against its enable_dynamic descriptions, if any."""
    dynamic_args = getattr(getattr(fn, "__func__", fn), ENABLE_DYNAMIC, None)
    if not dynamic_args:
        return
    params = list(inspect.signature(fn).parameters)
    offset = 1 if params and params[0] == "self" else 0
    seen: dict[int, int] = {}
    for index, (_, want) in sorted(dynamic_args.items()):
        if index + offset < len(args):
            _check_dynamic(want, args[index + offset], index, seen)


def _check_dynamic(want: Any, got: Any, index: int, seen: dict[int, int]) -> None:
    if isinstance(want, (tuple, list)):
        for w, g in zip(want, got if isinstance(got, (tuple, list)) else ()):
            _check_dynamic(w, g, index, seen)
        return
    if not _is_tensor(got):
        return
    if want.dtype != got.dtype:
        raise TypeError(f"When using decorator enable_dynamic, input tensor dtype = {_dtype_name(got.dtype)}, "
                        f"dynamic tensor dtype = {_dtype_name(want.dtype)}, tensor dtypes are not the same.")
    desc = _description(want)
    shape = desc.shape if desc is not None else tuple(want.shape)
    if shape != (-2,) and (len(shape) != len(got.shape) or any(w not in (-1, g) for w, g in zip(shape, got.shape))):
        raise ValueError(f"When using decorator enable_dynamic, input tensor shape = {list(got.shape)}, dynamic "
                         f"tensor shape = {list(shape)}, tensor shapes are not the same.")
    if desc is not None:
        desc.check(got, index, seen)
