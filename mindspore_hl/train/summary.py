"""Legacy path ``mindspore.train.summary``: ``SummaryRecord`` (loaded on first use, as in ``mindspore_hl.summary``)."""

__all__ = ["SummaryRecord"]


def __getattr__(name):
    if name == "SummaryRecord":
        from ..summary import SummaryRecord
        return SummaryRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
