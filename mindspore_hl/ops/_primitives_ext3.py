"""More of MindSpore's Primitive classes: windows, channel dropout, CTC, detection (NMS), sequence helpers,
shape/dtype queries and gradient hooks. Each is a thin front over a functional op or a ``_nn_detect`` core.

>>> import mindspore_hl as ms
>>> from mindspore_hl import ops
>>> ops.FillV2()(ms.Tensor([2], ms.int32), ms.Tensor(1.5, ms.float32)).asnumpy().tolist()
[1.5, 1.5]
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, wrap
from . import _nn_detect as det
from ._core import check, unwrap
from ._nn_ctc import ctc_alpha
from ._nn_ext import dropout2d, dropout3d
from ._ops_misc import multilabel_margin_loss
from ._primitives import Primitive, primitive_class
from ._reduce_ext import bartlett_window, blackman_window, hamming_window

_REQUIRED = inspect.Parameter.empty


def _host(x: Any) -> np.ndarray:
    return np.asarray(x.asnumpy() if isinstance(x, Tensor) else x)


def _length(p: Any, x: Any, one_d: bool) -> int:
    v = _host(x)
    check(v.ndim == 1 and v.size == 1 if one_d else v.size == 1, p.name,
          f"'length' must be a {'1-D ' if one_d else ''}tensor of one integer, but got shape {list(v.shape)}.")
    check(np.issubdtype(v.dtype, np.integer), p.name, f"'length' must be int32 or int64, but got {v.dtype}.",
          TypeError)
    return int(v.reshape(-1)[0])


def _channel_dropout(fn: Callable[..., Any], p: Any, x: Any) -> tuple[Any, Any]:
    keep = p.keep_prob
    check(0.0 <= keep <= 1.0, p.name, f"'keep_prob' must be in [0, 1], but got {keep}.")
    v = unwrap(x)
    # One draw for output and mask: a column of ones appended to the last axis carries each channel's decision.
    out = unwrap(fn(jnp.concatenate([v, jnp.ones(v.shape[:-1] + (1,), v.dtype)], -1), 1.0 - keep))
    mask = jnp.broadcast_to(out[..., -1:] != 0, v.shape)
    return wrap(out[..., :-1]), wrap(mask)


def _ctc_loss(p: Any, x: Any, labels_indices: Any, labels_values: Any, sequence_length: Any):
    check(not p.preprocess_collapse_repeated and p.ctc_merge_repeated and not p.ignore_longer_outputs_than_inputs,
          p.name, "only preprocess_collapse_repeated=False, ctc_merge_repeated=True and "
          "ignore_longer_outputs_than_inputs=False are supported.", NotImplementedError)
    logits = unwrap(x)
    check(logits.ndim == 3, p.name, f"'x' must be 3-D (max_time, batch, num_classes), but got {list(logits.shape)}.")
    idx, vals = _host(labels_indices), _host(labels_values)
    batch = logits.shape[1]
    lengths = np.bincount(idx[:, 0], minlength=batch) if idx.size else np.zeros(batch, np.int64)
    targets = np.zeros((batch, max(int(lengths.max(initial=0)), 1)), np.int64)
    targets[idx[:, 0], idx[:, 1]] = vals
    blank = logits.shape[2] - 1  # TensorFlow's convention, kept by MindSpore's CTCLoss

    steps = _host(sequence_length).astype(np.int64)

    def nll(z, b):
        # One sample over its own steps only: the padded steps get no gradient (and no NaN through -inf).
        return ctc_alpha(jax.nn.log_softmax(z.astype(jnp.float32), -1),
                         jnp.asarray(targets[b:b + 1, :max(int(lengths[b]), 1)]),
                         jnp.asarray(steps[b:b + 1]), jnp.asarray(lengths[b:b + 1]), blank)[0][0]

    losses, grads = [], jnp.zeros(logits.shape, jnp.float32)
    for b in range(batch):
        value, g = jax.value_and_grad(nll)(logits[: int(steps[b]), b:b + 1], b)
        losses.append(value)
        grads = grads.at[: int(steps[b]), b:b + 1].set(g)
    loss, grad = jnp.stack(losses), grads
    return wrap(loss.astype(logits.dtype)), wrap(grad.astype(logits.dtype))


def _shape_of(p: Any, x: Any, dtype: mstype.Type = mstype.int64) -> Tensor:
    return Tensor(np.asarray(unwrap(x).shape, np.int64)).astype(dtype)


def _dtype_enum(p: Any, op_name: str, arg_name: str, dtype: mstype.Type) -> int:
    check(isinstance(dtype, mstype.Type), str(op_name), f"'{arg_name}' must be a mindspore dtype, but got {dtype!r}.",
          TypeError)
    return _TYPE_IDS[str(dtype)]


# MindSpore's TypeId numbers (what DtypeToEnum returns).
_TYPE_IDS = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38,
             "UInt32": 39, "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44, "BFloat16": 45,
             "Complex64": 48, "Complex128": 49}


def _fill_v2(p: Any, shape: Any, value: Any) -> Tensor:
    dims = tuple(int(d) for d in _host(shape).reshape(-1))
    v = unwrap(value)
    check(jnp.ndim(v) == 0 or np.size(v) == 1, p.name, f"'value' must hold one element, but got shape {jnp.shape(v)}.")
    return wrap(jnp.full(dims, jnp.reshape(v, ()), jnp.result_type(v)))


def _parallel_concat(p: Any, values: Sequence[Any]) -> Tensor:
    arrs = [unwrap(v) for v in values]
    check(len(arrs) > 0 and all(a.ndim >= 1 and a.shape[0] == 1 and a.shape == arrs[0].shape for a in arrs), p.name,
          f"'values' must be tensors of one shape (1, ...), but got {[list(a.shape) for a in arrs]}.")
    return wrap(jnp.concatenate(arrs, 0))


def _assert(p: Any, condition: Any, input_data: Sequence[Any]) -> Tensor:
    cond = _host(condition)
    check(cond.size == 1 and cond.dtype == np.bool_, p.name, f"'condition' must be one bool, but got shape "
          f"{list(cond.shape)} of {cond.dtype}.")
    if not bool(cond.all()):
        shown = "\n".join(str(_host(t).reshape(-1)[: p.summarize]) for t in input_data)
        raise RuntimeError(f"For 'Assert' condition is false.\ninput data: {shown}")
    return Tensor(np.zeros(1, np.int32))


def _grad_transform(fn: Callable[[Any], Any], x: Any) -> Any:
    @jax.custom_vjp
    def through(v):
        return v

    def bwd(_, g):
        out = fn(wrap(g))
        return (g if out is None else unwrap(out).astype(g.dtype),)

    through.defvjp(lambda v: (v, None), bwd)
    return wrap(through(unwrap(x)))


def _hook_backward(p: Any, *inputs: Any) -> Any:
    outs = tuple(_grad_transform(p.hook_fn, x) for x in inputs)
    return outs[0] if len(outs) == 1 else outs


def _no_repeat_ngram(p: Any, state_seq: Any, log_probs: Any) -> Tensor:
    seq, lp = unwrap(state_seq), unwrap(log_probs)
    n, length = p.ngram_size, seq.shape[-1]
    check(seq.ndim == 3 and lp.ndim == 3 and seq.shape[:2] == lp.shape[:2], p.name,
          f"'state_seq' and 'log_probs' must be (batch, beam, *) alike, but got {seq.shape} and {lp.shape}.")
    check(isinstance(n, int) and 0 < n, p.name, f"'ngram_size' must be a positive int, but got {n!r}.")
    banned = jnp.zeros(lp.shape, bool)
    tail = seq[..., length - n + 1:]
    for i in range(length - n + 1):  # every complete n-gram whose prefix repeats the last n-1 tokens
        hit = jnp.all(seq[..., i:i + n - 1] == tail, -1)
        banned = banned | (hit[..., None] & (jnp.arange(lp.shape[-1]) == seq[..., i + n - 1, None]))
    return wrap(jnp.where(banned, jnp.asarray(np.finfo(np.float32).min, lp.dtype), lp))


def _map_uniform(p: Any, input: Any, per_group_size: Any, group_num: Any) -> Tensor:
    x = unwrap(input)
    size, groups = int(_host(per_group_size)), int(_host(group_num))
    check(groups > 0 and size > 0, p.name, f"'per_group_size' and 'group_num' must be > 0, got {size}, {groups}.")
    out = (x % groups * size + x // groups).astype(x.dtype)
    if not isinstance(out, jax.core.Tracer):
        check(bool((out < size * groups).all()), p.name, f"all mapped ids must be less than {size * groups}, but "
              f"got {int(out.max())}.")
    return wrap(out)


def _multilabel_margin(p: Any, x: Any, target: Any) -> tuple[Tensor, Tensor]:
    t = unwrap(target)
    valid = jnp.cumprod(t >= 0, axis=-1).astype(bool)  # labels up to the first negative one
    rows = jnp.where(valid, t, 0).reshape(-1, t.shape[-1])
    hot = jax.vmap(lambda r, v: jnp.zeros(t.shape[-1], bool).at[r].max(v))(rows, valid.reshape(rows.shape))
    return multilabel_margin_loss(x, target, p.reduction), wrap(hot.reshape(t.shape).astype(t.dtype))


def _fractional_starts(u: Any, size: int, out: int, k: int) -> Any:
    """Window starts of fractional max pooling for sample ``u`` in [0, 1) (Graham's pseudo-random sequence)."""
    if out == 1:
        return jnp.full(u.shape + (1,), size - k, jnp.int32)
    alpha = (size - k) / (out - 1)
    i = jnp.arange(out - 1, dtype=u.dtype)
    starts = (jnp.floor((i + u[..., None]) * alpha) - jnp.floor(u[..., None] * alpha)).astype(jnp.int32)
    return jnp.concatenate([starts, jnp.full(u.shape + (1,), size - k, jnp.int32)], -1)


def _fractional_max_pool(p: Any, x: Any, random_samples: Any, nd: int) -> tuple[Tensor, Tensor]:
    v, u = unwrap(x), unwrap(random_samples)
    fmt = "NCHW" if nd == 2 else "NCDHW"
    check(p.data_format == fmt, p.name, f"'data_format' must be {fmt!r}, but got {p.data_format!r}.")
    kernel = (p.ksize,) * nd if isinstance(p.ksize, int) else tuple(p.ksize)
    outs = (p.output_shape,) * nd if isinstance(p.output_shape, int) else tuple(p.output_shape)
    check(v.ndim == nd + 2 and len(kernel) == nd and len(outs) == nd, p.name,
          f"expected a {nd + 2}-D input with {nd} kernel / output sizes, but got input {list(v.shape)}, "
          f"ksize {p.ksize}, output_shape {p.output_shape}.")
    check(u.shape == v.shape[:2] + (nd,), p.name, f"'random_samples' must have shape {list(v.shape[:2]) + [nd]}, "
          f"but got {list(u.shape)}.")
    sizes = v.shape[2:]
    check(all(o + k - 1 <= s for o, k, s in zip(outs, kernel, sizes)), p.name,
          f"output_shape {outs} with ksize {kernel} does not fit the input's spatial size {tuple(sizes)}.")
    # Which sample drives which axis follows MindSpore's CPU kernels (as PyTorch's): in 2-D samples[..., 0] is the
    # width's and [..., 1] the height's; in 3-D they go in axis order (depth, height, width).
    grids = []
    for axis in range(nd):
        sample = u[..., 1 - axis] if nd == 2 else u[..., axis]
        starts = _fractional_starts(sample, sizes[axis], outs[axis], kernel[axis])
        shape = [1] * (2 * nd)
        shape[axis], shape[nd + axis] = outs[axis], kernel[axis]
        pos = starts[..., :, None] + jnp.arange(kernel[axis])  # (N, C, out, k)
        grids.append(pos.reshape(v.shape[:2] + tuple(shape)))
    flat = grids[0]
    for axis in range(1, nd):
        flat = flat * sizes[axis] + grids[axis]
    flat = jnp.broadcast_to(flat, v.shape[:2] + outs + kernel).reshape(v.shape[:2] + outs + (-1,))
    vals = jnp.take_along_axis(v.reshape(v.shape[:2] + (-1,)), flat.reshape(v.shape[:2] + (-1,)), -1)
    vals = vals.reshape(flat.shape)
    best = jnp.argmax(vals, -1)[..., None]
    return (wrap(jnp.take_along_axis(vals, best, -1)[..., 0]),
            wrap(jnp.take_along_axis(flat, best, -1)[..., 0].astype(jnp.int64)))


def _prim(name: str, args: list[tuple[str, Any]], call: Callable[..., Any], doc: str) -> type[Primitive]:
    return primitive_class(name, args, call, doc, __name__)


_SPECS: list[tuple[str, list[tuple[str, Any]], Callable[..., Any], str]] = [
    ("BartlettWindow", [("periodic", True), ("dtype", mstype.float32)],
     lambda p, x: bartlett_window(_length(p, x, False), p.periodic, dtype=p.dtype), "bartlett_window"),
    ("BlackmanWindow", [("periodic", True), ("dtype", mstype.float32)],
     lambda p, x: blackman_window(_length(p, x, False), p.periodic, dtype=p.dtype), "blackman_window"),
    ("HammingWindow", [("periodic", True), ("alpha", 0.54), ("beta", 0.46), ("dtype", mstype.float32)],
     lambda p, x: hamming_window(_length(p, x, True), p.periodic, p.alpha, p.beta, dtype=p.dtype), "hamming_window"),
    ("Dropout2D", [("keep_prob", 0.5)], lambda p, x: _channel_dropout(dropout2d, p, x), "dropout2d, with its mask"),
    ("Dropout3D", [("keep_prob", 0.5)], lambda p, x: _channel_dropout(dropout3d, p, x), "dropout3d, with its mask"),
    ("CTCLoss", [("preprocess_collapse_repeated", False), ("ctc_merge_repeated", True),
                 ("ignore_longer_outputs_than_inputs", False)], _ctc_loss,
     "the CTC loss of logits (blank = last class) and its gradient"),
    ("CTCGreedyDecoder", [("merge_repeated", True)],
     lambda p, x, lengths: det.ctc_greedy_decoder(x, lengths, p.merge_repeated), "greedy CTC decoding"),
    ("TensorShape", [], _shape_of, "a tensor's shape as an int64 tensor"),
    ("DynamicShape", [("dtype", 9)], _shape_of, "TensorShape (deprecated name)"),
    ("TensorToTuple", [], lambda p, x: tuple(_host(x).tolist()), "a 1-D tensor's values as a tuple"),
    ("DtypeToEnum", [], _dtype_enum, "a dtype's TypeId number"),
    ("FillV2", [], _fill_v2, "a tensor of a shape filled with a value"),
    ("ParallelConcat", [], _parallel_concat, "concatenation of (1, ...) tensors along axis 0"),
    ("EditDistance", [("normalize", True)],
     lambda p, hi, hv, hs, ti, tv, ts: det.edit_distance(hi, hv, hs, ti, tv, ts, p.normalize),
     "the edit distance of sparse sequences"),
    ("Assert", [("summarize", 3)], _assert, "a check that raises when the condition is false"),
    ("HookBackward", [("hook_fn", _REQUIRED), ("cell_id", "")], _hook_backward,
     "identity whose gradient is passed to hook_fn (a returned value replaces it)"),
    ("InsertGradientOf", [("f", _REQUIRED)], lambda p, x: _grad_transform(p.f, x),
     "identity whose gradient is f(gradient)"),
    ("NoRepeatNGram", [("ngram_size", 1)], _no_repeat_ngram, "banning tokens that would repeat an n-gram"),
    ("MapUniform", [], _map_uniform, "mapping ids uniformly over groups"),
    ("SubAndFilter", [], lambda p, x, max_num, offset: det.sub_and_filter(x, int(_host(max_num)), int(_host(offset))),
     "shifted ids kept in [0, max_num)"),
    ("NonMaxSuppressionWithOverlaps", [], lambda p, *a: det.non_max_suppression_with_overlaps(*a),
     "greedy NMS over an overlap matrix"),
    ("NonMaxSuppressionV3", [], lambda p, *a: det.non_max_suppression_v3(*a), "greedy NMS over boxes by IoU"),
    ("MultilabelMarginLoss", [("reduction", "mean")], _multilabel_margin, "multilabel_margin_loss, with is_target"),
    ("ComputeAccidentalHits", [("num_true", 1)],
     lambda p, tc, sc: det.compute_accidental_hits(tc, sc, p.num_true), "sampled candidates hitting true classes"),
    ("FractionalMaxPoolWithFixedKsize", [("ksize", _REQUIRED), ("output_shape", _REQUIRED), ("data_format", "NCHW")],
     lambda p, x, samples: _fractional_max_pool(p, x, samples, 2), "2-D fractional max pooling with argmax"),
    ("FractionalMaxPool3DWithFixedKsize", [("ksize", _REQUIRED), ("output_shape", _REQUIRED),
                                           ("data_format", "NCDHW")],
     lambda p, x, samples: _fractional_max_pool(p, x, samples, 3), "3-D fractional max pooling with argmax"),
]

for _name, _args, _call, _what in _SPECS:
    globals()[_name] = _prim(_name, _args, _call, f"``ops.{_name}({', '.join(a for a, _ in _args)})(...)``: "
                                                  f"{_what}.")

__all__ = sorted(name for name, *_ in _SPECS)
