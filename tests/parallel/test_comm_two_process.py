"""Communication ops between two processes started by ``mindspore-hl-run -n 2`` on 127.0.0.1.

Real MindSpore 2.10 cannot run multi-process collectives on this CPU host, so the truth is NumPy on the two
ranks' inputs (rank r holds ``X + 10 r``). Run directly, this file is the job's script: each process calls the
ops eagerly (and one compiled data-parallel step) and saves what it got.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

X = np.arange(8, dtype=np.float32).reshape(4, 2)


def _rank_input(r):
    return X + 10 * r


def main(out_dir):
    from mindspore_hl.communication import init
    init()
    import mindspore_hl as ms
    from mindspore_hl import ops, parallel

    r, n = ops.get_rank(), ops.get_world_size()
    x = _rank_input(r)
    res = {"who": np.asarray([r, n])}
    for op in ("sum", "max", "avg"):
        t = ms.Tensor(x)
        ops.all_reduce(t, op)
        res[f"all_reduce_{op}"] = t.asnumpy()
    lst = [ms.Tensor(np.zeros_like(x)) for _ in range(n)]
    ops.all_gather(lst, ms.Tensor(x))
    res["all_gather"] = np.stack([t.asnumpy() for t in lst])
    out = ms.Tensor(np.zeros((4 * n, 2), np.float32))
    ops.all_gather_into_tensor(out, ms.Tensor(x))
    res["all_gather_into_tensor"] = out.asnumpy()
    t = ms.Tensor(x)
    ops.broadcast(t, src=1)
    res["broadcast"] = t.asnumpy()
    out = ms.Tensor(np.zeros((2, 2), np.float32))
    ops.reduce_scatter_tensor(out, ms.Tensor(x))
    res["reduce_scatter_tensor"] = out.asnumpy()
    out = ms.Tensor(np.zeros((4, 2), np.float32))
    ops.reduce_scatter(out, [ms.Tensor(x * (k + 1)) for k in range(n)])
    res["reduce_scatter"] = out.asnumpy()
    ops.barrier()
    res["prim_all_reduce"] = ops.AllReduce()(ms.Tensor(x)).asnumpy()
    if r == 0:
        ops.send(ms.Tensor(x), dst=1)
    else:
        t = ms.Tensor(np.zeros_like(x))
        ops.recv(t, src=0)
        res["recv"] = t.asnumpy()
    objs = [None] * n
    ops.all_gather_object(objs, {"rank": r})
    res["objects"] = np.asarray([o["rank"] for o in objs])
    peer = 1 - r
    # point to point: isend/irecv, batch_isend_irecv, objects, the Send/Receive/NeighborExchange Primitives
    got = ms.Tensor(np.zeros_like(x))
    ops.batch_isend_irecv([ops.P2POp("isend", ms.Tensor(x), peer), ops.P2POp(ops.irecv, got, peer)])
    res["batch_isend_irecv"] = got.asnumpy()
    if r == 0:
        ops.isend(ms.Tensor(x * 3), dst=1).wait()
        ops.send_object_list(["a", {"b": 2}], dst=1)
        ops.Send(sr_tag=5, dest_rank=1)(ms.Tensor(x + 1))
    else:
        got = ms.Tensor(np.zeros_like(x))
        ops.irecv(got, src=0).wait()
        res["irecv"] = got.asnumpy()
        lst = [None, None]
        ops.recv_object_list(lst, src=0)
        res["recv_object_list"] = np.asarray([lst[0] == "a", lst[1] == {"b": 2}])
        res["Receive"] = ops.Receive(sr_tag=5, src_rank=0, shape=[4, 2], dtype=ms.float32)().asnumpy()
    res["NeighborExchange"] = ops.NeighborExchange([peer], [peer], [[4, 2]], [[4, 2]], ms.float32)(
        (ms.Tensor(x),))[0].asnumpy()
    res["BatchISendIRecv"] = ops.BatchISendIRecv(("isend", "irecv"), (peer, peer), [[4, 2]], [ms.float32])(
        (ms.Tensor(x * 5),))[1].asnumpy()
    # NeighborExchangeV2: MindSpore's documented two-rank example (rank 0 below rank 1's... see its docstring)
    if r == 0:
        nx = ops.NeighborExchangeV2([-1, -1, -1, -1, 1, -1, -1, -1], [0, 1, 0, 0], [-1, -1, -1, -1, 1, -1, -1, -1],
                                    [0, 1, 0, 0], "NCHW")
    else:
        nx = ops.NeighborExchangeV2([0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], [0, -1, -1, -1, -1, -1, -1, -1],
                                    [1, 0, 0, 0], "NCHW")
    res["NeighborExchangeV2"] = nx(ms.Tensor(np.ones([1, 1, 2, 2], np.float32) * (r + 1))).asnumpy()
    # all-to-all, gather / scatter, broadcast of objects
    outs = [ms.Tensor(np.zeros((2, 2), np.float32)) for _ in range(n)]
    ops.all_to_all(outs, [ms.Tensor(x[:2]), ms.Tensor(x[2:])])
    res["all_to_all"] = np.stack([o.asnumpy() for o in outs])
    sizes = [1, 3] if r == 0 else [2, 2]       # rank 0 sends 1 row to rank 0 and 3 to rank 1 ...
    recv = [1, 2] if r == 0 else [3, 2]        # ... so rank 0 gets 1 + 2 rows, rank 1 gets 3 + 2
    out = ms.Tensor(np.zeros((sum(recv), 2), np.float32))
    ops.all_to_all_single(out, ms.Tensor(x), recv, sizes)
    res["all_to_all_single"] = out.asnumpy()
    out = ms.Tensor(np.zeros((8, 2), np.float32))
    ops.gather_into_tensor(out, ms.Tensor(x), dst=1)
    res["gather_into_tensor"] = out.asnumpy()
    out = ms.Tensor(np.zeros((2, 2), np.float32))
    ops.scatter_tensor(out, ms.Tensor(x), src=1)
    res["scatter_tensor"] = out.asnumpy()
    lst = [r, "x"]
    ops.broadcast_object_list(lst, src=1)
    res["broadcast_object_list"] = np.asarray(lst[0])
    ops.barrier()
    # A compiled data-parallel step: each process's device is a rank holding its rows.
    ms.set_context(mode=ms.GRAPH_MODE)
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.DATA_PARALLEL)

    @ms.jit
    def step(v):
        return ops.AllReduce()(v * 2)

    res["compiled_all_reduce"] = step(ms.Tensor(x)).asnumpy()
    np.savez(os.path.join(out_dir, f"rank{r}.npz"), **res)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_two_processes_combine_their_values(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mindspore_hl.communication._launcher", "-n", "2",
                           os.path.abspath(__file__), str(tmp_path)], capture_output=True, text=True, timeout=170)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    x0, x1 = _rank_input(0), _rank_input(1)
    for r in (0, 1):
        got = np.load(tmp_path / f"rank{r}.npz")
        assert got["who"].tolist() == [r, 2]
        np.testing.assert_array_equal(got["all_reduce_sum"], x0 + x1)
        np.testing.assert_array_equal(got["all_reduce_max"], np.maximum(x0, x1))
        np.testing.assert_array_equal(got["all_reduce_avg"], (x0 + x1) / 2)
        np.testing.assert_array_equal(got["all_gather"], np.stack([x0, x1]))
        np.testing.assert_array_equal(got["all_gather_into_tensor"], np.concatenate([x0, x1]))
        np.testing.assert_array_equal(got["broadcast"], x1)
        np.testing.assert_array_equal(got["reduce_scatter_tensor"], (x0 + x1)[2 * r:2 * r + 2])
        np.testing.assert_array_equal(got["reduce_scatter"], (x0 + x1) * (r + 1))
        np.testing.assert_array_equal(got["prim_all_reduce"], x0 + x1)
        np.testing.assert_array_equal(got["objects"], [0, 1])
        np.testing.assert_array_equal(got["compiled_all_reduce"], 2 * (x0 + x1))
    np.testing.assert_array_equal(np.load(tmp_path / "rank1.npz")["recv"], x0)
    r0, r1 = np.load(tmp_path / "rank0.npz"), np.load(tmp_path / "rank1.npz")
    np.testing.assert_array_equal(r0["batch_isend_irecv"], x1)
    np.testing.assert_array_equal(r1["batch_isend_irecv"], x0)
    np.testing.assert_array_equal(r1["irecv"], x0 * 3)
    np.testing.assert_array_equal(r0["BatchISendIRecv"], x1 * 5)
    np.testing.assert_array_equal(r1["BatchISendIRecv"], x0 * 5)
    assert r1["recv_object_list"].all()
    np.testing.assert_array_equal(r1["Receive"], x0 + 1)
    np.testing.assert_array_equal(r0["NeighborExchange"], x1)
    np.testing.assert_array_equal(r1["NeighborExchange"], x0)
    np.testing.assert_array_equal(r0["all_to_all"], np.stack([x0[:2], x1[:2]]))
    np.testing.assert_array_equal(r1["all_to_all"], np.stack([x0[2:], x1[2:]]))
    np.testing.assert_array_equal(r0["all_to_all_single"], np.concatenate([x0[:1], x1[:2]]))
    np.testing.assert_array_equal(r1["all_to_all_single"], np.concatenate([x0[1:], x1[2:]]))
    np.testing.assert_array_equal(r1["gather_into_tensor"], np.concatenate([x0, x1]))
    np.testing.assert_array_equal(r0["gather_into_tensor"], np.zeros((8, 2)))  # only dst receives
    np.testing.assert_array_equal(r0["scatter_tensor"], x1[:2])
    np.testing.assert_array_equal(r1["scatter_tensor"], x1[2:])
    np.testing.assert_array_equal(r0["NeighborExchangeV2"], [[[[1, 1], [1, 1], [2, 2]]]])  # MindSpore's doc output
    np.testing.assert_array_equal(r1["NeighborExchangeV2"], [[[[1, 1], [2, 2], [2, 2]]]])
    assert int(r0["broadcast_object_list"]) == int(r1["broadcast_object_list"]) == 1


if __name__ == "__main__":
    main(sys.argv[1])
