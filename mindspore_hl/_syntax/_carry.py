"""Values that cross a converted ``if``/loop boundary: undefined markers, their descriptions and carry plans.

A variable's value is described as a pytree whose leaves are either arrays (carried through ``lax`` control flow
as state) or static Python objects (which must be the same on both sides). ``Plan`` says how a variable crosses:
unchanged Python value, an ``Undefined`` marker (with the reason), or carried arrays with fixed shapes and dtypes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

import jax
import jax.numpy as jnp
import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor, to_array, wrap

if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

RETVAL = "ag__retval"


def where(site: tuple[str, int]) -> str:
    return f'File "{site[0]}", line {site[1]}'


class Undefined:
    """A variable with no value (yet): reading it through ``ag__.ld`` raises the recorded reason."""

    __slots__ = ("name", "reason")

    def __init__(self, name: str, reason: str | None = None) -> None:
        self.name, self.reason = name, reason

    def error(self) -> UnboundLocalError:
        return UnboundLocalError(self.reason or f"local variable '{self.name}' is used before it is assigned.")

    def __repr__(self):
        return f"<undefined {self.name}>"

    def _fail(self, *args, **kwargs):
        raise self.error()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = __array__ = __index__ = __float__ = __int__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __matmul__ = __rmatmul__ = __pow__ = __neg__ = __lt__ = __le__ = __gt__ = __ge__ = __floordiv__ = _fail


UNSET_RETURN = Undefined(RETVAL)


def raw(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


def is_traced(x: Any) -> bool:
    """Whether ``x`` is a value only known while the compiled graph runs (a JAX tracer)."""
    return isinstance(raw(x), jax.core.Tracer)


def normalize(values: Sequence[Any]) -> tuple[Any, ...]:
    """Parameters as plain Tensors of their current value (a carried value is no longer the Parameter)."""
    return tuple(jax.tree_util.tree_map(lambda t: wrap(t._value) if isinstance(t, Parameter) else t, v,
                                        is_leaf=lambda t: isinstance(t, (Tensor, Undefined))) for v in values)


class Leaf:
    __slots__ = ("shape", "dtype", "weak", "scalar", "static")

    def __init__(self, shape: tuple[int, ...] | None = None, dtype: Any = None, weak: bool = False,
                 scalar: bool = False, static: Any = None) -> None:
        self.shape, self.dtype, self.weak, self.scalar, self.static = shape, dtype, weak, scalar, static

    @property
    def is_array(self) -> bool:
        return self.dtype is not None

    def __repr__(self):
        if not self.is_array:
            return f"{type(self.static).__name__} {self.static!r:.40}"
        shape = cast("tuple[int, ...]", self.shape)  # an array leaf has one
        return f"{'Tensor' if self.scalar else 'array'} of shape {list(shape)} and dtype {self.dtype}"


def _is_leaf(x):
    return isinstance(x, (Tensor, Undefined))


def _leaf(x):
    if isinstance(x, Tensor):
        v = x._value
        weak = bool(getattr(getattr(v, "aval", None), "weak_type", False))
        return Leaf(tuple(jnp.shape(v)), jnp.result_type(v), weak, True)
    if isinstance(x, (jax.core.Tracer, jax.Array, np.ndarray, np.generic)):
        weak = bool(getattr(getattr(x, "aval", None), "weak_type", False))
        return Leaf(tuple(jnp.shape(x)), jnp.result_type(x), weak)
    if type(x) in (bool, int, float, complex):
        return Leaf((), to_array(x).dtype, True, True)
    return Leaf(static=x)


class Desc:
    """The description of one variable's value: undefined, or a treedef with Leaf descriptions."""

    __slots__ = ("undefined", "tree", "leaves")

    def __init__(self, value: Any) -> None:
        self.undefined = value if isinstance(value, Undefined) else None
        if self.undefined is None:
            leaves, self.tree = jax.tree_util.tree_flatten(value, is_leaf=_is_leaf)
            self.leaves = [_leaf(x) for x in leaves]
        else:
            self.tree, self.leaves = None, []

    def __repr__(self):
        if self.undefined is not None:
            return "undefined"
        if len(self.leaves) == 1 and self.tree.num_nodes <= 2:  # type: ignore[attr-defined]  # jax's stub lacks it
            return repr(self.leaves[0])
        return f"{self.tree} of [{', '.join(map(repr, self.leaves))}]"


