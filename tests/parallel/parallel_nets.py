"""Networks and a training loop for the parallel tests, built from the real nn layers and optimizers.

``LeNet5`` is ModelZoo LeNet5 (model_zoo/lenet). Parameters come
from ``ms.set_seed(seed)``, so two networks built with the same seed are identical; ``train`` runs the same
TrainOneStepCell loop for any parallel mode so that runs can be compared parameter by parameter.
"""
import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from model_zoo.lenet.src import LeNet5  # noqa: F401  (re-exported for the parallel tests)


class MLP(nn.Cell):
    """Three Dense layers; with a large ``hidden`` it needs sharding under a small memory budget."""

    def __init__(self, cin=64, hidden=512, cout=16):
        super().__init__()
        self.fc1 = nn.Dense(cin, hidden, activation="tanh")
        self.fc2 = nn.Dense(hidden, hidden, activation="tanh")
        self.fc3 = nn.Dense(hidden, cout)

    def construct(self, x):
        return self.fc3(self.fc2(self.fc1(x)))


def build(make_net, seed=1):
    """A network with the parameters that ``seed`` gives."""
    ms.set_seed(seed)
    return make_net()


def batches(steps, batch, seed=0, shape=(1, 32, 32), classes=10):
    """``steps`` (images, labels) NumPy batches."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(batch,) + shape).astype(np.float32), rng.integers(0, classes, (batch,)).astype(np.int32))
            for _ in range(steps)]


def lenet_rows(n, seed=0):
    """A data set of ``n`` LeNet5 images and labels (the same in every process of a multi-process test)."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 1, 32, 32)).astype(np.float32), rng.integers(0, 10, (n,)).astype(np.int32)


def loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def train(net, data, lr=0.05, reducer=None):
    """GRAPH_MODE TrainOneStepCell with nn.Momentum over ``data``; returns (losses, {name: array}, train cell)."""
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt)
    if reducer is not None:
        train_net.grad_reducer = reducer(train_net.weights)
    train_net.set_train()
    losses = [float(train_net(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in data]
    return losses, {p.name: np.asarray(p.asnumpy()) for p in net.trainable_params()}, train_net


def mlp(hidden=512, seed=1):
    return build(lambda: MLP(hidden=hidden), seed)


def lenet5(seed=1):
    return build(LeNet5, seed)
