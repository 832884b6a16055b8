"""MultiheadAttention and TransformerEncoderLayer against a head-by-head reference written here."""
import math

import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def ref_mha(p, q, k, v, heads, kpm=None, am=None, batch_first=False, prefix="", bias_kv=False, zero_attn=False):
    """Head by head: softmax(q_h k_h^T / sqrt(d) + masks) v_h, concatenated, then the output projection."""
    if batch_first:
        q, k, v = (jnp.swapaxes(t, 0, 1) for t in (q, k, v))
    q, k, v = (jnp.swapaxes(t, 0, 1) for t in (q, k, v))  # (N, T, E)
    n, e = q.shape[0], q.shape[-1]
    if prefix + "in_proj_weight" in p:
        wq, wk, wv = jnp.split(p[prefix + "in_proj_weight"], 3)
    else:
        wq, wk, wv = (p[prefix + f"{c}_proj_weight"] for c in "qkv")
    bq, bk, bv = jnp.split(p[prefix + "in_proj_bias"], 3)
    hd = e // heads
    q, k, v = q @ wq.T + bq, k @ wk.T + bk, v @ wv.T + bv
    mask = jnp.zeros((n, q.shape[1], k.shape[1]))
    if am is not None:
        mask = mask + (jnp.where(am, -jnp.inf, 0.0) if am.dtype == bool else am)
    if kpm is not None:
        mask = mask + jnp.where(kpm, -jnp.inf, 0.0)[:, None, :]
    extra = []
    if bias_kv:
        extra.append((jnp.broadcast_to(p[prefix + "bias_k"][0], (n, 1, e)),
                      jnp.broadcast_to(p[prefix + "bias_v"][0], (n, 1, e))))
    if zero_attn:
        extra.append((jnp.zeros((n, 1, e)), jnp.zeros((n, 1, e))))
    for ek, ev in extra:
        k, v = jnp.concatenate([k, ek], axis=1), jnp.concatenate([v, ev], axis=1)
        mask = jnp.concatenate([mask, jnp.zeros(mask.shape[:2] + (1,))], axis=2)
    head_out, head_w = [], []
    for h in range(heads):
        sl = slice(h * hd, (h + 1) * hd)
        s = jnp.einsum("nld,nsd->nls", q[..., sl], k[..., sl]) / math.sqrt(hd) + mask
        w = jnp.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        head_out.append(jnp.einsum("nls,nsd->nld", w, v[..., sl]))
        head_w.append(w)
    out = jnp.concatenate(head_out, axis=-1) @ p[prefix + "out_proj.weight"].T + p[prefix + "out_proj.bias"]
    return (out if batch_first else jnp.swapaxes(out, 0, 1)), sum(head_w) / heads


def _mha_params(e, kdim=None, vdim=None, bias_kv=False):
    if kdim is None and vdim is None:
        ps = [("in_proj_weight", (3 * e, e))]
    else:
        ps = [("q_proj_weight", (e, e)), ("k_proj_weight", (e, kdim)), ("v_proj_weight", (e, vdim))]
    ps += [("in_proj_bias", (3 * e,))] + ([("bias_k", (1, 1, e)), ("bias_v", (1, 1, e))] if bias_kv else [])
    return ps + [("out_proj.weight", (e, e)), ("out_proj.bias", (e,))]  # a Cell's own parameters come first


