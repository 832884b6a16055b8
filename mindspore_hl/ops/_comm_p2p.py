"""MindSpore 2.10's point-to-point, object and process-group functions of ``mindspore.ops``.

Point-to-point messages go through ``_comm_core.post`` / ``take`` (the job's coordination service): a ``send``
to rank j is matched by rank j's next ``recv`` from this rank with the same tag. Objects are pickled, as
MindSpore does. Ranks given as ``src`` / ``dst`` / ``peer`` are world ranks.
"""
from __future__ import annotations

import hashlib
import logging
from typing import Any

import numpy as np

from ..common.tensor import Tensor
from ..communication import _management as _mgmt
from ..communication import _query as _query_mod
from . import _comm_core as _cc
from ._comm import CommHandle, _check, _eager, _store

__all__ = ["send", "recv", "isend", "irecv", "P2POp", "batch_isend_irecv", "all_gather_object",
           "broadcast_object_list", "gather_object", "scatter_object_list", "send_object_list", "recv_object_list",
           "init_process_group", "destroy_process_group", "new_group", "get_rank", "get_world_size", "get_backend",
           "get_global_rank", "get_group_rank", "get_process_group_ranks", "is_available", "is_initialized"]

_log = logging.getLogger(__name__)


def _check_peer(name: str, peer: Any, what: str) -> None:
    if not isinstance(peer, int):
        raise TypeError(f"For {name}, the {what} must be int")
    if peer == _cc.world_rank():
        raise ValueError(f"Invalid {'destination' if what == 'dst' else 'source'} rank: it should not be the same as "
                         f"the rank of the current process.")


def send(tensor: Tensor, dst: int = 0, group: str | None = None, tag: int = 0) -> None:
    """Send ``tensor`` to world rank ``dst`` (received by its ``recv(t, src=<this rank>)``)."""
    _check("send", {"tensor": tensor})
    _check_peer("send", dst, "dst")
    _eager("send", tensor._value)
    _cc.post(_cc.to_bytes(np.asarray(tensor._value)), dst, tag, group)


def recv(tensor: Tensor, src: int = 0, group: str | None = None, tag: int = 0) -> int:
    """Receive into ``tensor`` what world rank ``src`` sent; returns 0."""
    _check("recv", {"tensor": tensor})
    _check_peer("recv", src, "src")
    _store(tensor, _cc.from_bytes(_cc.take(src, tag, group)), "recv")
    return 0


def isend(tensor: Tensor, dst: int = 0, group: str | None = None, tag: int = 0) -> CommHandle:
    """:func:`send`, returning a :class:`CommHandle`."""
    send(tensor, dst, group, tag)
    return CommHandle()


def irecv(tensor: Tensor, src: int = 0, group: str | None = None, tag: int = 0) -> CommHandle:
    """:func:`recv`, returning a :class:`CommHandle`."""
    recv(tensor, src, group, tag)
    return CommHandle()


class P2POp:
    """One ``isend`` / ``irecv`` of :func:`batch_isend_irecv` (``op``: 'isend', 'irecv' or those functions)."""

    def __init__(self, op: Any, tensor: Tensor, peer: int, group: str | None = None, tag: int = 0) -> None:
        kind = op if isinstance(op, str) else getattr(op, "__name__", None)
        if kind not in ("isend", "irecv"):
            raise TypeError(f"P2POp: op must be 'isend' or 'irecv' (or those functions), but got {op!r}.")
        if not isinstance(tensor, Tensor) or not isinstance(peer, int):
            raise TypeError("P2POp: tensor must be a Tensor and peer an int.")
        if tag != 0:
            raise NotImplementedError("P2POp: tag is not supported yet (MindSpore 2.10 requires tag=0).")
        self.op, self.tensor, self.peer, self.group, self.tag = kind, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list: list[P2POp]) -> list[CommHandle]:
    """Run the sends first, then the receives (so two ranks exchanging never wait on each other)."""
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("The elements in p2p_op_list must be type of P2POp.")
    if len({p.group for p in p2p_op_list}) != 1:
        raise TypeError("The group name in p2p_op_list must be consistent.")
    for p in p2p_op_list:
        if p.op == "isend":
            send(p.tensor, p.peer, p.group, p.tag)
    for p in p2p_op_list:
        if p.op == "irecv":
            recv(p.tensor, p.peer, p.group, p.tag)
    return [CommHandle()]


