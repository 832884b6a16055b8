"""Record real MindSpore 2.10's deterministic ``dataset.vision`` transforms into tests/fixtures/oracle/vision.npz.

Run with the oracle interpreter (see README.md). Each case calls ``vision.<Op>(**kwargs)(image)`` eagerly on a
small image built from a fixed seed. Keyword values written as ``"Inter.AREA"`` / ``"Border.EDGE"`` name enum
members, so the test can rebuild the same call.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.vision as vision  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "vision.npz")


def images():
    rng = np.random.default_rng(20)
    return {
        "rgb_12x10": rng.integers(0, 256, (12, 10, 3), dtype=np.uint8),
        "rgb_17x13": rng.integers(0, 256, (17, 13, 3), dtype=np.uint8),
        "rgb_40x50": rng.integers(0, 256, (40, 50, 3), dtype=np.uint8),
        "gray_9x9": rng.integers(0, 256, (9, 9), dtype=np.uint8),
        "f32_11x14": rng.random((11, 14, 3), dtype=np.float32),
        # a smooth uint8 image: colour ops on pure noise saturate too easily to test rounding
        "smooth_16x16": (np.stack(np.meshgrid(np.arange(16) * 15, np.arange(16) * 9, indexing="ij")
                                  + [np.add.outer(np.arange(16), np.arange(16)) * 7], -1) % 256).astype(np.uint8),
    }


def resolve(value):
    if isinstance(value, str) and "." in value and value.split(".")[0] in ("Inter", "Border", "ConvertMode",
                                                                            "SliceMode", "AutoAugmentPolicy"):
        enum, member = value.split(".")
        return getattr(getattr(vision, enum), member)
    if isinstance(value, list):
        items = [resolve(v) for v in value]
        # JSON keeps no tuples: flat sequences go back as tuples (what MindSpore's checks want), point lists stay
        return items if any(isinstance(v, (list, tuple)) for v in items) else tuple(items)
    return value


def cases():
    out = []
    for img in ("rgb_12x10", "rgb_17x13", "rgb_40x50", "gray_9x9", "f32_11x14"):
        for size in ([5, 7], [24, 20], [31, 37], [6, 5], [20, 25]):
            for mode in ("LINEAR", "NEAREST", "CUBIC", "AREA"):
                out.append((f"Resize/{img}/{size[0]}x{size[1]}/{mode}", "Resize", img,
                            {"size": size, "interpolation": f"Inter.{mode}"}))
    for img in ("rgb_17x13", "gray_9x9"):
        out.append((f"Resize/{img}/short7", "Resize", img, {"size": 7}))
    colour = [
        ("HorizontalFlip", {}), ("VerticalFlip", {}), ("Invert", {}), ("Equalize", {}),
        ("Posterize", {"bits": 3}), ("Posterize", {"bits": 8}), ("Solarize", {"threshold": [100, 200]}),
        ("Solarize", {"threshold": 128}), ("AutoContrast", {}), ("AutoContrast", {"cutoff": 10.0}),
        ("AutoContrast", {"cutoff": 5.0, "ignore": [0, 255]}),
        ("AdjustBrightness", {"brightness_factor": 1.37}), ("AdjustBrightness", {"brightness_factor": 0.4}),
        ("AdjustContrast", {"contrast_factor": 1.6}), ("AdjustContrast", {"contrast_factor": 0.3}),
        ("AdjustSaturation", {"saturation_factor": 1.8}), ("AdjustSaturation", {"saturation_factor": 0.25}),
        ("AdjustGamma", {"gamma": 0.6, "gain": 1.1}), ("AdjustGamma", {"gamma": 2.2}),
        ("AdjustSharpness", {"sharpness_factor": 2.5}), ("AdjustSharpness", {"sharpness_factor": 0.2}),
        ("ConvertColor", {"convert_mode": "ConvertMode.COLOR_RGB2GRAY"}),
        ("ConvertColor", {"convert_mode": "ConvertMode.COLOR_RGB2BGR"}),
        ("Crop", {"coordinates": [2, 3], "size": [5, 6]}),
        ("Erase", {"top": 1, "left": 2, "height": 4, "width": 3, "value": [9, 8, 7]}),
        ("ResizedCrop", {"top": 1, "left": 2, "height": 8, "width": 6, "size": [5, 9]}),
        ("PadToSize", {"size": [20, 23], "offset": [1, 3], "fill_value": 7}),
        ("PadToSize", {"size": [19, 18], "padding_mode": "Border.REFLECT"}),
        ("GaussianBlur", {"kernel_size": 3, "sigma": 0.8}), ("GaussianBlur", {"kernel_size": [5, 3]}),
        ("Rotate", {"degrees": 30.0}), ("Rotate", {"degrees": 90.0, "expand": True}),
        ("Rotate", {"degrees": -17.5, "center": [3, 4], "fill_value": 50}),
        ("SlicePatches", {"num_height": 2, "num_width": 3}),
        ("Affine", {"degrees": 15.0, "translate": [0.1, -0.05], "scale": 1.2, "shear": [5.0, 0.0]}),
        ("Affine", {"degrees": -30.0, "translate": [0.0, 0.0], "scale": 0.8, "shear": [0.0, 10.0]}),
        ("Affine", {"degrees": 45.0, "translate": [0.2, 0.1], "scale": 1.0, "shear": [3.0, 4.0],
                    "fill_value": [7, 8, 9]}),
    ]
    for name, kwargs in colour:
        for img in ("smooth_16x16", "rgb_12x10"):
            tag = "_".join(f"{k}{v}" for k, v in kwargs.items()).replace(" ", "")
            out.append((f"{name}/{img}/{tag}", name, img, kwargs))
    return out


def main():
    imgs = images()
    with FixtureWriter(OUT) as w:
        w.add("images", inputs=imgs, name="images")   # stored once; each case names its image
        for case_id, name, img, kwargs in cases():
            try:
                op = getattr(vision, name)(**{k: resolve(v) for k, v in kwargs.items()})
                result = op(imgs[img])
            except Exception as e:  # noqa: BLE001 - the error type is the recorded outcome
                w.add(case_id, name=name, image=img, kwargs=kwargs, error=type(e).__name__)
                continue
            outs = list(result) if isinstance(result, (tuple, list)) else [result]
            w.add(case_id, outputs=outs, name=name, image=img, kwargs=kwargs)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
