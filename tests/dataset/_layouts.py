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



def svhn(folder):
    """``<usage>_32x32.mat``: ``X`` (32, 32, 3, N) uint8 and ``y`` (N, 1) with 10 for the digit 0."""
    from scipy.io import savemat
    rng = _rng(17)
    os.makedirs(folder, exist_ok=True)
    for usage, n in (("train", 3), ("test", 2), ("extra", 2)):   # MindSpore fails on one-image files
        savemat(os.path.join(folder, f"{usage}_32x32.mat"),
                {"X": rng.integers(0, 256, (32, 32, 3, n), dtype=np.uint8),
                 "y": rng.integers(1, 11, (n, 1)).astype(np.uint8)})


def wider_face(folder):
    """``WIDER_<split>/images/<event>/<name>.jpg``; ``wider_face_split/wider_face_<split>_bbx_gt.txt`` (name, count,
    then ``x y w h blur expression illumination invalid occlusion pose`` per face) and the test file list."""
    rng = _rng(18)
    gt = {"train": [("0--Parade/0_Parade_marchingband_1_849.jpg", [[449, 330, 122, 149, 0, 0, 0, 0, 0, 0]]),
                    ("1--Handshaking/1_Handshaking_1_3.jpg", [[10, 20, 5, 6, 1, 0, 0, 0, 1, 0],
                                                              [30, 4, 7, 8, 2, 1, 0, 0, 0, 1]])],
          "val": [("0--Parade/0_Parade_marchingband_1_102.jpg", [[1, 2, 3, 4, 0, 0, 1, 0, 2, 0]]),
                  ("1--Handshaking/1_Handshaking_1_7.jpg", [[5, 5, 2, 2, 0, 1, 0, 1, 0, 0]])]}
    os.makedirs(os.path.join(folder, "wider_face_split"), exist_ok=True)
    for split, items in gt.items():
        lines = []
        for name, faces in items:
            _write(os.path.join(folder, f"WIDER_{split}", "images", name),
                   _png(rng.integers(0, 256, (3, 4, 3), dtype=np.uint8)))
            lines += [name, str(len(faces))] + [" ".join(map(str, f)) + " " for f in faces]
        _write(os.path.join(folder, "wider_face_split", f"wider_face_{split}_bbx_gt.txt"), "\n".join(lines) + "\n")
    _write(os.path.join(folder, "WIDER_test", "images", "0--Parade", "0_Parade_marchingband_1_9.jpg"),
           _png(rng.integers(0, 256, (2, 2, 3), dtype=np.uint8)))
    _write(os.path.join(folder, "wider_face_split", "wider_face_test_filelist.txt"),
           "0--Parade/0_Parade_marchingband_1_9.jpg\n")


def kitti(folder):
    """``data_object_image_2/<training|testing>/image_2/<id>.png`` and ``data_object_label_2/training/label_2/
    <id>.txt`` (``type truncated occluded alpha x1 y1 x2 y2 h w l x y z rotation_y`` per object)."""
    rng = _rng(19)
    labels = {"000000": "Car 0.00 0 -1.58 587.01 173.33 614.12 200.12 1.65 1.67 3.64 -0.65 1.71 46.70 -1.59\n"
                        "Pedestrian 0.50 2 1.25 10.00 20.00 30.50 40.25 1.80 0.60 0.90 2.00 1.50 8.00 0.75\n",
              "000001": "DontCare -1 -1 -10 503.89 169.71 590.61 190.13 -1 -1 -1 -1000 -1000 -1000 -10\n"}
    for key, text in labels.items():
        _write(os.path.join(folder, "data_object_image_2", "training", "image_2", key + ".png"),
               _png(rng.integers(0, 256, (2, 3, 3), dtype=np.uint8)))
        _write(os.path.join(folder, "data_object_label_2", "training", "label_2", key + ".txt"), text)
    _write(os.path.join(folder, "data_object_image_2", "testing", "image_2", "000000.png"),
           _png(rng.integers(0, 256, (2, 2, 3), dtype=np.uint8)))


