"""Tiny files in the published on-disk layouts of the datasets (NumPy, Pillow and the standard library only).

Both sides use it: ``tools/oracle/record_dataset_readers.py`` writes the files and records what real MindSpore
2.10 reads from them; ``test_dataset_readers.py`` writes the same files and compares mindspore_hl's rows.
Every writer is deterministic, so both interpreters see byte-identical files (images are PNG, lossless).
"""
import io
import os
import struct
import wave

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _png(array):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def _wav(path, samples, rate):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(samples, "<i2").tobytes())


def usps(folder):
    """``usps`` / ``usps.t``: libsvm lines ``label 1:v ... 256:v`` with pixel values in [-1, 1]."""
    rng = _rng(1)
    for name, n in (("usps", 3), ("usps.t", 2)):
        lines = []
        for _ in range(n):
            vals = rng.uniform(-1, 1, 256).round(6)
            # the published files end every line with a space (real MindSpore requires it)
            lines.append(f"{rng.integers(1, 11)} " + " ".join(f"{i + 1}:{v:.6f}" for i, v in enumerate(vals)) + " ")
        _write(os.path.join(folder, name), "\n".join(lines) + "\n")


def semeion(folder):
    """``semeion.data``: 256 pixel values (0 / 1 as ``1.0000``) then a one-hot label of 10 integers."""
    rng = _rng(2)
    lines = []
    for k in (3, 0, 7):
        px = " ".join(f"{v:.4f}" for v in rng.integers(0, 2, 256).astype(float))
        lines.append(px + " " + " ".join("1" if i == k else "0" for i in range(10)) + " ")
    _write(os.path.join(folder, "semeion.data"), "\n".join(lines) + "\n")


def _idx(path, array, code):
    dims = struct.pack(">" + "I" * array.ndim, *array.shape)
    _write(path, struct.pack(">BBBB", 0, 0, code, array.ndim) + dims + array.tobytes())


def emnist(folder):
    """``emnist-<name>-<usage>-images-idx3-ubyte`` / ``-labels-idx1-ubyte`` (images stored transposed)."""
    rng = _rng(3)
    for usage, n in (("train", 3), ("test", 2)):
        _idx(os.path.join(folder, f"emnist-letters-{usage}-images-idx3-ubyte"),
             rng.integers(0, 256, (n, 28, 28), dtype=np.uint8), 0x08)
        _idx(os.path.join(folder, f"emnist-letters-{usage}-labels-idx1-ubyte"),
             rng.integers(1, 27, n, dtype=np.uint8), 0x08)


def qmnist(folder):
    """``qmnist-<usage>-images-idx3-ubyte`` and ``-labels-idx2-int`` (8 big-endian int32 per image)."""
    rng = _rng(4)
    for usage, n in (("train", 3), ("test", 2)):
        _idx(os.path.join(folder, f"qmnist-{usage}-images-idx3-ubyte"),
             rng.integers(0, 256, (n, 28, 28), dtype=np.uint8), 0x08)
        _idx(os.path.join(folder, f"qmnist-{usage}-labels-idx2-int"),
             rng.integers(0, 10, (n, 8)).astype(">i4"), 0x0C)


def stl10(folder):
    """``<usage>_X.bin`` (uint8, each image 3 x 96 x 96 column-major) and ``<usage>_y.bin`` (labels 1-10)."""
    rng = _rng(5)
    for usage, n in (("train", 2), ("test", 1), ("unlabeled", 1)):
        _write(os.path.join(folder, f"{usage}_X.bin"), rng.integers(0, 256, n * 3 * 96 * 96, dtype=np.uint8)
               .tobytes())
        if usage != "unlabeled":
            _write(os.path.join(folder, f"{usage}_y.bin"), rng.integers(1, 11, n, dtype=np.uint8).tobytes())


