"""SequentialCell, CellList, CellDict: construction forms, naming, indexing, mutation, and running."""
from collections import OrderedDict

import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def test_sequential_cell_runs_in_order_and_names_by_index(mode):
    def ref(p, x):
        h = jnp.maximum(x @ p["0.weight"].T + p["0.bias"], 0)
        return h @ p["2.weight"].T + p["2.bias"]

    run_layer_test(lambda: nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2)]), [_x(3, 4)],
                   expected_shape=(3, 2), params=[("0.weight", (8, 4)), ("0.bias", (8,)), ("2.weight", (2, 8)),
                                                  ("2.bias", (2,))],
                   reference=ref, bad_input=_x(3, 5), error_names="Dense")  # the inner Cell that failed


def test_sequential_cell_forms_indexing_and_repr():
    a, b = nn.Dense(2, 3), nn.ReLU()
    assert [n for n, _ in nn.SequentialCell(a, b).parameters_and_names()] == ["0.weight", "0.bias"]
    seq = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 3)), ("act", nn.ReLU())]))
    assert [n for n, _ in seq.parameters_and_names()] == ["fc.weight", "fc.bias"]
    assert isinstance(seq[1], nn.ReLU) and isinstance(seq[-2], nn.Dense) and len(seq) == 2
    assert repr(nn.SequentialCell([nn.Dense(4, 8), nn.ReLU()])) == (
        "SequentialCell(\n  (0): Dense(input_channels=4, output_channels=8, has_bias=True)\n  (1): ReLU()\n)")
    with pytest.raises(IndexError, match="index 5 is out of range for 2 cell"):
        seq[5]
    with pytest.raises(TypeError, match="SequentialCell: expected a Cell, but got int"):
        nn.SequentialCell([nn.ReLU(), 3])


def test_sequential_cell_append_insert_delete_keep_names_consistent():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 2)])

    net = Net()
    net.body.append(nn.Dense(2, 3))
    assert [n for n, _ in net.parameters_and_names()] == [
        "body.0.weight", "body.0.bias", "body.1.weight", "body.1.bias", "body.2.weight", "body.2.bias"]
    net.body.insert(1, nn.Dense(2, 2, has_bias=False))
    assert [n for n, _ in net.parameters_and_names()] == [
        "body.0.weight", "body.0.bias", "body.1.weight", "body.2.weight", "body.2.bias", "body.3.weight",
        "body.3.bias"]
    del net.body[0]
    assert [n for n, _ in net.parameters_and_names()] == [
        "body.0.weight", "body.1.weight", "body.1.bias", "body.2.weight", "body.2.bias"]
    assert net.body(Tensor(_x(4, 2))).shape == (4, 3)
    sub = net.body[1:]
    assert len(sub) == 2 and [n for n, _ in net.parameters_and_names()][0] == "body.0.weight"  # slicing renames nothing
    assert [p.name for p in sub.get_parameters()] == ["body.1.weight", "body.1.bias", "body.2.weight", "body.2.bias"]


def test_cell_list_and_cell_dict(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([nn.Dense(3, 3), nn.Dense(3, 3)])
            self.heads = nn.CellDict({"a": nn.Dense(3, 1), "b": nn.Dense(3, 2)})

        def construct(self, x):
            for blk in self.blocks:
                x = blk(x)
            return self.heads["a"](x), self.heads["b"](x)

    net = Net()
    net.blocks.append(nn.Dense(3, 3))
    assert [n for n, _ in net.parameters_and_names()][:6] == [
        "blocks.0.weight", "blocks.0.bias", "blocks.1.weight", "blocks.1.bias", "blocks.2.weight", "blocks.2.bias"]
    assert [n for n, _ in net.parameters_and_names()][6:] == ["heads.a.weight", "heads.a.bias", "heads.b.weight",
                                                              "heads.b.bias"]
    a, b = net(Tensor(_x(5, 3)))
    assert a.shape == (5, 1) and b.shape == (5, 2)
    assert len(net.blocks) == 3 and isinstance(net.blocks[-1], nn.Dense)
    assert list(net.heads.keys()) == ["a", "b"] and "a" in net.heads and len(net.heads) == 2
    popped = net.heads.pop("a")
    assert isinstance(popped, nn.Dense) and list(net.heads) == ["b"]
    with pytest.raises(KeyError, match="no cell named 'zz'; keys: \\['b'\\]"):
        net.heads["zz"]
    with pytest.raises(KeyError, match="keys must be non-empty str without '.'"):
        net.heads["x.y"] = nn.ReLU()
