"""Legacy path ``mindspore.train.callback``: the callbacks (same classes as ``mindspore_hl.callbacks``)."""
from ..callbacks import *  # noqa: F401,F403
from ..callbacks import __all__, _CallbackManager, _InternalCallbackParam  # noqa: F401
