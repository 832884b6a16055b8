"""BERT encoder as in MindSpore ModelZoo (official/nlp/Bert/src/bert_model.py), ModelZoo parameter names.

``BertModel(config, is_training)`` returns ``(sequence_output, pooled_output, embedding_table)`` for
``(input_ids, token_type_ids, input_mask)``; checkpoints of ModelZoo's BERT load into it by name
(``bert_embedding_lookup.embedding_table``, ``bert_encoder.layers.<i>.attention.attention.query_layer.weight``...).
Relative position embeddings (``use_relative_positions=True``) are not implemented.
"""
from __future__ import annotations

import copy
import math

import numpy as np

import mindspore_hl.nn as nn
import mindspore_hl.ops as ops
from mindspore_hl.common import dtype as mstype
from mindspore_hl.common.initializer import TruncatedNormal
from mindspore_hl.common.tensor import Tensor

__all__ = ["BertConfig", "EmbeddingPostprocessor", "BertOutput", "SaturateCast", "BertAttention",
           "BertSelfAttention", "BertEncoderCell", "BertTransformer", "CreateAttentionMaskFromInputMask", "BertModel"]


class BertConfig:
    """Configuration of ``BertModel`` (ModelZoo's names and defaults: BERT-base)."""

    def __init__(self, seq_length: int = 128, vocab_size: int = 32000, hidden_size: int = 768,
                 num_hidden_layers: int = 12, num_attention_heads: int = 12, intermediate_size: int = 3072,
                 hidden_act: str = "gelu", hidden_dropout_prob: float = 0.1, attention_probs_dropout_prob: float = 0.1,
                 max_position_embeddings: int = 512, type_vocab_size: int = 16, initializer_range: float = 0.02,
                 use_relative_positions: bool = False, dtype=mstype.float32, compute_type=mstype.float32) -> None:
        self.seq_length = seq_length
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.hidden_act = hidden_act
        self.intermediate_size = intermediate_size
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range
        self.use_relative_positions = use_relative_positions
        self.dtype = dtype
        self.compute_type = compute_type


def _no_relative_positions(use_relative_positions: bool, where: str) -> None:
    if use_relative_positions:
        raise ValueError(f"{where}: use_relative_positions=True is not supported by this port (use False).")


class EmbeddingPostprocessor(nn.Cell):
    """Adds token-type and absolute position embeddings to the word embeddings, then LayerNorm + Dropout."""

    def __init__(self, embedding_size: int, embedding_shape: list[int], use_relative_positions: bool = False,
                 use_token_type: bool = False, token_type_vocab_size: int = 16, use_one_hot_embeddings: bool = False,
                 initializer_range: float = 0.02, max_position_embeddings: int = 512,
                 dropout_prob: float = 0.1) -> None:
        super().__init__()
        _no_relative_positions(use_relative_positions, "EmbeddingPostprocessor")
        self.use_token_type = use_token_type
        self.token_type_embedding = nn.Embedding(vocab_size=token_type_vocab_size, embedding_size=embedding_size,
                                                 use_one_hot=use_one_hot_embeddings)
        self.shape = tuple(embedding_shape)
        self.dropout = nn.Dropout(p=dropout_prob)
        seq = self.shape[1]
        self.full_position_embedding = nn.Embedding(vocab_size=max_position_embeddings,
                                                    embedding_size=embedding_size, use_one_hot=False)
        self.layernorm = nn.LayerNorm((embedding_size,))
        self.position_ids = Tensor(np.arange(seq, dtype=np.int32).reshape(-1, seq))

    def construct(self, token_type_ids: Tensor, word_embeddings: Tensor) -> Tensor:
        output = word_embeddings
        if self.use_token_type:
            output = output + self.token_type_embedding(token_type_ids)
        position_ids = self.position_ids[:, :output.shape[1]]
        output = output + self.full_position_embedding(position_ids)
        return self.dropout(self.layernorm(output))


