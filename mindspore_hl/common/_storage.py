"""``UntypedStorage``: the raw bytes behind a Tensor, as ``Tensor.untyped_storage()`` returns them in MindSpore 2.10.

A storage counts bytes (``size() == nbytes()``, ``element_size() == 1``), reports the dtype and device of the Tensor
it was taken from, and ``copy_`` copies raw bytes between two storages of the same byte size: copying an Int64
storage into a Float32 Tensor's storage reinterprets the bytes, as in MindSpore.

What differs from MindSpore, because a Tensor here is a JAX array that owns one contiguous row-major buffer (slicing,
``view``, ``reshape`` and ``transpose`` make new arrays; there are no views):

* Each Tensor has a storage of its own. A view's storage in MindSpore is its base's (``t[2:4]`` of a 6-element
  Float32 Tensor has a 24-byte storage, and ``copy_`` into it writes the base); here it holds the view's own bytes
  in the view's own (contiguous) element order, and writes reach only that Tensor.
* ``copy_`` replaces the Tensor's array (as every in-place method here does), so ``data_ptr()`` may change after it.
  It is complete on return, whatever ``non_blocking`` says; MindSpore's runs asynchronously and does not keep its
  source alive, so a source freed before the copy runs leaves garbage there.
* ``resize_`` may grow a storage (the Tensor keeps reading its first bytes; the bytes past them are kept in host
  memory and start as zeros, where MindSpore leaves its new memory uninitialised, even the Tensor's own bytes) but
  not shrink it below the Tensor's own bytes: the Tensor would read memory it no longer owns, which MindSpore allows
  with undefined results. A negative size or one that cannot be allocated is an error (MindSpore records it or
  ignores it).
* ``copy_`` needs a storage as its source: MindSpore crashes on a Tensor or array. A Bool Tensor only takes bytes 0
  and 1 (other bytes are no valid Bool values; MindSpore's results with them are inconsistent).
* The private ``_share_fd_cpu_`` / ``_new_shared_fd_cpu`` of ``mindspore.multiprocessing`` are not provided:
  buffers here are never placed in shared memory (``is_shared()`` is False).

>>> import numpy as np
>>> from mindspore_hl import Tensor
>>> t = Tensor(np.arange(6, dtype=np.float32))
>>> s = t.untyped_storage()
>>> s.size(), s.nbytes(), s.element_size(), s.dtype, s.device
(24, 24, 1, mindspore.float32, 'CPU')
>>> src = Tensor(np.full((2, 3), 7, np.float32))
>>> s.copy_(src.untyped_storage()) is s
True
>>> t.asnumpy()
array([7., 7., 7., 7., 7., 7.], dtype=float32)
"""
from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any, NoReturn

import jax
import numpy as np

from . import dtype as mstype
from ._device_arrays import to_device

if TYPE_CHECKING:  # the storage only calls the Tensor's methods; importing common.tensor here would be circular
    from .tensor import Tensor

__all__ = ["UntypedStorage", "storage_of"]

_CACHE = "_untyped_storage"  # the Tensor attribute holding its storage: MindSpore returns the same object each time
_NO_BYTES = np.zeros(0, np.uint8)


