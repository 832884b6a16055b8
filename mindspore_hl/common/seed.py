"""Global seed (``ms.set_seed`` / ``ms.get_seed``) and the eager random key stream.

The values live in ``mindspore_hl._engine._state.rng`` (reset by ``_state.reset()``).
"""
import secrets
from typing import Any

import jax
import numpy as np

from .._engine import _scope, _state

_rng = _state.rng


def set_seed(seed: int) -> None:
    """Seed initializers, random ops, Dropout and (by default) datasets. Args: seed (int >= 0)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, but got {seed!r}")
    _rng.seed = int(seed)
    _rng.key = _raw_key(_rng.seed)
    _rng.np_rng = np.random.default_rng(_rng.seed)


def _raw_key(seed: int) -> jax.Array:
    """``jax.random.key_data(jax.random.key(seed))``, computed on the host for the default threefry generator.

    Its key is the seed's two 32-bit words; building it here spares every fresh process two small compilations
    (JAX's seeding function and the staging of the seed).
    """
    # jax.config defines its flags as attributes at runtime, so the type checker cannot see them.
    if jax.config.jax_default_prng_impl != "threefry2x32" or not 0 <= seed < 2 ** 63:  # type: ignore[attr-defined]
        return jax.random.key_data(jax.random.key(seed))
    return jax.device_put(np.array([(seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF], np.uint32))


def get_seed() -> int | None:
    """The seed given to ``set_seed``, or None."""
    return _rng.seed


def numpy_rng() -> np.random.Generator:
    """The host-side generator used by initializers (seeded by ``set_seed``)."""
    if _rng.np_rng is None:
        _rng.np_rng = np.random.default_rng()
    return _rng.np_rng


def global_key() -> jax.Array:
    """The raw uint32 key data that compiled steps thread as state."""
    if _rng.key is None:
        _rng.key = _raw_key(secrets.randbits(31))
    return _rng.key


def seed_from_generator(generator: Any, caller: str) -> int | None:
    """A seed drawn from a ``mindspore.Generator`` (advancing it), so that its state decides the samples of a
    random op that takes ``seed=``; None (the global random stream) when ``generator`` is None.

    ``caller`` names the function for the error message (``'mint.rand'``). The seed is never 0, which some
    random ops read as "no seed".
    """
    if generator is None:
        return None
    if not callable(getattr(generator, "next_key", None)):
        raise TypeError(f"For '{caller}', 'generator' must be a mindspore.Generator, but got "
                        f"{type(generator).__name__}.")
    hi, lo = (int(w) for w in np.asarray(generator.next_key()))
    return ((hi << 32) | lo) % 2 ** 63 or 1


def set_global_key(key: jax.Array) -> None:
    _rng.key = key


def next_key() -> jax.Array:
    """A fresh raw PRNG key: from the active scope when tracing, else from the eager stream."""
    scope = _scope.current()
    if scope is not None:
        k = scope.next_key()
        if k is not None:
            return k
    new, sub = jax.random.split(global_key())
    if isinstance(new, jax.core.Tracer):  # traced by a foreign jax.jit: never leak the tracer into global state
        return sub
    set_global_key(new)
    return sub