def _same_static(a, b):
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def merge_dtype(a: Any, b: Any) -> Any:
    """The common dtype of two array leaves: a weakly typed one (a Python number) takes the other's dtype."""
    if a.dtype == b.dtype:
        return a.dtype
    if a.weak and b.weak:
        return jnp.result_type(a.dtype, b.dtype)
    if a.weak:
        return b.dtype
    if b.weak:
        return a.dtype
    return None


class Plan:
    """How one variable crosses a traced if/loop: ``static`` (same Python value), ``undefined`` or ``carry``."""

    __slots__ = ("kind", "value", "tree", "leaves")

    def __init__(self, kind: str, value: Any = None, tree: Any = None, leaves: list[Leaf] | None = None) -> None:
        self.kind, self.value, self.tree, self.leaves = kind, value, tree, leaves

    @classmethod
    def from_pair(cls, a: Any, b: Any, mismatch: Callable[[str], Plan]) -> Plan:
        """Merge the descriptions ``a`` and ``b``; ``mismatch(msg)`` handles differences (raise or poison)."""
        if a.tree != b.tree or len(a.leaves) != len(b.leaves):
            return mismatch(f"its type or structure differs ({a!r} vs {b!r})")
        leaves = []
        for la, lb in zip(a.leaves, b.leaves):
            if la.is_array != lb.is_array or (not la.is_array and not _same_static(la.static, lb.static)):
                return mismatch(f"its value differs ({la!r} vs {lb!r}); only Tensors and numbers can differ")
            if not la.is_array:
                leaves.append(la)
                continue
            if la.shape != lb.shape:
                return mismatch(f"its shape differs ({list(la.shape)} vs {list(lb.shape)})")
            dt = merge_dtype(la, lb)
            if dt is None:
                return mismatch(f"its dtype differs ({la.dtype} vs {lb.dtype})")
            leaves.append(Leaf(la.shape, dt, la.weak and lb.weak, la.scalar or lb.scalar))
        if not any(lf.is_array for lf in leaves):
            return cls("static", jax.tree_util.tree_unflatten(a.tree, [lf.static for lf in leaves]))
        return cls("carry", tree=a.tree, leaves=leaves)

    @classmethod
    def carry_of(cls, d: Desc) -> Plan:
        return cls("carry", tree=d.tree, leaves=d.leaves)

    def _carried(self) -> list[Leaf]:
        """The leaves of a carry plan (set for that kind)."""
        return cast("list[Leaf]", self.leaves)

    def pack(self, value: Any, what: str) -> list[Any]:
        """The arrays this plan carries for ``value`` (zeros where the value is undefined)."""
        if self.kind != "carry":
            return []
        if isinstance(value, Undefined):
            return [jnp.zeros(lf.shape, lf.dtype) for lf in self._carried() if lf.is_array]
        leaves = jax.tree_util.tree_leaves(value, is_leaf=_is_leaf)
        out = []
        for lf, x in zip(self._carried(), leaves):
            if not lf.is_array:
                continue
            arr = to_array(x) if type(x) in (bool, int, float, complex) else jnp.asarray(raw(x))
            if tuple(arr.shape) != lf.shape:
                raise ValueError(f"{what}: shape changed from {list(cast('tuple[int, ...]', lf.shape))} to "
                                 f"{list(arr.shape)}.")
            out.append(arr.astype(lf.dtype))
        return out

    def unpack(self, arrays: Sequence[Any]) -> tuple[Any, Sequence[Any]]:
        """(value, remaining arrays)."""
        if self.kind != "carry":
            return self.value, arrays
        leaves, i = [], 0
        for lf in self._carried():
            if lf.is_array:
                leaves.append(wrap(arrays[i]) if lf.scalar else arrays[i])
                i += 1
            else:
                leaves.append(lf.static)
        return jax.tree_util.tree_unflatten(self.tree, leaves), arrays[i:]


def pack_all(plans: Sequence[Plan], values: Sequence[Any], names: Sequence[str], site: tuple[str, int]) -> list[Any]:
    out = []
    for plan, v, n in zip(plans, values, names):
        out += plan.pack(v, f"{where(site)}: '{n}'")
    return out


def unpack_all(plans: Sequence[Plan], arrays: Sequence[Any]) -> tuple[Any, ...]:
    values = []
    for plan in plans:
        v, arrays = plan.unpack(arrays)
        values.append(v)
    return tuple(values)


def display(name: str) -> str:
    if name == RETVAL:
        return "the return value"
    if name == "ag__value":
        return "the value of this conditional expression"
    if name.startswith("ag__"):
        return f"an internal variable ({name})"
    return f"'{name}'"
