"""mindspore_hl: MindSpore's Model / Cell / Tensor API on JAX and XLA.

    import mindspore_hl as ms     # instead of: import mindspore as ms
"""
# ruff: noqa: I001  (the order below is the order things must happen: x64 mode first, legacy paths last)
import jax as _jax

# MindSpore's default integer dtype is Int64 and users may ask for Float64: JAX needs x64 mode for both.
_jax.config.update("jax_enable_x64", True)

from . import common  # noqa: E402
from .common import dtype  # noqa: E402
from .common.dtype import *  # noqa: E402,F401,F403
from .common.dtype import dtype_to_nptype, pytype_to_dtype, dtype_to_pytype  # noqa: E402
from .common.tensor import Tensor, is_tensor  # noqa: E402
from .common.mutable import mutable  # noqa: E402
from .common.parameter import Parameter, ParameterTuple  # noqa: E402
from .common.seed import set_seed, get_seed  # noqa: E402
from .common._storage import UntypedStorage  # noqa: E402
from .context import (GRAPH_MODE, PYNATIVE_MODE, STRICT, COMPATIBLE, LAX, set_context, get_context,  # noqa: E402
                      set_device)
from ._jit import jit, jit_class, flops_collection  # noqa: E402
from . import ops  # noqa: E402
from .ops import grad, value_and_grad, vjp, jvp, jacfwd, jacrev, vmap, tensor  # noqa: E402
from ._engine._saved_tensors import saved_tensors_hooks, register_saved_tensors_hooks  # noqa: E402
from . import nn  # noqa: E402
from . import dataset  # noqa: E402
from . import serialization  # noqa: E402
from .serialization import save_checkpoint, load_checkpoint, load_param_into_net, export, load  # noqa: E402
from . import parallel, communication  # noqa: E402
from . import amp, callbacks, metrics, summary, train  # noqa: E402
from . import numpy, mint  # noqa: E402  (mindspore.numpy, mindspore.mint)
from . import experimental  # noqa: E402  (mindspore.experimental.optim)
from . import device_context  # noqa: E402  (mindspore.device_context.gpu/cpu)
from .model import Model  # noqa: E402
from . import profiler  # noqa: E402
from .profiler import Profiler  # noqa: E402
from . import rewrite  # noqa: E402  (mindspore.rewrite)
from .rewrite import SymbolTree, Node, NodeType, ScopedValue  # noqa: E402
from .callbacks import (LossMonitor, TimeMonitor, ModelCheckpoint, CheckpointConfig, SummaryCollector,  # noqa: E402
                        Callback, RunContext, History, LambdaCallback, EarlyStopping, ReduceLROnPlateau,
                        LearningRateScheduler, BackupAndRestore, OnRequestExit)
from .callbacks import FlopsUtilizationCollector, TrainFaultTolerance  # noqa: E402
from .amp import FixedLossScaleManager, DynamicLossScaleManager, LossScaleManager, build_train_network  # noqa: E402
from .parallel import (ParallelMode, set_auto_parallel_context, get_auto_parallel_context,  # noqa: E402
                       reset_auto_parallel_context)
from . import _compat  # noqa: E402,F401  (registers mindspore-style module paths)
from ._lazy import lazy_names as _lazy_names  # noqa: E402
from .common._tensor_api import *  # type: ignore[assignment]  # noqa: E402,F401,F403  (from_numpy, manual_seed, JitConfig, dtype aliases; ms.from_numpy builds a Tensor, replacing dtype's)
from .metrics import (Accuracy, MAE, MSE, Precision, Recall, Fbeta, F1, Dice, ROC, auc,  # noqa: E402
                      TopKCategoricalAccuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy, Loss, Perplexity,
                      ConfusionMatrix, Metric, names, get_metric_fn, rearrange_inputs)
from .metrics import (BleuScore, CosineSimilarity, HausdorffDistance, MeanSurfaceDistance,  # noqa: E402
                      RootMeanSquareDistance, ConfusionMatrixMetric, OcclusionSensitivity)
from ._device_utils import *  # noqa: E402,F401,F403  (memory, synchronize, Stream, Event)
from ._device_ctx import DeviceCtx  # noqa: E402
from ._toplevel_misc import *  # noqa: E402,F401,F403  (type objects, float8, Generator, frombuffer, run_check)
from ._toplevel_ext import *  # noqa: E402,F401,F403  (lazy_inline, no_inline, algo parameters)
from ._runtime_ext import *  # noqa: E402,F401,F403  (launch_blocking, set_cpu_affinity, Symbol, enable_dynamic)
from ._set_dump import set_dump  # noqa: E402  (marks for MINDSPORE_DUMP_CONFIG's dump_mode 2)
from .train import (ckpt_to_safetensors, safetensors_to_ckpt, load_checkpoint_async, async_ckpt_thread_status,  # noqa: E402
                    load_segmented_checkpoints, merge_sliced_parameter, load_mindir, save_mindir, DatasetHelper,
                    connect_network_with_dataset, data_sink, recompute)
from .train import ConvertNetUtils, ConvertModelUtils  # noqa: E402
from .parallel import shard, Layout  # noqa: E402
from .parallel import (build_searched_strategy, merge_pipeline_strategys, restore_group_info_list,  # noqa: E402
                       rank_list_for_transform, transform_checkpoint_by_rank, transform_checkpoints,
                       load_distributed_checkpoint)
from .parallel._redundancy import get_ckpt_path_with_strategy  # noqa: E402
from .parallel import unified_safetensors, parameter_broadcast  # noqa: E402
from .safeguard import obfuscate_ckpt, load_obf_params_into_net  # noqa: E402  (mindspore.safeguard)

__version__ = "0.1.0"


# SummaryRecord loads tensorboardX (and with it PyTorch, when installed) on first use: see _lazy
__getattr__ = _lazy_names(__name__, {"SummaryRecord": "mindspore_hl.summary._record",
                                     "SummaryLandscape": "mindspore_hl.train._landscape"})
