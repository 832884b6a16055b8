"""BackupAndRestore: a training that dies mid-epoch resumes and ends with the same parameters, bit for bit."""
import os
import pathlib
import signal
import subprocess
import sys

import numpy as np
import pytest

from mindspore_hl.train import Callback

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import resume_script  # noqa: E402


def _load(path):
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def _assert_bitwise_equal(a, b):
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


class _Crash(Callback):
    def on_train_step_end(self, rc):
        if rc.original_args().cur_step_num == 15:  # epoch 3 of 6 steps, mid-epoch
            raise KeyboardInterrupt("simulated crash")


def test_resume_in_process(tmp_path, monkeypatch):
    resume_script.run(str(tmp_path / "ref.npz"), str(tmp_path / "ref_backup"))
    original = resume_script.LambdaCallback
    monkeypatch.setattr(resume_script, "LambdaCallback", lambda **kw: (
        _Crash() if not kw.get("on_train_epoch_begin") else original(**kw)))
    with pytest.raises(KeyboardInterrupt):
        resume_script.run(str(tmp_path / "crash.npz"), str(tmp_path / "backup"), kill_at=15)
    monkeypatch.setattr(resume_script, "LambdaCallback", original)
    assert (tmp_path / "backup" / "backup.ckpt").exists()
    epochs = resume_script.run(str(tmp_path / "resumed.npz"), str(tmp_path / "backup"))
    assert epochs == [3, 4]
    assert not (tmp_path / "backup" / "backup.ckpt").exists()  # delete_checkpoint=True
    _assert_bitwise_equal(_load(tmp_path / "ref.npz"), _load(tmp_path / "resumed.npz"))


@pytest.mark.slow
def test_resume_after_sigkill(tmp_path):
    def run(out, backup, kill_at):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1]), os.environ.get("PYTHONPATH", "")]))
        return subprocess.run([sys.executable, str(HERE / "resume_script.py"), str(out), str(backup), str(kill_at)],
                              capture_output=True, text=True, env=env, timeout=600)

    ref = run(tmp_path / "ref.npz", tmp_path / "ref_backup", 0)
    assert ref.returncode == 0, ref.stderr
    killed = run(tmp_path / "x.npz", tmp_path / "backup", 15)
    assert killed.returncode == -signal.SIGKILL and not (tmp_path / "x.npz").exists()
    resumed = run(tmp_path / "resumed.npz", tmp_path / "backup", 0)
    assert resumed.returncode == 0, resumed.stderr
    assert "epochs run: [3, 4]" in resumed.stdout
    _assert_bitwise_equal(_load(tmp_path / "ref.npz"), _load(tmp_path / "resumed.npz"))
