"""Strategies (split counts) to PartitionSpecs, optimizer-slot layouts, batch layouts."""
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P
from mindspore_hl.parallel._layout import batch_spec, optimizer_slots, parameter_specs, to_spec

import mindspore_hl as ms


@pytest.mark.parametrize("layout, shape, data, model, first, expected", [
    ((1, 1), (8, 8), 4, 2, False, P(None, None)),
    ((2, 1), (8, 8), 4, 2, False, P("model", None)),
    ((1, 4), (8, 8), 4, 2, False, P(None, "data")),
    ((4, 2), (8, 8), 4, 2, True, P("data", "model")),
    ((8, 1), (8, 8), 4, 2, False, P(("data", "model"), None)),
    ((2, 1), (8, 8), 2, 2, True, P("data", None)),    # inputs: dimension 0 prefers the data axis
    ((2, 1), (8, 8), 2, 2, False, P("model", None)),  # parameters prefer the model axis
])
def test_strategy_to_spec(layout, shape, data, model, first, expected):
    assert to_spec(layout, shape, data, model, "t", batch_first=first) == expected


@pytest.mark.parametrize("layout, shape, match", [
    ((3, 1), (6, 6), r"split count 3 in strategy \(3, 1\) does not match the mesh data=4 x model=2"),
    ((2, 2), (8, 8), "uses a mesh axis twice"),
    ((2,), (8, 8), r"has 1 entries, but the tensor has shape \(8, 8\)"),
    ((1, 2), (8, 7), "dimension of size 7 cannot be split in 2 parts"),
])
def test_bad_strategies(layout, shape, match):
    with pytest.raises(ValueError, match=match):
        to_spec(layout, shape, 4, 2, "t")


def _p(name, shape):
    return ms.Parameter(ms.Tensor(np.zeros(shape, np.float32)), name=name)


def test_optimizer_slots_follow_their_weight():
    params = [_p("fc.weight", (4, 2)), _p("fc.bias", (4,)), _p("layer1.fc.weight", (4, 2)),
              _p("layer1.bn.gamma", (4,)), _p("moments.fc.weight", (4, 2)), _p("moments.fc.bias", (4,)),
              _p("moments.layer1.fc.weight", (4, 2)), _p("global_step", (1,))]
    assert optimizer_slots(params) == {"moments.fc.weight": "fc.weight", "moments.fc.bias": "fc.bias",
                                       "moments.layer1.fc.weight": "layer1.fc.weight"}
    params[0].sharding = (2, 1)
    specs = dict(zip([p.name for p in params], parameter_specs(params, 4, 2)))
    assert specs["fc.weight"] == specs["moments.fc.weight"] == P("model", None)
    assert specs["layer1.fc.weight"] == specs["moments.layer1.fc.weight"] == P()
    assert parameter_specs(params, 4, 2, hints=False)[0] == P()


def test_batch_spec():
    assert batch_spec((16, 3), 8) == P("data")
    assert batch_spec((12, 3), 8) == P()
    assert batch_spec((), 8) == P()
    assert batch_spec((16,), 1) == P()
