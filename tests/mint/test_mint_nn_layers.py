"""mint.nn layers against PyTorch, whose semantics mint.nn follows: MindSpore 2.10's CPU build has no kernel for
most mint.nn layers (they are Ascend kernels), so the recorded MindSpore fixture covers only some of them
(tests/nn/test_oracle_layers.py replays those); every mint case also runs here against torch.nn as the second
implementation (skipped when torch is not installed)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import mint
from tests.nn import nn_cases

torch = pytest.importorskip("torch")

CASES = [c for c in nn_cases.CASES if c.get("mod") == "mint.nn"]


@pytest.fixture(autouse=True)
def _graph_mode():
    # One compiled forward and one compiled gradient per case: far fewer compiles than op-by-op PYNATIVE.
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)


def _torch_kwargs(kwargs):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_mint_layer_matches_torch(case):
    rng = np.random.default_rng(case["seed"])
    ours = getattr(mint.nn, case["cls"])(**nn_cases.decode(case["kwargs"], ms))
    theirs = getattr(torch.nn, case["cls"])(**_torch_kwargs(case["kwargs"]))
    train = case.get("train", False)
    ours.set_train(train)
    theirs.train(train)
    t_state = dict(theirs.named_parameters()) | dict(theirs.named_buffers())
    params = list(ours.get_parameters())
    assert sorted(p.name for p in params) == sorted(t_state), case["id"]
    for p in params:
        if p.name == "num_batches_tracked":
            continue
        v = nn_cases.param_value(rng, p.name, tuple(p.shape), case)
        p.set_data(ms.Tensor(v))
        with torch.no_grad():
            t_state[p.name].copy_(torch.from_numpy(v))
    inputs = nn_cases.make_inputs(rng, case)
    xs = [ms.Tensor(v) for v in inputs.values()]
    ts = [torch.tensor(v, requires_grad=v.dtype.kind == "f" and not k.startswith("nograd"))
          for k, v in inputs.items()]
    t_out = theirs(*ts)
    t_first = t_out[0] if isinstance(t_out, tuple) else t_out
    sens = rng.standard_normal(tuple(t_first.shape)).astype(np.float32)
    out = ours(*xs)
    first = out[0] if isinstance(out, tuple) else out
    np.testing.assert_allclose(first.asnumpy(), t_first.detach().numpy(), rtol=2e-4, atol=2e-5, err_msg=case["id"])
    if isinstance(out, tuple):  # indices
        np.testing.assert_array_equal(out[1].asnumpy(), t_out[1].numpy())
    if train:
        for p in params:
            np.testing.assert_allclose(p.asnumpy(), t_state[p.name].detach().numpy(), rtol=1e-5, atol=1e-6,
                                       err_msg=f"{case['id']} {p.name} after the call")
        return
    if not case.get("grad", True) or not first.dtype.is_floating:
        return
    (t_first * torch.from_numpy(sens)).sum().backward()
    pos = [i for i, t in enumerate(ts) if t.requires_grad]
    trainable = [p for p in params if p.requires_grad]
    if not pos and not trainable:
        return
    s = ms.Tensor(sens)

    def loss(*a):
        y = ours(*a)
        return ((y[0] if isinstance(y, tuple) else y) * s).sum()

    g = ms.grad(loss, grad_position=tuple(pos) if pos else None,
                weights=ms.ParameterTuple(trainable) if trainable else None)(*xs)
    gin, gw = (g if pos and trainable else (g, ()) if pos else ((), g))
    gin = gin if isinstance(gin, tuple) else (gin,)
    for i, got in zip(pos, gin):
        np.testing.assert_allclose(got.asnumpy(), ts[i].grad.numpy(), rtol=2e-4, atol=2e-5,
                                   err_msg=f"{case['id']} input gradient {i}")
    for p, got in zip(trainable, gw):
        np.testing.assert_allclose(got.asnumpy(), t_state[p.name].grad.numpy(), rtol=2e-4, atol=2e-5,
                                   err_msg=f"{case['id']} {p.name} gradient")
