"""Legacy path ``mindspore.dataset.vision.c_transforms`` (removed in MindSpore 2.x, still used by old ModelZoo
scripts): the same transform classes as ``mindspore_hl.dataset.vision``."""
from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401
