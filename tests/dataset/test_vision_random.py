"""Random and helper vision transforms: checked by what they must do and by the distribution of their draws
(MindSpore's own random streams cannot be reproduced, so no oracle values here)."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import vision

IMG = np.random.default_rng(7).integers(0, 256, (10, 12, 3), dtype=np.uint8)


def _draws(op, n=400, img=IMG):
    ds.config.set_seed(11)
    return [op(img) for _ in range(n)]


def test_probability_ops_apply_at_their_rate():
    outs = _draws(vision.RandomInvert(0.3))
    hit = np.mean([np.array_equal(o, 255 - IMG) for o in outs])
    assert abs(hit - 0.3) < 0.08
    assert all(np.array_equal(o, IMG) or np.array_equal(o, 255 - IMG) for o in outs)
    gray = _draws(vision.RandomGrayscale(1.0), 2)[0]
    assert (gray[..., 0] == gray[..., 1]).all() and (gray[..., 1] == gray[..., 2]).all()
    eq = vision.Equalize()(IMG)
    assert all(np.array_equal(o, IMG) or np.array_equal(o, eq) for o in _draws(vision.RandomEqualize(), 50))


def test_random_color_adjust_stays_in_its_range():
    outs = _draws(vision.RandomColorAdjust(brightness=(0.5, 0.5)), 3)
    np.testing.assert_array_equal(outs[0], vision.AdjustBrightness(0.5)(IMG))
    outs = _draws(vision.RandomColorAdjust(brightness=0.4), 200)
    ratio = [o.astype(float).sum() / IMG.astype(float).sum() for o in outs]
    assert min(ratio) > 0.55 and max(ratio) < 1.45 and np.std(ratio) > 0.1
    # MindSpore 2.10 (oracle): RandomColorAdjust(hue=(h, h)) gives exactly AdjustHue(h)'s output (h = 0.2, -0.37)
    for h in (0.2, -0.37):
        np.testing.assert_array_equal(_draws(vision.RandomColorAdjust(hue=(h, h)), 1)[0], vision.AdjustHue(h)(IMG))
    shifted = _draws(vision.RandomColorAdjust(hue=0.3), 20)
    assert any(not np.array_equal(o, IMG) for o in shifted)
    for bad in (0.6, (0.1, 0.7), (-0.6, 0.1)):  # MindSpore: ValueError, outside [-0.5, 0.5]
        with pytest.raises(ValueError, match="hue"):
            vision.RandomColorAdjust(hue=bad)


def test_random_posterize_and_solarize_draw_within_bounds():
    outs = _draws(vision.RandomPosterize((2, 3)), 100)
    bits = {8 - int(np.log2(np.gcd.reduce(o[o > 0].astype(int)))) if (o > 0).any() else 0 for o in outs}
    assert bits <= {1, 2, 3} and bits & {2, 3}
    for o in _draws(vision.RandomSolarize((100, 120)), 50):
        changed = o != IMG
        assert ((IMG[changed] >= 100) & (IMG[changed] <= 120)).all()


def test_cutout_zeroes_squares():
    for o in _draws(vision.CutOut(4, num_patches=1), 50):
        zeroed = (o == 0).all(axis=-1) & (IMG != 0).any(axis=-1)
        ys, xs = np.nonzero(zeroed)
        assert ys.max() - ys.min() < 4 and xs.max() - xs.min() < 4


def test_random_erasing_box_area_follows_scale():
    chw = IMG.transpose(2, 0, 1).astype(np.float32) + 1
    fracs = [np.mean(o[0] == 0) for o in _draws(vision.RandomErasing(prob=1.0, scale=(0.1, 0.3)), 200, chw)]
    erased = [f for f in fracs if f > 0]
    assert len(erased) > 150 and 0.05 < np.mean(erased) < 0.35


def test_mixup_and_cutmix_mix_labels_consistently():
    imgs = np.stack([np.full((6, 6, 3), 10 * i, np.uint8) for i in range(4)])
    labels = np.eye(4, dtype=np.float32)
    ds.config.set_seed(5)
    mixed, mixed_labels = vision.MixUpBatch(alpha=0.8)(imgs, labels)
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    # each image is lam * own + (1 - lam) * another: its mean pixel matches its label's mix
    np.testing.assert_allclose(mixed.reshape(4, -1).mean(axis=1), mixed_labels @ (10 * np.arange(4)), atol=0.6)
    cut, cut_labels = vision.CutMixBatch(vision.ImageBatchFormat.NHWC, alpha=1.0, prob=1.0)(imgs, labels)
    np.testing.assert_allclose(cut_labels.sum(axis=1), 1.0, rtol=1e-6)
    for i in range(4):
        own = np.mean(cut[i] == 10 * i)
        assert abs(own - cut_labels[i, i]) < 1e-6 or cut_labels[i, i] == 1.0


def test_uniform_augment_and_subpolicy():
    ops = [vision.Invert(), vision.HorizontalFlip()]
    outs = _draws(vision.UniformAugment(ops, num_ops=2), 20)
    both = np.ascontiguousarray((255 - IMG)[:, ::-1])
    assert all(np.array_equal(o, both) for o in outs)
    sub = vision.RandomSelectSubpolicy([[(vision.Invert(), 1.0)], [(vision.HorizontalFlip(), 1.0)]])
    results = {0 if np.array_equal(o, 255 - IMG) else 1 for o in _draws(sub, 50)}
    assert results == {0, 1}


def test_helpers_and_png_round_trip(tmp_path):
    assert vision.get_image_size(IMG) == [10, 12] and vision.get_image_num_channels(IMG) == 3
    padded = vision.NormalizePad([1, 2, 3], [2, 2, 2], is_hwc=False)(IMG.transpose(2, 0, 1))
    assert padded.shape == (4, 10, 12) and (padded[3] == 0).all()
    np.testing.assert_allclose(padded[0], (IMG[..., 0] - 1.0) / 2, rtol=1e-6)
    path = str(tmp_path / "x.png")
    vision.write_png(path, IMG)
    np.testing.assert_array_equal(vision.read_image(path, vision.ImageReadMode.COLOR), IMG)
    assert vision.ToType(np.float32)(IMG).dtype == np.float32
    lt = vision.LinearTransformation(np.eye(12, dtype=np.float32), np.ones(12, np.float32))
    np.testing.assert_allclose(lt(np.ones((3, 2, 2), np.float32)), 0)


def test_bbox_transforms_move_boxes_like_mindspore():
    # expected boxes: what real MindSpore 2.10 returns for the same calls (checked with the oracle)
    img = np.zeros((6, 8, 3), np.uint8)
    boxes = np.array([[1, 2, 3, 2], [0, 0, 8, 6]], np.float32)
    out, b = vision.RandomHorizontalFlipWithBBox(1.0)(img, boxes)
    assert b.tolist() == [[4, 2, 3, 2], [0, 0, 8, 6]] and b.dtype == np.float32
    out, b = vision.RandomVerticalFlipWithBBox(1.0)(img, np.array([[4, 2, 3, 1]], np.float32))
    assert b.tolist() == [[4, 3, 3, 1]]
    out, b = vision.ResizeWithBBox((12, 4))(img, np.array([[4, 2, 3, 2], [0, 0, 8, 6]], np.float32))
    assert out.shape == (12, 4, 3) and b.tolist() == [[2, 4, 1.5, 4], [0, 0, 4, 12]]


def test_hsv_round_trip_and_colorsys():
    import colorsys
    x = np.random.default_rng(0).random((6, 8, 3)).astype(np.float32)
    hsv = vision.RgbToHsv(is_hwc=True)(x)
    assert hsv.dtype == np.float64
    np.testing.assert_allclose(hsv[0, 0], colorsys.rgb_to_hsv(*x[0, 0].astype(np.float64)), rtol=1e-12)
    np.testing.assert_allclose(vision.HsvToRgb(is_hwc=True)(hsv), x, atol=1e-6)
    assert vision.ToPIL()(IMG).size == (12, 10)


def test_random_affine_draws_affines_within_its_ranges():
    flat = np.tile(np.arange(12, dtype=np.uint8)[None, :, None], (10, 1, 3)) + 1
    # a pure translation of at most 1 pixel: every row is the ramp shifted by -1, 0 or 1
    shifts = set()
    for o in _draws(vision.RandomAffine(0, translate=(1 / 12, 0)), 60, flat):
        row = o[5, :, 0].astype(int)
        shift = int(np.argmax(row == 6)) - 5 if (row == 6).any() else None
        shifts.add(shift)
    assert shifts <= {-1, 0, 1} and len(shifts) >= 2
    # Affine's angle turns clockwise (torchvision's convention), Rotate's counter-clockwise
    out = vision.RandomAffine(degrees=(90, 90))(IMG[:, :10])   # 10 x 10: a quarter turn is exact
    np.testing.assert_array_equal(out, vision.Rotate(-90.0)(IMG[:, :10]))


def test_rand_augment_and_trivial_augment_change_images_in_their_space():
    outs = _draws(vision.TrivialAugmentWide(), 60)
    assert all(o.shape == IMG.shape and o.dtype == np.uint8 for o in outs)
    assert sum(not np.array_equal(o, IMG) for o in outs) > 30
    assert all(np.array_equal(o, IMG) for o in _draws(vision.RandAugment(num_ops=0), 5))
    solarized = vision.Solarize((0.0, 255.0))(IMG)
    from mindspore_hl.dataset.vision._augment import augment_op
    np.testing.assert_array_equal(augment_op(IMG, "Solarize", 0.0, "nearest", 0), solarized)
    np.testing.assert_array_equal(augment_op(IMG, "TranslateX", 2, "nearest", 0)[:, 2:], IMG[:, :-2])
    with pytest.raises(RuntimeError, match="uint8 <H, W, 3>"):
        vision.RandAugment()(IMG.astype(np.float32))
