"""MindSpore-style module paths, registered in one place (``mindspore.context``, ``mindspore.ops.operations`` ...).

Each alias is a real module object holding the same classes and functions as its modern home, so
``from mindspore_hl.ops import operations as P`` gives ``P.Mul is ops.Mul``.
"""
import functools
import importlib
import sys
import types

_PKG = __name__.rsplit(".", 1)[0]


def _alias(name, target, attrs=None):
    """Make ``mindspore_hl.<name>`` importable as ``target`` (a module path or a namespace of attrs)."""
    full = f"{_PKG}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    if attrs is None:
        mod = importlib.import_module(f"{_PKG}.{target}")
    else:
        mod = types.ModuleType(full, f"Compatibility alias: MindSpore's {name.replace('_', '.')} ({target}).")
        for k, v in attrs.items():
            setattr(mod, k, v)
        mod.__all__ = sorted(k for k in attrs if not k.startswith("_"))
    sys.modules[full] = mod
    parent_name, _, child = full.rpartition(".")
    setattr(sys.modules[parent_name], child, mod)
    return mod


def _names(module_name):
    mod = importlib.import_module(f"{_PKG}.{module_name}")
    return {k: getattr(mod, k) for k in mod.__all__}


def _ops_namespaces():
    from . import ops
    from .common import dtype as mstype
    from .common.tensor import Tensor, to_array

    prims = {**_names("ops._primitives"), **_names("ops._primitives_nn"), **_names("ops._primitives_misc")}
    functional = {k: getattr(ops, k) for k in ops.__all__ if k not in prims}

    def _dtype(x):
        return x.dtype if isinstance(x, Tensor) else mstype.from_numpy(to_array(x).dtype)

    functional.update({
        "tensor_add": ops.add, "tensor_sub": ops.sub, "tensor_mul": ops.mul, "tensor_div": ops.div,
        "tensor_pow": ops.pow, "tensor_floordiv": ops.floor_div, "tensor_mod": ops.floor_mod,
        "tensor_gt": ops.gt, "tensor_ge": ops.ge, "tensor_lt": ops.lt, "tensor_le": ops.le,
        "partial": functools.partial, "dtype": _dtype, "typeof": _dtype, "identity": ops.identity,
        "scalar_to_tensor": lambda x, dtype=mstype.float32: Tensor(x, dtype),
        "tuple_to_array": lambda x: Tensor(x), "scalar_cast": lambda x, t: mstype.dtype_to_pytype(t)(x),
        "reduce_sum": lambda x, axis=(), keep_dims=False: ops.sum(x, axis, keep_dims),
        "reduce_mean": ops.mean,
    })
    composite = {"GradOperation": ops.GradOperation, "MultitypeFuncGraph": ops.MultitypeFuncGraph,
                 "HyperMap": ops.HyperMap, "Map": ops.Map, "clip_by_value": ops.clip_by_value,
                 "clip_by_global_norm": ops.clip_by_global_norm, "grad": ops.grad,
                 "value_and_grad": ops.value_and_grad, "vjp": ops.vjp, "jvp": ops.jvp, "vmap": ops.vmap,
                 "partial": functools.partial}
    return prims, functional, composite


_prims, _functional, _composite = _ops_namespaces()
_alias("ops.operations", "ops._primitives", _prims)
_alias("ops.functional", "ops (functional)", _functional)
_alias("ops.function", "ops (functional)", _functional)
_alias("ops.composite", "ops._composite", _composite)
_alias("ops.primitive", "ops._primitives", {k: _prims[k] for k in ("Primitive", "PrimitiveWithInfer",
                                                                   "PrimitiveWithCheck", "prim_attr_register",
                                                                   "constexpr")})
_alias("common.dtype", "common.dtype")
_alias("common.initializer", "common.initializer")
_alias("common.api", "_jit", {"jit": importlib.import_module(f"{_PKG}._jit").jit,
                              "jit_class": importlib.import_module(f"{_PKG}._jit").jit_class})
_alias("context", "context")
_alias("nn.metrics", "metrics")


def _context_parallel_names():
    """ModelZoo writes ``from mindspore.context import ParallelMode, set_auto_parallel_context``."""
    ctx = sys.modules[f"{_PKG}.context"]
    par = importlib.import_module(f"{_PKG}.parallel")
    for name in ("ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
                 "reset_auto_parallel_context"):
        setattr(ctx, name, getattr(par, name))


_context_parallel_names()
