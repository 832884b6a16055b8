"""Small networks and datasets for the Model and callback tests (real nn layers, NumPy batches),
used as a pytest plugin."""
import numpy as np
import pytest

from mindspore_hl import nn


class MLP(nn.Cell):
    def __init__(self, n_in=8, hidden=16, n_out=3):
        super().__init__()
        self.fc1 = nn.Dense(n_in, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, n_out)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def make_batches(n_batches=6, batch=16, n_in=8, n_out=3, seed=0):
    """A linearly separable classification problem as a list of (x, y) NumPy batches."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=(n_in, n_out))
    x = rng.normal(size=(n_batches * batch, n_in)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int32)
    return [(x[i:i + batch], y[i:i + batch]) for i in range(0, len(x), batch)]


def make_model(metrics=None, lr=0.1, **kwargs):
    from mindspore_hl.train import Model
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, loss, opt, metrics=metrics, **kwargs), net, opt


@pytest.fixture
def batches():
    return make_batches()


@pytest.fixture
def model_factory():
    """``model_factory(metrics=None, lr=0.1, **model_kwargs) -> (model, net, optimizer)``."""
    return make_model


@pytest.fixture
def batch_factory():
    return make_batches
