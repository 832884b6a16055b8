"""The built-in targets, declared as entry points in pyproject.toml like any plug-in."""
from ._registry import cpu_backend, gpu_backend

__all__ = ["cpu_backend", "gpu_backend"]
