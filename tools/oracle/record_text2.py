"""Record real MindSpore 2.10's SentencePiece behaviour into tests/fixtures/oracle/text2.npz.

Run with the oracle interpreter (see README.md). A small corpus of made-up words (stored in the fixture) is
written to a temp file; for each model type MindSpore trains a SentencePieceVocab (``from_file`` and
``from_dataset`` over a TextFileDataset), saves it (the ``.model`` bytes are stored for the models trained with
the small ``identity`` normaliser) and tokenizes a few sentences as pieces and ids."""
import os
import random
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset as ds  # noqa: E402
import mindspore.dataset.text as text  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "text2.npz")
SENTENCES = ["karito mosena lupive dothan, quesin!", "na pido", "", "zz unknownwords ka"]
WIKI = ["Hello World 42!", "<text>abc</text>", "a &amp; b &lt;c&gt; d", "x<ref name=a>cite</ref>y",
        "[[Image:Foo.jpg|thumb|left|200px|Caption here]]", "[[image:foo.png|thumb|A cat]] text",
        "[[Category:Physics|X]] see [[en:Foo]] [[link|Visible]] [http://ex.com Site]",
        "[[category:maths|sort]] [[fr:Bar]] end", "{{icon}} {table} keep", "  multiple   spaces\tTab",
        "Ruby on Rails 2009", "ÀÉ ü ß 7", "", "a&nbsp;b", "<b>bold</b> <i>it</i>", "line one\n\nline two\n third",
        "#REDIRECT [[Other]]", "see #redirect", "|right|300px caption", "A&B; C"]
SIZES = {"UNIGRAM": 60, "BPE": 60, "CHAR": 18, "WORD": 40}


def corpus():
    rnd = random.Random(0)
    syl = "ka ri to mo na se lu pi ve do an th er in qu es".split()
    words = ["".join(rnd.choice(syl) for _ in range(rnd.randint(1, 3))) for _ in range(120)]
    return [" ".join(rnd.choice(words) for _ in range(rnd.randint(3, 9))) for _ in range(300)]


def tokens(vocab_or_path):
    st = text.SentencePieceTokenizer(vocab_or_path, out_type=text.SPieceTokenizerOutType.STRING)
    it = text.SentencePieceTokenizer(vocab_or_path, out_type=text.SPieceTokenizerOutType.INT)
    return [st(s).tolist() for s in SENTENCES], [it(s).tolist() for s in SENTENCES]


def main():
    lines = corpus()
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "corpus.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    with FixtureWriter(OUT) as w:
        for name, size in SIZES.items():
            mt = getattr(text.SentencePieceModel, name)
            for how in ("from_file", "from_dataset"):
                params = {"normalization_rule_name": "identity"} if how == "from_file" else {}
                if how == "from_file":
                    vocab = text.SentencePieceVocab.from_file([path], size, 1.0, mt, params)
                else:
                    d = ds.TextFileDataset(path, shuffle=False)
                    vocab = text.SentencePieceVocab.from_dataset(d, ["text"], size, 1.0, mt, params)
                pieces, ids = tokens(vocab)
                inputs = {}
                if how == "from_file":
                    text.SentencePieceVocab.save_model(vocab, tmp, f"{name}.model")
                    with open(os.path.join(tmp, f"{name}.model"), "rb") as f:
                        inputs["model"] = np.frombuffer(f.read(), np.uint8)
                w.add(f"text.SentencePieceVocab.{how}/{name}", name=f"SentencePieceVocab.{how}", inputs=inputs,
                      model_type=name, vocab_size=size, params=params, pieces=pieces, ids=ids)
        w.add("text.SentencePieceVocab.from_file/too_large", name="SentencePieceVocab.from_file",
              model_type="WORD", vocab_size=5000, params={}, error=_error(
                  lambda: text.SentencePieceVocab.from_file([path], 5000, 1.0, text.SentencePieceModel.WORD, {})))
        w.add("text.corpus", name="corpus", lines=lines, sentences=SENTENCES)
        op = text.FilterWikipediaXML()
        for i, value in enumerate(WIKI):
            w.add(f"text.FilterWikipediaXML/{i}", name="FilterWikipediaXML", text=value,
                  out=str(np.asarray(op(value)).item()))


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recorded by type name
        return type(e).__name__
    raise AssertionError("expected an error")


if __name__ == "__main__":
    main()
