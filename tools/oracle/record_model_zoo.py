"""Record ModelZoo networks with real MindSpore 2.10: checkpoint + input + outputs per network.

Run with the oracle interpreter (real MindSpore, numpy<2):

    python tools/oracle/record_model_zoo.py

Each network below is written exactly as MindSpore ModelZoo defines it (official/cv/MobileNetV2,
official/cv/ResNet, official/nlp/Bert, official/nlp/LSTM), built with small widths, given seeded weights, saved with
``ms.save_checkpoint`` (lzma-compressed) into ``tests/fixtures/oracle/model_zoo/`` and run on a seeded input; the
inputs and outputs go into ``model_zoo.npz`` with ``FixtureWriter``.
"""
import copy
import lzma
import math
import os
import pathlib
import sys
import tempfile

import mindspore as ms
import mindspore.common.dtype as mstype
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.common.initializer import TruncatedNormal
from mindspore.ops import functional as F
from mindspore.ops import operations as P

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "model_zoo"


# ---------------------------------------------------------------- MobileNetV2 (official/cv/MobileNetV2)
def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class GlobalAvgPooling(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mean = ops.ReduceMean(keep_dims=False)

    def construct(self, x):
        return self.mean(x, (2, 3))


class ConvBNReLU(nn.Cell):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super().__init__()
        padding = (kernel_size - 1) // 2
        if groups == 1:
            conv = nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode='pad', padding=padding)
        else:
            conv = nn.Conv2d(in_planes, in_planes, kernel_size, stride, pad_mode='pad', padding=padding,
                             group=in_planes)
        self.features = nn.SequentialCell([conv, nn.BatchNorm2d(out_planes), nn.ReLU6()])

    def construct(self, x):
        return self.features(x)


class InvertedResidual(nn.Cell):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                       nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
                       nn.BatchNorm2d(oup)])
        self.conv = nn.SequentialCell(layers)
        self.add = ops.Add()

    def construct(self, x):
        identity = x
        x = self.conv(x)
        if self.use_res_connect:
            return self.add(identity, x)
        return x


class MobileNetV2Backbone(nn.Cell):
    def __init__(self, width_mult=1., inverted_residual_setting=None, round_nearest=8, input_channel=32,
                 last_channel=1280):
        super().__init__()
        self.cfgs = inverted_residual_setting or [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                                                  [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features = [ConvBNReLU(3, input_channel, stride=2)]
        for t, c, n, s in self.cfgs:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.out_channels, kernel_size=1))
        self.features = nn.SequentialCell(features)

    def construct(self, x):
        return self.features(x)


class MobileNetV2Head(nn.Cell):
    def __init__(self, input_channel=1280, num_classes=1000, has_dropout=False, activation="None"):
        super().__init__()
        head = [GlobalAvgPooling()] if not has_dropout else [GlobalAvgPooling(), nn.Dropout(p=0.8)]
        self.head = nn.SequentialCell(head)
        self.dense = nn.Dense(input_channel, num_classes, has_bias=True)
        self.need_activation = True
        if activation == "Sigmoid":
            self.activation = ops.Sigmoid()
        elif activation == "Softmax":
            self.activation = ops.Softmax()
        else:
            self.need_activation = False

    def construct(self, x):
        x = self.dense(self.head(x))
        if self.need_activation:
            x = self.activation(x)
        return x


class MobileNetV2Combine(nn.Cell):
    def __init__(self, backbone, head):
        super().__init__(auto_prefix=False)
        self.backbone = backbone
        self.head = head

    def construct(self, x):
        return self.head(self.backbone(x))


# ---------------------------------------------------------------- ResNet (official/cv/ResNet)
def _conv(cin, cout, k, stride=1, res_base=False):
    if res_base:
        return nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, pad_mode='pad')
    return nn.Conv2d(cin, cout, k, stride=stride, padding=0, pad_mode='same')


def _bn(channel, res_base=False):
    if res_base:
        return nn.BatchNorm2d(channel, eps=1e-5, momentum=0.1, gamma_init=1, beta_init=0, moving_mean_init=0,
                              moving_var_init=1)
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=1, beta_init=0, moving_mean_init=0,
                          moving_var_init=1)


