"""The Python code in each guide under docs/guides runs as written.

A guide's ```python blocks run in order in one namespace (later blocks use what earlier ones defined), from the
repository root, as a reader would paste them. Blocks in other languages (```bash) are not run.
"""
from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[str]:
    """The bodies of the ```python fenced blocks of a Markdown text, in order.

    >>> python_blocks("a\\n```python\\nx = 1\\n```\\n```bash\\nls\\n```\\n```python\\ny = x\\n```\\n")
    ['x = 1\\n', 'y = x\\n']
    """
    return PYTHON_BLOCK.findall(text)


def test_every_guide_is_found():
    assert {p.stem for p in GUIDES} >= {"quickstart", "from_mindspore", "training", "dashboard", "checkpoints",
                                        "parallel", "performance"}


@pytest.mark.parametrize("guide", GUIDES, ids=[p.stem for p in GUIDES])
def test_guide_code_runs(guide: pathlib.Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = python_blocks(guide.read_text())
    assert blocks, f"{guide.name} has no python block"
    namespace: dict = {"__name__": f"guide_{guide.stem}"}
    for i, block in enumerate(blocks):
        code = compile(block, f"{guide.name} (python block {i + 1})", "exec")
        exec(code, namespace)
