"""Fixtures for the insight_app tests: log directories written by tensorboardX, plus the real MindSpore summary."""

from __future__ import annotations

import os
import sys

import pytest

# pytest puts tests/ on sys.path (tests/conftest.py, rootdir import mode), where the folder tests/insight_app
# would be picked up as a namespace package named insight_app and hide the real one. The repository root
# goes first so that ``import insight_app`` is the package under test.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if sys.path[0] != _ROOT:
    sys.path.insert(0, _ROOT)
if getattr(sys.modules.get("insight_app"), "__file__", "") is None:
    del sys.modules["insight_app"]

from _insight_logs import copy_fixture, write_tbx_logs  # noqa: E402  (after the sys.path fix above)


@pytest.fixture(scope="session")
def tbx_logs(tmp_path_factory):
    """(root, truth): two tensorboardX training runs, an hparams sweep, and the LeNet5 MindSpore summary."""
    root = tmp_path_factory.mktemp("insight_logs")
    truth = write_tbx_logs(str(root))
    copy_fixture(str(root))
    return str(root), truth
