"""Record real MindSpore 2.10's ``dataset.text`` transforms into tests/fixtures/oracle/text.npz.

Run with the oracle interpreter (see README.md). Each case is a constructor expression over ``T`` (the text
module) and ``V`` (a small vocabulary built the same way on both sides), called eagerly on string inputs; the
test evaluates the same expression with mindspore_hl.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore as ms  # noqa: E402,F401  (ms.int32 in expressions)
import mindspore.dataset.text as T  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "text.npz")

VOCAB_WORDS = ["[UNK]", "[CLS]", "hel", "##lo", "world", ",", "!", "a", "b", "c"]

CASES = [
    ("T.WhitespaceTokenizer()", ["Hello  world\tfoo"]),
    ("T.WhitespaceTokenizer(with_offsets=True)", ["ab cd"]),
    ("T.UnicodeCharTokenizer()", ["hé!"]),
    ("T.UnicodeCharTokenizer(with_offsets=True)", ["hé!"]),
    ("T.UnicodeScriptTokenizer()", ["hello 你好 123 ab,c"]),
    ("T.RegexTokenizer(r'\\s+')", ["a b  c"]),
    ("T.RegexTokenizer(r'\\s+', r'\\s+')", ["a b"]),
    ("T.RegexReplace('a+', 'X')", ["caaab aa"]),
    ("T.RegexReplace('a', 'X', False)", ["aaa"]),
    ("T.CaseFold()", ["HeLLo ß"]),
    ("T.NormalizeUTF8(T.NormalizeForm.NFKC)", ["ｆｕｌｌ ﬁ"]),
    ("T.BasicTokenizer()", ["Hello, World! 你好"]),
    ("T.BasicTokenizer(lower_case=True)", ["HeLLo, WÖrld!"]),
    ("T.Lookup(V, '[UNK]')", [["a", "zz", "c"]]),
    ("T.WordpieceTokenizer(V)", [["hello", "world", "xyz"]]),
    ("T.BertTokenizer(V, lower_case=True)", ["Hello, World!"]),
    ("T.Ngram([2, 3], ('_', 1), ('_', 1), ' ')", [["a", "b", "c"]]),
    ("T.Ngram([2], ('<', 2), ('>', 1), '+')", [["a", "b"]]),
    ("T.Ngram([4])", [["a", "b"]]),
    ("T.ToNumber(ms.int32)", [["1", "22", "-3"]]),
    ("T.Truncate(2)", [[1, 2, 3]]),
    ("T.SlidingWindow(2)", [[1, 2, 3]]),
    ("T.TruncateSequencePair(4)", [[1, 2, 3], [4, 5, 6]]),
    ("T.AddToken('<s>', True)", [["a", "b"]]),
    ("T.AddToken('</s>', False)", [["a", "b"]]),
]


def main():
    V = T.Vocab.from_list(VOCAB_WORDS)  # noqa: N806
    with FixtureWriter(OUT) as w:
        for k, (expr, args) in enumerate(CASES):
            inputs = [np.array(a) for a in args]
            op = eval(expr, {"T": T, "V": V, "ms": ms})  # noqa: S307 - expressions are the fixed list above
            try:
                out = op(*inputs)
            except Exception as e:  # noqa: BLE001
                w.add(f"case{k:02d}", inputs={f"x{i}": a for i, a in enumerate(inputs)}, name="text", expr=expr,
                      error=type(e).__name__)
                continue
            outs = list(out) if isinstance(out, tuple) else [out]
            w.add(f"case{k:02d}", inputs={f"x{i}": a for i, a in enumerate(inputs)}, outputs=outs, name="text",
                  expr=expr)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
