"""``init`` / ``get_rank`` / ``get_group_size`` ...: processes joined by ``jax.distributed``.

A rank here is a process; each process drives all of its local devices (one by default under
``mindspore-hl-run``). ``init()`` reads the launcher's environment and calls ``jax.distributed.initialize``:

- ``MS_SCHED_HOST`` + ``MS_SCHED_PORT``, ``MS_WORKER_NUM``, ``MS_NODE_ID`` (or ``RANK_ID``): msrun / mindspore-hl-run;
- ``JAX_COORDINATOR_ADDRESS``, ``JAX_NUM_PROCESSES``, ``JAX_PROCESS_ID``: JAX's own names;
- ``MASTER_ADDR`` + ``MASTER_PORT``, ``WORLD_SIZE``, ``RANK``: torchrun style;
- OpenMPI / SLURM variables: JAX's cluster auto-detection.

Without any of them the job is one process. Failures are bounded: a peer that stops sending heartbeats for
``MS_HL_HEARTBEAT_TIMEOUT`` seconds (default 30) ends the job, and an uncaught error in a multi-process job
prints a clear message and exits at once instead of waiting in JAX's shutdown barrier.
"""
from __future__ import annotations

import os
import sys
import traceback
from types import TracebackType
from typing import Any

from .._engine import _state as _engine_state

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "create_group", "destroy_group", "get_world_rank_from_group_rank", "get_group_rank_from_world_rank",
           "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_BACKENDS = (None, "hccl", "nccl", "mccl", "gloo")


class GlobalComm:
    """The world group's name and the backend chosen by ``init``."""
    BACKEND = "gloo"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


_state: dict[str, Any] = {"rank": 0, "size": 1, "distributed": False, "failed": False}
_groups: dict[str, list[int]] = {}


@_engine_state.on_reset
def _reset() -> None:
    """Not initialized, no groups (``_engine._state.reset()`` restores every global setting at once)."""
    GlobalComm.INITED = False
    _groups.clear()
    _state.update(rank=0, size=1, distributed=False, failed=False)


def _env_int(name: str, default: int | None = None) -> int | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"communication.init: environment variable {name} must be an integer, but is {value!r}.") \
            from None


def _cluster_from_env() -> tuple[str, int | None, int | None] | None:
    """``(coordinator address, process count, process id)`` from the environment, or None (one process)."""
    env = os.environ
    for host, port, size, rank in (("MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM", ("MS_NODE_ID", "RANK_ID")),
                                   ("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", ("RANK",))):
        if env.get(host) and env.get(port):
            n = _env_int(size)
            pid = next((_env_int(r) for r in rank if env.get(r)), None)
            if n is None or pid is None:
                raise ValueError(f"communication.init: {host}/{port} are set, but {size} (number of processes) and "
                                 f"{' or '.join(rank)} (this process's rank) must be set too.")
            return f"{env[host]}:{env[port]}", n, pid
    if env.get("JAX_COORDINATOR_ADDRESS"):
        return env["JAX_COORDINATOR_ADDRESS"], _env_int("JAX_NUM_PROCESSES"), _env_int("JAX_PROCESS_ID")
    if env.get("OMPI_COMM_WORLD_SIZE") or env.get("SLURM_NTASKS"):
        return "auto", None, None
    return None


def init(backend_name: str | None = None) -> None:
    """Join the job's processes (``jax.distributed.initialize``); a no-op for a single process.

    Args:
        backend_name: 'hccl', 'nccl', 'mccl', 'gloo' or None; the transport is JAX's own (gloo on CPU).
    Call it before any other JAX work in the process (before creating Tensors).
    """
    if backend_name not in _BACKENDS:
        raise ValueError(f"communication.init: backend_name must be one of {list(_BACKENDS)}, but got "
                         f"{backend_name!r}.")
    if GlobalComm.INITED:
        return
    cluster = _cluster_from_env()
    if cluster is not None:
        import jax
        from jax._src import xla_bridge
        if xla_bridge.backends_are_initialized():
            raise RuntimeError("communication.init() must be called before any JAX computation in this process "
                               "(before creating Tensors or Parameters): move it to the top of the script.")
        address, n, pid = cluster
        timeouts: dict[str, Any] = dict(initialization_timeout=_env_int("MS_HL_INIT_TIMEOUT", 120),
                        heartbeat_timeout_seconds=_env_int("MS_HL_HEARTBEAT_TIMEOUT", 30))
        if address == "auto":
            jax.distributed.initialize(**timeouts)
        else:
            jax.distributed.initialize(address, n, pid, **timeouts)
        _state.update(rank=jax.process_index(), size=jax.process_count(), distributed=True)
        _install_fail_fast()
    if backend_name is not None:
        GlobalComm.BACKEND = backend_name
        GlobalComm.WORLD_COMM_GROUP = {"nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}.get(
            backend_name, HCCL_WORLD_COMM_GROUP)
    GlobalComm.INITED = True


