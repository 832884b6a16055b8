"""Parameter names, kinds and defaults of ``mindspore_hl.numpy``, ``mint`` and ``mint.nn.functional`` equal real
MindSpore 2.10's (recorded by tools/oracle/record_numpy_mint.py); names MindSpore declares as ``(*args, **kwargs)``
are skipped."""
import inspect
import json

import pytest

import mindspore_hl as ms
import mindspore_hl.mint.nn.functional as F
from tests.oracle import FIXTURE_ROOT

_SIGS = json.loads((FIXTURE_ROOT / "numpy_mint_signatures.json").read_text())
_MODULES = {"numpy": ms.numpy, "mint": ms.mint, "mint.nn.functional": F}


def _module(key):
    prefix = "mint.nn.functional" if key.startswith("mint.nn.functional.") else key.split(".")[0]
    return _MODULES[prefix], key[len(prefix) + 1:]


@pytest.mark.parametrize("key", sorted(k for k, v in _SIGS.items() if "*args" not in v))
def test_signature_matches_mindspore(key):
    mod, name = _module(key)
    if not hasattr(mod, name):
        pytest.skip(f"{key} is not exported (its op does not exist yet)")
    sig = inspect.signature(getattr(mod, name))
    # Type hints are ours alone: compare names, kinds and defaults.
    bare = sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()],
                       return_annotation=inspect.Signature.empty)
    mine = str(bare).replace("mindspore.", "")
    assert mine == _SIGS[key], f"{key}: {mine} != MindSpore's {_SIGS[key]}"
