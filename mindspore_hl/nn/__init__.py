"""``mindspore_hl.nn``: Cell, layers, losses, optimizers, learning-rate schedules and training wrappers."""
from .cell import Cell
from ._graph_cell import GraphCell
from ..parallel import DistributedGradReducer
from .layer import *  # noqa: F401,F403
from .layer import __all__ as _layer_all
from .loss import *  # noqa: F401,F403
from .loss import __all__ as _loss_all
from .optim import *  # noqa: F401,F403
from .optim import __all__ as _optim_all
from .wrap import *  # noqa: F401,F403
from .wrap import __all__ as _wrap_all
from . import probability  # noqa: E402  (nn.probability.distribution / bijector)
from ..metrics import *  # noqa: F401,F403  (MindSpore also exposes the metrics as nn.Accuracy & co)
from ..metrics import __all__ as _metrics_all

__all__ = ["Cell", "GraphCell", "DistributedGradReducer"] + _layer_all + _loss_all + _optim_all + _wrap_all + _metrics_all
