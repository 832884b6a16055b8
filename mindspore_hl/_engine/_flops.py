"""FLOPs of compiled steps, counted as MindSpore counts them, and ``flops_collection`` over the compiled phases.

MindSpore counts the forward and backward FLOPs of MatMul, BatchMatMul, FlashAttentionScore and Conv2D in its
compiled graph (2 per multiply-add): a ``Dense(10, 5)`` trained on batches of 32 is 6400 model FLOPs per step
(forward 3200 + weight gradient 3200; no input gradient is computed). Here:

* model FLOPs are counted the same way from the traced step: every ``dot_general`` (MatMul, BatchMatMul, the
  matmuls of attention) and ``conv_general_dilated`` (convolutions), forward and backward, a ``scan`` times its
  length (a forward ``ops.conv2d``, and a narrow convolution's weight gradient, count as the convolution they
  compute, see ``_conv2d_op_flops`` and ``_conv_weight_term_flops``). A block
  under ``recompute`` (``jax.checkpoint``) is counted with its recomputed forward, which MindSpore adds to its
  hardware count only;
* hardware FLOPs are XLA's own count for the compiled executable (``Compiled.cost_analysis()['flops']``): all
  the arithmetic the device runs after XLA's optimisations, elementwise ops and any recomputation included. It
  is therefore at least the model count on the CPU, where MindSpore's hardware count only adds recomputed
  MatMul / Conv. (On a GPU, XLA's count leaves out the convolutions it hands to cuDNN.)

In a parallel mode the traced step is the whole (global-batch) step and XLA's count is per device (the
partitioned program): the full model FLOPs are the traced count, the shard ones that divided by the device
number; the shard hardware FLOPs are XLA's count, the full ones that times the device number.

Each compiled Cell call and Model step is a *phase*, named as MindSpore names it
(``"<cell.phase>.<cell.create_time>.<id(cell)>.<signature number>"``) and left in ``cell.current_phase``;
:func:`flops_collection` counts the phase's executable when asked.
"""
from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax

from ..common import seed
from . import _state

__all__ = ["matmul_conv_flops", "abstract", "count_entry", "register_phase", "flops_collection"]


def _size(aval: Any) -> int:
    return math.prod(getattr(aval, "shape", ()) or ())


