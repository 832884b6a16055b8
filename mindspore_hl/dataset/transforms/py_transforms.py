"""Legacy path ``mindspore.dataset.transforms.py_transforms`` (removed in MindSpore 2.x, still used by old
ModelZoo scripts): the same classes as ``mindspore_hl.dataset.transforms``."""
from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401
