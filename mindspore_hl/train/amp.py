"""Legacy path ``mindspore.train.amp``: mixed precision (same functions as ``mindspore_hl.amp``)."""
from ..amp import *  # noqa: F401,F403
from ..amp import __all__  # noqa: F401
