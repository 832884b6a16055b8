"""Every ``>>>`` example in the packages' docstrings runs, in the default test run.

Modules are found by walking the packages, so a new example is tested without being listed anywhere. Each module's
examples run in a temporary folder, in PYNATIVE_MODE with seed 0 (the autouse fixture in conftest.py) with the names
every example may assume already imported, as NumPy's docs assume ``np``: ``ms``, ``nn``, ``ops``, ``Tensor`` and
``np``.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn, ops

PACKAGES = ("mindspore_hl", "insight_app", "model_zoo")
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
EXAMPLE_GLOBALS = {"ms": ms, "nn": nn, "ops": ops, "Tensor": Tensor, "np": np}


def _module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            if info.name.endswith("__main__"):
                continue
            names.append(info.name)
    return sorted(names)


def _modules_with_examples() -> list[str]:
    found = []
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in _module_names():
        module = importlib.import_module(name)
        if any(t.examples for t in finder.find(module, name)):
            found.append(name)
    return found


@pytest.mark.parametrize("module_name", _modules_with_examples() + ["tests.oracle"])
def test_docstring_examples_run(module_name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    module = importlib.import_module(module_name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in finder.find(module, module_name, extraglobs=EXAMPLE_GLOBALS):
        if test.examples:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {module_name} failed (see above)"


def test_examples_are_found() -> None:
    # The walk must reach the modules that hold examples: an empty list would make the test above vacuous.
    assert "mindspore_hl.nn.cell" in _modules_with_examples()
