"""``parameter_broadcast``: the owners of each parameter against real MindSpore 2.10 (its ``get_parameter_redundancy``
of a layout dict and ``remove_param_redundancy``, recorded by ``tools/oracle/record_dist_ckpt2.py``), and the
broadcast itself between two processes started by ``mindspore-hl-run -n 2`` (MindSpore runs it only on Ascend, so
the truth there is which rank's value each parameter must end with). Run directly, this file is the job's script.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/, also as the job's script
from oracle import FIXTURE_ROOT, load_cases  # noqa: E402

CASES = load_cases(FIXTURE_ROOT / "dist_ckpt2.npz")
# v and w are whole on both ranks (one group (0, 1), dealt in name order: v to rank 0, w to rank 1); b is split
LAYOUT = {"v": [[2], [-1, -1]], "w": [[2], [-1, -1]], "b": [[2], [0]]}


@pytest.mark.parametrize("case_id", sorted(k for k in CASES if k.startswith("parameter_broadcast_owners/")))
def test_owners_match_mindspore(case_id):
    from mindspore_hl.parallel import _parameter_broadcast as pb
    case = CASES[case_id]
    red = pb.layout_redundancy(case.meta["layout"], case.meta["initial_rank"])
    assert {k: [list(g) for g in v] for k, v in red.items()} == case.meta["redundancy"]
    assert list(red) == list(case.meta["redundancy"])  # sorted by name, as MindSpore
    owned = pb.owned_parameters(red)
    assert {str(k): sorted(v) for k, v in owned.items()} == case.meta["owned"]


def test_one_process_does_nothing_and_needs_init():
    import mindspore_hl as ms
    from mindspore_hl import nn
    net = nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    with pytest.raises(RuntimeError, match="init"):
        ms.parameter_broadcast(net, {"weight": [[2], [-1, -1]]})
    ms.parameter_broadcast(net, {})  # an empty layout returns before asking for the group size, as in MindSpore
    np.testing.assert_array_equal(net.weight.asnumpy(), before)


def main(out_dir):
    from mindspore_hl.communication import init
    init()
    import mindspore_hl as ms
    from mindspore_hl import nn

    class Net(nn.Cell):
        def __init__(self, r):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.full((2, 3), 10.0 + r, np.float32)), name="w")
            self.v = ms.Parameter(ms.Tensor(np.arange(4, dtype=np.int32) + 100 * r), name="v")
            self.b = ms.Parameter(ms.Tensor(np.full((4,), 20.0 + r, np.float32)), name="b")

    r = ms.communication.get_rank()
    net = Net(r)
    res = {}
    try:
        ms.parameter_broadcast(net, LAYOUT, cur_rank=1 - r)
    except ValueError as e:
        res["wrong_rank"] = np.asarray(str(e))
    ms.parameter_broadcast(net, LAYOUT, cur_rank=r, initial_rank=0)
    ms.parameter_broadcast(net, LAYOUT, cur_rank=r)  # again: the group made by the first call is reused
    res.update(w=net.w.asnumpy(), v=net.v.asnumpy(), b=net.b.asnumpy())
    np.savez(os.path.join(out_dir, f"rank{r}.npz"), **res)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_two_processes_take_the_owners_values(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mindspore_hl.communication._launcher", "-n", "2",
                           os.path.abspath(__file__), str(tmp_path)], capture_output=True, text=True, timeout=170)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    for r in (0, 1):
        got = np.load(tmp_path / f"rank{r}.npz")
        assert "cur_rank" in str(got["wrong_rank"])
        np.testing.assert_array_equal(got["w"], np.full((2, 3), 11.0, np.float32))  # rank 1 owns w
        np.testing.assert_array_equal(got["v"], np.arange(4, dtype=np.int32))  # rank 0 owns v
        assert got["v"].dtype == np.int32
        np.testing.assert_array_equal(got["b"], np.full((4,), 20.0 + r, np.float32))  # not redundant: kept


if __name__ == "__main__":
    main(sys.argv[1])
