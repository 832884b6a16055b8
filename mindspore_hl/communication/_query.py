"""``get_process_group_ranks`` / ``get_comm_name`` of ``mindspore.communication``."""
from __future__ import annotations

from . import _management

__all__ = ["get_process_group_ranks", "get_comm_name"]


def _group(group: str | None, what: str) -> str:
    if group is None:
        return _management.GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{what}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def get_process_group_ranks(group: str | None = _management.GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    """The world ranks of ``group``'s members, in group order."""
    return list(_management._members(_group(group, "get_process_group_ranks"), "get_process_group_ranks"))


def get_comm_name(group: str | None = _management.GlobalComm.WORLD_COMM_GROUP) -> str:
    """The name of ``group``'s communicator: the group's own name (each group here has one communicator, the
    ``jax.distributed`` service's, addressed by the group name)."""
    name = _group(group, "get_comm_name")
    _management._members(name, "get_comm_name")
    return name
