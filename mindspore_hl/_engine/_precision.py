"""Arithmetic precision of float32 matrix products and convolutions on GPUs (TF32 or full float32).

MindSpore's GPU defaults are PyTorch's: float32 matrix products run in full float32 and float32 convolutions may
use TF32 (``device_context.gpu.op_precision``). JAX's default lets both use TF32 on GPUs, which moves results
by about 1e-3 relative. So matrix products follow JAX's ``jax_default_matmul_precision`` setting, which this
module keeps at ``"highest"`` unless TF32 is allowed, and every convolution op passes :func:`conv_precision`
explicitly. The CPU computes float32 in full either way (its compiled programs differ only in these
annotations), so the settings change results on GPUs alone. The values live in ``_state.runtime`` and go back
to the defaults with every other setting; programs compiled before a change are recompiled.
"""
from __future__ import annotations

import jax
from jax import lax

from . import _state

__all__ = ["conv_precision", "set_matmul_allow_tf32", "set_conv_allow_tf32"]

_DEFAULTS = {"matmul_allow_tf32": False, "conv_allow_tf32": True}


def conv_precision() -> lax.Precision:
    """The precision convolution ops pass to XLA: TF32 allowed (``DEFAULT``) or full float32 (``HIGHEST``)."""
    allowed = _state.runtime.get("conv_allow_tf32", _DEFAULTS["conv_allow_tf32"])
    return lax.Precision.DEFAULT if allowed else lax.Precision.HIGHEST


def set_matmul_allow_tf32(value: bool) -> None:
    """Let float32 matrix products use TF32 (JAX's own default) or keep them in full float32."""
    _set("matmul_allow_tf32", value)


def set_conv_allow_tf32(value: bool) -> None:
    """Let float32 convolutions use TF32 or keep them in full float32."""
    _set("conv_allow_tf32", value)


def _set(key: str, value: bool) -> None:
    if _state.runtime.get(key, _DEFAULTS[key]) == value:
        return
    _state.runtime[key] = value
    _apply_matmul()
    for compiled in list(_state.compiled):  # their programs were traced under the old precision
        compiled.clear_cache()


def _apply_matmul() -> None:
    wanted = None if _state.runtime.get("matmul_allow_tf32", _DEFAULTS["matmul_allow_tf32"]) else "highest"
    if jax.config.jax_default_matmul_precision != wanted:  # type: ignore[attr-defined]
        jax.config.update("jax_default_matmul_precision", wanted)


@_state.on_reset
def _reset() -> None:
    _state.runtime.update(_DEFAULTS)
    _apply_matmul()  # (reset itself clears the compiled caches)


_reset()
