"""The layer/loss cases recorded from real MindSpore by tools/oracle/record_nn.py and replayed by
test_oracle_layers.py. Plain data and NumPy only: both interpreters import this file.

A case: ``id``, ``cls`` (the nn name), JSON ``kwargs``, ``inputs`` as ``[name, shape, kind]`` (kind: ``n``
standard normal, ``u`` uniform in (0.05, 0.95), ``pos`` uniform in (0.5, 2), ``i<k>`` int32 in [0, k), ``l<k>``
int64 in [0, k), ``pm1`` +-1 floats, ``oh<k>`` one-hot rows of k classes; a name starting ``nograd`` gets no
input gradient), ``seed``; optional ``train`` (record in training mode, and the non-trainable Parameters
after the call) and ``grad`` (False: outputs only).
"""
import numpy as np


def decode(kwargs, ms):
    """JSON kwargs -> constructor kwargs: {"__dtype": "float16"} becomes that MindSpore dtype."""
    out = {}
    for k, v in kwargs.items():
        if isinstance(v, dict) and "__dtype" in v:
            v = getattr(ms, v["__dtype"])
        elif isinstance(v, list):
            v = tuple(v)
        out[k] = v
    return out


def param_value(rng, name, shape, case):
    """The seeded value a case gives Parameter ``name`` (variances stay positive)."""
    if "variance" in name:
        return rng.uniform(0.5, 1.5, shape).astype(np.float32)
    return (0.5 * rng.standard_normal(shape)).astype(np.float32)


def make_inputs(rng, case):
    inputs = {}
    for name, shape, kind in case["inputs"]:
        if kind == "const":
            inputs[name] = np.asarray(shape, np.int32)
            continue
        shape = tuple(shape)
        if kind == "n":
            v = rng.standard_normal(shape).astype(np.float32)
        elif kind == "u":
            v = rng.uniform(0.05, 0.95, shape).astype(np.float32)
        elif kind == "pos":
            v = rng.uniform(0.5, 2.0, shape).astype(np.float32)
        elif kind == "pm1":
            v = np.where(rng.random(shape) < 0.5, -1.0, 1.0).astype(np.float32)
        elif kind == "kinks6":  # ReLU/ReLU6's kinks exactly, where their gradients are a convention
            v = rng.choice(np.array([-1.0, 0.0, 2.5, 6.0, 7.5], np.float32), shape)
        elif kind.startswith("oh"):
            k = int(kind[2:])
            v = np.eye(k, dtype=np.float32)[rng.integers(0, k, shape[:-1])]
        elif kind == "logsm":
            z = rng.standard_normal(shape)
            v = (z - np.log(np.exp(z).sum(-1, keepdims=True))).astype(np.float32)
        elif kind[0] == "t":
            v = rng.integers(1, int(kind[1:]), shape).astype(np.int32)
        elif kind[0] == "c":
            v = np.asarray(shape, np.int32)
            inputs[name] = v
            continue
        elif kind[0] in "il":
            v = rng.integers(0, int(kind[1:]), shape).astype(np.int32 if kind[0] == "i" else np.int64)
        else:
            raise ValueError(kind)
        inputs[name] = v
    return inputs


def _c(cls, inputs, kwargs=None, tag="", seed=0, **extra):
    return dict(id=f"{cls}/{tag or 'default'}", cls=cls, kwargs=kwargs or {}, inputs=inputs, seed=seed, **extra)


X4 = [["x", [2, 3, 4, 5], "n"]]
X3 = [["x", [2, 3, 5], "n"]]
X5 = [["x", [1, 2, 3, 4, 5], "n"]]

