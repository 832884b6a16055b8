"""``mindspore_hl.communication``: join the processes of a distributed job (``init``) and query ranks.

Start N local processes with ``mindspore-hl-run -n N script.py``; each calls ``init()`` first.
"""
from . import _management as management
from ._management import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    create_group,
    destroy_group,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_rank,
    get_world_rank_from_group_rank,
    init,
    release,
)
from ._query import get_comm_name, get_process_group_ranks

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "create_group", "destroy_group", "get_world_rank_from_group_rank", "get_group_rank_from_world_rank",
           "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "management",
           "get_comm_name", "get_process_group_ranks"]
