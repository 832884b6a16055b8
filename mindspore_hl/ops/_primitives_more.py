"""More Primitive classes, each a thin front of one functional op found through the op table.

``ops.Sinh()(x)`` is ``ops.sinh(x)``; a Primitive's constructor arguments (MindSpore 2.10's names and
defaults) become keyword arguments of the op: ``ops.Cummax(axis=1)(x)`` is ``ops.cummax(x, axis=1)``.
"""
import inspect

from ._primitives import primitive_class
from ._registry import lookup

# (Primitive name, op name, ((constructor argument, default, op keyword or None to drop), ...))
_SPECS = [(n, op, ()) for n, op in [
    ("Acosh", "acosh"), ("Asin", "asin"), ("Asinh", "asinh"), ("Atan", "atan"), ("Atanh", "atanh"),
    ("Cosh", "cosh"), ("Sinh", "sinh"), ("Tan", "tan"), ("Sinc", "sinc"), ("Expm1", "expm1"), ("Erfc", "erfc"),
    ("Erfinv", "erfinv"), ("Trunc", "trunc"), ("Inv", "inv"), ("Invert", "invert"), ("Angle", "angle"),
    ("Conj", "conj"), ("Real", "real"), ("Imag", "imag"), ("Polar", "polar"), ("Addcdiv", "addcdiv"),
    ("Addcmul", "addcmul"), ("BitwiseAnd", "bitwise_and"), ("BitwiseOr", "bitwise_or"),
    ("BitwiseXor", "bitwise_xor"), ("LogicalXor", "logical_xor"), ("Fmax", "fmax"), ("Fmin", "fmin"),
    ("Gcd", "gcd"), ("Lcm", "lcm"), ("Heaviside", "heaviside"), ("Hypot", "hypot"), ("Lerp", "lerp"),
    ("Xdivy", "xdivy"), ("Xlogy", "xlogy"), ("TruncateDiv", "truncate_div"), ("TruncateMod", "truncate_mod"),
    ("PopulationCount", "population_count"), ("Mish", "mish"),
    ("Softsign", "softsign"), ("MaskedFill", "masked_fill"), ("MaskedSelect", "masked_select"),
    ("TensorScatterSub", "tensor_scatter_sub"), ("TensorScatterMul", "tensor_scatter_mul"),
    ("TensorScatterDiv", "tensor_scatter_div"), ("TensorScatterMax", "tensor_scatter_max"),
    ("TensorScatterMin", "tensor_scatter_min"), ("UnsortedSegmentMax", "unsorted_segment_max"),
    ("UnsortedSegmentMin", "unsorted_segment_min"), ("UnsortedSegmentProd", "unsorted_segment_prod"),
    ("Unique", "unique"), ("Diag", "diag"), ("Trace", "trace"), ("Fills", "fills"), ("Expand", "expand"),
    ("Ger", "ger"), ("Lgamma", "lgamma"), ("Digamma", "digamma"), ("Polygamma", "polygamma"),
    ("Igamma", "igamma"), ("Igammac", "igammac"), ("Zeta", "zeta"), ("BesselI0", "bessel_i0"),
    ("BesselI0e", "bessel_i0e"), ("BesselI1", "bessel_i1"), ("BesselI1e", "bessel_i1e"),
    ("BesselJ0", "bessel_j0"), ("BesselJ1", "bessel_j1"), ("BesselK0", "bessel_k0"), ("BesselK0e", "bessel_k0e"),
    ("BesselK1", "bessel_k1"), ("BesselK1e", "bessel_k1e"), ("BesselY0", "bessel_y0"), ("BesselY1", "bessel_y1"),
    ("MatrixDeterminant", "matrix_determinant"), ("LogMatrixDeterminant", "log_matrix_determinant"),
    ("MatrixExp", "matrix_exp"), ("MatrixBandPart", "matrix_band_part"), ("Geqrf", "geqrf"), ("Orgqr", "orgqr"),
    ("LuSolve", "lu_solve"), ("SeLU", "selu"), ("NanToNum", "nan_to_num"), ("ACos", "acos"),
    ("AccumulateNV2", "addn"), ("TensorAdd", "add"), ("Eps", "eps"), ("LeftShift", "bitwise_left_shift"),
    ("RightShift", "bitwise_right_shift"), ("NextAfter", "nextafter"), ("PReLU", "prelu"), ("Dense", "dense"),
    ("CheckValid", "check_valid"),
]] + [
    ("ApproximateEqual", "approximate_equal", (("tolerance", 1e-05, "tolerance"),)),
    ("Cummax", "cummax", (("axis", inspect.Parameter.empty, "axis"),)),
    ("Cummin", "cummin", (("axis", inspect.Parameter.empty, "axis"),)),
    ("GLU", "glu", (("axis", -1, "axis"),)),
    ("Pdist", "pdist", (("p", 2.0, "p"),)),
    ("Cdist", "cdist", (("p", 2.0, "p"),)),
    ("Cholesky", "cholesky", (("upper", False, "upper"),)),
    ("CholeskyInverse", "cholesky_inverse", (("upper", False, "upper"),)),
    ("CholeskySolve", "cholesky_solve", (("upper", False, "upper"),)),
    ("MatrixSolve", "matrix_solve", (("adjoint", False, "adjoint"),)),
    ("Tril", "tril", (("diagonal", 0, "diagonal"),)),
    ("Triu", "triu", (("diagonal", 0, "diagonal"),)),
    ("SoftShrink", "soft_shrink", (("lambd", 0.5, "lambd"),)),
    ("HShrink", "hardshrink", (("lambd", 0.5, "lambd"),)),
    ("SoftMarginLoss", "soft_margin_loss", (("reduction", "mean", "reduction"),)),
    ("SmoothL1Loss", "smooth_l1_loss", (("beta", 1.0, "beta"), ("reduction", "none", "reduction"))),
    ("TensorScatterElements", "tensor_scatter_elements", (("axis", 0, "axis"), ("reduction", "none", "reduction"))),
    ("MatrixPower", "matrix_power", (("n", inspect.Parameter.empty, "n"),)),
    ("Mvlgamma", "mvlgamma", (("p", inspect.Parameter.empty, "p"),)),
    ("Renorm", "renorm", (("p", inspect.Parameter.empty, "p"), ("dim", inspect.Parameter.empty, "axis"),
                          ("maxnorm", inspect.Parameter.empty, "maxnorm"))),
    ("Roll", "roll", (("shifts", inspect.Parameter.empty, "shifts"), ("dims", None, "dims"))),
    ("ReverseV2", "reverse", (("axis", inspect.Parameter.empty, "axis"),)),
    ("ChannelShuffle", "channel_shuffle", (("group", inspect.Parameter.empty, "groups"),)),
    ("Logit", "logit", (("eps", -1.0, "eps"),)),
    ("CeLU", "celu", (("alpha", 1.0, "alpha"),)),
    ("IndexAdd", "index_add", (("axis", inspect.Parameter.empty, "axis"), ("use_lock", True, None),
                               ("check_index_bound", True, None))),
    ("InplaceAdd", "inplace_add", (("indices", inspect.Parameter.empty, "indices"),)),
    ("InplaceSub", "inplace_sub", (("indices", inspect.Parameter.empty, "indices"),)),
    ("InplaceUpdate", "inplace_update", (("indices", inspect.Parameter.empty, "indices"),)),
    ("IndexFill", "index_fill", ()),
    ("IOU", "iou", (("mode", "iou", "mode"),)),
    ("IsClose", "isclose", (("rtol", 1e-05, "rtol"), ("atol", 1e-08, "atol"), ("equal_nan", False, "equal_nan"))),
    ("LRN", "lrn", (("depth_radius", 5, "depth_radius"), ("bias", 1.0, "bias"), ("alpha", 1.0, "alpha"),
                    ("beta", 0.5, "beta"), ("norm_region", "ACROSS_CHANNELS", "norm_region"))),
    ("InTopK", "intopk", (("k", inspect.Parameter.empty, "k"),)),
    ("Pack", "stack", (("axis", 0, "axis"),)),
    ("Unpack", "unstack", (("axis", 0, "axis"),)),
    ("TripletMarginLoss", "triplet_margin_loss", (("p", 2, "p"), ("swap", False, "swap"), ("eps", 1e-06, "eps"),
                                                  ("reduction", "mean", "reduction"))),
    ("ReverseSequence", "reverse_sequence", (("seq_dim", inspect.Parameter.empty, "seq_dim"),
                                             ("batch_dim", 0, "batch_dim"))),
    ("Meshgrid", "meshgrid", (("indexing", "xy", "indexing"),)),
    ("KLDivLoss", "kl_div", (("reduction", "mean", "reduction"),)),
    ("Range", "range", (("maxlen", 1000000, "maxlen"),)),
] + [(n, op, (("use_locking", default, None),)) for n, op, default in [
    ("ScatterAdd", "scatter_add", False), ("ScatterSub", "scatter_sub", False), ("ScatterMul", "scatter_mul", False),
    ("ScatterDiv", "scatter_div", False), ("ScatterMax", "scatter_max", False), ("ScatterMin", "scatter_min", False),
    ("ScatterUpdate", "scatter_update", True), ("ScatterNdAdd", "scatter_nd_add", False),
    ("ScatterNdSub", "scatter_nd_sub", False), ("ScatterNdMul", "scatter_nd_mul", False),
    ("ScatterNdDiv", "scatter_nd_div", False), ("ScatterNdMax", "scatter_nd_max", False),
    ("ScatterNdMin", "scatter_nd_min", False), ("ScatterNdUpdate", "scatter_nd_update", True),
]]


def _make(name, op_name, args):
    def call(self, *inputs):
        return lookup(op_name)(*inputs, **{kw: self.attrs[a] for a, _, kw in args if kw is not None})

    doc = f"``ops.{name}({', '.join(a for a, _, _ in args)})(...)``: the Primitive form of ``ops.{op_name}``."
    return primitive_class(name, [(a, d) for a, d, _ in args], call, doc, __name__)


_seen = set()
for _name, _op, _args in _SPECS:
    if _name not in _seen:
        _seen.add(_name)
        globals()[_name] = _make(_name, _op, _args)


def _bucketize(self, input):
    # Unlike ops.bucketize (right=False), the Primitive puts a value equal to a boundary in the upper bucket.
    return lookup("bucketize")(input, self.attrs["boundaries"], right=True)


Bucketize = primitive_class("Bucketize", [("boundaries", inspect.Parameter.empty)], _bucketize,
                            "``ops.Bucketize(boundaries)(input)``: ``ops.bucketize(input, boundaries, right=True)``.",
                            __name__)
_seen.add("Bucketize")

__all__ = sorted(_seen)
