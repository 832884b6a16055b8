"""``saved_tensors_hooks`` / ``register_saved_tensors_hooks``: hooks on the tensors autodiff keeps for backward.

MindSpore calls ``pack_hook(tensor)`` on each tensor an op saves for its backward pass, keeps what it returns,
and calls ``unpack_hook(packed)`` when the backward pass needs the tensor (e.g. to offload activations to the
host). Here the tensors saved for the backward pass are the residuals of JAX's ``vjp`` of the differentiated
call (``_autodiff.linearize``): each one is packed right after the forward pass and unpacked each time the
pullback runs. Which hooks apply, as in MindSpore:

- PYNATIVE: the innermost ``with saved_tensors_hooks(...)`` in force when a gradient call (``grad``,
  ``value_and_grad``, ``vjp``, ``GradOperation``) runs its forward pass, or, when none is, the first one entered
  inside the differentiated function. ``register_saved_tensors_hooks`` has no effect in PYNATIVE.
- GRAPH_MODE / ``jit``: the hooks ``register_saved_tensors_hooks`` attached to the differentiated function
  (run at trace time on the traced tensors); ``saved_tensors_hooks`` cannot be entered while compiling.

Differences from MindSpore: the saved tensors are JAX's residuals of the whole call, not each MindSpore op's
saved inputs/outputs, so their number and values can differ (``sin(x)`` keeps ``cos(x)`` where MindSpore keeps
``x``), which matters when the hooks change values rather than move them; a region entered inside the function
covers every tensor the call saves, and one call is packed with one pair of hooks (a warning says when the
function entered a different pair); ``unpack_hook`` must give back the saved tensor's shape and dtype; residuals
belonging to an enclosing transformation (higher-order gradients, ``vmap``) and Python numbers are left
unpacked; tensors are packed after the forward pass (not as each op runs) and unpacked on every call of the
pullback (MindSpore recomputes the forward pass, without hooks, for a second ``vjp_fn`` call).
"""
from __future__ import annotations

import inspect
import threading
import warnings
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from ..common.tensor import Tensor, to_array, wrap
from . import _compiled

__all__ = ["saved_tensors_hooks", "register_saved_tensors_hooks", "register_cell_hooks"]

_Hooks = tuple[Callable[[Any], Any], Callable[[Any], Any]]


class _Local(threading.local):
    def __init__(self) -> None:
        self.stack: list[_Hooks] = []  # the pairs in force, innermost last
        self.watches: list[CallWatch] = []  # gradient calls whose forward pass is running


_local = _Local()


class saved_tensors_hooks:
    """Context manager: ``pack_hook`` / ``unpack_hook`` for the tensors gradients save inside the block.

    ``pack_hook(tensor) -> Any`` runs in the forward pass on each saved tensor; ``unpack_hook(packed) -> Tensor``
    gives it back in the backward pass. PYNATIVE only (see the module notes for how saved tensors map to
    MindSpore's).

    >>> import mindspore_hl as ms
    >>> def f(x, y):
    ...     return x * y
    >>> x, y = ms.Tensor(np.array([1., 2.], np.float32)), ms.Tensor(np.array([3., 4.], np.float32))
    >>> with ms.saved_tensors_hooks(lambda t: t.asnumpy(), lambda a: ms.Tensor(a)):  # keep them on the host
    ...     dx, dy = ms.grad(f, (0, 1))(x, y)
    >>> dx.asnumpy().tolist(), dy.asnumpy().tolist()
    ([3.0, 4.0], [1.0, 2.0])
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self.pushed = False

    def __enter__(self) -> None:
        if _compiled.compiling():
            raise RuntimeError("'saved_tensors_hooks' is not supported in GRAPH_MODE or inside jit: decorate the "
                               "differentiated function with 'register_saved_tensors_hooks' instead.")
        for what, hook in (("pack_hook", self.pack_hook), ("unpack_hook", self.unpack_hook)):
            if not callable(hook):
                raise TypeError(f"For 'saved_tensors_hooks', '{what}' must be callable, but got "
                                f"{type(hook).__name__}.")
        pair = (self.pack_hook, self.unpack_hook)
        _local.stack.append(pair)
        for watch in _local.watches:
            watch.entered.append(pair)
        self.pushed = True

    def __exit__(self, *exc: object) -> None:
        if self.pushed:
            _local.stack.pop()
            self.pushed = False


def register_saved_tensors_hooks(pack_hook: Callable[[Any], Any],
                                 unpack_hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Decorator: the saved-tensor hooks of a function differentiated in GRAPH_MODE or under ``jit``.

    It sets the hooks on the function (on the innermost one of a ``functools.wraps`` chain) and returns it
    unchanged; in PYNATIVE it has no effect (use :class:`saved_tensors_hooks`).
    """
    def decorator(func: Any) -> Any:
        target = inspect.unwrap(func)
        target._saved_tensors_pack_hook = pack_hook
        target._saved_tensors_unpack_hook = unpack_hook
        return func

    return decorator


