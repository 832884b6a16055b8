"""Record real MindSpore 2.10 running the remaining ``mindspore.ops`` functions: windows, normalisations,
``einsum``, ``embedding``, FFT frequencies, fills, index / in-place updates, LU and Householder helpers,
``matrix_exp``, ``meshgrid``, ``swiglu`` -- and the autodiff transforms (``grad``, ``value_and_grad``, ``jacfwd``,
``jacrev``, ``jvp``, ``vjp``, ``vmap``).

    ../ms-oracle/bin/python tools/oracle/record_ops_replay.py   # -> tests/fixtures/oracle/ops_replay.npz

A case named ``ops.<f>`` calls ``ops.f(*args, **kwargs)`` with ``_sweep``'s argument encoding. An autodiff case
also names (``meta["ad"]``) one of the ``ad_*`` functions below, which apply a transform to the fixed functions
``_poly`` and friends over the module globals ``ms`` and ``ops`` that :func:`bind` sets: to real MindSpore here,
to mindspore_hl in tests/ops/test_ops_replay.py, which imports this file by path and replays every case.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import scipy.linalg  # noqa: E402
from _sweep import D, T, _call, encode  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

ms = ops = None  # bound by bind()


def bind(ms_module, ops_module):
    """Point the autodiff cases at a framework (real MindSpore or mindspore_hl)."""
    global ms, ops
    ms, ops = ms_module, ops_module


# ---- the fixed functions the transforms differentiate ---------------------------------------------------------
def _poly(x):
    return x * x * ops.sin(x)


def _two(x, y):
    return ops.reduce_sum(x * x * ops.sin(x) + y * ops.cos(x) + y * y * y)


def _two_aux(x, y):
    return ops.reduce_sum(x * ops.exp(y)), x * 2 + y


def _pair(x, y):
    return x * y + ops.sin(y), x - y * y


def _pair_aux(x, y):
    return x * ops.cos(y), y + 1


def _rowdot(x, y):
    return ops.reduce_sum(x * y)


# ---- autodiff cases: functions of the recorded Tensors --------------------------------------------------------
def ad_grad_pos0(x, y):
    return ops.grad(_two)(x, y)


def ad_grad_pos01(x, y):
    return ops.grad(_two, grad_position=(0, 1))(x, y)


def ad_grad_pos1_aux(x, y):
    return ops.grad(_two_aux, grad_position=1, has_aux=True)(x, y)


def ad_grad_elementwise(x):
    return ops.grad(_poly)(x)  # a non-scalar output: the gradient of its sum


def _mul_sin(a, b):
    return a * ops.sin(b)


def ad_grad_sens(x, y, sens):
    return ops.grad(_mul_sin, grad_position=(0, 1), sens_param=True)(x, y, sens)


def ad_grad_return_ids(x, y):
    return ops.grad(_two, grad_position=(0, 1), return_ids=True)(x, y)


def _net(w0):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(w0, name="w")

        def construct(self, x):
            return ops.reduce_sum(ops.sin(x * self.w))
    return Net()


def ad_grad_weights(x, w0):
    net = _net(w0)
    return ops.grad(net, grad_position=None, weights=net.trainable_params())(x)


def ad_grad_pos_and_weights(x, w0):
    net = _net(w0)
    return ops.grad(net, grad_position=0, weights=net.trainable_params())(x)


def ad_grad_bad_position(x, y):
    return ops.grad(_two, grad_position=2)(x, y)


def ad_value_and_grad_pos0(x, y):
    return ops.value_and_grad(_two)(x, y)


def ad_value_and_grad_pos01(x, y):
    return ops.value_and_grad(_two, grad_position=(0, 1))(x, y)


def ad_value_and_grad_aux(x, y):
    return ops.value_and_grad(_two_aux, grad_position=0, has_aux=True)(x, y)


def ad_value_and_grad_sens(x, y, sens):
    return ops.value_and_grad(_mul_sin, grad_position=1, sens_param=True)(x, y, sens)


def ad_value_and_grad_weights(x, w0):
    net = _net(w0)
    return ops.value_and_grad(net, grad_position=0, weights=net.trainable_params())(x)


def ad_jacfwd(x):
    return ops.jacfwd(_poly)(x)


def ad_jacfwd_pos01(x, y):
    return ops.jacfwd(_pair, grad_position=(0, 1))(x, y)


def ad_jacfwd_aux(x, y):
    return ops.jacfwd(_pair_aux, grad_position=1, has_aux=True)(x, y)


def ad_jacrev(x):
    return ops.jacrev(_poly)(x)


def ad_jacrev_pos01(x, y):
    return ops.jacrev(_pair, grad_position=(0, 1))(x, y)


def ad_jacrev_aux(x, y):
    return ops.jacrev(_pair_aux, grad_position=0, has_aux=True)(x, y)


def ad_jvp(x, v):
    return ops.jvp(_poly, x, v)


def ad_jvp_two(x, y, vx, vy):
    return ops.jvp(_pair, (x, y), (vx, vy))


def ad_jvp_aux(x, y, vx, vy):
    return ops.jvp(_pair_aux, (x, y), (vx, vy), has_aux=True)


def ad_vjp(x, v):
    out, fn = ops.vjp(_poly, x)
    return out, fn(v)


def ad_vjp_two(x, y, vx, vy):
    out, fn = ops.vjp(_pair, x, y)
    return out, fn((vx, vy))


def ad_vjp_aux(x, y, v):
    out, fn, aux = ops.vjp(_pair_aux, x, y, has_aux=True)
    return out, fn(v), aux


def ad_vmap(x, y):
    return ops.vmap(_rowdot)(x, y)


def ad_vmap_axes(x, y):
    return ops.vmap(_rowdot, in_axes=(1, None))(x, y)


def ad_vmap_out_axes(x, y):
    return ops.vmap(_pair, in_axes=(0, 1), out_axes=(1, 0))(x, y)


def _scaled_sin(a, b):
    return a * b + ops.sin(a)


def ad_vmap_nested(x, y):
    return ops.vmap(ops.vmap(_scaled_sin, in_axes=(0, None)), in_axes=(0, 0))(x, y)


def ad_vmap_bad_axis(x, y):
    return ops.vmap(_rowdot, in_axes=(3, 0))(x, y)


def ad_vmap_grad(x, y):
    return ops.vmap(ops.grad(_rowdot))(x, y)


# ---- input builders -------------------------------------------------------------------------------------------
rng = np.random.default_rng(21)


def f32(*s, lo=-1.5, hi=1.5):
    return T(rng.uniform(lo, hi, s).astype(np.float32))


def f16(*s):
    return T(rng.uniform(-1.5, 1.5, s).astype(np.float16))


def f64(*s):
    return T(rng.uniform(-1.5, 1.5, s))


def i32(v):
    return T(np.asarray(v, np.int32))


def i64(v):
    return T(np.asarray(v, np.int64))


def _lu(a, dtype):
    """SciPy's packed LU and 1-based Int32 pivots of ``a`` (what ``ops.lu_factor`` would give)."""
    lu, piv = scipy.linalg.lu_factor(a)
    return T(lu.astype(dtype)), i32(piv + 1)


