"""With ``MINDSPORE_HL_MALLOC=reuse`` the host allocator keeps freed step buffers (``mindspore_hl/_host_memory.py``):
page faults per compiled call with it and by default, each in a fresh process (malloc settings are process-wide)."""
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                                reason="tunes glibc malloc only")

# A compiled call whose 64 MB output is freed before the next call: the buffer a training step re-allocates.
_PROBE = """
import resource
import mindspore_hl
from mindspore_hl import _host_memory
import jax, jax.numpy as jnp
f = jax.jit(lambda x: jnp.maximum(x * 2.0, 0.0))
x = jnp.ones((4096, 4096), jnp.float32)
per_call = []
for _ in range(6):  # the fewest faults per call over groups of calls: the heap settles after a few calls
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(4):
        f(x).block_until_ready()
    per_call.append((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 4)
print(_host_memory.keep_freed_memory(), min(per_call))
"""


def _probe(malloc):
    env = dict(os.environ, MINDSPORE_HL_MALLOC=malloc)
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    applied, faults = out.stdout.split()
    return applied == "True", float(faults)


def test_freed_step_buffers_are_reused_without_page_faults():
    applied, kept = _probe("reuse")
    left_alone, system = _probe("")
    assert applied and not left_alone
    pages = 64 * 2 ** 20 / os.sysconf("SC_PAGE_SIZE")
    assert system > 0.5 * pages, (system, pages)  # glibc maps the buffer afresh on each call
    assert kept < 0.05 * pages, (kept, pages)