class UntypedStorage:
    """The bytes of a Tensor (``Tensor.untyped_storage()``); it cannot be created directly.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor
    >>> t = Tensor(np.zeros(2, np.float32))
    >>> ints = Tensor(np.array([1065353216, 1073741824], np.int32))  # the bit patterns of 1.0 and 2.0
    >>> _ = t.untyped_storage().copy_(ints.untyped_storage())
    >>> t.asnumpy()
    array([1., 2.], dtype=float32)
    """

    __slots__ = ("_tensor", "_tail")

    if TYPE_CHECKING:
        _tensor: Tensor
        _tail: np.ndarray  # bytes past the Tensor's own, after resize_ grew the storage

    def __new__(cls, *args: Any, **kwargs: Any) -> UntypedStorage:
        # Only a Tensor makes its storage (storage_of), as in MindSpore.
        raise TypeError(f"cannot create '{cls.__name__}' instances")

    # ---- what the storage is --------------------------------------------------------------------
    def size(self) -> builtins.int:
        """The number of bytes (a storage's elements are bytes)."""
        return self.nbytes()

    def nbytes(self) -> builtins.int:
        """The number of bytes: the Tensor's own, plus any that ``resize_`` added."""
        return self._tensor.nbytes + self._tail.size

    def __len__(self) -> builtins.int:
        return self.nbytes()

    def element_size(self) -> builtins.int:
        """1: the size in bytes of one element of a storage."""
        return 1

    @property
    def dtype(self) -> mstype.Type:
        """The dtype of the Tensor the storage was taken from."""
        return self._tensor.dtype

    @property
    def device(self) -> builtins.str:
        """The device kind holding the bytes (``'CPU'``, ``'GPU'`` ...), as ``Tensor.device``."""
        return self._tensor.device

    def data_ptr(self) -> builtins.int:
        """The address of the first byte: the Tensor's buffer (it changes when ``copy_`` replaces that buffer)."""
        return self._tensor.data_ptr()

    def is_shared(self) -> builtins.bool:
        """False: buffers are never placed in shared memory."""
        return False

    # ---- in-place updates -----------------------------------------------------------------------
    def copy_(self, src: UntypedStorage, non_blocking: Any = False) -> UntypedStorage:
        """Copy the bytes of storage ``src`` (of the same byte size) into this one; returns self.

        The Tensor reads the bytes as its own dtype, whatever the dtype of ``src``. ``non_blocking`` is accepted
        for compatibility: the copy is always complete on return.
        """
        if not isinstance(src, UntypedStorage):
            raise TypeError(f"UntypedStorage.copy_: 'src' must be an UntypedStorage (such as "
                            f"tensor.untyped_storage()), but got {type(src).__name__}.")
        if self.nbytes() != src.nbytes():
            raise RuntimeError(f"Size does not match, self was {self.nbytes()} bytes but src was {src.nbytes()} bytes")
        tensor = self._tensor
        _concrete(tensor, "copy_")
        if src is self:
            return self
        data = src._bytes()
        own = tensor.nbytes
        np_dtype = np.dtype(tensor._value.dtype)
        values = data[:own].view(np_dtype).reshape(tensor.shape)
        if np_dtype == np.bool_ and own and int(data[:own].max()) > 1:
            bad = sorted({int(b) for b in data[:own] if b > 1})
            raise ValueError(f"UntypedStorage.copy_: a Bool Tensor's bytes must be 0 or 1, but the source holds "
                             f"{bad[:8]}: those are no valid Bool values.")
        tensor._set_value(to_device(values))
        self._tail = data[own:].copy()
        return self

    def resize_(self, size: builtins.int, /) -> UntypedStorage:
        """Make the storage ``size`` bytes long; returns self.

        The Tensor keeps its shape and reads its first bytes; bytes past them start as zeros. The storage cannot
        shrink below the Tensor's own bytes (the Tensor would read memory it no longer owns).
        """
        if isinstance(size, bool) or not isinstance(size, int):
            raise RuntimeError(f"resize_ expects an int, but got {_type_name(size)}")
        own = self._tensor.nbytes
        if size < 0:
            raise RuntimeError(f"UntypedStorage.resize_: the size must be a number of bytes >= 0, but got {size}.")
        if size < own:
            raise RuntimeError(f"UntypedStorage.resize_: cannot shrink the storage of a Tensor of shape "
                               f"{list(self._tensor.shape)} and dtype {self._tensor.dtype} ({own} bytes) to {size} "
                               f"bytes: the Tensor would read memory it no longer owns (undefined in MindSpore). "
                               f"Sizes of {own} bytes or more are supported.")
        extra = size - own
        if extra <= self._tail.size:
            self._tail = self._tail[:extra].copy()
            return self
        try:
            grown = np.zeros(extra, np.uint8)
        except (MemoryError, ValueError) as e:
            raise RuntimeError(f"UntypedStorage.resize_: cannot allocate {size} bytes: {e}") from None
        grown[:self._tail.size] = self._tail
        self._tail = grown
        return self

    # ---- not copyable ---------------------------------------------------------------------------
    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        # MindSpore's storage refuses pickling (and so copy.copy) unless mindspore.multiprocessing shares it.
        raise TypeError(f"cannot pickle '{type(self).__name__}' object")

    # ---- helpers --------------------------------------------------------------------------------
    def _bytes(self) -> np.ndarray:
        """Every byte of the storage as a flat uint8 host array (the Tensor's, row-major, then the added ones)."""
        _concrete(self._tensor, "copy_")
        own = np.ascontiguousarray(np.asarray(self._tensor._value)).reshape(-1).view(np.uint8)
        return np.concatenate([own, self._tail]) if self._tail.size else own


def storage_of(tensor: Tensor) -> UntypedStorage:
    """The storage of ``tensor`` (``Tensor.untyped_storage()``): the same object on every call.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor
    >>> t = Tensor(np.ones((2, 3), np.float16))
    >>> storage_of(t) is t.untyped_storage(), storage_of(t).nbytes()
    (True, 12)
    """
    if tensor.has_init:
        raise RuntimeError("Current Tensor has no device! It is lazily initialised (Tensor(shape=..., dtype=..., "
                           "init=...)) and holds no data yet; call init_data() before untyped_storage().")
    cached = tensor.__dict__.get(_CACHE)
    if cached is not None and cached._tensor is tensor:  # a copied Tensor's __dict__ would name the original
        return cached
    storage: UntypedStorage = object.__new__(UntypedStorage)
    storage._tensor = tensor
    storage._tail = _NO_BYTES
    object.__setattr__(tensor, _CACHE, storage)  # Tensor instances have a __dict__; the mixins have no slots
    return storage


def _concrete(tensor: Tensor, what: str) -> None:
    if isinstance(tensor._value, jax.core.Tracer):
        raise RuntimeError(f"UntypedStorage.{what}: the Tensor is being compiled (inside GRAPH_MODE, ms.jit or a "
                           f"grad transformation) and has no bytes yet; call it on concrete Tensors.")


def _type_name(value: Any) -> str:
    """How MindSpore names a type in resize_'s error: 'float', 'bool', 'numpy.int64', 'Tensor'."""
    cls = type(value)
    return f"numpy.{cls.__name__}" if cls.__module__ == "numpy" else cls.__name__
