"""How a collective reaches the other ranks: eagerly between processes, or as a lax collective while compiling.

- **Eagerly** (PYNATIVE, or any call on concrete arrays) the ranks are the processes of the job joined by
  ``communication.init()`` (``mindspore-hl-run``). Each rank's payload goes through the ``jax.distributed``
  coordination service (its key-value store): :func:`exchange` returns every group member's payload, in group
  order; :func:`post` / :func:`take` move one payload from one rank to another (send / recv). With one process
  the exchange is the process's own payload, so every collective gives what MindSpore gives for one rank.
- **While compiling** the ranks are the devices of a mapped axis. Under a ``shard_map`` / ``pmap`` with axis
  names the world group is all bound axes. In a parallel step built by the engine (``jit`` over the
  ``('data', 'model')`` mesh, global view) the collective runs inside a ``shard_map`` over the step's mesh: a
  value whose first dimension is a multiple of the number of devices is taken as the devices' parts of it (as
  the engine splits a step's batch), any other value as held whole by every device; a result that is the same
  on every rank comes back as that one value, a per-rank result as the ranks' results concatenated.
"""
from __future__ import annotations

import io
import pickle
from typing import Any, Callable

import jax
import numpy as np
from jax._src import core as _jcore
from jax._src import distributed as _distributed
from jax.sharding import PartitionSpec as P

from .._engine import _parallel_context, _plan
from ..communication import _management as _mgmt

__all__ = ["ranks_here", "group_ranks", "group_rank", "world_rank", "exchange", "post", "take", "traced", "bound_axes",
           "run_mapped", "to_bytes", "from_bytes"]

_WORLD = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
_seq: dict[str, int] = {}
_TIMEOUT_MS = 300_000


def _group_name(group: str | None) -> str:
    return _mgmt.GlobalComm.WORLD_COMM_GROUP if group is None else group


