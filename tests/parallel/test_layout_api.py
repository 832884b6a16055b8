"""parallel.Layout replayed against real MindSpore (tests/fixtures/oracle/toplevel_runtime.npz), and a Layout as a
Cell.shard strategy: it lays the tensor out like the equivalent tuple of split counts."""
import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases
from parallel_nets import mlp

import mindspore_hl as ms
from mindspore_hl import parallel
from mindspore_hl.parallel import Layout, ParallelMode

CASES = load_cases(FIXTURE_ROOT / "toplevel_runtime.npz")


def _json(value):
    """Tuples as lists, as the recorded JSON holds them."""
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("cid", sorted(k for k in CASES if k.startswith("Layout/") and k != "Layout/uncalled"))
def test_layout_to_dict_and_errors_match_mindspore(cid):
    case = CASES[cid]
    m = case.meta
    matrix = tuple(m["device_matrix"]) if m["matrix_is_tuple"] else list(m["device_matrix"])
    alias = tuple(m["alias_name"]) if m["alias_is_tuple"] else list(m["alias_name"])
    ranks = m["rank_list"] if m["rank_list_is_list"] or m["rank_list"] is None else tuple(m["rank_list"])
    tensor_map = tuple(tuple(t) if isinstance(t, list) else t for t in m["tensor_map"])
    if case.error:
        with pytest.raises(Exception) as info:
            Layout(matrix, alias, ranks)(*tensor_map)
        assert type(info.value).__name__ == case.error
        assert str(info.value) == m["message"]
        return
    layout = Layout(matrix, alias, ranks)(*tensor_map)
    d = layout.to_dict()
    assert isinstance(d["device_matrix"], tuple) and isinstance(d["tensor_map"], tuple)
    assert _json(d) == m["returned"]["to_dict"]
    if not d["interleaved_parallel"]:
        assert list(layout._as_strategy()) == m["returned"]["strategy"]
    else:
        # MindSpore's sharding_strategy counts the interleaved axis; it splits within one device, so the
        # device layout here leaves it out: (dp * interleaved, sp) -> (dp, sp).
        assert layout._as_strategy() == (2, 2) and m["returned"]["strategy"] == [4, 2]


def test_uncalled_layout_to_dict():
    case = CASES["Layout/uncalled"]
    with pytest.raises(ValueError, match=case.meta["message"]):
        Layout((2, 2), ("dp", "mp")).to_dict()


def test_layout_is_exported_at_top_level():
    assert ms.Layout is Layout


@pytest.mark.devices(8)
@pytest.mark.usefixtures("graph")
def test_cell_shard_with_layouts_lays_out_like_split_counts():
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.SEMI_AUTO_PARALLEL, device_num=8)
    layout = Layout((4, 2), ("dp", "mp"))
    x = ms.Tensor(np.random.default_rng(0).standard_normal((8, 64)).astype(np.float32))
    ref = mlp(hidden=16)
    expected = ref(x).asnumpy()
    net = mlp(hidden=16)  # (the same seed: the same parameters)
    assert net.fc2.shard(in_strategy=(layout("dp", "None"),), parameter_plan={"self.weight": layout("mp", "None")}) \
        is net.fc2
    assert net.fc2.__dict__["_shard_strategy"] == (((4, 1),), None)
    assert net.fc2.weight.sharding == (2, 1)
    np.testing.assert_allclose(net(x).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    spec = tuple(net.fc2.weight._data.sharding.spec)
    assert spec[:1] == ("model",)
    with pytest.raises(TypeError, match="consistent type for all dimensions"):
        net.fc1.shard(in_strategy=(layout("dp", "None"), (4, 1)))
    with pytest.raises(ValueError, match="The tensor_map of layout is None"):
        net.fc1.shard(in_strategy=(Layout((4, 2), ("dp", "mp")),))
