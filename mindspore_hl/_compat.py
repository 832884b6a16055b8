"""MindSpore-style module paths, registered in one place (``mindspore.context``, ``mindspore.ops.operations`` ...).

Each alias is a real module object holding the same classes and functions as its modern home.
"""
import importlib
import sys
import types

_PKG = __name__.rsplit(".", 1)[0]


def _alias(name, target, attrs=None):
    """Make ``mindspore_hl.<name>`` importable as ``target`` (a module path or a namespace of attrs)."""
    full = f"{_PKG}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    if attrs is None:
        mod = importlib.import_module(f"{_PKG}.{target}")
    else:
        mod = types.ModuleType(full, f"Compatibility alias of {target}")
        for k, v in attrs.items():
            setattr(mod, k, v)
    sys.modules[full] = mod
    parent_name, _, child = full.rpartition(".")
    setattr(sys.modules[parent_name], child, mod)
    return mod


_alias("common.dtype", "common.dtype")
_alias("context", "context")
