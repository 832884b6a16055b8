"""Names a package exports but imports on first use (``mindspore_hl.SummaryRecord``, ``train.SummaryRecord``).

``SummaryRecord`` writes TensorBoard files through tensorboardX, which imports PyTorch whenever it is installed:
importing it eagerly would make ``import mindspore_hl`` about 0.8 s slower and load PyTorch into every training
process. Likewise ``mindspore_hl.dataset.audio``, whose filters need SciPy's signal module (0.7 s to import).
The packages that export such names set ``__getattr__ = lazy_names(__name__, {...})``.
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, table: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``name`` from the module ``table[name]`` when it is
    first asked for (and keeps it in the package, so the next access is a plain attribute).
    """
    def __getattr__(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(table[name])
        # A table entry naming the subpackage itself (``{"audio": "mindspore_hl.dataset.audio"}``) lazily
        # provides that subpackage.
        value = module if table[name] == f"{package}.{name}" else getattr(module, name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
