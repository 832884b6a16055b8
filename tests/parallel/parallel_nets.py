"""Networks for the parallel tests, written from Parameters and JAX ops (independent of nn.layer).

``LeNet5`` has ModelZoo LeNet5's parameter names and shapes (conv1/conv2 without bias, fc1..fc3), and
``train_lenet`` runs the same TrainOneStepCell loop for any parallel mode so that runs can be compared.
"""
import jax
import jax.numpy as jnp
import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.common.tensor import wrap


def _param(rng, shape, name, scale):
    return ms.Parameter(ms.Tensor(rng.normal(0.0, scale, shape).astype(np.float32)), name=name)


class Conv(nn.Cell):
    """Valid 2-D convolution without bias (NCHW / OIHW)."""

    def __init__(self, rng, cin, cout, k):
        super().__init__()
        self.weight = _param(rng, (cout, cin, k, k), "weight", (2.0 / (cin * k * k)) ** 0.5)

    def construct(self, x):
        y = jax.lax.conv_general_dilated(x._value, self.weight._value, (1, 1), "VALID",
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return wrap(y)


class Dense(nn.Cell):
    """``x @ weight.T + bias`` with weight of shape (out, in), as nn.Dense."""

    def __init__(self, rng, cin, cout, scale=0.02):
        super().__init__()
        self.weight = _param(rng, (cout, cin), "weight", scale)
        self.bias = ms.Parameter(ms.Tensor(np.zeros((cout,), np.float32)), name="bias")

    def construct(self, x):
        return wrap(x._value @ self.weight._value.T + self.bias._value)


def _pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


class LeNet5(nn.Cell):
    """ModelZoo LeNet5 (input N x 1 x 32 x 32), parameters drawn from a NumPy generator seeded with ``seed``."""

    def __init__(self, seed=1, num_class=10):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.conv1 = Conv(rng, 1, 6, 5)
        self.conv2 = Conv(rng, 6, 16, 5)
        self.fc1 = Dense(rng, 16 * 5 * 5, 120)
        self.fc2 = Dense(rng, 120, 84)
        self.fc3 = Dense(rng, 84, num_class)

    def construct(self, x):
        h = _pool(jax.nn.relu(self.conv1(x)._value))
        h = _pool(jax.nn.relu(self.conv2(wrap(h))._value))
        h = h.reshape(h.shape[0], -1)
        h = jax.nn.relu(self.fc1(wrap(h))._value)
        h = jax.nn.relu(self.fc2(wrap(h))._value)
        return self.fc3(wrap(h))


class MLP(nn.Cell):
    """Three Dense layers; big enough (with ``hidden``) to need sharding under a small memory budget."""

    def __init__(self, seed=0, cin=64, hidden=512, cout=16):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.fc1 = Dense(rng, cin, hidden, 0.1)
        self.fc2 = Dense(rng, hidden, hidden, 0.05)
        self.fc3 = Dense(rng, hidden, cout, 0.05)

    def construct(self, x):
        h = jnp.tanh(self.fc1(x)._value)
        h = jnp.tanh(self.fc2(wrap(h))._value)
        return self.fc3(wrap(h))


class SoftmaxCE(nn.Cell):
    """Mean sparse softmax cross-entropy."""

    def construct(self, logits, labels):
        logp = jax.nn.log_softmax(logits._value, axis=-1)
        picked = jnp.take_along_axis(logp, labels._value[:, None].astype(jnp.int32), axis=-1)
        return wrap(-jnp.mean(picked))


class SGDMomentum(nn.Cell):
    """A hand-written momentum optimizer with MindSpore's slot names (``moments.<param>``)."""

    def __init__(self, params, lr=0.05, momentum=0.9):
        super().__init__(auto_prefix=False)
        self.parameters = ms.ParameterTuple(params)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.lr, self.momentum = lr, momentum

    def construct(self, grads):
        for p, m, g in zip(self.parameters, self.moments, grads):
            new_m = m._value * self.momentum + g._value
            m.set_data(wrap(new_m))
            p.set_data(wrap(p._value - self.lr * new_m))
        return wrap(jnp.asarray(True))


def batches(steps, batch, seed=0, shape=(1, 32, 32), classes=10):
    """``steps`` (images, labels) NumPy batches."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(batch,) + shape).astype(np.float32), rng.integers(0, classes, (batch,)).astype(np.int32))
            for _ in range(steps)]


def train(net, data, lr=0.05, reducer=None):
    """GRAPH_MODE TrainOneStepCell over ``data``; returns (losses, {name: parameter array})."""
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, SoftmaxCE()), SGDMomentum(net.trainable_params(), lr))
    if reducer is not None:
        train_net.grad_reducer = reducer(train_net.weights)
    train_net.set_train()
    losses = [float(train_net(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in data]
    return losses, {p.name: np.asarray(p.asnumpy()) for p in net.trainable_params()}, train_net
