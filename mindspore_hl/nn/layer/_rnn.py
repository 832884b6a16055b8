"""Recurrent layers: ``RNN``, ``GRU``, ``LSTM`` (multi-layer, bidirectional) and ``RNNCell``, ``GRUCell``, ``LSTMCell``.

Gate layouts follow MindSpore's CPU/GPU kernels (LSTM: i, f, g, o; GRU: r, z, n). The input projection of
all time steps is one matmul; the recurrence is a ``jax.lax.scan`` (one compiled loop, not a Python loop).
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import Uniform
from ...common.parameter import ParameterTuple
from ...common.tensor import Tensor, wrap
from ..cell import Cell
from ._checks import check_float, check_input, choice, make_param, positive_int

__all__ = ["RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _cell_step(mode, w_hh, b_hh):
    """step(carry, x_proj) -> new carry, for one time step; ``x_proj`` = x @ W_ih.T + b_ih."""
    def hh(h):
        r = h @ w_hh.T
        return r if b_hh is None else r + b_hh

    if mode == "LSTM":
        def step(carry, xp):
            h, c = carry
            i, f, g, o = jnp.split(xp + hh(h), 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            return jnp.tanh(c) * jax.nn.sigmoid(o), c
    elif mode == "GRU":
        def step(h, xp):
            xr, xz, xn = jnp.split(xp, 3, axis=-1)
            hr, hz, hn = jnp.split(hh(h), 3, axis=-1)
            r, z = jax.nn.sigmoid(xr + hr), jax.nn.sigmoid(xz + hz)
            n = jnp.tanh(xn + r * hn)
            return (1 - z) * n + z * h
    else:
        act = jnp.tanh if mode == "RNN_TANH" else jax.nn.relu

        def step(h, xp):
            return act(xp + hh(h))
    return step


def _output(mode, carry):
    return carry[0] if mode == "LSTM" else carry


@functools.partial(jax.jit, static_argnums=0)
def _run_direction(mode, x, carry, w_ih, w_hh, b_ih, b_hh, mask):
    """Scan one direction over time-major ``x`` (T, N, I); ``mask`` (T, N, 1) marks valid steps or is None.

    Jitted (cached per mode and shapes) so that PYNATIVE calls do not re-trace and re-compile the scan body.
    """
    xp = x @ w_ih.T
    if b_ih is not None:
        xp = xp + b_ih
    step = _cell_step(mode, w_hh, b_hh)

    def body(carry, inp):
        xt, mt = inp
        new = step(carry, xt)
        if mt is not None:  # past a sequence's end: keep its state, emit zeros
            new = jax.tree_util.tree_map(lambda n, o: jnp.where(mt, n, o), new, carry)
            return new, jnp.where(mt, _output(mode, new), 0)
        return new, _output(mode, new)

    return jax.lax.scan(body, carry, (xp, mask))


class _RNNBase(Cell):
    """Shared multi-layer, optionally bidirectional recurrence. Parameters: weight_ih_l{k}[_reverse], ..."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.mode = mode
        self.input_size = positive_int(name, "input_size", input_size)
        self.hidden_size = positive_int(name, "hidden_size", hidden_size)
        self.num_layers = positive_int(name, "num_layers", num_layers)
        if not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
            raise ValueError(f"{name}: 'dropout' must be in [0, 1), but got {dropout!r}.")
        self.has_bias, self.batch_first, self.dropout = bool(has_bias), bool(batch_first), float(dropout)
        self.bidirectional = bool(bidirectional)
        self.num_directions = 2 if bidirectional else 1
        gate = _GATES[mode] * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        lists: dict[str, list[tuple[str, tuple[int, ...]]]] = {"w_ih": [], "w_hh": [], "b_ih": [], "b_hh": []}
        for layer in range(num_layers):
            for d in range(self.num_directions):
                sfx = f"l{layer}{'_reverse' if d else ''}"
                in_size = input_size if layer == 0 else hidden_size * self.num_directions
                lists["w_ih"].append((f"weight_ih_{sfx}", (gate, in_size)))
                lists["w_hh"].append((f"weight_hh_{sfx}", (gate, hidden_size)))
                if has_bias:
                    lists["b_ih"].append((f"bias_ih_{sfx}", (gate,)))
                    lists["b_hh"].append((f"bias_hh_{sfx}", (gate,)))
        # MindSpore registers all w_ih, then all w_hh, b_ih, b_hh (four ParameterTuples): same order here.
        for key, specs in lists.items():
            params = []
            for pname, shape in specs:
                setattr(self, pname, make_param(init, shape, dtype, cell_name=name))
                params.append(getattr(self, pname))
            self.__dict__[f"{key}_list"] = ParameterTuple(params)

    def _check_state(self, h, what, n):
        want = (self.num_layers * self.num_directions, n, self.hidden_size)
        if not isinstance(h, Tensor) or tuple(h.shape) != want:
            got = tuple(h.shape) if isinstance(h, Tensor) else type(h).__name__
            raise ValueError(f"{type(self).__name__}: expected {what} of shape {want} (num_layers * num_directions, "
                             f"batch, hidden_size), but got {got}.")
        return h._value

    def construct(self, x, hx=None, seq_length=None):
        check_input(self, x, ("T", "N", self.input_size) if not self.batch_first else ("N", "T", self.input_size),
                    note=f"input_size={self.input_size}, batch_first={self.batch_first}")
        check_float(self, x)
        xs = x._value
        if self.batch_first:
            xs = jnp.swapaxes(xs, 0, 1)
        t, n = xs.shape[:2]
        dt = xs.dtype
        nstate = self.num_layers * self.num_directions
        if hx is None:
            zeros = jnp.zeros((nstate, n, self.hidden_size), dt)
            h0 = (zeros, zeros) if self.mode == "LSTM" else zeros
        elif self.mode == "LSTM":
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError(f"LSTM: 'hx' must be a tuple (h0, c0), but got {type(hx).__name__}.")
            h0 = (self._check_state(hx[0], "h0", n).astype(dt), self._check_state(hx[1], "c0", n).astype(dt))
        else:
            h0 = self._check_state(hx, "hx", n).astype(dt)
        mask, rev = None, None
        if seq_length is not None:
            lens = seq_length._value if isinstance(seq_length, Tensor) else jnp.asarray(seq_length)
            if tuple(lens.shape) != (n,):
                raise ValueError(f"{type(self).__name__}: expected seq_length of shape ({n},), but got "
                                 f"{tuple(lens.shape)}.")
            steps = jnp.arange(t)[:, None]
            mask = (steps < lens[None, :])[..., None]
            rev = jnp.where(steps < lens[None, :], lens[None, :] - 1 - steps, steps)  # reverse within each length
        w = {k: self.__dict__[f"{k}_list"] for k in ("w_ih", "w_hh", "b_ih", "b_hh")}
        layer_in, finals = xs, []
        for layer in range(self.num_layers):
            outs = []
            for d in range(self.num_directions):
                k = layer * self.num_directions + d
                args = [w["w_ih"][k]._value.astype(dt), w["w_hh"][k]._value.astype(dt),
                        w["b_ih"][k]._value.astype(dt) if self.has_bias else None,
                        w["b_hh"][k]._value.astype(dt) if self.has_bias else None]
                carry = tuple(s[k] for s in h0) if self.mode == "LSTM" else h0[k]
                inp = layer_in if d == 0 else _flip(layer_in, rev)
                final, out = _run_direction(self.mode, inp, carry, *args, mask)
                outs.append(out if d == 0 else _flip(out, rev))
                finals.append(final)
            layer_in = outs[0] if len(outs) == 1 else jnp.concatenate(outs, axis=-1)
            if self.training and self.dropout > 0 and layer < self.num_layers - 1:
                layer_in = ops.dropout(layer_in, p=self.dropout)._value  # type: ignore[arg-type]  # takes arrays
        out = jnp.swapaxes(layer_in, 0, 1) if self.batch_first else layer_in
        if self.mode == "LSTM":
            return wrap(out), (wrap(jnp.stack([f[0] for f in finals])), wrap(jnp.stack([f[1] for f in finals])))
        return wrap(out), wrap(jnp.stack(finals))

    def extend_repr(self):
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, num_layers={self.num_layers}, "
                f"has_bias={self.has_bias}, batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


