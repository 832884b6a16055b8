"""Vision transforms against hand-computed values and independent NumPy formulas."""
import numpy as np
import pytest

from mindspore_hl.dataset import vision
from mindspore_hl.dataset.vision import Border, Inter


def float_bilinear(img, out_h, out_w):
    """Independent reference: half-pixel-centre bilinear with edge clamping, in float64, pixel by pixel."""
    h, w = img.shape[:2]
    src = img.astype(np.float64)
    out = np.zeros((out_h, out_w) + img.shape[2:])
    for oy in range(out_h):
        fy = min(max((oy + 0.5) * h / out_h - 0.5, 0.0), h - 1)
        y0 = int(np.floor(fy))
        y1, ay = min(y0 + 1, h - 1), fy - y0
        for ox in range(out_w):
            fx = min(max((ox + 0.5) * w / out_w - 0.5, 0.0), w - 1)
            x0 = int(np.floor(fx))
            x1, ax = min(x0 + 1, w - 1), fx - x0
            out[oy, ox] = ((1 - ay) * ((1 - ax) * src[y0, x0] + ax * src[y0, x1])
                           + ay * ((1 - ax) * src[y1, x0] + ax * src[y1, x1]))
    return out


def test_resize_linear_hand_values():
    # 2x2 -> 4x4: column/row weights (1,0) (.75,.25) (.25,.75) (0,1); uint8 results rounded once.
    img = np.array([[0, 100], [200, 255]], dtype=np.uint8)
    out = vision.Resize((4, 4), Inter.LINEAR)(img)
    expected = np.array([[0, 25, 75, 100],
                         [50, 72, 117, 139],      # .75*row0 + .25*row1 = 50, 72.19, 116.56, 138.75
                         [150, 167, 200, 216],    # .25*row0 + .75*row1 = 150, 166.56, 199.69, 216.25
                         [200, 214, 241, 255]], dtype=np.uint8)
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.uint8


@pytest.mark.parametrize("shape,size", [((28, 28, 1), (32, 32)), ((17, 23, 3), (9, 40)), ((5, 7), (13, 2)),
                                        ((32, 32, 3), (10, 10))])
def test_resize_linear_matches_float_reference(shape, size):
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=shape, dtype=np.uint8)
    out = vision.Resize(size, Inter.BILINEAR)(img)
    ref = float_bilinear(img, *size)
    assert out.shape == ref.shape
    assert np.abs(out.astype(np.float64) - ref).max() <= 1.0   # one uint8 step: fixed-point rounding
    fimg = img.astype(np.float32)
    fout = vision.Resize(size, Inter.LINEAR)(fimg)
    assert fout.dtype == np.float32
    np.testing.assert_allclose(fout, ref, atol=1e-3)


def test_resize_exact_half_is_area_mean():
    img = np.arange(16, dtype=np.uint8).reshape(4, 4) * 10
    out = vision.Resize((2, 2))(img)
    expected = np.array([[img[:2, :2].mean(), img[:2, 2:].mean()], [img[2:, :2].mean(), img[2:, 2:].mean()]])
    np.testing.assert_array_equal(out, np.floor(expected + 0.5).astype(np.uint8))


def test_resize_nearest_and_int_size():
    img = np.arange(6, dtype=np.uint8).reshape(2, 3)
    out = vision.Resize((4, 6), Inter.NEAREST)(img)
    # OpenCV nearest: src = floor(dst * in / out)
    np.testing.assert_array_equal(out, img[[0, 0, 1, 1]][:, [0, 0, 1, 1, 2, 2]])
    # int size = shorter side, aspect kept: 20x30 -> 10x15, 30x20 -> 15x10
    assert vision.Resize(10)(np.zeros((20, 30, 3), np.uint8)).shape == (10, 15, 3)
    assert vision.Resize(10)(np.zeros((30, 20), np.uint8)).shape == (15, 10)


