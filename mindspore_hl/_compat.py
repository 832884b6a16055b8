"""MindSpore's legacy module paths, in one table (``mindspore.train.callback``, ``mindspore.ops.operations`` ...).

Old scripts (ModelZoo, MindSpore 1.x tutorials) import modules that MindSpore 2.x moved or merged. Each path in
``LEGACY_PATHS`` is registered in ``sys.modules`` (and as an attribute of its parent package) when
``mindspore_hl`` is imported, so ``import``, ``from ... import`` and attribute access all work, and give the same
objects as the modern home: ``from mindspore_hl.ops import operations as P`` gives ``P.Mul is ops.Mul``.

A table entry is either the name of the module the legacy path stands for (the same module object is registered
under both names), or a function returning the names of a module that MindSpore assembles from several places
(``ops.operations``, ``ops.functional``): a namespace module holding exactly those names is registered.
"""
from __future__ import annotations

import functools
import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

from . import ops
from .common import dtype as mstype
from .common.tensor import Tensor, to_array

_PKG = __name__.rsplit(".", 1)[0]


def _names(module_name: str) -> dict[str, Any]:
    mod = importlib.import_module(f"{_PKG}.{module_name}")
    return {k: getattr(mod, k) for k in mod.__all__}


def _primitives() -> dict[str, Any]:
    """``mindspore.ops.operations`` (``P``): the Primitive classes."""
    return {**_names("ops._primitives"), **_names("ops._primitives_nn"), **_names("ops._primitives_misc")}


def _primitive_base() -> dict[str, Any]:
    """``mindspore.ops.primitive``: the bases and decorators for writing Primitives."""
    prims = _primitives()
    return {k: prims[k] for k in ("Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register",
                                  "constexpr")}


def _dtype(x: Any) -> mstype.Type:
    return x.dtype if isinstance(x, Tensor) else mstype.from_numpy(to_array(x).dtype)


def _functional() -> dict[str, Any]:
    """``mindspore.ops.functional`` (``F``): the functional ops, plus the 1.x names old scripts still call."""
    prims = _primitives()
    names = {k: getattr(ops, k) for k in ops.__all__ if k not in prims}
    names.update({
        "tensor_add": ops.add, "tensor_sub": ops.sub, "tensor_mul": ops.mul, "tensor_div": ops.div,
        "tensor_pow": ops.pow, "tensor_floordiv": ops.floor_div, "tensor_mod": ops.floor_mod,
        "tensor_gt": ops.gt, "tensor_ge": ops.ge, "tensor_lt": ops.lt, "tensor_le": ops.le,
        "partial": functools.partial, "dtype": _dtype, "typeof": _dtype, "identity": ops.identity,
        "scalar_to_tensor": lambda x, dtype=mstype.float32: Tensor(x, dtype),
        "tuple_to_array": lambda x: Tensor(x), "scalar_cast": lambda x, t: mstype.dtype_to_pytype(t)(x),
        "reduce_sum": lambda x, axis=(), keep_dims=False: ops.sum(x, axis, keep_dims),
        "reduce_mean": ops.mean,
    })
    return names


def _composite() -> dict[str, Any]:
    """``mindspore.ops.composite`` (``C``): gradient transformations and the multitype helpers."""
    return {"GradOperation": ops.GradOperation, "MultitypeFuncGraph": ops.MultitypeFuncGraph,
            "HyperMap": ops.HyperMap, "Map": ops.Map, "clip_by_value": ops.clip_by_value,
            "clip_by_global_norm": ops.clip_by_global_norm, "grad": ops.grad,
            "value_and_grad": ops.value_and_grad, "vjp": ops.vjp, "jvp": ops.jvp, "vmap": ops.vmap,
            "partial": functools.partial}


# legacy path -> the module it stands for, or a function giving its names (paths relative to mindspore_hl;
# an entry may name an earlier one).
LEGACY_PATHS: dict[str, str | Callable[[], dict[str, Any]]] = {
    # mindspore.train's 1.x submodules, merged into mindspore.train in 2.x
    "train.callback": "callbacks",
    "train.metrics": "metrics",
    "train.model": "model",
    "train.amp": "amp",
    "train.loss_scale_manager": "amp",
    "train.serialization": "serialization",
    "train.summary": "summary",
    "nn.metrics": "metrics",
    # the c_/py_transforms split of MindSpore 1.x datasets (one set of transforms in 2.x)
    "dataset.transforms.c_transforms": "dataset.transforms",
    "dataset.transforms.py_transforms": "dataset.transforms",
    "dataset.vision.c_transforms": "dataset.vision",
    "dataset.vision.py_transforms": "dataset.vision",
    "dataset.vision.utils": "dataset.vision._utils",
    # ops namespaces that MindSpore assembles from several modules
    "ops.operations": _primitives,
    "ops.functional": _functional,
    "ops.function": "ops.functional",
    "ops.composite": _composite,
    "ops.primitive": _primitive_base,
    "common.api": "_jit",
    "communication.management": "communication._management",
    # the parallel engine's parts under their former home (mindspore_hl.parallel)
    "parallel._context": "_engine._parallel_context",
    "parallel._layout": "_engine._layout",
    "parallel._plan": "_engine._plan",
    "parallel._auto": "_engine._auto",
}


def _install(path: str, target: str | Callable[[], dict[str, Any]]) -> None:
    full = f"{_PKG}.{path}"
    if isinstance(target, str):
        module = importlib.import_module(f"{_PKG}.{target}")
    else:
        names = target()
        module = types.ModuleType(full, f"MindSpore's ``{path}`` namespace: {target.__doc__}")
        module.__dict__.update(names)
        module.__dict__["__all__"] = sorted(k for k in names if not k.startswith("_"))
    sys.modules[full] = module
    parent, _, child = full.rpartition(".")
    setattr(importlib.import_module(parent), child, module)


for _path, _target in LEGACY_PATHS.items():
    _install(_path, _target)