def _geqrf(a):
    """LAPACK's Householder vectors and factors of ``a`` (what ``ops.geqrf`` gives)."""
    (qr, tau), _ = scipy.linalg.qr(a, mode="raw")
    return T(qr.astype(a.dtype)), T(tau.astype(a.dtype))


def function_cases():
    a33 = rng.standard_normal((3, 3))
    a43 = rng.standard_normal((4, 3)).astype(np.float32)
    ab = rng.standard_normal((2, 3, 3)).astype(np.float32)
    lu33, piv33 = _lu(a33, np.float32)
    lu_b = [_lu(m, np.float32) for m in ab]
    lub, pivb = T(np.stack([v[0].value for v in lu_b])), i32(np.stack([v[1].value for v in lu_b]))
    qr43, tau43 = _geqrf(a43)
    qr33, tau33 = _geqrf(a33)
    x4 = f32(2, 3, 4, 4)
    c = [
        ("bartlett_window/5", [i32(5)], {}),
        ("bartlett_window/sym", [i32(6)], {"periodic": False}),
        ("bartlett_window/f64", [i64(7)], {"dtype": D("float64")}),
        ("bartlett_window/f16", [i32(4)], {"dtype": D("float16")}),
        ("bartlett_window/one", [i32(1)], {}),
        ("bartlett_window/zero", [i32(0)], {}),
        ("bartlett_window/neg", [i32(-1)], {}),
        ("bartlett_window/float", [T(np.float32(5))], {}),
        ("bartlett_window/int_dtype", [i32(5)], {"dtype": D("int32")}),
        ("blackman_window/5", [i32(5)], {}),
        ("blackman_window/sym", [i32(6)], {"periodic": False}),
        ("blackman_window/f64", [i64(8)], {"dtype": D("float64")}),
        ("blackman_window/f16", [i32(4)], {"dtype": D("float16")}),
        ("blackman_window/one", [i32(1)], {}),
        ("blackman_window/neg", [i32(-2)], {}),
        ("batch_norm/infer", [x4, f32(3), f32(3, lo=0.5, hi=2.0), f32(3), f32(3)], {}),
        ("batch_norm/train", [x4, f32(3), f32(3, lo=0.5, hi=2.0), f32(3), f32(3)],
         {"training": True, "momentum": 0.2, "eps": 1e-3}),
        ("batch_norm/2d", [f32(4, 3), f32(3), f32(3, lo=0.5, hi=2.0), f32(3), f32(3)], {"eps": 0.1}),
        ("batch_norm/f16", [f16(2, 3, 2, 2), f32(3), f32(3, lo=0.5, hi=2.0), f32(3), f32(3)], {}),
        ("batch_norm/bad_channels", [x4, f32(4), f32(4, lo=0.5, hi=2.0), f32(4), f32(4)], {}),
        ("conv_transpose2d/basic", [f32(1, 2, 3, 3), f32(2, 3, 2, 2)], {}),
        ("conv_transpose2d/stride_pad", [f32(2, 2, 3, 4), f32(2, 2, 3, 3), f32(2)],
         {"stride": 2, "padding": 1, "output_padding": 1}),
        ("conv_transpose2d/groups_dil", [f32(1, 4, 3, 3), f32(4, 1, 2, 2)], {"groups": 2, "dilation": 2}),
        ("conv_transpose2d/unbatched", [f32(2, 3, 3), f32(2, 1, 3, 3)], {"padding": (1, 0)}),
        ("einsum/bad_rank", ["ij,jk->ik", f32(2, 3, 1), f32(3, 4)], {}),
        ("embedding/basic", [i32([[0, 2], [3, 1]]), f32(4, 3)], {}),
        ("embedding/padding_idx", [i64([1, 0, 1]), f32(3, 2)], {"padding_idx": 1}),
        ("embedding/max_norm", [i32([0, 2, 2]), f32(4, 3, lo=-3, hi=3)], {"max_norm": 1.0}),
        ("embedding/max_norm_p1", [i32([1, 3]), f32(4, 3, lo=-3, hi=3)], {"max_norm": 2.0, "norm_type": 1.0}),
        ("fftfreq/5", [5], {}),
        ("fftfreq/d", [6], {"d": 0.5}),
        ("fftfreq/f64", [4, 2.0], {"dtype": D("float64")}),
        ("fftfreq/one", [1], {}),
        ("fftfreq/f64_thirds", [3, 0.1], {"dtype": D("float64")}),
        ("fftfreq/f64_sevenths", [7, 0.3], {"dtype": D("float64")}),
        ("fftfreq/f16", [5, 3.0], {"dtype": D("float16")}),
        ("fftfreq/zero", [0], {}),
        ("rfftfreq/5", [5], {}),
        ("rfftfreq/d", [8], {"d": 0.25}),
        ("rfftfreq/f64", [3, 2.0], {"dtype": D("float64")}),
        ("rfftfreq/f64_sevenths", [7, 0.3], {"dtype": D("float64")}),
        ("fill/f32", [D("float32"), (2, 3), 1.5], {}),
        ("fill/i32", [D("int32"), (3,), 7], {}),
        ("fill/bool", [D("bool_"), (2, 2), True], {}),
        ("fill/f16_scalar", [D("float16"), (), 0.25], {}),
        ("fill/f64_inf", [D("float64"), (1, 2), float("inf")], {}),
        ("fill/int_from_float", [D("int64"), (2,), 2.7], {}),
        ("fills/f32", [f32(2, 3), 2.5], {}),
        ("fills/i32", [i32([[1, 2], [3, 4]]), 9], {}),
        ("fills/f16", [f16(3), -1.0], {}),
        ("fills/tensor_value", [f32(2, 2), T(np.float32(4.0))], {}),
        ("fills/int_float", [i32([1, 2]), 1.7], {}),
        ("group_norm/basic", [f32(2, 4, 3, 3), 2], {}),
        ("group_norm/affine", [f32(2, 6, 5), 3, f32(6), f32(6)], {"eps": 1e-3}),
        ("group_norm/one_group", [f32(1, 4, 2, 2), 1], {}),
        ("group_norm/bad_groups", [f32(2, 4, 3), 3], {}),
        ("layer_norm/last", [f32(2, 3, 4), (4,)], {}),
        ("layer_norm/two", [f32(2, 3, 4), (3, 4), f32(3, 4), f32(3, 4)], {"eps": 1e-3}),
        ("layer_norm/weight_only", [f32(3, 5), (5,), f32(5)], {}),
        ("layer_norm/f16", [f16(2, 4), (4,)], {}),
        ("index_add/axis0", [f32(4, 3), i32([0, 2, 0]), f32(3, 3), 0], {}),
        ("index_add/axis1", [f32(2, 4), i32([3, 1]), f32(2, 2), 1], {}),
        ("index_add/f64_neg_axis", [f64(2, 3, 2), i32([1]), f64(2, 3, 1), -1], {}),
        ("index_add/i32", [i32([[1, 2], [3, 4], [5, 6]]), i32([2, 2]), i32([[1, 1], [10, 10]]), 0], {}),
        ("index_add/bad_shape", [f32(4, 3), i32([0, 2]), f32(3, 3), 0], {}),
        ("inplace_add/int", [f32(3, 2), f32(1, 2), 1], {}),
        ("inplace_add/tuple", [f32(4, 3), f32(2, 3), (0, 2)], {}),
        ("inplace_add/repeat", [f32(3, 2), f32(2, 2), (1, 1)], {}),
        ("inplace_add/i32", [i32([[1, 2], [3, 4]]), i32([[5, 6]]), (1,)], {}),
        ("inplace_add/bad_len", [f32(3, 2), f32(2, 2), (0,)], {}),
        ("inplace_sub/int", [f32(3, 2), f32(1, 2), 2], {}),
        ("inplace_sub/tuple", [f32(4, 3), f32(2, 3), (3, 0)], {}),
        ("inplace_sub/f16", [f16(2, 2), f16(1, 2), (0,)], {}),
        ("inplace_update/int", [f32(3, 2), f32(1, 2), 0], {}),
        ("inplace_update/tuple", [f32(4, 3), f32(2, 3), (1, 3)], {}),
        ("inplace_update/i32_tensor_idx", [i32([[1, 2], [3, 4], [5, 6]]), i32([[7, 8], [9, 0]]), i32([2, 0])], {}),
        ("inplace_update/bad_index", [f32(3, 2), f32(1, 2), 5], {}),
        ("is_nonzero/one", [T(np.array([1.5], np.float32))], {}),
        ("is_nonzero/zero", [T(np.array([[0]], np.int32))], {}),
        ("is_nonzero/scalar_false", [T(np.array(False))], {}),
        ("is_nonzero/scalar_neg", [T(np.float32(-0.1))], {}),
        ("is_nonzero/many", [T(np.array([1, 2], np.int32))], {}),
        ("is_nonzero/empty", [T(np.zeros((0,), np.float32))], {}),
        ("lu_solve/3x3", [f32(3, 2), lu33, piv33], {}),
        ("lu_solve/batch", [f32(2, 3, 1), lub, pivb], {}),
        ("lu_solve/bad_b", [f32(2, 2), lu33, piv33], {}),
        ("lu_unpack/3x3", [lu33, piv33], {}),
        ("lu_unpack/batch", [lub, pivb], {}),
        ("lu_unpack/no_pivots", [lu33, piv33], {"unpack_pivots": False}),
        ("lu_unpack/no_data", [lu33, piv33], {"unpack_data": False}),
        ("matrix_exp/non_square", [f32(2, 3)], {}),
        ("meshgrid/xy", [f32(3), f32(2)], {}),
        ("meshgrid/ij", [f32(3), f32(2), f32(4)], {"indexing": "ij"}),
        ("meshgrid/i32", [i32([1, 2]), i32([3, 4, 5])], {"indexing": "xy"}),
        ("meshgrid/one", [f32(3)], {}),
        ("meshgrid/bad_indexing", [f32(3), f32(2)], {"indexing": "ab"}),
        ("meshgrid/2d_input", [f32(3, 1), f32(2)], {}),
        ("meshgrid/mixed_dtype", [f32(3), i32([1, 2])], {}),
        ("orgqr/4x3", [qr43, tau43], {}),
        ("orgqr/3x3_f64", [qr33, tau33], {}),
        ("orgqr/bad_tau", [qr43, T(np.ones(4, np.float32))], {}),
        ("reverse/0", [f32(2, 3)], {"axis": [0]}),
        ("reverse/both", [i32([[1, 2, 3], [4, 5, 6]]), [0, 1]], {}),
        ("reverse/neg", [f16(2, 3, 2), [-1]], {}),
        ("reverse/bool", [T(np.array([True, False, False])), [0]], {}),
        ("reverse/bad_axis", [f32(2, 3), [2]], {}),
        ("swiglu/odd", [f32(2, 3)], {}),
    ]
    return [("ops." + cid.split("/")[0], cid, args, kw, None) for cid, args, kw in c]


