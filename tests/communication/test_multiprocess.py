"""Two processes on 127.0.0.1 started by mindspore-hl-run: data-parallel LeNet5, and a killed peer."""
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

import mindspore_hl as ms

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE / "dp_lenet_script.py"
sys.path.insert(0, str(HERE.parent / "parallel"))
from parallel_nets import lenet5, lenet_rows, train  # noqa: E402


def _launch(out_dir, steps, local_batch, sleep_s=0.0, grace_s=30, mode="graph"):
    cmd = [sys.executable, "-m", "mindspore_hl.communication._launcher", "-n", "2", "--grace_s", str(grace_s),
           str(SCRIPT), str(out_dir), str(steps), str(local_batch), str(sleep_s), mode]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.mark.timeout(120)
def test_two_processes_see_one_global_batch(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mindspore_hl.communication._launcher", "-n", "2",
                           str(HERE / "dp_smoke_script.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=100)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    batch = np.arange(24, dtype=np.float32).reshape(8, 3)
    w1 = 1 + batch.mean(0)
    w2 = w1 + batch.mean(0)
    expected = [(batch * w1).sum(), (batch * w2).sum()]
    for rank in (0, 1):
        r = np.load(tmp_path / f"rank{rank}.npz")
        assert r["who"].tolist() == [rank, 2, rank]  # rank, group size, local rank
        np.testing.assert_allclose(r["w"], w2, rtol=1e-6)
        np.testing.assert_allclose(r["out"], expected, rtol=1e-6)


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_two_processes_train_lenet5_like_one_process_on_the_global_batch(tmp_path, mode):
    # (PYNATIVE: each step runs op by op on the 2-process mesh; the optimizer's @jit update splits nothing)
    steps, local_batch = 20 if mode == "graph" else 6, 4
    proc = _launch(tmp_path, steps, local_batch, mode=mode)
    out, _ = proc.communicate(timeout=200)
    assert proc.returncode == 0, out
    r0, r1 = np.load(tmp_path / "rank0.npz"), np.load(tmp_path / "rank1.npz")
    # The single-process reference sees the same global batches: rank 0's rows, then rank 1's rows
    # (the data set's shard k holds rows k, k + 2, k + 4, ...).
    x, y = lenet_rows(steps * local_batch * 2)
    data = []
    for t in range(steps):
        idx = [k + 2 * (t * local_batch + j) for k in (0, 1) for j in range(local_batch)]
        data.append((x[idx], y[idx]))
    ms.set_context(mode=ms.GRAPH_MODE)
    losses, params, _ = train(lenet5(), data, lr=0.01)
    np.testing.assert_allclose(r0["losses"], losses, rtol=1e-5)
    for name, value in params.items():
        np.testing.assert_allclose(r0[name], value, rtol=1e-4, atol=1e-6, err_msg=name)
        np.testing.assert_array_equal(r1[name], r0[name])  # the replicas agree exactly
    assert "[rank 0] done" in out and "[rank 1] done" in out


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_killing_one_process_makes_the_other_exit_with_a_clear_error(tmp_path):
    proc = _launch(tmp_path, 400, 4, sleep_s=0.05, grace_s=60)
    lines = []
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:  # wait until both ranks are training
        line = proc.stdout.readline()
        lines.append(line)
        if sum("step 3 loss" in l for l in lines) == 2:
            break
    else:
        proc.kill()
        pytest.fail("the job did not start training:\n" + "".join(lines))
    os.kill(int((tmp_path / "rank1.pid").read_text()), 9)
    killed_at = time.monotonic()
    out, _ = proc.communicate(timeout=90)
    took = time.monotonic() - killed_at
    out = "".join(lines) + out
    assert proc.returncode != 0
    assert "mindspore-hl-run: rank 1 was killed by SIGKILL" in out
    # Rank 0 stopped by itself (exit code 1, not the launcher's SIGTERM), with a message saying why.
    assert "[rank 0] mindspore_hl.communication: process 0 of 2 exits because another process of the job " \
           "stopped or became unreachable" in out, out[-3000:]
    assert "rank 0 exited with code 1" in out
    assert took < 60, f"rank 0 took {took:.1f} s to stop"
