"""Communication functions and Primitives of ``mindspore.ops``: one rank, and inside compiled parallel steps.

Real MindSpore 2.10 cannot run its collectives on this CPU host (they need HCCL/NCCL devices), so the truth
here is MindSpore's documented semantics computed with NumPy on the ranks' inputs: one process is one rank
(every collective returns that rank's own data), and in a compiled data-parallel step on 8 virtual CPU devices
each device is a rank holding its part of the batch. The two-process job is tests/parallel/test_comm_two_process.py.
"""
import hashlib

import jax
import numpy as np
import pytest
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

import mindspore_hl as ms
from mindspore_hl import communication, ops, parallel
from mindspore_hl.ops import _comm, _comm_core


def _t(a):
    return ms.Tensor(np.asarray(a, np.float32))


X = np.arange(6, dtype=np.float32).reshape(3, 2)


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "avg"])
def test_one_rank_all_reduce_keeps_the_value_in_place(op):
    t = _t(X)
    assert ops.all_reduce(t, op) is None
    np.testing.assert_array_equal(t.asnumpy(), X)
    handle = ops.all_reduce(t, op=op, async_op=True)
    assert isinstance(handle, _comm.CommHandle) and handle.wait() is None


def test_one_rank_gathers_scatters_and_broadcasts():
    out = _t(np.zeros((3, 2)))
    ops.all_gather_into_tensor(out, _t(X))
    np.testing.assert_array_equal(out.asnumpy(), X)
    lst = [_t(np.zeros((3, 2)))]
    ops.all_gather(lst, _t(X))
    np.testing.assert_array_equal(lst[0].asnumpy(), X)
    out = _t(np.zeros((3, 2)))
    ops.all_gather_into_tensor_uneven(out, _t(X), [3])
    np.testing.assert_array_equal(out.asnumpy(), X)
    for fn in (ops.reduce_scatter_tensor, ops.reduce_scatter_tensor_uneven):
        out = _t(np.zeros((3, 2)))
        fn(out, _t(X))
        np.testing.assert_array_equal(out.asnumpy(), X)
    out = _t(np.zeros((3, 2)))
    ops.reduce_scatter(out, [_t(X)], op="max")
    np.testing.assert_array_equal(out.asnumpy(), X)
    t = _t(X)
    ops.reduce(t, 0, "prod")
    ops.broadcast(t, 0)
    np.testing.assert_array_equal(t.asnumpy(), X)
    for fn in (ops.gather_into_tensor, ops.scatter_tensor):
        out = _t(np.zeros((3, 2)))
        fn(out, _t(X), 0)
        np.testing.assert_array_equal(out.asnumpy(), X)
    outs = [_t(np.zeros((3, 2)))]
    ops.all_to_all(outs, [_t(X)])
    np.testing.assert_array_equal(outs[0].asnumpy(), X)
    out = _t(np.zeros((3, 2)))
    ops.all_to_all_single(out, _t(X))
    np.testing.assert_array_equal(out.asnumpy(), X)
    out = _t(np.zeros((3, 2)))
    ops.all_to_all_v_c(out, _t(X), [6])
    np.testing.assert_array_equal(out.asnumpy(), X)
    assert ops.barrier() is None


def test_one_rank_objects_and_groups():
    communication.init()
    objs = [None]
    ops.all_gather_object(objs, {"a": 1})
    assert objs == [{"a": 1}]
    lst = ["x", 2]
    ops.broadcast_object_list(lst, 0)
    assert lst == ["x", 2]
    got = [None]
    ops.gather_object((1, 2), got, 0)
    assert got == [(1, 2)]
    out = [None]
    ops.scatter_object_list(out, [[3]], 0)
    assert out == [[3]]
    assert (ops.get_rank(), ops.get_world_size(), ops.is_initialized(), ops.is_available()) == (0, 1, True, True)
    name = ops.new_group([0])
    assert name == "hccl_1_" + hashlib.sha1(b"0").hexdigest()  # MindSpore's group naming
    assert ops.new_group() == "hccl_world_group"
    assert ops.get_process_group_ranks(name) == communication.get_process_group_ranks(name) == [0]
    assert ops.get_global_rank(name, 0) == 0 and ops.get_group_rank(name, 0) == 0
    assert ops.get_backend() == "hccl" and ops.get_backend(name) == "hccl"
    assert communication.get_comm_name() == "hccl_world_group"
    ops.destroy_process_group(name)
    with pytest.raises(ValueError, match="unknown group"):
        ops.get_process_group_ranks(name)
    ops.destroy_process_group()
    assert not ops.is_initialized()
    assert ops.get_rank() == -1  # MindSpore answers -1 (and logs a warning) when not initialized


