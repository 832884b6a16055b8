"""Distributed-checkpoint tools replayed against real MindSpore 2.10 (tests/fixtures/oracle/dist_ckpt.npz, recorded
by tools/oracle/record_dist_ckpt.py).

The strategy files are MindSpore's own ``node_strategy_pb2`` messages written by the recorder (its CPU build
cannot compile a sharded graph, so it cannot write one from training) and, for ``build_searched_strategy/engine``,
the file mindspore_hl's engine writes (tests/fixtures/mindspore/engine_strategy.ckpt), parsed by MindSpore's
reader. Source checkpoint slices were cut by MindSpore's ``_load_tensor``; the transformed values are MindSpore's,
and a transform to no strategy must give back the NumPy arrays the slices were cut from.
"""
import os

import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.serialization import _ckpt_format

CASES = load_cases(FIXTURE_ROOT / "dist_ckpt.npz")


def _ids(prefix):
    return [k for k in CASES if k.startswith(prefix)]


def _write(tmp_path, name, array):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(np.asarray(array, np.uint8).tobytes())
    return str(path)


@pytest.mark.parametrize("case_id", [k for k in _ids("rank_list_for_transform/") if "random" in k or "engine" in k])
def test_rank_list_for_transform_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    src = _write(tmp_path, "src.ckpt", case.inputs["src"])
    dst = _write(tmp_path, "dst.ckpt", case.inputs["dst"]) if "dst" in case.inputs else None
    got = [ms.rank_list_for_transform(r, src, dst) for r in range(len(case.meta["ranks"]))]
    assert got == case.meta["ranks"]


def test_rank_list_for_transform_edge_cases(tmp_path):
    assert ms.rank_list_for_transform(3, None, None) == CASES["rank_list_for_transform/no_src"].meta["ranks"]
    assert CASES["rank_list_for_transform/bad_rank"].error == "TypeError"
    with pytest.raises(TypeError, match="rank_id"):
        ms.rank_list_for_transform("0", None)


def _layout_meta(strategy):
    return {k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim), list(v.param_split_shape[0].dim), v.field,
                v.opt_weight_shard_step, v.opt_weight_shard_size] for k, v in strategy.items()}


def test_build_searched_strategy_reads_the_engine_file_as_mindspore_does(tmp_path):
    case = CASES["build_searched_strategy/engine"]
    path = _write(tmp_path, "engine.ckpt", case.inputs["file"])
    assert _layout_meta(ms.build_searched_strategy(path)) == case.meta["layouts"]
    assert ms.build_searched_strategy(None) is None
    assert CASES["build_searched_strategy/missing"].error == "ValueError"
    with pytest.raises(ValueError, match="no such strategy file"):
        ms.build_searched_strategy(str(tmp_path / "nope.ckpt"))
    assert CASES["build_searched_strategy/not_str"].error == "TypeError"
    with pytest.raises(TypeError, match="strategy_filename"):
        ms.build_searched_strategy(3)
    (tmp_path / "junk.ckpt").write_bytes(b"\xff\xff\xff")
    with pytest.raises(TypeError, match="protobuf"):
        ms.build_searched_strategy(str(tmp_path / "junk.ckpt"))


def _source_files(tmp_path, case):
    n = case.meta["n_src"]
    files = {}
    for k in range(n):
        path = tmp_path / "src" / f"rank_{k}" / "net.ckpt"
        path.parent.mkdir(parents=True, exist_ok=True)
        _ckpt_format.write(path, [("w", case.inputs[f"w{k}"]), ("b", case.inputs[f"b{k}"]),
                                  ("learning_rate", case.inputs[f"lr{k}"])])
        files[k] = str(path)
    return files


@pytest.mark.parametrize("case_id", _ids("transform_checkpoint_by_rank/pair"))
def test_transform_checkpoint_by_rank_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    src = _write(tmp_path, "s.ckpt", case.inputs["src"])
    dst = _write(tmp_path, "d.ckpt", case.inputs["dst"])
    files = _source_files(tmp_path, case)
    expected = iter(case.outputs)
    for k, names in enumerate(case.meta["names"]):
        out = str(tmp_path / f"out{k}.ckpt")
        needed = ms.rank_list_for_transform(k, src, dst)
        ms.transform_checkpoint_by_rank(k, {r: files[r] for r in needed}, out, src, dst)
        got = dict(_ckpt_format.read(out))
        assert list(got) == names
        for name in names:
            np.testing.assert_array_equal(got[name], next(expected), err_msg=f"{case_id} rank {k} {name}")


def test_transform_checkpoint_by_rank_errors(tmp_path):
    case = CASES["transform_checkpoint_by_rank/pair0"]
    src = _write(tmp_path, "s.ckpt", case.inputs["src"])
    dst = _write(tmp_path, "d.ckpt", case.inputs["dst"])
    files = _source_files(tmp_path, case)
    missing = CASES["transform_checkpoint_by_rank/missing_rank"]
    assert missing.error == "ValueError"
    with pytest.raises(ValueError, match=missing.meta["message"]):
        ms.transform_checkpoint_by_rank(0, {0: files[0]}, str(tmp_path / "x.ckpt"), src, dst)
    assert CASES["transform_checkpoint_by_rank/bad_name"].error == "ValueError"
    with pytest.raises(ValueError, match="should end with .ckpt"):
        ms.transform_checkpoint_by_rank(0, files, str(tmp_path / "x.bin"), src, dst)


