"""The backend registry: the built-in targets plus the ``mindspore_hl.backends`` entry-point group."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from importlib import metadata
from typing import Any

import jax

ENTRY_POINT_GROUP = "mindspore_hl.backends"


@dataclasses.dataclass(frozen=True)
class Backend:
    """A device target.

    Args:
        name: the ``device_target`` users pass ('CPU', 'GPU', 'Ascend', ...).
        platform: the JAX/PJRT platform its devices come from ('cpu', 'gpu', or a PJRT plug-in's name).
        pjrt_plugin: optional module to import before looking for devices (registers the PJRT plug-in).
        ops: optional ``{op_name: array_function}`` replacing ops (by their ``@op`` name, e.g. 'matmul')
            while this target is selected, for kernels the platform implements better.
    """

    name: str
    platform: str
    pjrt_plugin: str | None = None
    ops: dict[str, Callable[..., Any]] | None = dataclasses.field(default=None, hash=False, compare=False)

    def devices(self) -> list[jax.Device]:
        """The JAX devices of this target (raises a clear error when the platform has none)."""
        if self.pjrt_plugin:
            __import__(self.pjrt_plugin)
        try:
            return jax.devices(self.platform)
        except RuntimeError as e:
            hint = ("For NVIDIA GPUs install JAX's CUDA build: pip install -U \"jax[cuda12]\"."
                    if self.platform in ("gpu", "cuda") else
                    f"Install the PJRT plug-in that provides the '{self.platform}' platform.")
            raise RuntimeError(f"device_target '{self.name}' is installed but JAX found no '{self.platform}' "
                               f"devices ({e}). {hint}") from None


cpu_backend = Backend("CPU", "cpu")
gpu_backend = Backend("GPU", "gpu")
_BUILTIN = (cpu_backend, gpu_backend)

_registered: dict[str, Backend | Exception] = {}
_loaded = False


def register_backend(backend: Backend) -> None:
    """Register a :class:`Backend` at run time (entry points do the same when first needed)."""
    if not isinstance(backend, Backend):
        raise TypeError(f"register_backend expects a Backend, but got {type(backend).__name__}.")
    _load_entry_points()
    _registered[backend.name.upper()] = backend


def refresh() -> None:
    """Forget the registered targets and scan the entry points again (e.g. after installing a plug-in)."""
    global _loaded
    _registered.clear()
    _loaded = False


def _load_entry_points() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for b in _BUILTIN:  # present even when the package runs from a source checkout without its metadata
        _registered[b.name.upper()] = b
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        key = ep.name.upper()
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, Backend):
                obj = obj()
        except Exception as e:  # a broken plug-in must not break the others
            _registered.setdefault(key, RuntimeError(f"plug-in {ep.value!r} failed to load: {e}"))
            continue
        if not isinstance(obj, Backend):
            _registered.setdefault(key, TypeError(f"plug-in {ep.value!r} did not give a Backend but "
                                                  f"{type(obj).__name__}"))
            continue
        _registered[obj.name.upper()] = obj


def available_backends() -> list[str]:
    """Names of the installed device targets."""
    _load_entry_points()
    return sorted(b.name for b in _registered.values() if isinstance(b, Backend))


def get_backend(name: str) -> Backend:
    """The Backend for ``name`` (case-insensitive), or a clear error listing what is installed."""
    _load_entry_points()
    if not isinstance(name, str):
        raise TypeError(f"device_target must be a str, but got {type(name).__name__} {name!r}.")
    found = _registered.get(name.upper())
    if isinstance(found, Backend):
        return found
    reason = f" ({found})" if isinstance(found, Exception) else ""
    raise ValueError(
        f"device_target '{name}' is not available{reason}. Installed targets: {available_backends()}. "
        f"To add one, install a package that registers a mindspore_hl.backends.Backend under the entry-point "
        f"group '{ENTRY_POINT_GROUP}' (see the mindspore_hl.backends docstring).")


def backend_for_platform(platform: str) -> Backend | None:
    """The first registered Backend whose JAX platform is ``platform`` (None if none)."""
    _load_entry_points()
    aliases = {"cuda": "gpu", "rocm": "gpu"}
    want = aliases.get(platform, platform)
    for b in _registered.values():
        if isinstance(b, Backend) and aliases.get(b.platform, b.platform) == want:
            return b
    return None
