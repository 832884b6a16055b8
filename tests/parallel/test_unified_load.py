"""``load_distributed_checkpoint(format='safetensors')`` of a ``unified_safetensors`` directory against real
MindSpore 2.10 (``tools/oracle/record_dist_ckpt2.py``): the per-rank files it writes, or what it loads into a
network (MindSpore on CPU has no rank and loads rank 0's whole values; here a network always takes whole values).
"""
import os

import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.serialization import _ckpt_format, _safetensors

CASES = load_cases(FIXTURE_ROOT / "dist_ckpt2.npz")


class LoadNet(nn.Cell):  # the recorder's network
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((4, 8), np.float32)), name="w")
        self.b = ms.Parameter(ms.Tensor(np.zeros((8,), np.float32)), name="b")
        self.e = ms.Parameter(ms.Tensor(np.zeros((6, 4), np.float16)), name="e")
        self.x = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="x")


def _run(case, tmp_path):
    folder = tmp_path / "unified"
    folder.mkdir()
    for i, rel in enumerate(case.meta["files"]):
        (folder / rel).write_bytes(case.inputs[f"f{i}"].tobytes())
    predict = None
    if "strategy" in case.inputs:
        predict = str(tmp_path / "predict.ckpt")
        (tmp_path / "predict.ckpt").write_bytes(case.inputs["strategy"].tobytes())
    kwargs = dict(case.meta["kwargs"])
    args = {"format": "safetensors", "unified_safetensors_dir": str(folder), "predict_strategy": predict, **kwargs}
    if not case.meta["network"] and "dst_safetensors_dir" not in kwargs:
        args["dst_safetensors_dir"] = str(tmp_path / "dst")
    net = LoadNet() if case.meta["network"] else None
    return net, ms.load_distributed_checkpoint(net, **args)


@pytest.mark.parametrize("case_id", sorted(k for k in CASES if k.startswith("load_distributed_checkpoint/")))
def test_load_distributed_safetensors_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    if case.error:
        with pytest.raises(Exception) as info:
            _run(case, tmp_path)
        assert type(info.value).__name__ == case.error, info.value
        return
    net, res = _run(case, tmp_path)
    expected = iter(case.outputs)
    if case.meta["network"]:
        if isinstance(res, dict):
            assert sorted(res) == case.meta["returned"]
            got = [res[k].asnumpy() for k in sorted(res)]
        else:
            assert [sorted(res[0]), sorted(res[1])] == case.meta["returned"]
            params = net.parameters_dict()
            assert sorted(params) == case.meta["net_params"]
            got = [params[k].asnumpy() for k in sorted(params)]
    else:
        assert res is True and case.meta["returned"] is True
        dst = tmp_path / "dst"
        written = sorted(os.path.relpath(os.path.join(d, f), dst) for d, _, fs in os.walk(dst) for f in fs)
        assert written == [item[0] for item in case.meta["written"]]
        got = []
        for rel, _, metadata, names in case.meta["written"]:
            path = str(dst / rel)
            if rel.endswith(".ckpt"):
                tensors = sorted(_ckpt_format.read(path))
            else:
                tensors, meta, _ = _safetensors.read(path)
                assert meta == metadata
            assert [[n, str(a.dtype)] for n, a in tensors] == names
            got += [a for _, a in tensors]
    assert len(got) == len(case.outputs)
    for value in got:
        want = next(expected)
        assert value.dtype == want.dtype
        np.testing.assert_array_equal(value, want)
