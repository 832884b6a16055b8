"""Attention layer: ``MultiheadAttention`` (the Transformer blocks built on it are in ``_transformer_blocks``)."""
import functools
import math

import jax
import jax.numpy as jnp

from ...common import dtype as mstype
from ...common import seed
from ...common.initializer import XavierNormal, XavierUniform
from ...common.tensor import Tensor, wrap
from ..cell import Cell
from ._basic import Dense
from ._checks import check_float, check_input, make_param, positive_int

__all__ = ["MultiheadAttention"]


def _mask_to_bias(mask, dtype):
    """A boolean mask (True = not allowed) becomes -inf; a float mask is added as is."""
    if mask.dtype == jnp.bool_:
        return jnp.where(mask, -jnp.inf, 0.0).astype(dtype)
    return mask.astype(dtype)


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

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
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
            w = self.in_proj_weight._value.astype(dt)
            ws = (w[:e], w[e:2 * e], w[2 * e:])
        else:
            ws = tuple(p._value.astype(dt) for p in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight))
        if self.in_proj_bias is None:
            return ws, (None, None, None)
        b = self.in_proj_bias._value.astype(dt)
        return ws, (b[:e], b[e:2 * e], b[2 * e:])

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        e, h = self.embed_dim, self.num_heads
        qs = check_input(self, query, ("L", "N", e), ("L", e), note=f"embed_dim={e}")
        check_input(self, key, ("S", "N", self.kdim), ("S", self.kdim), note=f"kdim={self.kdim}")
        check_input(self, value, ("S", "N", self.vdim), ("S", self.vdim), note=f"vdim={self.vdim}")
        check_float(self, query)
        unbatched = len(qs) == 2
        q, k, v = (t._value for t in (query, key, value))
        if unbatched:
            q, k, v = q[:, None], k[:, None], v[:, None]
        elif self.batch_first:
            q, k, v = (jnp.swapaxes(t, 0, 1) for t in (q, k, v))
        if k.shape[:2] != v.shape[:2] or k.shape[1] != q.shape[1]:
            raise ValueError(f"MultiheadAttention: query, key and value must share the batch size and key/value the "
                             f"sequence length, but got shapes {qs}, {tuple(key.shape)}, {tuple(value.shape)}.")
        (wq, wk, wv), (bq, bk, bv) = self._projections(q.dtype)
        kpm = None if key_padding_mask is None else _arr(key_padding_mask)
        am = None if attn_mask is None else _arr(attn_mask)
        bias_kv = None if self.bias_k is None else (self.bias_k._value, self.bias_v._value)
        drop = self.training and self.dropout > 0
        key = seed.next_key() if drop else None
        out, weights = _attention(q, k, v, wq, wk, wv, bq, bk, bv, bias_kv, kpm, am, key, h,
                                  self.add_zero_attn, self.dropout if drop else 0.0)
        out = self.out_proj(wrap(out))._value
        if unbatched:
            out = out[:, 0]
        elif self.batch_first:
            out = jnp.swapaxes(out, 0, 1)
        if not need_weights:
            return wrap(out), None
        w = weights.mean(axis=1) if average_attn_weights else weights
        return wrap(out), wrap(w[0] if unbatched else w)

    def extend_repr(self):
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"


def _arr(x):
    return x._value if isinstance(x, Tensor) else jnp.asarray(x)


@functools.partial(jax.jit, static_argnums=(13, 14, 15))
def _attention(q, k, v, wq, wk, wv, bq, bk, bv, bias_kv, kpm, am, key, heads, zero_attn, rate):
    """Projected multi-head attention of time-major (T, N, E) arrays -> (out (L, N, E), weights (N, heads, L, S))."""
    dt = q.dtype
    n, e = q.shape[1], wq.shape[0]
    hd = e // heads
    q, k, v = q @ wq.T, k @ wk.T, v @ wv.T
    if bq is not None:
        q, k, v = q + bq, k + bk, v + bv
    s = k.shape[0]
    kpm = None if kpm is None else _mask_to_bias(kpm, dt).reshape(n, s)
    am = None if am is None else _mask_to_bias(am, dt)
    if bias_kv is not None:  # one learnt key/value position; masks get a zero column for it
        k = jnp.concatenate([k, jnp.broadcast_to(bias_kv[0].astype(dt), (1, n, e))])
        v = jnp.concatenate([v, jnp.broadcast_to(bias_kv[1].astype(dt), (1, n, e))])
        kpm, am = _pad_last(kpm), _pad_last(am)
    # (T, N, E) -> (N, heads, T, head_dim)
    q, k, v = (t.reshape(t.shape[0], n, heads, hd).transpose(1, 2, 0, 3) for t in (q, k, v))
    if zero_attn:
        k = jnp.concatenate([k, jnp.zeros(k.shape[:2] + (1, hd), dt)], axis=2)
        v = jnp.concatenate([v, jnp.zeros(v.shape[:2] + (1, hd), dt)], axis=2)
        kpm, am = _pad_last(kpm), _pad_last(am)
    scores = (q * jnp.asarray(1 / math.sqrt(hd), dt)) @ jnp.swapaxes(k, -1, -2)
    if am is not None:
        scores = scores + (am.reshape(n, heads, *am.shape[1:]) if am.ndim == 3 else am)
    if kpm is not None:
        scores = scores + kpm[:, None, None, :]
    weights = jax.nn.softmax(scores, axis=-1)
    attended = weights
    if key is not None:
        keep = jax.random.bernoulli(key, 1.0 - rate, weights.shape)
        attended = jnp.where(keep, weights / jnp.asarray(1.0 - rate, dt), jnp.zeros((), dt))
    out = (attended @ v).transpose(2, 0, 1, 3).reshape(-1, n, e)
    return out, weights


def _pad_last(mask):
    if mask is None:
        return None
    return jnp.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])
