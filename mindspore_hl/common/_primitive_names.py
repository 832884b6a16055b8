"""The MindSpore primitive name of each of this package's functional ops (``"conv2d"`` -> ``"Conv2D"``).

Tools that show or write a network op by op in MindSpore's terms (the dump files of ``MINDSPORE_DUMP_CONFIG``)
name an op after the primitive MindSpore runs for it. Ops not listed take the CamelCase of their name
(``"bias_add"`` -> ``"BiasAdd"``), which is MindSpore's own naming rule for most primitives.

>>> primitive_name("conv2d"), primitive_name("relu"), primitive_name("bias_add")
('Conv2D', 'ReLU', 'BiasAdd')
"""
from __future__ import annotations

import functools

__all__ = ["PRIMITIVE_NAMES", "primitive_name"]

# Only the names that differ from the CamelCase rule (or where the op is one MindSpore primitive of another name).
PRIMITIVE_NAMES: dict[str, str] = {
    "conv1d": "Conv1D", "conv2d": "Conv2D", "conv3d": "Conv3D", "conv_transpose2d": "Conv2DTranspose",
    "conv2d_transpose": "Conv2DTranspose", "relu": "ReLU", "relu6": "ReLU6", "gelu": "GeLU", "silu": "SiLU",
    "elu": "Elu", "leaky_relu": "LeakyReLU", "prelu": "PReLU", "selu": "SeLU", "hardswish": "HSwish",
    "hardsigmoid": "HSigmoid", "matmul": "MatMul", "bmm": "BatchMatMul", "batch_matmul": "BatchMatMul",
    "max_pool2d": "MaxPool", "avg_pool2d": "AvgPool", "max_pool3d": "MaxPool3D", "avg_pool3d": "AvgPool3D",
    "adaptive_avg_pool2d": "AdaptiveAvgPool2D", "mean": "ReduceMean", "sum": "ReduceSum", "prod": "ReduceProd",
    "amax": "ReduceMax", "amin": "ReduceMin", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
    "argmax": "Argmax", "argmin": "Argmin", "div": "Div", "true_divide": "RealDiv", "concat": "Concat",
    "cat": "Concat", "gather": "Gather", "log_softmax": "LogSoftmax", "nll_loss": "NLLLoss",
    "softmax_cross_entropy_with_logits": "SoftmaxCrossEntropyWithLogits",
    "sparse_softmax_cross_entropy_with_logits": "SparseSoftmaxCrossEntropyWithLogits",
    "binary_cross_entropy": "BinaryCrossEntropy", "l2_normalize": "L2Normalize", "one_hot": "OneHot",
    "isnan": "IsNan", "isinf": "IsInf", "isfinite": "IsFinite", "addn": "AddN", "floor_div": "FloorDiv",
    "floor_mod": "FloorMod", "fmod": "Mod", "dropout": "Dropout", "sigmoid_cross_entropy_with_logits":
        "SigmoidCrossEntropyWithLogits", "layer_norm": "LayerNorm", "batch_norm": "BatchNorm",
    "group_norm": "GroupNorm", "resize_bilinear": "ResizeBilinearV2", "resize_nearest_neighbor":
        "ResizeNearestNeighbor", "lrn": "LRN", "ctc_loss": "CTCLoss", "topk": "TopK", "nonzero": "NonZero",
}


@functools.lru_cache(maxsize=None)
def primitive_name(op_name: str) -> str:
    """The MindSpore primitive name for the functional op ``op_name``."""
    known = PRIMITIVE_NAMES.get(op_name)
    if known is not None:
        return known
    return "".join(part[:1].upper() + part[1:] for part in op_name.split("_") if part) or op_name
