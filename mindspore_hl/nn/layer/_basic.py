"""Basic layers: ``Dense``, ``Flatten``, ``Identity``, ``Dropout``, ``Pad``, ``Embedding``."""
from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from ... import ops
from ...common import dtype as mstype
from ...common.tensor import wrap
from ..cell import Cell
from ._activation import get_activation
from ._checks import check_float, check_input, choice, default_bias_init, default_weight_init, make_param, positive_int

if TYPE_CHECKING:
    from typing import Callable

    from ...common.initializer import Initializer
    from ...common.tensor import Tensor

__all__ = ["Dense", "Flatten", "Identity", "Dropout", "Pad", "Embedding"]


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)``.

    Args:
        in_channels, out_channels: sizes of the last input dim and of the output.
        weight_init: default HeUniform(sqrt(5)); weight shape is (out_channels, in_channels).
        bias_init: default Uniform(1/sqrt(in_channels)). has_bias: default True.
        activation: None, a name ('relu', 'tanh', ...) or a Cell applied to the output.
    Inputs: (*, in_channels). Outputs: (*, out_channels).
    """

    def __init__(self, in_channels: int, out_channels: int,
                 weight_init: str | float | Tensor | Initializer | None = None,
                 bias_init: str | float | Tensor | Initializer | None = None, has_bias: bool = True,
                 activation: str | Cell | Callable[..., Tensor] | None = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.in_channels = positive_int("Dense", "in_channels", in_channels)
        self.out_channels = positive_int("Dense", "out_channels", out_channels)
        self.has_bias = bool(has_bias)
        self.weight = make_param(default_weight_init(weight_init), (out_channels, in_channels), dtype,
                                 cell_name="Dense")
        self.bias = None
        if self.has_bias:
            self.bias = make_param(default_bias_init(bias_init, in_channels), (out_channels,), dtype,
                                   cell_name="Dense", what="bias_init")
        if activation is not None and not isinstance(activation, (str, Cell)):
            raise TypeError(f"Dense: 'activation' must be None, a str or a Cell, but got {type(activation).__name__}.")
        self.activation = get_activation(activation, "Dense") if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...", self.in_channels), note=f"in_channels={self.in_channels}")
        check_float(self, x)
        y = ops.dense(x, self.weight, self.bias)
        if self.activation_flag:
            y = self.activation(y)  # type: ignore[misc]  # activation_flag: it is set
        return y

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Merge dims ``start_dim``..``end_dim`` into one (default: everything after the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x: Tensor) -> Tensor:
        shape = check_input(self, x, ("...",))
        if not shape:
            return x.reshape(1)
        nd = len(shape)
        if not (-nd <= self.start_dim < nd and -nd <= self.end_dim < nd) or \
                self.start_dim % nd > self.end_dim % nd:
            raise ValueError(f"Flatten: start_dim={self.start_dim}, end_dim={self.end_dim} do not fit an input of "
                             f"shape {shape}.")
        s, e = self.start_dim % nd, self.end_dim % nd
        return x.reshape(shape[:s] + (-1,) + shape[e + 1:])


class Identity(Cell):
    """Returns its input."""

    def construct(self, x: Tensor) -> Tensor:
        return x


class Dropout(Cell):
    """Randomly zero elements during training and scale the rest by 1/(1-p); identity in eval mode.

    Args:
        keep_prob: legacy, the probability of keeping an element (default 0.5).
        p: the probability of dropping an element (preferred; overrides keep_prob).
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if p is None:
            if not isinstance(keep_prob, (int, float)) or not 0 < keep_prob <= 1:
                raise ValueError(f"Dropout: 'keep_prob' must be in (0, 1], but got {keep_prob!r}.")
            self.keep_prob, self.p = float(keep_prob), None
            self._drop = 1.0 - float(keep_prob)
        else:
            if not isinstance(p, (int, float)) or not 0 <= p < 1:
                raise ValueError(f"Dropout: 'p' must be in [0, 1), but got {p!r}.")
            self.keep_prob, self.p = 1.0 - p, p
            self._drop = float(p)

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, ("...",))
        if not self.training or self._drop == 0:
            return x
        return ops.dropout(x, p=self._drop, training=True)

    def extend_repr(self) -> str:
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"


_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


class Pad(Cell):
    """Pad every dim: ``paddings`` holds one (before, after) pair per input dim.

    Args:
        paddings: tuple of (before, after) pairs, as many as the input has dims.
        mode: 'CONSTANT' (zeros), 'REFLECT' or 'SYMMETRIC'.
    """

    def __init__(self, paddings: tuple[tuple[int, int], ...], mode: str = "CONSTANT") -> None:
        super().__init__()
        choice("Pad", "mode", str(mode).upper(), tuple(_PAD_MODES))
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(i, int) and i >= 0 for i in p)
                for p in paddings):
            raise ValueError(f"Pad: 'paddings' must be a tuple of (before, after) pairs of non-negative ints, "
                             f"but got {paddings!r}.")
        self.paddings = tuple(tuple(p) for p in paddings)
        self.mode = str(mode).upper()

    def construct(self, x: Tensor) -> Tensor:
        check_input(self, x, tuple(f"d{i}" for i in range(len(self.paddings))),
                    note=f"one dim per (before, after) pair in paddings={self.paddings}")
        flat = tuple(v for pair in reversed(self.paddings) for v in pair)
        return ops.pad(x, flat, _PAD_MODES[self.mode])

    def extend_repr(self) -> str:
        return f"paddings={self.paddings}, mode={self.mode}"


class Embedding(Cell):
    """A lookup table: integer indices (any shape) -> rows of ``embedding_table`` (vocab_size, embedding_size).

    Args:
        use_one_hot: compute the lookup as a one-hot matmul (same result).
        embedding_table: initializer (default 'normal', sigma 0.01). padding_idx: this row starts at zero
            and gets no gradient.
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: str | float | Tensor | Initializer = "normal", dtype: mstype.Type = mstype.int32,
                 padding_idx: int | None = None) -> None:
        super().__init__()
        self.vocab_size = positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = positive_int("Embedding", "embedding_size", embedding_size)
        self.use_one_hot = bool(use_one_hot)
        self.dtype = dtype
        if padding_idx is not None and not (isinstance(padding_idx, int) and -vocab_size <= padding_idx < vocab_size):
            raise ValueError(f"Embedding: 'padding_idx' must be an int in [-{vocab_size}, {vocab_size}), but got "
                             f"{padding_idx!r}.")
        self.padding_idx = None if padding_idx is None else padding_idx % vocab_size
        self.embedding_table = make_param(embedding_table, (vocab_size, embedding_size), cell_name="Embedding",
                                          what="embedding_table")
        if self.padding_idx is not None:
            self.embedding_table._set_value(self.embedding_table._value.at[self.padding_idx].set(0))

    def construct(self, ids: Tensor) -> Tensor:
        check_input(self, ids, ("...",))
        if not jnp.issubdtype(ids._value.dtype, jnp.integer):
            raise TypeError(f"Embedding: expected integer indices, but got {ids.dtype}.")
        if self.use_one_hot:
            table = self.embedding_table._value
            if self.padding_idx is not None:  # the padding row gets no gradient, as in the gather path
                table = table.at[self.padding_idx].set(jax.lax.stop_gradient(table[self.padding_idx]))
            hot = (ids._value[..., None] == jnp.arange(self.vocab_size)).astype(table.dtype)
            return wrap(hot @ table)
        return ops.embedding(ids, self.embedding_table, self.padding_idx)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")
