"""``mindspore.experimental.optim``: PyTorch-style optimizers (``params``, ``lr``, ``param_groups``), called with
the gradients as every MindSpore optimizer: ``optimizer(grads)``."""
from ._base import Optimizer
from ._optimizers import SGD, Adadelta, Adagrad, Adam, Adamax, AdamW, NAdam, RAdam
from ._optimizers_more import ASGD, RMSprop, Rprop

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adamax", "Adadelta", "Adagrad", "RAdam", "NAdam", "RMSprop", "Rprop",
           "ASGD"]
