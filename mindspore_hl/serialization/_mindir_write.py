"""``export(net, x, file_format="MINDIR")``: the network's forward graph as real MindSpore MindIR.

MindIR nodes are MindSpore primitives (Conv2D, MatMul, BatchNorm, ...), which correspond to mindspore_hl's
functional ops, not to the lower-level XLA operations that implement them. So the graph is recorded at the level
of ops: the network runs once in eval mode on traced inputs while an observer (``_engine._state.trace.op_observer``)
sees every op call. An op that has an emitter below becomes its MindSpore primitives, and the ops it calls
internally are dropped; an op without one is looked through, so its inner ops are recorded instead. A value that
reaches an op without coming from the inputs, a parameter, a constant or a recorded op was computed outside
``mindspore_hl.ops``; the export stops with an error naming the op that received it.

The file follows what real MindSpore 2.10 writes: parameters read through ``Load`` and ordered by ``UpdateState``
and ``Depend``, primitives of kind PRIMITIVE with their attributes, kind PRIMITIVE_FUNCTION with constant inputs.
Before the file is written, it is run with this package's MindIR reader and compared with the network's output.
"""
from __future__ import annotations

import math
import os
from typing import Any, Callable

import jax
import numpy as np

from .._engine import _state
from ..common import _scope
from ..common.tensor import Tensor, to_array, wrap
from ._atomic import atomic_open
from ._mindir_proto import ATTR, DTYPE, ModelProto
from ._mindir_read import MindIRGraph

__all__ = ["export_mindir", "MindIRExportError", "EXPORTABLE_OPS"]

_DTYPE_OF = {np.dtype("float32"): DTYPE["FLOAT"], np.dtype("float16"): DTYPE["FLOAT16"],
             np.dtype("float64"): DTYPE["FLOAT64"], np.dtype("int32"): DTYPE["INT32"],
             np.dtype("int64"): DTYPE["INT64"], np.dtype("int8"): DTYPE["INT8"], np.dtype("uint8"): DTYPE["UINT8"],
             np.dtype("bool"): DTYPE["BOOL"]}


class MindIRExportError(ValueError):
    """The network uses something MindIR export cannot express; the message says what and where."""


class _Value:
    """A graph value: its name in the file and its abstract (shape and dtype, or a tuple of them)."""

    __slots__ = ("name", "abstract")

    def __init__(self, name: str, abstract: Any) -> None:
        self.name, self.abstract = name, abstract


