"""Tensor's elementwise, arithmetic, comparison and op-backed methods (``exp``, ``clip``, ``sinh``, ``scatter`` ...).

Every method here reaches its functional op through the op table (``_tensor_registry``): ``t.sinh()`` is
``ops.sinh(t)``. Methods whose MindSpore Tensor signature equals the op's (with ``self`` as the first input)
are generated from ``_SAME``; the others are small adapters below, still calling the op.
"""
from ._tensor_registry import defer_methods, lookup

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
unsorted_segment_max unsorted_segment_min unsorted_segment_prod scatter_add scatter_sub scatter_mul
scatter_div scatter_max scatter_min top_k approximate_equal triangular_solve tensor_scatter_elements
matrix_determinant log_matrix_determinant eigvals adjoint geqrf orgqr ormqr lu_solve reverse reverse_sequence
isclose logsumexp softmax t ravel fills inplace_update is_floating_point
""".split()}
_SAME.update(multiply="mul", subtract="subtract", ger="ger", floor_divide="floor_divide", remainder="remainder",
             true_divide="true_divide", not_equal="not_equal", greater="greater", greater_equal="greater_equal",
             less="less", less_equal="less_equal", equal="equal", eq="equal", ne="not_equal", gt="greater",
             ge="greater_equal", lt="less", le="less_equal", mul="mul", clamp="clamp", clip="clamp",
             inverse="inverse", log_softmax="log_softmax", select="select")

# In-place variants: ``t.name_(...)`` stores ``ops.<op>(t, ...)`` into ``t`` and returns ``t``.
_INPLACE = {"add_": "add", "sub_": "sub", "mul_": "mul", "div_": "div", "clamp_": "clamp", "clip_": "clamp",
            "masked_fill_": "masked_fill", "index_fill_": "index_fill", "scatter_": "scatter", "exp_": "exp",
            "floor_": "floor", "sqrt_": "sqrt", "abs_": "abs", "neg_": "neg",
            "tanh_": "tanh", "sigmoid_": "sigmoid", "relu_": "relu", "fill_diagonal_": "fill_diagonal"}


class TensorMathMethods:
    """Mixin: op-backed methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    def pow(self, exponent):
        return lookup("pow")(self, exponent)

    def add(self, other, *, alpha=1):
        return lookup("add")(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return lookup("sub")(self, other, alpha=alpha)

    def div(self, other, *, rounding_mode=None):
        return lookup("div")(self, other, rounding_mode=rounding_mode)

    divide = div

    def round(self, decimals=0):
        return lookup("round")(self, decimals=decimals)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(lookup("isclose")(self, other, rtol, atol, equal_nan).all())

    def diag(self):
        return lookup("diag")(self)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None):
        """Sum of the ``offset`` diagonal over (axis1, axis2)."""
        out = lookup("diagonal")(self, offset, axis1, axis2).sum(-1)
        return out if dtype is None else out.astype(dtype)

    def softmax(self, axis=-1):
        return lookup("softmax")(self, axis)

    def scatter(self, axis, index, src):
        return lookup("scatter")(self, axis, index, src)

    def gather_elements(self, dim, index):
        return lookup("gather_elements")(self, dim, index)

    def roll(self, shifts, dims=None):
        return lookup("roll")(self, shifts, dims)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """The sorted unique values (with ``return_inverse`` / ``return_counts``, a tuple), like ``torch.unique``."""
        return lookup("_unique_sorted")(self, return_inverse, return_counts, dim)

    def expand(self, size):
        return lookup("expand")(self, size)

    def hardshrink(self, lambd=0.5):
        return lookup("hardshrink")(self, lambd)

    def erfinv(self):
        return lookup("erfinv")(self)

    def logical_xor(self, other):
        return lookup("logical_xor")(self, other)

    def bitwise_not(self):
        return lookup("invert")(self)

    def new_zeros(self, size, *, dtype=None):
        """Zeros of shape ``size`` with this Tensor's dtype (or ``dtype``)."""
        return lookup("zeros")(size, dtype or self.dtype)

    def new_ones(self, size, *, dtype=None):
        return lookup("ones")(size, dtype or self.dtype)

    def new_full(self, size, fill_value, *, dtype=None):
        return lookup("full")(size, fill_value, dtype=dtype or self.dtype)

    def new_empty(self, size, *, dtype=None, device=None):
        return lookup("zeros")(size, dtype or self.dtype)

    def searchsorted(self, v, *, out_int32=True, right=False, side=None, sorter=None):
        """Insertion indices of ``v`` into this sorted Tensor (Int32 by default, as MindSpore's Tensor method)."""
        return lookup("searchsorted")(self, v, out_int32=out_int32, right=right, side=side, sorter=sorter)

    def is_complex(self):
        return lookup("is_complex")(self)

    def is_signed(self):
        return self.dtype.to_numpy().kind in "fic" or str(self.dtype).startswith("BFloat")

    @property
    def mH(self):
        """The conjugate transpose of the last two axes."""
        return lookup("adjoint")(self)

    @property
    def H(self):
        """The conjugate transpose of a 2-D Tensor."""
        if self.ndim != 2:
            raise ValueError(f"Tensor.H: the Tensor must be 2-D, but got shape {self.shape}.")
        return lookup("adjoint")(self)

    def ndimension(self):
        return self.ndim

    def bfloat16(self):
        return lookup("cast")(self, "bfloat16")

    def byte(self):
        """Cast to UInt8; floats go through Int32 first, so negatives wrap (-2.9 -> 254) as in MindSpore."""
        src = lookup("cast")(self, "int32") if self.is_floating_point() else self
        return lookup("cast")(src, "uint8")

    def short(self):
        return lookup("cast")(self, "int16")

    def index_add(self, dim, index, source, *, alpha=1):
        """A copy with ``alpha * source`` added into the slices ``index`` along ``dim``."""
        return lookup("_index_add_copy")(self, index, source if alpha == 1 else source * alpha, dim)

    def index_add_(self, dim, index, source, *, alpha=1):
        """In-place ``index_add``; returns self."""
        self._set_value(self.index_add(dim, index, source, alpha=alpha)._value.astype(self._value.dtype))
        return self

    # ---- in-place ----
    def zero_(self):
        """Set every element to 0; returns self."""
        return self.fill_(0)

    def fill_(self, value):
        """Set every element to ``value``; returns self."""
        out = lookup("full_like")(self, value)
        self._set_value(out._value.astype(self._value.dtype))
        return self

    def copy_(self, src, non_blocking=False):
        """Copy ``src`` (broadcast, cast to this dtype) into self; returns self."""
        out = lookup("broadcast_to")(lookup("cast")(src, self.dtype), self.shape)
        self._set_value(out._value)
        return self


defer_methods(TensorMathMethods, _SAME)
defer_methods(TensorMathMethods, _INPLACE, inplace=True)
