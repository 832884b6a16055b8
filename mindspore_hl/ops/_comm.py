"""MindSpore 2.10's communication functions (``mindspore.ops.all_reduce`` ..., torch-style and in place).

As in MindSpore 2.10 (whose communication functions run in place by default), a collective writes its result
into the given output Tensor(s) and returns ``None``, or a :class:`CommHandle` when ``async_op=True`` (the work
is already complete here, so ``wait()`` returns at once). ``src`` / ``dst`` / ``peer`` are world ranks. How
the ranks are reached (processes, or a compiled step's devices) is ``_comm_core``'s.
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor
from . import _comm_core as _cc

__all__ = ["all_reduce", "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_to_all",
           "all_to_all_single", "all_to_all_v_c", "barrier", "broadcast", "gather_into_tensor", "reduce",
           "reduce_scatter", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "scatter_tensor"]
# (CommHandle, and gathered_array / reduce_scattered_array -- the arrays behind all_gather_into_tensor /
# reduce_scatter_tensor -- serve the other communication modules)

_OPS = ("sum", "prod", "min", "max", "avg")


class CommHandle:
    """The handle of an ``async_op=True`` communication; ``wait()`` returns when it is complete."""

    def wait(self) -> None:
        """Block until the operation is done (operations here complete before the call returns)."""


def _handle(async_op: bool) -> CommHandle | None:
    return CommHandle() if async_op else None


def _check(name: str, tensors: dict[str, Any], async_op: bool = False, op: str | None = None,
           ops: tuple[str, ...] = _OPS) -> None:
    for arg, t in tensors.items():
        items = t if isinstance(t, (list, tuple)) else [t]
        if not all(isinstance(x, Tensor) for x in items):
            raise TypeError(f"For {name}, the {arg} must be tensor{'s' if isinstance(t, (list, tuple)) else ''}, "
                            f"but got {type(t).__name__}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    if op is not None and (not isinstance(op, str) or op not in ops):
        raise TypeError(f"For {name}, the input op value must be one of {', '.join(ops)}, but got {op!r}.")


def _reduce_np(values: list[np.ndarray], op: str) -> np.ndarray:
    stack = np.stack(values)
    if op == "avg":
        return (stack.sum(0) / len(values)).astype(stack.dtype)
    reducers: dict[str, Callable[..., np.ndarray]] = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max}
    return reducers[op](stack, axis=0).astype(stack.dtype)


def _reduce_lax(x: jax.Array, op: str, axes: tuple[str, ...], size: int) -> jax.Array:
    if op in ("sum", "avg"):
        out = jax.lax.psum(x, axes)
        return (out / size).astype(x.dtype) if op == "avg" else out
    if op == "max":
        return jax.lax.pmax(x, axes)
    if op == "min":
        return jax.lax.pmin(x, axes)
    return jnp.prod(jax.lax.all_gather(x, axes), axis=0).astype(x.dtype)


def _gathered(x: Any, group: str | None, name: str) -> list[np.ndarray]:
    """Every member's value of ``x`` (host arrays), in group order."""
    if len(_cc.group_ranks(group, name)) == 1:
        return [x]
    _eager(name, x)
    return [_cc.from_bytes(b) for b in _cc.exchange(group, _cc.to_bytes(np.asarray(x)), name)]


def _eager(name: str, *values: Any) -> None:
    if _cc.traced(values):
        raise RuntimeError(f"For {name}, the operation runs between processes eagerly only; inside a compiled "
                           f"step use all_reduce, all_gather_into_tensor, all_gather, reduce_scatter_tensor or "
                           f"broadcast (or the Primitives).")


def _store(t: Tensor, value: Any, name: str) -> None:
    value = jnp.asarray(value)
    if tuple(value.shape) != tuple(t.shape):
        raise ValueError(f"For {name}, the output tensor must have shape {tuple(value.shape)}, but got "
                         f"{tuple(t.shape)}.")
    t._set_value(value.astype(t._value.dtype))


# ---- reductions, gathers, scatters ----------------------------------------------------------------------
def all_reduce(tensor: Tensor, op: str = "sum", group: str | None = None, async_op: bool = False) -> CommHandle | None:
    """Reduce ``tensor`` over the group's ranks (``op``: 'sum', 'prod', 'min', 'max', 'avg'); in place.

    >>> import numpy as np, mindspore_hl as ms
    >>> t = ms.Tensor(np.ones((2,), np.float32)); all_reduce(t); t   # one rank: unchanged
    Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  1.00000000e+00])
    """
    _check("all_reduce", {"tensor": tensor}, async_op, op)
    if _cc.traced(tensor._value):
        out = _cc.run_mapped(lambda axes, n, v: _reduce_lax(v, op, axes, n), [tensor._value], group, "all_reduce",
                             True)
        if out is not None:
            tensor._set_value(out)
    elif len(_cc.group_ranks(group, "all_reduce")) > 1:
        _store(tensor, _reduce_np(_gathered(tensor._value, group, "all_reduce"), op), "all_reduce")
    return _handle(async_op)