def places365(folder):
    """``categories_places365.txt``, ``places365_train_standard.txt`` / ``places365_val.txt`` (``path label``),
    images under ``data_256_standard`` and ``val_256``."""
    rng = _rng(20)
    _write(os.path.join(folder, "categories_places365.txt"), "/a/airfield 0\n/a/alley 1\n/b/bakery/shop 2\n")
    train = [("/a/alley/00000001.jpg", 1), ("/a/airfield/00000001.jpg", 0), ("/b/bakery/shop/00000001.jpg", 2)]
    for path, _ in train:
        _write(os.path.join(folder, "data_256_standard", path.lstrip("/")),
               _png(rng.integers(0, 256, (2, 2, 3), np.uint8)))
    _write(os.path.join(folder, "places365_train_standard.txt"), "".join(f"{p} {k}\n" for p, k in train))
    _write(os.path.join(folder, "val_256", "Places365_val_00000001.jpg"), _png(np.zeros((2, 2, 3), np.uint8)))
    _write(os.path.join(folder, "places365_val.txt"), "Places365_val_00000001.jpg 2\n")


def manifest(folder):
    """A ModelArts manifest: one JSON object per line (``source``, ``usage``, ``annotation`` with class names)."""
    import json
    rng = _rng(21)
    lines = []
    for i, (usage, names) in enumerate((("train", ["dog"]), ("train", ["cat"]), ("eval", ["dog"]),
                                        ("TRAIN", ["cat", "dog"]))):
        path = os.path.join(folder, "images", f"{i}.png")
        _write(path, _png(rng.integers(0, 256, (2, 2, 3), dtype=np.uint8)))
        lines.append(json.dumps({"source": path, "usage": usage, "annotation": [
            {"type": "modelarts/image_classification", "name": n} for n in names]}))
    _write(os.path.join(folder, "manifest.json"), "\n".join(lines) + "\n")


def div2k(folder):
    """``DIV2K_<usage>_HR/<id>.png`` and ``DIV2K_<usage>_LR_bicubic/X<scale>/<id>x<scale>.png``."""
    rng = _rng(22)
    for key in ("0001", "0002"):
        _write(os.path.join(folder, "DIV2K_train_HR", key + ".png"), _png(rng.integers(0, 256, (4, 6, 3), np.uint8)))
        _write(os.path.join(folder, "DIV2K_train_LR_bicubic", "X2", key + "x2.png"),
               _png(rng.integers(0, 256, (2, 3, 3), np.uint8)))


def photo_tour(folder):
    """``<name>/patches0000.bmp`` (1024 x 1024 grey, 16 x 16 patches of 64 x 64), ``info.txt`` (point id per
    patch) and ``m50_100000_100000_0.txt`` (test pairs)."""
    from PIL import Image
    rng = _rng(23)
    base = os.path.join(folder, "liberty")
    os.makedirs(base, exist_ok=True)
    Image.fromarray(rng.integers(0, 256, (1024, 1024), dtype=np.uint8)).save(os.path.join(base, "patches0000.bmp"))
    _write(os.path.join(base, "info.txt"), "0 0\n0 1\n1 0\n2 1\n")
    _write(os.path.join(base, "m50_100000_100000_0.txt"), "0 0 0 1 0 0 0\n2 1 0 3 2 0 0\n")



def flowers102(folder):
    """``imagelabels.mat`` (labels 1-102), ``setid.mat`` (trnid / valid / tstid), ``jpg/image_<n>.jpg`` and
    ``segmim/segmim_<n>.jpg``."""
    from scipy.io import savemat
    rng = _rng(24)
    os.makedirs(folder, exist_ok=True)
    savemat(os.path.join(folder, "imagelabels.mat"), {"labels": np.array([[3, 1, 102, 7]], np.uint8)})
    savemat(os.path.join(folder, "setid.mat"), {"trnid": np.array([[2, 4]], np.uint16),
                                                "valid": np.array([[1]], np.uint16),
                                                "tstid": np.array([[3]], np.uint16)})
    for n in range(1, 5):
        _write(os.path.join(folder, "jpg", f"image_{n:05d}.jpg"), _png(rng.integers(0, 256, (2, 3, 3), np.uint8)))
        _write(os.path.join(folder, "segmim", f"segmim_{n:05d}.jpg"), _png(rng.integers(0, 256, (2, 3, 3), np.uint8)))


