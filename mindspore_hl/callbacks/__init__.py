"""Training callbacks (``mindspore.train`` callbacks): hooks called by ``Model`` at each stage of train / eval."""
from ._backup import BackupAndRestore, OnRequestExit
from ._callback import Callback, CallbackManager, CallbackParam, RunContext
from ._checkpoint import CheckpointConfig, ModelCheckpoint
from ._fault_tolerance import TrainFaultTolerance
from ._flops import FlopsUtilizationCollector
from ._lr import EarlyStopping, LearningRateScheduler, ReduceLROnPlateau
from ._monitors import History, LambdaCallback, LossMonitor, TerminateOnNaN, TimeMonitor
from ._progress import ProgressBar
from ._summary_collector import SummaryCollector

__all__ = ["Callback", "RunContext", "CallbackParam", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
           "CheckpointConfig", "SummaryCollector", "EarlyStopping", "ReduceLROnPlateau", "LearningRateScheduler",
           "LambdaCallback", "History", "TerminateOnNaN", "BackupAndRestore", "OnRequestExit", "ProgressBar",
           "FlopsUtilizationCollector", "TrainFaultTolerance"]

# MindSpore's private names, used by code written against mindspore.train.callback
_InternalCallbackParam = CallbackParam
_CallbackManager = CallbackManager
