"""Global seed (``ms.set_seed`` / ``ms.get_seed``) and the eager random key stream."""
import jax
import numpy as np

from . import _scope

_seed = None
_key = None
_np_rng = None


def set_seed(seed):
    """Seed initializers, random ops, Dropout and (by default) datasets. Args: seed (int >= 0)."""
    global _seed, _key, _np_rng
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, but got {seed!r}")
    _seed = int(seed)
    _key = jax.random.key_data(jax.random.key(_seed))
    _np_rng = np.random.default_rng(_seed)


def get_seed():
    """The seed given to ``set_seed``, or None."""
    return _seed


def numpy_rng():
    """The host-side generator used by initializers (seeded by ``set_seed``)."""
    global _np_rng
    if _np_rng is None:
        _np_rng = np.random.default_rng()
    return _np_rng


def global_key():
    """The raw uint32 key data that compiled steps thread as state."""
    global _key
    if _key is None:
        _key = jax.random.key_data(jax.random.key(np.random.SeedSequence().entropy % (2 ** 31)))
    return _key


def set_global_key(key):
    global _key
    _key = key


def next_key():
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
