"""LSTM / GRU / RNN (+ cells) against a per-sequence, per-time-step Python loop of the textbook equations."""
import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

import mindspore_hl as ms
from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def _sig(v):
    return 1 / (1 + jnp.exp(-v))


def step(kind, w_ih, w_hh, b_ih, b_hh, x, h, c=None):
    """One time step (x, h, c as vectors or column matrices), gate order LSTM i,f,g,o / GRU r,z,n."""
    gi = w_ih @ x + (0 if b_ih is None else b_ih)
    gh = w_hh @ h + (0 if b_hh is None else b_hh)
    if kind == "LSTM":
        i, f, g, o = jnp.split(gi + gh, 4, axis=0)
        c = _sig(f) * c + _sig(i) * jnp.tanh(g)
        return _sig(o) * jnp.tanh(c), c
    if kind == "GRU":
        (ir, iz, i_n), (hr, hz, hn) = jnp.split(gi, 3, axis=0), jnp.split(gh, 3, axis=0)
        r, z = _sig(ir + hr), _sig(iz + hz)
        n = jnp.tanh(i_n + r * hn)
        return (1 - z) * n + z * h, None
    pre = gi + gh
    return (jnp.tanh(pre) if kind == "tanh" else jnp.maximum(pre, 0)), None


def ref_rnn(kind, p, x, h0, c0, layers, bidir, batch_first, lens):
    """Layer by layer, direction by direction, a Python loop over time; with ``lens``, one sequence at a time."""
    if batch_first:
        x = jnp.swapaxes(x, 0, 1)
    t_len, n = x.shape[:2]
    dirs = 2 if bidir else 1
    groups = [(slice(None), t_len)] if lens is None else [(slice(b, b + 1), int(lens[b])) for b in range(n)]
    layer_in, hn, cn = x, [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            sfx = f"l{layer}{'_reverse' if d else ''}"
            w = [p.get(f"{k}_{sfx}") for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
            k = layer * dirs + d
            blocks, h_d, c_d = [], [], []
            for rows, length in groups:  # rows: a slice of batch entries sharing this length, in batch order
                h, c = h0[k, rows].T, (None if c0 is None else c0[k, rows].T)  # (hidden, batch) columns
                seq = [jnp.zeros_like(h.T)] * t_len
                for t in (range(length) if d == 0 else reversed(range(length))):
                    h, c = step(kind, w[0], w[1], _col(w[2]), _col(w[3]), layer_in[t, rows].T, h, c)
                    seq[t] = h.T
                blocks.append(jnp.stack(seq))
                h_d.append(h.T)
                c_d.append(None if c is None else c.T)
            out_d = jnp.concatenate(blocks, axis=1)
            h_d, c_d = jnp.concatenate(h_d), (None if c0 is None else jnp.concatenate(c_d))
            outs.append(out_d)
            hn.append(h_d)
            cn.append(c_d)
        layer_in = jnp.concatenate(outs, axis=-1)
    out = jnp.swapaxes(layer_in, 0, 1) if batch_first else layer_in
    return (out, jnp.stack(hn), jnp.stack(cn)) if kind == "LSTM" else (out, jnp.stack(hn))


def _col(b):
    return None if b is None else b[:, None]


def _param_names(layers, dirs, bias):
    sfx = [f"l{l}{'_reverse' if d else ''}" for l in range(layers) for d in range(dirs)]
    keys = ["weight_ih", "weight_hh"] + (["bias_ih", "bias_hh"] if bias else [])
    return [f"{k}_{s}" for k in keys for s in sfx]


CASES = {
    "lstm_default": ("LSTM", dict(), (4, 2, 3), False, None),
    "lstm_2layer_bidir_batch_first_hx": ("LSTM", dict(num_layers=2, bidirectional=True, batch_first=True),
                                         (2, 3, 3), True, None),
    "lstm_bidir_seq_length": ("LSTM", dict(bidirectional=True), (4, 3, 3), True, [4, 2, 3]),
    "gru_bidir_seq_length": ("GRU", dict(bidirectional=True), (4, 3, 3), True, [4, 1, 3]),
    "gru_2layer": ("GRU", dict(num_layers=2), (3, 2, 3), False, None),
    "rnn_relu_no_bias_2layer": ("relu", dict(num_layers=2, nonlinearity="relu", has_bias=False), (4, 2, 3), True,
                                None),
    "rnn_tanh": ("tanh", dict(), (3, 2, 3), False, None),
}


SLOW = {"lstm_2layer_bidir_batch_first_hx", "lstm_bidir_seq_length"}  # ~5-10 s each on 2 busy cores


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in CASES])
def test_recurrent_layer(mode, case):
    kind, kw, shape, give_hx, lens = CASES[case]
    cls = {"LSTM": nn.LSTM, "GRU": nn.GRU}.get(kind, nn.RNN)
    hidden, layers, dirs = 4, kw.get("num_layers", 1), 2 if kw.get("bidirectional") else 1
    batch_first = kw.get("batch_first", False)
    n = shape[0] if batch_first else shape[1]
    x = _x(*shape)
    state = (layers * dirs, n, hidden)
    h0 = _x(*state) if give_hx else np.zeros(state, np.float32)
    c0 = _x(*state) if give_hx else np.zeros(state, np.float32)
    inputs = [x, h0, c0] if kind == "LSTM" else [x, h0]
    if lens is not None:
        inputs.append(np.array(lens, np.int32))
    lstm = kind == "LSTM"

    def call(cell, x, h, *rest):
        hx = (h, rest[0]) if lstm else h
        extra = rest[1:] if lstm else rest
        return cell(x, hx, *extra)

    def ref(p, x, h, *rest):
        c = rest[0] if lstm else None
        return ref_rnn(kind, p, x, h, c, layers, dirs == 2, batch_first, lens)

    out_shape = shape[:2] + (dirs * hidden,)
    expected = [out_shape, state, state] if lstm else [out_shape, state]
    gates = {"LSTM": 4, "GRU": 3}.get(kind, 1) * hidden
    names = _param_names(layers, dirs, kw.get("has_bias", True))
    shapes = {"weight_ih_l0": (gates, 3), "weight_ih_l0_reverse": (gates, 3)}
    params = [(nm, shapes.get(nm, (gates, hidden * dirs) if nm.startswith("weight_ih") else
                          (gates, hidden) if nm.startswith("weight_hh") else (gates,))) for nm in names]
    bad = _x(*shape[:2], 5)
    run_layer_test(lambda: cls(3, hidden, **kw), inputs, expected_shape=expected, params=params, reference=ref,
                   call=call, bad_input=bad, rtol=1e-5, atol=1e-5, grad_rtol=2e-4, grad_atol=2e-5)