class ResidualBlock(nn.Cell):
    expansion = 4

    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        channel = out_channel // self.expansion
        self.conv1 = _conv(in_channel, channel, 1)
        self.bn1 = _bn(channel)
        self.conv2 = _conv(channel, channel, 3, stride)
        self.bn2 = _bn(channel)
        self.conv3 = _conv(channel, out_channel, 1)
        self.bn3 = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride), _bn(out_channel)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResidualBlockBase(nn.Cell):
    def __init__(self, in_channel, out_channel, stride=1, res_base=True):
        super().__init__()
        self.conv1 = _conv(in_channel, out_channel, 3, stride, res_base=res_base)
        self.bn1d = _bn(out_channel)  # (ModelZoo: no res_base here, so eps=1e-4)
        self.conv2 = _conv(out_channel, out_channel, 3, 1, res_base=res_base)
        self.bn2d = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, res_base=res_base),
                                                        _bn(out_channel, res_base)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1d(self.conv1(x)))
        out = self.bn2d(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    def __init__(self, block, layer_nums, in_channels, out_channels, strides, num_classes, res_base=False):
        super().__init__()
        self.res_base = res_base
        self.conv1 = _conv(3, 64, 7, 2, res_base=res_base)
        self.bn1 = _bn(64, res_base)
        self.relu = ops.ReLU()
        if res_base:
            self.pad = nn.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
        else:
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        stages = []
        for n, cin, cout, s in zip(layer_nums, in_channels, out_channels, strides):
            stages.append(nn.SequentialCell([block(cin, cout, s)] + [block(cout, cout, 1) for _ in range(n - 1)]))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = nn.Dense(out_channels[3], num_classes, has_bias=True, bias_init=0)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        if self.res_base:
            x = self.pad(x)
        x = self.maxpool(x)
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.end_point(self.flatten(self.mean(x, (2, 3))))


# ---------------------------------------------------------------- VGG (official/cv/VGG/vgg16/src/vgg.py)
def _make_layer(base, args, batch_norm):
    layers = []
    in_channels = 3
    padding = 0 if args.pad_mode == 'same' else 1
    for v in base:
        if v == 'M':
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels=in_channels, out_channels=v, kernel_size=3, padding=padding,
                               pad_mode=args.pad_mode, has_bias=args.has_bias, weight_init='ones')
            layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU()] if batch_norm else [conv2d, nn.ReLU()]
            in_channels = v
    return nn.SequentialCell(layers)


