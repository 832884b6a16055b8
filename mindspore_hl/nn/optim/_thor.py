"""``nn.thor``: the THOR second-order optimizer (MindSpore's ``ThorGpu`` algorithm, the one its non-Ascend path builds).

Per THOR layer (``DenseThor`` / ``Conv2dThor`` / ``EmbeddingThor``, see ``nn.layer._thor_layers``), with the
damping of the current step ``d = damping[cov_step]``:

- ``G' = G / loss_scale**2 * batch_size**2 + sqrt(d_g) I`` and ``A' = A + sqrt(d_a) I`` (Conv: ``d_a = d / a_norm``,
  ``d_g = d / g_norm``, both inverses scaled by ``sqrt(1 / a_norm)``; Dense: ``d_a = d_g = d``);
- inverses of the diagonal blocks of size 128 (MindSpore's ``CholeskyTrsm(split_dim=128)``: the last, smaller
  block is padded with the identity), ``grad <- blockdiag(G'^-1) @ grad @ blockdiag(A'^-1)`` (``UpdateThorGradient``);
- Embedding: ``a = 1 / (A / batch_size + sqrt(d))`` and ``M = L^-1 @ L^-1`` with ``L`` the Cholesky factor of
  ``G'`` (MindSpore multiplies the triangular inverse by itself, not by its transpose), ``grad <- (a * grad) @ M``;
- LayerNorm's gamma and beta: ``grad / (grad**2 / batch_size + sqrt(d))``.

While the optimizer's ``thor`` attribute is False (MindSpore's sink-mode first-order steps; set by hand here) the
inverses stored at the last THOR step are reused, and THOR layers with ``thor`` False record nothing.
Then: weight decay (``decay_filter``), optional per-tensor clipping to norm 1, and ``ApplyMomentum``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..._jit import jit
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor, to_array
from .._thor_convert import ConvertNetUtils
from ..layer import LayerNorm
from ..layer._thor_layers import Conv2dThor, DenseThor, EmbeddingThor
from ._optimizer import Optimizer

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..cell import Cell

__all__ = ["thor", "ThorGpu"]

_OTHER, _CONV, _FC, _EMBEDDING, _LAYERNORM = -1, 1, 2, 3, 4
_SPLIT_DIM = 128


def _check_param(momentum, frequency, lr, cls_name):
    if not isinstance(momentum, float):
        raise TypeError(f"For '{cls_name}', the type of 'momentum' must be float, but got {type(momentum).__name__}.")
    if momentum < 0.0:
        raise ValueError(f"For 'thor', the argument 'momentum' must be at least 0.0, but got 'momentum' {momentum}.")
    if not isinstance(frequency, int) or isinstance(frequency, bool):
        raise TypeError(f"For '{cls_name}', the type of 'frequency' must be int, but got {type(frequency).__name__}.")
    if frequency < 2:
        raise ValueError(f"For 'thor', the argument 'frequency' must be at least 2, but got 'frequency' {frequency}.")
    if not isinstance(lr, Tensor):
        raise TypeError(f"For '{cls_name}', the type of 'learning rate' must be Tensor, but got {type(lr).__name__}.")


def _matmul_shape(a_dim, g_dim):
    """MindSpore's ``caculate_matmul_shape``: block layouts of A^-1 (batch_h, batch_w, sa, sa) and G^-1."""
    def split(dim):
        if dim % _SPLIT_DIM == 0:
            return dim // _SPLIT_DIM, _SPLIT_DIM
        if dim < _SPLIT_DIM:
            return 1, dim
        return dim // _SPLIT_DIM + 1, _SPLIT_DIM
    batch_w, sa = split(a_dim)
    batch_h, sg = split(g_dim)
    return (batch_h, batch_w, sa, sa), (batch_h, sg, sg)