def autodiff_cases():
    x, y, w = f32(3), f32(3), f32(3)
    m23, m32 = f32(2, 3), f32(3, 2)
    c = [
        (ad_grad_pos0, [x, y]), (ad_grad_pos01, [x, y]), (ad_grad_pos1_aux, [x, y]), (ad_grad_elementwise, [x]),
        (ad_grad_sens, [x, y, f32(3)]), (ad_grad_return_ids, [x, y]), (ad_grad_weights, [x, w]),
        (ad_grad_pos_and_weights, [x, w]), (ad_grad_bad_position, [x, y]),
        (ad_value_and_grad_pos0, [x, y]), (ad_value_and_grad_pos01, [x, y]), (ad_value_and_grad_aux, [x, y]),
        (ad_value_and_grad_sens, [x, y, f32(3)]), (ad_value_and_grad_weights, [x, w]),
        (ad_jacfwd, [x]), (ad_jacfwd_pos01, [x, y]), (ad_jacfwd_aux, [x, y]),
        (ad_jacrev, [x]), (ad_jacrev_pos01, [x, y]), (ad_jacrev_aux, [x, y]),
        (ad_jvp, [x, f32(3)]), (ad_jvp_two, [x, y, f32(3), f32(3)]), (ad_jvp_aux, [x, y, f32(3), f32(3)]),
        (ad_vjp, [x, f32(3)]), (ad_vjp_two, [x, y, f32(3), f32(3)]), (ad_vjp_aux, [x, y, f32(3)]),
        (ad_vmap, [m23, f32(2, 3)]), (ad_vmap_axes, [m32, f32(3)]), (ad_vmap_out_axes, [m23, m32]),
        (ad_vmap_nested, [m23, f32(2)]), (ad_vmap_bad_axis, [m23, m23]), (ad_vmap_grad, [m23, f32(2, 3)]),
    ]
    out = []
    for fn, args in c:
        case = fn.__name__[3:]
        name = next(n for n in ("value_and_grad", "grad", "jacfwd", "jacrev", "jvp", "vjp", "vmap")
                    if case.startswith(n))
        out.append(("ops." + name, f"ops.{name}/{case}", args, {}, fn.__name__))
    return out


