"""Record real MindSpore 2.10's linear algebra, FFT and special-function ops and ``mindspore.scipy.linalg``.

    ../ms-oracle/bin/python tools/oracle/record_linalg.py   # -> tests/fixtures/oracle/linalg.npz

Decompositions whose vectors are defined only up to sign (svd's u/v, eig's vectors) are recorded through
invariants in the tests instead (tests/ops/test_fft_special_linalg.py).
"""
import os
import pathlib
import sys

import numpy as np
import scipy.linalg

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
import mindspore.ops as ops  # noqa: E402
import mindspore.scipy.linalg as sl  # noqa: E402
from _sweep import D, T, record  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(1)


def f32(*s):
    return T(rng.standard_normal(s).astype(np.float32))


def spd(n, dt=np.float32):
    a = rng.standard_normal((n, n))
    return T((a @ a.T + n * np.eye(n)).astype(dt))


def cases():
    x, x64, xi, x16 = f32(3, 4), T(rng.standard_normal((4, 3))), T(np.arange(8, dtype=np.int32)), \
        T(rng.standard_normal(6).astype(np.float16))
    c = []
    for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        c += [(f"{n}/f32", "ops", n, [x], {}), (f"{n}/f64", "ops", n, [x64], {"dim": 0}),
              (f"{n}/i32", "ops", n, [xi], {}), (f"{n}/n_norm", "ops", n, [x], {"n": 5, "norm": "ortho"})]
        if n in ("fft", "rfft", "ihfft"):
            c.append((f"{n}/f16", "ops", n, [x16], {}))
    for n in ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn",
              "ihfftn"):
        c += [(f"{n}/f32", "ops", n, [f32(2, 3, 4)], {}), (f"{n}/s", "ops", n, [x], {"s": (4, 6), "norm": "forward"})]
    c += [("fftshift/all", "ops", "fftshift", [x], {}), ("fftshift/dim", "ops", "fftshift", [x], {"dim": 1}),
          ("ifftshift/all", "ops", "ifftshift", [f32(5)], {}), ("fftfreq/basic", "ops", "fftfreq", [5, 0.5], {}),
          ("rfftfreq/basic", "ops", "rfftfreq", [6], {}),
          ("fftfreq/dtype", "ops", "fftfreq", [4], {"dtype": D("float64")})]
    pos = T((rng.random(12) * 6 + 0.05).astype(np.float32))
    wide = T(np.concatenate([rng.standard_normal(8) * 10, [0.0, 25.0, -30.0, 80.0]]).astype(np.float32))
    for n in ("lgamma", "digamma", "i0", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0",
              "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e"):
        c.append((f"{n}/pos", "ops", n, [pos], {}))
        c.append((f"{n}/wide", "ops", n, [wide], {}))
        c.append((f"{n}/i32", "ops", n, [T(np.arange(1, 5, dtype=np.int32))], {}))
        c.append((f"{n}/f64", "ops", n, [T(rng.random(5) * 4 + 0.1)], {}))
    c += [("polygamma/1", "ops", "polygamma", [T(np.array(1)), pos], {}),
          ("polygamma/3", "ops", "polygamma", [T(np.array(3)), pos], {}),
          ("igamma/basic", "ops", "igamma", [pos, T(pos.value[::-1].copy())], {}),
          ("igammac/basic", "ops", "igammac", [pos, T(pos.value[::-1].copy())], {}),
          ("zeta/basic", "ops", "zeta", [T(pos.value + 1.1), pos], {}),
          ("mvlgamma/basic", "ops", "mvlgamma", [T(pos.value + 2), 3], {})]
    s3 = f32(3, 3)
    b = f32(3, 2)
    c += [("svd/values", "ops", "svd", [x], {"compute_uv": False}),
          ("svd/values64", "ops", "svd", [x64], {"compute_uv": False}),
          ("qr/reduced", "ops", "qr", [x64], {}), ("qr/complete", "ops", "qr", [f32(4, 3)], {"mode": "complete"}),
          ("cholesky/lower", "ops", "cholesky", [spd(3)], {}), ("cholesky/upper", "ops", "cholesky", [spd(4)],
                                                                  {"upper": True}),
          ("cholesky_inverse/basic", "ops", "cholesky_inverse", [T(np.linalg.cholesky(spd(3).value))], {}),
          ("cholesky_solve/basic", "ops", "cholesky_solve", [b, T(np.linalg.cholesky(spd(3).value))], {}),
          ("pinv/basic", "ops", "pinv", [x], {}), ("pinv/f64", "ops", "pinv", [x64], {}),
          ("vector_norm/basic", "ops", "vector_norm", [x], {}),
          ("vector_norm/ord", "ops", "vector_norm", [x], {"ord": 3, "axis": 1, "keepdims": True}),
          ("vector_norm/inf", "ops", "vector_norm", [x], {"ord": float("inf")}),
          ("vector_norm/zero", "ops", "vector_norm", [x], {"ord": 0, "axis": 0}),
          ("vector_norm/i32", "ops", "vector_norm", [xi], {}),
          ("vector_norm/f16", "ops", "vector_norm", [x16], {})]
    for o in ("fro", "nuc", 1, -1, 2, -2, float("inf")):
        c.append((f"matrix_norm/{o}", "ops", "matrix_norm", [x], {"ord": o}))
    c += [("matrix_norm/keep", "ops", "matrix_norm", [f32(2, 3, 3)], {"keepdims": True}),
          ("norm/default", "ops", "norm", [x], {}), ("norm/dim", "ops", "norm", [x], {"ord": 1, "dim": 0}),
          ("slogdet/basic", "ops", "slogdet", [s3], {}), ("slogdet/batch", "ops", "slogdet", [f32(2, 3, 3)], {}),
          ("log_matrix_determinant/basic", "ops", "log_matrix_determinant", [s3], {}),
          ("logdet/spd", "ops", "logdet", [spd(3)], {}), ("logdet/neg", "ops", "logdet", [s3], {}),
          ("det/basic", "ops", "det", [s3], {}), ("det/f64", "ops", "det", [spd(3, np.float64)], {}),
          ("matrix_determinant/basic", "ops", "matrix_determinant", [s3], {}),
          ("matrix_power/2", "ops", "matrix_power", [s3, 2], {}),
          ("matrix_power/neg", "ops", "matrix_power", [s3, -2], {}),
          ("matrix_power/i32", "ops", "matrix_power", [T(np.arange(4, dtype=np.int32).reshape(2, 2)), 3], {}),
          ("lstsq/basic", "ops", "lstsq", [f32(5, 3), f32(5, 2)], {}),
          ("matrix_solve/basic", "ops", "matrix_solve", [s3, b], {}),
          ("matrix_solve/adjoint", "ops", "matrix_solve", [s3, b], {"adjoint": True}),
          ("eigvals/basic", "ops", "eigvals", [spd(3)], {}),
          ("inverse/basic", "ops", "inverse", [s3], {}),
          ("adjoint/basic", "ops", "adjoint", [x], {}),
          ("matrix_band_part/basic", "ops", "matrix_band_part", [f32(4, 5), 1, 2], {}),
          ("matrix_band_part/all", "ops", "matrix_band_part", [f32(4, 5), -1, 0], {})]
    lu_, piv = scipy.linalg.lu_factor(s3.value)
    c += [("lu_unpack/basic", "ops", "lu_unpack", [T(lu_.astype(np.float32)), T((piv + 1).astype(np.int32))], {}),
          ("lu_solve/basic", "ops", "lu_solve", [b, T(lu_.astype(np.float32)), T((piv + 1).astype(np.int32))], {})]
    g = f32(4, 3)
    c += [("geqrf/basic", "ops", "geqrf", [g], {}), ("geqrf/wide", "ops", "geqrf", [f32(2, 4)], {}),
          ("orgqr/basic", "ops", "orgqr", [g, T(np.array([1.2, 1.5], np.float32))], {})]
    # mindspore.scipy.linalg
    sp = spd(3)
    c += [("sp.block_diag/basic", "scipy", "block_diag", [s3, b], {}),
          ("sp.cholesky/upper", "scipy", "cholesky", [sp], {}), ("sp.cholesky/lower", "scipy", "cholesky", [sp],
                                                              {"lower": True}),
          ("sp.det/basic", "scipy", "det", [s3], {}), ("sp.inv/basic", "scipy", "inv", [s3], {}),
          ("sp.inv/i32", "scipy", "inv", [T(np.eye(2, dtype=np.int32) * 2)], {}),
          ("sp.eigh/vals", "scipy", "eigh", [sp], {"eigvals_only": True}),
          ("sp.lstsq/basic", "scipy", "lstsq", [s3, b], {}),
          ("sp.lu/basic", "scipy", "lu", [s3], {}), ("sp.lu_factor/basic", "scipy", "lu_factor", [s3], {}),
          ("sp.lu_pivots_to_permutation/basic", "scipy", "lu_pivots_to_permutation",
           [T(np.array([2, 2, 2], np.int32)), 3], {}),
          ("sp.solve_triangular/upper", "scipy", "solve_triangular", [T(np.triu(sp.value)), b], {}),
          ("sp.solve_triangular/lower_t", "scipy", "solve_triangular", [T(np.tril(sp.value)), b],
           {"lower": True, "trans": "T"}),
          ("sp.solve_triangular/unit", "scipy", "solve_triangular", [T(np.triu(sp.value)), b],
           {"unit_diagonal": True})]
    return c


def main():
    out = ROOT / "tests" / "fixtures" / "oracle" / "linalg.npz"
    cs = cases()
    with FixtureWriter(out) as w:
        record(w, cs, {"ops": ops, "scipy": sl}, ms)
    print(out.name, len(cs), "cases", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
