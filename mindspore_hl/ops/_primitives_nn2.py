"""Primitive classes of the neural-network / image ops (3-D pools and convolutions, unpooling, sampling grids,
crops, box coding, block rearrangements, resizing, colour, losses), each a thin front of one functional op.

A Primitive's constructor takes MindSpore 2.10's attribute names and defaults; calling it maps the attributes
and inputs onto the functional op: ``ops.AdaptiveMaxPool2D((2, 2))(x)`` is
``ops.adaptive_max_pool2d(x, (2, 2), return_indices=True)``.
"""
import inspect
from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._core import check
from ._nn_conv import pair, resolve_pads, same_pads
from ._nn_image_ops import (
    adjust_hue,
    adjust_saturation,
    data_format_dim_map,
    data_format_vec_permute,
    depth_to_space,
    embedding_lookup,
    extract_volume_patches,
    hsv_to_rgb,
    nll_loss_with_weight,
    nms_with_mask,
    rgb_to_hsv,
    roi_align,
    space_to_depth,
)
from ._nn_resize import (
    resize_area,
    resize_bicubic,
    resize_bilinear,
    resize_linear_1d,
    resize_nearest,
    upsample_nearest_3d,
    upsample_trilinear_3d,
)
from ._nn_volume import conv_transpose_to
from ._primitives import primitive_class
from ._registry import lookup

_REQUIRED = inspect.Parameter.empty


def _tail(v, n, name, what):
    """An int or tuple argument given as n values or as 2 + n (N, C first, as several Primitives accept)."""
    if isinstance(v, int):
        return (v,) * n
    v = tuple(int(i) for i in v)
    if len(v) == n + 2:
        v = v[2:]
    return pair(v, name, what, n)


def _prim(name, args, call, doc):
    """A Primitive class ``name`` with constructor ``args`` ((name, default), ...) calling ``call(p, *inputs)``."""
    return primitive_class(name, args, call, doc, __name__)


def _host_tuple(v):
    return tuple(int(i) for i in np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v).reshape(-1))


def _argmax_cast(out, dtype):
    y, idx = out
    return y, lookup("cast")(idx, dtype)


def _pool3d_pads(p, x, kernel, stride, pads, mode, dilation=(1, 1, 1)):
    mode = str(mode).lower()
    check(mode in ("same", "valid", "pad"), p.name, f"'pad_mode' must be 'same', 'valid' or 'pad', but got {mode!r}.")
    if mode == "same":
        return tuple(same_pads(x.shape[2 + i], kernel[i], stride[i], dilation[i]) for i in range(3))
    return (0,) * 3 if mode == "valid" else pads


def _flat_pads(pads):
    """((lo, hi),) * 3 -> the 6-int form the functional 3-D pools take."""
    return tuple(v for lo_hi in pads for v in lo_hi) if isinstance(pads, tuple) and isinstance(pads[0], tuple) \
        else pads


def _avg_pool3d(p, x):
    kernel, stride = _tail(p.kernel_size, 3, p.name, "kernel_size"), _tail(p.strides, 3, p.name, "strides")
    pads = _pool3d_pads(p, x, kernel, stride, p.pad, p.pad_mode)
    return lookup("avg_pool3d")(x, kernel, stride, _flat_pads(pads), p.ceil_mode, p.count_include_pad,
                                p.divisor_override)


def _max_pool3d(p, x):
    kernel, stride = _tail(p.kernel_size, 3, p.name, "kernel_size"), _tail(p.strides, 3, p.name, "strides")
    pads = _pool3d_pads(p, x, kernel, stride, p.pad_list, p.pad_mode)
    return lookup("max_pool3d")(x, kernel, stride, _flat_pads(pads), 1, bool(p.ceil_mode))


def _conv2d_backprop_input(p, dout, weight, input_size):
    """The gradient of conv2d w.r.t. its input: a transposed convolution to ``input_size`` (N, C, H, W)."""
    size = _host_tuple(input_size)
    kernel = tuple(weight.shape[2:])
    stride, dilation = _tail(p.stride, 2, p.name, "stride"), _tail(p.dilation, 2, p.name, "dilation")
    pads = resolve_pads(p.name, p.pad_mode, p.pad if p.pad_list is None else p.pad_list, size[2:], kernel, stride,
                        dilation)
    return conv_transpose_to(dout, weight, stride, pads, dilation, p.group, size[2:])


