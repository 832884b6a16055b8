"""Optimizers (``nn.Momentum``, ``nn.Adam`` ...) and learning-rate schedules (``nn.CosineDecayLR``,
``nn.cosine_decay_lr`` ...), exported through ``mindspore_hl.nn``."""
from .. import dynamic_lr, learning_rate_schedule
from ..dynamic_lr import *  # noqa: F401,F403
from ..learning_rate_schedule import *  # noqa: F401,F403
from ._adafactor import AdaFactor
from ._adam import Adam, AdamW, AdamWeightDecay
from ._adaptive import Adagrad, Lamb, RMSProp
from ._lars_offload import LARS, AdamOffload
from ._momentum import SGD, Momentum
from ._more import ASGD, FTRL, Adadelta, AdaMax, LazyAdam, ProximalAdagrad, Rprop
from ._optax import OptaxOptimizer
from ._optimizer import Optimizer
from ._thor import thor

__all__ = (["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "AdamW", "Lamb", "RMSProp", "Adagrad",
            "Adadelta", "AdaMax", "FTRL", "ProximalAdagrad", "Rprop", "ASGD", "LazyAdam", "OptaxOptimizer", "LARS",
            "AdamOffload", "thor", "AdaFactor"]
           + dynamic_lr.__all__ + learning_rate_schedule.__all__)
