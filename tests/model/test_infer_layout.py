"""``Model.infer_train_layout`` / ``Model.infer_predict_layout`` on the 8 virtual CPU devices.

Real MindSpore's CPU build cannot compile a SEMI_AUTO_PARALLEL graph, so the layouts are checked against two
other sources: the strategy file the same step writes (``strategy_ckpt_save_file``; real MindSpore reads this
engine's strategy files, see tests/engine/test_strategy_ckpt.py), read back with ``build_searched_strategy`` and
turned into lists by ``parallel._strategy_file.layout_map`` (MindSpore's ``_convert_to_list``: ``[dev_matrix,
tensor_map, param_split_shape, field, opt_shard_step, opt_shard_size, stages]``), and JAX's own sharding of the
compiled state (the shape each device holds). MindSpore's checks that run before compiling, and its errors in the
other parallel modes, are replayed from tests/fixtures/oracle/infer_layout.npz
(tools/oracle/record_infer_layout.py).
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.parallel._layout_math import slice_bounds, strategy_of
from mindspore_hl.parallel._strategy_file import layout_map
from tests.oracle import case_params

pytestmark = pytest.mark.devices(8)  # every test lays a step out over 8 devices

X = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
Y = np.linspace(0, 1, 32, dtype=np.float32).reshape(8, 4)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16)
        self.fc2 = nn.Dense(16, 4)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def _model(path, mode="semi_auto_parallel"):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=mode, device_num=8,
                                 strategy_ckpt_config={"save_file": str(path), "only_trainable_params": False})
    ms.set_seed(1)
    net = Net()
    net.fc1.shard(in_strategy=((4, 1),), parameter_plan={"self.weight": (2, 1)})
    net.fc2.weight.sharding = (1, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, ms.Model(net, nn.MSELoss(), opt)


def _check_against_file(layouts, path, params):
    file_lists = layout_map(ms.build_searched_strategy(str(path)))
    assert set(layouts) == set(file_lists)
    for name, value in layouts.items():
        dev, tmap, slice_shape, field, uniform, group = value
        assert isinstance(value, tuple) and len(value) == 6
        file_dev, file_tmap, _split, file_field, _step, file_opt_size, _stages = file_lists[name]
        assert (dev, tmap, field) == (file_dev, file_tmap, file_field), name
        assert (group == "") == (file_opt_size == 0) and uniform is True
        shape = tuple(params[name].shape)
        assert slice_shape == [n // k for n, k in zip(shape, strategy_of(dev, tmap))]
        # JAX's layout of the compiled state: the block every device holds
        assert list(params[name]._value.sharding.shard_shape(shape)) == slice_shape, name


def test_train_layout_is_the_strategy_file_of_the_same_step(tmp_path):
    path = tmp_path / "train.ckpt"
    net, model = _model(path)
    layouts = model.infer_train_layout([(X, Y)] * 2)
    params = {p.name: p for p in model.train_network.get_parameters()}
    _check_against_file(layouts, path, params)
    # the sharded weights and their optimizer state; scalars (learning_rate, momentum) have no layout
    assert layouts["fc1.weight"] == ([4, 2], [0, -1], [8, 8], 0, True, "")
    assert layouts["moments.fc2.weight"] == ([4, 2], [-1, 0], [4, 8], 0, True, "")
    assert "learning_rate" not in layouts
    # the step compiled ahead is the one training runs
    model.train(1, [(X, Y)] * 2)
    assert np.isfinite(net.fc1.weight.asnumpy()).all()


def test_predict_layout_feeds_load_distributed_checkpoint(tmp_path):
    path = tmp_path / "predict.ckpt"
    net, model = _model(path)
    layouts = model.infer_predict_layout(ms.Tensor(X), skip_backend_compile=True)
    assert list(layouts) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    _check_against_file(layouts, path, {p.name: p for p in net.get_parameters()})
    # one checkpoint per rank holding its slices (by the strategy file), put together again under the
    # predict layouts: the values come back whole
    values = {p.name: p.asnumpy() for p in net.get_parameters()}
    files = []
    for rank in range(8):
        file = str(tmp_path / f"rank_{rank}.ckpt")
        ms.save_checkpoint([{"name": name, "data": ms.Tensor(v[slice_bounds(rank, *layouts[name][:2], v.shape)])}
                            for name, v in values.items()], file)
        files.append(file)
    fresh = Net()
    assert ms.load_distributed_checkpoint(fresh, files, predict_strategy=layouts,
                                          train_strategy_filename=str(path)) is True
    for p in fresh.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), values[p.name])
    bad = dict(layouts, **{"fc1.bias": ([4, 2], [-1], [16], 1, True, "")})
    with pytest.raises(ValueError, match="field_size"):
        ms.load_distributed_checkpoint(fresh, files, predict_strategy=bad, train_strategy_filename=str(path))
    out = model.predict(ms.Tensor(X))
    assert out.shape == (8, 4)


def _call(case_id):
    data = [(X[:2, :4], Y[:2, :2])] * 2
    net = nn.Dense(4, 2)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()))
    x = ms.Tensor(X[:2, :4])
    calls = {
        "predict": lambda: model.infer_predict_layout(x),
        "train": lambda: model.infer_train_layout(data),
        "train/sink_mode_false": lambda: model.infer_train_layout(data, dataset_sink_mode=False),
        "train/sink_mode_int": lambda: model.infer_train_layout(data, dataset_sink_mode=1),
        "train/sink_size_zero": lambda: model.infer_train_layout(data, sink_size=0),
        "train/sink_size_minus_two": lambda: model.infer_train_layout(data, sink_size=-2),
        "train/sink_size_float": lambda: model.infer_train_layout(data, sink_size=1.5),
        "predict/numpy_input": lambda: model.infer_predict_layout(X[:2, :4]),
        "predict/numpy_in_list": lambda: model.infer_predict_layout([x, X[:2, :4]]),
    }
    return calls.get(case_id) or calls[case_id.split("/")[0]]


@pytest.mark.parametrize("case", case_params("infer_layout.npz"))
def test_errors_as_mindspore(case):
    mode = case.meta["mode"]
    ms.set_auto_parallel_context(parallel_mode=mode, device_num=8 if mode != "stand_alone" else 1)
    with pytest.raises(Exception) as info:
        _call(case.id)()
    assert type(info.value).__name__ == case.error
    assert str(info.value) == case.meta["message"]


def test_auto_parallel_train_layout_is_its_strategy_file(tmp_path):
    path = tmp_path / "auto.ckpt"
    _net, model = _model(path, mode="auto_parallel")
    layouts = model.infer_train_layout([(X, Y)] * 2, sink_size=1)
    _check_against_file(layouts, path, {p.name: p for p in model.train_network.get_parameters()})
