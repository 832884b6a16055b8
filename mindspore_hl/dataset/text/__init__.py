"""``mindspore_hl.dataset.text`` (``mindspore.dataset.text``): tokenizers, vocabularies and string transforms."""
from ._tokenizers import (WhitespaceTokenizer, UnicodeCharTokenizer, UnicodeScriptTokenizer, RegexTokenizer,
                          RegexReplace, CaseFold, NormalizeUTF8, NormalizeForm, BasicTokenizer, PythonTokenizer,
                          to_str, to_bytes)
from ._vocab import (Vocab, Lookup, WordpieceTokenizer, BertTokenizer, Ngram, ToNumber, Truncate,
                     TruncateSequencePair, SlidingWindow, AddToken)
from ._vectors import Vectors, GloVe, FastText, ToVectors

__all__ = ["WhitespaceTokenizer", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "RegexTokenizer",
           "RegexReplace", "CaseFold", "NormalizeUTF8", "NormalizeForm", "BasicTokenizer", "PythonTokenizer",
           "to_str", "to_bytes", "Vocab", "Lookup", "WordpieceTokenizer", "BertTokenizer", "Ngram", "ToNumber",
           "Truncate", "TruncateSequencePair", "SlidingWindow", "AddToken", "Vectors", "GloVe", "FastText",
           "ToVectors"]
