"""``generator=`` decides the samples of mint's random functions, as in MindSpore (which draws from it).

The values themselves are not MindSpore's (a different generator algorithm), so the checks are what a generator
must do: the same state gives the same samples, drawing advances it, and the global stream is left alone.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import mint

DRAWS = {
    "rand": lambda g: mint.rand(2, 3, generator=g),
    "randn": lambda g: mint.randn(4, generator=g),
    "randint": lambda g: mint.randint(0, 1000, (6,), generator=g),
    "randperm": lambda g: mint.randperm(12, generator=g),
    "bernoulli": lambda g: mint.bernoulli(ms.Tensor(np.full(16, 0.5, np.float32)), generator=g),
    "multinomial": lambda g: mint.multinomial(ms.Tensor([[0.2, 0.3, 0.5]]), 8, True, generator=g),
    "normal": lambda g: mint.normal(0.0, 1.0, (5,), generator=g),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_the_generator_state_decides_the_samples(name):
    draw = DRAWS[name]
    g = ms.Generator().manual_seed(7)
    first, second = draw(g).asnumpy(), draw(g).asnumpy()
    g.manual_seed(7)
    np.testing.assert_array_equal(draw(g).asnumpy(), first)
    state = g.get_state()
    again = draw(g).asnumpy()
    np.testing.assert_array_equal(again, second)
    g.set_state(state)
    np.testing.assert_array_equal(draw(g).asnumpy(), second)
    # A different seed gives different samples (for every function here, a coincidence has odds below 1e-3).
    assert not np.array_equal(draw(ms.Generator().manual_seed(8)).asnumpy(), first)


def test_a_generator_leaves_the_global_stream_alone():
    ms.set_seed(5)
    expected = mint.rand(3).asnumpy()
    ms.set_seed(5)
    mint.rand(3, generator=ms.Generator().manual_seed(1))
    np.testing.assert_array_equal(mint.rand(3).asnumpy(), expected)


def test_a_wrong_generator_is_named():
    with pytest.raises(TypeError, match=r"mint.randn.*'generator' must be a mindspore.Generator, but got int"):
        mint.randn(2, generator=3)