def release() -> None:
    """Leave the job (``jax.distributed.shutdown``)."""
    if _state["distributed"]:
        import jax
        jax.distributed.shutdown()
        _state.update(rank=0, size=1, distributed=False)
    GlobalComm.INITED = False
    _groups.clear()


def _check_init(what: str) -> None:
    if not GlobalComm.INITED:
        raise RuntimeError(f"{what}: the communication service is not initialized; call "
                           f"mindspore_hl.communication.init() first.")


def _members(group: str, what: str) -> list[int]:
    _check_init(what)
    if group is None or group in _WORLD_NAMES:
        return list(range(_state["size"]))
    if group not in _groups:
        raise ValueError(f"{what}: unknown group {group!r}; create it with create_group(group, rank_ids) first.")
    return _groups[group]


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group`` (the world by default)."""
    members = _members(group, "get_rank")
    if _state["rank"] not in members:
        raise ValueError(f"get_rank: this process (rank {_state['rank']}) is not a member of group {group!r}.")
    return members.index(_state["rank"])


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """Number of processes in ``group``."""
    return len(_members(group, "get_group_size"))


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank among the processes of its host (from the launcher's ``LOCAL_RANK``)."""
    _members(group, "get_local_rank")
    for name in ("LOCAL_RANK", "MS_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"):
        value = _env_int(name)
        if value is not None:
            return value
    return _state["rank"]


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """Number of processes on this host."""
    _members(group, "get_local_rank_size")
    for name in ("LOCAL_WORLD_SIZE", "MS_LOCAL_WORKER", "OMPI_COMM_WORLD_LOCAL_SIZE"):
        value = _env_int(name)
        if value is not None:
            return value
    return _state["size"]


def create_group(group: str, rank_ids: list[int]) -> None:
    """Name a subset of the world's ranks (used by ``get_rank(group)`` / ``get_group_size(group)``)."""
    _check_init("create_group")
    if not isinstance(group, str) or not group or group in _WORLD_NAMES:
        raise ValueError(f"create_group: group must be a new non-empty name, but got {group!r}.")
    ids = list(rank_ids)
    if not ids or len(set(ids)) != len(ids) or any(not isinstance(r, int) or not 0 <= r < _state["size"] for r in ids):
        raise ValueError(f"create_group: rank_ids must be distinct ranks in [0, {_state['size']}), "
                         f"but got {rank_ids!r}.")
    _groups[group] = ids


def destroy_group(group: str) -> None:
    """Forget a group made by ``create_group``."""
    if _groups.pop(group, None) is None:
        raise ValueError(f"destroy_group: unknown group {group!r}.")


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of rank ``group_rank_id`` of ``group``."""
    members = _members(group, "get_world_rank_from_group_rank")
    if not 0 <= group_rank_id < len(members):
        raise ValueError(f"get_world_rank_from_group_rank: group {group!r} has {len(members)} ranks, "
                         f"got {group_rank_id}.")
    return members[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``."""
    members = _members(group, "get_group_rank_from_world_rank")
    if world_rank_id not in members:
        raise ValueError(f"get_group_rank_from_world_rank: world rank {world_rank_id} is not in group {group!r}.")
    return members.index(world_rank_id)


# ---- failing fast ------------------------------------------------------------------------------------------
_PEER_FAILURE = ("gloo", "connection closed", "connection reset", "heartbeat", "coordination service",
                 "unavailable", "deadline_exceeded", "broken pipe")


def is_peer_failure(exc: BaseException) -> bool:
    """Whether an error says that a collective failed because another process is gone."""
    text = str(exc).lower()
    return any(m in text for m in _PEER_FAILURE)


def _mark_failed() -> None:
    _state["failed"] = True


def _install_fail_fast() -> None:
    """In a multi-process job, an uncaught error ends this process at once with a clear message.

    Otherwise JAX's shutdown barrier would wait for the other processes (up to its shutdown timeout), and
    a process whose peer died would hang there instead of exiting.
    """
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        try:
            traceback.print_exception(exc_type, exc, tb)
            if _state["failed"] or is_peer_failure(exc):
                why = ("another process of the job stopped or became unreachable, so a collective "
                       "communication failed (see that process's log for the first error)")
            else:
                why = (f"of the error above ({exc_type.__name__}); the other processes stop when their next "
                       f"collective fails")
            sys.stderr.write(f"mindspore_hl.communication: process {_state['rank']} of {_state['size']} exits "
                             f"because {why}.\n")
            sys.stderr.flush()
            sys.stdout.flush()
        finally:
            os._exit(1)

    hook.previous = previous  # type: ignore[attr-defined]
    sys.excepthook = hook