def yes_no(folder):
    """Waves named by their eight yes / no labels, 8 kHz 16-bit mono."""
    rng = _rng(6)
    for name in ("0_1_0_0_1_0_1_1", "1_1_0_0_1_1_0_0", "0_0_0_1_0_1_1_0"):
        _wav(os.path.join(folder, name + ".wav"), rng.integers(-3000, 3000, 40), 8000)


def speech_commands(folder):
    """``<word>/<speaker>_nohash_<n>.wav`` plus ``validation_list.txt`` / ``testing_list.txt``."""
    rng = _rng(7)
    names = ["cat/b433eff_nohash_0.wav", "cat/5a33edf_nohash_1.wav", "dog/b433w2w_nohash_0.wav",
             "four/c0ffee1_nohash_2.wav"]
    for n in names:
        _wav(os.path.join(folder, n), rng.integers(-3000, 3000, 30), 16000)
    _write(os.path.join(folder, "validation_list.txt"), "dog/b433w2w_nohash_0.wav\n")
    _write(os.path.join(folder, "testing_list.txt"), "four/c0ffee1_nohash_2.wav\n")


def lj_speech(folder):
    """``metadata.csv`` (``id|transcription|normalized``) and ``wavs/<id>.wav`` at 22.05 kHz."""
    rng = _rng(8)
    rows = [("LJ001-0001", "Printing, in the only sense", "Printing, in the only sense"),
            ("LJ001-0002", "in 1 sense", "in one sense")]
    for key, _, _ in rows:
        _wav(os.path.join(folder, "wavs", key + ".wav"), rng.integers(-3000, 3000, 25), 22050)
    _write(os.path.join(folder, "metadata.csv"), "".join("|".join(r) + "\n" for r in rows))


def imdb(folder):
    """``<usage>/<pos|neg>/<id>_<rating>.txt``, one review per file."""
    for usage in ("train", "test"):
        for sent, texts in (("pos", ["A great film.", "Loved it<br />really"]), ("neg", ["Dull, slow."])):
            for i, t in enumerate(texts):
                _write(os.path.join(folder, usage, sent, f"{i}_{9 if sent == 'pos' else 2}.txt"), f"{usage} {t}")


def caltech256(folder):
    """``<nnn>.<class>/<nnn>_<mmmm>.jpg`` folders (PNG content here: the reader keeps the bytes)."""
    rng = _rng(9)
    for cls, n in (("001.ak47", 2), ("002.american-flag", 1), ("257.clutter", 1)):
        for i in range(n):
            _write(os.path.join(folder, cls, f"{cls[:3]}_{i + 1:04d}.jpg"),
                   _png(rng.integers(0, 256, (3 + i, 4, 3), dtype=np.uint8)))


def sun397(folder):
    """``ClassName.txt`` (``/a/abbey`` lines) and images under ``a/abbey/sun_*.jpg``."""
    rng = _rng(10)
    classes = ["/a/abbey", "/b/balcony/exterior", "/b/badlands"]
    _write(os.path.join(folder, "ClassName.txt"), "\n".join(classes) + "\n")
    for k, cls in enumerate(classes):
        _write(os.path.join(folder, cls.strip("/"), f"sun_{'abc'[k]}aaa.jpg"),
               _png(rng.integers(0, 256, (3, 2 + k, 3), dtype=np.uint8)))


def multi30k(folder):
    """``training/train.{de,en}``, ``validation/val.{de,en}``, ``mmt16_task1_test/test.{de,en}``."""
    for sub, stem, n in (("training", "train", 2), ("validation", "val", 1), ("mmt16_task1_test", "test", 1)):
        for lang in ("de", "en"):
            _write(os.path.join(folder, sub, f"{stem}.{lang}"),
                   "".join(f"{stem} {lang} sentence {i}\n" for i in range(n)))



