"""Transformer blocks as MindSpore names them: ``TransformerEncoderLayer`` / ``TransformerDecoderLayer``
(``self_attn``, ``multihead_attn``, ``dense1``, ``dense2``, ``norm1..3``), ``TransformerEncoder`` /
``TransformerDecoder`` (``layers.<i>``, ``norm``) and ``Transformer`` (``encoder``, ``decoder``), so real
MindSpore checkpoints load by name.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import XavierUniform, initializer
from ...common.tensor import Tensor
from ..cell import Cell
from ._activation import GELU, ReLU
from ._basic import Dense, Dropout
from ._container import CellList
from ._normalization import LayerNorm
from ._transformer import MultiheadAttention

if TYPE_CHECKING:
    from typing import Callable

__all__ = ["TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder",
           "Transformer"]


def _activation(owner, activation):
    """MindSpore accepts 'relu'/'gelu' (ops.relu / exact ops.gelu), an nn.ReLU / nn.GELU Cell or ops.relu/ops.gelu."""
    if isinstance(activation, str):
        fns = {"relu": ops.relu, "gelu": ops.gelu}
        if activation not in fns:
            raise ValueError(f"{owner}: 'activation' must be 'relu' or 'gelu', but got {activation!r}.")
        return fns[activation]
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise ValueError(f"{owner}: an 'activation' Cell must be nn.ReLU or nn.GELU, but got "
                             f"{type(activation).__name__}.")
        return activation
    if activation is ops.relu or activation is ops.gelu:
        return activation
    raise ValueError(f"{owner}: 'activation' must be 'relu', 'gelu', nn.ReLU, nn.GELU, ops.relu or ops.gelu, but "
                     f"got {activation!r}.")


class _Block(Cell):
    """Attention + feed-forward block shared by the encoder and decoder layers."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                 norm_first, dtype, cross):
        super().__init__()
        name = type(self).__name__
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        if cross:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                     dtype=dtype)
        # MindSpore: HeUniform(sqrt(5)) weights and Uniform(1/sqrt(fan_in)) biases, Dense's defaults.
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = bool(norm_first)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        if cross:
            self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        if cross:
            self.dropout3 = Dropout(p=dropout)
        self.activation1 = activation
        self.activation = _activation(name, activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps, self.batch_first, self.dtype = dropout, layer_norm_eps, batch_first, dtype

    def _config(self):
        return (self.d_model, self.nhead, self.dim_feedforward, self.dropout_num, self.activation1,
                self.layernorm_eps, self.batch_first, self.norm_first, self.dtype)

    def _sa_block(self, x, attn_mask, key_padding_mask, drop):
        out, _ = self.self_attn(x, x, x, key_padding_mask, False, attn_mask)
        return drop(out)

    def _ff_block(self, x, drop):
        return drop(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_Block):
    """Self-attention + feed-forward block with residuals and LayerNorm (post-norm, or pre-norm with norm_first).

    Args:
        d_model, nhead, dim_feedforward (default 2048), dropout (default 0.1), activation ('relu' (default),
        'gelu' (exact), nn.ReLU/nn.GELU or ops.relu/ops.gelu), layer_norm_eps (default 1e-5), batch_first,
        norm_first, dtype.
    Inputs: src (S, N, d_model) (or batch first), src_mask, src_key_padding_mask (as MultiheadAttention).
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Cell | Callable[..., Tensor] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, dtype, cross=False)

    def construct(self, src: Tensor, src_mask: Tensor | None = None,
                  src_key_padding_mask: Tensor | None = None) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, self.dropout1)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, self.dropout1))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_Block):
    """Self-attention, attention over the encoder's ``memory``, then feed-forward; each with residual + LayerNorm.

    Args: as ``TransformerEncoderLayer``.
    Inputs: tgt (T, N, d_model), memory (S, N, d_model) (or batch first), tgt_mask, memory_mask,
        tgt_key_padding_mask, memory_key_padding_mask.
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Cell | Callable[..., Tensor] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, dtype, cross=True)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        out, _ = self.multihead_attn(x, mem, mem, key_padding_mask, False, attn_mask)
        return self.dropout2(out)

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                  tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, self.dropout1)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, self.dropout1))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x, self.dropout3))


def _clones(owner, layer, cls, num_layers):
    """``num_layers`` copies of ``layer`` with equal initial weights (MindSpore deep-copies one fresh layer)."""
    if not isinstance(layer, cls):
        raise TypeError(f"{owner}: the layer must be a {cls.__name__}, but got {type(layer).__name__}.")
    if isinstance(num_layers, bool) or not isinstance(num_layers, int) or num_layers < 1:
        raise ValueError(f"{owner}: 'num_layers' must be a positive int, but got {num_layers!r}.")
    layers = [cls(*layer._config()) for _ in range(num_layers)]
    for other in layers[1:]:
        for src, dst in zip(layers[0].get_parameters(), other.get_parameters()):
            dst.set_data(Tensor(src.asnumpy()))
    return CellList(layers)


class TransformerEncoder(Cell):
    """``num_layers`` encoder layers built like ``encoder_layer`` (parameters ``layers.<i>.*``), then ``norm``."""

    def __init__(self, encoder_layer: Cell, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        self.layers = _clones("TransformerEncoder", encoder_layer, TransformerEncoderLayer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src: Tensor, src_mask: Tensor | None = None,
                  src_key_padding_mask: Tensor | None = None) -> Tensor:
        out = src
        for layer in self.layers:
            out = layer(out, src_mask, src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoder(Cell):
    """``num_layers`` decoder layers built like ``decoder_layer`` (parameters ``layers.<i>.*``), then ``norm``."""

    def __init__(self, decoder_layer: Cell, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        self.layers = _clones("TransformerDecoder", decoder_layer, TransformerDecoderLayer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                  tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None) -> Tensor:
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class Transformer(Cell):
    """Encoder-decoder Transformer; every parameter with more than one dimension starts Xavier-uniform.

    Inputs: src (S, N, E), tgt (T, N, E) (or batch first) and the masks of the encoder and decoder.
    Outputs: (T, N, E).
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str | Cell | Callable[..., Tensor] = "relu", custom_encoder: Cell | None = None,
                 custom_decoder: Cell | None = None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*args), num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*args), num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for p in self.get_parameters():
            if len(p.shape) > 1:
                p.set_data(initializer(XavierUniform(), p.shape, p.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None, tgt_mask: Tensor | None = None,
                  memory_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                  tgt_key_padding_mask: Tensor | None = None, memory_key_padding_mask: Tensor | None = None) -> Tensor:
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError(f"Transformer: the last dimension of 'src' and 'tgt' must be d_model={self.d_model}, "
                             f"but got shapes {tuple(src.shape)} and {tuple(tgt.shape)}.")
        batch = 0 if self.batch_first else 1
        if src.ndim == 3 and tgt.ndim == 3 and src.shape[batch] != tgt.shape[batch]:
            raise ValueError(f"Transformer: 'src' and 'tgt' must have the same batch size, but got shapes "
                             f"{tuple(src.shape)} and {tuple(tgt.shape)}.")
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
