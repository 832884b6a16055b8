"""Training wrappers: loss cells, one-step train cells (also with loss scaling), eval cells."""
from ._cells import WithLossCell, WithEvalCell, WithGradCell, TrainOneStepCell
from ._grad_cells import ForwardValueAndGrad, GradAccumulationCell, MicroBatchInterleaved, PipelineCell
from ._loss_scale import (TrainOneStepWithLossScaleCell, DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                          all_finite)

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "ForwardValueAndGrad", "GradAccumulationCell",
           "MicroBatchInterleaved", "PipelineCell"]
