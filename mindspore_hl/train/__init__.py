"""``mindspore.train``: Model, callbacks, metrics, loss-scale managers, checkpoints and summaries in one namespace.

The legacy module paths are real submodules: ``mindspore_hl.train.callback``, ``.metrics``, ``.model``,
``.serialization``, ``.amp``, ``.loss_scale_manager``, ``.summary``.
"""
from typing import TYPE_CHECKING, Any

from ..amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager, build_train_network
from ..callbacks import *  # noqa: F401,F403
from ..callbacks import __all__ as _callback_all
from ..metrics import *  # noqa: F401,F403
from ..metrics import __all__ as _metric_all
from ..model import Model
from ..serialization import export, load, load_checkpoint, load_param_into_net, save_checkpoint
from . import amp, callback, loss_scale_manager, metrics, model, serialization, summary  # noqa: F401

if TYPE_CHECKING:  # loaded on first use at run time
    from ..summary import SummaryRecord

__all__ = ["Model", "build_train_network", "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "save_checkpoint", "load_checkpoint", "load_param_into_net", "export", "load", "SummaryRecord"] \
    + _callback_all + _metric_all


def __getattr__(name: str) -> Any:
    if name == "SummaryRecord":  # loaded on first use, as in ``mindspore_hl.summary``
        return summary.SummaryRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