def test_errors_name_the_function():
    with pytest.raises(TypeError, match="all_reduce.*sum, prod, min, max, avg"):
        ops.all_reduce(_t(X), "mean")
    with pytest.raises(TypeError, match="all_reduce, the tensor must be tensor"):
        ops.all_reduce(X)
    with pytest.raises(ValueError, match="destination rank"):
        ops.send(_t(X), dst=0)
    with pytest.raises(ValueError, match="all_gather_into_tensor, the output tensor must have shape"):
        ops.all_gather_into_tensor(_t(np.zeros((4, 2))), _t(X))
    with pytest.raises(ValueError, match="Only support hccl"):
        ops.init_process_group("gloo")
    with pytest.raises(TypeError, match="P2POp"):
        ops.P2POp("send", _t(X), 1)


def test_one_rank_primitives():
    x = _t(X)
    for prim in (ops.AllReduce(), ops.AllReduce(ops.ReduceOp.MAX), ops.AllGather(), ops.ReduceScatter(),
                 ops.CollectiveScatter(), ops.CollectiveGather(0), ops.Reduce(0)):
        np.testing.assert_array_equal(prim(x).asnumpy(), X, err_msg=prim.name)
    np.testing.assert_array_equal(ops.Broadcast(0)((x,))[0].asnumpy(), X)
    np.testing.assert_array_equal(ops.AlltoAll(1, 0, 1)(x).asnumpy(), X)
    np.testing.assert_array_equal(ops.AllGatherV()(x, [6]).asnumpy(), X.reshape(-1))
    np.testing.assert_array_equal(ops.ReduceScatterV()(x, [6]).asnumpy(), X.reshape(-1))
    np.testing.assert_array_equal(ops.AlltoAllV()(x, [6], [6]).asnumpy(), X.reshape(-1))
    np.testing.assert_array_equal(ops.AlltoAllVC()(x, [6]).asnumpy(), X.reshape(-1))
    assert ops.Barrier()() is None
    halo = ops.NeighborExchangeV2([-1] * 8, [0, 0, 0, 0], [-1] * 8, [1, 0, 0, 2], "NCHW")  # nobody sends: zeros
    np.testing.assert_array_equal(halo(_t(X.reshape(1, 1, 3, 2))).asnumpy(),
                                  np.pad(X.reshape(1, 1, 3, 2), ((0, 0), (0, 0), (1, 0), (0, 2))))
    with pytest.raises(ValueError, match="AlltoAll.*split_count"):
        ops.AlltoAll(2, 0, 0)(x)


@pytest.mark.devices(8)
def test_compiled_data_parallel_step_maps_primitives_to_collectives():
    # 8 devices, each a rank holding its rows of the batch (the engine splits a step's batch over 'data').
    ms.set_context(mode=ms.GRAPH_MODE)
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.DATA_PARALLEL, device_num=8)
    x = np.arange(8, dtype=np.float32).reshape(8, 1)
    y = np.arange(64, dtype=np.float32).reshape(64, 1)

    @ms.jit
    def step(x, y):
        return (ops.AllReduce()(x), ops.AllGather()(x), ops.ReduceScatter()(y), ops.AllReduce()(x.mean()),
                ops.Broadcast(3)((x,))[0], ops.AlltoAll(8, 0, 0)(y), ops.AllReduce(ops.ReduceOp.MAX)(y))

    s, g, rs, loss, b, a2a, mx = (o.asnumpy() for o in step(ms.Tensor(x), ms.Tensor(y)))
    local_x = np.split(x, 8)                 # rank d's rows
    local_y = np.split(y, 8)
    np.testing.assert_array_equal(s, sum(local_x))                          # replicated: one rank's value
    np.testing.assert_array_equal(g, np.concatenate(local_x))
    total = sum(local_y)
    np.testing.assert_array_equal(rs, np.concatenate(np.split(total, 8)))  # per rank: concatenated
    np.testing.assert_allclose(loss, sum(v.mean() for v in local_x))       # the ranks' local means summed
    np.testing.assert_array_equal(b, local_x[3])
    np.testing.assert_array_equal(a2a, np.concatenate([np.concatenate([np.split(local_y[d], 8)[i]
                                                                       for d in range(8)]) for i in range(8)]))
    np.testing.assert_array_equal(mx, np.max(np.stack(local_y), 0))


@pytest.mark.devices(8)
def test_functions_inside_a_user_shard_map_use_its_axes():
    mesh = Mesh(np.array(jax.devices()[:4]), ("data",))
    x = np.arange(8, dtype=np.float32).reshape(4, 2)

    def body(v):
        t = ms.Tensor(v)
        ops.all_reduce(t, "avg")
        out = ms.Tensor(np.zeros((4, 2), np.float32))
        ops.all_gather_into_tensor(out, ms.Tensor(v))
        b = ms.Tensor(v)
        ops.broadcast(b, 2)
        return t._value, out._value, b._value

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=(P(), P(), P()), check_vma=False))
    avg, gathered, bcast = f(x)
    assert _comm_core.bound_axes() == ()
    np.testing.assert_allclose(np.asarray(avg), x.mean(0, keepdims=True))
    np.testing.assert_array_equal(np.asarray(gathered), x)
    np.testing.assert_array_equal(np.asarray(bcast), x[2:3])
