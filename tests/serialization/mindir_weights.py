"""Seeded parameter values that depend only on (seed, parameter name, shape), computed with NumPy alone.

Both interpreters use it: ``tools/oracle/record_mindir.py`` (real MindSpore) gives its ResNet50 these values before
exporting it, and the tests rebuild the same values to fill the weights of the file real MindSpore wrote (which
is too large to commit; only its graph is) and to seed the network exported here. NumPy's ``Generator`` gives
the same stream in NumPy 1.26 and 2.x.
"""
from __future__ import annotations

import zlib

import numpy as np


def seeded_value(name: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """float32 values for parameter ``name``: weights with standard deviation 1/sqrt(fan-in) (so activations stay
    near 1 through deep networks), BatchNorm variances in [0.5, 1.5), gammas near 1, other vectors near 0."""
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    shape = tuple(int(s) for s in shape)
    if name.endswith("moving_variance"):
        value = rng.uniform(0.5, 1.5, shape)
    elif name.endswith("gamma"):
        value = rng.uniform(0.5, 1.0, shape)
    elif len(shape) > 1:
        value = rng.normal(0.0, 1.0 / np.sqrt(np.prod(shape[1:])), shape)
    else:
        value = rng.normal(0.0, 0.1, shape)
    return value.astype(np.float32)