def gathered_array(x: jax.Array, group: str | None, name: str) -> jax.Array:
    """Every rank's ``x`` concatenated along dimension 0 (the array behind ``all_gather_into_tensor``)."""
    if _cc.traced(x):
        out = _cc.run_mapped(lambda axes, n, v: jax.lax.all_gather(v, axes, tiled=True), [x], group, name, True)
        return x if out is None else out
    return jnp.concatenate(_gathered(x, group, name))


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group: str | None = None,
                           async_op: bool = False) -> CommHandle | None:
    """Concatenate every rank's ``input_tensor`` along dimension 0 into ``output_tensor``."""
    _check("all_gather_into_tensor", {"input_tensor": input_tensor, "output_tensor": output_tensor}, async_op)
    _store(output_tensor, gathered_array(input_tensor._value, group, "all_gather_into_tensor"),
           "all_gather_into_tensor")
    return _handle(async_op)


def all_gather(tensor_list: list[Tensor], tensor: Tensor, group: str | None = None,
               async_op: bool = False) -> CommHandle | None:
    """Write rank i's ``tensor`` into ``tensor_list[i]`` (``tensor_list`` has one Tensor per rank)."""
    _check("all_gather", {"tensor_list": tensor_list, "tensor": tensor}, async_op)
    n = _cc.ranks_here(group, "all_gather", tensor._value)
    if len(tensor_list) != n:
        raise TypeError(f"For all_gather, the length of tensor_list must be the group size {n}, but got "
                        f"{len(tensor_list)}.")
    if _cc.traced(tensor._value):
        out = _cc.run_mapped(lambda axes, n, v: jax.lax.all_gather(v, axes), [tensor._value], group, "all_gather",
                             True)
        parts = [tensor._value] if out is None else list(out)
    else:
        parts = _gathered(tensor._value, group, "all_gather")
    for t, v in zip(tensor_list, parts):
        _store(t, v, "all_gather")
    return _handle(async_op)


def _split_sizes(sizes: list[int] | None, total: int, n: int, name: str, what: str) -> list[int]:
    if not sizes:
        if total % n:
            raise ValueError(f"For {name}, dimension 0 ({total}) must be divisible by the group size {n} when "
                             f"{what} is not given.")
        return [total // n] * n
    sizes = [int(s) for s in sizes]
    if len(sizes) != n or sum(sizes) != total:
        raise ValueError(f"For {name}, {what} must have {n} entries summing to {total}, but got {sizes}.")
    return sizes


def all_gather_into_tensor_uneven(output: Tensor, input: Tensor, output_split_sizes: list[int] | None = None,
                                  group: str | None = None, async_op: bool = False) -> CommHandle | None:
    """Like :func:`all_gather_into_tensor`, the ranks' first dimensions given by ``output_split_sizes``."""
    _check("all_gather_into_tensor_uneven", {"input": input, "output": output}, async_op)
    name = "all_gather_into_tensor_uneven"
    n = len(_cc.group_ranks(group, name))
    sizes = _split_sizes(output_split_sizes, output.shape[0], n, name, "output_split_sizes")
    parts = [np.asarray(input._value)] if n == 1 else _gathered(input._value, group, name)
    if [p.shape[0] for p in parts] != sizes:
        raise ValueError(f"For {name}, the ranks' inputs have first dimensions {[p.shape[0] for p in parts]}, but "
                         f"output_split_sizes is {sizes}.")
    _store(output, jnp.concatenate(parts), name)
    return _handle(async_op)


def reduce_scattered_array(x: jax.Array, op: str, group: str | None, name: str) -> jax.Array | np.ndarray:
    """This rank's part (dimension 0) of the reduction of every rank's ``x`` (behind ``reduce_scatter_tensor``)."""
    if _cc.traced(x):
        def fn(axes, n, v):
            if op in ("sum", "avg"):
                out = jax.lax.psum_scatter(v, axes, tiled=True)
                return (out / n).astype(v.dtype) if op == "avg" else out
            k = v.shape[0] // n
            return jax.lax.dynamic_slice_in_dim(_reduce_lax(v, op, axes, n), jax.lax.axis_index(axes) * k, k)
        out = _cc.run_mapped(fn, [x], group, name, False)
        if out is not None:
            return out
    n = len(_cc.group_ranks(group, name))
    total = _reduce_np(_gathered(x, group, name), op) if n > 1 else x
    k = _split_sizes(None, total.shape[0], n, name, "input_split_sizes")[0]
    me = _cc.group_rank(group, name)
    return total[me * k:(me + 1) * k]


def reduce_scatter_tensor(output: Tensor, input: Tensor, op: str = "sum", group: str | None = None,
                          async_op: bool = False) -> CommHandle | None:
    """Reduce ``input`` over the ranks and give rank i the i-th of its equal parts along dimension 0."""
    name = "reduce_scatter_tensor"
    _check(name, {"input": input, "output": output}, async_op, op)
    _store(output, reduce_scattered_array(input._value, op, group, name), name)
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output: Tensor, input: Tensor, input_split_sizes: list[int] | None = None,
                                 op: str = "sum", group: str | None = None,
                                 async_op: bool = False) -> CommHandle | None:
    """Like :func:`reduce_scatter_tensor`, the parts' first dimensions given by ``input_split_sizes``."""
    name = "reduce_scatter_tensor_uneven"
    _check(name, {"input": input, "output": output}, async_op, op, ("sum", "min", "max", "avg"))
    n = len(_cc.group_ranks(group, name))
    sizes = _split_sizes(input_split_sizes, input.shape[0], n, name, "input_split_sizes")
    total = _reduce_np(_gathered(input._value, group, name), op) if n > 1 else np.asarray(input._value)
    me = _cc.group_rank(group, name)
    start = sum(sizes[:me])
    _store(output, total[start:start + sizes[me]], name)
    return _handle(async_op)


