"""``unified_safetensors`` and ``transform_checkpoints`` of safetensors directories against real MindSpore 2.10
(``tools/oracle/record_dist_ckpt2.py``).

Each case rewrites the recorded strategy file and per-rank source files, runs the merge, and compares every file
written (tensors, dtypes, ``__metadata__``, the ``param_name_map.json`` text) or the error type.
"""
import json
import os
import pathlib

import ml_dtypes
import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl.parallel import _unified_safetensors
from mindspore_hl.parallel._layout_math import slice_bounds
from mindspore_hl.serialization import _ckpt_format, _safetensors

CASES = load_cases(FIXTURE_ROOT / "dist_ckpt2.npz")
CHOICE = {"w": "model.w", "e": False}  # the recorder's choice_func
# MindSpore's safetensors output of these transforms holds garbage for 'w': the safetensors package it uses writes a
# non-contiguous NumPy slice's memory as if it were C-ordered (``save_file({'a': x.T})`` reads back wrong). The
# values are taken from the same transform written as .ckpt, which MindSpore writes correctly; the file names,
# parameter names, dtypes and metadata still come from the safetensors case.
VALUES_FROM = {"transform_checkpoints/safetensors": "transform_checkpoints/safetensors_to_ckpt",
               "transform_checkpoints/safetensors_processes": "transform_checkpoints/safetensors_to_ckpt"}


def _setup(case, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for i, rel in enumerate(case.meta["files"]):
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(case.inputs[f"f{i}"].tobytes())
    strategy = tmp_path / "strategy.ckpt"
    strategy.write_bytes(case.inputs["strategy"].tobytes())
    kwargs = dict(case.meta["kwargs"])
    if "split_dst_file" in kwargs:
        kwargs["split_dst_file"] = tuple(kwargs["split_dst_file"])
    if case.id.endswith("choice_func"):
        kwargs["choice_func"] = lambda name: CHOICE.get(name, True)
    if "dst_strategy" in case.inputs:
        (tmp_path / "dst_strategy.ckpt").write_bytes(case.inputs["dst_strategy"].tobytes())
    source = src / case.meta["src_as_file"] if case.meta.get("src_as_file") else src
    return str(source), str(strategy), kwargs


def _run(case, src, strategy, dst, kwargs):
    if case.meta["fn"] == "unified_safetensors":
        ms.unified_safetensors(src, strategy, dst, **kwargs)
    else:
        dst_strategy = os.path.join(os.path.dirname(strategy), "dst_strategy.ckpt")
        ms.transform_checkpoints(src, dst, "out", strategy, dst_strategy if "dst_strategy" in case.inputs else None,
                                 **kwargs)


def _written(root):
    out = {}
    for folder, _, names in os.walk(root):
        for nm in names:
            out[os.path.relpath(os.path.join(folder, nm), root)] = os.path.join(folder, nm)
    return out


@pytest.mark.parametrize("case_id", sorted(k for k in CASES if k.startswith(("unified_safetensors/",
                                                                              "transform_checkpoints/"))))
def test_merges_and_transforms_match_mindspore(case_id, tmp_path, monkeypatch):
    case = CASES[case_id]
    if case.meta["part_bytes"]:
        monkeypatch.setattr(_unified_safetensors, "PART_BYTES", case.meta["part_bytes"])
    src, strategy, kwargs = _setup(case, tmp_path)
    dst = tmp_path / "dst"
    if case.error:
        with pytest.raises(Exception) as info:
            _run(case, src, strategy, str(dst), kwargs)
        assert type(info.value).__name__ == case.error, info.value
        return
    _run(case, src, strategy, str(dst), kwargs)
    expected = CASES[VALUES_FROM.get(case_id, case_id)].outputs
    written = _written(dst)
    assert sorted(written) == sorted(item[0] for item in case.meta["written"])
    k = 0
    for item in case.meta["written"]:
        path = written[item[0]]
        if item[1] == "text":
            assert pathlib.Path(path).read_text() == item[2]
            continue
        if path.endswith(".ckpt"):
            tensors = sorted(_ckpt_format.read(path))
        else:
            tensors, metadata, _ = _safetensors.read(path)
            assert metadata == item[2]
        assert [[n, str(a.dtype)] for n, a in tensors] == item[3]
        for _, got in tensors:
            np.testing.assert_array_equal(got, expected[k])
            k += 1
    assert k == len(case.outputs)


def test_unified_safetensors_output_loads_into_a_network(tmp_path):
    """The merged parts hold the whole parameters that ``load_checkpoint`` reads back."""
    case = CASES["unified_safetensors/basic"]
    src, strategy, _ = _setup(case, tmp_path)
    ms.unified_safetensors(src, strategy, str(tmp_path / "dst"))
    index = json.loads((tmp_path / "dst" / "param_name_map.json").read_text())
    params = ms.load_checkpoint(str(tmp_path / "dst" / index["weight_map"]["w"]), format="safetensors")
    assert params["w"].shape == (4, 8) and params["i"].shape == (12,)
    assert os.stat(tmp_path / "dst" / "part0.safetensors").st_mode & 0o777 == 0o400  # read-only, as MindSpore


def test_unified_safetensors_merges_bfloat16_slices(tmp_path):
    """bfloat16 slices (which MindSpore's CPU environment cannot write) merge to the whole array: NumPy slicing of
    the whole array is the reference."""
    case = CASES["unified_safetensors/basic"]  # its strategy: w over dev [2, 2] with tensor_map [1, 0]
    _, strategy, _ = _setup(case, tmp_path)
    whole = np.arange(32, dtype=np.float32).reshape(4, 8).astype(ml_dtypes.bfloat16)
    for r in range(4):
        (tmp_path / "bf" / f"rank_{r}").mkdir(parents=True)
        part = whole[slice_bounds(r, [2, 2], [1, 0], whole.shape)]
        _safetensors.write(tmp_path / "bf" / f"rank_{r}" / "net.safetensors", [("w", part)], {"format": "ms"})
    ms.unified_safetensors(str(tmp_path / "bf"), strategy, str(tmp_path / "out"))
    (name, got), = _safetensors.read(tmp_path / "out" / "part0.safetensors")[0]
    assert name == "w" and got.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(got.astype(np.float32), whole.astype(np.float32))
    index = json.loads((tmp_path / "out" / "param_name_map.json").read_text())
    assert index == {"metadata": {"total_size": 64}, "weight_map": {"w": "part0.safetensors"}}


def test_unified_safetensors_bad_arguments(tmp_path):
    case = CASES["unified_safetensors/basic"]
    src, strategy, _ = _setup(case, tmp_path)
    with pytest.raises(ValueError, match="split_dst_file"):
        ms.unified_safetensors(src, strategy, str(tmp_path / "d1"), split_dst_file=(3, 2))
    with pytest.raises(ValueError, match="max_process_num"):
        ms.unified_safetensors(src, strategy, str(tmp_path / "d3"), max_process_num=0)
    with pytest.raises(ValueError, match="choice_func"):
        ms.unified_safetensors(src, strategy, str(tmp_path / "d2"), choice_func=lambda name: 1)
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        ms.unified_safetensors(src, strategy, str(tmp_path / "file"))
