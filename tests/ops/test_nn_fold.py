"""Patch extraction (``ops._nn_fold.patches``) under unfold / im2col / ExtractVolumePatches / nn.Unfold.

Integer and bool inputs take strided slices rather than XLA's patch convolution (GPU convolutions take only floats);
they must give exactly what the convolution gives the same values in float64 (exact for these magnitudes).
"""
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl.ops._nn_fold import patches

CASES = [((2, 3, 7, 6), (3, 2), (2, 1), "SAME", (1, 2)),
         ((1, 2, 5, 5), (2, 2), (1, 1), [(1, 0), (2, 1)], (2, 1)),
         ((1, 2, 4, 5, 6), (2, 2, 3), (1, 2, 2), "VALID", None),
         ((2, 1, 9), (3,), (2,), "SAME", (2,))]


@pytest.mark.parametrize("shape, kernel, stride, padding, dilation", CASES)
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.bool_])
def test_integer_patches_equal_the_float_convolutions(shape, kernel, stride, padding, dilation, dtype):
    x = np.random.default_rng(0).integers(0, 200, shape).astype(dtype)
    got = patches(jnp.asarray(x), kernel, stride, padding, dilation)
    want = lax.conv_general_dilated_patches(jnp.asarray(x, jnp.float64), kernel, stride, padding,
                                            rhs_dilation=dilation)
    assert got.dtype == x.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got, np.float64), np.asarray(want))


def test_unfold_of_large_int64_values_is_exact():
    x = np.arange(2 ** 60, 2 ** 60 + 32, dtype=np.int64).reshape(1, 2, 4, 4)
    out = ops.unfold(ms.Tensor(x), 2, stride=2).asnumpy()
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out[0, :4, 0], [x[0, 0, 0, 0], x[0, 0, 0, 1], x[0, 0, 1, 0], x[0, 0, 1, 1]])
