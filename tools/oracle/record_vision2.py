"""Record real MindSpore 2.10's PIL-image vision transforms (FiveCrop, TenCrop, Grayscale) into
tests/fixtures/oracle/vision2.npz. Run with the oracle interpreter (see README.md).

Each case: the input image array (made into a PIL image on both sides), the constructor keywords, and every
output image as an array."""
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset.vision as vision  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "vision2.npz")

CASES = [
    ("FiveCrop", "hw", {"size": [3, 4]}),
    ("FiveCrop", "square", {"size": 4}),
    ("FiveCrop", "odd_centre", {"size": [4, 4]}),
    ("TenCrop", "hflip", {"size": [3, 4]}),
    ("TenCrop", "vflip", {"size": [3, 4], "use_vertical_flip": True}),
    ("Grayscale", "one", {"num_output_channels": 1}),
    ("Grayscale", "three", {"num_output_channels": 3}),
]


def main():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, size=(7, 9, 3), dtype=np.uint8)
    with FixtureWriter(OUT) as w:
        for name, key, kwargs in CASES:
            out = getattr(vision, name)(**kwargs)(Image.fromarray(image))
            outs = list(out) if isinstance(out, tuple) else [out]
            w.add(f"vision.{name}/{key}", name=name, inputs={"image": image},
                  outputs=[np.asarray(o) for o in outs], kwargs=kwargs, modes=[o.mode for o in outs])
        # bounding-box crops: deterministic windows (whole image, padded size, full-area resized crop) ...
        grid = np.arange(100, dtype=np.uint8).reshape(10, 10, 1).repeat(3, 2)
        boxes = np.array([[1, 1, 3, 3, 7], [6, 6, 3, 3, 8], [0, 0, 10, 10, 9], [8, 0, 2, 2, 4]], np.float32)
        for key, expr in (("whole", "vision.RandomCropWithBBox((10, 10))"),
                          ("padded", "vision.RandomCropWithBBox((14, 12), padding=[1, 2])"),
                          ("resized", "vision.RandomResizedCropWithBBox((5, 5), scale=(1.0, 1.0), ratio=(1.0, 1.0))")):
            out, b = eval(expr)(grid, boxes)  # noqa: S307 - the fixed expressions above
            w.add(f"vision.{expr.split('(')[0].split('.')[1]}/{key}", name="bbox", expr=expr,
                  inputs={"image": grid, "bboxes": boxes}, outputs=[out, b])
        for key, expr in (("hflip", "vision.BoundingBoxAugment(vision.HorizontalFlip(), 1.0)"),
                          ("invert", "vision.BoundingBoxAugment(vision.Invert(), 1.0)"),
                          ("none", "vision.BoundingBoxAugment(vision.Invert(), 0.0)")):
            few = np.array([[1, 1, 3, 3], [5, 4, 4, 5]], np.float32)
            out, b = eval(expr)(grid, few)  # noqa: S307 - the fixed expressions above
            w.add(f"vision.BoundingBoxAugment/{key}", name="bbox", expr=expr, inputs={"image": grid, "bboxes": few},
                  outputs=[out, b])
        # ... and random 6x6 windows: where each landed (found from the unique pixel values) and the boxes after
        op = vision.RandomCropWithBBox(6)
        for k in range(8):
            out, b = op(grid, boxes)
            y0, x0 = divmod(int(out[0, 0, 0]), 10)
            w.add(f"vision.RandomCropWithBBox/random{k}", name="bbox_window", inputs={"bboxes": boxes},
                  outputs=[b], window=[int(x0), int(y0), 6, 6])
        w.add("vision.RandomCropWithBBox/out_of_image", name="bbox", expr="vision.RandomCropWithBBox((10, 10))",
              inputs={"image": grid, "bboxes": np.array([[9, 2, 3, 1, 5]], np.float32)}, error="RuntimeError")
        # too large a crop: MindSpore raises ValueError
        try:
            vision.FiveCrop(10)(Image.fromarray(image))
            raise AssertionError("expected an error")
        except ValueError:
            w.add("vision.FiveCrop/too_large", name="FiveCrop", inputs={"image": image}, kwargs={"size": 10},
                  error="ValueError")


if __name__ == "__main__":
    main()
