"""Device backends: ``device_target`` names mapped to JAX platforms, extensible through entry points.

A package adds a target (e.g. 'Ascend') by declaring, in its own pyproject.toml::

    [project.entry-points."mindspore_hl.backends"]
    Ascend = "my_pkg.backend:ascend_backend"

where ``ascend_backend`` is a :class:`Backend` (or a zero-argument callable returning one), e.g.
``Backend("Ascend", platform="npu", pjrt_plugin="my_pkg.pjrt", ops={"matmul": fast_matmul})``.
After installing a plug-in into a running interpreter, call :func:`refresh`.
"""
from ._registry import (
    ENTRY_POINT_GROUP,
    Backend,
    available_backends,
    backend_for_platform,
    get_backend,
    refresh,
    register_backend,
)

__all__ = ["Backend", "ENTRY_POINT_GROUP", "available_backends", "backend_for_platform", "get_backend", "refresh",
           "register_backend"]
