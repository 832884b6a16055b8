"""Record real MindSpore 2.10's AdjustHue, Perspective, RandomPerspective and AutoAugment (outputs, argument
errors and AutoAugment's policy tables) into tests/fixtures/oracle/vision_more.npz. Run with the oracle
interpreter (see README.md).

Case kinds (meta ``kind``): ``call`` -- constructor keywords, the input image (``as_pil``: made a PIL image on
both sides) and the output; ``init_error`` / ``call_error`` -- the error type and MindSpore's message;
``policy`` -- one AutoAugmentPolicy's sub-policies as MindSpore's documentation of that enum lists them;
``shape`` -- a random transform's output shape and dtype; ``quirk`` -- statistics of AutoAugment's outputs that
show how its kernel fills (see the cases)."""
import ast
import os
import re
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.vision as vision  # noqa: E402
from mindspore.dataset.vision import AutoAugmentPolicy, Inter  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "vision_more.npz")
INTERS = ("NEAREST", "BILINEAR", "BICUBIC")
SQUARE = [[0, 0], [15, 0], [15, 11], [0, 11]]
POINTS = {"inward": (SQUARE, [[2, 1], [13, 0], [15, 10], [1, 11]]),
          "outward": ([[1, 1], [10, 2], [12, 9], [2, 8]], SQUARE),
          "scale2": ([[0, 0], [4, 0], [4, 4], [0, 4]], [[0, 0], [8, 0], [8, 8], [0, 8]])}


def message(err):
    """MindSpore's own words: the ``[ERROR]`` line of a pipeline error, else the whole message."""
    lines = [ln.split("[ERROR] ", 1)[1] for ln in str(err).splitlines() if "[ERROR] " in ln]
    return lines[0] if lines else str(err)


def as_kwargs(kwargs):
    """Inter / AutoAugmentPolicy members as their names and tuples marked as such, so the meta is plain JSON."""
    def encode(v):
        if isinstance(v, (Inter, AutoAugmentPolicy)):
            return {"enum": type(v).__name__, "name": v.name}
        return {"tuple": list(v)} if isinstance(v, tuple) else v
    return {k: encode(v) for k, v in kwargs.items()}


def record_call(w, case_id, op, kwargs, image, as_pil=False):
    out = getattr(vision, op)(**kwargs)(Image.fromarray(image) if as_pil else image)
    w.add(case_id, name=op, kind="call", kwargs=as_kwargs(kwargs), as_pil=as_pil, inputs={"image": image},
          outputs=[np.asarray(out)])


def record_error(w, case_id, op, kwargs, image=None):
    try:
        transform = getattr(vision, op)(**kwargs)
    except (TypeError, ValueError, RuntimeError) as err:
        w.add(case_id, name=op, kind="init_error", kwargs=as_kwargs(kwargs), error=type(err).__name__,
              message=message(err))
        return
    try:
        transform(image)
    except (TypeError, ValueError, RuntimeError) as err:
        w.add(case_id, name=op, kind="call_error", kwargs=as_kwargs(kwargs), inputs={"image": image},
              error=type(err).__name__, message=message(err))
        return
    raise AssertionError(f"{case_id}: expected an error")


def policies():
    """The sub-policy lists of AutoAugmentPolicy's docstring, one per policy, in the enum's order."""
    doc = AutoAugmentPolicy.__doc__
    blocks = re.findall(r"Augmentation operations pair:\s*(\[.*?\])\s*(?:\n\s*- |\Z)", doc, flags=re.S)
    return [ast.literal_eval(" ".join(b.split())) for b in blocks]


