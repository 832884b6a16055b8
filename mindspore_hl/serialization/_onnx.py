"""``export(..., file_format="ONNX")``: the network's eval-mode forward pass as an ONNX model, through jax2onnx.

The forward pass is traced with the parameters as constants (ONNX initializers) and the first axis of every input
symbolic, so the model runs at any batch size (onnxruntime, or any ONNX runtime). jax2onnx is an optional
dependency: ``pip install "mindspore_hl[onnx]"``.
"""
from __future__ import annotations

import logging
from typing import Any

import jax.numpy as jnp
import numpy as np

from ..common.tensor import Tensor, to_array, wrap
from ._atomic import atomic_open

__all__ = ["export_onnx"]

# jax2onnx replaces ``jnp.shape`` while it converts (its version returns an array, for shapes computed in the
# graph); mindspore_hl's ops read static shapes with ``jnp.shape`` and compare them in Python, so the network runs
# with the original.
_JNP_SHAPE = jnp.shape


def _plain(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out._value
    if isinstance(out, (tuple, list)):
        return tuple(_plain(o) for o in out)
    return out


def export_onnx(net: Any, inputs: tuple[Any, ...], path: str) -> str:
    """Write ``net``'s forward pass for inputs like ``inputs`` (batch axis symbolic) to ``path``."""
    try:
        from jax2onnx import to_onnx  # optional: only ONNX export needs it
    except ImportError:
        raise ImportError("export(file_format='ONNX') needs jax2onnx: pip install \"mindspore_hl[onnx]\"") from None
    arrays = [np.asarray(to_array(x)) for x in inputs]
    specs = [("B",) + tuple(a.shape[1:]) for a in arrays]

    def forward(*xs):
        converting = jnp.shape
        jnp.shape = _JNP_SHAPE
        try:
            return _plain(net(*[wrap(x) for x in xs]))
        finally:
            jnp.shape = converting

    was_training = net.training
    net.set_train(False)
    # jax2onnx logs one warning per constant whose ONNX value type it infers later; they are not actionable.
    onnx_logger = logging.getLogger("onnx_ir.serde")
    level = onnx_logger.level
    onnx_logger.setLevel(logging.ERROR)
    try:
        model = to_onnx(forward, specs, model_name=type(net).__name__,
                        input_names=[f"input_{i}" for i in range(len(arrays))])
    finally:
        onnx_logger.setLevel(level)
        net.set_train(was_training)
    with atomic_open(path) as f:
        f.write(model.SerializeToString())
    return path