def test_lstm_default_state_dropout_and_errors(mode):
    lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = Tensor(_x(5, 2, 3))
    out, _ = lstm(x)
    zeros = Tensor(np.zeros((2, 2, 4), np.float32))
    out2, _ = lstm(x, (zeros, zeros))
    np.testing.assert_allclose(out.asnumpy(), out2.asnumpy(), rtol=1e-6)  # hx=None means zeros
    lstm.set_train()
    ms.set_seed(1)
    a = lstm(x)[0].asnumpy()
    ms.set_seed(2)
    assert not np.allclose(a, lstm(x)[0].asnumpy())  # dropout between the layers in training
    with pytest.raises(ValueError, match=r"LSTM: expected h0 of shape \(2, 2, 4\) \(num_layers \* num_directions, "
                                         r"batch, hidden_size\), but got \(1, 2, 4\)"):
        lstm(x, (Tensor(np.zeros((1, 2, 4), np.float32)), zeros))
    with pytest.raises(TypeError, match="'hx' must be a tuple \\(h0, c0\\)"):
        lstm(x, zeros)


@pytest.mark.parametrize("cls, kind", [(nn.LSTMCell, "LSTM"), (nn.GRUCell, "GRU"), (nn.RNNCell, "tanh")])
def test_recurrent_cells(mode, cls, kind):
    lstm = kind == "LSTM"
    inputs = [_x(2, 3), _x(2, 4)] + ([_x(2, 4)] if lstm else [])
    gates = {"LSTM": 4, "GRU": 3}.get(kind, 1) * 4

    def call(cell, x, h, *c):
        return cell(x, (h, c[0]) if lstm else h)

    def ref(p, x, h, *c):
        outs = [step(kind, p["weight_ih"], p["weight_hh"], p["bias_ih"], p["bias_hh"], x[b], h[b],
                     c[0][b] if lstm else None) for b in range(2)]
        hs = jnp.stack([o[0] for o in outs])
        return (hs, jnp.stack([o[1] for o in outs])) if lstm else hs

    run_layer_test(lambda: cls(3, 4), inputs, expected_shape=[(2, 4), (2, 4)] if lstm else (2, 4),
                   params=[("weight_ih", (gates, 3)), ("weight_hh", (gates, 4)), ("bias_ih", (gates,)),
                           ("bias_hh", (gates,))], reference=ref, call=call, bad_input=_x(2, 5))