@pytest.mark.parametrize("tag", ["to_dst", "to_full", "one_stage"])
def test_transform_checkpoints_directory(tag, tmp_path):
    case = CASES[f"transform_checkpoints/{tag}"]
    pair = CASES["transform_checkpoint_by_rank/pair0"]
    src = _write(tmp_path, "s.ckpt", case.inputs["only_w"] if tag == "one_stage" else pair.inputs["src"])
    dst = _write(tmp_path, "d.ckpt", pair.inputs["dst"]) if case.meta["dst"] else None
    _source_files(tmp_path, case)
    out_dir = tmp_path / "out"
    ms.transform_checkpoints(str(tmp_path / "src"), str(out_dir), "new", src, dst)
    expected = iter(case.outputs)
    for rel, names in case.meta["files"]:
        got = dict(_ckpt_format.read(out_dir / rel))
        assert list(got) == names
        for name in names:
            np.testing.assert_array_equal(got[name], next(expected), err_msg=f"{rel} {name}")
    if tag == "to_full":  # the NumPy truth: the arrays the slices were cut from
        got = dict(_ckpt_format.read(out_dir / "rank_0" / "new0.ckpt"))
        np.testing.assert_array_equal(got["w"], case.inputs["full"])
        np.testing.assert_array_equal(got["b"], case.inputs["bias"])


def test_load_distributed_checkpoint_puts_parameters_together(tmp_path):
    case = CASES["load_distributed_checkpoint/pair0"]
    src = _write(tmp_path, "s.ckpt", case.inputs["src"])
    files = _source_files(tmp_path, case)
    net = nn.Cell()
    net.w = ms.Parameter(ms.Tensor(np.zeros(case.inputs["full"].shape, np.float32)), "w")
    net.b = ms.Parameter(ms.Tensor(np.zeros(case.inputs["bias"].shape, np.float32)), "b")
    assert ms.load_distributed_checkpoint(net, [files[k] for k in sorted(files)], None, src) is True
    np.testing.assert_array_equal(net.w.asnumpy(), case.outputs[0])
    np.testing.assert_array_equal(net.b.asnumpy(), case.outputs[1])
    np.testing.assert_array_equal(net.w.asnumpy(), case.inputs["full"])
    assert CASES["load_distributed_checkpoint/too_few_files"].error == "ValueError"
    with pytest.raises(ValueError, match="device count"):
        ms.load_distributed_checkpoint(net, [files[0], files[1]], None, src)
    with pytest.raises(ValueError, match="predict_strategy"):
        ms.load_distributed_checkpoint(net, [files[k] for k in sorted(files)], {"w": [[2], [0]]}, src)


def test_merge_pipeline_strategys_and_rank_lists_across_stages(tmp_path):
    case = CASES["merge_pipeline_strategys/two_stages"]
    _write(tmp_path, "stages/stage0.ckpt", case.inputs["s0"])
    _write(tmp_path, "stages/stage1.ckpt", case.inputs["s1"])
    dst = _write(tmp_path, "dst.ckpt", case.inputs["dst"])
    merged = str(tmp_path / "merged" / "merged.ckpt")
    ms.merge_pipeline_strategys(str(tmp_path / "stages"), merged)
    assert _layout_meta(ms.build_searched_strategy(merged)) == case.meta["layouts"]
    assert [ms.rank_list_for_transform(k, merged, dst) for k in range(2)] == case.meta["ranks"]
    assert [ms.rank_list_for_transform(k, dst, merged) for k in range(8)] == case.meta["ranks_back"]
    assert CASES["merge_pipeline_strategys/not_a_dir"].error == "NotADirectoryError"
    with pytest.raises(NotADirectoryError):
        ms.merge_pipeline_strategys(str(tmp_path / "nope"), merged)


@pytest.mark.parametrize("case_id", ["restore_group_info_list/four", "restore_group_info_list/empty"])
def test_restore_group_info_list(case_id, tmp_path):
    case = CASES[case_id]
    path = _write(tmp_path, "group.pb", case.inputs["file"])
    assert ms.restore_group_info_list(path) == case.meta["ranks"]
    assert CASES["restore_group_info_list/not_str"].error == "TypeError"
    with pytest.raises(TypeError, match="group_info_file_name"):
        ms.restore_group_info_list(1)


def test_strategy_ckpt_config_is_one_setting_with_strategy_ckpt_save_file(tmp_path):
    case = CASES["set_auto_parallel_context/strategy_ckpt_config"]
    tmp = str(tmp_path)
    seen = [ms.get_auto_parallel_context("strategy_ckpt_config")]
    ms.set_auto_parallel_context(strategy_ckpt_save_file=os.path.join(tmp, "a", "s.ckpt"))
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": os.path.join(tmp, "b.ckpt"),
                                                       "only_trainable_params": False})
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    ms.set_auto_parallel_context(strategy_ckpt_config={"load_file": os.path.join(tmp, "c.ckpt")})
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_save_file"))
    seen = [{k: (v.replace(tmp, "<tmp>") if isinstance(v, str) else v) for k, v in d.items()}
            if isinstance(d, dict) else d.replace(tmp, "<tmp>") for d in seen]
    assert seen == case.meta["seen"]
    assert CASES["set_auto_parallel_context/strategy_ckpt_config_bad_key"].error == "ValueError"
    with pytest.raises(ValueError, match="save"):
        ms.set_auto_parallel_context(strategy_ckpt_config={"save": "x"})
    assert CASES["set_auto_parallel_context/strategy_ckpt_config_bad_type"].error == "TypeError"
    with pytest.raises(TypeError, match="only_trainable_params"):
        ms.set_auto_parallel_context(strategy_ckpt_config={"only_trainable_params": 1})