def _flip(x, rev):
    """Reverse time-major ``x`` along time (within each sequence's length when ``rev`` indices are given)."""
    if rev is None:
        return x[::-1]
    return jnp.take_along_axis(x, rev[..., None], axis=0)


class LSTM(_RNNBase):
    """Long short-term memory: ``out, (h_n, c_n) = lstm(x, (h0, c0))``.

    Args:
        input_size, hidden_size, num_layers (default 1), has_bias (default True), batch_first (default False:
        x is (T, N, input_size)), dropout (between layers, training only), bidirectional.
    Inputs: x, hx=(h0, c0) each (num_layers * num_directions, N, hidden_size) or None, seq_length (N,) or None.
    Outputs: out (T, N, num_directions * hidden_size), (h_n, c_n).
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, has_bias, batch_first, dropout, bidirectional,
                         dtype)


class GRU(_RNNBase):
    """Gated recurrent unit: ``out, h_n = gru(x, h0)`` (arguments as ``LSTM``)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, has_bias, batch_first, dropout, bidirectional,
                         dtype)


class RNN(_RNNBase):
    """Elman RNN, h' = nonlinearity(W_ih x + b_ih + W_hh h + b_hh): ``out, h_n = rnn(x, h0)``.

    Args:
        nonlinearity: 'tanh' (default) or 'relu'; other arguments as ``LSTM``.
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, nonlinearity: str = "tanh",
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: mstype.Type = mstype.float32) -> None:
        choice("RNN", "nonlinearity", nonlinearity, ("tanh", "relu"))
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         has_bias, batch_first, dropout, bidirectional, dtype)
        self.nonlinearity = nonlinearity


class _CellBase(Cell):
    """One time step; parameters weight_ih, weight_hh, bias_ih, bias_hh."""

    def __init__(self, mode, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.mode = mode
        self.input_size = positive_int(name, "input_size", input_size)
        self.hidden_size = positive_int(name, "hidden_size", hidden_size)
        self.has_bias = bool(has_bias)
        gate = _GATES[mode] * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        self.weight_ih = make_param(init, (gate, input_size), dtype, cell_name=name)
        self.weight_hh = make_param(init, (gate, hidden_size), dtype, cell_name=name)
        self.bias_ih = make_param(init, (gate,), dtype, cell_name=name) if has_bias else None
        self.bias_hh = make_param(init, (gate,), dtype, cell_name=name) if has_bias else None

    def _state(self, h, batch, what):
        want = batch + (self.hidden_size,)
        if not isinstance(h, Tensor) or tuple(h.shape) != want:
            got = tuple(h.shape) if isinstance(h, Tensor) else type(h).__name__
            raise ValueError(f"{type(self).__name__}: expected {what} of shape {want}, but got {got}.")
        return h._value

    def construct(self, x, hx=None):
        shape = check_input(self, x, ("N", self.input_size), (self.input_size,), note=f"input_size={self.input_size}")
        check_float(self, x)
        batch, dt = shape[:-1], x._value.dtype
        if hx is None:
            z = jnp.zeros(batch + (self.hidden_size,), dt)
            carry = (z, z) if self.mode == "LSTM" else z
        elif self.mode == "LSTM":
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError(f"LSTMCell: 'hx' must be a tuple (h, c), but got {type(hx).__name__}.")
            carry = (self._state(hx[0], batch, "h").astype(dt), self._state(hx[1], batch, "c").astype(dt))
        else:
            carry = self._state(hx, batch, "hx").astype(dt)
        xp = x._value @ self.weight_ih._value.astype(dt).T
        if self.has_bias:
            xp = xp + self.bias_ih._value.astype(dt)  # type: ignore[union-attr]  # set with has_bias
        b_hh = self.bias_hh._value.astype(dt) if self.has_bias else None  # type: ignore[union-attr]
        new = _cell_step(self.mode, self.weight_hh._value.astype(dt), b_hh)(carry, xp)
        return (wrap(new[0]), wrap(new[1])) if self.mode == "LSTM" else wrap(new)

    def extend_repr(self):
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, has_bias={self.has_bias}"


class LSTMCell(_CellBase):
    """One LSTM step: ``h, c = cell(x, (h, c))``; x (N, input_size) or (input_size,)."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__("LSTM", input_size, hidden_size, has_bias, dtype)


class GRUCell(_CellBase):
    """One GRU step: ``h = cell(x, h)``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__("GRU", input_size, hidden_size, has_bias, dtype)


class RNNCell(_CellBase):
    """One Elman RNN step: ``h = cell(x, h)``; nonlinearity 'tanh' (default) or 'relu'."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, nonlinearity: str = "tanh",
                 dtype: mstype.Type = mstype.float32) -> None:
        choice("RNNCell", "nonlinearity", nonlinearity, ("tanh", "relu"))
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, has_bias,
                         dtype)
        self.nonlinearity = nonlinearity