def test_resize_bicubic_float_reference():
    rng = np.random.default_rng(1)
    img = rng.random((6, 5)).astype(np.float32)
    out = vision.Resize((9, 11), Inter.BICUBIC)(img)

    def kernel(x, a=-0.75):
        x = abs(x)
        if x <= 1:
            return (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
        if x < 2:
            return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
        return 0.0

    def axis_weights(n_in, n_out):
        m = np.zeros((n_out, n_in))
        for o in range(n_out):
            f = (o + 0.5) * n_in / n_out - 0.5
            s = int(np.floor(f))
            for k in range(-1, 3):
                m[o, min(max(s + k, 0), n_in - 1)] += kernel(f - (s + k))
        return m

    ref = axis_weights(6, 9) @ img.astype(np.float64) @ axis_weights(5, 11).T
    np.testing.assert_allclose(out, ref, atol=1e-5)


def test_rescale_normalize_hwc2chw():
    img = np.array([[[0, 128, 255]]], dtype=np.uint8)   # (1, 1, 3)
    np.testing.assert_allclose(vision.Rescale(1 / 255, -0.5)(img), [[[-0.5, 128 / 255 - 0.5, 0.5]]], atol=1e-6)
    norm = vision.Normalize(mean=[10, 20, 30], std=[2, 4, 5])(img)
    np.testing.assert_allclose(norm, [[[-5, 27, 45]]])
    assert norm.dtype == np.float32
    chw = vision.Normalize(mean=[1], std=[2], is_hwc=False)(np.full((3, 2, 2), 5, np.uint8))
    np.testing.assert_allclose(chw, np.full((3, 2, 2), 2.0))
    x = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(vision.HWC2CHW()(x), x.transpose(2, 0, 1))


def test_layout_errors_name_the_op():
    with pytest.raises(RuntimeError, match=r"HWC2CHW.*<H,W,C>.*\(28, 28\)"):
        vision.HWC2CHW()(np.zeros((28, 28), np.uint8))
    with pytest.raises(RuntimeError, match="Normalize: number of channels does not match .* channels: 3, size of "
                                           "mean: 2"):
        vision.Normalize([1, 2], [1, 1])(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(RuntimeError, match="Resize.*Decode"):
        vision.Resize((4, 4))(np.zeros((10,), np.uint8))
    with pytest.raises(ValueError, match="std value 0"):
        vision.Normalize([1], [0])
    with pytest.raises(TypeError, match="Resize: size"):
        vision.Resize("big")


def test_center_crop_and_pad_semantics():
    x = np.arange(5 * 6).reshape(5, 6).astype(np.uint8)
    np.testing.assert_array_equal(vision.CenterCrop((3, 2))(x), x[1:4, 2:4])
    # crop larger than the image: zero padding, the extra pixel on top/left (MindSpore CenterCropOp)
    padded = vision.CenterCrop((8, 6))(x)
    np.testing.assert_array_equal(padded, np.pad(x, ((2, 1), (0, 0))))
    for mode, np_mode in ((Border.EDGE, "edge"), (Border.REFLECT, "reflect"), (Border.SYMMETRIC, "symmetric")):
        out = vision.Pad((1, 2, 3, 4), padding_mode=mode)(x)   # left, top, right, bottom
        np.testing.assert_array_equal(out, np.pad(x, ((2, 4), (1, 3)), mode=np_mode))
    rgb = vision.Pad(1, fill_value=(1, 2, 3))(np.zeros((2, 2, 3), np.uint8))
    np.testing.assert_array_equal(rgb[0, 0], [1, 2, 3])
    np.testing.assert_array_equal(rgb[1, 1], [0, 0, 0])


def test_random_crop_is_a_window_of_the_padded_image():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(8, 8, 3), dtype=np.uint8)
    padded = np.pad(img, ((2, 2), (2, 2), (0, 0)))
    windows = {padded[y:y + 8, x:x + 8].tobytes() for y in range(5) for x in range(5)}
    seen = set()
    for _ in range(40):
        out = vision.RandomCrop(8, padding=2)(img)
        assert out.shape == (8, 8, 3) and out.tobytes() in windows
        seen.add(out.tobytes())
    assert len(seen) > 1
    assert vision.RandomCrop((10, 12), pad_if_needed=True)(img).shape == (10, 12, 3)
    with pytest.raises(RuntimeError, match="RandomCrop: crop size"):
        vision.RandomCrop(9)(img)


def test_flips():
    img = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(1.0)(img), img[:, ::-1])
    np.testing.assert_array_equal(vision.RandomVerticalFlip(1.0)(img), img[::-1])
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(0.0)(img), img)


def test_rotation_90_is_rot90():
    img = np.arange(5 * 5 * 2, dtype=np.uint8).reshape(5, 5, 2)
    out = vision.RandomRotation((90, 90))(img)
    np.testing.assert_array_equal(out, np.rot90(img))           # counter-clockwise, as MindSpore/OpenCV
    rect = np.arange(3 * 5, dtype=np.uint8).reshape(3, 5) + 1
    expanded = vision.RandomRotation((90, 90), expand=True)(rect)
    assert expanded.shape == (5, 3)
    np.testing.assert_array_equal(expanded, np.rot90(rect))
    same = vision.RandomRotation((0, 0), resample=Inter.BILINEAR)(img)
    np.testing.assert_array_equal(same, img)


def test_random_resized_crop_and_decode_resize():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(40, 30, 3), dtype=np.uint8)
    out = vision.RandomResizedCrop((16, 8))(img)
    assert out.shape == (16, 8, 3) and out.dtype == np.uint8
    # scale (1, 1) and ratio equal to the image's -> the whole image, resized
    full = vision.RandomResizedCrop((20, 15), scale=(1.0, 1.0), ratio=(0.75, 0.75))(img)
    np.testing.assert_array_equal(full, vision.Resize((20, 15))(img))
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    data = np.frombuffer(buf.getvalue(), np.uint8)
    np.testing.assert_array_equal(vision.Decode()(data), img)
    out = vision.RandomCropDecodeResize((10, 10), scale=(1.0, 1.0), ratio=(0.75, 0.75))(data)
    np.testing.assert_array_equal(out, vision.Resize((10, 10))(img))
    with pytest.raises(RuntimeError, match="Decode: image decode failed"):
        vision.Decode()(np.frombuffer(b"not an image", np.uint8))
    with pytest.raises(RuntimeError, match="Decode: expected encoded image bytes"):
        vision.Decode()(img)


def test_to_tensor():
    img = np.full((2, 3, 3), 51, np.uint8)
    out = vision.ToTensor()(img)
    assert out.shape == (3, 2, 3) and out.dtype == np.float32
    np.testing.assert_allclose(out, 0.2)


def test_legacy_paths_are_the_same_classes():
    from mindspore_hl.dataset import transforms
    from mindspore_hl.dataset.transforms import c_transforms as tc
    from mindspore_hl.dataset.transforms import py_transforms as tp
    from mindspore_hl.dataset.vision import c_transforms, py_transforms
    assert c_transforms.Resize is vision.Resize and py_transforms.Normalize is vision.Normalize
    assert tc.TypeCast is transforms.TypeCast and tp.Compose is transforms.Compose