def caltech101(folder):
    """``101_ObjectCategories/<class>/image_<n>.jpg`` and ``Annotations/<class'>/annotation_<n>.mat``
    (``obj_contour``, 2 x points; Faces -> Faces_2 and the like)."""
    from scipy.io import savemat
    rng = _rng(25)
    for cls, ann, n in (("Faces", "Faces_2", 2), ("accordion", "accordion", 1), ("BACKGROUND_Google", None, 1)):
        for i in range(1, n + 1):
            _write(os.path.join(folder, "101_ObjectCategories", cls, f"image_{i:04d}.jpg"),
                   _png(rng.integers(0, 256, (2, 2 + i, 3), np.uint8)))
            if ann:
                os.makedirs(os.path.join(folder, "Annotations", ann), exist_ok=True)
                savemat(os.path.join(folder, "Annotations", ann, f"annotation_{i:04d}.mat"),
                        {"obj_contour": rng.uniform(0, 50, (2, 3 + i)), "box_coord": np.array([[1, 2, 3, 4]])})


def cityscapes(folder):
    """``leftImg8bit/<split>/<city>/<city>_<a>_<b>_leftImg8bit.png`` and ``gtFine/<split>/<city>/
    <city>_<a>_<b>_gtFine_{instanceIds,labelIds,color}.png`` / ``_polygons.json``."""
    import json
    rng = _rng(26)
    for split, city, keys in (("train", "aachen", ("000000_000019", "000001_000019")),
                              ("val", "lindau", ("000000_000019",))):
        for key in keys:
            stem = f"{city}_{key}"
            _write(os.path.join(folder, "leftImg8bit", split, city, stem + "_leftImg8bit.png"),
                   _png(rng.integers(0, 256, (2, 3, 3), np.uint8)))
            base = os.path.join(folder, "gtFine", split, city, stem + "_gtFine_")
            _write(base + "instanceIds.png", _png(rng.integers(0, 30, (2, 3), np.uint8)))
            _write(base + "labelIds.png", _png(rng.integers(0, 30, (2, 3), np.uint8)))
            _write(base + "color.png", _png(rng.integers(0, 256, (2, 3, 3), np.uint8)))
            _write(base + "polygons.json", json.dumps({"imgHeight": 2, "imgWidth": 3, "objects": [
                {"label": "road", "polygon": [[0, 0], [2, 0], [2, 1]]}]}))


def lfw(folder):
    """``lfw_funneled/<person>/<person>_<n>.jpg`` with ``lfw-names.txt``, ``peopleDevTrain.txt`` /
    ``peopleDevTest.txt`` (count, then ``name<TAB>images``) and ``pairsDevTrain.txt`` / ``pairsDevTest.txt``."""
    rng = _rng(27)
    people = {"Aaron_Eckhart": 1, "Abbas_Kiarostami": 2, "Zico": 2}
    for name, n in people.items():
        for i in range(1, n + 1):
            _write(os.path.join(folder, "lfw_funneled", name, f"{name}_{i:04d}.jpg"),
                   _png(rng.integers(0, 256, (2, 2, 3), np.uint8)))
    _write(os.path.join(folder, "lfw-names.txt"), "".join(f"{k}\t{v}\n" for k, v in people.items()))
    _write(os.path.join(folder, "peopleDevTrain.txt"), "2\nAbbas_Kiarostami\t2\nAaron_Eckhart\t1\n")
    _write(os.path.join(folder, "peopleDevTest.txt"), "1\nZico\t2\n")
    _write(os.path.join(folder, "pairsDevTrain.txt"), "2\nAbbas_Kiarostami\t1\t2\nAaron_Eckhart\t1\tZico\t2\n")
    _write(os.path.join(folder, "pairsDevTest.txt"), "1\nZico\t1\t2\n")



