"""The ``mindspore.train`` namespace and its legacy module paths resolve to the same objects."""
import importlib

import mindspore_hl.amp as amp
import mindspore_hl.callbacks as callbacks
import mindspore_hl.metrics as metrics
import mindspore_hl.train as train
from mindspore_hl.model import Model


def test_reference_1b_imports():
    from mindspore_hl.train import Accuracy, CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor  # noqa: F401
    from mindspore_hl.train import Model as M
    assert M is Model and Accuracy is metrics.Accuracy and LossMonitor is callbacks.LossMonitor


def test_legacy_module_paths():
    assert importlib.import_module("mindspore_hl.train.callback").ModelCheckpoint is callbacks.ModelCheckpoint
    assert importlib.import_module("mindspore_hl.train.callback")._InternalCallbackParam is callbacks.CallbackParam
    assert importlib.import_module("mindspore_hl.train.metrics").Accuracy is metrics.Accuracy
    assert importlib.import_module("mindspore_hl.train.model").Model is Model
    assert importlib.import_module("mindspore_hl.train.amp").build_train_network is amp.build_train_network
    lsm = importlib.import_module("mindspore_hl.train.loss_scale_manager")
    assert lsm.FixedLossScaleManager is amp.FixedLossScaleManager
    ser = importlib.import_module("mindspore_hl.train.serialization")
    import mindspore_hl.serialization as serialization
    assert ser.save_checkpoint is serialization.save_checkpoint and ser.load_param_into_net is \
        serialization.load_param_into_net
    assert importlib.import_module("mindspore_hl.train.summary").SummaryRecord.__name__ == "SummaryRecord"


def test_train_all_is_importable():
    missing = [name for name in train.__all__ if not hasattr(train, name)]
    assert not missing
    for name in ("EarlyStopping", "History", "LambdaCallback", "BackupAndRestore", "OnRequestExit",
                 "ReduceLROnPlateau", "LearningRateScheduler", "SummaryCollector", "RunContext", "Callback",
                 "Top1CategoricalAccuracy", "names", "get_metric_fn", "auc", "ROC", "F1", "Fbeta"):
        assert name in train.__all__, name