def _im2col(p, x):
    """Im2Col: unfold's blocks as (N, C, kh * kw, L)."""
    cols = lookup("unfold")(x, p.ksizes, p.dilations, p.pads, p.strides)
    return cols.reshape(x.shape[0], x.shape[1], -1, cols.shape[-1])


_PADV3_MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "circular": "circular"}


def _pad_v3(p, x, paddings, value=None):
    """PadV3: ops.pad's (last dim first) pairs; ``paddings_contiguous=False`` lists all begins, then all ends."""
    check(p.mode in _PADV3_MODES, p.name, f"'mode' must be one of {sorted(_PADV3_MODES)}, but got {p.mode!r}.")
    pads = _host_tuple(paddings)
    if not p.paddings_contiguous:
        half = len(pads) // 2
        pads = tuple(v for i in range(half) for v in (pads[i], pads[half + i]))
    if p.mode != "constant":
        return lookup("pad")(x, pads, _PADV3_MODES[p.mode])
    return lookup("pad")(x, pads, "constant", None if value is None else float(np.asarray(
        value.asnumpy() if hasattr(value, "asnumpy") else value)))


def _only_none(p):
    check(p.reduction == "none", p.name, f"'reduction' must be 'none' (MindSpore 2.10's CTCLossV2), but got "
          f"{p.reduction!r}.")
    return "none"


def _max_pool_with_argmax(p, x):
    """MaxPoolWithArgmax: max_pool2d with int32 indices flat over each sample's (C, H, W) (c * H * W + h * W + w,
    as MindSpore's CPU kernel gives); 'same' / 'valid' padding."""
    y, idx = lookup("max_pool2d")(x, _tail(p.kernel_size, 2, p.name, "kernel_size"),
                                  _tail(p.strides, 2, p.name, "strides"), 0, 1, True, pad_mode=p.pad_mode.lower(),
                                  data_format=p.data_format)
    c_axis, hw = (1, x.shape[2] * x.shape[3]) if p.data_format == "NCHW" else (3, x.shape[1] * x.shape[2])
    shape = [1, 1, 1, 1]
    shape[c_axis] = x.shape[c_axis]
    offset = Tensor(np.arange(x.shape[c_axis], dtype=np.int64).reshape(shape) * hw)
    return y, lookup("cast")(lookup("add")(idx, offset), mstype.int32)

