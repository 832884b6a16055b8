"""Training wrappers: loss cells, one-step train cells (also with loss scaling), eval cells."""
from ._cells import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from ._grad_cells import ForwardValueAndGrad, GradAccumulationCell, MicroBatchInterleaved, PipelineCell
from ._loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, TrainOneStepWithLossScaleCell, all_finite
from ._param_update import ParameterUpdate

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "ForwardValueAndGrad", "GradAccumulationCell",
           "MicroBatchInterleaved", "PipelineCell", "ParameterUpdate"]