# ---- objects -------------------------------------------------------------------------------------------
def _objects(obj: Any, group: str | None, name: str) -> list[Any]:
    return [_cc.from_bytes(b) for b in _cc.exchange(group, _cc.to_bytes(obj), name)]


def _check_group_arg(name: str, group: Any) -> None:
    if not isinstance(group, (str, type(None))):
        raise TypeError(f"For '{name}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")


def all_gather_object(object_list: list[Any], obj: Any, group: str | None = None) -> None:
    """``object_list[i]`` becomes rank i's ``obj``."""
    _check_group_arg("all_gather_object", group)
    n = len(_cc.group_ranks(group, "all_gather_object"))
    if not isinstance(object_list, list) or len(object_list) != n:
        raise TypeError(f"The len of argument object_list must be equal to group rank size, but got "
                        f"{len(object_list) if isinstance(object_list, list) else type(object_list)}.")
    object_list[:] = _objects(obj, group, "all_gather_object")


def broadcast_object_list(object_list: list[Any], src: int = 0, group: str | None = None, device: Any = None) -> None:
    """Every rank's ``object_list`` becomes world rank ``src``'s (same length on every rank)."""
    _check_group_arg("broadcast_object_list", group)
    if not isinstance(src, int):
        raise TypeError("For broadcast_object_list, the src must be int")
    if not isinstance(object_list, list) or not object_list:
        raise TypeError("The object_list can not be empty.")
    members = _cc.group_ranks(group, "broadcast_object_list")
    object_list[:] = _objects(list(object_list), group, "broadcast_object_list")[members.index(src)]


def gather_object(obj: Any, object_gather_list: list[Any] | None = None, dst: int = 0,
                  group: str | None = None) -> None:
    """On world rank ``dst``, ``object_gather_list[i]`` becomes rank i's ``obj``."""
    _check_group_arg("gather_object", group)
    if not isinstance(dst, int):
        raise TypeError("For gather_object, the dst must be int")
    n = len(_cc.group_ranks(group, "gather_object"))
    mine = _cc.world_rank() == dst
    if mine and (not isinstance(object_gather_list, list) or len(object_gather_list) != n):
        raise TypeError(f"The len of object_gather_list must be equal to group rank size {n}.")
    objs = _objects(obj, group, "gather_object")
    if mine and object_gather_list is not None:  # a list when mine: checked above
        object_gather_list[:] = objs


def scatter_object_list(scatter_object_output_list: list[Any], scatter_object_input_list: list[Any],
                        src: int = 0, group: str | None = None) -> None:
    """Rank i's ``scatter_object_output_list[0]`` becomes ``scatter_object_input_list[i]`` of world rank ``src``."""
    _check_group_arg("scatter_object_list", group)
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError("The scatter_object_output_list can not be empty.")
    if not isinstance(src, int):
        raise TypeError("For scatter_object_list, the src must be int")
    members = _cc.group_ranks(group, "scatter_object_list")
    if _cc.world_rank() == src and (not isinstance(scatter_object_input_list, list)
                                    or len(scatter_object_input_list) != len(members)):
        raise TypeError(f"The len of scatter_object_input_list must be equal to group rank size {len(members)}.")
    sent = scatter_object_input_list if _cc.world_rank() == src else None
    full = _objects(sent, group, "scatter_object_list")[members.index(src)]
    scatter_object_output_list[0] = full[_cc.group_rank(group, "scatter_object_list")]


def send_object_list(object_list: list[Any], dst: int, group: str | None = None, device: Any = None) -> None:
    """Send the objects of ``object_list`` to world rank ``dst``."""
    if not isinstance(object_list, list):
        raise TypeError("For send_object_list, the object_list must be a list")
    _check_peer("send_object_list", dst, "dst")
    _cc.post(_cc.to_bytes(list(object_list)), dst, 0, group)


def recv_object_list(object_list: list[Any], src: int = 0, group: str | None = None, device: Any = None) -> int:
    """Fill ``object_list`` with the objects world rank ``src`` sent; returns 0."""
    if not isinstance(object_list, list):
        raise TypeError("For recv_object_list, the object_list must be a list")
    _check_peer("recv_object_list", src, "src")
    got = _cc.from_bytes(_cc.take(src, 0, group))
    object_list[:len(got)] = got
    return 0


