"""ModelZoo networks load checkpoints that real MindSpore 2.10 saved from the same definitions, and reproduce
its outputs within 1e-4 (fixtures written by tools/oracle/record_model_zoo.py, small widths)."""
import lzma
from types import SimpleNamespace

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor
from model_zoo.alexnet.src import AlexNet
from model_zoo.bert.src import BertConfig, BertModel
from model_zoo.lstm.src import SentimentNet
from model_zoo.mobilenetv2.src import MobileNetV2Backbone, MobileNetV2Head, mobilenet_v2
from model_zoo.resnet.src import (
    ResidualBlock,
    ResidualBlockBase,
    ResNet,
    resnet18,
    resnet34,
    resnet50,
    resnet101,
    resnet152,
)
from model_zoo.vgg16.src import Vgg, cfg, vgg16
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

DIR = FIXTURE_ROOT / "model_zoo"
TOL = dict(rtol=1e-4, atol=1e-4)


@pytest.fixture(scope="module")
def cases():
    return load_cases(DIR / "model_zoo.npz")


def _load(net, case, tmp_path):
    """Real MindSpore's checkpoint loads with no missing and no unexpected names."""
    path = tmp_path / f"{case.id}.ckpt"
    path.write_bytes(lzma.decompress((DIR / f"{case.id}.ckpt.xz").read_bytes()))
    param_dict = ms.load_checkpoint(str(path))
    assert sorted(param_dict) == case.meta["param_names"]
    not_loaded, unused = ms.load_param_into_net(net, param_dict)
    assert not_loaded == [] and unused == []
    assert sorted(name for name, _ in net.parameters_and_names()) == case.meta["param_names"]
    return net


def _check_cnn(net, case, tmp_path):
    _load(net, case, tmp_path)
    x = Tensor(case.inputs["x"])
    net.set_train(False)
    assert_close(net(x), case.outputs[0], what=f"{case.id} eval", **TOL)
    net.set_train(True)  # batch statistics
    assert_close(net(x), case.outputs[1], what=f"{case.id} train", **TOL)


def test_mobilenetv2(cases, tmp_path):
    backbone = MobileNetV2Backbone(width_mult=0.25, last_channel=128)
    head = MobileNetV2Head(input_channel=backbone.out_channels, num_classes=10)
    _check_cnn(mobilenet_v2(backbone, head), cases["mobilenetv2"], tmp_path)


def test_resnet_basic_blocks(cases, tmp_path):
    """ResNet18/34's structure (ResidualBlockBase, res_base stem), small widths."""
    net = ResNet(ResidualBlockBase, [2, 1, 1, 1], [64, 16, 24, 32], [16, 24, 32, 40], [1, 2, 2, 2], 10,
                 res_base=True)
    _check_cnn(net, cases["resnet_base"], tmp_path)


def test_resnet_bottleneck_blocks(cases, tmp_path):
    """ResNet50/101/152's structure (ResidualBlock, v1.5), small widths."""
    net = ResNet(ResidualBlock, [3, 2, 2, 1], [64, 32, 48, 64], [32, 48, 64, 96], [1, 2, 2, 2], 10)
    _check_cnn(net, cases["resnet_bottleneck"], tmp_path)


def test_lstm_sentiment(cases, tmp_path):
    case = cases["lstm_sentiment"]
    net = SentimentNet(vocab_size=40, embed_size=8, num_hiddens=6, num_layers=2, bidirectional=True, num_classes=2,
                       weight=Tensor(np.zeros((40, 8), np.float32)), batch_size=2)
    _load(net, case, tmp_path)
    net.set_train(False)
    assert_close(net(Tensor(case.inputs["x"])), case.outputs[0], what=case.id, **TOL)


def test_bert(cases, tmp_path):
    case = cases["bert"]
    config = BertConfig(seq_length=8, vocab_size=50, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=64, max_position_embeddings=16, type_vocab_size=2)
    net = _load(BertModel(config, is_training=False), case, tmp_path)
    net.set_train(False)
    outs = net(*(Tensor(case.inputs[k]) for k in ("input_ids", "token_type_ids", "input_mask")))
    assert len(outs) == 3
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        assert_close(got, want, what=f"bert output {i}", **TOL)


def test_vgg16(cases, tmp_path):
    """ModelZoo's Vgg with vgg16's layer pattern (so vgg16's names) at small conv widths; classifier 4096 wide."""
    case = cases["vgg16"]
    args = SimpleNamespace(image_size=(32, 32), pad_mode="same", has_bias=False, batch_norm=True, has_dropout=False,
                           initialize_mode="XavierUniform")
    base = [8, 8, 'M', 16, 16, 'M', 16, 16, 16, 'M', 32, 32, 32, 'M', 32, 32, 512, 'M']
    assert [v == 'M' for v in base] == [v == 'M' for v in cfg['16']]
    net = _load(Vgg(base, num_classes=10, batch_norm=True, args=args, phase="test"), case, tmp_path)
    net.set_train(False)
    assert_close(net(Tensor(case.inputs["x"])), case.outputs[0], what=case.id, **TOL)


@pytest.mark.slow  # ~5 s, 230 MB checkpoint in memory (AlexNet has no width argument to shrink it)
def test_alexnet(cases, tmp_path):
    case = cases["alexnet"]
    net = _load(AlexNet(num_classes=10, phase="test"), case, tmp_path)
    net.set_train(False)
    assert_close(net(Tensor(case.inputs["x"])), case.outputs[0], what=case.id, **TOL)


FULL_SIZE = {
    "resnet18": lambda: resnet18(10),
    "resnet34": lambda: resnet34(10),
    "resnet50": lambda: resnet50(10),
    "resnet101": lambda: resnet101(1001),
    "resnet152": lambda: resnet152(1001),
    "vgg16": lambda: vgg16(10, SimpleNamespace(image_size=(32, 32), pad_mode="same", has_bias=False, batch_norm=True,
                                               has_dropout=False, initialize_mode="XavierUniform")),
    "mobilenetv2": lambda: mobilenet_v2(MobileNetV2Backbone(), MobileNetV2Head(num_classes=1000)),
}


@pytest.mark.parametrize("name", sorted(FULL_SIZE))
def test_full_size_parameter_layout(cases, name):
    """At ModelZoo's own sizes every parameter name and shape equals real MindSpore's (checkpoint compatibility)."""
    want = cases[f"layout/{name}"].meta["params"]
    got = {p.name: list(p.shape) for p in FULL_SIZE[name]().get_parameters()}
    assert sorted(got) == sorted(want)
    assert got == want
