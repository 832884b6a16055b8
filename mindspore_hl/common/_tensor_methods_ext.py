"""More Tensor methods: storage and device queries, byte conversion, ``resize`` / ``itemset`` / ``sum_to_size``,
op-backed methods (``choose``, ``index_put``, ``fold`` ...) and the random fill methods.

Storage queries describe what a Tensor truly is here: a JAX array owning one contiguous row-major buffer (no
views: slicing copies), so ``storage_offset()`` is 0 and ``stride()`` lists the contiguous strides, and no
buffer is pinned or shared. Op-backed methods reach their functional op through the op table.
"""
from __future__ import annotations

import builtins
import functools
import itertools
import weakref
from typing import TYPE_CHECKING, Any, Callable, Sequence

import jax
import numpy as np

from . import dtype as mstype
from ._storage import UntypedStorage, storage_of
from ._tensor_methods import _TENSOR_HELPERS
from ._tensor_mixin import TensorMixin
from ._tensor_registry import lookup
from .seed import seed_from_generator

if TYPE_CHECKING:  # common.tensor builds Tensor from this mixin: a runtime import would be circular
    from .tensor import Tensor

_DEVICES = ("Ascend", "GPU", "CPU")
_PLATFORMS = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU"}


def _w(x: Any) -> Tensor:
    return _TENSOR_HELPERS["wrap"](x)


def _arr(x: Any, dtype: Any = None) -> Any:
    return _TENSOR_HELPERS["to_array"](x, dtype)


class _Capsule:
    """Gives a bare DLPack capsule the ``__dlpack__`` protocol that ``jax.dlpack.from_dlpack`` asks for."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[builtins.int, builtins.int]:
        return (1, 0)  # kDLCPU: a bare capsule carries no device this side can read; host memory is assumed


class _Hooks:
    """A Tensor's gradient hooks by handle id, in registration order (hashable by identity for custom_vjp)."""

    def __init__(self) -> None:
        self.fns: dict[builtins.int, Callable[[Any], Any]] = {}


_HOOK_IDS = itertools.count(1)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def _through_hooks(hooks: _Hooks, x: Any) -> Any:
    return x


def _hooks_fwd(hooks: _Hooks, x: Any) -> tuple[Any, None]:
    return x, None


def _hooks_bwd(hooks: _Hooks, _res: None, grad: Any) -> tuple[Any]:
    # The hooks registered when the gradient arrives run in order; each may replace it (None keeps it).
    for fn in list(hooks.fns.values()):
        out = fn(_w(grad))
        if out is not None:
            grad = _arr(out).astype(grad.dtype)
    return (grad,)


_through_hooks.defvjp(_hooks_fwd, _hooks_bwd)


def with_grad_hooks(tensor: Any, value: Any) -> Any:
    """``value`` routed through the gradient hooks registered on ``tensor`` (an input or Parameter being
    differentiated); ``value`` itself when ``tensor`` has none. The gradient engine calls this."""
    hooks = getattr(tensor, "_grad_hooks", None)
    return value if hooks is None else _through_hooks(hooks, value)


class _TensorHookHandle:
    """Returned by ``Tensor.register_hook``: ``remove()`` unregisters the hook."""

    def __init__(self, tensor: Any, hooks: _Hooks, hook_id: builtins.int) -> None:
        self.id = hook_id
        self.tensor_weakref = weakref.ref(tensor)
        self._hooks = hooks  # the backward pass may still hold them after the Tensor object is gone

    def remove(self) -> None:
        self._hooks.fns.pop(self.id, None)