def _eqn_flops(eqn: Any) -> int:
    if eqn.primitive.name == "dot_general":
        (contract, _), _ = eqn.params["dimension_numbers"]
        lhs = eqn.invars[0].aval
        return 2 * _size(eqn.outvars[0].aval) * math.prod(lhs.shape[d] for d in contract)
    if eqn.primitive.name == "conv_general_dilated":
        rhs = eqn.invars[1].aval
        out_feature = eqn.params["dimension_numbers"].rhs_spec[0]
        return 2 * _size(eqn.outvars[0].aval) * (_size(rhs) // max(rhs.shape[out_feature], 1))
    return 0


def _inner_jaxprs(eqn: Any) -> list[Any]:
    found = []
    for value in eqn.params.values():
        for v in value if isinstance(value, (tuple, list)) else (value,):
            inner = getattr(v, "jaxpr", v)
            if hasattr(inner, "eqns"):
                found.append(inner)
    return found


def _conv2d_op_flops(eqn: Any) -> int | None:
    """A forward ``ops.conv2d`` call counted as MindSpore's Conv2D (None for any other equation; the caller leaves
    out transposed calls).

    Small-channel convolutions are computed in a rearranged form with more arithmetic than the convolution
    (``ops/_nn_conv_narrow.py``); MindSpore's count is that of the convolution itself, read here from the call's
    input (N, C_in, H, W) or NHWC, weight (C_out, C_in / groups, kH, kW) and output. In its backward pass a narrow
    convolution's weight gradient is counted by ``_conv_weight_term_flops``, the rest as the equations are.
    """
    name = str(eqn.params.get("name", ""))
    if eqn.primitive.name not in ("pjit", "jit") or not name.endswith("conv2d_core"):
        return None
    w = eqn.invars[1].aval if len(eqn.invars) > 1 else None
    if w is None or len(getattr(w, "shape", ())) != 4 or len(eqn.outvars[0].aval.shape) != 4:
        return None
    return 2 * _size(eqn.outvars[0].aval) * (_size(w) // max(w.shape[0], 1))


def _conv_weight_term_flops(eqn: Any, transposed: bool) -> int | None:
    """A narrow convolution's weight term (``ops/_nn_conv_narrow.py``) counted as the convolution it stands for,
    whatever form computes it: transposed (reverse mode, inside a transposed call), its weight gradient, which
    MindSpore's Conv2DBackpropFilter counts as the forward Conv2D; in forward mode, the weight tangent's
    convolution. None for any other equation, and for the part of the term that reverse mode runs in the forward
    pass (patches, no products)."""
    if eqn.primitive.name not in ("pjit", "jit") or not str(eqn.params.get("name", "")).endswith("conv_weight_term"):
        return None
    if transposed and len(eqn.outvars) == 1:
        # the NHWC output's cotangent comes in last, the OIHW weight's gradient goes out
        out, w = eqn.invars[-1].aval, eqn.outvars[0].aval
    elif not transposed and len(eqn.invars) == 2 and len(eqn.outvars) == 1:
        out, w = eqn.outvars[0].aval, eqn.invars[1].aval
    else:
        return None
    return 2 * _size(out) * (_size(w) // max(w.shape[0], 1))


def matmul_conv_flops(jaxpr: Any) -> int:
    """FLOPs of the matrix products and convolutions of one run of ``jaxpr`` (a Jaxpr or ClosedJaxpr).

    A multiply-add counts 2; a ``scan`` counts its body ``length`` times, a ``cond`` its costliest branch.

    >>> import jax, jax.numpy as jnp
    >>> matmul_conv_flops(jax.make_jaxpr(jnp.matmul)(jnp.ones((32, 10)), jnp.ones((10, 5))))
    3200
    """
    return _count(getattr(jaxpr, "jaxpr", jaxpr), False)


def _count(jaxpr: Any, transposed: bool) -> int:
    # ``transposed``: inside a call that reverse mode transposed (an inner equation's name stack is relative)
    total = 0
    for eqn in jaxpr.eqns:
        inner = _inner_jaxprs(eqn)
        here = transposed or "transpose(" in str(getattr(eqn.source_info, "name_stack", ""))
        conv = None if here else _conv2d_op_flops(eqn)
        if conv is None:
            conv = _conv_weight_term_flops(eqn, here)
        if conv is not None:
            total += conv
        elif not inner:
            total += _eqn_flops(eqn)
        else:
            counts = [_count(getattr(j, "jaxpr", j), here) for j in inner]
            if eqn.primitive.name == "cond":
                total += max(counts)
            else:
                total += (eqn.params.get("length", 1) if eqn.primitive.name == "scan" else 1) * sum(counts)
    return total


def abstract(values: Sequence[Any]) -> list[jax.ShapeDtypeStruct]:
    """Shapes and dtypes of ``values`` (arrays, Tensors or shape structs), which is all a count needs."""
    return [jax.ShapeDtypeStruct(getattr(v, "_value", v).shape, getattr(v, "_value", v).dtype) for v in values]


def count_entry(entry: Any, arrays: Sequence[Any]) -> tuple[float, float, int]:
    """(model FLOPs of the traced step, XLA's per-device FLOPs of the compiled executable, device number) of one
    run of ``entry`` on inputs shaped as ``arrays``.

    ``entry`` is a single-step ``_step.Entry`` (not a sink: XLA counts a loop's body once, whatever its trip
    count). Lowering the running executable's inputs again is a cache hit.
    """
    state, rng, arrays = abstract([p._value for p in entry.params]), seed.global_key(), list(arrays)
    model = float(matmul_conv_flops(jax.make_jaxpr(entry.step)(state, rng, arrays)))
    cost = entry.lower(state, rng, arrays).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) and cost else (cost or {})
    return model, float(cost.get("flops", 0.0)), entry.plan.mesh.size if entry.plan is not None else 1


def register_phase(owner: Any, prefix: str, count: Callable[[], tuple[float, float, int]]) -> str:
    """Name a newly compiled executable of ``owner`` (a Cell) as MindSpore names its phase, and keep how to count
    it with the owner: ``count()`` gives (model FLOPs, per-device hardware FLOPs, device number). The number
    closing the name counts the owner's phases, whichever engine path (a Cell call, a Model step) compiled them.
    The registry holds the owner weakly: a phase whose Cell is gone has no graph left to count."""
    counts = owner.__dict__.setdefault("_phase_counts", {})
    phase = f"{prefix}.{owner.create_time}.{id(owner)}.{len(counts)}"
    counts[phase] = count
    _state.phases[phase] = weakref.ref(owner)
    return phase


def flops_collection(phase: str = "train") -> tuple[float, float, float, float, bool]:
    """FLOPs of the graph compiled as ``phase`` (a Cell's ``current_phase`` after a GRAPH_MODE call or a
    ``Model`` step): ``(full model FLOPs, full hardware FLOPs, shard model FLOPs, shard hardware FLOPs,
    is_dynamic_shape)``. See the module docstring for what each counts; every graph here is compiled for
    static shapes, so the last item is False.

    Raises:
        TypeError: if ``phase`` is not a str.
        RuntimeError: if no graph was compiled as ``phase``.

    Example:
        >>> import numpy as np
        >>> import mindspore_hl as ms
        >>> ms.set_context(mode=ms.GRAPH_MODE)
        >>> net = ms.nn.Dense(10, 5)
        >>> _ = net(ms.Tensor(np.ones((32, 10), np.float32)))
        >>> ms.flops_collection(net.current_phase)[0]
        3200.0
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
    """
    if not isinstance(phase, str):
        raise TypeError(f"flops_collection: 'phase' must be a str, but got {type(phase).__name__}.")
    ref = _state.phases.get(phase)
    if ref is None:
        raise RuntimeError(f"flops_collection: no graph was compiled as phase {phase!r}: pass the "
                           f"'current_phase' of a Cell called in GRAPH_MODE or trained by Model.")
    owner = ref()
    if owner is None:
        raise RuntimeError(f"flops_collection: the Cell compiled as phase '{phase}' no longer exists.")
    model, hardware, devices = owner.__dict__["_phase_counts"][phase]()
    return model, hardware * devices, model / devices, hardware, False