# ---- second real-MindSpore paths, for names whose kernel the CPU build lacks ----------------------------------
def fb_conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed convolution as the gradient of ``ops.conv2d`` with respect to its input."""
    unbatched = input.ndim == 3
    x = ops.expand_dims(input, 0) if unbatched else input
    two = [(v, v) if isinstance(v, int) else tuple(v) for v in (stride, padding, output_padding, dilation)]
    (s, p, op, d), k = two, weight.shape[2:]
    size = [(x.shape[2 + i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op[i] + 1 for i in range(2)]
    z = ops.zeros((x.shape[0], weight.shape[1] * groups, *size), x.dtype)

    def conv_dot(z):
        y = ops.conv2d(z, weight, None, s, "pad", p, d, groups)
        return ops.sum(y * x)
    out = ms.grad(conv_dot)(z)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out[0] if unbatched else out


def fb_embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Rows of ``weight`` (renormalised to ``max_norm`` first) gathered by ``input``."""
    if max_norm is not None:
        weight = ops.renorm(weight, int(norm_type), 0, max_norm)
    return ops.gather(weight, input, 0)


def fb_fills(x, value):
    """A Tensor shaped and typed like ``x``, filled with ``value``."""
    return ops.full_like(x, value, dtype=x.dtype)


def fb_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """The older ``ops.LayerNorm`` Primitive (it has a CPU kernel) over the trailing ``normalized_shape``."""
    axis = input.ndim - len(normalized_shape)
    weight = ops.ones(normalized_shape, input.dtype) if weight is None else weight
    bias = ops.zeros(normalized_shape, input.dtype) if bias is None else bias
    return ops.LayerNorm(begin_norm_axis=axis, begin_params_axis=axis, epsilon=eps)(input, weight, bias)[0]


