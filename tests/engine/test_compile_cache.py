"""``set_context(enable_compile_cache=True, compile_cache_path=...)``: a second process loads the compiled step
(a ``Model.train`` step with the sparse cross-entropy, and a Cell call).

Each run is a fresh interpreter (JAX's cache is per process): the first one writes executables under
``<path>/rank_0/``, the second, with the same setting, finds them (JAX counts persistent-cache hits).
"""
import os
import subprocess
import sys
import textwrap

import jax
import pytest

import mindspore_hl as ms
from mindspore_hl._engine import _cache

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import jax
    from jax._src import monitoring
    import mindspore_hl as ms
    from mindspore_hl import nn

    events = []
    monitoring.register_event_listener(lambda event, **kw: events.append(event.rsplit("/", 1)[-1]))
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=sys.argv[1])
    ms.set_seed(1)
    net = nn.Dense(4, 3)
    # the sparse loss checks its labels on the host, so the train step has no callback and can be stored
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, [(np.ones((2, 4), np.float32), np.array([0, 2], np.int32))])
    out = net(ms.Tensor(np.ones((2, 4), np.float32))).asnumpy()
    print("HITS", events.count("cache_hits"), "MISSES", events.count("cache_misses"), "SUM", float(out.sum()))
""")


def _run(path):
    env = dict(os.environ)
    for name in _cache._RANK_VARS:
        env.pop(name, None)
    res = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True, env=env,
                         timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert res.returncode == 0, res.stderr[-3000:]
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("HITS")][-1].split()
    return int(line[1]), int(line[3]), float(line[5])


def test_second_process_compiles_from_the_cache(tmp_path):
    hits1, misses1, value1 = _run(tmp_path)
    # (executables only: XLA:GPU also keeps its autotuning results there)
    entries = [e for e in os.listdir(tmp_path / "rank_0") if "autotune" not in e]
    assert hits1 == 0 and misses1 >= 1 and len(entries) == misses1  # the first process compiled and wrote them
    hits2, misses2, value2 = _run(tmp_path)
    assert hits2 == misses1 and misses2 == 0 and value2 == value1  # the second loaded every one
    assert sorted(e for e in os.listdir(tmp_path / "rank_0") if "autotune" not in e) == sorted(entries)  # nothing new


def test_context_keys_switch_the_cache_on_and_off(tmp_path):
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    assert ms.get_context("enable_compile_cache") is True
    assert jax.config.values["jax_compilation_cache_dir"] == str(tmp_path / "rank_0")
    ms.set_context(enable_compile_cache=False)
    assert jax.config.values["jax_compilation_cache_dir"] is None
    with pytest.raises(TypeError, match="'enable_compile_cache' must be a bool"):
        ms.set_context(enable_compile_cache="yes")
