"""Run a MindIR file that real MindSpore exported: its graph interpreted with mindspore_hl's ops, compiled once.

A MindIR graph is a list of nodes in execution order. Each node names a primitive (``REF::Conv2D:4`` refers to
the primitive ``Conv2D:4`` of the model's table, which holds its attributes) and its inputs: graph inputs,
parameters, constants (``Constant`` nodes) or earlier nodes. Primitives of kind PRIMITIVE keep their arguments as
attributes; those of kind PRIMITIVE_FUNCTION (MindSpore 2.x's generated ops) take them as constant inputs after
the tensors. Side-effect bookkeeping (``Load``, ``UpdateState``, ``Depend`` and the monads) only orders reads of
parameters, so it is resolved to the values it carries.

Each primitive maps to the functional op that implements it (``mindspore_hl.ops``); a primitive with no mapping
raises an error naming it and the node, with the Cell scope MindSpore recorded for it.
"""
from __future__ import annotations

import os
from typing import Any, Callable

import jax
import ml_dtypes
import numpy as np

from .. import ops
from ..common.tensor import Tensor, to_array, wrap
from ._mindir_proto import ATTR, DTYPE, ModelProto

__all__ = ["MindIRGraph", "MindIRError", "read_mindir", "SUPPORTED_PRIMITIVES"]

_NP_DTYPE = {
    DTYPE["FLOAT"]: np.dtype("<f4"), DTYPE["UINT8"]: np.dtype("u1"), DTYPE["INT8"]: np.dtype("i1"),
    DTYPE["UINT16"]: np.dtype("<u2"), DTYPE["INT16"]: np.dtype("<i2"), DTYPE["INT32"]: np.dtype("<i4"),
    DTYPE["INT64"]: np.dtype("<i8"), DTYPE["BOOL"]: np.dtype("?"), DTYPE["FLOAT16"]: np.dtype("<f2"),
    DTYPE["DOUBLE"]: np.dtype("<f8"), DTYPE["UINT32"]: np.dtype("<u4"), DTYPE["UINT64"]: np.dtype("<u8"),
    DTYPE["BFLOAT16"]: np.dtype(ml_dtypes.bfloat16), DTYPE["FLOAT64"]: np.dtype("<f8"),
}


class MindIRError(ValueError):
    """A MindIR file that cannot be read or run; the message names the file and, where it applies, the node."""


class _Monad:
    """The state token MindSpore threads through side effects; it carries no value."""


_MONAD = _Monad()


def tensor_to_numpy(t: Any, where: str) -> np.ndarray:
    """A TensorProto's contents as a NumPy array of its shape and dtype."""
    if t.data_type not in _NP_DTYPE:
        raise MindIRError(f"{where}: tensor data type {t.data_type} is not supported.")
    dtype = _NP_DTYPE[t.data_type]
    shape = tuple(int(d) for d in t.dims)
    if t.HasField("external_data"):
        raise MindIRError(f"{where}: the tensor is stored in an external file ({t.external_data.location}); "
                          f"MindIR files with external weights are not supported.")
    if t.raw_data:
        data = np.frombuffer(t.raw_data, dtype=dtype)
    elif t.float_data:
        data = np.asarray(t.float_data, dtype=dtype)
    elif t.int64_data:
        data = np.asarray(t.int64_data, dtype=dtype)
    elif t.int32_data:
        data = np.asarray(t.int32_data, dtype=dtype)
    elif t.double_data:
        data = np.asarray(t.double_data, dtype=dtype)
    else:
        data = np.zeros(0, dtype)
    expected = int(np.prod(shape)) if shape else 1
    if data.size != expected:
        raise MindIRError(f"{where}: the tensor declares shape {shape} ({expected} elements) but holds "
                          f"{data.size}.")
    return data.reshape(shape)


def attr_value(a: Any, where: str) -> Any:
    """The Python value of an AttributeProto (a constant or a primitive's attribute)."""
    kind = a.type
    if kind in (ATTR["INT8"], ATTR["INT16"], ATTR["INT32"], ATTR["INT64"], ATTR["UINT8"], ATTR["UINT16"],
                ATTR["UINT32"], ATTR["UINT64"]):
        return int(a.ints[0]) if a.ints else int(a.i)
    if kind == ATTR["BOOL"]:
        return bool(a.ints[0]) if a.ints else bool(a.i)
    if kind in (ATTR["FLOAT"], ATTR["FLOAT16"], ATTR["BFLOAT16"]):
        return float(a.floats[0]) if a.floats else float(a.f)
    if kind == ATTR["DOUBLE"]:
        return float(a.doubles[0]) if a.doubles else float(a.d)
    if kind == ATTR["STRING"]:
        return (a.strings[0] if a.strings else a.s).decode()
    if kind in (ATTR["TUPLE"], ATTR["LIST"]):
        return tuple(attr_value(v, where) for v in a.values)
    if kind == ATTR["NONE"]:
        return None
    if kind in (ATTR["UMONAD"], ATTR["IOMONAD"]):
        return _MONAD
    if kind == ATTR["TENSOR"]:
        return tensor_to_numpy(a.t, where)
    if kind == ATTR["TENSORS"] and len(a.tensors) == 1:
        return tensor_to_numpy(a.tensors[0], where)
    raise MindIRError(f"{where}: constants of attribute type {kind} are not supported.")


