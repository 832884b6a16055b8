"""Legacy path ``mindspore.train.summary``: ``SummaryRecord`` (loaded on first use, as in ``mindspore_hl.summary``)."""
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded on first use at run time
    from ..summary import SummaryRecord

__all__ = ["SummaryRecord"]


def __getattr__(name: str) -> Any:
    if name == "SummaryRecord":
        from ..summary import SummaryRecord
        return SummaryRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
