"""PIL-image vision transforms (FiveCrop, TenCrop, Grayscale) and the bounding-box crops replayed against real
MindSpore (tests/fixtures/oracle/vision2.npz, recorded by tools/oracle/record_vision2.py); MixUp (random) by what
it must do."""
import numpy as np
import pytest
from PIL import Image

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import vision
from tests.oracle import case_params

FIXTURE = "vision2.npz"


PIL_CASES = [c for c in case_params(FIXTURE) if "kwargs" in c.values[0].meta]
BBOX_CASES = [c for c in case_params(FIXTURE) if c.values[0].name == "bbox"]
WINDOW_CASES = [c for c in case_params(FIXTURE) if c.values[0].name == "bbox_window"]


@pytest.mark.parametrize("case", PIL_CASES)
def test_replay(case):
    op = getattr(vision, case.name)(**case.meta["kwargs"])
    image = Image.fromarray(case.inputs["image"])
    if case.error:
        with pytest.raises(getattr(__builtins__, case.error, None) or ValueError):
            op(image)
        return
    out = op(image)
    outs = list(out) if isinstance(out, tuple) else [out]
    assert [o.mode for o in outs] == case.meta["modes"]
    assert len(outs) == len(case.outputs)
    for got, want in zip(outs, case.outputs):
        np.testing.assert_array_equal(np.asarray(got), want)


def test_needs_pil_image():
    with pytest.raises(TypeError, match="FiveCrop: the input should be a PIL image"):
        vision.FiveCrop(2)(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="num_output_channels"):
        vision.Grayscale(2)


def test_in_pipeline():
    images = np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3)
    d = ds.NumpySlicesDataset({"image": images}, shuffle=False)
    d = d.map([vision.ToPIL(), vision.Grayscale(3)], input_columns="image")
    rows = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    want = [np.asarray(Image.fromarray(im).convert("L")) for im in images]
    for got, w in zip(rows, want):
        np.testing.assert_array_equal(got, np.dstack([w, w, w]))


def test_mixup_single_mixes_each_image_with_the_next():
    # random (Beta-distributed weights): checked by what it must do, as MindSpore's NumPy implementation does
    ds.config.set_seed(3)
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (4, 3, 3, 2)).astype(np.uint8)
    labels = np.eye(4, dtype=np.float32)
    d = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(4)
    d = d.map(vision.MixUp(4, 0.4), ["image", "label"])
    img, lbl = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    lam = np.diag(lbl)                              # label k keeps weight lam_k on itself
    assert ((lam > 0) & (lam < 1)).all() and len(set(lam.round(6))) > 1
    want = lam.reshape(4, 1, 1, 1) * images + (1 - lam.reshape(4, 1, 1, 1)) * np.roll(images, -1, axis=0)
    np.testing.assert_allclose(img, want, rtol=1e-6)
    np.testing.assert_allclose(lbl.sum(1), 1.0, rtol=1e-6)


def test_mixup_across_batches():
    op = vision.MixUp(2, 1.0, is_single=False)
    a, b = np.ones((2, 1, 1, 1)), np.zeros((2, 1, 1, 1))
    la, lb = np.array([[1.0, 0.0]] * 2), np.array([[0.0, 1.0]] * 2)
    first_img, first_lbl = op(a, la)
    np.testing.assert_array_equal(first_img, a)   # the first batch has nothing to mix with
    img, lbl = op(b, lb)
    np.testing.assert_allclose(img.reshape(2), lbl[:, 0])   # mixed with the previous batch by the same weights
    with pytest.raises(RuntimeError, match="MixUp: expected images"):
        op(np.zeros((3, 1, 1, 1)), np.zeros((3, 2)))


@pytest.mark.parametrize("case", BBOX_CASES)
def test_bbox_crops_deterministic_windows(case):
    op = eval(case.meta["expr"], {"vision": vision})  # noqa: S307 - the recorder's fixed expressions
    if case.error:
        with pytest.raises(RuntimeError, match="inside the image"):
            op(case.inputs["image"], case.inputs["bboxes"])
        return
    out, boxes = op(case.inputs["image"], case.inputs["bboxes"])
    np.testing.assert_array_equal(out, case.outputs[0])
    np.testing.assert_allclose(boxes, case.outputs[1], rtol=1e-6)
    assert boxes.dtype == case.outputs[1].dtype


@pytest.mark.parametrize("case", WINDOW_CASES)
def test_bbox_crop_rule_matches_mindspore(case):
    """MindSpore's boxes after its random windows follow the same clip/remove rule as ours."""
    from mindspore_hl.dataset.vision._bbox_crop import crop_boxes
    np.testing.assert_array_equal(crop_boxes(case.inputs["bboxes"], *case.meta["window"]), case.outputs[0])


def test_random_bbox_crop_is_consistent():
    grid = np.arange(100, dtype=np.uint8).reshape(10, 10, 1).repeat(3, 2)
    boxes = np.array([[1, 1, 3, 3, 7], [6, 6, 3, 3, 8], [8, 0, 2, 2, 4]], np.float32)
    from mindspore_hl.dataset.vision._bbox_crop import crop_boxes
    d = ds.NumpySlicesDataset({"image": grid[None].repeat(6, 0), "bbox": boxes[None].repeat(6, 0)}, shuffle=False)
    d = d.map(vision.RandomCropWithBBox(6), ["image", "bbox"])
    windows = set()
    for img, bb in d.create_tuple_iterator(num_epochs=1, output_numpy=True):
        y0, x0 = divmod(int(img[0, 0, 0]), 10)
        windows.add((x0, y0))
        np.testing.assert_array_equal(img, grid[y0:y0 + 6, x0:x0 + 6])
        np.testing.assert_array_equal(bb, crop_boxes(boxes, x0, y0, 6, 6))
    assert len(windows) > 1
    out, bb = vision.RandomResizedCropWithBBox(5, scale=(0.3, 0.6))(grid, boxes)
    assert out.shape == (5, 5, 3) and bb.shape[1] == 5
    assert (bb[:, :2] >= 0).all()
    assert (bb[:, 0] + bb[:, 2] <= 5 + 1e-5).all() and (bb[:, 1] + bb[:, 3] <= 5 + 1e-5).all()
