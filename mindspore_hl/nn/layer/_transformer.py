"""Attention layer: ``MultiheadAttention`` (the Transformer blocks built on it are in ``_transformer_blocks``)."""
from __future__ import annotations

import math

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import XavierNormal, XavierUniform
from ...common.tensor import Tensor
from ..cell import Cell
from ._basic import Dense
from ._checks import check_float, check_input, make_param, positive_int

__all__ = ["MultiheadAttention"]


def _mask_to_bias(mask, dtype):
    """A boolean mask (True = not allowed) becomes -inf; a float mask is added as is."""
    mask = mask if isinstance(mask, Tensor) else Tensor(mask)
    if mask.dtype == mstype.bool_:
        return ops.masked_fill(ops.zeros(tuple(mask.shape), dtype), mask, float("-inf"))
    return _as(mask, dtype)


def _as(x, dtype):
    """``x`` in ``dtype`` (no cast op when it already is)."""
    return x if x.dtype == dtype else ops.cast(x, dtype)


def _pad_last(mask):
    """One more (zero-bias) key position at the end of a mask."""
    return None if mask is None else ops.pad(mask, (0, 1))


class MultiheadAttention(Cell):
    """Multi-head scaled dot-product attention with input and output projections.

    Args:
        embed_dim, num_heads: embed_dim must be divisible by num_heads. dropout: on the attention weights
        (training only). has_bias: projection biases. add_bias_kv: learnt bias_k / bias_v appended to the keys
        and values. add_zero_attn: a zero key/value appended. kdim, vdim: key/value sizes (default embed_dim;
        when they differ separate q/k/v_proj_weight replace in_proj_weight). batch_first: (N, L, E) inputs.
    Inputs: query (L, N, E), key (S, N, kdim), value (S, N, vdim) (or batch first, or unbatched 2-D);
        key_padding_mask (N, S) and attn_mask (L, S) or (N * num_heads, L, S): bool (True = ignore) or float (added).
    Outputs: (attn_output, attn_weights): weights (N, L, S) averaged over heads (or (N, heads, L, S) with
        average_attn_weights=False), None when need_weights=False.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.embed_dim = positive_int("MultiheadAttention", "embed_dim", embed_dim)
        self.num_heads = positive_int("MultiheadAttention", "num_heads", num_heads)
        if embed_dim % num_heads:
            raise ValueError(f"MultiheadAttention: 'embed_dim' ({embed_dim}) must be divisible by 'num_heads' "
                             f"({num_heads}).")
        if not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
            raise ValueError(f"MultiheadAttention: 'dropout' must be in [0, 1), but got {dropout!r}.")
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        self.dropout, self.batch_first = float(dropout), bool(batch_first)
        self.has_bias, self.add_zero_attn = bool(has_bias), bool(add_zero_attn)
        e = embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = make_param(XavierUniform(), (3 * e, e), dtype)
        else:
            self.q_proj_weight = make_param(XavierUniform(), (e, e), dtype)
            self.k_proj_weight = make_param(XavierUniform(), (e, self.kdim), dtype)
            self.v_proj_weight = make_param(XavierUniform(), (e, self.vdim), dtype)
        self.in_proj_bias = make_param("zeros", (3 * e,), dtype) if has_bias else None
        self.out_proj = Dense(e, e, has_bias=has_bias, bias_init="zeros", dtype=dtype)
        self.bias_k = make_param(XavierNormal(), (1, 1, e), dtype) if add_bias_kv else None
        self.bias_v = make_param(XavierNormal(), (1, 1, e), dtype) if add_bias_kv else None

    def _projections(self, dt):
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            ws = ops.split(_as(self.in_proj_weight, dt), e, 0)
        else:
            ws = tuple(_as(p, dt) for p in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight))
        if self.in_proj_bias is None:
            return ws, (None, None, None)
        return ws, ops.split(_as(self.in_proj_bias, dt), e, 0)

    def construct(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                  need_weights: bool = True, attn_mask: Tensor | None = None,
                  average_attn_weights: bool = True) -> tuple[Tensor, Tensor | None]:
        e = self.embed_dim
        qs = check_input(self, query, ("L", "N", e), ("L", e), note=f"embed_dim={e}")
        check_input(self, key, ("S", "N", self.kdim), ("S", self.kdim), note=f"kdim={self.kdim}")
        check_input(self, value, ("S", "N", self.vdim), ("S", self.vdim), note=f"vdim={self.vdim}")
        check_float(self, query)
        unbatched = len(qs) == 2
        q, k, v = query, key, value
        if unbatched:
            q, k, v = (ops.expand_dims(t, 1) for t in (q, k, v))
        elif self.batch_first:
            q, k, v = (ops.transpose(t, (1, 0, 2)) for t in (q, k, v))
        if k.shape[:2] != v.shape[:2] or k.shape[1] != q.shape[1]:
            raise ValueError(f"MultiheadAttention: query, key and value must share the batch size and key/value the "
                             f"sequence length, but got shapes {qs}, {tuple(key.shape)}, {tuple(value.shape)}.")
        drop = self.dropout if self.training and self.dropout > 0 else 0.0
        out, weights = self._attention(q, k, v, key_padding_mask, attn_mask, drop)
        out = self.out_proj(out)
        if unbatched:
            out = ops.squeeze(out, 1)
        elif self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        if not need_weights:
            return out, None
        w = ops.mean(weights, 1) if average_attn_weights else weights
        return out, ops.squeeze(w, 0) if unbatched else w

    def _attention(self, q, k, v, key_padding_mask, attn_mask, rate):
        """Projected multi-head attention of time-major (T, N, E) Tensors -> (out (L, N, E), weights
        (N, heads, L, S)); computed with ``ops`` functions so that exporters record it op by op."""
        dt = q.dtype
        n, e, heads = q.shape[1], self.embed_dim, self.num_heads
        hd = e // heads
        (wq, wk, wv), (bq, bk, bv) = self._projections(dt)
        q, k, v = ops.dense(q, wq, bq), ops.dense(k, wk, bk), ops.dense(v, wv, bv)
        s = k.shape[0]
        kpm = None if key_padding_mask is None else ops.reshape(_mask_to_bias(key_padding_mask, dt), (n, s))
        am = None if attn_mask is None else _mask_to_bias(attn_mask, dt)
        if self.bias_k is not None:  # one learnt key/value position; masks get a zero column for it
            k = ops.concat((k, ops.broadcast_to(_as(self.bias_k, dt), (1, n, e))), 0)
            v = ops.concat((v, ops.broadcast_to(_as(self.bias_v, dt), (1, n, e))), 0)
            kpm, am = _pad_last(kpm), _pad_last(am)
        # (T, N, E) -> (N, heads, T, head_dim)
        q, k, v = (ops.transpose(ops.reshape(t, (t.shape[0], n, heads, hd)), (1, 2, 0, 3)) for t in (q, k, v))
        if self.add_zero_attn:
            zeros = ops.zeros((n, heads, 1, hd), dt)
            k, v = ops.concat((k, zeros), 2), ops.concat((v, zeros), 2)
            kpm, am = _pad_last(kpm), _pad_last(am)
        scores = ops.matmul(q * (1 / math.sqrt(hd)), ops.transpose(k, (0, 1, 3, 2)))
        if am is not None:
            scores = scores + (ops.reshape(am, (n, heads) + tuple(am.shape[1:])) if am.ndim == 3 else am)
        if kpm is not None:
            scores = scores + ops.reshape(kpm, (n, 1, 1, kpm.shape[-1]))
        weights = ops.softmax(scores, -1)
        attended = ops.dropout(weights, p=rate, training=True) if rate > 0 else weights
        out = ops.reshape(ops.transpose(ops.matmul(attended, v), (2, 0, 1, 3)), (-1, n, e))
        return out, weights

    def extend_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"