def main():
    rng = np.random.default_rng(7)
    hue_images = {"5x7": rng.integers(0, 256, (5, 7, 3), dtype=np.uint8),
                  "9x45": rng.integers(0, 256, (9, 45, 3), dtype=np.uint8),    # one SIMD block of 32 + a tail
                  "3x70": rng.integers(0, 256, (3, 70, 3), dtype=np.uint8)}
    hue_images["9x45"][0, :6] = [[0, 0, 0], [255, 255, 255], [10, 10, 10], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
    hue_images["3x70"][0, 32:38] = hue_images["9x45"][0, :6]                    # greys / primaries, scalar path
    with FixtureWriter(OUT) as w:
        for key, image in hue_images.items():
            for factor in (-0.5, -0.37, -0.2, -0.01, 0.0, 0.003, 0.1, 0.25, 0.33, 0.5):
                record_call(w, f"vision.AdjustHue/{key}/{factor}", "AdjustHue", {"hue_factor": factor}, image)
        record_call(w, "vision.AdjustHue/int_factor", "AdjustHue", {"hue_factor": 0}, hue_images["5x7"])
        img = hue_images["5x7"]
        for key, factor in (("too_big", 0.6), ("too_small", -0.51), ("str", "a"), ("none", None), ("bool", True)):
            record_error(w, f"vision.AdjustHue/{key}", "AdjustHue", {"hue_factor": factor})
        for key, bad in (("rank2", img[..., 0]), ("one_channel", img[..., :1]),
                         ("four_channels", np.concatenate([img, img[..., :1]], -1))):
            record_error(w, f"vision.AdjustHue/{key}", "AdjustHue", {"hue_factor": 0.1}, bad)

        warp_images = {"hwc": rng.integers(0, 256, (12, 16, 3), dtype=np.uint8),
                       "hw": rng.integers(0, 256, (20, 13), dtype=np.uint8),
                       "float32": rng.random((10, 11, 3)).astype(np.float32)}
        for key, image in warp_images.items():
            for pkey, (start, end) in POINTS.items():
                for inter in INTERS:
                    kwargs = {"start_points": start, "end_points": end, "interpolation": getattr(Inter, inter)}
                    record_call(w, f"vision.Perspective/{key}/{pkey}/{inter}", "Perspective", kwargs, image)
        for inter in INTERS:
            kwargs = {"start_points": POINTS["inward"][0], "end_points": POINTS["inward"][1],
                      "interpolation": getattr(Inter, inter)}
            record_call(w, f"vision.Perspective/pil/{inter}", "Perspective", kwargs, warp_images["hwc"], as_pil=True)
        start, end = POINTS["inward"]
        for inter in ("AREA", "PILCUBIC"):     # OpenCV's warp has no such kernels: MindSpore gets bilinear
            kwargs = {"start_points": start, "end_points": end, "interpolation": getattr(Inter, inter)}
            record_call(w, f"vision.Perspective/hwc/inward/{inter}", "Perspective", kwargs, warp_images["hwc"])
        record_error(w, "vision.Perspective/antialias_numpy", "Perspective",
                     {"start_points": start, "end_points": end, "interpolation": Inter.ANTIALIAS}, warp_images["hwc"])
        for key, kwargs in (("three_points", {"start_points": start[:3], "end_points": end}),
                            ("three_coords", {"start_points": [[0, 0, 1]] + start[1:], "end_points": end}),
                            ("float_coord", {"start_points": [[0.5, 0]] + start[1:], "end_points": end}),
                            ("bool_coord", {"start_points": [[True, 0]] + start[1:], "end_points": end}),
                            ("str_points", {"start_points": "abcd", "end_points": end}),
                            ("bool_point", {"start_points": [True] + start[1:], "end_points": end}),
                            ("int32_range", {"start_points": [[2 ** 31, 0]] + start[1:], "end_points": end}),
                            ("end_two", {"start_points": start, "end_points": end[:2]}),
                            ("inter_str", {"start_points": start, "end_points": end, "interpolation": "x"})):
            record_error(w, f"vision.Perspective/{key}", "Perspective", kwargs)
        for key, bad in (("rank4", np.zeros((2, 6, 8, 3), np.uint8)), ("rank1", np.zeros((6,), np.uint8))):
            record_error(w, f"vision.Perspective/{key}", "Perspective",
                         {"start_points": start, "end_points": end}, bad)

        pil = Image.fromarray(warp_images["hwc"])
        out = vision.RandomPerspective(prob=0.0)(pil)
        w.add("vision.RandomPerspective/prob0", name="RandomPerspective", kind="call", as_pil=True,
              kwargs={"prob": 0.0}, inputs={"image": warp_images["hwc"]}, outputs=[np.asarray(out)])
        out = vision.RandomPerspective(prob=1.0)(pil)
        w.add("vision.RandomPerspective/prob1", name="RandomPerspective", kind="shape", as_pil=True,
              kwargs={"prob": 1.0}, shape=list(np.asarray(out).shape), dtype=str(np.asarray(out).dtype))
        for key, kwargs in (("scale_int", {"distortion_scale": 1}), ("prob_int", {"prob": 1}),
                            ("scale_big", {"distortion_scale": 1.5}), ("prob_negative", {"prob": -0.1}),
                            ("scale_none", {"distortion_scale": None}), ("prob_str", {"prob": "a"}),
                            ("inter_str", {"interpolation": "x"})):
            record_error(w, f"vision.RandomPerspective/{key}", "RandomPerspective", kwargs)

        tables = policies()
        for policy, table in zip(AutoAugmentPolicy, tables):
            w.add(f"vision.AutoAugmentPolicy/{policy.name}", name="AutoAugmentPolicy", kind="policy",
                  policy=policy.name, value=policy.value, table=[[list(op) for op in pair] for pair in table])
        img = rng.integers(0, 256, (10, 12, 3), dtype=np.uint8)
        for policy in AutoAugmentPolicy:
            out = vision.AutoAugment(policy=policy)(img)
            w.add(f"vision.AutoAugment/{policy.name}", name="AutoAugment", kind="shape",
                  kwargs=as_kwargs({"policy": policy}), shape=list(out.shape), dtype=str(out.dtype))
        # quirks of MindSpore's kernel, seen from outside: the colours rotations fill with (top-left pixel of
        # IMAGENET outputs, a policy with rotations and no translations) and how often a whole image is fill
        # colour (CIFAR10: translations move the image out of view)
        scene = rng.integers(20, 230, (30, 40, 3), dtype=np.uint8)
        op = vision.AutoAugment(AutoAugmentPolicy.IMAGENET, fill_value=(10, 50, 90))
        corners = sorted({tuple(int(c) for c in op(scene)[0, 0]) for _ in range(200)})
        w.add("vision.AutoAugment/rotate_fill", name="AutoAugment", kind="quirk", fill=[10, 50, 90],
              corners=[list(c) for c in corners], inputs={"image": scene})
        op = vision.AutoAugment(AutoAugmentPolicy.CIFAR10, fill_value=(7, 8, 9))
        filled = sum(bool((op(scene) == np.array([7, 8, 9], np.uint8)).all()) for _ in range(200))
        w.add("vision.AutoAugment/translate_fill", name="AutoAugment", kind="quirk", fill=[7, 8, 9], runs=200,
              all_fill=filled, inputs={"image": scene})
        for key, kwargs in (("policy_str", {"policy": "imagenet"}), ("inter_int", {"interpolation": 1}),
                            ("fill_256", {"fill_value": 256}), ("fill_pair", {"fill_value": (1, 2)}),
                            ("fill_float", {"fill_value": 1.0}), ("fill_300", {"fill_value": (1, 2, 300)}),
                            ("fill_list", {"fill_value": [1, 2, 3]})):
            record_error(w, f"vision.AutoAugment/{key}", "AutoAugment", kwargs, img)
        for key, bad in (("rank2", img[..., 0]), ("one_channel", img[..., :1])):
            record_error(w, f"vision.AutoAugment/{key}", "AutoAugment", {}, bad)


if __name__ == "__main__":
    main()
