"""``mindspore_hl.nn``: Cell, layers, losses, optimizers, learning-rate schedules and training wrappers."""
# ruff: noqa: I001  (order matters: Cell and layers before mint.nn, which imports nn; later star imports win)
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

# MindSpore defines these ``*Ext`` layers in nn and re-exports them as mint.nn's; here mint.nn defines them.
from ..mint.nn import AvgPool1d as AvgPool1dExt, AvgPool2d as AvgPool2dExt, AvgPool3d as AvgPool3dExt  # noqa: E402
from ..mint.nn import L1Loss as L1LossExt, LogSoftmax as LogSoftmaxExt, PReLU as PReLUExt  # noqa: E402

__all__ = (["Cell", "GraphCell", "DistributedGradReducer"] + _layer_all + _loss_all + _optim_all + _wrap_all
           + _metrics_all + ["AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "L1LossExt", "LogSoftmaxExt",
                             "PReLUExt"])