def reduce_scatter(output: Tensor, input_list: list[Tensor], op: str = "sum", group: str | None = None,
                   async_op: bool = False) -> CommHandle | None:
    """Rank i gets the reduction over the ranks of their ``input_list[i]``."""
    _check("reduce_scatter", {"input_list": input_list, "output": output}, async_op, op)
    n = len(_cc.group_ranks(group, "reduce_scatter"))
    if len(input_list) != n:
        raise TypeError(f"For reduce_scatter, the length of input_list must be the group size {n}, but got "
                        f"{len(input_list)}.")
    me = _cc.group_rank(group, "reduce_scatter")
    if n == 1:
        _store(output, input_list[0]._value, "reduce_scatter")
    else:
        stacked = np.stack([np.asarray(t._value) for t in input_list])
        parts = _gathered(stacked, group, "reduce_scatter")
        _store(output, _reduce_np([p[me] for p in parts], op), "reduce_scatter")
    return _handle(async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: str | None = None,
           async_op: bool = False) -> CommHandle | None:
    """Reduce ``tensor`` over the ranks into world rank ``dst``'s ``tensor`` (the others keep theirs)."""
    _check("reduce", {"tensor": tensor}, async_op, op)
    if not isinstance(dst, int):
        raise TypeError("For reduce, the dst must be int")
    if len(_cc.group_ranks(group, "reduce")) > 1:
        total = _reduce_np(_gathered(tensor._value, group, "reduce"), op)
        if _cc.world_rank() == dst:
            _store(tensor, total, "reduce")
    return _handle(async_op)


def broadcast(tensor: Tensor, src: int, group: str | None = None, async_op: bool = False) -> CommHandle | None:
    """Every rank's ``tensor`` becomes world rank ``src``'s."""
    _check("broadcast", {"tensor": tensor}, async_op)
    if not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    members = (list(range(_cc.ranks_here(group, "broadcast", tensor._value))) if _cc.traced(tensor._value)
               else _cc.group_ranks(group, "broadcast"))
    if src not in members:
        raise ValueError(f"For broadcast, src {src} is not a rank of the group (ranks {members}).")
    if _cc.traced(tensor._value):
        root = members.index(src)

        def fn(axes, n, v):
            mine = jax.lax.axis_index(axes) == root
            return jax.lax.psum(jnp.where(mine, v, jnp.zeros_like(v)), axes)
        out = _cc.run_mapped(fn, [tensor._value], group, "broadcast", True)
        if out is not None:
            tensor._set_value(out)
    elif len(members) > 1:
        _store(tensor, _gathered(tensor._value, group, "broadcast")[members.index(src)], "broadcast")
    return _handle(async_op)


def gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, dst: int = 0, group: str | None = None,
                       async_op: bool = False) -> CommHandle | None:
    """Concatenate every rank's ``input_tensor`` into world rank ``dst``'s ``output_tensor``."""
    _check("gather_into_tensor", {"input_tensor": input_tensor, "output_tensor": output_tensor}, async_op)
    parts = _gathered(input_tensor._value, group, "gather_into_tensor")
    if _cc.world_rank() == dst:
        _store(output_tensor, jnp.concatenate(parts), "gather_into_tensor")
    return _handle(async_op)


