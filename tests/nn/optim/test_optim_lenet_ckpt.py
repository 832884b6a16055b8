"""Momentum against real MindSpore: the LeNet5 checkpoint's optimizer state and one more training step."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.serialization import _ckpt_format, load_checkpoint, load_param_into_net, save_checkpoint


@pytest.fixture
def lenet(fixtures_dir):
    d = fixtures_dir / "lenet5"
    ckpt = _ckpt_format.read(str(d / "lenet5_trained.ckpt"))
    grads = np.load(d / "grads.npz")
    after = np.load(d / "params_after_one_more_step.npz")
    return d / "lenet5_trained.ckpt", ckpt, grads, after


def _momentum(ckpt, grads):
    """Bare Parameters holding the checkpoint's network values (the network itself is not needed)."""
    values = dict(ckpt)
    params = [ms.Parameter(ms.Tensor(values[n]), name=n) for n in grads.files]
    return params, nn.Momentum(params, learning_rate=0.01, momentum=0.9)


def test_state_names_shapes_dtypes_match_mindspore(lenet):
    _, ckpt, grads, _ = lenet
    _, opt = _momentum(ckpt, grads)
    mine = [(n, tuple(p.shape), p.asnumpy().dtype) for n, p in opt.parameters_and_names()]
    theirs = [(n, tuple(a.shape), a.dtype) for n, a in ckpt]
    # The checkpoint lists the network's parameters, then the optimizer's own state, in MindSpore's order.
    net = set(grads.files)
    assert [e for e in mine if e[0] not in net] == [e for e in theirs if e[0] not in net]
    assert [e[0] for e in theirs if e[0] not in net] == (
        ["global_step", "learning_rate", "momentum"] + [f"moments.{n}" for n in grads.files])
    assert sorted(mine, key=str) == sorted(theirs, key=str)


def test_one_more_step_reproduces_mindspore(lenet, mode):
    _, ckpt, grads, after = lenet
    params, opt = _momentum(ckpt, grads)
    state = dict(opt.parameters_and_names())
    for name, value in ckpt:
        state[name].set_data(ms.Tensor(value))
    assert opt.global_step.asnumpy().tolist() == [4]
    assert bool(opt(tuple(ms.Tensor(grads[n]) for n in grads.files)))
    for p in params:
        np.testing.assert_allclose(p.asnumpy(), after[p.name], rtol=1e-4, atol=1e-5, err_msg=p.name)
    assert opt.global_step.asnumpy().tolist() == [5]
    # moments = 0.9 * moments + grad, independently of the parameter update
    values = dict(ckpt)
    for n in grads.files:
        np.testing.assert_allclose(state[f"moments.{n}"].asnumpy(), 0.9 * values[f"moments.{n}"] + grads[n],
                                   rtol=1e-5, atol=1e-7)


def test_checkpoint_moments_are_needed(lenet):
    """Without the checkpoint's moments the step lands elsewhere: the test above really uses the state."""
    _, ckpt, grads, after = lenet
    params, opt = _momentum(ckpt, grads)
    opt(tuple(ms.Tensor(grads[n]) for n in grads.files))
    assert not all(np.allclose(p.asnumpy(), after[p.name], rtol=1e-4, atol=1e-5) for p in params)


def test_load_param_into_optimizer_then_save_round_trip(lenet, tmp_path):
    path, ckpt, grads, after = lenet
    params, opt = _momentum(ckpt, grads)
    not_loaded, unused = load_param_into_net(opt, load_checkpoint(str(path)))
    assert (list(not_loaded), list(unused)) == ([], [])
    opt(tuple(ms.Tensor(grads[n]) for n in grads.files))
    out = tmp_path / "opt.ckpt"
    save_checkpoint(opt, str(out))
    saved = _ckpt_format.read(str(out))
    assert [(n, a.shape, a.dtype) for n, a in saved] == [(n, tuple(p.shape), p.asnumpy().dtype)
                                                         for n, p in opt.parameters_and_names()]
    saved = dict(saved)
    assert saved["global_step"].tolist() == [5]
    np.testing.assert_allclose(saved["fc1.weight"], after["fc1.weight"], rtol=1e-4, atol=1e-5)