_NO_KERNEL = ("unregistered", "Unsupported op", "Create kernelmod")


def main(cases):
    import mindspore  # (here, not at the top: the replay test imports this file without MindSpore)
    bind(mindspore, mindspore.ops)
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "ops_replay.npz"
    notes = []
    with FixtureWriter(path) as w:
        for name, cid, args, kwargs, ad in cases:
            inputs = {}
            enc_args = [encode(a, inputs) for a in args]
            enc_kwargs = {k: encode(v, inputs) for k, v in kwargs.items()}
            fn = globals()[ad] if ad else getattr(ops, name[4:])
            outs, error, message = _call(fn, enc_args, enc_kwargs, inputs, mindspore)
            truth = None
            if error == "RuntimeError" and any(s in message for s in _NO_KERNEL):
                second = globals().get("fb_" + name[4:])
                if second is None:
                    notes.append(f"{cid}: no CPU kernel, not recorded ({message[:60]})")
                    continue
                outs, error, message = _call(second, enc_args, enc_kwargs, inputs, mindspore)
                truth = second.__name__
                if error:  # the second path's own failure says nothing about the op
                    notes.append(f"{cid}: no CPU kernel, {truth} raised {error} {message}: not recorded")
                    continue
            if error:
                notes.append(f"{cid}: {error} {message}")
            meta = {"ad": ad} if ad else {}
            if truth:
                meta["truth"] = truth
            w.add(cid if cid.startswith("ops.") else "ops." + cid, inputs=inputs, outputs=outs, name=name,
                  error=error, args=enc_args, kwargs=enc_kwargs, message=message, **meta)
    print("\n".join(notes), file=sys.stderr)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)", file=sys.stderr)


if __name__ == "__main__":
    main(function_cases() + autodiff_cases())