# --- the primitives: MindSpore's name -> f(inputs, attrs) over Tensors ------------------------------------------

def _pair(v: Any) -> tuple[int, int]:
    """The spatial (H, W) part of MindSpore's 2- or 4-element kernel/stride/dilation attributes."""
    v = tuple(v) if isinstance(v, (tuple, list)) else (v, v)
    return (int(v[-2]), int(v[-1]))


def _conv2d(x, w, attrs):
    if attrs.get("format", "NCHW") != "NCHW":
        raise NotImplementedError("Conv2D with format NHWC")
    top, bottom, left, right = attrs.get("pad_list", (0, 0, 0, 0))
    return ops.conv2d(x, w, None, _pair(attrs["stride"]), "pad", (top, bottom, left, right),
                      _pair(attrs.get("dilation", 1)), int(attrs.get("group", 1)))


def _pool(fn):
    def run(x, attrs):
        if attrs.get("format", "NCHW") != "NCHW":
            raise NotImplementedError("pooling with format NHWC")
        return fn(x, _pair(attrs["kernel_size"]), _pair(attrs["strides"]), pad_mode=attrs["pad_mode"].lower())
    return run


def _matmul(a, b, transpose_a=False, transpose_b=False):
    return ops.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _batch_norm(x, scale, bias, mean, variance, is_training=False, epsilon=1e-5, momentum=0.1, data_format=0):
    y = ops.batch_norm(x, mean, variance, scale, bias, bool(is_training), momentum, epsilon)
    return (y, mean, variance, mean, variance)


def _layer_norm(x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    axis = begin_norm_axis % x.ndim
    y = ops.layer_norm(x, tuple(x.shape[axis:]), gamma, beta, epsilon)
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keep_dims=True)
    rstd = ops.rsqrt(((x - mean) ** 2).mean(axis=axes, keep_dims=True) + epsilon)
    return (y, mean, rstd)