@pytest.mark.parametrize("case", ["self", "kdim_vdim_masks", "batch_first_float_mask", "bias_kv_zero_attn"])
def test_multihead_attention(mode, case):
    e, heads, L, S, N = 8, 2, 3, 4, 2
    kw, masks, kd, vd = {}, {}, None, None
    if case == "kdim_vdim_masks":
        kd, vd = 5, 6
        kw = dict(kdim=kd, vdim=vd)
        masks = dict(kpm=np.array([[False, False, True, False], [False, True, False, False]]),
                     am=np.triu(np.ones((L, S), bool), 2))
    elif case == "batch_first_float_mask":
        kw = dict(batch_first=True)
        masks = dict(am=_x(L, S))
    elif case == "bias_kv_zero_attn":
        kw = dict(add_bias_kv=True, add_zero_attn=True)
        masks = dict(kpm=np.array([[False, True, False, False], [False, False, False, True]]))
    bf = kw.get("batch_first", False)

    def shape(t):
        return (N, t) if bf else (t, N)

    q, k, v = _x(*shape(L), e), _x(*shape(S), kd or e), _x(*shape(S), vd or e)
    kpm, am = masks.get("kpm"), masks.get("am")
    inputs = [q, k, v] + [m for m in (kpm, am) if m is not None]

    def call(cell, q, k, v, *m):
        it = iter(m)
        return cell(q, k, v, next(it) if kpm is not None else None, True, next(it) if am is not None else None)

    def ref(p, q, k, v, *m):
        it = iter(m)
        return ref_mha(p, q, k, v, heads, next(it) if kpm is not None else None, next(it) if am is not None else None,
                       bf, bias_kv=kw.get("add_bias_kv", False), zero_attn=kw.get("add_zero_attn", False))

    extra = (1 if kw.get("add_bias_kv") else 0) + (1 if kw.get("add_zero_attn") else 0)
    run_layer_test(lambda: nn.MultiheadAttention(e, heads, **kw), inputs, call=call, reference=ref,
                   expected_shape=[shape(L) + (e,), (N, L, S + extra)],
                   params=_mha_params(e, kd, vd, kw.get("add_bias_kv", False)), bad_input=_x(*shape(L), e + 1),
                   rtol=1e-5, atol=1e-5, grad_rtol=2e-4, grad_atol=2e-5)


def test_multihead_attention_options_and_errors(mode):
    mha = nn.MultiheadAttention(8, 2)
    x = Tensor(_x(3, 2, 8))
    out, w = mha(x, x, x, need_weights=False)
    assert w is None and out.shape == (3, 2, 8)
    _, w = mha(x, x, x, average_attn_weights=False)
    assert w.shape == (2, 2, 3, 3)
    unb, _ = mha(Tensor(_x(3, 8)), Tensor(_x(4, 8)), Tensor(_x(4, 8)))
    assert unb.shape == (3, 8)
    with pytest.raises(ValueError, match="'embed_dim' \\(6\\) must be divisible by 'num_heads' \\(4\\)"):
        nn.MultiheadAttention(6, 4)


def ref_layer_norm(x, g, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps) * g + b


@pytest.mark.parametrize("norm_first", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["post_norm", "pre_norm"])  # ~5-10 s each on 2 busy cores
def test_transformer_encoder_layer_eval(mode, norm_first):
    d, heads, ff = 8, 2, 16

    def ref(p, src):
        def sa(x):
            return ref_mha(p, x, x, x, heads, prefix="self_attn.")[0]

        def ffn(x):
            h = jnp.maximum(x @ p["dense1.weight"].T + p["dense1.bias"], 0)
            return h @ p["dense2.weight"].T + p["dense2.bias"]

        n1 = lambda t: ref_layer_norm(t, p["norm1.gamma"], p["norm1.beta"])  # noqa: E731
        n2 = lambda t: ref_layer_norm(t, p["norm2.gamma"], p["norm2.beta"])  # noqa: E731
        if norm_first:
            x = src + sa(n1(src))
            return x + ffn(n2(x))
        x = n1(src + sa(src))
        return n2(x + ffn(x))

    params = [("self_attn.in_proj_weight", (3 * d, d)), ("self_attn.in_proj_bias", (3 * d,)),
              ("self_attn.out_proj.weight", (d, d)), ("self_attn.out_proj.bias", (d,)),
              ("dense1.weight", (ff, d)), ("dense1.bias", (ff,)), ("dense2.weight", (d, ff)), ("dense2.bias", (d,)),
              ("norm1.gamma", (d,)), ("norm1.beta", (d,)), ("norm2.gamma", (d,)), ("norm2.beta", (d,))]
    run_layer_test(lambda: nn.TransformerEncoderLayer(d, heads, ff, dropout=0.1, norm_first=norm_first),
                   [_x(4, 2, d)], expected_shape=(4, 2, d), params=params, reference=ref, train=False,
                   train_eval="differ", bad_input=_x(4, 2, d + 1),
                   error_names="LayerNorm" if norm_first else "MultiheadAttention",
                   rtol=1e-4, atol=1e-4, grad_rtol=5e-4, grad_atol=5e-5)
