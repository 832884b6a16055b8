"""From XLA's ops back to Cells: compiled HLO metadata, name-scope paths, and FLOPs per Cell.

A Cell's ``construct`` runs inside ``jax.named_scope(<attribute name>)`` while it is traced, so every HLO
instruction's ``op_name`` metadata reads like ``jit(step)/TrainOneStepCell/transpose(jvp(network))/_backbone/
conv1/jit(_conv2d_core)/conv_general_dilated``: the Cell path is the run of scope names before the first
function (``jit(...)``) or primitive; ``transpose(...)`` marks the backward pass.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Sequence

import jax

if TYPE_CHECKING:
    import jax.extend.core

from ..common import seed

__all__ = ["parse_hlo", "kernel_names", "cell_of", "jaxpr_flops", "compile_step", "analyse_step"]

_INSTR = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+) = (?:\(.*?\)|\S+) ([\w\-]+)\(")
_META = re.compile(r'op_name="([^"]*)"')
_WRAP = re.compile(r"^(\w+)\((.*)\)$")
_LOOP_SCOPES = {"while", "body", "cond", "scan", "closed_call"}   # control flow around a scanned step
CONTAINERS = {"while", "conditional", "call"}      # ops whose time is that of the ops they run
_TRANSFORMS = {"jvp", "transpose", "vmap", "remat", "checkpoint", "pmap", "shard_map", "custom_jvp_call",
               "custom_vjp_call"}


_OPERAND = re.compile(r"%([\w.\-]+)")


def kernel_names(instructions: dict) -> dict:
    """``{kernel name: instruction name}``: XLA:GPU names a fusion's kernel after its instruction, with ``.`` and
    ``-`` written ``_`` (``loop_add_fusion.1`` runs as ``loop_add_fusion_1``).

    >>> kernel_names({"loop_add_fusion.1": ("fusion", "")})
    {'loop_add_fusion_1': 'loop_add_fusion.1'}
    """
    return {name.replace(".", "_").replace("-", "_"): name for name in instructions}


def parse_hlo(text: str) -> dict:
    """``{instruction name: (opcode, op_name metadata)}`` of an HLO module's text (``Compiled.as_text()``).

    An instruction XLA created without metadata (a layout copy, a rewritten convolution) takes that of its
    nearest operand that has some: it does that operand's Cell's work. Of operands equally near, one from the
    backward pass wins: an op that reads a gradient is backward work, like a weight gradient's convolution that
    XLA rewrote together with its operands' transposes, whose other operand is the forward activation.
    """
    out, operands = {}, {}
    for line in text.splitlines():
        m = _INSTR.match(line)
        if m is None:
            continue
        meta = _META.search(line)
        out[m.group(1)] = (m.group(2), meta.group(1) if meta else "")
        args = line[m.end():].split(")", 1)[0]
        operands[m.group(1)] = _OPERAND.findall(args)
    for name, (opcode, meta) in list(out.items()):  # type: ignore[assignment]  # meta: now the string
        if meta:
            continue
        frontier, seen = list(operands.get(name, ())), {name}
        for _ in range(6):
            metas = [out[o][1] for o in frontier if o in out and out[o][1] and out[o][0] != "parameter"]
            found = next((m for m in metas if "transpose(" in m), metas[0] if metas else "")
            if found:
                out[name] = (opcode, found)
                break
            seen.update(frontier)
            frontier = [o2 for o in frontier for o2 in operands.get(o, ()) if o2 not in seen]
    return out


def _unwrap(part):
    """``transpose(jvp(network))`` -> (``network``, backward?) ; ``jit(f)`` -> (None, False) (not a Cell)."""
    backward = False
    while True:
        m = _WRAP.match(part)
        if m is None:
            return part, backward
        if m.group(1) not in _TRANSFORMS:
            return None, backward
        backward |= m.group(1) == "transpose"
        part = m.group(2)


def cell_of(op_name: str, primitive_last: bool = True) -> tuple:
    """``(cell path as a dotted string, backward?)`` of an op_name / name stack.

    >>> cell_of("jit(step)/TrainOneStepCell/transpose(jvp(network))/_backbone/conv1/jit(_conv2d_core)/conv")
    ('TrainOneStepCell.network._backbone.conv1', True)
    """
    parts = [p for p in op_name.split("/") if p]
    if parts and parts[0].startswith(("jit(", "pjit(")):
        parts = parts[1:]   # the compiled function itself
    if primitive_last and parts:
        parts = parts[:-1]
    path, backward = [], False
    for part in parts:
        if part in _LOOP_SCOPES:
            continue
        name, bw = _unwrap(part)
        backward |= bw
        if name is None:
            break
        if bw and name in path:   # jax names some transposes after an enclosing Cell: not a new level
            continue
        path.append(name)
    return ".".join(path), backward


def _size(aval):
    return math.prod(getattr(aval, "shape", ()) or (1,))


def _eqn_flops(eqn):
    """Multiply-adds count as 2; elementwise and reductions 1 per element (XLA's cost model does the same)."""
    name = eqn.primitive.name
    if name == "dot_general":
        (lc, _), _ = eqn.params["dimension_numbers"]
        lhs = eqn.invars[0].aval
        return 2 * _size(eqn.outvars[0].aval) * math.prod(lhs.shape[d] for d in lc)
    if name == "conv_general_dilated":
        rhs = eqn.invars[1].aval
        out_feat = eqn.params["dimension_numbers"].rhs_spec[0]
        return 2 * _size(eqn.outvars[0].aval) * (_size(rhs) // max(rhs.shape[out_feat], 1))
    if name == "depthwise_tap_products":  # (a multiply-add per tap and output element)
        return 2 * _size(eqn.outvars[0].aval) * eqn.invars[1].aval.shape[0]
    if name == "depthwise_tap_sums":  # (a multiply-add per tap and cotangent element)
        return 2 * _size(eqn.invars[1].aval) * eqn.outvars[0].aval.shape[0]
    if name.startswith(("reduce_", "argmax", "argmin", "cumsum")):
        return _size(eqn.invars[0].aval)
    if name in ("reshape", "broadcast_in_dim", "transpose", "squeeze", "expand_dims", "convert_element_type",
                "slice", "dynamic_slice", "concatenate", "pad", "gather", "copy", "iota", "select_n"):
        return 0
    return sum(_size(v.aval) for v in eqn.outvars) if eqn.outvars else 0


def _sub_jaxprs(eqn):
    for value in eqn.params.values():
        for v in (value if isinstance(value, (tuple, list)) else (value,)):
            inner = getattr(v, "jaxpr", v)
            if hasattr(inner, "eqns"):
                yield inner


def _total(jaxpr):
    total = 0
    for eqn in jaxpr.eqns:
        subs = list(_sub_jaxprs(eqn))
        if not subs:
            total += _eqn_flops(eqn)
        elif eqn.primitive.name == "cond":
            total += max(_total(s) for s in subs)
        else:
            n = eqn.params.get("length", 1) if eqn.primitive.name == "scan" else 1
            total += n * sum(_total(s) for s in subs)
    return total


def jaxpr_flops(closed_jaxpr: jax.extend.core.ClosedJaxpr) -> dict:
    """``{(cell path, backward): FLOPs}`` of one call of a jaxpr, attributed by each equation's name stack."""
    out: dict[tuple[str, bool], float] = {}
    for eqn in closed_jaxpr.jaxpr.eqns:
        subs = list(_sub_jaxprs(eqn))
        if subs:
            n = eqn.params.get("length", 1) if eqn.primitive.name == "scan" else 1
            flops = max(_total(s) for s in subs) if eqn.primitive.name == "cond" else n * sum(map(_total, subs))
        else:
            flops = _eqn_flops(eqn)
        if flops:
            key = cell_of(str(eqn.source_info.name_stack), primitive_last=False)
            out[key] = out.get(key, 0) + flops
    return out


def _step_inputs(runner):
    """A StepRunner's state (as shapes) and random key, as its compiled step takes them."""
    state = tuple(jax.ShapeDtypeStruct(p._value.shape, p._value.dtype) for p in runner.params)
    return state, runner.rng if runner.rng is not None else seed.global_key()


def compile_step(runner: Any, entry: Any, cols: Sequence[jax.ShapeDtypeStruct]) -> Any:
    """The compiled executable of one step of a StepRunner (a cache hit of the one the step ran)."""
    return entry.lower(*_step_inputs(runner), list(cols)).compile()


def analyse_step(runner: Any, entry: Any, cols: Sequence[jax.ShapeDtypeStruct], sink: bool = False) -> dict:
    """HLO instructions, cost and memory analysis, and per-Cell FLOPs of one compiled step of a StepRunner.

    Lowering again is a cache hit of the executable the step already ran; the jaxpr is traced once more. A sink
    entry (a scan of steps over stacked batches) counts the FLOPs of one step times the number of steps.
    """
    compiled = compile_step(runner, entry, cols)
    state, rng = _step_inputs(runner)
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) and cost else (cost or {})
    mem = compiled.memory_analysis()
    memory = {} if mem is None else {
        k: int(getattr(mem, k, 0) or 0) for k in ("argument_size_in_bytes", "output_size_in_bytes",
                                                 "alias_size_in_bytes", "temp_size_in_bytes",
                                                 "generated_code_size_in_bytes")}
    if memory:
        memory["peak_bytes"] = (memory["argument_size_in_bytes"] + memory["output_size_in_bytes"]
                                - memory["alias_size_in_bytes"] + memory["temp_size_in_bytes"])
    text = compiled.as_text()
    head = re.match(r"HloModule ([\w.\-]+)", text)
    one = [jax.ShapeDtypeStruct(c.shape[1:], c.dtype) for c in cols] if sink else list(cols)
    flops = jaxpr_flops(jax.make_jaxpr(runner._pure_step())(state, rng, one))
    if sink and cols:
        flops = {k: v * cols[0].shape[0] for k, v in flops.items()}
    instructions = parse_hlo(text)
    return {"module": head.group(1) if head else "", "instructions": instructions,
            "kernels": kernel_names(instructions),
            "flops": float(cost.get("flops", 0.0)), "bytes_accessed": float(cost.get("bytes accessed", 0.0)),
            "memory": memory, "cell_flops": flops}