def register_cell_hooks(cell: Any, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
    """``Cell.register_saved_tensors_hooks``: the hooks of gradients of ``cell`` itself, in both modes (in
    PYNATIVE they take precedence over a ``saved_tensors_hooks`` block around the gradient call, as MindSpore
    enters them inside it; a Cell called inside the differentiated one does not apply its own)."""
    cell._saved_tensors_pack_hook = pack_hook
    cell._saved_tensors_unpack_hook = unpack_hook
    cell._saved_tensors_hooks_in_pynative = True


def _registered(fn: Any) -> _Hooks | None:
    """The hooks ``register_saved_tensors_hooks`` set on ``fn`` (or a function it wraps), if any."""
    try:
        target = inspect.unwrap(fn)
    except ValueError:  # a cycle of __wrapped__
        target = fn
    for f in (fn, target):
        pack = getattr(f, "_saved_tensors_pack_hook", None)
        unpack = getattr(f, "_saved_tensors_unpack_hook", None)
        if pack is not None and unpack is not None:
            return pack, unpack
    return None


def _unpacked(hooks: _Hooks, packed: Any, saved: jax.ShapeDtypeStruct) -> Any:
    value = hooks[1](packed)
    if not isinstance(value, Tensor):
        raise TypeError(f"For 'saved_tensors_hooks', 'unpack_hook' must return a Tensor, but got "
                        f"{type(value).__name__}.")
    arr = to_array(value)
    if tuple(np.shape(arr)) != tuple(saved.shape) or np.dtype(arr.dtype) != np.dtype(saved.dtype):
        raise ValueError(f"For 'saved_tensors_hooks', 'unpack_hook' must return the saved tensor's shape and dtype "
                         f"{tuple(saved.shape)} {np.dtype(saved.dtype).name}, but got {tuple(np.shape(arr))} "
                         f"{np.dtype(arr.dtype).name}.")
    return arr


class CallWatch:
    """One gradient call: notes the hooks in force and those entered during its forward pass; packs its
    residuals."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.entered: list[_Hooks] = []
        self.at_start: _Hooks | None = None

    def __enter__(self) -> CallWatch:
        self.at_start = _local.stack[-1] if _local.stack else None
        _local.watches.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _local.watches.remove(self)

    def _hooks(self) -> _Hooks | None:
        if _compiled.compiling():
            return _registered(self.fn)
        if getattr(self.fn, "_saved_tensors_hooks_in_pynative", False):  # Cell.register_saved_tensors_hooks
            return _registered(self.fn)  # (MindSpore enters them around the differentiated Cell's construct)
        chosen = self.at_start if self.at_start is not None else (self.entered[0] if self.entered else None)
        if chosen is not None and any(p != chosen for p in self.entered):
            warnings.warn("saved_tensors_hooks: this backend packs every tensor one gradient call saves with one "
                          "pair of hooks; a different pair entered inside the differentiated function is not "
                          "applied separately.", UserWarning, stacklevel=4)
        return chosen

    def pack(self, vjp_fn: Callable[..., Any]) -> Callable[..., Any]:
        """``vjp_fn`` with its residuals packed now and unpacked on every call (``vjp_fn`` if no hooks apply)."""
        hooks = self._hooks()
        if hooks is None:
            return vjp_fn
        leaves, tree = jax.tree_util.tree_flatten(vjp_fn)
        del vjp_fn  # keep only the packed forms of the saved tensors
        eager = not _compiled.compiling()
        # (index, packed, shape/dtype) for each saved tensor this call owns; the rest stay as they are
        packed: list[tuple[int, Any, jax.ShapeDtypeStruct]] = []
        kept: list[Any] = list(leaves)
        for i, leaf in enumerate(leaves):
            if not isinstance(leaf, (jax.Array, np.ndarray)) or (eager and isinstance(leaf, jax.core.Tracer)):
                continue
            if getattr(getattr(leaf, "aval", None), "weak_type", False):
                continue  # a Python number of the function (the 2 of x * 2): no tensor was saved
            packed.append((i, hooks[0](wrap(leaf)), jax.ShapeDtypeStruct(np.shape(leaf), leaf.dtype)))
            kept[i] = None
        del leaves

        def unpack_and_call(*args: Any) -> Any:
            values = list(kept)
            for i, obj, saved in packed:
                values[i] = _unpacked(hooks, obj, saved)
            return jax.tree_util.tree_unflatten(tree, values)(*args)

        return unpack_and_call