def _arr(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


def _abstract(x: Any) -> tuple[tuple[int, ...], np.dtype]:
    a = _arr(x)
    return tuple(int(d) for d in a.shape), np.dtype(a.dtype)


class _Recorder:
    """Builds the graph while the network runs: the op observer, the node list and the primitive table."""

    def __init__(self, graph_name: str, params: dict[int, tuple[str, Any]], inputs: dict[int, str]) -> None:
        self.graph = graph_name
        self.params = params                # id(array) -> (parameter name, array)
        self.values: dict[int, _Value] = {}  # id(array) -> the node that produced it
        for key, name in inputs.items():
            self.values[key] = _Value(name, None)
        self.nodes: list[dict[str, Any]] = []
        self.constants: list[dict[str, Any]] = []
        self.loads: dict[str, _Value] = {}  # parameter name -> its Load node
        self.load_nodes: list[dict[str, Any]] = []
        self._monad: _Value | None = None
        self._prim_specs: list[tuple] = []
        self.primitives: dict[tuple, str] = {}
        self.counter = 0
        self.live: dict[int, Any] = {}      # keeps recorded arrays alive, so their ids stay unique

    # -- the observer ------------------------------------------------------------------------------------------
    def __call__(self, name: str, call: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        mark = len(self.nodes)
        out = call(*args, **kwargs)
        emit = _EMITTERS.get(name)
        if emit is None:
            return out  # looked through: its inner ops were recorded
        del self.nodes[mark:]
        result = emit(self, *args, **kwargs)
        for array, value in _pairs(name, out, result):
            self.values[id(array)] = value
            self.live[id(array)] = array
        return out

    # -- values ------------------------------------------------------------------------------------------------
    def _fresh(self, stem: str = "CNode") -> str:
        self.counter += 1
        return f"{self.graph}:{stem}_{self.counter}"

    def tensor(self, x: Any, op: str) -> _Value:
        """The graph value of a Tensor/array argument of ``op``."""
        array = x._value if isinstance(x, Tensor) else x
        key = id(array)
        if key in self.values:
            return self.values[key]
        if key in self.params:
            pname, value = self.params[key]
            if pname not in self.loads:
                # Loads live apart from the node list: an op looked into may read a parameter first, and its
                # inner nodes are dropped, but the read stays valid for the ops that follow.
                mark = len(self.nodes)
                load = self.node("Load", [_Value(f"{self.graph}:{pname}", None), self.monad()], _abstract(value),
                                 prim_type=1)
                self.load_nodes.append(self.nodes.pop(mark))
                self.loads[pname] = load
            return self.loads[pname]
        if isinstance(array, jax.core.Tracer):
            raise MindIRExportError(
                f"export(MINDIR): op '{op}' received a value computed outside mindspore_hl.ops (a Tensor method or "
                f"jax.numpy call that has no MindIR form), of shape {tuple(array.shape)}; write that step with "
                f"mindspore_hl.ops functions, or export with file_format='ONNX' or 'STABLEHLO'.")
        return self.const_tensor(np.asarray(array))

    def monad(self) -> _Value:
        if self._monad is None:
            self._monad = self.constant(None, ATTR["UMONAD"])
        return self._monad

    def constant(self, value: Any, kind: int | None = None) -> _Value:
        """A Constant node holding a scalar, a tuple of ints, a 0-d tensor or a monad."""
        name = f"ValueNode_{len(self.constants) + 1}"
        self.constants.append({"name": name, "value": value, "kind": kind})
        return _Value(name, None)

    def const_tensor(self, array: np.ndarray) -> _Value:
        return self.constant(np.asarray(array), ATTR["TENSORS"])

    def node(self, op_type: str, inputs: list[_Value], abstract: Any, *, prim_type: int = 2,
             attrs: dict[str, Any] | None = None, instance_name: str = "") -> _Value:
        key = (op_type, prim_type, instance_name, repr(sorted((attrs or {}).items())))
        if key not in self.primitives:
            self.primitives[key] = f"{op_type}:{len(self.primitives) + 1}"
            self._prim_specs.append((self.primitives[key], op_type, prim_type, instance_name, attrs or {}))
        out = _Value(self._fresh(), abstract)
        self.nodes.append({"op": self.primitives[key], "prim": op_type, "inputs": [v.name for v in inputs],
                           "output": out.name, "abstract": abstract})
        return out


def _pairs(name: str, out: Any, result: Any) -> list[tuple[Any, _Value]]:
    """(array, graph value) for the op's output Tensor(s) and the emitted value(s)."""
    if isinstance(out, (tuple, list)):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise MindIRExportError(f"export(MINDIR): op '{name}' returns {len(out)} values; its MindIR form gives "
                                    f"{len(result) if isinstance(result, (tuple, list)) else 1}.")
        return [p for o, r in zip(out, result) for p in _pairs(name, o, r)]
    return [(out._value if isinstance(out, Tensor) else out, result)]


# --- emitters: mindspore_hl op -> MindSpore primitives ---------------------------------------------------------

def _two(v: Any) -> tuple[int, int]:
    return (int(v), int(v)) if isinstance(v, (int, np.integer)) else (int(v[0]), int(v[-1]))


def _same_pads(size: int, k: int, s: int, d: int) -> tuple[int, int]:
    total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def _conv2d(r: _Recorder, x, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1,
            *, data_format="NCHW"):
    if data_format != "NCHW":
        raise MindIRExportError("export(MINDIR): conv2d with data_format NHWC is not supported.")
    xv, wv = r.tensor(x, "conv2d"), r.tensor(weight, "conv2d")
    (n, _, h, w), dtype = _abstract(x)
    out_c, _, kh, kw = (int(d) for d in _arr(weight).shape)
    sh, sw = _two(stride)
    dh, dw = _two(dilation)
    if pad_mode == "same":
        pad_list: tuple[int, ...] = _same_pads(h, kh, sh, dh) + _same_pads(w, kw, sw, dw)
        pad: tuple[int, ...] = (0, 0, 0, 0)
    elif pad_mode == "pad":
        p = (padding,) * 4 if isinstance(padding, (int, np.integer)) else tuple(padding)
        pad = pad_list = (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(int(v) for v in p)
    else:
        pad = pad_list = (0, 0, 0, 0)
    oh = (h + pad_list[0] + pad_list[1] - dh * (kh - 1) - 1) // sh + 1
    ow = (w + pad_list[2] + pad_list[3] - dw * (kw - 1) - 1) // sw + 1
    attrs = {"kernel_size": ("ints", (kh, kw)), "mode": ("int", 1), "out_channel": ("int", out_c),
             "input_names": ("strings", ("x", "w")), "pad": ("ints", pad), "pad_mode": ("str", pad_mode),
             "format": ("str", "NCHW"), "pad_list": ("ints", pad_list), "groups": ("int", groups),
             "stride": ("ints", (1, 1, sh, sw)), "group": ("int", groups), "dilation": ("ints", (1, 1, dh, dw)),
             "output_names": ("strings", ("output",))}
    y = r.node("Conv2D", [xv, wv], ((n, out_c, oh, ow), dtype), prim_type=1, attrs=attrs, instance_name="conv2d")
    return _bias_add(r, y, bias) if bias is not None else y


def _bias_add(r: _Recorder, y: _Value, bias: Any) -> _Value:
    return r.node("BiasAdd", [y, r.tensor(bias, "bias_add"), r.constant(0, ATTR["INT64"])], y.abstract,
                  instance_name="bias_add")


def _dense(r: _Recorder, x, weight, bias=None):
    (shape, dtype) = _abstract(x)
    xv = r.tensor(x, "dense")
    out_f = int(_arr(weight).shape[0])
    if len(shape) != 2:
        xv = _reshape_value(r, xv, (int(np.prod(shape[:-1])), shape[-1]), dtype)
    y = r.node("MatMul", [xv, r.tensor(weight, "dense"), r.constant(False, ATTR["BOOL"]),
                          r.constant(True, ATTR["BOOL"])], ((int(np.prod(shape[:-1])), out_f), dtype),
               instance_name="matmul")
    if bias is not None:
        y = _bias_add(r, y, bias)
    if len(shape) != 2:
        y = _reshape_value(r, y, shape[:-1] + (out_f,), dtype)
    return y


def _reshape_value(r: _Recorder, v: _Value, shape: tuple[int, ...], dtype: np.dtype) -> _Value:
    return r.node("Reshape", [v, r.constant(tuple(int(s) for s in shape), ATTR["TUPLE"])], (tuple(shape), dtype),
                  instance_name="reshape")


def _unary(prim: str, instance: str = ""):
    def emit(r: _Recorder, x, *args, **kwargs):
        return r.node(prim, [r.tensor(x, prim)], _abstract(x), instance_name=instance)
    return emit


def _binary(prim: str):
    def emit(r: _Recorder, a, b, *args, **kwargs):
        a, b = _arr(a), _arr(b)
        shape = np.broadcast_shapes(tuple(np.shape(a)), tuple(np.shape(b)))
        dtype = np.result_type(*[np.dtype(v.dtype) for v in (a, b) if hasattr(v, "dtype")])
        values = []
        for v in (a, b):
            if isinstance(v, (int, float, np.number)):
                values.append(r.const_tensor(np.asarray(v, dtype=dtype)))
            else:
                values.append(r.tensor(v, prim))
        return r.node(prim, values, (tuple(shape), dtype))
    return emit


def _relu(r: _Recorder, x, inplace=False):
    return r.node("ReLU", [r.tensor(x, "relu")], _abstract(x), instance_name="relu")


def _gelu(r: _Recorder, x, approximate="none"):
    """tanh form: MindSpore's GeLU primitive; exact form: as real MindSpore exports ``ops.gelu``,
    x * (erf(x / sqrt(2)) + 1) * 0.5 with 0-d constants of x's dtype."""
    abstract = _abstract(x)
    xv = r.tensor(x, "gelu")
    if approximate == "tanh":
        return r.node("GeLU", [xv], abstract)

    def const(v: float) -> _Value:
        return r.const_tensor(np.asarray(v, dtype=abstract[1]))

    y = r.node("Erf", [r.node("Div", [xv, const(math.sqrt(2.0))], abstract)], abstract)
    y = r.node("Mul", [xv, r.node("Add", [y, const(1.0)], abstract)], abstract)
    return r.node("Mul", [y, const(0.5)], abstract)


def _max_pool2d(r: _Recorder, x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                ceil_mode=False, *, pad_mode="pad", data_format="NCHW"):
    if return_indices or ceil_mode or _two(dilation) != (1, 1) or (pad_mode == "pad" and _two(padding) != (0, 0)):
        raise MindIRExportError("export(MINDIR): max_pool2d with padding, dilation, ceil_mode or indices has no "
                                "MindIR MaxPool form.")
    (n, c, h, w), dtype = _abstract(x)
    kh, kw = _two(kernel_size)
    sh, sw = _two(stride if stride is not None else kernel_size)
    same = pad_mode == "same"
    oh = math.ceil(h / sh) if same else (h - kh) // sh + 1
    ow = math.ceil(w / sw) if same else (w - kw) // sw + 1
    attrs = {"pad_mode": ("str", "SAME" if same else "VALID"), "output_names": ("strings", ("output",)),
             "kernel_size": ("ints", (1, 1, kh, kw)), "format": ("str", "NCHW"),
             "strides": ("ints", (1, 1, sh, sw)), "input_names": ("strings", ("x",))}
    return r.node("MaxPool", [r.tensor(x, "max_pool2d")], ((n, c, oh, ow), dtype), prim_type=1, attrs=attrs,
                  instance_name="max_pool")


def _batch_norm(r: _Recorder, x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
                eps=1e-5):
    if training:
        raise MindIRExportError("export(MINDIR): BatchNorm must be in eval mode (export sets it; a Cell that "
                                "forces training=True cannot be exported).")
    shape, dtype = _abstract(x)
    c = (int(shape[1]),)
    inputs = [r.tensor(v, "batch_norm") for v in (x, weight, bias, running_mean, running_var)]
    inputs += [r.constant(False, ATTR["BOOL"]), r.constant(float(eps), ATTR["FLOAT"]),
               r.constant(float(momentum), ATTR["FLOAT"]), r.constant(0, ATTR["INT64"])]
    t = r.node("BatchNorm", inputs, ((shape, dtype),) + ((c, np.dtype("float32")),) * 4, instance_name="bn_infer")
    # The op gives the normalised input and the running statistics, which eval mode leaves as they were.
    return _get_item(r, t, 0), inputs[3], inputs[4]


def _get_item(r: _Recorder, t: _Value, i: int) -> _Value:
    return r.node("TupleGetItem", [t, r.constant(i, ATTR["INT64"])], t.abstract[i], prim_type=1)


def _layer_norm(r: _Recorder, x, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape, dtype = _abstract(x)
    if weight is None or bias is None:
        raise MindIRExportError("export(MINDIR): layer_norm without weight and bias has no MindIR LayerNorm form.")
    axis = len(shape) - len(tuple(normalized_shape) if isinstance(normalized_shape, (tuple, list)) else (1,))
    stat = (shape[:axis] + (1,) * (len(shape) - axis), dtype)
    inputs = [r.tensor(v, "layer_norm") for v in (x, weight, bias)]
    inputs += [r.constant(axis - len(shape), ATTR["INT64"]), r.constant(axis - len(shape), ATTR["INT64"]),
               r.constant(float(eps), ATTR["FLOAT"])]
    return _get_item(r, r.node("LayerNorm", inputs, ((shape, dtype), stat, stat)), 0)


def _softmax(r: _Recorder, x, axis=-1, *, dtype=None):
    return r.node("Softmax", [r.tensor(x, "softmax"), r.constant((int(axis),), ATTR["TUPLE"])], _abstract(x))


def _reshape(r: _Recorder, x, shape):
    shape_in, dtype = _abstract(x)
    target = tuple(int(s) for s in shape)
    if -1 in target:
        known = int(np.prod([s for s in target if s != -1]))
        target = tuple(int(np.prod(shape_in)) // known if s == -1 else s for s in target)
    return _reshape_value(r, r.tensor(x, "reshape"), target, dtype)


def _flatten(r: _Recorder, x, order="C", *, start_dim=1, end_dim=-1):
    shape, dtype = _abstract(x)
    nd = len(shape)
    s, e = start_dim % nd, end_dim % nd
    target = shape[:s] + (int(np.prod(shape[s:e + 1])),) + shape[e + 1:]
    if s == 1 and e == nd - 1:
        return r.node("Flatten", [r.tensor(x, "flatten")], (target, dtype))
    return _reshape_value(r, r.tensor(x, "flatten"), target, dtype)


def _transpose(r: _Recorder, x, dims):
    shape, dtype = _abstract(x)
    perm = tuple(int(d) % len(shape) for d in dims)
    return r.node("Transpose", [r.tensor(x, "transpose"), r.constant(perm, ATTR["TUPLE"])],
                  (tuple(shape[p] for p in perm), dtype))


def _mean(r: _Recorder, x, axis=None, keep_dims=False):
    shape, dtype = _abstract(x)
    axes = tuple(range(len(shape))) if axis is None or axis == () else \
        tuple(int(a) % len(shape) for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    out = tuple(1 if i in axes else s for i, s in enumerate(shape)) if keep_dims else \
        tuple(s for i, s in enumerate(shape) if i not in axes)
    return r.node("ReduceMean", [r.tensor(x, "mean"), r.constant(axes, ATTR["TUPLE"]),
                                 r.constant(bool(keep_dims), ATTR["BOOL"])], (out, dtype))


def _matmul(r: _Recorder, a, b):
    a, b = _arr(a), _arr(b)
    shape = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2])) + (int(a.shape[-2]), int(b.shape[-1])) \
        if len(a.shape) > 1 and len(b.shape) > 1 else None
    if shape is None:
        raise MindIRExportError("export(MINDIR): matmul of vectors is not supported; use 2-D operands.")
    return r.node("MatMulExt", [r.tensor(a, "matmul"), r.tensor(b, "matmul")], (shape, np.dtype(a.dtype)))


def _split(r: _Recorder, x, split_size_or_sections, axis=0):
    shape, dtype = _abstract(x)
    axis = int(axis) % len(shape)
    if isinstance(split_size_or_sections, (int, np.integer)):
        size = int(split_size_or_sections)
        parts = shape[axis] // size if size and shape[axis] % size == 0 else 0
    else:
        sizes = [int(v) for v in split_size_or_sections]
        parts = len(sizes) if len(set(sizes)) == 1 else 0
        size = sizes[0] if sizes else 0
    if not parts:
        raise MindIRExportError("export(MINDIR): split into unequal parts has no MindIR Split form.")
    part = (shape[:axis] + (size,) + shape[axis + 1:], dtype)
    t = r.node("Split", [r.tensor(x, "split"), r.constant(axis, ATTR["INT64"]), r.constant(parts, ATTR["INT64"])],
               (part,) * parts)
    return tuple(_get_item(r, t, i) for i in range(parts))


_EMITTERS: dict[str, Callable[..., Any]] = {
    "conv2d": _conv2d, "dense": _dense, "relu": _relu, "max_pool2d": _max_pool2d, "batch_norm": _batch_norm,
    "layer_norm": _layer_norm, "softmax": _softmax, "reshape": _reshape, "flatten": _flatten,
    "transpose": _transpose, "mean": _mean, "matmul": _matmul, "split": _split, "bias_add": lambda r, x, b: _bias_add(
        r, r.tensor(x, "bias_add"), b),
    "add": _binary("Add"), "sub": _binary("Sub"), "mul": _binary("Mul"), "div": _binary("Div"),
    "sigmoid": _unary("Sigmoid"), "tanh": _unary("Tanh"), "gelu": _gelu,
}
EXPORTABLE_OPS = frozenset(_EMITTERS)


# --- serialization --------------------------------------------------------------------------------------------

def _set_attr(a: Any, name: str, spec: tuple[str, Any]) -> None:
    kind, value = spec
    a.name = name
    if kind == "int":
        a.type, a.i = ATTR["INT64"], int(value)
    elif kind == "str":
        a.type, a.s = ATTR["STRING"], value.encode()
    elif kind == "ints":
        a.type = ATTR["TUPLE"]
        for v in value:
            a.values.add(type=ATTR["INT64"], ints=[int(v)])
    elif kind == "strings":
        a.type = ATTR["LIST"]
        for v in value:
            a.values.add(type=ATTR["STRING"], strings=[v.encode()])


def _set_tensor(t: Any, shape: tuple[int, ...], dtype: np.dtype) -> None:
    t.dims.extend(int(d) for d in shape)
    t.data_type = _DTYPE_OF[np.dtype(dtype)]


def _set_abstract(a: Any, abstract: Any) -> None:
    a.name = "shape"
    if abstract is None:
        a.type = ATTR["UMONAD"]
    elif not isinstance(abstract[1], np.dtype):
        a.type = ATTR["TUPLE"]
        for item in abstract:
            v = a.values.add(type=ATTR["TENSORS"])
            _set_tensor(v.tensors.add(), *item)
    else:
        a.type = ATTR["TENSORS"]
        _set_tensor(a.tensors.add(), *abstract)


def _set_constant(a: Any, value: Any, kind: int) -> None:
    a.name, a.type = "value", kind
    if kind == ATTR["BOOL"] or kind == ATTR["INT64"]:
        a.i = int(value)
    elif kind == ATTR["FLOAT"]:
        a.f = float(value)
    elif kind == ATTR["TUPLE"]:
        for v in value:
            a.values.add(type=ATTR["INT64"], ints=[int(v)])
    elif kind == ATTR["TENSORS"]:
        t = a.tensors.add(name="value0")
        _set_tensor(t, value.shape, value.dtype)
        t.raw_data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes()


def _finish(r: _Recorder, output: _Value, out_abstract: Any) -> _Value:
    """MindSpore orders parameter reads before the result: MakeTuple(loads) -> UpdateState -> Depend."""
    if not r.loads:
        return output
    loads = r.node("MakeTuple", list(r.loads.values()), tuple(v.abstract for v in r.loads.values()), prim_type=1)
    updated = r.node("UpdateState", [r.monad(), loads], None, prim_type=1)
    return r.node("Depend", [output, updated], out_abstract, prim_type=1)


def _model(r: _Recorder, params: list[tuple[str, np.ndarray]], inputs: list[tuple[str, Any]], output: _Value,
           out_abstract: Any) -> Any:
    final = _finish(r, output, out_abstract)
    m = ModelProto(ir_version="1.1", producer_name="MindSpore", model_version="2.10.0", little_endian=True,
                   mind_ir_version=3)
    g = m.graph
    g.name = r.graph
    g.attribute.add(name="training", type=ATTR["BOOL"], i=0)
    g.attribute.add(name="phase", type=ATTR["STRING"], s=b"export")
    used_params = set(r.loads)
    for name, value in params:
        if name not in used_params:
            continue
        t = g.parameter.add(name=f"{r.graph}:{name}", ref_key=name)
        _set_tensor(t, value.shape, value.dtype)
        t.raw_data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes()
    for name, (shape, dtype) in inputs:
        _set_tensor(g.input.add(name=name).tensor.add(), shape, dtype)
    nodes = r.load_nodes + r.nodes
    used = {name for spec in nodes for name in spec["inputs"]}
    for c in r.constants:
        if c["name"] in used:
            node = g.node.add(name=c["name"], op_type="Constant", output=[c["name"]])
            if c["kind"] == ATTR["UMONAD"]:
                node.attribute.add(name="value", type=ATTR["UMONAD"])
            else:
                _set_constant(node.attribute.add(), c["value"], c["kind"])
    for k, spec in enumerate(nodes):
        node = g.node.add(name=spec["output"], op_type=f"REF::{spec['op']}", input=spec["inputs"],
                          output=[spec["output"]], domain=f"Default/{spec['prim']}-op{k}")
        _set_abstract(node.attribute.add(), spec["abstract"])
        node.node_attr.add(name="checkpoint", type=ATTR["BOOL"], i=1)
    _set_tensor(g.output.add(name=final.name).tensor.add(), *out_abstract)
    for name, op_type, prim_type, instance, attrs in r._prim_specs:
        p = m.primitives.add(name=name, op_type=op_type, prim_type=prim_type, instance_name=instance)
        if op_type == "Depend":
            p.attribute.add(name="side_effect_propagate", type=ATTR["INT64"], i=1)
        for attr_name, spec in attrs.items():
            _set_attr(p.attribute.add(), attr_name, spec)
    return m


def export_mindir(net: Any, inputs: tuple[Any, ...], path: str) -> str:
    """Write ``net``'s eval-mode forward pass for ``inputs`` (static shapes, as MindSpore's) as MindIR."""
    arrays = [np.asarray(to_array(x)) for x in inputs]
    params = [(p.name, np.asarray(p._value)) for p in net.get_parameters()]
    graph_name = f"{type(net).__name__}_construct"
    input_names = [f"{graph_name}:x{i}" if len(arrays) > 1 else f"{graph_name}:x" for i in range(len(arrays))]
    was_training = net.training
    net.set_train(False)
    captured: dict[str, Any] = {}

    def forward(*xs):
        state = tuple(jax.numpy.asarray(v) for _, v in params)
        recorder = _Recorder(graph_name, {id(a): (n, v) for (n, v), a in zip(params, state)},
                             {id(x): name for x, name in zip(xs, input_names)})
        previous = _state.trace.op_observer
        _state.trace.op_observer = recorder
        try:
            with _scope.StatelessScope(tuple(net.get_parameters()), state,
                                       rng=jax.random.key_data(jax.random.key(0))):
                out = net._run(*[wrap(x) for x in xs])
        finally:
            _state.trace.op_observer = previous
        if not isinstance(out, Tensor):
            raise MindIRExportError(f"export(MINDIR): {type(net).__name__} must return one Tensor, "
                                    f"got {type(out).__name__}.")
        captured["recorder"], captured["output"] = recorder, recorder.tensor(out, "output")
        captured["abstract"] = _abstract(out._value)
        return out._value

    try:
        expected = np.asarray(jax.jit(forward)(*arrays))
    finally:
        net.set_train(was_training)
    r = captured["recorder"]
    model = _model(r, params, [(n, _abstract(a)) for n, a in zip(input_names, arrays)], captured["output"],
                   captured["abstract"])
    got = MindIRGraph(model, path)(*arrays)
    if not np.allclose(np.asarray(got.asnumpy()), expected, rtol=1e-4, atol=1e-5):
        raise MindIRExportError(f"export(MINDIR): the MindIR graph of {type(net).__name__} does not reproduce the "
                                f"network's output (max difference "
                                f"{np.abs(np.asarray(got.asnumpy()) - expected).max():.3g}); not written.")
    with atomic_open(os.fspath(path)) as f:
        f.write(model.SerializeToString())
    return os.fspath(path)