# ---- process groups ------------------------------------------------------------------------------------
def init_process_group(backend: str = "hccl", init_method: str | None = None, timeout: Any = None,
                       world_size: int = -1, rank: int = -1, store: Any = None, group_name: str = "",
                       pg_options: Any = None, device_id: int | None = None) -> None:
    """Join the job's processes (``communication.init``); ``world_size`` must match the job's size if given."""
    if backend != "hccl":
        raise ValueError("Only support hccl now, please setting backend to hccl or using default value")
    if init_method is not None and store is not None:
        raise ValueError("Only one of init_method and store is supported.")
    if init_method is not None or store is not None:
        raise NotImplementedError("init_process_group: init_method / store are not supported; start the processes "
                                  "with mindspore-hl-run (or msrun-style environment variables) instead.")
    _mgmt.init(backend)
    size = _mgmt.get_group_size(group_name) if group_name else _mgmt.get_group_size()
    if world_size not in (-1, size):
        raise ValueError(f"world_size is wrong, please using default value or setting: {size}")


def destroy_process_group(group: str | None = None) -> None:
    """Leave the job (the world group), or forget a group made by :func:`new_group`."""
    if group is None or group in _cc._WORLD:
        _mgmt.release()
    elif not isinstance(group, str):
        raise TypeError(f"For 'destroy_group', the argument 'group' must be type of string or None, but got "
                        f"'group' type : {type(group)}.")
    else:
        _mgmt.destroy_group(group)


def new_group(ranks: list[int] | None = None, timeout: Any = None, backend: str | None = None,
              pg_options: Any = None, use_local_synchronization: bool = False, group_desc: str | None = None) -> str:
    """Create a group of the world ranks ``ranks`` and return its name (the world group's for None)."""
    if ranks is None:
        return _mgmt.GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"ranks must be list, but got {type(ranks)}")
    ranks = sorted(ranks)
    backend = "hccl" if backend is None else backend
    if not isinstance(backend, str) or backend not in ("hccl", "mccl"):
        raise TypeError(f"the input backend must be hccl or mccl, but got {backend}")
    group = f"{backend}_{len(ranks)}_" + hashlib.sha1("_".join(map(str, ranks)).encode("utf-8")).hexdigest()
    if group not in _mgmt._groups:
        _mgmt.create_group(group, ranks)
    return group


def _query(name: str, group: str | None, fn) -> int:
    _check_group_arg(name, group)
    try:
        return fn(_mgmt.GlobalComm.WORLD_COMM_GROUP if group is None else group)
    except RuntimeError as e:  # MindSpore logs the failure and answers -1
        _log.warning(str(e))
        return -1


def get_rank(group: str | None = None) -> int:
    """This process's rank in ``group`` (-1, with a warning, when communication is not initialized)."""
    return _query("get_rank", group, _mgmt.get_rank)


def get_world_size(group: str | None = None) -> int:
    """Number of ranks in ``group`` (-1, with a warning, when communication is not initialized)."""
    return _query("get_world_size", group, _mgmt.get_group_size)


def get_backend(group: str | None = None) -> str:
    """The backend name of ``group``: 'hccl' or 'mccl' as named by the group, else the one ``init`` chose."""
    if group is None:
        return "hccl"
    _check_group_arg("get_backend", group)
    for name in ("hccl", "mccl"):
        if name in group:
            return name
    return _mgmt.GlobalComm.BACKEND


def get_global_rank(group: str, group_rank: int) -> int:
    """The world rank of rank ``group_rank`` of ``group``."""
    if not isinstance(group_rank, int):
        raise TypeError(f"The group_rank argument must be integer, but got {type(group_rank)}.")
    if group is None or group in _cc._WORLD:
        return group_rank
    return _mgmt.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group: str, global_rank: int) -> int:
    """The rank in ``group`` of world rank ``global_rank``."""
    if not isinstance(global_rank, int):
        raise TypeError(f"The global_rank argument must be integer, but got {type(global_rank)}.")
    return _mgmt.get_group_rank_from_world_rank(global_rank, _mgmt.GlobalComm.WORLD_COMM_GROUP
                                                if group is None else group)


def get_process_group_ranks(group: str | None = None) -> list[int]:
    """The world ranks of ``group``'s members (``communication.get_process_group_ranks``)."""
    return _query_mod.get_process_group_ranks(group)


def is_available() -> bool:
    """Whether distributed communication can be used (JAX's distributed runtime is always built in)."""
    return True


def is_initialized() -> bool:
    """Whether ``init`` / ``init_process_group`` has run in this process."""
    return bool(_mgmt.GlobalComm.INITED)