def group_ranks(group: str | None, what: str) -> list[int]:
    """The world ranks of ``group``'s members, in group order (the world when the service is not initialized
    and there is one process, as MindSpore's single-rank results assume)."""
    if not isinstance(group, (str, type(None))):
        raise TypeError(f"For '{what}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    if not _mgmt.GlobalComm.INITED and not _mgmt._state["distributed"] and (group is None or group in _WORLD):
        return [0]
    return list(_mgmt._members(_group_name(group), what))


def world_rank() -> int:
    return _mgmt._state["rank"]


def group_rank(group: str | None, what: str) -> int:
    members = group_ranks(group, what)
    if world_rank() not in members:
        raise ValueError(f"For '{what}', this process (rank {world_rank()}) is not a member of group {group!r}.")
    return members.index(world_rank())


def _client():
    return _distributed.global_state.client


def exchange(group: str | None, payload: bytes, what: str) -> list[bytes]:
    """Every member's ``payload``, in group order (all members must call it in the same order)."""
    members = group_ranks(group, what)
    if len(members) == 1:
        return [payload]
    me = group_rank(group, what)
    name = _group_name(group)
    seq = _seq.get(name, 0)
    _seq[name] = seq + 1
    client = _client()
    client.key_value_set_bytes(f"mshl/coll/{name}/{seq}/{me}", payload)
    got = [payload if r == me else client.blocking_key_value_get_bytes(f"mshl/coll/{name}/{seq}/{r}", _TIMEOUT_MS)
           for r in range(len(members))]
    if seq >= 2:  # every member has reached call seq - 1, so all have read what this rank posted at seq - 2
        client.key_value_delete(f"mshl/coll/{name}/{seq - 2}/{me}")
    return got


def _p2p_key(src: int, dst: int, tag: int, group: str | None) -> str:
    key = f"mshl/p2p/{_group_name(group)}/{src}/{dst}/{tag}"
    n = _seq.get(key, 0)
    _seq[key] = n + 1
    return f"{key}/{n}"


def post(payload: bytes, dst: int, tag: int, group: str | None) -> None:
    """Send ``payload`` to world rank ``dst`` (matched by that rank's next :func:`take` from this rank)."""
    _client().key_value_set_bytes(_p2p_key(world_rank(), dst, tag, group), payload)


def take(src: int, tag: int, group: str | None) -> bytes:
    """The next payload world rank ``src`` posted to this rank (waits for it)."""
    key = _p2p_key(src, world_rank(), tag, group)
    client = _client()
    data = client.blocking_key_value_get_bytes(key, _TIMEOUT_MS)
    client.key_value_delete(key)
    return data


def to_bytes(obj: Any) -> bytes:
    buf = io.BytesIO()
    if isinstance(obj, np.ndarray):
        np.save(buf, obj, allow_pickle=False)
        return b"A" + buf.getvalue()
    pickle.dump(obj, buf)
    return b"O" + buf.getvalue()


def from_bytes(data: bytes) -> Any:
    if data[:1] == b"A":
        return np.load(io.BytesIO(data[1:]), allow_pickle=False)
    return pickle.loads(data[1:])


# ---- compiled -------------------------------------------------------------------------------------------
def traced(*arrays: Any) -> bool:
    """Whether any of ``arrays`` is a tracer (the collective is being compiled)."""
    return any(isinstance(a, jax.core.Tracer) for a in jax.tree_util.tree_leaves(arrays))


def bound_axes() -> tuple[str, ...]:
    """The mapped axis names bound here (a ``shard_map`` / ``pmap`` body), outermost first."""
    return tuple(_jcore.get_axis_env().axis_names())


def _axes_for(group: str | None, what: str) -> tuple[str, ...] | None:
    axes = bound_axes()
    if not axes:
        return None
    if group is None or group in _WORLD:
        return axes
    if group in axes:
        return (group,)
    raise ValueError(f"For '{what}', group {group!r} is neither the world group nor a mapped axis name "
                     f"({list(axes)}); inside a compiled step a collective works over the world or one axis.")


def _step_mesh():
    """The mesh of the parallel step being compiled (the context's mesh while the engine's abstract trace
    looks for Parameters, before the step's plan exists); None in STAND_ALONE."""
    plan = _plan.active_plan()
    mesh = getattr(plan, "mesh", None)
    if mesh is None and _parallel_context.is_parallel():
        mesh = _parallel_context.mesh()
    return mesh


def ranks_here(group: str | None, what: str, *arrays: Any) -> int:
    """How many ranks a collective over ``arrays`` combines: the mapped devices while compiling inside a
    mapped axis or a parallel step, else the group's processes."""
    if traced(arrays):
        axes = _axes_for(group, what)
        if axes is not None:
            return int(np.prod([_jcore.get_axis_env().axis_size(a) for a in axes]))
        mesh = _step_mesh()
        if mesh is not None:
            return int(np.prod(list(mesh.shape.values())))
    return len(group_ranks(group, what))


def run_mapped(fn: Callable[..., Any], arrays: list[Any], group: str | None, what: str,
               replicated_out: bool) -> Any:
    """Run ``fn(axes, size, *local arrays)`` where ``axes`` are the ranks' mapped axes (see module docstring).

    Returns None when there is no mapped axis and no parallel step: the caller then computes the one-rank result.
    """
    axes = _axes_for(group, what)
    if axes is not None:
        size = 1
        for a in axes:
            size *= _jcore.get_axis_env().axis_size(a)
        return fn(axes, size, *arrays)
    mesh = _step_mesh()
    if mesh is None:
        if jax.process_count() > 1:
            raise RuntimeError(f"For '{what}', a compiled collective of a {jax.process_count()}-process job needs a "
                               f"parallel mode (set_auto_parallel_context(parallel_mode=DATA_PARALLEL)).")
        return None
    if group is not None and group not in _WORLD:
        raise ValueError(f"For '{what}', inside a parallel step a collective works over the world group, but got "
                         f"group {group!r}.")
    names = tuple(mesh.axis_names)
    size = int(np.prod([mesh.shape[a] for a in names]))
    specs = tuple(P(names) if np.ndim(a) >= 1 and np.shape(a)[0] % size == 0 and np.shape(a)[0] > 0 else P()
                  for a in arrays)
    out_spec = P() if replicated_out else P(names)
    mapped = jax.shard_map(lambda *xs: fn(names, size, *xs), mesh=mesh, in_specs=specs, out_specs=out_spec,
                           check_vma=False)
    return mapped(*arrays)