def _tril_inverse_blocks(m):
    """Inverse lower Cholesky factors of the diagonal blocks of ``m`` (``CholeskyTrsm(split_dim=128)``)."""
    d = m.shape[0]
    if d <= _SPLIT_DIM:
        blocks = m[None]
    else:
        n = -(-d // _SPLIT_DIM)
        pad = n * _SPLIT_DIM - d
        full = jnp.pad(m, ((0, pad), (0, pad))) + jnp.diag(jnp.concatenate(
            [jnp.zeros((d,), m.dtype), jnp.ones((pad,), m.dtype)]))
        blocks = jnp.stack([full[i * _SPLIT_DIM:(i + 1) * _SPLIT_DIM, i * _SPLIT_DIM:(i + 1) * _SPLIT_DIM]
                            for i in range(n)])
    chol = jnp.linalg.cholesky(blocks)
    eye = jnp.broadcast_to(jnp.eye(blocks.shape[-1], dtype=m.dtype), blocks.shape)
    return jax.scipy.linalg.solve_triangular(chol, eye, lower=True)


def _block_inverse(m):
    """``(L^-1).T @ L^-1`` per block: the inverses of the diagonal blocks, (n_blocks, s, s)."""
    inv_l = _tril_inverse_blocks(m)
    return jnp.swapaxes(inv_l, -1, -2) @ inv_l


def _update_gradient(g_inv, g, a_inv):
    """``UpdateThorGradient``: blockdiag(g_inv) @ g @ blockdiag(a_inv[0]) on the zero-padded gradient."""
    bh, sg = g_inv.shape[0], g_inv.shape[1]
    bw, sa = a_inv.shape[1], a_inv.shape[2]
    rows, cols = g.shape
    gp = jnp.pad(g, ((0, bh * sg - rows), (0, bw * sa - cols))).reshape(bh, sg, bw, sa)
    out = jnp.einsum("hij,hjwk,wkl->hiwl", g_inv, gp, a_inv[0])
    return out.reshape(bh * sg, bw * sa)[:rows, :cols]


def _layer_map(net):
    """``{id(param): (layer type, cell)}`` for THOR layers' weights and LayerNorm's gamma/beta."""
    owners: dict[int, tuple[int, Cell]] = {}
    for _, cell in net.cells_and_names():
        if isinstance(cell, Conv2dThor):
            owners[id(cell.weight)] = (_CONV, cell)
        elif isinstance(cell, DenseThor):
            owners[id(cell.weight)] = (_FC, cell)
        elif isinstance(cell, EmbeddingThor):
            owners[id(cell.embedding_table)] = (_EMBEDDING, cell)
        elif isinstance(cell, LayerNorm):
            for p in cell.get_parameters(expand=False):
                owners[id(p)] = (_LAYERNORM, cell)
    return owners


class ThorGpu(Optimizer):
    """The optimizer ``nn.thor`` returns (MindSpore's GPU/CPU class); build it with ``nn.thor``."""

    # The float given (not loss-scaled), as MindSpore's ThorGpu keeps it. Optimizer's attribute is inferred as
    # tuple[Any, ...] (its group branch) though it holds a float / Cell / tuple, so only Any overrides it.
    weight_decay: Any

    def __init__(self, net: Cell, learning_rate: Tensor, damping: Tensor, momentum: float, weight_decay: float = 0.0,
                 loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
                 decay_filter: Callable[[Parameter], bool] = lambda x: x.name not in [],
                 split_indices: list[int] | None = None, enable_clip_grad: bool = False, frequency: int = 100) -> None:
        params = [p for p in net.get_parameters() if p.requires_grad]
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param(momentum, frequency, learning_rate, self.cls_name)
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For '{self.cls_name}', 'use_nesterov' must be a bool, but got "
                            f"{type(use_nesterov).__name__}.")
        if not isinstance(damping, Tensor):
            raise TypeError(f"For '{self.cls_name}', 'damping' must be a Tensor, but got {type(damping).__name__}.")
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum")
        self.params = self._parameters
        self.use_nesterov = use_nesterov
        self.moments = self._clone_state("moments")
        self.__dict__["net"] = net  # not a sub-cell: its Parameters keep their names and owner
        # The statistics the THOR layers write, registered (as in MindSpore) so the compiled update reads them.
        stats = list(net.get_parameters())
        self.matrix_a_cov = ParameterTuple([p for p in stats if "matrix_a" in p.name])
        self.matrix_g_cov = ParameterTuple([p for p in stats if "matrix_g" in p.name])
        self.a_normalizer = ParameterTuple([p for p in stats if "a_normalizer" in p.name])
        self.g_normalizer = ParameterTuple([p for p in stats if "g_normalizer" in p.name])
        self.batch_size = float(batch_size)
        self.batch_size_scale = float(batch_size) * float(batch_size)
        self.damping = damping
        self.cov_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="cov_step", requires_grad=False)
        self.thor = True
        self.weight_decay = weight_decay
        self.decay_flags = tuple(bool(decay_filter(p)) for p in self._parameters)
        self.enable_clip_grad = enable_clip_grad
        self.frequency = frequency
        self.split_indices = split_indices
        owners = _layer_map(net)
        self._layers: list[tuple[int, Any, int]] = []  # per parameter: (type, cell, index of its inverse slots)
        mats_a: list[Parameter] = []
        mats_g: list[Parameter] = []
        for p in self._parameters:
            kind, cell = owners.get(id(p), (_OTHER, None))
            slot = -1
            if kind in (_CONV, _FC, _EMBEDDING):
                slot = len(mats_a)
                if kind == _EMBEDDING:
                    shape_a, shape_g = (p.shape[0],), (p.shape[1], p.shape[1])
                else:
                    a_dim = int(np.prod(p.shape[1:]))
                    shape_a, shape_g = _matmul_shape(a_dim, p.shape[0])
                mats_a.append(Parameter(Tensor(np.zeros(shape_a, np.float32)), name=f"matrix_a_inv_{slot}",
                                        requires_grad=False))
                mats_g.append(Parameter(Tensor(np.zeros(shape_g, np.float32)), name=f"matrix_g_inv_{slot}",
                                        requires_grad=False))
            self._layers.append((kind, cell, slot))
        self.matrix_a = ParameterTuple(mats_a)
        self.matrix_g = ParameterTuple(mats_g)

    def get_frequency(self) -> int:
        """The update interval of A/G and their inverses."""
        return self.frequency

    def _inverses(self, kind, cell, damping_step):
        """The (A^-1, G^-1) of one layer from its current statistics."""
        if kind == _CONV:
            a, g = cell.matrix_a_cov._value, cell.matrix_g_cov._value
            a_norm, g_norm = cell.a_normalizer._value[0], cell.g_normalizer._value[0]
            damping_a, damping_g = damping_step / a_norm, damping_step / g_norm
            feature_map = jnp.sqrt(1.0 / a_norm)
        else:
            a, g = cell.matrix_a._value, cell.matrix_g._value
            damping_a = damping_g = damping_step
            feature_map = jnp.float32(1.0)
        damping_a, damping_g = jnp.sqrt(damping_a), jnp.sqrt(damping_g)
        g = g * (1.0 / self.loss_scale ** 2) * self.batch_size_scale + damping_g * jnp.eye(g.shape[0], dtype=g.dtype)
        if kind == _EMBEDDING:
            a_inv = 1.0 / (a * (1.0 / self.batch_size) + damping_a)
            inv_l = _full_tril_inverse(g)  # CholeskyTrsm without split_dim
            g_inv = inv_l @ inv_l
        else:
            a = a + damping_a * jnp.eye(a.shape[0], dtype=a.dtype)
            a_blocks = _block_inverse(a)
            g_inv = _block_inverse(g)
            shape_a, _ = _matmul_shape(a.shape[0], g.shape[0])
            a_inv = jnp.broadcast_to(a_blocks, shape_a)
        return a_inv * feature_map, g_inv * feature_map

    def _precondition(self, g, kind, a_inv, g_inv):
        if kind == _EMBEDDING:
            return (a_inv[:, None] * g) @ g_inv
        shape = g.shape
        return _update_gradient(g_inv, g.reshape(shape[0], -1), a_inv).reshape(shape)

    def _layernorm(self, g, damping_step):
        return g / (jnp.square(g) * (1.0 / self.batch_size) + jnp.sqrt(damping_step))

    def construct(self, gradients: tuple[Tensor, ...]) -> Tensor:
        # Two compiled updates: ``thor`` is a Python flag that ModelThor switches between steps.
        return self._thor_step(gradients) if self.thor else self._first_order_step(gradients)

    @jit
    def _thor_step(self, gradients):
        return self._update(gradients, True)

    @jit
    def _first_order_step(self, gradients):
        return self._update(gradients, False)

    def _update(self, gradients, refresh):
        grads = self._gradients(gradients, decay=False, centralize=False, scale=True)
        damping = to_array(self.damping).astype(jnp.float32).reshape(-1)
        # MindSpore's Gather on GPU gives 0 for an index past the end.
        damping_step = jnp.take(damping, self.cov_step._value[0], mode="fill", fill_value=0.0)
        new_grads = []
        for g, (kind, cell, slot) in zip(grads, self._layers):
            if kind in (_CONV, _FC, _EMBEDDING):
                if refresh:
                    a_inv, g_inv = self._inverses(kind, cell, damping_step)
                    self._assign(self.matrix_a[slot], a_inv.reshape(self.matrix_a[slot].shape))
                    self._assign(self.matrix_g[slot], g_inv.reshape(self.matrix_g[slot].shape))
                else:
                    a_inv, g_inv = self.matrix_a[slot]._value, self.matrix_g[slot]._value
                g = self._precondition(g.astype(jnp.float32), kind, a_inv, g_inv).astype(g.dtype)
            elif kind == _LAYERNORM:
                g = self._layernorm(g, damping_step).astype(g.dtype)
            new_grads.append(g)
        self.cov_step._set_value(self.cov_step._value + 1)
        if self.weight_decay > 0:
            new_grads = [g + self.weight_decay * p._value if flag else g
                         for g, p, flag in zip(new_grads, self._parameters, self.decay_flags)]
        if self.enable_clip_grad:  # MindSpore's default: each gradient clipped to L2 norm 1 (nn.ClipByNorm)
            new_grads = [g * (1.0 / jnp.maximum(jnp.sqrt(jnp.sum(jnp.square(g))), 1.0)) for g in new_grads]
        lrs = self._lr_per_param()
        mom = self.momentum._value
        for p, m, g, lr in zip(self._parameters, self.moments, new_grads, lrs):
            dt = p._value.dtype
            step, state = optax.trace(decay=mom.astype(dt), nesterov=self.use_nesterov).update(
                g, optax.TraceState(trace=m._value))
            self._assign(m, state.trace)
            self._assign(p, p._value - lr.astype(dt) * step)
        return self._success()


