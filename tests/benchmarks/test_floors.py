"""The benchmarks' hand-written JAX floors: the bfloat16 floor trains as the float32 one, in bfloat16 products."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from benchmarks import _floors
from benchmarks.train_throughput import ms_network, random_batches


# ResNet50 at initialisation with batch statistics of 8 samples is chaotic: an input change of 1e-3 in float32
# alone turns conv1's weight update to a cosine of 0.49 with the unchanged one; so only its loss is compared.
@pytest.mark.parametrize("name, shape, rtol, cosine", [("lenet5", (1, 32, 32), 1e-2, 0.999),
                                                       pytest.param("resnet50", (3, 32, 32), 5e-2, None,
                                                                    marks=pytest.mark.slow)])
def test_the_bfloat16_floor_takes_the_float32_floors_step_to_bfloat16_precision(name, shape, rtol, cosine):
    net, _, _ = ms_network(name)
    make_params, forward = _floors.JAX_NETS[name]
    ((x, y),) = random_batches(8, shape, 1)
    x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    before = np.concatenate([np.ravel(a) for a in jax.tree_util.tree_leaves(make_params(_floors.ms_params(net))[0])])
    floors = {dt: _floors.JaxFloor(*make_params(_floors.ms_params(net)), forward, dt) for dt in (None, jnp.bfloat16)}
    jaxpr = str(jax.make_jaxpr(floors[jnp.bfloat16].jitted)(floors[jnp.bfloat16].state, x, y))
    updates = []
    for floor in floors.values():
        floor.step(x, y)
        params = jax.tree_util.tree_leaves(floor.state[0])
        assert all(p.dtype == jnp.float32 for p in params)  # float32 master weights
        updates.append(np.concatenate([np.ravel(p) for p in params]) - before)
    np.testing.assert_allclose(float(floors[jnp.bfloat16].loss), float(floors[None].loss), rtol=rtol)
    got, want = updates[1], updates[0]
    assert cosine is None or got @ want / (np.linalg.norm(got) * np.linalg.norm(want)) > cosine
    products = [line for line in jaxpr.splitlines() if "conv_general_dilated[" in line or "dot_general[" in line]
    assert products and all("bf16" in line for line in products)