class TensorExtMethods(TensorMixin):
    """Mixin with more of MindSpore's Tensor methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    if TYPE_CHECKING:  # defined by another mixin of Tensor
        def astype(self, dtype: Any, copy: builtins.bool = True) -> Tensor: ...

        def ravel(self) -> Tensor: ...

    # ---- what the Tensor is --------------------------------------------------------------------
    def type(self, dtype: Any = None) -> builtins.str | Tensor:
        """The dtype's name (``'Float32'``) without ``dtype``; else a copy cast to ``dtype``."""
        if dtype is None:
            return str(self.dtype)
        return self.astype(dtype)

    def stride(self, dim: builtins.int | None = None) -> list[builtins.int] | builtins.int:
        """Elements to skip per step along each axis (row-major: every Tensor owns a contiguous buffer)."""
        strides, acc = [], 1
        for s in reversed(self.shape):
            strides.append(acc)
            acc *= s
        out = strides[::-1]
        return out if dim is None else out[dim]

    def storage_offset(self) -> builtins.int:
        """Offset of the first element in the buffer: always 0 (slicing copies, there are no views)."""
        return 0

    def data_ptr(self) -> builtins.int:
        """Address of the Tensor's buffer (host address on CPU, device address on an accelerator)."""
        v = self._value
        if isinstance(v, jax.core.Tracer):
            raise RuntimeError("Tensor.data_ptr: the tensor is being compiled and has no buffer yet.")
        return v.unsafe_buffer_pointer()

    @property
    def is_meta(self) -> builtins.bool:
        """False: every Tensor here holds data."""
        return False

    def is_pinned(self) -> builtins.bool:
        """False: buffers live in ordinary (pageable) host memory or device memory."""
        return False

    def is_shared(self) -> builtins.bool:
        """False: buffers are never placed in shared memory."""
        return False

    def untyped_storage(self) -> UntypedStorage:
        """The Tensor's bytes as an :class:`UntypedStorage` (the same object on every call; see ``_storage``)."""
        return storage_of(self)  # type: ignore[arg-type]  # self is a Tensor: the mixin is only part of one

    def storage(self) -> UntypedStorage:
        """The same :class:`UntypedStorage` as :meth:`untyped_storage` (MindSpore 2.10 has no typed storage)."""
        return self.untyped_storage()

    @property
    def device(self) -> builtins.str:
        """The device kind holding the Tensor: ``'CPU'`` or ``'GPU'`` (``'TPU'`` etc. for other backends)."""
        v = self._value
        platform = next(iter(v.devices())).platform if isinstance(v, jax.Array) else jax.default_backend()
        return _PLATFORMS.get(platform, platform.upper())

    def move_to(self, to: builtins.str, blocking: builtins.bool = True) -> Tensor:
        """A copy on device kind ``to``: the host (``'CPU'``, from any device, as MindSpore offloads) or the kind
        this process computes on."""
        if not isinstance(blocking, bool):
            raise ValueError(f"The type of 'blocking' must be bool, but got {blocking}")
        if to not in _DEVICES:
            raise ValueError(f"The value of 'to' must be one of ['Ascend', 'GPU', 'CPU'], but got {to}")
        here = _PLATFORMS.get(jax.default_backend(), jax.default_backend().upper())
        if to not in (here, "CPU"):
            raise RuntimeError(f"The value of arg 'to' of method 'move_to' should be same with device target, "
                               f"but got to:{to}, device target: {here}")
        device = jax.devices("cpu")[0] if to == "CPU" else None
        out = _w(jax.device_put(self._value, device, may_alias=False))
        if blocking:
            out._value.block_until_ready()
        return out

    # ---- gradient hooks ---------------------------------------------------------------------------
    def register_hook(self, hook: Callable[[Any], Any]) -> _TensorHookHandle:
        """Call ``hook(grad)`` with the gradient reaching this Tensor during differentiation (``ops.grad``,
        ``value_and_grad`` ...); a returned Tensor replaces the gradient. Returns a handle with ``remove()``.

        The Tensor may be computed inside the differentiated function (its uses after the registration see
        the hook), or be an input or Parameter the gradient is taken with respect to (the gradient engine
        routes it through its hooks, :func:`with_grad_hooks`).
        """
        if not callable(hook):
            raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
        hooks = getattr(self, "_grad_hooks", None)
        if hooks is None:
            hooks = _Hooks()
            object.__setattr__(self, "_grad_hooks", hooks)
            v = self._value
            if isinstance(v, jax.core.Tracer):  # computed inside the function: later uses read the hooked value
                self._set_value(_through_hooks(hooks, v))
        hook_id = next(_HOOK_IDS)
        hooks.fns[hook_id] = hook
        return _TensorHookHandle(self, hooks, hook_id)

    def hooks(self) -> list[Callable[[Any], Any]]:
        """The gradient hooks registered on this Tensor, in order."""
        hooks = getattr(self, "_grad_hooks", None)
        return [] if hooks is None else list(hooks.fns.values())

    # ---- value access ---------------------------------------------------------------------------
    def value(self) -> Tensor:
        """The Tensor itself (``Parameter.value()`` gives its current value)."""
        return self  # type: ignore[return-value]

    @property
    def data(self) -> Tensor:
        """The Tensor's data; it shares this Tensor's storage (writes to it are writes to this Tensor)."""
        return self  # type: ignore[return-value]

    @data.setter
    def data(self, new: Any) -> None:
        self._set_value(_arr(new))

    @property
    def init(self) -> Any:
        """The initializer of a lazily initialised Tensor (``Tensor(shape=, dtype=, init=)``), else None."""
        pending = self._init
        return None if pending is None else pending[0]

    @property
    def const_arg(self) -> builtins.bool:
        """Whether a compiled network takes this Tensor as a constant (see ``set_const_arg``)."""
        return getattr(self, "_const_arg", False)

    @const_arg.setter
    def const_arg(self, value: builtins.bool) -> None:
        object.__setattr__(self, "_const_arg", value)  # Tensor instances have a __dict__; the mixin has no slots

    def set_const_arg(self, const_arg: builtins.bool = True) -> Tensor:
        """Mark the Tensor as a constant network argument; returns self."""
        if not isinstance(const_arg, bool):
            raise TypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', but got type "
                            f"'{type(const_arg).__name__}'.")
        self.const_arg = const_arg
        return self  # type: ignore[return-value]

    def get_bytes(self) -> builtins.bytes:
        """The raw bytes of the data (row-major, native byte order)."""
        return self.asnumpy().tobytes()

    @staticmethod
    def convert_bytes_to_tensor(bytes_data: builtins.bytes, shape: Sequence[builtins.int], dtype: Any) -> Tensor:
        """A Tensor of ``shape`` and ``dtype`` read from ``bytes_data`` (zero-padded or cut to the size)."""
        np_dtype = mstype.to_ms_dtype(dtype).to_numpy()
        shape = tuple(shape)
        need = int(np.prod(shape, dtype=np.int64)) * np.dtype(np_dtype).itemsize
        raw = bytes(bytes_data)[:need].ljust(need, b"\0")
        return _w(_arr(np.frombuffer(raw, np_dtype).reshape(shape)))

    @staticmethod
    def from_dlpack(dlpack: Any) -> Tensor:
        """A Tensor sharing the memory of a DLPack capsule or of an object with ``__dlpack__``."""
        source = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
        return _w(jax.dlpack.from_dlpack(source))

    def to_dlpack(self) -> Any:
        """A DLPack capsule of the Tensor's buffer (consumed once by ``from_dlpack``)."""
        return self._value.__dlpack__()

    # ---- shape and element updates (new Tensors) -----------------------------------------------
    def resize(self, *new_shape: builtins.int | tuple[builtins.int, ...]) -> Tensor:
        """A Tensor of ``new_shape`` filled with the elements in order, zero-padded (self when no shape)."""
        if not new_shape:
            return self  # type: ignore[return-value]
        shape = new_shape[0] if len(new_shape) == 1 and isinstance(new_shape[0], tuple) else new_shape
        flat = self.ravel()
        size = int(np.prod(shape, dtype=np.int64))
        if size > flat.size:
            flat = lookup("concat")((flat, lookup("zeros")((size - flat.size,), self.dtype)), 0)
        else:
            flat = flat[:size]  # Python slicing, as MindSpore: resize(-1) drops the last element
        return flat.reshape(shape)

    def itemset(self, *args: Any) -> Tensor:
        """A copy with ``copy[args[:-1]] = args[-1]`` (the value cast to the Tensor's dtype)."""
        if not args:
            raise ValueError("'Tensor.itemset()' must have at least one argument, but got None.")
        if len(args) == 1:
            if self.shape != (1,):
                raise IndexError(f"Only tensor which shape is (1,) support 1 arg that means omit index, but the "
                                 f"tensor shape is {self.shape} and got 1 input.")
            index: Any = 0
        else:
            index = args[0]
        flat = self.ravel().copy()
        if isinstance(index, tuple):
            index = int(np.ravel_multi_index(index, self.shape))
        elif not -flat.size <= index < flat.size:
            raise IndexError(f"index {index} is out of bounds for axis 0 with size {flat.size}")
        flat[index] = args[-1]
        return flat.reshape(self.shape)

    def sum_to_size(self, *size: builtins.int | tuple[builtins.int, ...]) -> Tensor:
        """The sum of the Tensor down to ``size`` (which must expand to the Tensor's shape)."""
        shape = size[0] if len(size) == 1 and isinstance(size[0], tuple) else size
        lead = self.ndim - len(shape)
        if lead < 0:
            raise ValueError(f"For sum_to_size, size {shape} is not expandable to the tensor size {self.shape}.")
        axes = list(range(lead))
        for i, s in enumerate(shape):
            if s != self.shape[lead + i]:
                if s != 1:
                    raise ValueError(f"For sum_to_size, size {shape} is not expandable to the tensor size "
                                     f"{self.shape}.")
                axes.append(lead + i)
        if not axes:
            return self  # type: ignore[return-value]
        return lookup("sum")(self, tuple(axes), True).reshape(shape)

    # ---- op-backed ------------------------------------------------------------------------------
    def choose(self, choices: Any, mode: builtins.str = "clip") -> Tensor:
        """``out[i] = choices[self[i]][i]`` (see ``numpy.choose``; modes 'clip' and 'wrap')."""
        return lookup("choose")(self, choices, mode)

    def fill_diagonal(self, fill_value: builtins.float, wrap: builtins.bool = False) -> Tensor:
        """A copy with the main diagonal set to ``fill_value``."""
        return lookup("fill_diagonal")(self, fill_value, wrap)

    def index_put(self, indices: Sequence[Tensor], values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        """A copy with ``copy[indices] = values`` (added with ``accumulate``)."""
        return lookup("index_put")(self, indices, values, accumulate)

    def kthvalue(self, k: builtins.int, dim: builtins.int = -1, keepdim: builtins.bool = False) -> tuple[Any, Any]:
        """(values, Int64 indices) of the k-th smallest elements along ``dim``."""
        return lookup("kthvalue")(self, k, dim, keepdim)

    def unique_with_pad(self, pad_num: builtins.int) -> tuple[Any, Any]:
        """(unique values padded with ``pad_num`` to the input's length, index of each input in them)."""
        if self.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Tensor.unique_with_pad', the input must be an Int32 or Int64 Tensor, but got "
                            f"{self.dtype}.")
        return lookup("unique_with_pad")(self, pad_num)

    def col2im(self, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any, stride: Any) -> Tensor:
        """``ops.col2im(self, ...)``: sum sliding blocks back into an image."""
        return lookup("col2im")(self, output_size, kernel_size, dilation, padding_value, stride)

    def fold(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
        """``ops.fold(self, ...)``: sum sliding blocks back into an image."""
        return lookup("fold")(self, output_size, kernel_size, dilation, padding, stride)

    def unfold(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
        """``ops.unfold(self, ...)``: sliding blocks of an image as columns."""
        return lookup("unfold")(self, kernel_size, dilation, padding, stride)

    # ---- random ---------------------------------------------------------------------------------
    def bernoulli(self, *, generator: Any = None) -> Tensor:
        """0/1 samples, each 1 with the probability held in this (floating) Tensor."""
        if np.dtype(self._value.dtype).kind != "f" and str(self.dtype) != "BFloat16":
            raise TypeError(f"For primitive[BernoulliExt], the input[input] supports types: Float16, Float32, "
                            f"Float64, BFloat16. But got {self.dtype}.")
        return lookup("bernoulli")(self, self, seed_from_generator(generator, "Tensor.bernoulli"))

    def multinomial(self, num_samples: builtins.int, replacement: builtins.bool = True,
                    seed: builtins.int | None = None) -> Tensor:
        """Int32 category indices drawn from the rows of this Tensor (unnormalised probabilities)."""
        return lookup("multinomial")(self, num_samples, replacement, seed)

    def random_categorical(self, num_sample: builtins.int, seed: builtins.int = 0,
                           dtype: mstype.Type = mstype.int64) -> Tensor:
        """``num_sample`` category indices per row of these 2-D logits."""
        for name, v in (("num_sample", num_sample), ("seed", seed)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"The type of '{name}' must be 'int', but got '{type(v).__name__}'.")
        return lookup("random_categorical")(self, num_sample, seed, dtype)

    def uniform(self, from_: builtins.float = 0., to: builtins.float = 1., generator: Any = None) -> Tensor:
        """Uniform [from_, to) samples in this Tensor's shape and dtype."""
        if from_ > to:
            raise TypeError(f"For 'Tensor.uniform', 'from_' ({from_}) must not be larger than 'to' ({to}).")
        return lookup("uniform")(self.shape, from_, to, seed_from_generator(generator, "Tensor.uniform"), self.dtype)

    def uniform_(self, from_: builtins.float = 0, to: builtins.float = 1, *, generator: Any = None) -> Tensor:
        """Fill this Tensor in place with uniform [from_, to) samples; returns self."""
        lo, hi = (float(np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v).reshape(-1)[0]) for v in (from_, to))
        if lo > hi:
            raise RuntimeError(f"For 'Tensor.uniform_', 'from_' ({lo}) must not be larger than 'to' ({hi}).")
        out = lookup("uniform")(self.shape, lo, hi, seed_from_generator(generator, "Tensor.uniform_"), mstype.float32)
        self._set_value(out._value.astype(self._value.dtype))
        return self  # type: ignore[return-value]

    def normal_(self, mean: builtins.float = 0, std: builtins.float = 1, *, generator: Any = None) -> Tensor:
        """Fill this Tensor in place with Normal(mean, std) samples; returns self."""
        out = lookup("normal")(self.shape, mean, std, seed_from_generator(generator, "Tensor.normal_"))
        self._set_value(out._value.astype(self._value.dtype))
        return self  # type: ignore[return-value]

    def log_normal(self, mean: builtins.float = 1.0, std: builtins.float = 2.0) -> Tensor:
        """exp(Normal(mean, std)) samples in this (floating) Tensor's shape and dtype."""
        return lookup("log_normal")(self, mean, std)

    def cauchy(self, median: builtins.float = 0.0, sigma: builtins.float = 1.0) -> Tensor:
        """Cauchy(median, sigma) samples in this Tensor's shape and dtype."""
        return lookup("cauchy")(self, median, sigma)
