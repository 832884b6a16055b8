"""The XLA compiler options every compiled step gets (single-device and sharded alike)."""
import os
from typing import Any

import jax
import numpy as np

__all__ = ["compiler_options"]

# XLA:CPU hands convolutions to YNNPACK by default; for small-channel convolutions (LeNet) YNNPACK's weight
# gradient is 3-4x slower than XLA's own emitter, so compiled steps keep YNNPACK for products and reductions only
# (LeNet5 train step 1.26x faster at batch 256, ResNet50 unchanged; docs/performance.md). A user's XLA_FLAGS
# setting of the option wins; a jaxlib that does not know the option gets none.
_CPU_OPTIONS = {"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_REDUCE"}
_options: list[dict[str, Any] | None] = []


def compiler_options() -> dict[str, Any] | None:
    """The XLA compiler options of every compiled step (None off CPU)."""
    if not _options:
        opts = None
        if jax.default_backend() == "cpu" and not any(k in os.environ.get("XLA_FLAGS", "") for k in _CPU_OPTIONS):
            try:
                jax.jit(lambda a: a + 1, compiler_options=_CPU_OPTIONS).lower(np.float32(0)).compile()
                opts = dict(_CPU_OPTIONS)
            except Exception:  # an XLA that does not know the option: default compilation
                opts = None
        _options.append(opts)
    return _options[0]