CASES = [
    # activations
    _c("ELU", X4), _c("CELU", X4, {"alpha": 2.0}),
    _c("SeLU", X4, grad=False),  # MindSpore 2.10 CPU's SeLU gradient is wrong for x < 0
    _c("ReLU6", [["x", [2, 3, 4, 5], "kinks6"]], tag="kinks"), _c("ReLU", [["x", [2, 3, 4, 5], "kinks6"]], tag="kinks"),
    _c("HSwish", [["x", [2, 3, 4], "n"]]), _c("HSigmoid", X4), _c("Mish", X4),
    _c("Softsign", X4), _c("Hardtanh", X4, {"min_val": -0.5, "max_val": 0.7}), _c("LogSigmoid", X4),
    _c("HShrink", X4, {"lambd": 0.3}), _c("SoftShrink", X4, {"lambd": 0.3}), _c("Tanhshrink", X4),
    _c("Threshold", X4, {"threshold": 0.1, "value": 20.0}), _c("Softmin", X4, {"axis": 1}),
    _c("Softmax2d", X4), _c("GLU", [["x", [2, 6, 4], "n"]], {"axis": 1}), _c("FastGelu", X4),
    _c("PReLU", X4, {"channel": 3}), _c("PReLU", X4, {}, "shared"),
    # shapes and padding
    _c("ConstantPad1d", X3, {"padding": [1, 2], "value": 0.5}), _c("ConstantPad2d", X4, {"padding": [1, 0, 2, -1],
                                                                                          "value": -1.0}),
    _c("ConstantPad3d", X5, {"padding": 1, "value": 2.0}),
    _c("ReflectionPad1d", X3, {"padding": [2, 1]}), _c("ReflectionPad2d", X4, {"padding": [1, 2, 2, 1]}),
    _c("ReflectionPad3d", X5, {"padding": 1}), _c("ReplicationPad1d", X3, {"padding": [2, 3]}),
    _c("ReplicationPad2d", X4, {"padding": [1, 2, 3, 0]}), _c("ReplicationPad3d", X5, {"padding": [1, 0, 0, 1, 2, 1]}),
    _c("ZeroPad2d", X4, {"padding": [1, 1, 2, 0]}),
    _c("PixelShuffle", [["x", [2, 8, 3, 3], "n"]], {"upscale_factor": 2}),
    _c("PixelUnshuffle", [["x", [2, 2, 4, 6], "n"]], {"downscale_factor": 2}),
    _c("ChannelShuffle", [["x", [2, 6, 2, 2], "n"]], {"groups": 3}),
    _c("Upsample", [["x", [1, 2, 3, 4], "n"]], {"size": [5, 9]}, "nearest"),
    _c("Upsample", [["x", [1, 2, 3, 4], "n"]], {"size": [5, 7], "mode": "bilinear", "align_corners": True},
       "bilinear_ac"),
    _c("Upsample", [["x", [1, 2, 3, 4], "n"]], {"size": [6, 8], "mode": "bilinear", "align_corners": False},
       "bilinear"),
    _c("Upsample", [["x", [1, 2, 5], "n"]], {"size": 8, "mode": "linear"}, "linear"),
    _c("Upsample", [["x", [1, 1, 2, 3, 2], "n"]], {"scale_factor": [2.0, 2.0, 2.0], "mode": "trilinear"},
       "trilinear"),
    _c("Unflatten", [["x", [2, 12, 3], "n"]], {"axis": 1, "unflattened_size": [3, 4]}),
    _c("Tril", [["x", [3, 4, 4], "n"]]), _c("Triu", [["x", [3, 4, 4], "n"]]),
    _c("CentralCrop", [["x", [2, 3, 8, 8], "n"]], {"central_fraction": 0.5}),
    # convolutions
    _c("Conv3d", [["x", [1, 2, 4, 5, 5], "n"]], {"in_channels": 2, "out_channels": 3, "kernel_size": 3}, "same"),
    _c("Conv3d", [["x", [1, 2, 4, 5, 5], "n"]], {"in_channels": 2, "out_channels": 4, "kernel_size": [2, 3, 2],
                                                 "stride": 2, "pad_mode": "pad", "padding": [1, 0, 1, 1, 0, 1],
                                                 "has_bias": True, "group": 2}, "pad_group"),
    _c("Conv3d", [["x", [1, 2, 5, 5, 5], "n"]], {"in_channels": 2, "out_channels": 2, "kernel_size": 2,
                                                 "pad_mode": "valid", "dilation": 2}, "valid_dilated"),
    _c("Conv1dTranspose", X3, {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "stride": 2}, "same"),
    _c("Conv1dTranspose", X3, {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "stride": 2,
                               "pad_mode": "pad", "padding": 1, "has_bias": True}, "pad"),
    _c("Conv1dTranspose", X3, {"in_channels": 3, "out_channels": 2, "kernel_size": 2, "pad_mode": "valid",
                               "dilation": 2}, "valid"),
    _c("Conv3dTranspose", [["x", [1, 2, 3, 3, 2], "n"]], {"in_channels": 2, "out_channels": 3, "kernel_size": 2,
                                                          "stride": 2}, "same"),
    _c("Conv3dTranspose", [["x", [1, 2, 3, 3, 2], "n"]], {"in_channels": 2, "out_channels": 2, "kernel_size": 3,
                                                          "stride": 2, "pad_mode": "pad", "padding": 1,
                                                          "output_padding": 1, "has_bias": True}, "pad"),
    # pooling
    _c("MaxPool1d", X3, {"kernel_size": 2, "stride": 2}),
    _c("MaxPool1d", [["x", [2, 3, 7], "n"]], {"kernel_size": 3, "stride": 2, "pad_mode": "same"}, "same"),
    _c("MaxPool1d", [["x", [2, 3, 8], "n"]], {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                              "ceil_mode": True, "return_indices": True}, "pad_ceil_indices"),
    _c("AvgPool1d", [["x", [2, 3, 7], "n"]], {"kernel_size": 3, "stride": 2}),
    _c("AvgPool1d", [["x", [2, 3, 8], "n"]], {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                              "count_include_pad": False, "ceil_mode": True}, "pad_exclude"),
    _c("AvgPool1d", [["x", [2, 3, 7], "n"]], {"kernel_size": 2, "stride": 2, "pad_mode": "same"}, "same"),
    _c("MaxPool3d", [["x", [1, 2, 4, 5, 4], "n"]], {"kernel_size": 2, "stride": 2}),
    _c("MaxPool3d", [["x", [1, 2, 4, 5, 4], "n"]], {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                                    "return_indices": True}, "pad_indices"),
    _c("AvgPool3d", [["x", [1, 2, 4, 5, 4], "n"]], {"kernel_size": 2, "stride": 2}),
    _c("AvgPool3d", [["x", [1, 2, 4, 5, 4], "n"]], {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1,
                                                    "count_include_pad": False}, "pad_exclude"),
    _c("AvgPool3d", [["x", [1, 2, 4, 5, 4], "n"]], {"kernel_size": 2, "divisor_override": 3}, "divisor"),
    _c("AdaptiveAvgPool1d", [["x", [2, 3, 6], "n"]], {"output_size": 3}),
    _c("AdaptiveAvgPool3d", [["x", [1, 2, 5, 4, 6], "n"]], {"output_size": [2, 3, 4]}),
    _c("AdaptiveMaxPool1d", [["x", [2, 3, 6], "n"]], {"output_size": 3}),
    _c("AdaptiveMaxPool2d", [["x", [2, 3, 5, 7], "n"]], {"output_size": [2, 3]}),
    _c("AdaptiveMaxPool2d", [["x", [2, 3, 5, 7], "n"]], {"output_size": [3, None], "return_indices": True},
       "indices"),
    _c("AdaptiveMaxPool3d", [["x", [1, 2, 5, 4, 6], "n"]], {"output_size": [2, 3, 4]}),
    _c("LPPool1d", [["x", [2, 3, 7], "pos"]], {"norm_type": 2, "kernel_size": 3, "stride": 2}),
    _c("LPPool2d", [["x", [2, 3, 5, 6], "pos"]], {"norm_type": 3, "kernel_size": 2}),
    # normalisation
    _c("BatchNorm3d", X5, {"num_features": 2}), _c("BatchNorm3d", X5, {"num_features": 2}, "train", train=True),
    _c("SyncBatchNorm", X4, {"num_features": 3}), _c("SyncBatchNorm", X4, {"num_features": 3}, "train", train=True),
    _c("LRN", [["x", [2, 6, 3, 3], "n"]], {"depth_radius": 2, "bias": 2.0, "alpha": 0.1, "beta": 0.75}),
    # small computational layers
    _c("Linear", [["x", [2, 3, 4], "n"]], {"in_features": 4, "out_features": 5}),
    _c("BiDense", [["x1", [2, 3], "n"], ["x2", [2, 4], "n"]], {"in1_channels": 3, "in2_channels": 4,
                                                                "out_channels": 5}),
    _c("OneHot", [["i", [2, 3], "i4"]], {"depth": 4, "on_value": 2.0, "off_value": -1.0}),
    _c("OneHot", [["i", [2, 3], "i4"]], {"depth": 4, "axis": 0}, "axis0"),
    _c("Norm", X4, {"axis": [1, 2]}), _c("Norm", X4, {"axis": 3, "keep_dims": True}, "keep"),
    _c("MatMul", [["a", [2, 3, 4], "n"], ["b", [4, 5], "n"]]),
    _c("MatMul", [["a", [2, 4, 3], "n"], ["b", [2, 5, 4], "n"]], {"transpose_x1": True, "transpose_x2": True}, "tt"),
    _c("Moments", X4, {"axis": [2, 3], "keep_dims": True}), _c("Moments", X4, {"axis": 1}, "axis1"),
    _c("ReduceLogSumExp", X4, {"axis": [1, 3]}), _c("L1Regularizer", X4, {"scale": 0.5}),
    # (MindSpore returns a sparse table gradient; its max_norm rows come out with norms != max_norm, not kept)
    _c("EmbeddingLookup", [["i", [2, 3], "i10"]], {"vocab_size": 10, "embedding_size": 4}, grad=False),
    # losses
    _c("MAELoss", [["x", [2, 3], "n"], ["y", [2, 3], "n"]]), _c("MAELoss", X4 + [["y", [2, 3, 4, 5], "n"]],
                                                                {"reduction": "none"}, "none"),
    _c("RMSELoss", [["x", [2, 3], "n"], ["y", [2, 3], "n"]]),
    _c("MarginRankingLoss", [["a", [6], "n"], ["b", [6], "n"], ["nogradY", [6], "pm1"]], {"margin": 0.3}),
    _c("HingeEmbeddingLoss", [["x", [2, 5], "n"], ["nogradY", [2, 5], "pm1"]], {"margin": 0.5, "reduction": "sum"}),
    _c("CosineEmbeddingLoss", [["a", [4, 3], "n"], ["b", [4, 3], "n"], ["nogradY", [4], "pm1"]], {"margin": 0.2}),
    _c("MultiMarginLoss", [["x", [4, 5], "n"], ["t", [4], "l5"]]),
    _c("MultiMarginLoss", [["x", [4, 5], "n"], ["t", [4], "l5"], ["nogradW", [5], "pos"]], {"p": 2, "margin": 0.5},
       "p2_weight"),
    _c("MultiLabelSoftMarginLoss", [["x", [3, 4], "n"], ["nogradY", [3, 4], "oh4"]]),
    _c("PoissonNLLLoss", [["x", [2, 5], "n"], ["y", [2, 5], "pos"]]),
    _c("PoissonNLLLoss", [["x", [2, 5], "pos"], ["y", [2, 5], "pos"]], {"log_input": False, "full": True,
                                                                        "reduction": "sum"}, "full"),
    _c("GaussianNLLLoss", [["x", [3, 4], "n"], ["y", [3, 4], "n"], ["v", [3, 4], "pos"]]),
    _c("GaussianNLLLoss", [["x", [3, 4], "n"], ["y", [3, 4], "n"], ["v", [3], "pos"]], {"full": True,
                                                                                       "reduction": "none"}, "full"),
    _c("DiceLoss", [["x", [3, 4], "u"], ["nogradY", [3, 4], "oh4"]]),
    _c("MultiClassDiceLoss", [["x", [3, 4], "n"], ["nogradY", [3, 4], "oh4"]]),
    _c("MultiClassDiceLoss", [["x", [3, 4], "n"], ["nogradY", [3, 4], "oh4"]], {"ignore_indiex": 1,
                                                                          "activation": "sigmoid"}, "ignore"),
    _c("FocalLoss", [["x", [3, 4], "n"], ["nogradY", [3, 4], "oh4"]]),
    _c("FocalLoss", [["x", [2, 3, 4], "n"], ["y", [2, 1, 4], "i3"]], {"gamma": 1.5, "reduction": "sum"}, "index"),
    _c("CTCLoss", [["lp", [6, 2, 4], "logsm"], ["t", [2, 3], "t4"], ["il", [6, 5], "const"],
                   ["tl", [3, 2], "const"]]),
    _c("CTCLoss", [["lp", [6, 2, 4], "logsm"], ["t", [2, 3], "t4"], ["il", [6, 4], "const"],
                   ["tl", [3, 1], "const"]], {"reduction": "none"}, "none"),
    # Transformer blocks (dropout 0: deterministic)
    _c("TransformerEncoderLayer", [["x", [3, 2, 8], "n"]], {"d_model": 8, "nhead": 2, "dim_feedforward": 16,
                                                            "dropout": 0.0}),
    _c("TransformerEncoderLayer", [["x", [2, 3, 8], "n"]], {"d_model": 8, "nhead": 2, "dim_feedforward": 16,
                                                            "dropout": 0.0, "activation": "gelu", "norm_first": True,
                                                            "batch_first": True}, "gelu_prenorm"),
    _c("TransformerDecoderLayer", [["t", [3, 2, 8], "n"], ["m", [4, 2, 8], "n"]],
       {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "dropout": 0.0}),
    _c("Transformer", [["s", [4, 2, 8], "n"], ["t", [3, 2, 8], "n"]],
       {"d_model": 8, "nhead": 2, "num_encoder_layers": 2, "num_decoder_layers": 1, "dim_feedforward": 16,
        "dropout": 0.0}),
    # mint.nn (PyTorch-style arguments)
    *[dict(c, mod="mint.nn") for c in [
        _c("Linear", [["x", [2, 4], "n"]], {"in_features": 4, "out_features": 3}),
        _c("ELU", X4, {"alpha": 0.5}), _c("GELU", X4, {"approximate": "tanh"}), _c("SELU", X4, grad=False),
        _c("Mish", X4), _c("Hardshrink", X4, {"lambd": 0.4}), _c("Hardsigmoid", X4), _c("Hardswish", X4),
        _c("Hardtanh", X4, {"min_val": -0.3, "max_val": 0.6}), _c("LogSigmoid", X4),
        _c("Threshold", X4, {"threshold": 0.2, "value": -1.0}), _c("PReLU", X4, {"num_parameters": 3, "init": 0.1}),
        _c("Softmax", X3), _c("Softmax", X4, {"dim": -1}, "dim"), _c("LogSoftmax", X4),
        _c("Conv1d", X3, {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "padding": 1}),
        _c("Conv2d", X4, {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "stride": 2, "padding": 1}),
        _c("Conv2d", X4, {"in_channels": 3, "out_channels": 3, "kernel_size": 3, "padding": "same", "groups": 3,
                          "bias": False, "padding_mode": "reflect"}, "same_reflect"),
        _c("Conv3d", X5, {"in_channels": 2, "out_channels": 2, "kernel_size": 2, "padding": [1, 0, 1]}),
        _c("ConvTranspose2d", X4, {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "stride": 2,
                                   "padding": 1, "output_padding": 1}),
        _c("BatchNorm1d", [["x", [4, 3], "n"]], {"num_features": 3}, "train", train=True),
        _c("BatchNorm2d", X4, {"num_features": 3}), _c("BatchNorm2d", X4, {"num_features": 3}, "train", train=True),
        _c("BatchNorm3d", X5, {"num_features": 2, "momentum": 0.3}, "train", train=True),
        _c("GroupNorm", X4, {"num_groups": 1, "num_channels": 3}),
        _c("AvgPool1d", [["x", [2, 3, 7], "n"]], {"kernel_size": 3, "stride": 2, "padding": 1}),
        _c("AvgPool2d", [["x", [2, 3, 5, 5], "n"]], {"kernel_size": 3, "stride": 2, "padding": 1,
                                                     "count_include_pad": False, "ceil_mode": True}),
        _c("AvgPool3d", [["x", [1, 2, 4, 4, 4], "n"]], {"kernel_size": 2}),
        _c("AdaptiveAvgPool1d", [["x", [2, 3, 7], "n"]], {"output_size": 3}),
        _c("AdaptiveAvgPool2d", [["x", [2, 3, 5, 7], "n"]], {"output_size": [2, 3]}),
        _c("AdaptiveAvgPool3d", [["x", [1, 2, 5, 4, 6], "n"]], {"output_size": 2}),
        _c("AdaptiveMaxPool1d", [["x", [2, 3, 7], "n"]], {"output_size": 3}),
        _c("AdaptiveMaxPool2d", [["x", [2, 3, 5, 7], "n"]], {"output_size": [2, 3], "return_indices": True}),
        _c("ZeroPad1d", X3, {"padding": [1, 2]}), _c("ZeroPad3d", X5, {"padding": 1}),
        _c("ReflectionPad2d", X4, {"padding": 1}), _c("ConstantPad2d", X4, {"padding": 1, "value": 3.0}),
        _c("UpsamplingBilinear2d", [["x", [1, 2, 3, 4], "n"]], {"scale_factor": 2.0}),
        _c("UpsamplingNearest2d", [["x", [1, 2, 3, 4], "n"]], {"size": [5, 7]}),
        _c("Upsample", [["x", [1, 2, 3, 4], "n"]], {"size": [6, 8], "mode": "bilinear"}),
        _c("PixelShuffle", [["x", [2, 8, 3, 3], "n"]], {"upscale_factor": 2}),
        _c("BCEWithLogitsLoss", [["x", [3, 4], "n"], ["nogradY", [3, 4], "u"]]),
        _c("BCELoss", [["x", [3, 4], "u"], ["nogradY", [3, 4], "u"]], {"reduction": "sum"}),
        _c("KLDivLoss", [["x", [3, 4], "logsm"], ["y", [3, 4], "u"]], {"reduction": "batchmean"}),
        _c("KLDivLoss", [["x", [3, 4], "logsm"], ["y", [3, 4], "logsm"]], {"log_target": True}, "log_target"),
        _c("L1Loss", [["x", [3, 4], "n"], ["y", [3, 4], "n"]]), _c("MSELoss", [["x", [3, 4], "n"], ["y", [3, 4], "n"]]),
        _c("SmoothL1Loss", [["x", [3, 4], "n"], ["y", [3, 4], "n"]], {"beta": 0.5}),
        _c("CosineEmbeddingLoss", [["a", [4, 3], "n"], ["b", [4, 3], "n"], ["nogradY", [4], "pm1"]]),
        _c("Flatten", X4), _c("Identity", X3), _c("SiLU", X3), _c("ReLU6", X3),
    ]],
]
