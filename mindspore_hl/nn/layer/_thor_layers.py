"""Layers for the THOR second-order optimizer: ``DenseThor``, ``Conv2dThor``, ``EmbeddingThor``.

They compute like ``Dense`` / ``Conv2d`` / ``Embedding`` and, while their ``thor`` attribute is True, store the
statistics THOR needs, with the formulas of MindSpore's GPU/CPU code path:

- ``matrix_a`` (A): the input covariance, written in the forward pass;
- ``matrix_g`` (G): the covariance of the gradient of the layer's output, written in the backward pass (what
  MindSpore's ``InsertGradientOf`` hook does). Here an identity ``jax.custom_vjp`` whose backward rule records G
  into the Parameter: eagerly it is set at once, inside a compiled step it is written back with the step's state.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import numpy as np

from ... import ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor, wrap
from ..cell import Cell
from ._activation import get_activation
from ._checks import check_input, int_tuple, make_param, positive_int
from ._conv import _padding

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...common.initializer import Initializer

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor"]


def _record_output_grad(y: jax.Array, record: Callable[[jax.Array], None]) -> jax.Array:
    """Identity whose backward pass calls ``record(dout)`` (MindSpore's ``InsertGradientOf`` on the output)."""
    @jax.custom_vjp
    def ident(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, dout):
        record(dout)
        return (dout,)

    ident.defvjp(fwd, bwd)
    return ident(y)


def _stat(param: Parameter, value: jax.Array) -> None:
    param._set_value(jnp.asarray(value, jnp.float32).reshape(param.shape))


def _bias(cell: DenseThor | Conv2dThor) -> Parameter:
    """The bias Parameter of a layer built with ``has_bias=True`` (which is when it has one)."""
    if cell.bias is None:
        raise AttributeError(f"{type(cell).__name__}: 'has_bias' is True but its 'bias' is None.")
    return cell.bias


class DenseThor(Cell):
    """``Dense`` that stores THOR's A and G (``thor`` True by default; MindSpore's GPU formulas).

    ``matrix_a = x.T @ x / in_channels`` (MindSpore's GPU/CPU normalizer is the first dim of ``x.T @ x``) and
    ``matrix_g = dout.T @ dout / batch`` with ``dout`` the gradient of ``x @ weight.T`` (before bias and
    activation).

    Args:
        in_channels, out_channels (int): sizes. weight_init: default 'normal'; bias_init: default 'zeros'.
        has_bias (bool): default True. activation (str): e.g. 'relu', or None.
    Inputs: (N, in_channels). Outputs: (N, out_channels).

    >>> import numpy as np
    >>> import mindspore_hl as ms
    >>> net = ms.nn.DenseThor(3, 4, weight_init="ones")
    >>> print(net(ms.Tensor(np.array([[1, 2, 3], [3, 4, 5]]), ms.float32)))
    [[ 6.  6.  6.  6.]
     [12. 12. 12. 12.]]
    """

    def __init__(self, in_channels: int, out_channels: int,
                 weight_init: str | float | Tensor | Initializer = "normal",
                 bias_init: str | float | Tensor | Initializer = "zeros", has_bias: bool = True,
                 activation: str | None = None) -> None:
        super().__init__()
        self.thor = True
        self.in_channels = positive_int("DenseThor", "in_channels", in_channels)
        self.out_channels = positive_int("DenseThor", "out_channels", out_channels)
        if not isinstance(has_bias, bool):
            raise TypeError(f"DenseThor: 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        self.weight = make_param(weight_init, (out_channels, in_channels), cell_name="DenseThor")
        self.bias = None
        if has_bias:
            self.bias = make_param(bias_init, (out_channels,), cell_name="DenseThor", what="bias_init")
        self.activation = get_activation(activation, "DenseThor") if activation is not None else None
        self.activation_flag = self.activation is not None
        self.matrix_a = Parameter(Tensor(np.eye(in_channels, dtype=np.float32)), requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.eye(out_channels, dtype=np.float32)), requires_grad=False)

    def _save_g(self, dout):
        _stat(self.matrix_g, dout.T @ dout * (1.0 / dout.shape[0]))

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels), note=f"in_channels={self.in_channels}")
        xv = x._value
        w = self.weight._value.astype(xv.dtype)
        y = xv @ w.T
        if self.thor:
            a = xv.T @ xv
            _stat(self.matrix_a, a * (1.0 / a.shape[0]))
            y = _record_output_grad(y, self._save_g)
        if self.has_bias:
            y = y + _bias(self)._value.astype(y.dtype)
        out = wrap(y)
        if self.activation_flag:
            out = self.activation(out)  # type: ignore[misc]  # activation_flag: it is set
        return out

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class Conv2dThor(Cell):
    """``Conv2d`` (NCHW) that stores THOR's A and G (MindSpore's GPU formulas).

    A: the input's patches (kernel_size, stride, 'same' zero padding, whatever ``pad_mode`` is: MindSpore's
    ``ThorIm2Col``), laid out (C*kH*kW, N, L), averaged over the batch, then ``a @ a.T / L``
    (``a_normalizer = L``). G: the output gradient (before bias) averaged over the batch, (C_out, H'*W'), then
    ``d @ d.T / (H'*W')`` (``g_normalizer``).

    Args: as ``Conv2d`` (without data_format), with MindSpore's defaults weight_init='normal', has_bias=False.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, int] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer = "normal",
                 bias_init: str | float | Tensor | Initializer = "zeros") -> None:
        super().__init__()
        name = "Conv2dThor"
        self.in_channels = positive_int(name, "in_channels", in_channels)
        self.out_channels = positive_int(name, "out_channels", out_channels)
        self.group = positive_int(name, "group", group)
        if in_channels % group or out_channels % group:
            raise ValueError(f"{name}: 'group' ({group}) must divide in_channels ({in_channels}) and out_channels "
                             f"({out_channels}).")
        self.kernel_size = int_tuple(name, "kernel_size", kernel_size, 2)
        self.stride = int_tuple(name, "stride", stride, 2)
        self.dilation = int_tuple(name, "dilation", dilation, 2)
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"{name}: 'pad_mode' must be one of ['same', 'valid', 'pad'], but got {pad_mode!r}.")
        self.pad_mode = pad_mode
        self.padding = _padding(name, pad_mode, padding, 2)
        if not isinstance(has_bias, bool):
            raise TypeError(f"{name}: 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        self.bias_init = bias_init
        self.weight = make_param(weight_init, (out_channels, in_channels // group) + self.kernel_size, cell_name=name)
        self.bias = make_param(bias_init, (out_channels,), cell_name=name, what="bias_init") if has_bias else None
        self.thor = True
        self.hw = self.kernel_size[0] * self.kernel_size[1]
        self.matrix_a_dim = in_channels * self.hw
        self.matrix_g_dim = out_channels
        self.a_normalizer = Parameter(Tensor(np.ones((1,), np.float32)), requires_grad=False)
        self.g_normalizer = Parameter(Tensor(np.ones((1,), np.float32)), requires_grad=False)
        self.matrix_a_cov = Parameter(Tensor(np.zeros((self.matrix_a_dim,) * 2, np.float32)), name="matrix_a",
                                      requires_grad=False)
        self.matrix_g_cov = Parameter(Tensor(np.zeros((self.matrix_g_dim,) * 2, np.float32)), name="matrix_g",
                                      requires_grad=False)

    def _save_g(self, dout):
        d = jnp.mean(dout, axis=0)
        d = d.reshape(d.shape[0], -1).astype(jnp.float32)
        n = d.shape[1]
        _stat(self.g_normalizer, jnp.full((1,), n, jnp.float32))
        _stat(self.matrix_g_cov, d @ d.T * (1.0 / n))

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("N", self.in_channels, "H", "W"), note=f"in_channels={self.in_channels}")
        xv = x._value
        if self.thor:
            patches = jax.lax.conv_general_dilated_patches(xv, self.kernel_size, self.stride, "SAME")
            n, k = patches.shape[:2]
            a = jnp.mean(patches.reshape(n, k, -1), axis=0).astype(jnp.float32)  # (C*kH*kW, L)
            norm = a.shape[1]
            _stat(self.matrix_a_cov, a @ a.T * (1.0 / norm))
            _stat(self.a_normalizer, jnp.full((1,), norm, jnp.float32))
        out = ops.conv2d(x, self.weight, None, self.stride, self.pad_mode, self.padding, self.dilation, self.group)
        y = out._value
        if self.thor:
            y = _record_output_grad(y, self._save_g)
        if self.has_bias:
            y = y + _bias(self)._value.astype(y.dtype).reshape(1, -1, 1, 1)
        return wrap(y)

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"bias_init={self.bias_init}")


class EmbeddingThor(Cell):
    """``Embedding`` that stores THOR's A (per-id counts of the batch) and G (``dout.T @ dout / n_ids``).

    Args:
        vocab_size, embedding_size (int), use_one_hot (bool): default False (with True nothing is stored, as in
        MindSpore), embedding_table: default 'normal', dtype: default float32, padding_idx: None or a row set to 0.
    Inputs: integer ids of any shape. Outputs: ids.shape + (embedding_size,).
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: str | float | Tensor | Initializer = "normal",
                 dtype: mstype.Type = mstype.float32, padding_idx: int | None = None) -> None:
        super().__init__()
        for what, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"EmbeddingThor: '{what}' must be an int, but got {type(v).__name__}.")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"EmbeddingThor: 'use_one_hot' must be a bool, but got {type(use_one_hot).__name__}.")
        self.vocab_size, self.embedding_size = vocab_size, embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = make_param(embedding_table, (vocab_size, embedding_size), cell_name="EmbeddingThor",
                           what="embedding_table")
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or not 0 <= padding_idx <= vocab_size:
                raise ValueError(f"EmbeddingThor: 'padding_idx' must be an int in [0, {vocab_size}], but got "
                                 f"{padding_idx!r}.")
            table._set_value(table._value.at[padding_idx].set(0))
        self.embedding_table = table
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros((vocab_size,), np.float32)), requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros((embedding_size, embedding_size), np.float32)),
                                  requires_grad=False)

    def _save_g(self, dout):
        d = dout.astype(jnp.float32)
        _stat(self.matrix_g, d.T @ d * (1.0 / d.shape[0]))

    def construct(self, ids: Tensor) -> Tensor:
        check_input(self, ids, ("...",))
        if not jnp.issubdtype(ids._value.dtype, jnp.integer):
            raise TypeError(f"EmbeddingThor: expected integer ids, but got {ids.dtype}.")
        flat = ids._value.reshape(-1)
        table = self.embedding_table._value
        if self.use_one_hot:
            out = jax.nn.one_hot(flat, self.vocab_size, dtype=table.dtype) @ table
        else:
            out = jnp.take(table, flat, axis=0, mode="fill", fill_value=0)
            if self.thor:
                _stat(self.matrix_a, jnp.sum(jax.nn.one_hot(flat, self.vocab_size, dtype=jnp.float32), axis=0))
                out = _record_output_grad(out, self._save_g)
        return wrap(out.reshape(tuple(ids.shape) + (self.embedding_size,)))

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")
