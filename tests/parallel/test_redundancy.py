"""Rank groups holding identical slices (MindSpore's ``get_parameter_redundancy`` of a strategy file) and
``get_ckpt_path_with_strategy``, replayed against real MindSpore 2.10 (tests/fixtures/oracle/dist_ckpt.npz; the
recorder answered MindSpore's ``get_rank()`` with each rank in turn, as we do here with monkeypatch).
"""
import os

import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl.parallel import _redundancy

CASES = load_cases(FIXTURE_ROOT / "dist_ckpt.npz")


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(data))
    return str(path)


@pytest.mark.parametrize("case_id", [k for k in CASES if k.startswith("parameter_redundancy/")])
def test_parameter_redundancy_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    path = _write(tmp_path, "s.ckpt", case.inputs["file"])
    got = _redundancy.parameter_redundancy(path, 8)
    assert list(got) == list(case.meta["groups"])
    assert {k: [list(g) for g in v] for k, v in got.items()} == case.meta["groups"]


def test_get_ckpt_path_with_strategy_matches_mindspore(tmp_path, monkeypatch):
    case = CASES["get_ckpt_path_with_strategy/mixed"]
    strategy = _write(tmp_path, "s.ckpt", case.inputs["file"])
    for k in case.meta["existing"]:
        _write(tmp_path, f"ckpts/rank_{k}/net.ckpt", b"x")
    found = []
    for k in range(len(case.meta["found"])):
        monkeypatch.setattr(_redundancy, "get_rank", lambda k=k: k)
        got = ms.get_ckpt_path_with_strategy(str(tmp_path / "ckpts" / f"rank_{k}" / "net.ckpt"), strategy)
        found.append(None if got is None else os.path.relpath(got, tmp_path))
    assert found == case.meta["found"]
