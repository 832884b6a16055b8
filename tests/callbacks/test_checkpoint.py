"""ModelCheckpoint / CheckpointConfig: names, keep-max, prefix collisions, contents (optimizer state),
append_info, exception saves; OnRequestExit."""
import os
import signal

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.callbacks import OnRequestExit
from mindspore_hl.train import Callback, CheckpointConfig, LambdaCallback, ModelCheckpoint, load_checkpoint


def _ckpts(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))


def test_names_keep_max_and_collision(model_factory, batches, tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    model.train(2, batches, callbacks=ModelCheckpoint(directory=str(tmp_path), config=cfg))
    # saves at steps 2, 4, 6 (epoch 1) and 8, 10, 12 (epoch 2); the newest two are kept
    assert _ckpts(tmp_path) == ["CKP-2_4.ckpt", "CKP-2_6.ckpt"]
    model2, _, _ = model_factory()
    model2.train(1, batches[:3], callbacks=ModelCheckpoint(directory=str(tmp_path),
                                                           config=CheckpointConfig(keep_checkpoint_max=10)))
    assert [f for f in _ckpts(tmp_path) if f.startswith("CKP_1")] == ["CKP_1-1_1.ckpt", "CKP_1-1_2.ckpt",
                                                                       "CKP_1-1_3.ckpt"]
    ModelCheckpoint(directory=str(tmp_path))  # a third prefix would be CKP_2
    assert ModelCheckpoint(directory=str(tmp_path))._prefix == "CKP_2"


def test_checkpoint_holds_network_and_optimizer_state(model_factory, batches, tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, net, opt = model_factory()
    snapshots = {}

    def remember(rc):
        cb = rc.original_args()
        snapshots[cb.cur_step_num] = {n: p.asnumpy().copy() for n, p in cb.train_network.parameters_and_names()}

    ckpt = ModelCheckpoint(prefix="net", directory=str(tmp_path),
                           config=CheckpointConfig(save_checkpoint_steps=3, append_info=["epoch_num", "step_num",
                                                                                         {"tag": 7}]))
    model.train(1, batches, callbacks=[LambdaCallback(on_train_step_end=remember), ckpt])
    assert ckpt.latest_ckpt_file_name == os.path.join(str(tmp_path), "net-1_6.ckpt")
    loaded = load_checkpoint(os.path.join(str(tmp_path), "net-1_3.ckpt"))
    names = set(loaded)
    assert {"fc1.weight", "fc2.bias", "global_step", "learning_rate", "momentum", "moments.fc1.weight"} <= names
    for name, value in snapshots[3].items():
        np.testing.assert_array_equal(loaded[name].asnumpy(), value, err_msg=name)
    assert int(loaded["global_step"].asnumpy()[0]) == 3
    assert int(loaded["epoch_num"].asnumpy()) == 1 and int(loaded["step_num"].asnumpy()) == 3
    assert int(loaded["tag"].asnumpy()) == 7


def test_save_by_seconds_and_saved_network(model_factory, batches, tmp_path):
    model, net, _ = model_factory()
    cfg = CheckpointConfig(save_checkpoint_steps=None, save_checkpoint_seconds=3600, saved_network=net)
    model.train(1, batches, callbacks=ModelCheckpoint(directory=str(tmp_path), config=cfg))
    assert _ckpts(tmp_path) == ["CKP-1_6.ckpt"]  # only the final save at train end
    assert set(load_checkpoint(str(tmp_path / "CKP-1_6.ckpt"))) == {p.name for p in net.get_parameters()}


def test_config_validation():
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)
    with pytest.raises(ValueError, match="append_info"):
        CheckpointConfig(append_info=["learning_rate"])
    with pytest.raises(ValueError, match="prefix"):
        ModelCheckpoint(prefix="a/b")
    with pytest.raises(TypeError, match="CheckpointConfig"):
        ModelCheckpoint(config={"save_checkpoint_steps": 1})
    assert CheckpointConfig().get_checkpoint_policy()["keep_checkpoint_max"] == 5


def test_exception_save_writes_breakpoint(model_factory, batches, tmp_path):
    model, _, _ = model_factory()

    class Boom(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 4:
                raise RuntimeError("boom")

    cfg = CheckpointConfig(save_checkpoint_steps=100, exception_save=True)
    with pytest.raises(RuntimeError, match="boom"):
        model.train(1, batches, callbacks=[ModelCheckpoint(directory=str(tmp_path), config=cfg), Boom()])
    assert _ckpts(tmp_path) == ["CKP-1_4_breakpoint.ckpt"]


def test_on_request_exit_saves_and_stops(model_factory, batches, tmp_path):
    model, net, _ = model_factory()
    steps = []
    sender = LambdaCallback(on_train_step_end=lambda rc: (steps.append(rc.original_args().cur_step_num),
                                                          os.kill(os.getpid(), signal.SIGUSR1)
                                                          if rc.original_args().cur_step_num == 2 else None))
    exit_cb = OnRequestExit(save_mindir=False, file_name="Net", directory=str(tmp_path), sig=signal.SIGUSR1)
    model.train(3, batches, callbacks=[sender, exit_cb])
    assert steps == [1, 2]
    saved = load_checkpoint(str(tmp_path / "Net_train.ckpt"))
    np.testing.assert_array_equal(saved["fc1.weight"].asnumpy(), net.fc1.weight.asnumpy())
    assert signal.getsignal(signal.SIGUSR1) is not exit_cb._handle_signal
    with pytest.raises(ValueError, match="SIGKILL"):
        OnRequestExit(sig=signal.SIGKILL)


def _record_writes(monkeypatch, directory):
    """Patch save_checkpoint to note, for every write, which checkpoint files existed just before it."""
    import mindspore_hl.serialization as serialization
    real = serialization.save_checkpoint
    seen = []

    def save(save_obj, ckpt_file_name, *args, **kwargs):
        seen.append((os.path.basename(ckpt_file_name), _ckpts(directory)))
        return real(save_obj, ckpt_file_name, *args, **kwargs)

    monkeypatch.setattr(serialization, "save_checkpoint", save)
    return seen


@pytest.mark.parametrize("async_save", [False, True])
def test_new_file_is_written_before_the_old_one_is_pruned(model_factory, batches, tmp_path, monkeypatch,
                                                         async_save):
    model, _, _ = model_factory()
    seen = _record_writes(monkeypatch, tmp_path)
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=1, async_save=async_save)
    model.train(1, batches, callbacks=ModelCheckpoint(directory=str(tmp_path), config=cfg))
    assert [name for name, _ in seen] == ["CKP-1_2.ckpt", "CKP-1_4.ckpt", "CKP-1_6.ckpt"]
    for (_, before), (previous, _) in zip(seen[1:], seen):
        assert previous in before  # the last checkpoint still existed while the next one was written
    assert _ckpts(tmp_path) == ["CKP-1_6.ckpt"]
    assert load_checkpoint(str(tmp_path / "CKP-1_6.ckpt"))


def test_step_numbering_continues_after_initial_epoch_resume(model_factory, batches, tmp_path):
    model, _, _ = model_factory()
    cfg = CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=10, append_info=["step_num"])
    steps = []
    model.train(4, batches, initial_epoch=2,
                callbacks=[ModelCheckpoint(directory=str(tmp_path), config=cfg),
                           LambdaCallback(on_train_step_end=lambda rc: steps.append(rc.original_args().cur_step_num))])
    assert steps == list(range(13, 25))  # 6 steps per epoch: epochs 3 and 4 are steps 13..24
    assert _ckpts(tmp_path) == ["CKP-3_3.ckpt", "CKP-3_6.ckpt", "CKP-4_3.ckpt", "CKP-4_6.ckpt"]
    assert int(load_checkpoint(str(tmp_path / "CKP-3_3.ckpt"))["step_num"].asnumpy()) == 15


def test_step_numbering_continues_after_backup_restore(model_factory, batches, tmp_path):
    from mindspore_hl.train import BackupAndRestore

    class Crash(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 14:
                raise KeyboardInterrupt("simulated crash")

    model, _, _ = model_factory()
    with pytest.raises(KeyboardInterrupt):
        model.train(4, batches, callbacks=[BackupAndRestore(str(tmp_path / "backup")), Crash()])
    model2, _, _ = model_factory()
    cfg = CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=10)
    # ModelCheckpoint before BackupAndRestore in the list: the step count is read when the first epoch begins
    model2.train(4, batches, callbacks=[ModelCheckpoint(directory=str(tmp_path / "ckpt"), config=cfg),
                                        BackupAndRestore(str(tmp_path / "backup"))])
    # resumed at step 12 (end of epoch 2): saves every 4 steps continue at 16, 20, 24 (not at 13, 17, 21)
    assert _ckpts(tmp_path / "ckpt") == ["CKP-3_4.ckpt", "CKP-4_2.ckpt", "CKP-4_6.ckpt"]