def clue(folder):
    """CLUE task files, one JSON object per line: ``afqmc_train.json``, ``afqmc_test.json``, ``tnews_test.json``,
    ``wsc_train.json``, ``csl_train.json``."""
    import json
    rows = {
        "afqmc_train.json": [{"sentence1": "双十一花呗提额在哪", "sentence2": "哪里可以提花呗额度", "label": "0"},
                             {"sentence1": "a b", "sentence2": "c", "label": "1"}],
        "afqmc_test.json": [{"id": 0, "sentence1": "x", "sentence2": "y"},
                            {"id": 7, "sentence1": "p", "sentence2": "q"}],
        "tnews_test.json": [{"id": 3, "sentence": "新闻", "keywords": "k1,k2"}],
        "wsc_train.json": [{"target": {"span2_index": 37, "span1_index": 5, "span1_text": "床", "span2_text": "它"},
                            "idx": 0, "label": "false", "text": "这张床很大它"}],
        "csl_train.json": [{"id": 1, "abst": "摘要", "keyword": ["水", "土"], "label": "1"}],
    }
    for name, items in rows.items():
        _write(os.path.join(folder, name), "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items))



def lsun(folder):
    """``<category>_train`` / ``<category>_val`` image folders and a ``test`` folder."""
    rng = _rng(29)
    for sub, n in (("bedroom_train", 2), ("bedroom_val", 1), ("classroom_train", 1), ("classroom_val", 1),
                   ("test", 1)):
        for i in range(n):
            _write(os.path.join(folder, sub, f"{i + 1}_1.jpg"), _png(rng.integers(0, 256, (2, 2, 3), np.uint8)))



def sbu(folder):
    """``SBU_captioned_photo_dataset_urls.txt`` / ``_captions.txt`` (line by line) and ``sbu_images/m_<a>_<b>.jpg``
    for the URL ``http://static.flickr.com/<a>/<b>.jpg``; an image never downloaded is absent."""
    rng = _rng(31)
    urls = ["http://static.flickr.com/2723/4385058960_b0f291553e.jpg",
            "http://static.flickr.com/1/999_missing.jpg",
            "http://static.flickr.com/3326/3596303505_3ce4c20529.jpg"]
    for u in (urls[0], urls[2]):
        a, b = u.split("/")[-2:]
        _write(os.path.join(folder, "sbu_images", f"m_{a}_{b}"), _png(rng.integers(0, 256, (2, 2, 3), np.uint8)))
    _write(os.path.join(folder, "SBU_captioned_photo_dataset_urls.txt"), "\n".join(urls) + "\n")
    _write(os.path.join(folder, "SBU_captioned_photo_dataset_captions.txt"),
           "Man sits on a bench \nnever downloaded\n  A dog in the park\n")



def sbd(folder):
    """``img/<name>.jpg``, ``cls/<name>.mat`` (struct ``GTcls``: ``Boundaries`` a 20 x 1 cell of sparse masks,
    ``Segmentation`` uint8) and ``train.txt`` / ``val.txt`` listing the names."""
    from scipy.io import savemat
    from scipy.sparse import csc_matrix
    rng = _rng(32)
    for name in ("2008_000002", "2008_000003", "2008_000007"):
        _write(os.path.join(folder, "img", name + ".jpg"), _png(rng.integers(0, 256, (3, 4, 3), np.uint8)))
        bounds = np.empty((20, 1), dtype=object)
        for k in range(20):
            bounds[k, 0] = csc_matrix((rng.random((3, 4)) < 0.2).astype(np.float64))
        os.makedirs(os.path.join(folder, "cls"), exist_ok=True)
        savemat(os.path.join(folder, "cls", name + ".mat"),
                {"GTcls": {"Boundaries": bounds, "Segmentation": rng.integers(0, 21, (3, 4)).astype(np.uint8),
                           "CategoriesPresent": np.array([[1]], np.uint8)}})
    _write(os.path.join(folder, "train.txt"), "2008_000002\n2008_000007\n")
    _write(os.path.join(folder, "val.txt"), "2008_000003\n")



def _iwslt_files(base, prefix, src, tgt, valid, test):
    """``train.tags.<s>-<t>.<lang>`` (tag lines to skip, one sentence per other line) and
    ``<prefix>.TED.<set>.<s>-<t>.<lang>.xml`` (``<seg id="n">`` sentences)."""
    for lang in (src, tgt):
        _write(os.path.join(base, f"train.tags.{src}-{tgt}.{lang}"),
               f"<url>http://www.ted.com/talks/x</url>\n<keywords>talks</keywords>\n<talkid>1</talkid>\n"
               f"<title>Title {lang}</title>\n<description>About {lang}</description>\n"
               f"  first {lang} sentence.\nsecond {lang} sentence\n<reviewer></reviewer>\n")
        for kind in (valid, test):
            _write(os.path.join(base, f"{prefix}.TED.{kind}.{src}-{tgt}.{lang}.xml"),
                   f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset setid="iwslt" srclang="english">\n'
                   f'<doc docid="1" genre="lectures">\n<url>http://x</url>\n<talkid>1</talkid>\n'
                   f'<title>T</title>\n<seg id="1"> {kind} {lang} one </seg>\n<seg id="2">{kind} {lang} two</seg>\n'
                   f'</doc>\n</srcset>\n</mteval>\n')


def iwslt2016(folder):
    """``texts/de/en/de-en/``: IWSLT16 files (valid set tst2013, test set tst2014 by default)."""
    _iwslt_files(os.path.join(folder, "texts", "de", "en", "de-en"), "IWSLT16", "de", "en", "tst2013", "tst2014")


def iwslt2017(folder):
    """``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/``: IWSLT17 files (valid dev2010, test tst2010)."""
    base = os.path.join(folder, "texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo")
    _iwslt_files(base, "IWSLT17", "de", "en", "dev2010", "tst2010")


LAYOUTS = {"usps": usps, "semeion": semeion, "emnist": emnist, "qmnist": qmnist, "stl10": stl10,
           "yes_no": yes_no, "speech_commands": speech_commands, "lj_speech": lj_speech, "imdb": imdb,
           "caltech256": caltech256, "sun397": sun397, "multi30k": multi30k, "cmu_arctic": cmu_arctic,
           "libri_tts": libri_tts, "conll2000": conll2000, "udpos": udpos, "squad": squad, "sst2": sst2,
           "food101": food101, "omniglot": omniglot, "rendered_sst2": rendered_sst2, "flickr": flickr,
           "svhn": svhn, "wider_face": wider_face, "kitti": kitti, "places365": places365, "manifest": manifest,
           "div2k": div2k, "photo_tour": photo_tour, "flowers102": flowers102, "caltech101": caltech101,
           "cityscapes": cityscapes, "lfw": lfw, "clue": clue, "lsun": lsun, "sbu": sbu, "sbd": sbd,
           "iwslt2016": iwslt2016, "iwslt2017": iwslt2017}


#: the reader threads both sides use: rows of line readers interleave across files by worker (see interleave)
WORKERS = 2

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
    "svhn/all": ("svhn", "ds.SVHNDataset(d, shuffle=False)"),
    "svhn/test": ("svhn", "ds.SVHNDataset(d, usage='test', shuffle=False)"),
    "wider_face/all": ("wider_face", "ds.WIDERFaceDataset(d, shuffle=False, decode=True)"),
    "wider_face/test": ("wider_face", "ds.WIDERFaceDataset(d, usage='test', shuffle=False)"),
    "kitti/train": ("kitti", "ds.KITTIDataset(d, shuffle=False, decode=True)"),
    "kitti/test": ("kitti", "ds.KITTIDataset(d, usage='test', shuffle=False)"),
    "places365/train": ("places365", "ds.Places365Dataset(d, shuffle=False, decode=True)"),
    "places365/val": ("places365", "ds.Places365Dataset(d, usage='val', shuffle=False)"),
    "manifest/train": ("manifest", "ds.ManifestDataset(d + '/manifest.json', shuffle=False, decode=True)"),
    "manifest/eval": ("manifest", "ds.ManifestDataset(d + '/manifest.json', usage='eval', shuffle=False, "
                                  "class_indexing={'cat': 3, 'dog': 7})"),
    "div2k": ("div2k", "ds.DIV2KDataset(d, usage='train', downgrade='bicubic', scale=2, shuffle=False, "
                       "decode=True)"),
    "photo_tour/train": ("photo_tour", "ds.PhotoTourDataset(d, 'liberty', usage='train', shuffle=False)"),
    "photo_tour/test": ("photo_tour", "ds.PhotoTourDataset(d, 'liberty', usage='test', shuffle=False)"),
    "flowers102/all": ("flowers102", "ds.Flowers102Dataset(d, shuffle=False, decode=True)"),
    "flowers102/seg": ("flowers102", "ds.Flowers102Dataset(d, task='Segmentation', usage='train', shuffle=False)"),
    "caltech101/category": ("caltech101", "ds.Caltech101Dataset(d, shuffle=False, decode=True)"),
    "caltech101/all": ("caltech101", "ds.Caltech101Dataset(d, target_type='all', shuffle=False)"),
    "cityscapes/instance": ("cityscapes", "ds.CityscapesDataset(d, shuffle=False, decode=True)"),
    "cityscapes/semantic": ("cityscapes", "ds.CityscapesDataset(d, usage='val', task='semantic', "
                                              "shuffle=False, decode=True)"),
    "cityscapes/color": ("cityscapes", "ds.CityscapesDataset(d, usage='val', task='color', shuffle=False)"),
    "cityscapes/polygon": ("cityscapes", "ds.CityscapesDataset(d, task='polygon', shuffle=False)"),
    "lfw/people": ("lfw", "ds.LFWDataset(d, shuffle=False, decode=True)"),
    "lfw/people_test": ("lfw", "ds.LFWDataset(d, usage='test', shuffle=False)"),
    "clue/afqmc_train": ("clue", "ds.CLUEDataset(d + '/afqmc_train.json', task='AFQMC', usage='train', "
                                 "shuffle=False)"),
    "clue/afqmc_test": ("clue", "ds.CLUEDataset(d + '/afqmc_test.json', task='AFQMC', usage='test', shuffle=False)"),
    "clue/tnews_test": ("clue", "ds.CLUEDataset(d + '/tnews_test.json', task='TNEWS', usage='test', shuffle=False)"),
    "clue/wsc_train": ("clue", "ds.CLUEDataset(d + '/wsc_train.json', task='WSC', usage='train', shuffle=False)"),
    "clue/csl_train": ("clue", "ds.CLUEDataset(d + '/csl_train.json', task='CSL', usage='train', shuffle=False)"),
    "lsun/all": ("lsun", "ds.LSUNDataset(d, shuffle=False, decode=True)"),
    "lsun/valid": ("lsun", "ds.LSUNDataset(d, usage='valid', classes=['classroom'], shuffle=False)"),
    "lsun/test": ("lsun", "ds.LSUNDataset(d, usage='test', shuffle=False)"),
    "sbu": ("sbu", "ds.SBUDataset(d, shuffle=False, decode=True)"),
    "sbd/boundaries": ("sbd", "ds.SBDataset(d, task='Boundaries', usage='all', shuffle=False, decode=True)"),
    "sbd/segmentation": ("sbd", "ds.SBDataset(d, task='Segmentation', usage='val', shuffle=False)"),
    "iwslt2016/all": ("iwslt2016", "ds.IWSLT2016Dataset(d, shuffle=False)"),
    "iwslt2016/valid": ("iwslt2016", "ds.IWSLT2016Dataset(d, usage='valid', language_pair=('de', 'en'), "
                                     "shuffle=False)"),
    "iwslt2017/all": ("iwslt2017", "ds.IWSLT2017Dataset(d, shuffle=False)"),
    "iwslt2017/test": ("iwslt2017", "ds.IWSLT2017Dataset(d, usage='test', shuffle=False)"),
}