def _split(x, axis=0, output_num=1):
    return tuple(ops.split(x, x.shape[axis] // output_num, axis))


def _softmax(x, axis=(-1,)):
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    return ops.softmax(x, axis[0])


def _reduce(fn):
    def run(x, axis=(), keep_dims=False):
        axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        return fn(x, axis or None, keep_dims)
    return run


#: primitive name -> (function of the node's inputs, whether it also takes the primitive's attributes).
_PRIMITIVES: dict[str, tuple[Callable[..., Any], bool]] = {
    "Conv2D": (_conv2d, True),
    "MaxPool": (_pool(ops.max_pool2d), True),
    "AvgPool": (_pool(ops.avg_pool2d), True),
    "BatchNorm": (_batch_norm, False),
    "LayerNorm": (_layer_norm, False),
    "MatMul": (_matmul, False),
    "MatMulExt": (lambda a, b: ops.matmul(a, b), False),
    "BatchMatMul": (_matmul, False),
    "BiasAdd": (lambda x, b, data_format=0: ops.bias_add(x, b), False),  # type: ignore[attr-defined]
    "ReLU": (ops.relu, False),
    "Sigmoid": (ops.sigmoid, False),
    "Tanh": (ops.tanh, False),
    "GeLU": (lambda x: ops.gelu(x, "tanh"), False),
    "Softmax": (_softmax, False),
    "Add": (ops.add, False),
    "Sub": (ops.sub, False),
    "Mul": (ops.mul, False),
    "Div": (ops.div, False),
    "RealDiv": (ops.div, False),
    "Sqrt": (ops.sqrt, False),
    "Exp": (ops.exp, False),
    "Erf": (ops.erf, False),
    "Neg": (ops.neg, False),
    "Pow": (ops.pow, False),
    "ReduceMean": (_reduce(ops.mean), False),
    "ReduceSum": (_reduce(ops.sum), False),
    "Flatten": (lambda x: ops.reshape(x, (x.shape[0], -1)), False),
    "Reshape": (lambda x, shape: ops.reshape(x, tuple(shape)), False),
    "Transpose": (lambda x, perm: ops.transpose(x, tuple(perm)), False),
    "ExpandDims": (lambda x, axis: ops.expand_dims(x, axis), False),
    "Squeeze": (lambda x, axis=(): ops.squeeze(x, tuple(axis) or None), False),
    "Split": (_split, False),
    "Concat": (lambda xs, axis=0: ops.concat(tuple(xs), axis), False),
}
SUPPORTED_PRIMITIVES = frozenset(_PRIMITIVES) | {"Load", "UpdateState", "Depend", "MakeTuple", "TupleGetItem"}


class MindIRGraph:
    """A MindIR forward graph, called with input Tensors (directly or through ``nn.GraphCell``).

    The graph is compiled with ``jax.jit`` on its first call: the parameters are the exported values, the inputs
    must have the exported shapes and dtypes.
    """

    def __init__(self, model: Any, path: str) -> None:
        self.path = path
        self.model = model
        graph = model.graph
        self.name = graph.name
        prefix = graph.name + ":"
        self._primitives = {p.name: p for p in model.primitives}
        self._params = {}
        for t in graph.parameter:
            self._params[t.name] = tensor_to_numpy(t, f"{path}: parameter {t.name}")
        self.parameter_names = [n[len(prefix):] if n.startswith(prefix) else n for n in self._params]
        self._inputs = [(v.name, tuple(int(d) for d in v.tensor[0].dims), _NP_DTYPE.get(v.tensor[0].data_type))
                        for v in graph.input]
        self._outputs = [v.name for v in graph.output]
        self._nodes = list(graph.node)
        self._check_primitives()
        self._compiled = jax.jit(self._run)

    @property
    def input_shapes(self) -> list[tuple[int, ...]]:
        return [shape for _, shape, _ in self._inputs]

    def parameters_dict(self) -> dict[str, np.ndarray]:
        """The embedded parameter values by their network names (``conv1.weight``)."""
        return dict(zip(self.parameter_names, self._params.values()))

    def _where(self, node: Any) -> str:
        scope = f" ({node.domain})" if node.domain else ""
        return f"{self.path}: node {node.name}{scope}"

    def _primitive_of(self, node: Any) -> Any:
        ref = node.op_type[len("REF::"):] if node.op_type.startswith("REF::") else None
        if ref is None or ref not in self._primitives:
            raise MindIRError(f"{self._where(node)}: operation {node.op_type!r} is not supported (only primitive "
                              f"calls are; control flow in sub-graphs is not).")
        return self._primitives[ref]

    def _check_primitives(self) -> None:
        for node in self._nodes:
            if node.op_type == "Constant":
                continue
            prim = self._primitive_of(node)
            if prim.op_type not in SUPPORTED_PRIMITIVES:
                supported = ", ".join(sorted(SUPPORTED_PRIMITIVES))
                raise MindIRError(f"{self._where(node)}: MindSpore primitive {prim.op_type!r} is not supported by "
                                  f"mindspore_hl's MindIR reader (supported: {supported}).")

    def _run(self, params: dict[str, Any], *inputs: Any) -> Any:
        env: dict[str, Any] = {name: wrap(v) for name, v in params.items()}
        for (name, _, _), x in zip(self._inputs, inputs):
            env[name] = wrap(x)
        for node in self._nodes:
            where = self._where(node)
            if node.op_type == "Constant":
                env[node.output[0]] = attr_value(node.attribute[0], where)
                continue
            prim = self._primitive_of(node)
            args = [env[i] for i in node.input]
            env[node.output[0]] = self._apply(prim, args, where)
        outs = [env[name] for name in self._outputs]
        return tuple(_unwrap(o) for o in outs)

    def _apply(self, prim: Any, args: list[Any], where: str) -> Any:
        kind = prim.op_type
        if kind in ("Load", "Depend"):
            return args[0]
        if kind == "UpdateState":
            return _MONAD
        if kind == "MakeTuple":
            return tuple(args)
        if kind == "TupleGetItem":
            return args[0][int(args[1])]
        fn, takes_attrs = _PRIMITIVES[kind]
        args = [a for a in args if a is not _MONAD]
        try:
            if takes_attrs:
                attrs = {a.name: attr_value(a, where) for a in prim.attribute}
                return fn(*args, attrs)
            return fn(*args)
        except (TypeError, ValueError, NotImplementedError, KeyError) as e:
            raise MindIRError(f"{where}: MindSpore primitive {kind} could not run: {e}") from None

    def __call__(self, *inputs: Any) -> Any:
        if len(inputs) != len(self._inputs):
            raise ValueError(f"{self.path}: the graph takes {len(self._inputs)} input(s), but got {len(inputs)}.")
        arrays = []
        for i, (x, (_name, shape, dtype)) in enumerate(zip(inputs, self._inputs)):
            a = to_array(x)
            if len(a.shape) != len(shape) or any(s not in (-1, d) for s, d in zip(shape, a.shape)):
                raise ValueError(f"{self.path}: input {i} must have shape {shape} (as exported), but got "
                                 f"{tuple(a.shape)}.")
            arrays.append(a.astype(dtype) if dtype is not None else a)
        outs = self._compiled(self._params, *arrays)
        results = tuple(wrap(o) for o in outs)
        return results[0] if len(results) == 1 else results


def _unwrap(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, tuple):
        return tuple(_unwrap(v) for v in value)
    return value


def read_mindir(path: str | os.PathLike[str]) -> MindIRGraph:
    """Parse a MindIR file; raises MindIRError naming the file when it is not one or uses unsupported parts."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except Exception as e:  # protobuf's DecodeError, and RuntimeError from the C++ parser on some inputs
        raise MindIRError(f"{path} is not a MindIR file (its protobuf does not parse: {e}).") from None
    if not model.HasField("graph") or not model.graph.node:
        raise MindIRError(f"{path} is not a MindIR file (it has no graph).")
    return MindIRGraph(model, path)
