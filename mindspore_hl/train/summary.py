"""Legacy path ``mindspore.train.summary``: ``SummaryRecord``."""
from ..summary import SummaryRecord

__all__ = ["SummaryRecord"]