def scatter_tensor(output_tensor: Tensor, input_tensor: Tensor, src: int = 0, group: str | None = None,
                   async_op: bool = False) -> CommHandle | None:
    """Rank i's ``output_tensor`` becomes the i-th equal part (dimension 0) of rank ``src``'s ``input_tensor``."""
    name = "scatter_tensor"
    _check(name, {"input_tensor": input_tensor, "output_tensor": output_tensor}, async_op)
    members = _cc.group_ranks(group, name)
    full = _gathered(input_tensor._value, group, name)[members.index(src)]
    k = _split_sizes(None, full.shape[0], len(members), name, "split sizes")[0]
    me = _cc.group_rank(group, name)
    _store(output_tensor, full[me * k:(me + 1) * k], name)
    return _handle(async_op)


def all_to_all(output_tensor_list: list[Tensor], input_tensor_list: list[Tensor], group: str | None = None,
               async_op: bool = False) -> CommHandle | None:
    """Rank i's ``output_tensor_list[j]`` becomes rank j's ``input_tensor_list[i]``."""
    _check("all_to_all", {"output_tensor_list": output_tensor_list, "input_tensor_list": input_tensor_list},
           async_op)
    n = len(_cc.group_ranks(group, "all_to_all"))
    if len(output_tensor_list) != n or len(input_tensor_list) != n:
        raise TypeError(f"For all_to_all, both lists must have the group size {n} entries, but got "
                        f"{len(output_tensor_list)} and {len(input_tensor_list)}.")
    me = _cc.group_rank(group, "all_to_all")
    _eager("all_to_all", [t._value for t in input_tensor_list])
    sent = [np.asarray(t._value) for t in input_tensor_list]
    parts = [_cc.from_bytes(b) for b in _cc.exchange(group, _cc.to_bytes(sent), "all_to_all")]
    for t, p in zip(output_tensor_list, parts):
        _store(t, p[me], "all_to_all")
    return _handle(async_op)


def all_to_all_single(output: Tensor, input: Tensor, output_split_sizes: list[int] | None = None,
                      input_split_sizes: list[int] | None = None, group: str | None = None,
                      async_op: bool = False) -> CommHandle | None:
    """Split ``input`` along dimension 0 (``input_split_sizes``, equal parts by default); part j goes to rank j;
    ``output`` is the parts received, in rank order (``output_split_sizes`` long)."""
    name = "all_to_all_single"
    _check(name, {"input": input, "output": output}, async_op)
    n = len(_cc.group_ranks(group, name))
    ins = _split_sizes(input_split_sizes, input.shape[0], n, name, "input_split_sizes")
    outs = _split_sizes(output_split_sizes, output.shape[0], n, name, "output_split_sizes")
    _eager(name, input._value)
    x = np.asarray(input._value)
    chunks = np.split(x, np.cumsum(ins)[:-1])
    me = _cc.group_rank(group, name)
    parts = [_cc.from_bytes(b)[me] for b in _cc.exchange(group, _cc.to_bytes(chunks), name)]
    if [p.shape[0] for p in parts] != outs:
        raise ValueError(f"For {name}, rank {me} receives parts of sizes {[p.shape[0] for p in parts]}, but "
                         f"output_split_sizes is {outs}.")
    _store(output, jnp.concatenate(parts), name)
    return _handle(async_op)


def all_to_all_v_c(output: Tensor, input: Tensor, send_count_matrix: list[int], group: str | None = None,
                   async_op: bool = False) -> CommHandle | None:
    """All-to-all of flattened elements: ``send_count_matrix[i * n + j]`` elements go from rank i to rank j."""
    name = "all_to_all_v_c"
    _check(name, {"input": input, "output": output}, async_op)
    if not isinstance(send_count_matrix, list) or not all(isinstance(c, int) for c in send_count_matrix):
        raise TypeError(f"send_count_matrix must be a list of ints, but got {send_count_matrix!r}")
    n = len(_cc.group_ranks(group, name))
    if len(send_count_matrix) != n * n:
        raise TypeError(f"send_count_matrix must be square matrix, but got {len(send_count_matrix)}.")
    me = _cc.group_rank(group, name)
    counts = np.asarray(send_count_matrix).reshape(n, n)
    _eager(name, input._value)
    flat = np.asarray(input._value).reshape(-1)
    if counts[me].sum() != flat.size:
        raise ValueError(f"For {name}, rank {me} sends {counts[me].sum()} elements, but its input has {flat.size}.")
    chunks = np.split(flat, np.cumsum(counts[me])[:-1])
    parts = [_cc.from_bytes(b)[me] for b in _cc.exchange(group, _cc.to_bytes(chunks), name)]
    _store(output, jnp.concatenate(parts).reshape(output.shape), name)
    return _handle(async_op)


def barrier(group: str | None = None, async_op: bool = False, device_ids: list[int] | None = None) -> CommHandle | None:
    """Wait until every rank of the group has reached the barrier."""
    _check("barrier", {}, async_op)
    _cc.exchange(group, b"", "barrier")
    return _handle(async_op)
