"""``obfuscate_ckpt`` / ``load_obf_params_into_net`` replayed against real MindSpore 2.10
(tools/oracle/record_obfuscate.py -> fixtures/oracle/obfuscate.npz).

Both draw their ratios with ``np.random`` after the recorded seed, so the returned metadata, every written
checkpoint and the next draw of the generator must match the recording.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from oracle import FIXTURE_ROOT, Case, assert_close, case_params, load_cases

import mindspore_hl as ms
from mindspore_hl import nn

FIXTURE = FIXTURE_ROOT / "obfuscate.npz"
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "KeyError": KeyError}


class Spec(nn.Cell):
    def __init__(self, spec):
        super().__init__()
        for name, sub in spec.items():
            setattr(self, name, build(sub))


def build(spec):
    if isinstance(spec, dict):
        return Spec(spec)
    if spec[0] == "dense":
        return nn.Dense(spec[1], spec[2])
    return nn.CellList([build(s) for s in spec[1]])


def decode(value, paths):
    if isinstance(value, str) and value in paths:
        return paths[value]
    if isinstance(value, dict):
        if "__tuple__" in value:
            return tuple(decode(v, paths) for v in value["__tuple__"])
        return {k: decode(v, paths) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, paths) for v in value]
    return value


def write_files(case: Case, src) -> None:
    for rel, kind in case.meta["files"]:
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "text":
            path.write_text("not a checkpoint")
            continue
        entries = [{"name": key.split("|", 1)[1], "data": value} for key, value in case.inputs.items()
                   if key.startswith(f"{rel}|")]
        ms.save_checkpoint(entries, str(path))


def written(out_dir) -> tuple[list[str], dict[str, np.ndarray]]:
    names = sorted(os.path.relpath(os.path.join(d, f), out_dir) for d, _, files in os.walk(out_dir)
                   for f in files if f.endswith("_obf.ckpt"))
    arrays = {f"{rel}|{k}": v.asnumpy() for rel in names for k, v in ms.load_checkpoint(str(out_dir / rel)).items()}
    return names, arrays


@pytest.fixture
def np_seed_restored():
    state = np.random.get_state()
    yield
    np.random.set_state(state)


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_matches_mindspore(case: Case, tmp_path, np_seed_restored) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    (tmp_path / "plain.txt").write_text("")
    write_files(case, src)
    network = build(case.meta["net"])
    paths = {"$SRC": str(src), "$OUT": str(out), "$FILE": str(tmp_path / "plain.txt"),
             "$MISSING": str(src / "missing")}
    kwargs = decode(case.meta["kwargs"], paths)
    if kwargs.pop("network", None) == "not_cell":
        network = 3
    api = getattr(ms, case.meta["api"])
    np.random.seed(case.meta["seed"])
    if case.error:
        with pytest.raises(ERRORS[case.error]):
            api(network=network, **kwargs)
        return
    result = api(network=network, **kwargs)
    assert int(np.random.randint(0, 2 ** 31 - 1)) == case.meta["next_draw"]  # as many draws as MindSpore
    if case.meta["api"] == "load_obf_params_into_net":
        assert result is network and case.meta["same_object"]
        return
    assert sorted(result) == case.meta["metadata"]
    for i, name in enumerate(case.meta["metadata"]):
        assert_close(result[name], case.outputs[i], rtol=0, atol=0, what=f"{case.id} metadata {name}")
    names, arrays = written(src if kwargs.get("saved_path") == str(src) else out)
    assert names == case.meta["written"]
    assert list(arrays) == case.meta["keys"]
    first = len(case.meta["metadata"])
    for i, key in enumerate(case.meta["keys"]):
        assert_close(arrays[key], case.outputs[first + i], what=f"{case.id} {key}")
    if case.meta["forward"]:
        check_forward(case, out, result)


def check_forward(case: Case, out, result) -> None:
    """The recorded outputs of the plain network and of the one loaded with obfuscated weights."""
    x = ms.Tensor(case.inputs["x"])
    plain = build(case.meta["net"])
    ms.load_param_into_net(plain, {k.split("|", 1)[1]: ms.Parameter(ms.Tensor(v), name=k.split("|", 1)[1])
                                   for k, v in case.inputs.items() if k.startswith("net.ckpt|")})
    assert_close(plain.backbone.fc2(plain.backbone.fc1(x)), case.outputs[-2], what="plain network")
    obf = build(case.meta["net"])
    ms.load_checkpoint(str(out / "net_obf.ckpt"), obf)
    same = ms.load_obf_params_into_net(obf, ["backbone", "fc1|fc2"], obf_ratios=ms.Tensor(result["obf_metadata"]))
    got = same.backbone.fc2(same.backbone.fc1(x))
    assert_close(got, case.outputs[-1], rtol=1e-4, atol=1e-4, what="network with obfuscated weights")
    # MindSpore 2.10 leaves the network as it is: it computes with the scaled weights ...
    assert not np.allclose(got.asnumpy(), case.outputs[-2], rtol=1e-2)
    # ... and the saved metadata (1 / r, float16) restores the plain weights to float16 precision.
    restored = obf.backbone.fc1.weight.asnumpy() * result["obf_metadata"].astype(np.float32)
    np.testing.assert_allclose(restored, plain.backbone.fc1.weight.asnumpy(), rtol=2e-3)


def test_fixture_covers_both_functions() -> None:
    names = {case.meta["api"] for case in load_cases(FIXTURE).values() if not case.error}
    assert names == {"obfuscate_ckpt", "load_obf_params_into_net"}
