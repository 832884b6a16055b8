"""``mgrid`` / ``ogrid``: dense and open mesh grids indexed with slices (``mnp.mgrid[0:3, 0:2]``)."""
import jax.numpy as jnp

from ._base import wrap

__all__ = ["mgrid", "ogrid"]


class _Grid:
    def __init__(self, sparse: bool) -> None:
        self._sparse = sparse
        self._grid = jnp.ogrid if sparse else jnp.mgrid

    def __getitem__(self, keys):
        out = self._grid[keys]

        def narrow(a):
            return (a.astype(jnp.float32) if a.dtype == jnp.float64 else
                    a.astype(jnp.int32) if a.dtype == jnp.int64 else a)

        if isinstance(out, list):   # ogrid: a list of open grids; mgrid: one stacked Tensor (as MindSpore)
            return [wrap(narrow(o)) for o in out] if self._sparse else wrap(narrow(jnp.stack(out)))
        return wrap(narrow(out))


mgrid = _Grid(False)
ogrid = _Grid(True)
