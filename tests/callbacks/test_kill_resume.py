"""kill -9 at random moments (and in the middle of checkpoint writes) over ModelCheckpoint (keep_checkpoint_max
1 and 2) and BackupAndRestore: after every kill the directory holds a loadable checkpoint and every file in it
loads with crc_check=True; the run that finally completes leaves no temp files and ends with the parameters of
an uninterrupted run, bit for bit (the dataset shuffles)."""
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from mindspore_hl._engine import _state
from mindspore_hl.serialization import load_checkpoint

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kill_resume_script  # noqa: E402

EPOCHS = 5


def _start(out, directory, mode):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1]), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, str(HERE / "kill_resume_script.py"), str(out), str(directory), mode,
                             str(EPOCHS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _checkpoints(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))


def _temps(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".tmp"))


def _saved(directory):
    """{name: mtime} of the checkpoint files in ``directory``."""
    out = {}
    for name in _checkpoints(directory) if os.path.isdir(directory) else []:
        try:
            out[name] = os.stat(os.path.join(directory, name)).st_mtime_ns
        except FileNotFoundError:  # pruned meanwhile
            pass
    return out


def _kill(proc, directory, when, rng):
    """SIGKILL ``proc`` once it has saved a checkpoint: 'write' as soon as a temp file (a checkpoint being
    written) shows up after that, 'delay' at a random moment. Returns whether a write was under way."""
    before = _saved(directory)
    deadline = time.monotonic() + 300
    kill_at = None
    while proc.poll() is None and time.monotonic() < deadline:
        if kill_at is None:
            now = _saved(directory)
            if any(before.get(name) != t for name, t in now.items()):  # this run saved something
                kill_at = time.monotonic() + (rng.uniform(0.0, 0.3) if when == "delay" else 1e9)
        elif when == "write" and _temps(directory):
            break
        elif time.monotonic() >= kill_at:
            break
        time.sleep(0.0005)
    mid_write = bool(_temps(directory)) if os.path.isdir(directory) else False
    proc.kill()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (-signal.SIGKILL, 0), err
    return proc.returncode == -signal.SIGKILL and mid_write


def _assert_loadable(directory):
    files = _checkpoints(directory)
    assert files, "a killed run left no checkpoint"
    for f in files:  # every file under a checkpoint name is complete (writes are atomic)
        assert load_checkpoint(os.path.join(directory, f), crc_check=f != "backup.ckpt")


def _params(path):
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The parameters of an uninterrupted run (in this process: the same code, no kill)."""
    d = tmp_path_factory.mktemp("reference")
    try:
        kill_resume_script.run(str(d / "ref.npz"), str(d / "ckpt"), "ckpt2", EPOCHS)
    finally:
        _state.reset()
    return _params(d / "ref.npz")


def _kill_and_resume(tmp_path, mode, reference, kills, rng):
    directory = tmp_path / "ckpt"
    mid_write = 0
    for i in range(kills):
        proc = _start(tmp_path / "killed.npz", directory, mode)
        mid_write += _kill(proc, directory, "write" if i % 2 == 0 else "delay", rng)
        _assert_loadable(directory)
    done = _start(tmp_path / "final.npz", directory, mode)
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    assert _temps(directory) == []
    final = _params(tmp_path / "final.npz")
    assert final.keys() == reference.keys()
    for name in reference:
        np.testing.assert_array_equal(final[name], reference[name], err_msg=name)
    return mid_write, out


def test_one_kill_mid_write_then_resume(tmp_path, reference):
    """Short variant: one kill while a checkpoint is being written (keep_checkpoint_max=1, the case that lost
    everything when the old file was deleted first)."""
    _, out = _kill_and_resume(tmp_path, "ckpt1", reference, 1, np.random.default_rng(0))
    assert "resumed from epoch 0" not in out  # the final run resumed from what the killed one left


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["ckpt1", "ckpt2", "backup"])
def test_repeated_kills(tmp_path, reference, mode):
    mid_write, _ = _kill_and_resume(tmp_path, mode, reference, 8, np.random.default_rng(len(mode)))
    assert mid_write >= 1  # at least one kill landed inside a checkpoint write
