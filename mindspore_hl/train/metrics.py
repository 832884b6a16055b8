"""Legacy path ``mindspore.train.metrics``: the metrics (same classes as ``mindspore_hl.metrics``)."""
from ..metrics import *  # noqa: F401,F403
from ..metrics import __all__, get_metrics  # noqa: F401