def cmu_arctic(folder):
    """``cmu_us_<name>_arctic/etc/txt.done.data`` (``( id "text" )`` lines) and ``wav/<id>.wav`` at 16 kHz."""
    rng = _rng(11)
    base = os.path.join(folder, "cmu_us_aew_arctic")
    lines = ['( arctic_a0001 "Author of the danger trail, Philip Steels, etc." )',
             '( arctic_a0002 "Not at this particular case, Tom, apologized Whittemore." )']
    for key in ("arctic_a0001", "arctic_a0002"):
        _wav(os.path.join(base, "wav", key + ".wav"), rng.integers(-3000, 3000, 20), 16000)
    _write(os.path.join(base, "etc", "txt.done.data"), "\n".join(lines) + "\n")


def libri_tts(folder):
    """``<usage>/<speaker>/<chapter>/<s>_<c>.trans.tsv`` and ``<s>_<c>_<n>_<m>.wav`` (+ .original/.normalized.txt)."""
    rng = _rng(12)
    for usage, speaker, chapter in (("dev-clean", 116, 288045), ("dev-clean", 1255, 74899),
                                    ("test-clean", 1089, 134686)):
        base = os.path.join(folder, usage, str(speaker), str(chapter))
        rows = []
        for n in (3, 1):
            key = f"{speaker}_{chapter}_{n:06d}_000000"
            original, normalized = f"Chapter {n}, Mr. Smith.", f"Chapter {'three' if n == 3 else 'one'}, Mister Smith."
            _wav(os.path.join(base, key + ".wav"), rng.integers(-3000, 3000, 15), 24000)
            _write(os.path.join(base, key + ".original.txt"), original)
            _write(os.path.join(base, key + ".normalized.txt"), normalized)
            rows.append(f"{key}\t{original}\t{normalized}\n")
        _write(os.path.join(base, f"{speaker}_{chapter}.trans.tsv"), "".join(rows))


def conll2000(folder):
    """``train.txt`` / ``test.txt``: ``word POS chunk`` lines, every sentence ended by a blank line."""
    _write(os.path.join(folder, "train.txt"), "Confidence NN B-NP\nin IN B-PP\nthe DT B-NP\n\nChancellor NNP O\n"
                                              ". . O\n\n")
    _write(os.path.join(folder, "test.txt"), "Rockwell NNP B-NP\nsaid VBD B-VP\n\n")


def udpos(folder):
    """``en-ud-tag.v2.<split>.txt``: ``word<TAB>universal<TAB>stanford`` lines, every sentence ended by a blank
    line."""
    for split, text in (("train", "Al\tPROPN\tNNP\n-\tPUNCT\tHYPH\n\nZaman\tPROPN\tNNP\n\n"),
                        ("dev", "From\tADP\tIN\nthe\tDET\tDT\n\n"), ("test", "What\tPRON\tWP\n\n")):
        _write(os.path.join(folder, f"en-ud-tag.v2.{split}.txt"), text)


def squad(folder):
    """SQuAD 1.1 JSON files ``train-v1.1.json`` / ``dev-v1.1.json``."""
    import json
    for name, q in (("train-v1.1.json", "Who?"), ("dev-v1.1.json", "Where?")):
        doc = {"version": "1.1", "data": [{"title": "T", "paragraphs": [
            {"context": "Alice lives in Paris.", "qas": [
                {"id": "1", "question": q, "answers": [{"text": "Alice", "answer_start": 0},
                                                        {"text": "Paris", "answer_start": 15}]},
                {"id": "2", "question": q + " again", "answers": [{"text": "Paris", "answer_start": 15}]}]}]}]}
        _write(os.path.join(folder, name), json.dumps(doc))


def sst2(folder):
    """``train.tsv`` / ``dev.tsv`` (``sentence<TAB>label`` with a header), ``test.tsv`` (``index<TAB>sentence``)."""
    _write(os.path.join(folder, "train.tsv"), "sentence\tlabel\nhide new secretions \t0\ncontains no wit \t0\n"
                                              "a charming film \t1\n")
    _write(os.path.join(folder, "dev.tsv"), "sentence\tlabel\nit 's a charming journey . \t1\n")
    _write(os.path.join(folder, "test.tsv"), "index\tsentence\n0\tuneasy mishmash .\n1\tthis is fun\n")


