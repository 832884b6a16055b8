"""Moving host data to the device compiles nothing, and the device copy is the Tensor's own.

Each XLA compilation costs tens of milliseconds in a fresh process (more when read back from the compile cache),
so staging NumPy data through a compiled copy once per shape made ResNet50's first step compile 66 programs.
"""
import logging

import jax
import numpy as np

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor
from mindspore_hl.common import seed as seed_module


def _compiles(caplog, fn):
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="jax"), jax.log_compiles():
        fn()
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("Compiling")]


def test_tensors_parameters_and_the_seed_compile_nothing(caplog):
    # Shapes no other test uses, so nothing is in JAX's in-memory cache already.
    def build():
        t = Tensor(np.ones((17, 19, 23), np.float32))
        p = Parameter(t, name="w")
        p.value()
        p.set_data(Tensor(np.zeros((17, 19, 23), np.float32)))
        Tensor(np.arange(29 * 31, dtype=np.int32).reshape(29, 31))
        t.copy()
        ms.ops.deepcopy(t)
        ms.set_seed(12345)
    assert _compiles(caplog, build) == []


def test_the_device_copy_does_not_follow_the_numpy_array():
    host = np.ones((37, 41), np.float32)
    t = Tensor(host)
    p = Parameter(Tensor(host), name="p")
    host[0, 0] = 5.0
    assert float(t.asnumpy()[0, 0]) == 1.0 and float(p.asnumpy()[0, 0]) == 1.0


def test_non_native_byte_order_is_accepted():
    big_endian = np.arange(6, dtype=">f4").reshape(2, 3)
    t = Tensor(big_endian)
    assert t.dtype == ms.float32
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_the_seeded_key_is_jax_s_own():
    for seed in (0, 7, 2 ** 31 - 1, 2 ** 40 + 5):
        ms.set_seed(seed)
        np.testing.assert_array_equal(np.asarray(seed_module.global_key()),
                                      np.asarray(jax.random.key_data(jax.random.key(seed))))
