"""``mindspore_hl.dataset.text`` (``mindspore.dataset.text``): tokenizers, vocabularies and string transforms."""
from ._sentencepiece import (
                          SentencePieceModel,
                          SentencePieceTokenizer,
                          SentencePieceVocab,
                          SPieceTokenizerLoadType,
                          SPieceTokenizerOutType,
)
from ._tokenizers import (
                          BasicTokenizer,
                          CaseFold,
                          NormalizeForm,
                          NormalizeUTF8,
                          PythonTokenizer,
                          RegexReplace,
                          RegexTokenizer,
                          UnicodeCharTokenizer,
                          UnicodeScriptTokenizer,
                          WhitespaceTokenizer,
                          to_bytes,
                          to_str,
)
from ._vectors import FastText, GloVe, ToVectors, Vectors
from ._vocab import (
                          AddToken,
                          BertTokenizer,
                          Lookup,
                          Ngram,
                          SlidingWindow,
                          ToNumber,
                          Truncate,
                          TruncateSequencePair,
                          Vocab,
                          WordpieceTokenizer,
)
from ._wikipedia import FilterWikipediaXML

__all__ = ["SentencePieceModel", "SentencePieceTokenizer", "SentencePieceVocab", "SPieceTokenizerLoadType",
           "SPieceTokenizerOutType", "FilterWikipediaXML",
           "WhitespaceTokenizer", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "RegexTokenizer",
           "RegexReplace", "CaseFold", "NormalizeUTF8", "NormalizeForm", "BasicTokenizer", "PythonTokenizer",
           "to_str", "to_bytes", "Vocab", "Lookup", "WordpieceTokenizer", "BertTokenizer", "Ngram", "ToNumber",
           "Truncate", "TruncateSequencePair", "SlidingWindow", "AddToken", "Vectors", "GloVe", "FastText",
           "ToVectors"]