def _full_tril_inverse(m):
    chol = jnp.linalg.cholesky(m)
    return jax.scipy.linalg.solve_triangular(chol, jnp.eye(m.shape[0], dtype=m.dtype), lower=True)


def thor(net: Cell, learning_rate: Tensor, damping: Tensor, momentum: float, weight_decay: float = 0.0,
         loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
         decay_filter: Callable[[Parameter], bool] = lambda x: x.name not in [], split_indices: list[int] | None = None,
         enable_clip_grad: bool = False, frequency: int = 100) -> ThorGpu:
    """THOR: converts ``net`` to THOR layers (``ConvertNetUtils``) and returns its optimizer (``ThorGpu``).

    Args:
        net (Cell): the network to train (converted in place).
        learning_rate (Tensor): per-step values (indexed by ``global_step``), or one value.
        damping (Tensor): per-step damping values (indexed by the optimizer's ``cov_step``).
        momentum (float): >= 0. weight_decay (float): >= 0, applied to the parameters ``decay_filter`` accepts.
        loss_scale (float): > 0. batch_size (int): the training batch size (scales G and A).
        use_nesterov (bool), enable_clip_grad (bool): as in MindSpore.
        split_indices: only used by MindSpore for distributed all-reduce fusion; kept as an attribute.
        frequency (int): >= 2, ``get_frequency()``: the THOR-step interval of MindSpore's sink-mode schedule.

    >>> import numpy as np
    >>> import mindspore_hl as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(4, 3)])
    >>> lr = ms.Tensor(np.full((8,), 0.1, np.float32))
    >>> opt = ms.nn.thor(net, lr, lr, 0.9, frequency=2)
    >>> type(opt).__name__, type(net[0]).__name__
    ('ThorGpu', 'DenseThor')
    """
    ConvertNetUtils().convert_to_thor_net(net)
    return ThorGpu(net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov,
                   decay_filter, split_indices=split_indices, enable_clip_grad=enable_clip_grad, frequency=frequency)
