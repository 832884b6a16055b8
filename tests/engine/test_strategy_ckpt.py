"""The strategy file a sharded step writes (``strategy_ckpt_save_file``), MindSpore's ``node_strategy.proto``.

tests/fixtures/mindspore/engine_strategy.ckpt is what the train step below writes; real MindSpore's
``build_searched_strategy`` parsed it (tests/parallel/test_ckpt_transform.py replays that). One test checks
that the engine still writes exactly that file and that every device holds the slice the file says it holds.
"""
import pathlib
import types

import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindspore_hl as ms
from mindspore_hl import nn, parallel
from mindspore_hl._engine import _strategy_ckpt
from mindspore_hl.parallel._layout_math import slice_bounds

ENGINE_FILE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "engine_strategy.ckpt"


@pytest.fixture(autouse=True)
def _stand_alone():
    parallel.reset_auto_parallel_context()
    yield
    parallel.reset_auto_parallel_context()


def _param(name, shape, requires_grad=True):
    return types.SimpleNamespace(name=name, shape=shape, requires_grad=requires_grad)


def test_layouts_written_for_each_spec(tmp_path):
    path = tmp_path / "sub" / "strategy.ckpt"
    ms.set_auto_parallel_context(strategy_ckpt_save_file=str(path))
    params = [_param("w", (8, 4)), _param("v", (8, 4)), _param("both", (16,)), _param("stat", (4,), False)]
    specs = [P("model", None), P(None, "data"), P(("data", "model")), P()]
    _strategy_ckpt.save_plan_strategy(params, specs, 4, 2)
    got = ms.build_searched_strategy(str(path))
    assert list(got) == ["both", "v", "w"]  # sorted; 'stat' does not require grad (only_trainable_params)
    assert [list(got["w"].dev_matrix[0].dim), list(got["w"].tensor_map[0].dim)] == [[4, 2], [0, -1]]
    assert [list(got["v"].dev_matrix[0].dim), list(got["v"].tensor_map[0].dim)] == [[4, 2], [-1, 1]]
    assert [list(got["both"].dev_matrix[0].dim), list(got["both"].tensor_map[0].dim)] == [[8], [0]]
    pm = parallel._strategy_file.load_strategy_map(str(path))
    assert pm.current_stage == 1
    assert {(i.node_name, tuple(i.parallel_strategys.parallel_strategy[0].dim)) for i in pm.parallel_strategy_item} \
        == {("w", (2, 1)), ("v", (1, 4)), ("both", (8,))}
    ms.set_auto_parallel_context(strategy_ckpt_config={"only_trainable_params": False})
    _strategy_ckpt.save_plan_strategy(params, specs, 4, 2)
    assert "stat" in ms.build_searched_strategy(str(path))
    # rank r of a row-major 4 x 2 mesh holds rows r % 2 of 'w' (tensor_map 0 = the model axis)
    assert slice_bounds(3, [4, 2], [0, -1], (8, 4)) == (slice(4, 8), slice(0, 4))


def test_nothing_written_without_a_file_name(tmp_path):
    _strategy_ckpt.save_plan_strategy([_param("w", (2,))], [P()], 1, 1)
    assert list(tmp_path.iterdir()) == []


def _train(path):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8,
                                 strategy_ckpt_config={"save_file": str(path), "only_trainable_params": False})
    ms.set_seed(1)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(8, 16)
            self.fc2 = nn.Dense(16, 4)

        def construct(self, x):
            return self.fc2(self.fc1(x))

    net = Net()
    net.fc1.shard(in_strategy=((4, 1),), parameter_plan={"self.weight": (2, 1)})
    net.fc2.weight.sharding = (1, 2)
    net.fc1.bias.sharding = (2,)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    step(ms.Tensor(np.ones((8, 8), np.float32)), ms.Tensor(np.ones((8, 4), np.float32)))
    return step


@pytest.mark.devices(8)
def test_sharded_train_step_writes_the_file_mindspore_reads(tmp_path):
    path = tmp_path / "strategy.ckpt"
    step = _train(path)
    assert path.read_bytes() == ENGINE_FILE.read_bytes()
    layouts = ms.build_searched_strategy(str(path))
    params = [p for _, p in step.parameters_and_names()]
    assert sorted(layouts) == sorted(p.name for p in params if p.ndim)  # 0-d: learning_rate, momentum
    for param in params:
        if not param.ndim:
            continue
        layout = layouts[param.name]
        dev, tmap = list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim)
        full = np.asarray(param.asnumpy())
        mesh_ranks = {d.id: r for r, d in enumerate(param._data.sharding.mesh.devices.flat)}
        for shard in param._data.addressable_shards:  # the device at mesh position r holds the slice of rank r
            want = full[slice_bounds(mesh_ranks[shard.device.id], dev, tmap, full.shape)]
            np.testing.assert_array_equal(np.asarray(shard.data), want, err_msg=param.name)


@pytest.mark.devices(8)
def test_data_parallel_writes_no_strategy_file(tmp_path):
    path = tmp_path / "strategy.ckpt"
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode="data_parallel", device_num=2, strategy_ckpt_save_file=str(path))
    net = nn.Dense(2, 2)
    net(ms.Tensor(np.ones((2, 2), np.float32)))
    assert not path.exists()
