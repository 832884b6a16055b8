"""nn.OptaxOptimizer: optax transformations as MindSpore optimizers (Model.train, loss scaling, checkpoints)."""
import numpy as np
import optax
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import Accuracy, FixedLossScaleManager, Model
from model_zoo import MNIST_DIR
from model_zoo.lenet.src import LeNet5, create_dataset


def _params(seed=0):
    rng = np.random.default_rng(seed)
    return [ms.Parameter(ms.Tensor(rng.standard_normal((3, 4)).astype(np.float32)), name="fc.weight"),
            ms.Parameter(ms.Tensor(rng.standard_normal(4).astype(np.float32)), name="fc.bias")]


def _grads(step):
    rng = np.random.default_rng(100 + step)
    return (ms.Tensor(rng.standard_normal((3, 4)).astype(np.float32)),
            ms.Tensor(rng.standard_normal(4).astype(np.float32)))


def test_sgd_momentum_transformation_equals_nn_momentum():
    mine, theirs = _params(), _params()
    opt = nn.OptaxOptimizer(mine, optax.sgd(0.1, momentum=0.9))
    ref = nn.Momentum(theirs, 0.1, 0.9)
    for step in range(3):
        opt(_grads(step))
        ref(_grads(step))
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-7)
    assert opt.global_step.asnumpy().tolist() == [3]
    assert [p.name for p in opt.optax_state] == ["optax.0.trace.fc.bias", "optax.0.trace.fc.weight"]


def test_learning_rate_schedule_scales_a_direction_and_loss_scale_divides():
    mine, theirs = _params(), _params()
    opt = nn.OptaxOptimizer(mine, optax.scale_by_adam(), learning_rate=[0.1, 0.01], loss_scale=8.0)
    ref = optax.adam(1.0)
    state = ref.init([p.asnumpy() for p in theirs])
    values = [p.asnumpy() for p in theirs]
    for step, lr in enumerate([0.1, 0.01]):
        g = _grads(step)
        opt(tuple(t * 8.0 for t in g))
        upd, state = ref.update([t.asnumpy() for t in g], state)
        values = [v + lr * np.asarray(u) for v, u in zip(values, upd)]
    for p, v in zip(mine, values):
        np.testing.assert_allclose(p.asnumpy(), v, rtol=1e-5, atol=1e-6)


def test_checkpoint_round_trip_resumes_identically(tmp_path):
    a = _params()
    opt = nn.OptaxOptimizer(a, optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(0.05)))
    for step in range(2):
        opt(_grads(step))
    path = str(tmp_path / "opt.ckpt")
    ms.save_checkpoint(opt, path)
    b = _params(seed=5)
    resumed = nn.OptaxOptimizer(b, optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(0.05)))
    missing, _ = ms.load_param_into_net(resumed, ms.load_checkpoint(path))
    assert missing == []
    opt(_grads(2))
    resumed(_grads(2))
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.asnumpy(), y.asnumpy())
    for s, t in zip(opt.optax_state, resumed.optax_state):
        assert s.name == t.name
        np.testing.assert_array_equal(s.asnumpy(), t.asnumpy())


def _lenet_accuracy(make_opt, steps, loss_scale=None):
    ms.set_seed(1)
    ds_train = create_dataset(str(MNIST_DIR), 32, usage="train", num_samples=32 * steps)
    ds_eval = create_dataset(str(MNIST_DIR), 100, usage="test", shuffle=False, num_samples=1000)
    net = LeNet5(10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    kw = {} if loss_scale is None else {"loss_scale_manager": FixedLossScaleManager(loss_scale, False)}
    model = Model(net, loss, make_opt(net.trainable_params(), loss_scale or 1.0), metrics={"acc": Accuracy()}, **kw)
    model.train(1, ds_train, dataset_sink_mode=False)
    return model.eval(ds_eval, dataset_sink_mode=False)["acc"]


def test_lenet_trains_with_optax_like_with_momentum():
    steps = 300
    ref = _lenet_accuracy(lambda p, s: nn.Momentum(p, 0.03, 0.9), steps)
    got = _lenet_accuracy(lambda p, s: nn.OptaxOptimizer(p, optax.sgd(0.03, momentum=0.9), loss_scale=s), steps,
                          loss_scale=128.0)
    # (The two runs see the batches in different shuffles, so the accuracies differ by a few tenths of a percent.)
    assert ref > 0.85 and got >= ref - 0.01, (ref, got)


@pytest.mark.slow
def test_lenet_adamw_on_optax_reaches_momentum_accuracy():
    steps = 600
    ref = _lenet_accuracy(lambda p, s: nn.Momentum(p, 0.03, 0.9), steps)
    got = _lenet_accuracy(lambda p, s: nn.OptaxOptimizer(p, optax.adamw(2e-3)), steps)
    assert got >= ref - 0.01, (ref, got)