def food101(folder):
    """``images/<class>/<id>.jpg`` with ``meta/train.txt`` / ``meta/test.txt`` (``class/id`` lines)."""
    rng = _rng(13)
    for cls, ids in (("apple_pie", ("1005649", "1014775")), ("baby_back_ribs", ("1005293",))):
        for i in ids:
            _write(os.path.join(folder, "images", cls, i + ".jpg"),
                   _png(rng.integers(0, 256, (2, 3, 3), dtype=np.uint8)))
    _write(os.path.join(folder, "meta", "train.txt"), "apple_pie/1005649\nbaby_back_ribs/1005293\n")
    _write(os.path.join(folder, "meta", "test.txt"), "apple_pie/1014775\n")
    _write(os.path.join(folder, "meta", "classes.txt"), "apple_pie\nbaby_back_ribs\n")


def omniglot(folder):
    """``images_background`` / ``images_evaluation`` holding ``<alphabet>/<character>/<n>.png``."""
    rng = _rng(14)
    for part, chars in (("images_background", ("Alphabet_of_the_Magi/character01", "Alphabet_of_the_Magi/"
                                                "character02", "Anglo-Saxon_Futhorc/character01")),
                        ("images_evaluation", ("Angelic/character01",))):
        for k, ch in enumerate(chars):
            for n in range(1 + k % 2):
                _write(os.path.join(folder, part, ch, f"09{k}{n}_0{n + 1}.png"),
                       _png(rng.integers(0, 256, (3, 3, 3), dtype=np.uint8)))


def rendered_sst2(folder):
    """``<train|valid|test>/<negative|positive>/<n>.png``."""
    rng = _rng(15)
    for usage in ("train", "valid", "test"):
        for cls, n in (("negative", 1), ("positive", 2)):
            for i in range(n):
                _write(os.path.join(folder, usage, cls, f"{i + 1:04d}.png"),
                       _png(rng.integers(0, 256, (2, 2, 3), dtype=np.uint8)))


def flickr(folder):
    """``Flickr8k_Dataset/<id>.jpg`` images and ``Flickr8k.token.txt`` (``<file>#<n><TAB>caption``)."""
    rng = _rng(16)
    lines = []
    for name in ("1000268201_693b08cb0e.jpg", "1001773457_577c3a7d70.jpg"):
        _write(os.path.join(folder, "Flickr8k_Dataset", name), _png(rng.integers(0, 256, (2, 2, 3), dtype=np.uint8)))
        lines += [f"{name}#{n}\tCaption {n} of {name[:4]} ." for n in range(5)]
    _write(os.path.join(folder, "Flickr8k.token.txt"), "\n".join(lines) + "\n")


LAYOUTS = {"usps": usps, "semeion": semeion, "emnist": emnist, "qmnist": qmnist, "stl10": stl10,
           "yes_no": yes_no, "speech_commands": speech_commands, "lj_speech": lj_speech, "imdb": imdb,
           "caltech256": caltech256, "sun397": sun397, "multi30k": multi30k, "cmu_arctic": cmu_arctic,
           "libri_tts": libri_tts, "conll2000": conll2000, "udpos": udpos, "squad": squad, "sst2": sst2,
           "food101": food101, "omniglot": omniglot, "rendered_sst2": rendered_sst2, "flickr": flickr}