class Vgg(nn.Cell):
    def __init__(self, base, num_classes=1000, batch_norm=False, batch_size=1, args=None, phase="train",
                 include_top=True):
        super().__init__()
        self.image_h, self.image_w = args.image_size
        self.layers = _make_layer(base, args, batch_norm=batch_norm)
        self.include_top = include_top
        self.flatten = nn.Flatten()
        dropout_ratio = 0.5
        if not args.has_dropout or phase == "test":
            dropout_ratio = 1.0
        self.classifier = nn.SequentialCell([
            nn.Dense(512 * (self.image_h // 32) * (self.image_w // 32), 4096), nn.ReLU(),
            nn.Dropout(p=1 - dropout_ratio), nn.Dense(4096, 4096), nn.ReLU(), nn.Dropout(p=1 - dropout_ratio),
            nn.Dense(4096, num_classes)])

    def construct(self, x):
        x = self.layers(x)
        if self.include_top:
            x = self.classifier(self.flatten(x))
        return x


class VggArgs:  # the attributes ModelZoo's vgg16 reads from its config (CIFAR-10 setting, 32x32 images)
    image_size = (32, 32)
    pad_mode = 'same'
    has_bias = False
    batch_norm = True
    has_dropout = False
    initialize_mode = 'XavierUniform'


# ---------------------------------------------------------------- AlexNet (official/cv/AlexNet/src/alexnet.py)
class DataNormTranspose(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mean = Tensor(np.array([0.485 * 255, 0.456 * 255, 0.406 * 255]).reshape((1, 1, 1, 3)), mstype.float32)
        self.std = Tensor(np.array([0.229 * 255, 0.224 * 255, 0.225 * 255]).reshape((1, 1, 1, 3)), mstype.float32)

    def construct(self, x):
        return F.transpose((x - self.mean) / self.std, (0, 3, 1, 2))


class AlexNet(nn.Cell):
    def __init__(self, num_classes=10, channel=3, phase='train', include_top=True, off_load=False):
        super().__init__()
        self.off_load = off_load
        if self.off_load is True:
            self.data_trans = DataNormTranspose()
        self.conv1 = nn.Conv2d(channel, 64, 11, stride=4, pad_mode="same", has_bias=True)
        self.conv2 = nn.Conv2d(64, 128, 5, pad_mode="same", has_bias=True)
        self.conv3 = nn.Conv2d(128, 192, 3, pad_mode="same", has_bias=True)
        self.conv4 = nn.Conv2d(192, 256, 3, pad_mode="same", has_bias=True)
        self.conv5 = nn.Conv2d(256, 256, 3, pad_mode="same", has_bias=True)
        self.relu = P.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode='valid')
        self.include_top = include_top
        if self.include_top:
            dropout_ratio = 0.65
            if phase == 'test':
                dropout_ratio = 1.0
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(6 * 6 * 256, 4096)
            self.fc2 = nn.Dense(4096, 4096)
            self.fc3 = nn.Dense(4096, num_classes)
            self.dropout = nn.Dropout(p=1 - dropout_ratio)

    def construct(self, x):
        if self.off_load is True:
            x = self.data_trans(x)
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.relu(self.conv3(x))
        x = self.relu(self.conv4(x))
        x = self.max_pool2d(self.relu(self.conv5(x)))
        if not self.include_top:
            return x
        x = self.dropout(self.relu(self.fc1(self.flatten(x))))
        x = self.dropout(self.relu(self.fc2(x)))
        return self.fc3(x)


# ---------------------------------------------------------------- LSTM SentimentNet (official/nlp/LSTM)
class SentimentNet(nn.Cell):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, bidirectional, num_classes, weight,
                 batch_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size, embedding_table=weight)
        self.embedding.embedding_table.requires_grad = False
        self.trans = P.Transpose()
        self.perm = (1, 0, 2)
        self.encoder = nn.LSTM(input_size=embed_size, hidden_size=num_hiddens, num_layers=num_layers, has_bias=True,
                               bidirectional=bidirectional, dropout=0.0)
        self.concat = P.Concat(1)
        self.squeeze = P.Squeeze(axis=0)
        self.decoder = nn.Dense(num_hiddens * (4 if bidirectional else 2), num_classes)

    def construct(self, inputs):
        embeddings = self.trans(self.embedding(inputs), self.perm)
        output, _ = self.encoder(embeddings)
        encoding = self.concat((self.squeeze(output[0:1:1]), self.squeeze(output[499:500:1])))
        return self.decoder(encoding)


# ---------------------------------------------------------------- BERT (official/nlp/Bert/src/bert_model.py)
class BertConfig:
    def __init__(self, seq_length=128, vocab_size=32000, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                 intermediate_size=3072, hidden_act="gelu", hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1,
                 max_position_embeddings=512, type_vocab_size=16, initializer_range=0.02, use_relative_positions=False,
                 dtype=mstype.float32, compute_type=mstype.float32):
        self.__dict__.update({k: v for k, v in locals().items() if k != "self"})


class EmbeddingPostprocessor(nn.Cell):
    def __init__(self, embedding_size, embedding_shape, use_relative_positions=False, use_token_type=False,
                 token_type_vocab_size=16, use_one_hot_embeddings=False, initializer_range=0.02,
                 max_position_embeddings=512, dropout_prob=0.1):
        super().__init__()
        self.use_token_type = use_token_type
        self.token_type_embedding = nn.Embedding(vocab_size=token_type_vocab_size, embedding_size=embedding_size,
                                                 use_one_hot=use_one_hot_embeddings)
        self.shape = tuple(embedding_shape)
        self.dropout = nn.Dropout(p=dropout_prob)
        self.use_relative_positions = use_relative_positions
        _, seq, _ = self.shape
        self.full_position_embedding = nn.Embedding(vocab_size=max_position_embeddings, embedding_size=embedding_size,
                                                    use_one_hot=False)
        self.layernorm = nn.LayerNorm((embedding_size,))
        self.position_ids = Tensor(np.arange(seq).reshape(-1, seq).astype(np.int32))
        self.add = P.Add()

    def construct(self, token_type_ids, word_embeddings):
        output = word_embeddings
        if self.use_token_type:
            output = self.add(output, self.token_type_embedding(token_type_ids))
        if not self.use_relative_positions:
            shape = F.shape(output)
            output = self.add(output, self.full_position_embedding(self.position_ids[:, :shape[1]]))
        return self.dropout(self.layernorm(output))


class BertOutput(nn.Cell):
    def __init__(self, in_channels, out_channels, initializer_range=0.02, dropout_prob=0.1,
                 compute_type=mstype.float32):
        super().__init__()
        self.dense = nn.Dense(in_channels, out_channels,
                              weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.dropout = nn.Dropout(p=dropout_prob)
        self.add = P.Add()
        self.layernorm = nn.LayerNorm((out_channels,)).to_float(compute_type)

    def construct(self, hidden_status, input_tensor):
        output = self.dropout(self.dense(hidden_status))
        return self.layernorm(self.add(input_tensor, output))


class BertAttention(nn.Cell):
    def __init__(self, from_tensor_width, to_tensor_width, num_attention_heads=1, size_per_head=512, query_act=None,
                 key_act=None, value_act=None, has_attention_mask=False, attention_probs_dropout_prob=0.0,
                 use_one_hot_embeddings=False, initializer_range=0.02, use_relative_positions=False,
                 compute_type=mstype.float32):
        super().__init__()
        self.num_attention_heads = num_attention_heads
        self.size_per_head = size_per_head
        self.has_attention_mask = has_attention_mask
        self.scores_mul = 1.0 / math.sqrt(float(self.size_per_head))
        self.reshape = P.Reshape()
        self.shape_from_2d = (-1, from_tensor_width)
        self.shape_to_2d = (-1, to_tensor_width)
        weight = TruncatedNormal(initializer_range)
        units = num_attention_heads * size_per_head
        self.query_layer = nn.Dense(from_tensor_width, units, activation=query_act,
                                    weight_init=weight).to_float(compute_type)
        self.key_layer = nn.Dense(to_tensor_width, units, activation=key_act, weight_init=weight).to_float(compute_type)
        self.value_layer = nn.Dense(to_tensor_width, units, activation=value_act,
                                    weight_init=weight).to_float(compute_type)
        self.matmul_trans_b = P.BatchMatMul(transpose_b=True)
        self.multiply = P.Mul()
        self.transpose = P.Transpose()
        self.trans_shape = (0, 2, 1, 3)
        self.multiply_data = -10000.0
        self.matmul = P.BatchMatMul()
        self.softmax = nn.Softmax()
        self.dropout = nn.Dropout(p=attention_probs_dropout_prob)
        if self.has_attention_mask:
            self.expand_dims = P.ExpandDims()
            self.sub = P.Sub()
            self.add = P.Add()
            self.cast = P.Cast()
            self.get_dtype = P.DType()
        self.shape_return = (-1, num_attention_heads * size_per_head)

    def construct(self, from_tensor, to_tensor, attention_mask):
        shape_from = F.shape(attention_mask)[2]
        from_tensor_2d = self.reshape(from_tensor, self.shape_from_2d)
        to_tensor_2d = self.reshape(to_tensor, self.shape_to_2d)
        query_out = self.query_layer(from_tensor_2d)
        key_out = self.key_layer(to_tensor_2d)
        value_out = self.value_layer(to_tensor_2d)
        heads = (-1, shape_from, self.num_attention_heads, self.size_per_head)
        query_layer = self.transpose(self.reshape(query_out, heads), self.trans_shape)
        key_layer = self.transpose(self.reshape(key_out, heads), self.trans_shape)
        attention_scores = self.multiply(self.scores_mul, self.matmul_trans_b(query_layer, key_layer))
        if self.has_attention_mask:
            attention_mask = self.expand_dims(attention_mask, 1)
            multiply_out = self.sub(self.cast(F.tuple_to_array((1.0,)), self.get_dtype(attention_scores)),
                                    self.cast(attention_mask, self.get_dtype(attention_scores)))
            attention_scores = self.add(self.multiply(multiply_out, self.multiply_data), attention_scores)
        attention_probs = self.dropout(self.softmax(attention_scores))
        value_layer = self.transpose(self.reshape(value_out, heads), self.trans_shape)
        context_layer = self.transpose(self.matmul(attention_probs, value_layer), self.trans_shape)
        return self.reshape(context_layer, self.shape_return)


class BertSelfAttention(nn.Cell):
    def __init__(self, hidden_size, num_attention_heads=12, attention_probs_dropout_prob=0.1,
                 use_one_hot_embeddings=False, initializer_range=0.02, hidden_dropout_prob=0.1,
                 use_relative_positions=False, compute_type=mstype.float32):
        super().__init__()
        self.size_per_head = int(hidden_size / num_attention_heads)
        self.attention = BertAttention(from_tensor_width=hidden_size, to_tensor_width=hidden_size,
                                       num_attention_heads=num_attention_heads, size_per_head=self.size_per_head,
                                       attention_probs_dropout_prob=attention_probs_dropout_prob,
                                       initializer_range=initializer_range, has_attention_mask=True,
                                       compute_type=compute_type)
        self.output = BertOutput(in_channels=hidden_size, out_channels=hidden_size,
                                 initializer_range=initializer_range, dropout_prob=hidden_dropout_prob,
                                 compute_type=compute_type)

    def construct(self, input_tensor, attention_mask):
        return self.output(self.attention(input_tensor, input_tensor, attention_mask), input_tensor)


class BertEncoderCell(nn.Cell):
    def __init__(self, hidden_size=768, num_attention_heads=12, intermediate_size=3072,
                 attention_probs_dropout_prob=0.02, use_one_hot_embeddings=False, initializer_range=0.02,
                 hidden_dropout_prob=0.1, use_relative_positions=False, hidden_act="gelu",
                 compute_type=mstype.float32):
        super().__init__()
        self.attention = BertSelfAttention(hidden_size=hidden_size, num_attention_heads=num_attention_heads,
                                           attention_probs_dropout_prob=attention_probs_dropout_prob,
                                           initializer_range=initializer_range,
                                           hidden_dropout_prob=hidden_dropout_prob, compute_type=compute_type)
        self.intermediate = nn.Dense(in_channels=hidden_size, out_channels=intermediate_size, activation=hidden_act,
                                     weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.output = BertOutput(in_channels=intermediate_size, out_channels=hidden_size,
                                 initializer_range=initializer_range, dropout_prob=hidden_dropout_prob,
                                 compute_type=compute_type)

    def construct(self, hidden_states, attention_mask):
        attention_output = self.attention(hidden_states, attention_mask)
        return self.output(self.intermediate(attention_output), attention_output)


class BertTransformer(nn.Cell):
    def __init__(self, hidden_size, num_hidden_layers, num_attention_heads=12, intermediate_size=3072,
                 attention_probs_dropout_prob=0.1, use_one_hot_embeddings=False, initializer_range=0.02,
                 hidden_dropout_prob=0.1, use_relative_positions=False, hidden_act="gelu",
                 compute_type=mstype.float32, return_all_encoders=False):
        super().__init__()
        self.return_all_encoders = return_all_encoders
        self.layers = nn.CellList([
            BertEncoderCell(hidden_size=hidden_size, num_attention_heads=num_attention_heads,
                            intermediate_size=intermediate_size,
                            attention_probs_dropout_prob=attention_probs_dropout_prob,
                            initializer_range=initializer_range, hidden_dropout_prob=hidden_dropout_prob,
                            hidden_act=hidden_act, compute_type=compute_type)
            for _ in range(num_hidden_layers)])
        self.reshape = P.Reshape()
        self.shape = (-1, hidden_size)

    def construct(self, input_tensor, attention_mask):
        prev_output = self.reshape(input_tensor, self.shape)
        all_encoder_layers = ()
        for layer_module in self.layers:
            layer_output = layer_module(prev_output, attention_mask)
            prev_output = layer_output
            if self.return_all_encoders:
                all_encoder_layers = all_encoder_layers + (self.reshape(layer_output, F.shape(input_tensor)),)
        if not self.return_all_encoders:
            all_encoder_layers = all_encoder_layers + (self.reshape(prev_output, F.shape(input_tensor)),)
        return all_encoder_layers


class BertModel(nn.Cell):
    def __init__(self, config, is_training, use_one_hot_embeddings=False):
        super().__init__()
        config = copy.deepcopy(config)
        if not is_training:
            config.hidden_dropout_prob = 0.0
            config.attention_probs_dropout_prob = 0.0
        self.hidden_size = config.hidden_size
        self.last_idx = config.num_hidden_layers - 1
        self.embedding_size = config.hidden_size
        self.bert_embedding_lookup = nn.Embedding(vocab_size=config.vocab_size, embedding_size=self.embedding_size,
                                                  use_one_hot=use_one_hot_embeddings,
                                                  embedding_table=TruncatedNormal(config.initializer_range))
        self.bert_embedding_postprocessor = EmbeddingPostprocessor(
            embedding_size=self.embedding_size, embedding_shape=[-1, config.seq_length, self.embedding_size],
            use_relative_positions=config.use_relative_positions, use_token_type=True,
            token_type_vocab_size=config.type_vocab_size, use_one_hot_embeddings=use_one_hot_embeddings,
            initializer_range=0.02, max_position_embeddings=config.max_position_embeddings,
            dropout_prob=config.hidden_dropout_prob)
        self.bert_encoder = BertTransformer(
            hidden_size=self.hidden_size, num_attention_heads=config.num_attention_heads,
            num_hidden_layers=config.num_hidden_layers, intermediate_size=config.intermediate_size,
            attention_probs_dropout_prob=config.attention_probs_dropout_prob,
            initializer_range=config.initializer_range, hidden_dropout_prob=config.hidden_dropout_prob,
            hidden_act=config.hidden_act, compute_type=config.compute_type, return_all_encoders=True)
        self.cast = P.Cast()
        self.dtype = config.dtype
        self.slice = P.StridedSlice()
        self.squeeze_1 = P.Squeeze(axis=1)
        self.dense = nn.Dense(self.hidden_size, self.hidden_size, activation="tanh",
                              weight_init=TruncatedNormal(config.initializer_range)).to_float(config.compute_type)

    def construct(self, input_ids, token_type_ids, input_mask):
        embedding_tables = self.bert_embedding_lookup.embedding_table
        word_embeddings = self.bert_embedding_lookup(input_ids)
        embedding_output = self.bert_embedding_postprocessor(token_type_ids, word_embeddings)
        seq_length = F.shape(input_mask)[1]
        attention_mask = self.cast(P.Reshape()(input_mask, (-1, 1, seq_length)), mstype.float32)
        encoder_output = self.bert_encoder(embedding_output, attention_mask)
        sequence_output = self.cast(encoder_output[self.last_idx], self.dtype)
        batch_size = P.Shape()(input_ids)[0]
        first_token = self.squeeze_1(self.slice(sequence_output, (0, 0, 0), (batch_size, 1, self.hidden_size),
                                                (1, 1, 1)))
        pooled_output = self.cast(self.dense(first_token), self.dtype)
        return sequence_output, pooled_output, embedding_tables


# ---------------------------------------------------------------- recording
def seed_weights(net, seed):
    """Seeded values for every parameter (BatchNorm statistics away from 0/1 so eval mode is tested)."""
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        shape, name = p.shape, p.name
        leaf = name.rsplit(".", 1)[-1]
        if leaf in ("gamma", "moving_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        elif leaf in ("beta", "moving_mean") or "bias" in leaf:
            value = rng.normal(0.0, 0.1, shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
            value = rng.normal(0.0, 1.0 / math.sqrt(max(fan_in, 1)), shape)
            if "embedding" in name:
                value = rng.normal(0.0, 0.5, shape)
        p.set_data(Tensor(value.astype(np.float32)))


def quantize_weights(net, seed, density):
    """Low-entropy seeded weights for networks whose sizes ModelZoo fixes (AlexNet, VGG's 4096-wide classifier):
    each weight is scale * k with k in {-2..2} (mostly 0), and only ``density[name]`` of the Dense weights
    non-zero, so the lzma'd checkpoint stays small while every parameter still matters."""
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        shape = p.shape
        if len(shape) < 2:
            continue
        fan_in = int(np.prod(shape[1:]))
        keep = density.get(p.name, 0.3)
        k = rng.choice([-2, -1, 1, 2], size=shape, p=[0.2, 0.3, 0.3, 0.2]) * (rng.random(shape) < keep)
        # E[k^2] = 2.2; the factor 2 keeps the variance through ReLUs (He), so the input still shows at the end
        p.set_data(Tensor((k * math.sqrt(2.0 / (2.2 * keep * fan_in))).astype(np.float32)))


def save_ckpt(net, stem):
    """ms.save_checkpoint, then lzma (checkpoints of random floats barely compress otherwise)."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, stem + ".ckpt")
        ms.save_checkpoint(net, path)
        data = pathlib.Path(path).read_bytes()
    (OUT / (stem + ".ckpt.xz")).write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    return sorted(p.name for p in net.get_parameters())


def record_cnn(w, case, net, x, seed, train_too=True, density=None):
    seed_weights(net, seed)
    if density is not None:
        quantize_weights(net, seed, density)
    names = save_ckpt(net, case)
    net.set_train(False)
    eval_out = net(Tensor(x)).asnumpy()
    outs = [eval_out]
    if train_too:  # batch statistics (the moving ones get updated after, which the checkpoint does not see)
        net.set_train(True)
        outs.append(net(Tensor(x)).asnumpy())
    w.add(case, inputs={"x": x}, outputs=outs, name=case, param_names=names)


FULL_SIZE = {  # ModelZoo's own sizes: parameter names and shapes only (their checkpoints would be 45-550 MB)
    "resnet18": lambda: ResNet(ResidualBlockBase, [2, 2, 2, 2], [64, 64, 128, 256], [64, 128, 256, 512],
                               [1, 2, 2, 2], 10, res_base=True),
    "resnet34": lambda: ResNet(ResidualBlockBase, [3, 4, 6, 3], [64, 64, 128, 256], [64, 128, 256, 512],
                               [1, 2, 2, 2], 10, res_base=True),
    "resnet50": lambda: ResNet(ResidualBlock, [3, 4, 6, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048],
                               [1, 2, 2, 2], 10),
    "resnet101": lambda: ResNet(ResidualBlock, [3, 4, 23, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048],
                                [1, 2, 2, 2], 1001),
    "resnet152": lambda: ResNet(ResidualBlock, [3, 8, 36, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048],
                                [1, 2, 2, 2], 1001),
    "vgg16": lambda: Vgg([64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512, 'M'],
                         num_classes=10, batch_norm=True, args=VggArgs()),
    "mobilenetv2": lambda: MobileNetV2Combine(MobileNetV2Backbone(), MobileNetV2Head(num_classes=1000)),
}


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    rng = np.random.default_rng(0)
    with FixtureWriter(OUT / "model_zoo.npz") as w:
        # 64x64 inputs: the last stage keeps 2x2 positions, so train-mode BatchNorm (batch statistics over
        # batch x H x W) is not ill-conditioned the way it is over 2 values at 1x1.
        # MobileNetV2, width 0.25, last_channel 128 (constructor arguments).
        backbone = MobileNetV2Backbone(width_mult=0.25, last_channel=128)
        head = MobileNetV2Head(input_channel=backbone.out_channels, num_classes=10)
        record_cnn(w, "mobilenetv2", MobileNetV2Combine(backbone, head),
                   rng.normal(size=(2, 3, 64, 64)).astype(np.float32), 1)
        # ResNet18/34 family (basic blocks, res_base) and ResNet50/101/152 family (bottlenecks), small widths.
        record_cnn(w, "resnet_base", ResNet(ResidualBlockBase, [2, 1, 1, 1], [64, 16, 24, 32], [16, 24, 32, 40],
                                            [1, 2, 2, 2], 10, res_base=True),
                   rng.normal(size=(2, 3, 64, 64)).astype(np.float32), 2)
        record_cnn(w, "resnet_bottleneck", ResNet(ResidualBlock, [3, 2, 2, 1], [64, 32, 48, 64], [32, 48, 64, 96],
                                                  [1, 2, 2, 2], 10),
                   rng.normal(size=(2, 3, 64, 64)).astype(np.float32), 3)
        # VGG16: ModelZoo's Vgg with CIFAR-10 arguments (32x32 images), batch_norm, vgg16's layer pattern (so
        # vgg16's parameter names) with small convolution widths; the classifier is ModelZoo's fixed 4096 wide.
        base = [8, 8, 'M', 16, 16, 'M', 16, 16, 16, 'M', 32, 32, 32, 'M', 32, 32, 512, 'M']
        record_cnn(w, "vgg16", Vgg(base, num_classes=10, batch_norm=True, args=VggArgs(), phase="test"),
                   rng.normal(size=(2, 3, 32, 32)).astype(np.float32), 6, train_too=False,
                   density={"classifier.0.weight": 0.05, "classifier.3.weight": 0.004,
                            "classifier.6.weight": 0.2})
        # AlexNet at its only size (227x227 input, fc1 from 6x6x256), eval phase.
        record_cnn(w, "alexnet", AlexNet(num_classes=10, phase="test"),
                   (rng.integers(0, 256, size=(1, 3, 227, 227)) / 255.0).astype(np.float32), 7, train_too=False,
                   density={"conv1.weight": 0.1, "conv2.weight": 0.02, "conv3.weight": 0.02,
                            "conv4.weight": 0.02, "conv5.weight": 0.02, "fc1.weight": 0.0005,
                            "fc2.weight": 0.0005, "fc3.weight": 0.2})
        for name, build in FULL_SIZE.items():
            net = build()
            w.add(f"layout/{name}", name=name, params={p.name: list(p.shape) for p in net.get_parameters()})
        # LSTM SentimentNet: construct reads time step 499, so the sequence length is ModelZoo's 500.
        table = rng.normal(0, 1, size=(40, 8)).astype(np.float32)
        lstm = SentimentNet(vocab_size=40, embed_size=8, num_hiddens=6, num_layers=2, bidirectional=True,
                            num_classes=2, weight=Tensor(table), batch_size=2)
        seed_weights(lstm, 4)
        names = save_ckpt(lstm, "lstm_sentiment")
        lstm.set_train(False)
        ids = rng.integers(0, 40, size=(2, 500)).astype(np.int32)
        w.add("lstm_sentiment", inputs={"x": ids}, outputs=[lstm(Tensor(ids)).asnumpy()], name="lstm_sentiment",
              param_names=names)
        # BERT: 2 layers, hidden 32, 4 heads.
        config = BertConfig(seq_length=8, vocab_size=50, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                            intermediate_size=64, max_position_embeddings=16, type_vocab_size=2)
        bert = BertModel(config, is_training=False)
        seed_weights(bert, 5)
        names = save_ckpt(bert, "bert")
        bert.set_train(False)
        input_ids = rng.integers(0, 50, size=(2, 8)).astype(np.int32)
        token_type_ids = rng.integers(0, 2, size=(2, 8)).astype(np.int32)
        input_mask = np.array([[1] * 8, [1] * 5 + [0] * 3], np.int32)
        outs = bert(Tensor(input_ids), Tensor(token_type_ids), Tensor(input_mask))
        w.add("bert", inputs={"input_ids": input_ids, "token_type_ids": token_type_ids, "input_mask": input_mask},
              outputs=[o.asnumpy() for o in outs], name="bert", param_names=names)


if __name__ == "__main__":
    main()
