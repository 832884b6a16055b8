"""``nn.OptaxOptimizer``: any optax ``GradientTransformation`` as a MindSpore optimizer (an addition over MindSpore).

The transformation's state becomes Parameters of the optimizer, so ``Model.train``, ``TrainOneStepCell``, loss
scaling and checkpoints treat it like any built-in optimizer. Each state leaf is named ``optax.<path>``, where the
path follows the state's structure and ends in the trained parameter's name for per-parameter slots, e.g.
``optax.0.mu.conv1.weight`` (Adam's first moment of ``conv1.weight``) or ``optax.0.count``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import numpy as np

from ..._jit import jit
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from typing import Any, Iterable

    import optax

    from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["OptaxOptimizer"]


def _key_name(key):
    for attr in ("key", "name", "idx"):
        if hasattr(key, attr):
            return str(getattr(key, attr))
    return str(key)


class OptaxOptimizer(Optimizer):
    """Train with an optax transformation.

    Args:
        params: Parameters (or MindSpore group dicts, for per-group ``weight_decay`` / ``grad_centralization``).
        transformation: an ``optax.GradientTransformation`` (``optax.adamw(1e-3)``, ``optax.lion(1e-4)``,
            ``optax.chain(optax.clip_by_global_norm(1.0), optax.adafactor(1e-2))`` ...).
        learning_rate: None (default): the transformation's updates are added to the parameters as optax does
            (it carries its own step size and sign). Otherwise a float, per-step list or
            ``LearningRateSchedule`` as for every MindSpore optimizer: the transformation then gives a
            direction (e.g. ``optax.scale_by_adam()``) and ``param -= learning_rate * update``.
        weight_decay, loss_scale: as for ``nn.Optimizer`` (decay added to the gradient, gradients divided by the
            loss scale) before the transformation sees them.

    Example:
        >>> import optax
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.OptaxOptimizer(net.trainable_params(), optax.adamw(1e-3))
        >>> [p.name for p in opt.optax_state]
        ['optax.0.count', 'optax.0.mu.bias', 'optax.0.mu.weight', 'optax.0.nu.bias', 'optax.0.nu.weight']
    """

    def __init__(self, params: Iterable[Any], transformation: optax.GradientTransformation,
                 learning_rate: float | Tensor | Iterable[float] | LearningRateSchedule | None = None,
                 weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(1.0 if learning_rate is None else learning_rate, params, weight_decay, loss_scale)
        if not (hasattr(transformation, "init") and hasattr(transformation, "update")):
            raise TypeError(f"For '{self.cls_name}', 'transformation' must be an optax GradientTransformation (with "
                            f"init and update), but got {type(transformation).__name__}.")
        self._tx = transformation
        self._scaled = learning_rate is not None
        self._names = [p.name for p in self._parameters]
        state = transformation.init({n: p._value for n, p in zip(self._names, self._parameters)})
        leaves, self._treedef = jax.tree_util.tree_flatten_with_path(state)
        slots = []
        for path, leaf in leaves:
            name = ".".join(["optax"] + [_key_name(k) for k in path])
            slots.append(Parameter(Tensor(np.asarray(leaf)), name=name, requires_grad=False))
        names = [s.name for s in slots]
        if len(set(names)) != len(names):
            raise ValueError(f"For '{self.cls_name}', the transformation's state gives duplicate names {names}.")
        self.optax_state = ParameterTuple(slots)

    @jit
    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        grads = self._gradients(gradients)
        lrs = self._lr_per_param()
        params = {n: p._value for n, p in zip(self._names, self._parameters)}
        state = jax.tree_util.tree_unflatten(self._treedef, [s._value for s in self.optax_state])
        updates, state = self._tx.update(dict(zip(self._names, grads)), state, params)
        for slot, value in zip(self.optax_state, jax.tree_util.tree_leaves(state)):
            self._assign(slot, value)
        for name, p, lr in zip(self._names, self._parameters, lrs):
            u = updates[name].astype(p._value.dtype)
            self._assign(p, p._value - lr.astype(u.dtype) * u if self._scaled else p._value + u)
        return self._success()

    def extend_repr(self) -> str:
        return f"transformation={self._tx!r}"

