"""LSTM sentiment network (ModelZoo official/nlp/LSTM)."""
from .lstm import SentimentNet

__all__ = ["SentimentNet"]
