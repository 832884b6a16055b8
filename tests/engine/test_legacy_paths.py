"""MindSpore's legacy module paths (``mindspore.train.callback``, ``mindspore.ops.operations`` ...) import, and give
the same objects as their modern homes.

``LEGACY`` lists every path that worked before the paths were gathered into one table
(``mindspore_hl._compat.LEGACY_PATHS``), with one representative name and where that name really lives.
"""
import importlib

import pytest

import mindspore_hl as ms
from mindspore_hl import _compat

# legacy path -> (a name imported from it, the module that defines that name today)
LEGACY = {
    "train.callback": ("ModelCheckpoint", "callbacks"),
    "train.metrics": ("Accuracy", "metrics"),
    "train.model": ("Model", "model"),
    "train.amp": ("build_train_network", "amp"),
    "train.loss_scale_manager": ("FixedLossScaleManager", "amp"),
    "train.serialization": ("save_checkpoint", "serialization"),
    "train.summary": ("SummaryRecord", "summary"),
    "nn.metrics": ("Accuracy", "metrics"),
    "dataset.transforms.c_transforms": ("TypeCast", "dataset.transforms"),
    "dataset.transforms.py_transforms": ("Compose", "dataset.transforms"),
    "dataset.vision.c_transforms": ("Resize", "dataset.vision"),
    "dataset.vision.py_transforms": ("Normalize", "dataset.vision"),
    "dataset.vision.utils": ("Inter", "dataset.vision"),
    "ops.operations": ("Mul", "ops"),
    "ops.functional": ("reshape", "ops"),
    "ops.function": ("matmul", "ops"),
    "ops.composite": ("GradOperation", "ops"),
    "ops.primitive": ("Primitive", "ops"),
    "common.api": ("jit", "_jit"),
    "common.dtype": ("float32", "common.dtype"),
    "common.initializer": ("Normal", "common.initializer"),
    "context": ("ParallelMode", "parallel"),
    "communication.management": ("get_rank", "communication"),
    "parallel._context": ("mesh", "_engine._parallel_context"),
    "parallel._layout": ("batch_spec", "_engine._layout"),
    "parallel._plan": ("plan_step", "_engine._plan"),
    "parallel._auto": ("communication_bytes", "_engine._auto"),
}


@pytest.mark.parametrize("path", sorted(LEGACY))
def test_legacy_path_imports(path):
    name, home = LEGACY[path]
    module = importlib.import_module(f"mindspore_hl.{path}")
    # ``from mindspore_hl.<path> import <name>``, and the attribute path from the package root
    imported = getattr(__import__(f"mindspore_hl.{path}", fromlist=[name]), name)
    assert imported is getattr(importlib.import_module(f"mindspore_hl.{home}"), name)
    parent, _, child = path.rpartition(".")
    assert getattr(importlib.import_module(f"mindspore_hl.{parent}" if parent else "mindspore_hl"), child) is module


def test_every_table_entry_is_tested():
    assert set(_compat.LEGACY_PATHS) <= set(LEGACY)


def test_legacy_private_and_extra_names():
    """Names that old scripts import and that are not in the modern module's ``__all__``."""
    from mindspore_hl.ops.functional import scalar_to_tensor, tensor_add
    from mindspore_hl.train.callback import _CallbackManager, _InternalCallbackParam
    from mindspore_hl.train.metrics import get_metrics

    assert _InternalCallbackParam is ms.callbacks.CallbackParam and _CallbackManager is ms.callbacks.CallbackManager
    assert get_metrics is ms.metrics.get_metrics
    assert tensor_add is ms.ops.add and scalar_to_tensor(2).dtype == ms.float32
    assert ms.ops.operations.Mul is ms.ops.Mul and ms.ops.primitive.constexpr is ms.ops.constexpr
