"""Device backends: ``device_target`` names mapped to JAX platforms, extensible through entry points.

A package adds a target (e.g. 'Ascend') by declaring, in its own pyproject.toml::

    [project.entry-points."mindspore_hl.backends"]
    Ascend = "my_pkg.backend:ascend_backend"

where ``ascend_backend`` is a :class:`Backend` (or a zero-argument callable returning one).
"""
from ._registry import Backend, available_backends, get_backend, register_backend

__all__ = ["Backend", "available_backends", "get_backend", "register_backend"]
