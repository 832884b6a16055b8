"""BERT encoder (ModelZoo official/nlp/Bert)."""
from .bert_model import (
                         BertAttention,
                         BertConfig,
                         BertEncoderCell,
                         BertModel,
                         BertOutput,
                         BertSelfAttention,
                         BertTransformer,
                         CreateAttentionMaskFromInputMask,
                         EmbeddingPostprocessor,
                         SaturateCast,
)

__all__ = ["BertAttention", "BertConfig", "BertEncoderCell", "BertModel", "BertOutput", "BertSelfAttention",
           "BertTransformer", "CreateAttentionMaskFromInputMask", "EmbeddingPostprocessor", "SaturateCast"]
