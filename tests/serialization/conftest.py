"""Shared fixtures: the real-MindSpore checkpoint files."""
import lzma

import pytest
from ckpt_test_support import RESNET


@pytest.fixture(scope="session")
def resnet_ckpt(tmp_path_factory):
    """resnet50.ckpt unpacked from the .xz fixture."""
    out = tmp_path_factory.mktemp("resnet") / "resnet50.ckpt"
    with lzma.open(RESNET / "resnet50.ckpt.xz") as src:
        out.write_bytes(src.read())
    return out