# (name, [(constructor argument, default)], body(prim, *inputs), functional op): the bodies take different
# inputs, so they are typed loosely.
_SPECS: list[tuple[Any, ...]] = [
    ("AdaptiveAvgPool2D", [("output_size", _REQUIRED)],
     lambda p, x: lookup("adaptive_avg_pool2d")(x, p.output_size), "adaptive_avg_pool2d"),
    ("AdaptiveAvgPool3D", [("output_size", _REQUIRED)],
     lambda p, x: lookup("adaptive_avg_pool3d")(x, p.output_size), "adaptive_avg_pool3d"),
    ("AdaptiveMaxPool2D", [("output_size", _REQUIRED)],
     lambda p, x: lookup("adaptive_max_pool2d")(x, p.output_size, True), "adaptive_max_pool2d (with indices)"),
    ("AdaptiveMaxPool3D", [],
     lambda p, x, output_size: lookup("adaptive_max_pool3d")(x, _host_tuple(output_size), True),
     "adaptive_max_pool3d (output_size an input Tensor; with indices)"),
    ("AffineGrid", [("align_corners", False)],
     lambda p, theta, size: lookup("affine_grid")(theta, tuple(size), p.align_corners), "affine_grid"),
    ("AvgPool3D", [("kernel_size", 1), ("strides", 1), ("pad_mode", "valid"), ("pad", 0), ("ceil_mode", False),
                   ("count_include_pad", True), ("divisor_override", 0), ("data_format", "NCDHW")],
     _avg_pool3d, "avg_pool3d"),
    ("MaxPool3D", [("kernel_size", 1), ("strides", 1), ("pad_mode", "VALID"), ("pad_list", 0), ("ceil_mode", None),
                   ("data_format", "NCDHW")], _max_pool3d, "max_pool3d"),
    ("MaxPool3DWithArgmax", [("ksize", _REQUIRED), ("strides", _REQUIRED), ("pads", _REQUIRED),
                             ("dilation", (1, 1, 1)), ("ceil_mode", False), ("data_format", "NCDHW"),
                             ("argmax_type", mstype.int64)],
     lambda p, x: _argmax_cast(lookup("max_pool3d")(x, _tail(p.ksize, 3, p.name, "ksize"),
                                                    _tail(p.strides, 3, p.name, "strides"), p.pads,
                                                    _tail(p.dilation, 3, p.name, "dilation"), p.ceil_mode, True),
                               p.argmax_type), "max_pool3d (with indices)"),
    ("MaxPoolWithArgmax", [("kernel_size", 1), ("strides", 1), ("pad_mode", "valid"), ("data_format", "NCHW")],
     _max_pool_with_argmax, "max_pool2d (with indices)"),
    ("MaxPoolWithArgmaxV2", [("kernel_size", _REQUIRED), ("strides", None), ("pads", 0), ("dilation", (1, 1)),
                             ("ceil_mode", False), ("argmax_type", mstype.int64)],
     lambda p, x: _argmax_cast(lookup("max_pool2d")(
         x, _tail(p.kernel_size, 2, p.name, "kernel_size"),
         None if p.strides is None else _tail(p.strides, 2, p.name, "strides"), _tail(p.pads, 2, p.name, "pads"),
         _tail(p.dilation, 2, p.name, "dilation"), True, p.ceil_mode), p.argmax_type), "max_pool2d (with indices)"),
    ("MaxUnpool2D", [("ksize", _REQUIRED), ("strides", 0), ("pads", 0), ("output_shape", ()),
                     ("data_format", "NCHW")],
     lambda p, x, argmax: lookup("max_unpool2d")(x, argmax, _tail(p.ksize, 2, p.name, "ksize"),
                                                 _tail(p.strides, 2, p.name, "strides") if p.strides else None,
                                                 _tail(p.pads, 2, p.name, "pads"), p.output_shape or None),
     "max_unpool2d"),
    ("MaxUnpool3D", [("ksize", _REQUIRED), ("strides", 0), ("pads", 0), ("output_shape", ()),
                     ("data_format", "NCDHW")],
     lambda p, x, argmax: lookup("max_unpool3d")(x, argmax, _tail(p.ksize, 3, p.name, "ksize"),
                                                 _tail(p.strides, 3, p.name, "strides") if p.strides else None,
                                                 _tail(p.pads, 3, p.name, "pads"), p.output_shape or None),
     "max_unpool3d"),
    ("Conv3D", [("out_channel", _REQUIRED), ("kernel_size", _REQUIRED), ("mode", 1), ("pad_mode", "valid"),
                ("pad", 0), ("stride", 1), ("dilation", 1), ("group", 1), ("data_format", "NCDHW")],
     lambda p, x, w, bias=None: lookup("conv3d")(x, w, bias, _tail(p.stride, 3, p.name, "stride"), p.pad_mode,
                                                 p.pad, _tail(p.dilation, 3, p.name, "dilation"), p.group),
     "conv3d"),
    ("Conv3DTranspose", [("in_channel", _REQUIRED), ("out_channel", _REQUIRED), ("kernel_size", _REQUIRED),
                         ("mode", 1), ("pad_mode", "valid"), ("pad", 0), ("stride", 1), ("dilation", 1), ("group", 1),
                         ("output_padding", 0), ("data_format", "NCDHW")],
     lambda p, dout, w, bias=None: lookup("conv3d_transpose")(
         dout, w, p.pad_mode, p.pad, _tail(p.stride, 3, p.name, "stride"), _tail(p.dilation, 3, p.name, "dilation"),
         p.group, _tail(p.output_padding, 3, p.name, "output_padding")), "conv3d_transpose"),
] + [(n, [("out_channel", _REQUIRED), ("kernel_size", _REQUIRED), ("pad_mode", "valid"), ("pad", 0),
          ("pad_list", None), ("mode", 1), ("stride", 1), ("dilation", 1), ("group", 1), ("data_format", "NCHW")],
      _conv2d_backprop_input, "the input gradient of conv2d (a transposed convolution)")
     for n in ("Conv2DBackpropInput", "Conv2DTranspose")] + [
    ("Col2Im", [("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0), ("stride", 1)],
     lambda p, x, output_size: lookup("col2im")(x, output_size, p.kernel_size, p.dilation, p.padding, p.stride),
     "col2im"),
    ("GridSampler2D", [("interpolation_mode", "bilinear"), ("padding_mode", "zeros"), ("align_corners", False)],
     lambda p, x, grid: lookup("grid_sample")(x, grid, p.interpolation_mode, p.padding_mode, p.align_corners),
     "grid_sample (4-D)"),
    ("GridSampler3D", [("interpolation_mode", "bilinear"), ("padding_mode", "zeros"), ("align_corners", False)],
     lambda p, x, grid: lookup("grid_sample")(x, grid, p.interpolation_mode, p.padding_mode, p.align_corners),
     "grid_sample (5-D)"),
    ("BatchToSpace", [("block_size", _REQUIRED), ("crops", _REQUIRED)],
     lambda p, x: lookup("batch_to_space_nd")(x, [p.block_size] * 2, p.crops), "batch_to_space_nd (2 dims)"),
    ("BatchToSpaceND", [("block_shape", _REQUIRED), ("crops", _REQUIRED)],
     lambda p, x: lookup("batch_to_space_nd")(x, p.block_shape, p.crops), "batch_to_space_nd"),
    ("BatchToSpaceNDV2", [],
     lambda p, x, block_shape, crops: lookup("batch_to_space_nd")(x, block_shape, crops), "batch_to_space_nd"),
    ("SpaceToBatch", [("block_size", _REQUIRED), ("paddings", _REQUIRED)],
     lambda p, x: lookup("space_to_batch_nd")(x, [p.block_size] * 2, p.paddings), "space_to_batch_nd (2 dims)"),
    ("SpaceToBatchND", [("block_shape", _REQUIRED), ("paddings", _REQUIRED)],
     lambda p, x: lookup("space_to_batch_nd")(x, p.block_shape, p.paddings), "space_to_batch_nd"),
    ("MirrorPad", [("mode", "REFLECT")],
     lambda p, x, paddings: lookup("mirror_pad")(x, paddings, p.mode), "mirror_pad"),
    ("Padding", [("pad_dim_size", 8)], lambda p, x: lookup("padding")(x, p.pad_dim_size), "padding"),
    ("CropAndResize", [("method", "bilinear"), ("extrapolation_value", 0.0)],
     lambda p, x, boxes, box_index, crop_size: lookup("crop_and_resize")(
         x, boxes, box_index, tuple(crop_size), p.method, p.extrapolation_value), "crop_and_resize"),
    ("BoundingBoxDecode", [("max_shape", _REQUIRED), ("means", (0.0, 0.0, 0.0, 0.0)), ("stds", (1.0, 1.0, 1.0, 1.0)),
                           ("wh_ratio_clip", 0.016)],
     lambda p, anchor, deltas: lookup("bounding_box_decode")(anchor, deltas, p.max_shape, p.means, p.stds,
                                                             p.wh_ratio_clip), "bounding_box_decode"),
    ("BoundingBoxEncode", [("means", (0.0, 0.0, 0.0, 0.0)), ("stds", (1.0, 1.0, 1.0, 1.0))],
     lambda p, anchor, gt: lookup("bounding_box_encode")(anchor, gt, p.means, p.stds), "bounding_box_encode"),
    ("FastGelu", [], lambda p, x: lookup("fast_gelu")(x), "fast_gelu"),
    ("Gelu", [], lambda p, x: lookup("gelu")(x, "tanh"), "gelu (the tanh form, as MindSpore's Gelu Primitive)"),
    ("RmsNorm", [("epsilon", 1e-06)], lambda p, x, gamma: lookup("rms_norm")(x, gamma, p.epsilon), "rms_norm"),
    ("LogSoftmaxExt", [], lambda p, x, dim=None, dtype=None: lookup("log_softmax")(
        x if dtype is None else lookup("cast")(x, dtype), -1 if dim is None else dim), "log_softmax"),
    ("BCEWithLogitsLoss", [("reduction", "mean")],
     lambda p, logits, label, weight=None, pos_weight=None: lookup("binary_cross_entropy_with_logits")(
         logits, label, weight, pos_weight, p.reduction), "binary_cross_entropy_with_logits"),
    ("NLLLoss", [("reduction", "mean"), ("ignore_index", -100)],
     lambda p, logits, labels, weight: nll_loss_with_weight(logits, labels, weight, p.reduction, p.ignore_index),
     "nll_loss, with the total weight"),
    ("MultiMarginLoss", [("p", 1), ("margin", 1.0), ("reduction", "mean")],
     lambda p, x, target, weight=None: lookup("multi_margin_loss")(x, target, p.p, p.margin, weight, p.reduction),
     "multi_margin_loss"),
    ("CTCLossV2", [("blank", 0), ("reduction", "none"), ("zero_infinity", False)],
     lambda p, log_probs, targets, input_lengths, target_lengths: lookup("ctc_loss")(
         log_probs, targets, input_lengths, target_lengths, p.blank, _only_none(p), p.zero_infinity), "ctc_loss"),
    ("DepthToSpace", [("block_size", _REQUIRED)], lambda p, x: depth_to_space(x, p.block_size), "depth_to_space"),
    ("SpaceToDepth", [("block_size", _REQUIRED)], lambda p, x: space_to_depth(x, p.block_size), "space_to_depth"),
    ("HSVToRGB", [], lambda p, x: hsv_to_rgb(x), "hsv_to_rgb"),
    ("RGBToHSV", [], lambda p, x: rgb_to_hsv(x), "rgb_to_hsv"),
    ("AdjustHue", [], lambda p, image, delta: adjust_hue(image, delta), "adjust_hue"),
    ("AdjustSaturation", [], lambda p, image, scale: adjust_saturation(image, scale), "adjust_saturation"),
    ("EmbeddingLookup", [], lambda p, params, indices, offset: embedding_lookup(params, indices, offset),
     "embedding_lookup"),
    ("Im2Col", [("ksizes", _REQUIRED), ("strides", 1), ("dilations", 1), ("pads", 0)], _im2col, "unfold"),
    ("ExtractVolumePatches", [("kernel_size", _REQUIRED), ("strides", _REQUIRED), ("padding", _REQUIRED)],
     lambda p, x: extract_volume_patches(x, p.kernel_size, p.strides, p.padding), "extract_volume_patches"),
    ("PadV3", [("mode", "constant"), ("paddings_contiguous", True)], _pad_v3, "pad"),
    ("NMSWithMask", [("iou_threshold", 0.5)], lambda p, bboxes: nms_with_mask(bboxes, p.iou_threshold),
     "nms_with_mask"),
    ("ROIAlign", [("pooled_height", _REQUIRED), ("pooled_width", _REQUIRED), ("spatial_scale", _REQUIRED),
                  ("sample_num", 2), ("roi_end_mode", 1)],
     lambda p, features, rois: roi_align(features, rois, p.pooled_height, p.pooled_width, p.spatial_scale,
                                         p.sample_num, p.roi_end_mode), "roi_align"),
    ("ResizeArea", [("align_corners", False)],
     lambda p, images, size: resize_area(images, _host_tuple(size), p.align_corners), "resize_area"),
    ("ResizeBicubic", [("align_corners", False), ("half_pixel_centers", False)],
     lambda p, x, size: resize_bicubic(x, _host_tuple(size), p.align_corners, p.half_pixel_centers),
     "resize_bicubic"),
    ("ResizeBilinearV2", [("align_corners", False), ("half_pixel_centers", False)],
     lambda p, x, size: resize_bilinear(x, _host_tuple(size), p.align_corners, p.half_pixel_centers),
     "resize_bilinear"),
    ("ResizeNearestNeighbor", [("size", _REQUIRED), ("align_corners", False), ("half_pixel_centers", False)],
     lambda p, x: resize_nearest(x, tuple(p.size), p.align_corners, False), "resize_nearest"),
    ("ResizeNearestNeighborV2", [("align_corners", False), ("half_pixel_centers", False)],
     lambda p, x, size: resize_nearest(x, _host_tuple(size), p.align_corners, p.half_pixel_centers),
     "resize_nearest"),
    ("ResizeLinear1D", [("coordinate_transformation_mode", "align_corners")],
     lambda p, x, size: resize_linear_1d(x, _host_tuple(size), p.coordinate_transformation_mode),
     "resize_linear_1d"),
    ("UpsampleNearest3D", [],
     lambda p, x, output_size=None, scales=None: upsample_nearest_3d(x, output_size, scales), "upsample_nearest_3d"),
    ("UpsampleTrilinear3D", [("align_corners", False)],
     lambda p, x, output_size=None, scales=None: upsample_trilinear_3d(x, output_size, scales, p.align_corners),
     "upsample_trilinear_3d"),
    ("DataFormatDimMap", [("src_format", "NHWC"), ("dst_format", "NCHW")],
     lambda p, x: data_format_dim_map(x, p.src_format, p.dst_format), "data_format_dim_map"),
    ("DataFormatVecPermute", [("src_format", "NHWC"), ("dst_format", "NCHW")],
     lambda p, x: data_format_vec_permute(x, p.src_format, p.dst_format), "data_format_vec_permute"),
]

for _name, _args, _call, _what in _SPECS:
    globals()[_name] = _prim(_name, _args, _call, f"``ops.{_name}({', '.join(a for a, _ in _args)})(...)``: "
                                                  f"the Primitive form of {_what}.")

__all__ = sorted(name for name, *_ in _SPECS)
