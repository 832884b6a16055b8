"""The backend registry (built-ins plus the ``mindspore_hl.backends`` entry-point group)."""
import dataclasses
from importlib import metadata

import jax

ENTRY_POINT_GROUP = "mindspore_hl.backends"


@dataclasses.dataclass(frozen=True)
class Backend:
    """A device target.

    Args:
        name: the ``device_target`` users pass ('CPU', 'GPU', 'Ascend', ...).
        platform: the JAX/PJRT platform its devices come from ('cpu', 'gpu', or a PJRT plug-in's name).
        pjrt_plugin: optional module to import before looking for devices (registers the PJRT plug-in).
    """

    name: str
    platform: str
    pjrt_plugin: str = None

    def devices(self):
        if self.pjrt_plugin:
            __import__(self.pjrt_plugin)
        try:
            return jax.devices(self.platform)
        except RuntimeError as e:
            raise RuntimeError(
                f"device_target '{self.name}' is installed but JAX found no '{self.platform}' devices ({e}). "
                f"For NVIDIA GPUs install JAX's CUDA build: pip install -U \"jax[cuda12]\".") from None


_registered = {}
_loaded = False


def register_backend(backend):
    """Register a :class:`Backend` at run time (entry points do the same at import)."""
    _registered[backend.name.upper()] = backend


def _load_entry_points():
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as e:  # a broken plug-in must not break the others
            _registered.setdefault(ep.name.upper(), RuntimeError(f"plug-in {ep.value!r} failed to load: {e}"))
            continue
        if callable(obj) and not isinstance(obj, Backend):
            obj = obj()
        if not isinstance(obj, Backend):
            _registered[ep.name.upper()] = TypeError(f"plug-in {ep.value!r} did not give a Backend")
            continue
        _registered.setdefault(obj.name.upper(), obj)


def available_backends():
    """Names of the installed device targets."""
    _load_entry_points()
    return sorted(b.name for b in _registered.values() if isinstance(b, Backend))


def get_backend(name):
    """The Backend for ``name`` (case-insensitive), or a clear error listing what is installed."""
    _load_entry_points()
    if not isinstance(name, str):
        raise TypeError(f"device_target must be a str, but got {type(name).__name__}.")
    found = _registered.get(name.upper())
    if isinstance(found, Backend):
        return found
    reason = f" ({found})" if isinstance(found, Exception) else ""
    raise ValueError(
        f"device_target '{name}' is not available{reason}. Installed targets: {available_backends()}. "
        f"To add one, install a package that registers it under the entry-point group '{ENTRY_POINT_GROUP}' "
        f"(see mindspore_hl.backends).")


cpu_backend = Backend("CPU", "cpu")
gpu_backend = Backend("GPU", "gpu")
