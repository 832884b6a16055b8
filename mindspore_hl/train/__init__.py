"""``mindspore.train``: Model, callbacks, metrics, loss-scale managers, checkpoints and summaries in one namespace.

MindSpore 1.x's submodule paths (``mindspore_hl.train.callback``, ``.metrics``, ``.model``, ``.serialization``,
``.amp``, ``.loss_scale_manager``, ``.summary``) are registered by ``mindspore_hl._compat``.
"""
from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager, build_train_network
from ..callbacks import *  # noqa: F401,F403
from ..callbacks import __all__ as _callback_all
from ..metrics import *  # noqa: F401,F403
from ..metrics import __all__ as _metric_all
from ..model import Model
from ..nn._thor_convert import ConvertNetUtils
from ..parallel import build_searched_strategy, load_distributed_checkpoint, restore_group_info_list
from ..parallel._redundancy import get_ckpt_path_with_strategy
from ..serialization import export, load, load_checkpoint, load_param_into_net, save_checkpoint
from ._ckpt_tools import *  # noqa: F401,F403
from ._ckpt_tools import __all__ as _ckpt_all
from ._sink import DatasetHelper, connect_network_with_dataset, data_sink, recompute  # noqa: F401
from ._thor import ConvertModelUtils

if TYPE_CHECKING:  # loaded on first use at run time
    from ..summary import SummaryRecord
    from ._landscape import SummaryLandscape

__all__ = ["Model", "build_train_network", "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "save_checkpoint", "load_checkpoint", "load_param_into_net", "export", "load", "SummaryRecord",
           "SummaryLandscape"] \
    + _callback_all + _metric_all + _ckpt_all + ["DatasetHelper", "connect_network_with_dataset", "data_sink"] \
    + ["build_searched_strategy", "load_distributed_checkpoint", "get_ckpt_path_with_strategy",
       "restore_group_info_list"] + ["ConvertNetUtils", "ConvertModelUtils"]


__getattr__ = lazy_names(__name__, {"SummaryRecord": "mindspore_hl.summary._record",
                                    "SummaryLandscape": "mindspore_hl.train._landscape"})  # heavy import: see _lazy
