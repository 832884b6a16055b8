"""Tensor's elementwise, arithmetic, comparison and op-backed methods (``exp``, ``clip``, ``sinh``, ``scatter`` ...).

Every method here reaches its functional op through the op table (``_tensor_registry``): ``t.sinh()`` is
``ops.sinh(t)``. Methods whose MindSpore Tensor signature equals the op's (with ``self`` as the first input)
are generated from ``_SAME``; the others are small adapters below, still calling the op.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import dtype as mstype
from ._tensor_mixin import TensorMixin
from ._tensor_registry import defer_methods, lookup

if TYPE_CHECKING:  # common.tensor builds Tensor from this mixin: a runtime import would be circular
    from .tensor import Tensor

# Tensor method name -> op name, where ``Tensor.m(self, *args)`` is ``ops.<op>(self, *args)``.
_SAME = {n: n for n in """
abs absolute neg negative exp exp2 expm1 log log1p log2 log10 sqrt rsqrt square reciprocal sin cos tan asin acos
atan arcsin arccos arctan sinh cosh asinh acosh atanh arcsinh arccosh arctanh sigmoid tanh relu sign floor ceil
trunc erf erfc erfinv lgamma digamma i0 sinc deg2rad rad2deg frac signbit sgn positive angle real imag conj isreal
isneginf isposinf isnan isinf isfinite logical_not logical_and logical_or logical_xor bitwise_and bitwise_or
bitwise_xor bitwise_left_shift bitwise_right_shift copysign fmax fmin fmod gcd lcm heaviside hypot ldexp logaddexp
logaddexp2 nextafter xlogy xdivy atan2 arctan2 maximum minimum float_power lerp addcdiv addcmul tril triu
isclose nan_to_num invert inv logit mvlgamma igamma igammac polygamma zeta hardshrink soft_shrink diff
diagonal diagflat diag_embed fliplr flipud rot90 roll hsplit vsplit dsplit tensor_split unbind swapdims moveaxis
movedim take gather_elements gather_nd scatter index_fill select_scatter slice_scatter diagonal_scatter
masked_scatter bincount histc renorm logcumsumexp cummax cummin cumprod nanmean nanmedian
median quantile nanquantile count_nonzero aminmax argwhere msort unique_consecutive repeat_interleave expand_as
type_as view_as mm bmm matmul dot inner outer ger kron addmm addbmm addmv addr baddbmm
det inverse matrix_power logdet slogdet cholesky cholesky_inverse cholesky_solve qr svd pinv lstsq cross cov
unsorted_segment_max unsorted_segment_min unsorted_segment_prod top_k approximate_equal triangular_solve
tensor_scatter_elements
matrix_determinant log_matrix_determinant eigvals adjoint geqrf orgqr ormqr lu_solve reverse reverse_sequence
isclose logsumexp softmax t ravel fills inplace_update is_floating_point
""".split()}
_SAME.update(multiply="mul", subtract="subtract", ger="ger", floor_divide="floor_divide", remainder="remainder",
             true_divide="true_divide", not_equal="not_equal", greater="greater", greater_equal="greater_equal",
             less="less", less_equal="less_equal", equal="equal", eq="equal", ne="not_equal", gt="greater",
             ge="greater_equal", lt="less", le="less_equal", mul="mul", clamp="clamp", clip="clamp",
             inverse="inverse", log_softmax="log_softmax")

# In-place variants: ``t.name_(...)`` stores ``ops.<op>(t, ...)`` into ``t`` and returns ``t``.
_INPLACE = {"add_": "add", "sub_": "sub", "mul_": "mul", "div_": "div", "clamp_": "clamp", "clip_": "clamp",
            "masked_fill_": "masked_fill", "index_fill_": "index_fill", "exp_": "exp",
            "floor_": "floor", "sqrt_": "sqrt", "abs_": "abs", "neg_": "neg",
            "tanh_": "tanh", "sigmoid_": "sigmoid", "relu_": "relu", "fill_diagonal_": "fill_diagonal"}


class TensorMathMethods(TensorMixin):
    """Mixin: op-backed methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    if TYPE_CHECKING:  # defined by another mixin of Tensor
        def is_floating_point(self) -> bool: ...

    def pow(self, exponent: Tensor | float) -> Tensor:
        return lookup("pow")(self, exponent)

    def add(self, other: Tensor | float, *, alpha: Tensor | float = 1) -> Tensor:
        return lookup("add")(self, other, alpha=alpha)

    def sub(self, other: Tensor | float, *, alpha: Tensor | float = 1) -> Tensor:
        return lookup("sub")(self, other, alpha=alpha)

    def div(self, other: Tensor | float, *, rounding_mode: str | None = None) -> Tensor:
        return lookup("div")(self, other, rounding_mode=rounding_mode)

    divide = div

    def round(self, decimals: int = 0) -> Tensor:
        return lookup("round")(self, decimals=decimals)

    def allclose(self, other: Tensor | float, rtol: float = 1e-05, atol: float = 1e-08,
                 equal_nan: bool = False) -> bool:
        return bool(lookup("isclose")(self, other, rtol, atol, equal_nan).all())

    def diag(self) -> Tensor:
        return lookup("diag")(self)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: mstype.Type | None = None) -> Tensor:
        """Sum of the ``offset`` diagonal over (axis1, axis2)."""
        out = lookup("diagonal")(self, offset, axis1, axis2).sum(-1)
        return out if dtype is None else out.astype(dtype)

    def softmax(self, axis: int = -1) -> Tensor:
        return lookup("softmax")(self, axis)

    def scatter(self, axis: int, index: Tensor, src: Tensor) -> Tensor:
        return lookup("scatter")(self, axis, index, src)

    def gather_elements(self, dim: int, index: Tensor) -> Tensor:
        return lookup("gather_elements")(self, dim, index)

    def roll(self, shifts: int | tuple[int, ...], dims: tuple[int, ...] | None = None) -> Tensor:
        return lookup("roll")(self, shifts, dims)

    def unique(self, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
               dim: int | None = None) -> Tensor | tuple[Tensor, ...]:
        """The sorted unique values (with ``return_inverse`` / ``return_counts``, a tuple), like ``torch.unique``."""
        return lookup("_unique_sorted")(self, return_inverse, return_counts, dim)

    def expand(self, *size: Any) -> Tensor:
        """Broadcast to ``size``, given as ints (``t.expand(2, 3)``) or one tuple / list / Tensor; -1 keeps a
        dimension."""
        if len(size) == 1 and not isinstance(size[0], int):
            size = size[0]
        return lookup("expand")(self, size)

    def hardshrink(self, lambd: float = 0.5) -> Tensor:
        return lookup("hardshrink")(self, lambd)

    def erfinv(self) -> Tensor:
        return lookup("erfinv")(self)

    def logical_xor(self, other: Tensor | float) -> Tensor:
        return lookup("logical_xor")(self, other)

    def bitwise_not(self) -> Tensor:
        return lookup("invert")(self)

    def select(self, *args: Any, **kwargs: Any) -> Tensor:
        """MindSpore 2.10's two overloads: ``select(dim, index)``, the slice at ``index`` along ``dim`` (that axis
        removed); ``select(condition, y)``, ``self`` where ``condition`` is True, else ``y`` (``ops.select``).

        >>> Tensor([[2, 3], [4, 5]]).select(1, -1).asnumpy().tolist()
        [3, 5]
        """
        by_dim = "dim" in kwargs or bool(args) and isinstance(args[0], int) and not isinstance(args[0], bool)
        names = ("dim", "index") if by_dim else ("condition", "y")
        bound = dict(zip(names, args), **kwargs)
        if set(bound) != set(names) or len(args) > 2:
            raise TypeError(f"Tensor.select takes (dim, index) or (condition, y), but got {len(args)} positional "
                            f"and the keyword arguments {sorted(kwargs)}.")
        if not by_dim:
            return lookup("select")(bound["condition"], self, bound["y"])
        dim, index = bound["dim"], bound["index"]
        size = self.shape[dim] if -self.ndim <= dim < self.ndim else 0
        if not -size <= index < size:
            raise IndexError(f"Tensor.select: index {index} along dim {dim} is out of range for shape {self.shape}.")
        return lookup("squeeze")(lookup("narrow")(self, dim, index % size, 1), dim)

    def new_zeros(self, size: int | tuple[int, ...], *, dtype: mstype.Type | None = None) -> Tensor:
        """Zeros of shape ``size`` with this Tensor's dtype (or ``dtype``)."""
        return lookup("zeros")(size, dtype or self.dtype)

    def new_ones(self, size: int | tuple[int, ...], *, dtype: mstype.Type | None = None) -> Tensor:
        return lookup("ones")(size, dtype or self.dtype)

    def new_full(self, size: int | tuple[int, ...], fill_value: Tensor | float, *,
                 dtype: mstype.Type | None = None) -> Tensor:
        return lookup("full")(size, fill_value, dtype=dtype or self.dtype)

    def new_empty(self, size: int | tuple[int, ...], *, dtype: mstype.Type | None = None,
                  device: str | None = None) -> Tensor:
        return lookup("zeros")(size, dtype or self.dtype)

    def searchsorted(self, v: Tensor | float, *, out_int32: bool = True, right: bool = False, side: str | None = None,
                     sorter: Tensor | None = None) -> Tensor:
        """Insertion indices of ``v`` into this sorted Tensor (Int32 by default, as MindSpore's Tensor method)."""
        return lookup("searchsorted")(self, v, out_int32=out_int32, right=right, side=side, sorter=sorter)

    def is_complex(self) -> bool:
        return lookup("is_complex")(self)

    def is_signed(self) -> bool:
        # A Tensor's dtype is concrete: to_numpy() is None only for the abstract String/Number types.
        return self.dtype.to_numpy().kind in "fic" or str(self.dtype).startswith("BFloat")  # type: ignore[union-attr]

    @property
    def mH(self) -> Tensor:
        """The conjugate transpose of the last two axes."""
        return lookup("adjoint")(self)

    @property
    def H(self) -> Tensor:
        """The conjugate transpose of a 2-D Tensor."""
        if self.ndim != 2:
            raise ValueError(f"Tensor.H: the Tensor must be 2-D, but got shape {self.shape}.")
        return lookup("adjoint")(self)

    def ndimension(self) -> int:
        return self.ndim

    def bfloat16(self) -> Tensor:
        return lookup("cast")(self, "bfloat16")

    def byte(self) -> Tensor:
        """Cast to UInt8; floats go through Int32 first, so negatives wrap (-2.9 -> 254) as in MindSpore."""
        src = lookup("cast")(self, "int32") if self.is_floating_point() else self
        return lookup("cast")(src, "uint8")

    def short(self) -> Tensor:
        return lookup("cast")(self, "int16")

    def index_add(self, dim: int, index: Tensor, source: Tensor, *,
                  alpha: Tensor | float = 1) -> Tensor:
        """A copy with ``alpha * source`` added into the slices ``index`` along ``dim``."""
        return lookup("_index_add_copy")(self, index, source if alpha == 1 else source * alpha, dim)

    def index_add_(self, dim: int, index: Tensor, source: Tensor, *,
                   alpha: Tensor | float = 1) -> Tensor:
        """In-place ``index_add``; returns self."""
        self._set_value(self.index_add(dim, index, source, alpha=alpha)._value.astype(self._value.dtype))
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)

    # ``t.scatter_<kind>(indices, updates)`` is ``ops.tensor_scatter_<kind>``: a new Tensor (not the in-place
    # ``ops.scatter_<kind>`` on a Parameter).
    def scatter_add(self, *args: object, **kwargs: object) -> Tensor:
        """``scatter_add(dim, index, src)``: a copy with ``src`` added along ``dim`` at ``index`` (as
        ``torch.scatter_add``); ``scatter_add(indices, updates)``: ``ops.tensor_scatter_add``."""
        if (args and isinstance(args[0], int)) or "dim" in kwargs:
            return _scatter_elements("scatter_add", self, args, kwargs, "add")
        return lookup("tensor_scatter_add")(self, *args, **kwargs)

    def scatter_sub(self, indices: Tensor, updates: Tensor) -> Tensor:
        return lookup("tensor_scatter_sub")(self, indices, updates)

    def scatter_mul(self, indices: Tensor, updates: Tensor) -> Tensor:
        return lookup("tensor_scatter_mul")(self, indices, updates)

    def scatter_div(self, indices: Tensor, updates: Tensor) -> Tensor:
        return lookup("tensor_scatter_div")(self, indices, updates)

    def scatter_max(self, indices: Tensor, updates: Tensor) -> Tensor:
        return lookup("tensor_scatter_max")(self, indices, updates)

    def scatter_min(self, indices: Tensor, updates: Tensor) -> Tensor:
        return lookup("tensor_scatter_min")(self, indices, updates)

    # ---- in-place ----
    def scatter_(self, dim: int, index: Tensor, src: Tensor | float | None = None, *, value: float | None = None,
                 reduce: str | None = None) -> Tensor:
        """In place: ``self[index[i][j]][j] = src[i][j]`` (``dim`` 0) etc.; ``src`` may be a scalar (or ``value``);
        ``reduce='add'`` accumulates. Returns self."""
        src = value if src is None else src
        if reduce not in (None, "add"):  # 'multiply' (an Ascend kernel in MindSpore 2.10) is not implemented
            raise ValueError(f"For 'Tensor.scatter_', 'reduce' must be None or 'add', but got {reduce!r}.")
        if not isinstance(src, TensorMixin):
            src = lookup("full")(index.shape, src, dtype=self.dtype)
        out = lookup("tensor_scatter_elements")(self, index, src, dim, "none" if reduce is None else "add")
        self._set_value(out._value)
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)

    def zero_(self) -> Tensor:
        """Set every element to 0; returns self."""
        return self.fill_(0)

    def fill_(self, value: Tensor | float) -> Tensor:
        """Set every element to ``value``; returns self."""
        out = lookup("full_like")(self, value)
        self._set_value(out._value.astype(self._value.dtype))
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)

    def copy_(self, src: Tensor | float, non_blocking: bool = False) -> Tensor:
        """Copy ``src`` (broadcast, cast to this dtype) into self; returns self."""
        out = lookup("broadcast_to")(lookup("cast")(src, self.dtype), self.shape)
        self._set_value(out._value)
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)


def _scatter_elements(name: str, self: TensorMathMethods, args: tuple, kwargs: dict, reduction: str) -> Tensor:
    bound = dict(zip(("dim", "index", "src"), args), **kwargs)
    if set(bound) != {"dim", "index", "src"}:
        raise TypeError(f"For 'Tensor.{name}', expected (dim, index, src), but got {sorted(bound)}.")
    return lookup("tensor_scatter_elements")(self, bound["index"], bound["src"], bound["dim"], reduction)


defer_methods(TensorMathMethods, _SAME)
defer_methods(TensorMathMethods, _INPLACE, inplace=True)
