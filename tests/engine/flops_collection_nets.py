"""The networks of the ``flops_collection`` replay, built the same way for MindSpore (the recorder) and here."""
import numpy as np


def _conv_net(nn):
    return nn.Conv2d(3, 8, 3, pad_mode="valid", has_bias=True)


NETS = {
    # name: (build(nn) -> Cell, input shapes, whether to wrap it in a TrainOneStepCell, set_train(False))
    "dense": (lambda nn: nn.Dense(10, 5), [(32, 10)], False, False),
    "dense_predict": (lambda nn: nn.Dense(10, 5), [(32, 10)], False, True),
    "conv": (_conv_net, [(2, 3, 16, 16)], False, False),
    "dense_train_step": (lambda nn: nn.Dense(10, 5), [(32, 10), (32, 5)], True, False),
    "conv_train_step": (_conv_net, [(2, 3, 16, 16), (2, 8, 14, 14)], True, False),
}


def call(ms, nn, name):
    """Build network ``name`` with framework ``ms`` / ``nn``, call it once on ones, and return the called Cell."""
    build, shapes, train_step, predict = NETS[name]
    net = build(nn)
    if train_step:
        net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    if predict:
        net.set_train(False)
    net(*[ms.Tensor(np.ones(shape, np.float32)) for shape in shapes])
    return net


def model_cell(ms, nn, evaluate):
    """Train (or evaluate) a Dense(10, 5) with ``ms.train.Model`` for one epoch of two batches; return the
    network the Model compiled (its train or eval network)."""
    rng = np.random.default_rng(0)
    data = {"x": rng.random((8, 10)).astype(np.float32), "y": rng.integers(0, 5, (8,)).astype(np.int32)}
    net = nn.Dense(10, 5)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"loss"})
    dataset = ms.dataset.NumpySlicesDataset(data=data, shuffle=False).batch(4)
    if evaluate:
        model.eval(dataset)
        return model.eval_network
    model.train(1, dataset)
    return model.train_network