class BertOutput(nn.Cell):
    """Dense + Dropout, residual add, LayerNorm."""

    def __init__(self, in_channels: int, out_channels: int, initializer_range: float = 0.02,
                 dropout_prob: float = 0.1, compute_type=mstype.float32) -> None:
        super().__init__()
        self.dense = nn.Dense(in_channels, out_channels,
                              weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.dropout = nn.Dropout(p=dropout_prob)
        self.dropout_prob = dropout_prob
        self.layernorm = nn.LayerNorm((out_channels,)).to_float(compute_type)

    def construct(self, hidden_status: Tensor, input_tensor: Tensor) -> Tensor:
        output = self.dropout(self.dense(hidden_status))
        return self.layernorm(input_tensor + output)


class SaturateCast(nn.Cell):
    """Clamps to the range of ``dst_type`` before casting (no overflow to inf)."""

    def __init__(self, src_type=mstype.float32, dst_type=mstype.float32) -> None:
        super().__init__()
        info = np.finfo(mstype.dtype_to_nptype(dst_type))
        self.tensor_min_type = float(info.min)
        self.tensor_max_type = float(info.max)
        self.dst_type = dst_type

    def construct(self, x: Tensor) -> Tensor:
        return ops.cast(ops.clamp(x, self.tensor_min_type, self.tensor_max_type), self.dst_type)


class BertAttention(nn.Cell):
    """Multi-head attention from ``from_tensor`` to ``to_tensor`` (inputs flattened to 2-D, output 2-D)."""

    def __init__(self, from_tensor_width: int, to_tensor_width: int, num_attention_heads: int = 1,
                 size_per_head: int = 512, query_act: str | None = None, key_act: str | None = None,
                 value_act: str | None = None, has_attention_mask: bool = False,
                 attention_probs_dropout_prob: float = 0.0, use_one_hot_embeddings: bool = False,
                 initializer_range: float = 0.02, use_relative_positions: bool = False,
                 compute_type=mstype.float32) -> None:
        super().__init__()
        _no_relative_positions(use_relative_positions, "BertAttention")
        self.num_attention_heads = num_attention_heads
        self.size_per_head = size_per_head
        self.has_attention_mask = has_attention_mask
        self.scores_mul = 1.0 / math.sqrt(float(self.size_per_head))
        self.shape_from_2d = (-1, from_tensor_width)
        self.shape_to_2d = (-1, to_tensor_width)
        units = num_attention_heads * size_per_head
        self.query_layer = nn.Dense(from_tensor_width, units, activation=query_act,
                                    weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.key_layer = nn.Dense(to_tensor_width, units, activation=key_act,
                                  weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.value_layer = nn.Dense(to_tensor_width, units, activation=value_act,
                                    weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.trans_shape = (0, 2, 1, 3)
        self.multiply_data = -10000.0  # added to the scores of masked positions
        self.softmax = nn.Softmax()
        self.dropout = nn.Dropout(p=attention_probs_dropout_prob)
        self.shape_return = (-1, units)

    def construct(self, from_tensor: Tensor, to_tensor: Tensor, attention_mask: Tensor) -> Tensor:
        seq = attention_mask.shape[2]
        heads = (-1, seq, self.num_attention_heads, self.size_per_head)
        query_out = self.query_layer(ops.reshape(from_tensor, self.shape_from_2d))
        key_out = self.key_layer(ops.reshape(to_tensor, self.shape_to_2d))
        value_out = self.value_layer(ops.reshape(to_tensor, self.shape_to_2d))
        query = ops.transpose(ops.reshape(query_out, heads), self.trans_shape)
        key = ops.transpose(ops.reshape(key_out, heads), self.trans_shape)
        scores = self.scores_mul * ops.matmul(query, ops.transpose(key, (0, 1, 3, 2)))
        if self.has_attention_mask:
            mask = ops.cast(ops.expand_dims(attention_mask, 1), scores.dtype)
            scores = (1.0 - mask) * self.multiply_data + scores
        probs = self.dropout(self.softmax(scores))
        value = ops.transpose(ops.reshape(value_out, heads), self.trans_shape)
        context = ops.transpose(ops.matmul(probs, value), self.trans_shape)
        return ops.reshape(context, self.shape_return)


class BertSelfAttention(nn.Cell):
    """Self-attention (``attention``) + output projection with residual and LayerNorm (``output``)."""

    def __init__(self, hidden_size: int, num_attention_heads: int = 12, attention_probs_dropout_prob: float = 0.1,
                 use_one_hot_embeddings: bool = False, initializer_range: float = 0.02,
                 hidden_dropout_prob: float = 0.1, use_relative_positions: bool = False,
                 compute_type=mstype.float32) -> None:
        super().__init__()
        if hidden_size % num_attention_heads != 0:
            raise ValueError(f"BertSelfAttention: the hidden size ({hidden_size}) is not a multiple of the number "
                             f"of attention heads ({num_attention_heads}).")
        self.size_per_head = hidden_size // num_attention_heads
        self.attention = BertAttention(
            from_tensor_width=hidden_size, to_tensor_width=hidden_size, num_attention_heads=num_attention_heads,
            size_per_head=self.size_per_head, attention_probs_dropout_prob=attention_probs_dropout_prob,
            use_one_hot_embeddings=use_one_hot_embeddings, initializer_range=initializer_range,
            use_relative_positions=use_relative_positions, has_attention_mask=True, compute_type=compute_type)
        self.output = BertOutput(in_channels=hidden_size, out_channels=hidden_size,
                                 initializer_range=initializer_range, dropout_prob=hidden_dropout_prob,
                                 compute_type=compute_type)

    def construct(self, input_tensor: Tensor, attention_mask: Tensor) -> Tensor:
        return self.output(self.attention(input_tensor, input_tensor, attention_mask), input_tensor)


class BertEncoderCell(nn.Cell):
    """One encoder layer: self-attention block, then ``intermediate`` Dense (activation) + ``output``."""

    def __init__(self, hidden_size: int = 768, num_attention_heads: int = 12, intermediate_size: int = 3072,
                 attention_probs_dropout_prob: float = 0.02, use_one_hot_embeddings: bool = False,
                 initializer_range: float = 0.02, hidden_dropout_prob: float = 0.1,
                 use_relative_positions: bool = False, hidden_act: str = "gelu", compute_type=mstype.float32) -> None:
        super().__init__()
        self.attention = BertSelfAttention(
            hidden_size=hidden_size, num_attention_heads=num_attention_heads,
            attention_probs_dropout_prob=attention_probs_dropout_prob, use_one_hot_embeddings=use_one_hot_embeddings,
            initializer_range=initializer_range, hidden_dropout_prob=hidden_dropout_prob,
            use_relative_positions=use_relative_positions, compute_type=compute_type)
        self.intermediate = nn.Dense(in_channels=hidden_size, out_channels=intermediate_size, activation=hidden_act,
                                     weight_init=TruncatedNormal(initializer_range)).to_float(compute_type)
        self.output = BertOutput(in_channels=intermediate_size, out_channels=hidden_size,
                                 initializer_range=initializer_range, dropout_prob=hidden_dropout_prob,
                                 compute_type=compute_type)

    def construct(self, hidden_states: Tensor, attention_mask: Tensor) -> Tensor:
        attention_output = self.attention(hidden_states, attention_mask)
        return self.output(self.intermediate(attention_output), attention_output)


class BertTransformer(nn.Cell):
    """``num_hidden_layers`` encoder cells in ``layers``; returns a tuple (every layer's output, or the last)."""

    def __init__(self, hidden_size: int, num_hidden_layers: int, num_attention_heads: int = 12,
                 intermediate_size: int = 3072, attention_probs_dropout_prob: float = 0.1,
                 use_one_hot_embeddings: bool = False, initializer_range: float = 0.02,
                 hidden_dropout_prob: float = 0.1, use_relative_positions: bool = False, hidden_act: str = "gelu",
                 compute_type=mstype.float32, return_all_encoders: bool = False) -> None:
        super().__init__()
        self.return_all_encoders = return_all_encoders
        self.layers = nn.CellList([
            BertEncoderCell(hidden_size=hidden_size, num_attention_heads=num_attention_heads,
                            intermediate_size=intermediate_size,
                            attention_probs_dropout_prob=attention_probs_dropout_prob,
                            use_one_hot_embeddings=use_one_hot_embeddings, initializer_range=initializer_range,
                            hidden_dropout_prob=hidden_dropout_prob, use_relative_positions=use_relative_positions,
                            hidden_act=hidden_act, compute_type=compute_type)
            for _ in range(num_hidden_layers)])
        self.shape = (-1, hidden_size)

    def construct(self, input_tensor: Tensor, attention_mask: Tensor) -> tuple:
        prev_output = ops.reshape(input_tensor, self.shape)
        all_encoder_layers: tuple[Tensor, ...] = ()
        for layer_module in self.layers:
            prev_output = layer_module(prev_output, attention_mask)
            if self.return_all_encoders:
                all_encoder_layers = all_encoder_layers + (ops.reshape(prev_output, input_tensor.shape),)
        if not self.return_all_encoders:
            all_encoder_layers = all_encoder_layers + (ops.reshape(prev_output, input_tensor.shape),)
        return all_encoder_layers


class CreateAttentionMaskFromInputMask(nn.Cell):
    """(batch, seq) 0/1 mask -> (batch, 1, seq) float32 mask over the keys."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.input_mask = None

    def construct(self, input_mask: Tensor) -> Tensor:
        return ops.cast(ops.reshape(input_mask, (-1, 1, input_mask.shape[1])), mstype.float32)


class BertModel(nn.Cell):
    """Bidirectional Encoder Representations from Transformers (dropout off when ``is_training`` is False)."""

    def __init__(self, config: BertConfig, is_training: bool, use_one_hot_embeddings: bool = False) -> None:
        super().__init__()
        config = copy.deepcopy(config)
        if not is_training:
            config.hidden_dropout_prob = 0.0
            config.attention_probs_dropout_prob = 0.0
        self.hidden_size = config.hidden_size
        self.num_hidden_layers = config.num_hidden_layers
        self.embedding_size = config.hidden_size
        self.token_type_ids = None
        self.last_idx = self.num_hidden_layers - 1
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
            num_hidden_layers=self.num_hidden_layers, intermediate_size=config.intermediate_size,
            attention_probs_dropout_prob=config.attention_probs_dropout_prob,
            use_one_hot_embeddings=use_one_hot_embeddings, initializer_range=config.initializer_range,
            hidden_dropout_prob=config.hidden_dropout_prob, use_relative_positions=config.use_relative_positions,
            hidden_act=config.hidden_act, compute_type=config.compute_type, return_all_encoders=True)
        self.dtype = config.dtype
        self.cast_compute_type = SaturateCast(dst_type=config.compute_type)
        self.dense = nn.Dense(self.hidden_size, self.hidden_size, activation="tanh",
                              weight_init=TruncatedNormal(config.initializer_range)).to_float(config.compute_type)
        self._create_attention_mask_from_input_mask = CreateAttentionMaskFromInputMask(config)

    def construct(self, input_ids: Tensor, token_type_ids: Tensor, input_mask: Tensor) -> tuple:
        embedding_tables = self.bert_embedding_lookup.embedding_table
        word_embeddings = self.bert_embedding_lookup(input_ids)
        embedding_output = self.bert_embedding_postprocessor(token_type_ids, word_embeddings)
        attention_mask = self._create_attention_mask_from_input_mask(input_mask)
        encoder_output = self.bert_encoder(self.cast_compute_type(embedding_output), attention_mask)
        sequence_output = ops.cast(encoder_output[self.last_idx], self.dtype)
        first_token = sequence_output[:, 0]  # the [CLS] position feeds the pooler
        pooled_output = ops.cast(self.dense(first_token), self.dtype)
        return sequence_output, pooled_output, embedding_tables