#: case id -> (layout, expression over ``ds`` (the dataset package) and ``d`` (the folder)); shuffle is off
CASES = {
    "usps/all": ("usps", "ds.USPSDataset(d, shuffle=False)"),
    "usps/test": ("usps", "ds.USPSDataset(d, usage='test', shuffle=False)"),
    "semeion": ("semeion", "ds.SemeionDataset(d, shuffle=False)"),
    "emnist/train": ("emnist", "ds.EMnistDataset(d, 'letters', usage='train', shuffle=False)"),
    "emnist/all": ("emnist", "ds.EMnistDataset(d, 'letters', shuffle=False)"),
    "qmnist/compat": ("qmnist", "ds.QMnistDataset(d, usage='train', shuffle=False)"),
    "qmnist/full": ("qmnist", "ds.QMnistDataset(d, usage='test', compat=False, shuffle=False)"),
    "stl10/train": ("stl10", "ds.STL10Dataset(d, usage='train', shuffle=False)"),
    "stl10/unlabeled": ("stl10", "ds.STL10Dataset(d, usage='train+unlabeled', shuffle=False)"),
    "yes_no": ("yes_no", "ds.YesNoDataset(d, shuffle=False)"),
    "speech_commands/all": ("speech_commands", "ds.SpeechCommandsDataset(d, shuffle=False)"),
    "speech_commands/train": ("speech_commands", "ds.SpeechCommandsDataset(d, usage='train', shuffle=False)"),
    "speech_commands/valid": ("speech_commands", "ds.SpeechCommandsDataset(d, usage='valid', shuffle=False)"),
    "lj_speech": ("lj_speech", "ds.LJSpeechDataset(d, shuffle=False)"),
    "imdb/all": ("imdb", "ds.IMDBDataset(d, shuffle=False)"),
    "imdb/test": ("imdb", "ds.IMDBDataset(d, usage='test', shuffle=False)"),
    "caltech256": ("caltech256", "ds.Caltech256Dataset(d, shuffle=False)"),
    "caltech256/decode": ("caltech256", "ds.Caltech256Dataset(d, shuffle=False, decode=True)"),
    "sun397": ("sun397", "ds.SUN397Dataset(d, shuffle=False, decode=True)"),
    "multi30k/train": ("multi30k", "ds.Multi30kDataset(d, usage='train', shuffle=False)"),
    "multi30k/all_de_en": ("multi30k", "ds.Multi30kDataset(d, usage='all', language_pair=['de', 'en'], "
                                       "shuffle=False)"),
    "cmu_arctic": ("cmu_arctic", "ds.CMUArcticDataset(d, shuffle=False)"),
    "libri_tts/dev": ("libri_tts", "ds.LibriTTSDataset(d, usage='dev-clean', shuffle=False)"),
    "libri_tts/all": ("libri_tts", "ds.LibriTTSDataset(d, usage='all', shuffle=False)"),
    "conll2000/all": ("conll2000", "ds.CoNLL2000Dataset(d, usage='all', shuffle=False)"),
    "conll2000/train": ("conll2000", "ds.CoNLL2000Dataset(d, usage='train', shuffle=False)"),
    "udpos/all": ("udpos", "ds.UDPOSDataset(d, usage='all', shuffle=False)"),
    "udpos/valid": ("udpos", "ds.UDPOSDataset(d, usage='valid', shuffle=False)"),
    "squad/all": ("squad", "ds.SQuADDataset(d, usage='all', shuffle=False)"),
    "squad/dev": ("squad", "ds.SQuADDataset(d, usage='dev', shuffle=False)"),
    "sst2/train": ("sst2", "ds.SST2Dataset(d, usage='train', shuffle=False)"),
    "sst2/test": ("sst2", "ds.SST2Dataset(d, usage='test', shuffle=False)"),
    "food101/all": ("food101", "ds.Food101Dataset(d, shuffle=False, decode=True)"),
    "food101/test": ("food101", "ds.Food101Dataset(d, usage='test', shuffle=False)"),
    "omniglot/background": ("omniglot", "ds.OmniglotDataset(d, background=True, shuffle=False, decode=True)"),
    "omniglot/evaluation": ("omniglot", "ds.OmniglotDataset(d, background=False, shuffle=False)"),
    "rendered_sst2/all": ("rendered_sst2", "ds.RenderedSST2Dataset(d, shuffle=False, decode=True)"),
    "rendered_sst2/val": ("rendered_sst2", "ds.RenderedSST2Dataset(d, usage='val', shuffle=False)"),
    "flickr": ("flickr", "ds.FlickrDataset(d + '/Flickr8k_Dataset', d + '/Flickr8k.token.txt', shuffle=False, "
                         "decode=True)"),
}
