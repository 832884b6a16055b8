"""LSTM sentiment network as in MindSpore ModelZoo (official/nlp/LSTM/src/lstm.py), ModelZoo parameter names.

Embedding (frozen table) -> (bi)LSTM over time -> Dense on [output at step 0, output at step 499]: like ModelZoo,
``construct`` reads time step 499, so inputs are (batch, 500) token ids (IMDB padded to 500).
"""
from __future__ import annotations

import mindspore_hl.nn as nn
import mindspore_hl.ops as ops
from mindspore_hl.common.tensor import Tensor

__all__ = ["SentimentNet"]


class SentimentNet(nn.Cell):
    """Sentiment classifier: ``weight`` is the (vocab_size, embed_size) embedding table (e.g. GloVe)."""

    def __init__(self, vocab_size: int, embed_size: int, num_hiddens: int, num_layers: int, bidirectional: bool,
                 num_classes: int, weight: Tensor, batch_size: int) -> None:
        super().__init__()
        self.bidirectional = bidirectional
        self.embedding = nn.Embedding(vocab_size, embed_size, embedding_table=weight)
        self.embedding.embedding_table.requires_grad = False
        self.perm = (1, 0, 2)
        self.encoder = nn.LSTM(input_size=embed_size, hidden_size=num_hiddens, num_layers=num_layers, has_bias=True,
                               bidirectional=bidirectional, dropout=0.0)
        self.decoder = nn.Dense(num_hiddens * (4 if bidirectional else 2), num_classes)

    def construct(self, inputs: Tensor) -> Tensor:
        if inputs.ndim != 2 or inputs.shape[1] < 500:
            raise ValueError(f"SentimentNet: expected token ids of shape (batch, 500), got {tuple(inputs.shape)}.")
        embeddings = ops.transpose(self.embedding(inputs), self.perm)  # time major
        output, _ = self.encoder(embeddings)
        encoding = ops.concat((output[0], output[499]), 1)
        return self.decoder(encoding)
