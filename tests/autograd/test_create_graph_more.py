# ruff: noqa: E501 - a table: one case per line
"""create_graph=True through the ops the op table and the layer tables leave out (linalg,
special functions, gamma functions, index ops, margin losses, the layers added since), in
float64, against torch 2.13.

For each case the gradient of ``out`` by ``x`` against an upstream gradient ``v`` that requires
grad is taken with create_graph=True; its values and its derivatives by ``x`` and by ``v``
must be torch's. Where torch has no second derivative, microtorch must raise torch's error.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import microtorch

torch = pytest.importorskip("torch")

IDX = np.array([2, 0, 2])  # a repeated index: gradients add up
PERM = np.array([2, 0, 1])


def _f(lib: Any) -> Any:
    return lib.nn.functional


def _c(lib: Any, a: Any, dtype: Any = None) -> Any:
    return lib.tensor(a, dtype=dtype or lib.float64)


def _i(lib: Any, a: Any) -> Any:
    return lib.tensor(np.asarray(a), dtype=lib.int64)


def _spd(lib: Any, x: Any) -> Any:
    # a symmetric positive definite matrix made from x (4, 4)
    return x @ x.mT + 4 * lib.eye(x.shape[-1], dtype=lib.float64)


def _sym(x: Any) -> Any:
    return (x + x.mT) / 2


_R = np.random.default_rng(5)
B = _R.standard_normal((4, 2))
W3 = _R.standard_normal((3, 2, 2))  # conv_transpose1d/2d weights (in, out, k...)
W4 = _R.standard_normal((3, 2, 2, 2))
BW = _R.standard_normal((2, 4, 3))  # bilinear weight (out, in1, in2)
XT = _R.standard_normal((1, 3, 2, 2))
# index_reduce prod's zeros: source rows 0 and 2 go to self's row 0 (index [0, 2, 0])
M_SELF = [[1, 1, 0, 1], [1, 1, 1, 1], [0, 1, 1, 1]]
M_ONE = [[1, 0, 1, 1], [1, 1, 1, 0], [1, 1, 0, 1]]  # one zero at each place it reaches
M_TWO = [[1, 0, 1, 1], [1, 1, 1, 1], [1, 0, 1, 1]]  # two zeros meet at self[0, 1]


def _eigh_sign_free(lib: Any, x: Any) -> Any:
    # each eigenvector's sign is LAPACK's choice (numpy's and torch's differ): v * v is not
    w, v = lib.linalg.eigh(_sym(x))
    return w, v * v


def _lobpcg_sign_free(lib: Any, x: Any, k: int, **kwargs: Any) -> Any:
    # each eigenvector's sign is where the iteration ended (microtorch's and torch's differ)
    w, v = lib.lobpcg(_sym(x), k, **kwargs)
    return w, v * v


def _hooked(lib: Any, x: Any) -> Any:
    m = lib.nn.Tanh()
    m.register_full_backward_hook(lambda mod, gi, go: None)
    return m(x * 1) ** 2


def _index_put(lib: Any, x: Any, accumulate: bool) -> Any:
    y = x * 1
    return y.index_put((_i(lib, IDX),), x[:3] * x[:3], accumulate=accumulate) ** 2


def _setitem(lib: Any, x: Any) -> Any:
    y = x**2
    y[1:3] = x[:2] * 3
    return y * x


def _inplace(lib: Any, x: Any, name: str, *args: Any) -> Any:
    y = x * x
    getattr(y[1], name)(*args)
    return y * x


def _grad(lib: Any, x: Any, out: Any) -> Any:
    # the first derivative, recorded: a case on it compares the second and third with torch's
    # (the nodes a backward formula records, such as its np.add.at's, are then in its graph)
    (g,) = lib.autograd.grad(out.sum(), x, create_graph=True)
    return g


def _refreshed_view(lib: Any, x: Any) -> Any:
    # a view whose base is then changed in place: its grad_fn becomes AsStridedBackward0
    y = x * 1
    v = y[1:3]
    y.mul_(x)
    return v**2


def _random_fill(lib: Any, x: Any, name: str, *args: Any) -> Any:
    # y filled at random in place: its gradient is 0 (and so is its second), as torch's;
    # the draws (numpy's and torch's differ) only add to the output, never reach a gradient
    y = x**2
    getattr(y, name)(*args)
    return y + x**3


_R2 = np.random.default_rng(7)
W_IN, W_OUT = _R2.standard_normal((6, 2)), _R2.standard_normal((2, 2))  # (3 * E, E), (E, E)


def _mha_masked(lib: Any, x: Any) -> Any:
    # need_weights with a float attn_mask: the scores are baddbmm(mask, q, k^T)
    q = x.view(3, 1, 2)  # (L, N, E), one head
    mask = _c(lib, [[0.0, -1.0, 0.5]] * 3)
    return _f(lib).multi_head_attention_forward(
        q, q * 2, q**2, 2, 1, _c(lib, W_IN), None, None, None, False, 0.0, _c(lib, W_OUT), None,
        attn_mask=mask,
    )  # fmt: skip


# name: (shape of x, domain, call(lib, x) -> output or tuple of outputs)
CASES: dict[str, tuple[tuple[int, ...], str, Any]] = {
    # gamma functions, special functions
    "gamma_log_prob": ((3,), "positive", lambda L, x: L.distributions.Gamma(x, x * 2).log_prob(_c(L, [0.5, 1.0, 2.0]))),
    "gamma_cdf": ((3,), "positive", lambda L, x: L.distributions.Gamma(_c(L, [1.5, 2, 3]), 1).cdf(x)),
    "beta_log_prob": ((3,), "positive", lambda L, x: L.distributions.Beta(x, x + 1).log_prob(_c(L, [0.2, 0.5, 0.7]))),
    "dirichlet_log_prob": ((3,), "positive", lambda L, x: L.distributions.Dirichlet(x).log_prob(_c(L, [0.2, 0.5, 0.3]))),
    "student_t_log_prob": ((3,), "positive", lambda L, x: L.distributions.StudentT(x).log_prob(_c(L, [0.2, -0.5, 1.3]))),
    "mvn_log_prob": ((4, 4), "real", lambda L, x: L.distributions.MultivariateNormal(_c(L, np.zeros(4)), _spd(L, x)).log_prob(_c(L, B.T))),
    "mvn_scale_tril": ((4, 4), "real", lambda L, x: L.distributions.MultivariateNormal(x[0], scale_tril=L.tril(x) + 3 * L.eye(4, dtype=L.float64)).log_prob(_c(L, B.T))),
    "exp2": ((6,), "real", lambda L, x: L.special.exp2(x)),
    "logit": ((6,), "unit01", lambda L, x: L.special.logit(x)),
    "logit_eps": ((6,), "unit01", lambda L, x: L.logit(x, eps=0.2)),
    "sinc": ((6,), "real", lambda L, x: L.special.sinc(x)),
    "entr": ((6,), "positive", lambda L, x: L.special.entr(x)),
    "xlogy": ((2, 3), "positive", lambda L, x: L.special.xlogy(x, x[0] * 2)),
    "xlogy_number_self": ((6,), "positive", lambda L, x: L.special.xlogy(2.0, x)),
    "xlogy_number_other": ((6,), "positive", lambda L, x: L.special.xlogy(x, 3.0)),
    "xlog1py": ((2, 3), "positive", lambda L, x: L.special.xlog1py(x, x[0] * 2)),
    "xlog1py_number_self": ((6,), "positive", lambda L, x: L.special.xlog1py(2.0, x)),
    "xlog1py_number_other": ((6,), "positive", lambda L, x: L.special.xlog1py(x, 3.0)),
    "log2": ((6,), "positive", lambda L, x: L.log2(x)),
    "log10": ((6,), "positive", lambda L, x: L.log10(x)),
    "sgn": ((6,), "real", lambda L, x: L.sgn(x) * x**2),
    # rounding: derivative 0
    "ceil": ((6,), "real", lambda L, x: L.ceil(x) * x),
    "floor": ((6,), "real", lambda L, x: L.floor(x) * x),
    "round": ((6,), "real", lambda L, x: L.round(x) * x),
    "round_decimals": ((6,), "real", lambda L, x: L.round(x, decimals=1) * x),
    "sign": ((6,), "real", lambda L, x: L.sign(x) * x),
    "trunc": ((6,), "real", lambda L, x: L.trunc(x) * x),
    "div_floor": ((6,), "nonzero", lambda L, x: L.div(x, x[0] + 3, rounding_mode="floor") * x),
    "fmod": ((6,), "positive", lambda L, x: L.fmod(x * 3, x.flip(0)) * x),
    "fmod_scalar": ((6,), "real", lambda L, x: L.fmod(x * 3, 1.5) * x),
    "remainder": ((6,), "positive", lambda L, x: L.remainder(x * 3, x.flip(0)) * x),
    "remainder_both": ((6,), "positive", lambda L, x: L.remainder(x * 3, x**2 + 0.5) * x),
    "remainder_scalar": ((6,), "real", lambda L, x: L.remainder(x * 3, 1.5) * x),
    "clamp_tensor": ((6,), "real", lambda L, x: L.clamp(x, min=x.flip(0) * 0.5) ** 2),
    # reductions, scans, sorting
    "cumsum": ((2, 3), "real", lambda L, x: L.cumsum(x, 1) ** 2),
    "cumprod": ((2, 3), "nonzero", lambda L, x: L.cumprod(x, 1)),
    "prod": ((2, 3), "nonzero", lambda L, x: L.prod(x)),
    "prod_dim": ((2, 3), "nonzero", lambda L, x: L.prod(x, 1)),
    "sort": ((2, 4), "distinct", lambda L, x: L.sort(x, 1)[0] ** 2),
    "sort_stable": ((2, 4), "distinct", lambda L, x: L.sort(x, dim=1, stable=True)[0] ** 2),
    "topk": ((2, 4), "distinct", lambda L, x: L.topk(x, 2)[0] ** 2),
    "quantile": ((2, 5), "distinct", lambda L, x: L.quantile(x, _c(L, [0.3, 0.7]), dim=1) ** 2),
    "vector_norm": ((2, 3), "real", lambda L, x: L.linalg.vector_norm(x, dim=1)),
    "vector_norm_3": ((2, 3), "real", lambda L, x: L.linalg.vector_norm(x, 3)),
    "squeeze_dims": ((2, 1, 3), "real", lambda L, x: x.squeeze((0, 1)) ** 2),
    "to_float32": ((6,), "real", lambda L, x: (x * x).to(L.float32).to(L.float64) * x),
    "add_scalar": ((6,), "real", lambda L, x: L.nn.functional.cosine_embedding_loss(x.view(2, 3), x.view(2, 3).flip(0), _c(L, [1.0, -1.0]))),
    # linalg
    "cholesky": ((4, 4), "real", lambda L, x: L.linalg.cholesky(_spd(L, x))),
    "cholesky_upper": ((4, 4), "real", lambda L, x: L.linalg.cholesky(_spd(L, x), upper=True)),
    "inv": ((4, 4), "real", lambda L, x: L.linalg.inv(x + 3 * L.eye(4, dtype=L.float64))),
    "slogdet": ((4, 4), "real", lambda L, x: L.linalg.slogdet(x + 3 * L.eye(4, dtype=L.float64))[1]),
    "solve": ((4, 4), "real", lambda L, x: L.linalg.solve(x + 3 * L.eye(4, dtype=L.float64), x[:, :2])),
    "matrix_exp": ((3, 3), "real", lambda L, x: L.linalg.matrix_exp(x * 0.5)),
    "eigh": ((4, 4), "real", lambda L, x: _eigh_sign_free(L, x)),
    "eigvalsh": ((4, 4), "real", lambda L, x: L.linalg.eigvalsh(_sym(x))),
    "svd": ((4, 3), "real", lambda L, x: L.linalg.svd(x, full_matrices=False)[1]),
    "svd_vectors": ((4, 3), "real", lambda L, x: L.linalg.svd(x, full_matrices=False)[0].abs()),
    "qr": ((4, 3), "real", lambda L, x: L.linalg.qr(x)),
    "qr_wide": ((3, 4), "real", lambda L, x: L.linalg.qr(x)),
    "qr_complete": ((4, 4), "real", lambda L, x: L.linalg.qr(x, mode="complete")),
    "pinv": ((4, 3), "real", lambda L, x: L.linalg.pinv(x)),
    "lstsq": ((4, 3), "real", lambda L, x: L.linalg.lstsq(x, x[:, :1] ** 2).solution),
    # index ops
    "index_add": ((4, 3), "real", lambda L, x: x.index_add(0, _i(L, IDX), x[:3] * x[1:]) ** 2),
    "index_copy": ((4, 3), "real", lambda L, x: x.index_copy(0, _i(L, PERM), x[:3] ** 2) * x),
    "index_fill": ((4, 3), "real", lambda L, x: x.index_fill(1, _i(L, [0, 2]), 1.5) * x),
    "index_fill_tensor": ((4, 3), "real", lambda L, x: (x * x).index_fill(1, _i(L, [1]), x[0, 0]) * x),
    "tensor_unfold": ((7,), "real", lambda L, x: x.unfold(0, 3, 2) ** 2),
    "setitem": ((4, 3), "real", _setitem),
    "alias": ((4, 3), "real", lambda L, x: x[...] ** 2),
    "fill_": ((4, 3), "real", lambda L, x: _inplace(L, x, "fill_", 2.0)),
    "fill__tensor": ((4, 3), "real", lambda L, x: _inplace(L, x, "fill_", x[0, 0] * 2)),
    "zero_": ((4, 3), "real", lambda L, x: _inplace(L, x, "zero_")),
    "copy_": ((4, 3), "real", lambda L, x: _inplace(L, x, "copy_", x[0] ** 2)),
    # layers
    "silu": ((2, 3), "real", lambda L, x: _f(L).silu(x)),
    "elu_": ((2, 3), "real", lambda L, x: _f(L).elu(x * 1, inplace=True) * x),
    "celu_": ((2, 3), "real", lambda L, x: _f(L).celu(x * 1, 0.7, inplace=True) * x),
    "bilinear": ((2, 4), "real", lambda L, x: _f(L).bilinear(x, x[:, :3] ** 2, _c(L, BW)) ** 2),
    "conv_transpose1d": ((1, 3, 5), "real", lambda L, x: _f(L).conv_transpose1d(x, _c(L, W3), stride=2) ** 2),
    "conv_transpose2d": ((1, 3, 3, 3), "real", lambda L, x: _f(L).conv_transpose2d(x, _c(L, W4), padding=1) ** 2),
    "conv_transpose2d_weight": ((3, 2, 2, 2), "real", lambda L, x: _f(L).conv_transpose2d(_c(L, XT), x, stride=2) ** 2),
    "fold": ((1, 4, 4), "real", lambda L, x: _f(L).fold(x, (3, 3), 2) ** 2),
    "unfold": ((1, 1, 4, 4), "real", lambda L, x: _f(L).unfold(x, 2, stride=1) ** 2),
    "rms_norm": ((2, 4), "real", lambda L, x: _f(L).rms_norm(x, (4,), x[0] * 1)),
    "instance_norm": ((2, 3, 4), "real", lambda L, x: _f(L).instance_norm(x)),
    "group_norm_affine": ((2, 4, 3), "real", lambda L, x: _f(L).group_norm(x, 2, x[0, :, 0] * 1, x[1, :, 1] * 1)),
    "soft_margin": ((2, 4), "real", lambda L, x: _f(L).soft_margin_loss(x, _c(L, [[1, -1, 1, 1], [-1, -1, 1, -1]]))),
    "margin_ranking": ((2, 3), "real", lambda L, x: _f(L).margin_ranking_loss(x[0], x[1], _c(L, [1, -1, 1])) * x.sum()),
    "pad_reflect": ((1, 2, 4), "real", lambda L, x: _f(L).pad(x, (2, 1), mode="reflect") ** 2),
    "pad_replicate": ((1, 2, 3, 3), "real", lambda L, x: _f(L).pad(x, (1, 1, 2, 0), mode="replicate") ** 2),
    "pad_circular": ((1, 2, 4), "real", lambda L, x: _f(L).pad(x, (1, 2), mode="circular") ** 2),
    "adaptive_max_pool2d": ((1, 2, 4, 4), "distinct", lambda L, x: _f(L).adaptive_max_pool2d(x, 2) ** 2),
    "upsample_nearest1d": ((1, 2, 3), "real", lambda L, x: _f(L).interpolate(x, scale_factor=2) ** 2),
    "backward_hook": ((2, 3), "real", _hooked),
    "sdpa_math_3d": ((1, 3, 2), "real", lambda L, x: _f(L).scaled_dot_product_attention(x, x * 2, x ** 2)),
    "sdpa_math_mask": ((1, 3, 2), "real", lambda L, x: _f(L).scaled_dot_product_attention(x, x * 2, x ** 2, attn_mask=_c(L, [[0.0, -1.0, 0.5]] * 3))),
}  # fmt: skip

# ops added to main at 5a8d518 (walkb and others): second derivatives against torch
CASES.update({
    "affine_grid": ((1, 2, 3), "real", lambda L, x: _f(L).affine_grid(x, [1, 1, 2, 3], align_corners=False) ** 2),
    "local_response_norm": ((1, 4, 3), "positive", lambda L, x: _f(L).local_response_norm(x, 2)),
    "adaptive_avg_pool3d": ((1, 2, 4, 4, 2), "real", lambda L, x: _f(L).adaptive_avg_pool3d(x, 2) ** 2),
    "adaptive_max_pool3d": ((1, 1, 4, 4, 2), "distinct", lambda L, x: _f(L).adaptive_max_pool3d(x, 2) ** 2),
    "avg_pool3d": ((1, 1, 4, 4, 2), "real", lambda L, x: _f(L).avg_pool3d(x, 2) ** 2),
    "max_pool3d": ((1, 1, 4, 4, 2), "distinct", lambda L, x: _f(L).max_pool3d(x, 2) ** 2),
    "max_unpool2d": ((1, 1, 4, 4), "distinct", lambda L, x: _f(L).max_unpool2d(*_f(L).max_pool2d(x, 2, return_indices=True), 2) ** 2),
    "max_unpool3d": ((1, 1, 4, 4, 2), "distinct", lambda L, x: _f(L).max_unpool3d(*_f(L).max_pool3d(x, 2, return_indices=True), 2) ** 2),
    "fractional_max_pool2d": ((1, 1, 5, 6), "distinct", lambda L, x: _f(L).fractional_max_pool2d(x, 2, 3, _random_samples=L.tensor([[[0.3, 0.6]]], dtype=L.float64)) ** 2),  # (walkj)
    "fractional_max_pool3d": ((1, 1, 5, 5, 4), "distinct", lambda L, x: _f(L).fractional_max_pool3d(x, 2, 2, _random_samples=L.tensor([[[0.3, 0.6, 0.8]]], dtype=L.float64)) ** 2),
    "glu": ((3, 4), "real", lambda L, x: _f(L).glu(x)),
    "hardshrink": ((6,), "distinct", lambda L, x: _f(L).hardshrink(x, 0.5) ** 2),
    "softshrink": ((6,), "distinct", lambda L, x: _f(L).softshrink(x, 0.5) ** 2),
    "tensor_hardshrink": ((6,), "distinct", lambda L, x: x.hardshrink(0.5) ** 2),
    "threshold": ((6,), "distinct", lambda L, x: _f(L).threshold(x, 0.1, -1.0) ** 2),
    "threshold_": ((6,), "distinct", lambda L, x: _f(L).threshold(x * 1, 0.1, -1.0, inplace=True) * x),
    "rrelu_eval": ((6,), "distinct", lambda L, x: _f(L).rrelu(x, training=False) ** 2),
    "rrelu_eval_": ((6,), "distinct", lambda L, x: _f(L).rrelu(x * 1, training=False, inplace=True) * x),
    "channel_shuffle": ((1, 4, 2), "real", lambda L, x: _f(L).channel_shuffle(x, 2) ** 2),
    "pixel_shuffle": ((1, 4, 2, 2), "real", lambda L, x: _f(L).pixel_shuffle(x, 2) ** 2),
    "pixel_unshuffle": ((1, 1, 4, 4), "real", lambda L, x: _f(L).pixel_unshuffle(x, 2) ** 2),
    "i0": ((5,), "real", lambda L, x: L.special.i0(x)),
    "i0e": ((5,), "real", lambda L, x: L.special.i0e(x)),
    "i1": ((5,), "real", lambda L, x: L.special.i1(x)),
    "i1e": ((5,), "real", lambda L, x: L.special.i1e(x)),
    "dist": ((2, 3), "real", lambda L, x: L.dist(x, x.flip(0) * 2, 3)),
    "dist_p2": ((2, 3), "real", lambda L, x: L.dist(x, x.flip(0) * 2)),
    "ldexp": ((5,), "real", lambda L, x: L.ldexp(x**2, _i(L, [1, 2, 0, -1, 3]))),
    "frexp": ((5,), "distinct", lambda L, x: L.frexp(x * x + 0.3).mantissa * x),
    "lu_solve_b": ((3, 3), "real", lambda L, x: L.linalg.lu_solve(
        *L.linalg.lu_factor(x.detach() + 3 * L.eye(3, dtype=x.dtype)), x**2) * x),
    # --- walkd's and walke's ops (merged after the cases above were written)
    "householder_product": ((3, 2), "real", lambda L, x: L.linalg.householder_product(x, x[0] ** 2)),
    "ormqr": ((4, 3), "real", lambda L, x: L.ormqr(x, x[0] * 0.5, x[:, :2] ** 2)),
    "ormqr_right_transpose": ((4, 3), "real", lambda L, x: L.ormqr(x, x[1] ** 2 * 0.5, x.mT * 1, left=False, transpose=True)),
    "linalg_lu": ((3, 3), "real", lambda L, x: tuple(t * x for t in L.linalg.lu(x)[1:])),
    "lu_factor_ex": ((3, 3), "real", lambda L, x: L.linalg.lu_factor_ex(x).LU * x),
    "lu_unpack": ((3, 3), "real", lambda L, x: tuple(t * x for t in L.lu_unpack(*L.linalg.lu_factor(x))[1:])),
    "torch_cholesky": ((3, 3), "real", lambda L, x: L.cholesky(_spd(L, x))),
    "cholesky_inverse": ((3, 3), "real", lambda L, x: L.cholesky_inverse(L.linalg.cholesky(_spd(L, x)))),
    "cholesky_solve": ((3, 3), "real", lambda L, x: L.cholesky_solve(x**2, L.linalg.cholesky(_spd(L, x)))),
    "cholesky_ex": ((3, 3), "real", lambda L, x: L.linalg.cholesky_ex(_spd(L, x)).L),
    "inv_ex": ((3, 3), "real", lambda L, x: L.linalg.inv_ex(x + 3 * L.eye(3, dtype=x.dtype)).inverse),
    "solve_ex": ((3, 3), "real", lambda L, x: L.linalg.solve_ex(x + 3 * L.eye(3, dtype=x.dtype), x**2).result),
    "solve_triangular": ((3, 3), "real", lambda L, x: L.linalg.solve_triangular(x.triu() + 3 * L.eye(3, dtype=x.dtype), x**2, upper=True)),
    "triangular_solve": ((3, 3), "real", lambda L, x: L.triangular_solve(x**2, x.triu() + 3 * L.eye(3, dtype=x.dtype)).solution),
    "nanmedian": ((5,), "distinct", lambda L, x: L.nanmedian(x**2) * x),
    "nanmedian_dim": ((2, 3), "distinct", lambda L, x: L.nanmedian(x**2, 1).values * x[:, 0]),
    "renorm": ((2, 3), "real", lambda L, x: L.renorm(x, 2, 0, 1.0) * x),
    "erfcx": ((5,), "real", lambda L, x: L.special.erfcx(x)),
    "log_ndtr": ((5,), "real", lambda L, x: L.special.log_ndtr(x)),
    "ndtri": ((5,), "unit01", lambda L, x: L.special.ndtri(x)),
    "mvlgamma": ((5,), "positive", lambda L, x: L.special.multigammaln(x + 2, 2)),
    "polygamma": ((5,), "positive", lambda L, x: L.special.polygamma(1, x)),
    "polygamma_3": ((5,), "positive", lambda L, x: L.special.polygamma(3, x)),
    "lgamma": ((5,), "positive", lambda L, x: L.lgamma(x * 3 - 1)),
    "digamma": ((5,), "positive", lambda L, x: L.digamma(x * 3 - 1)),
    "zeta_tensor_s": ((5,), "positive", lambda L, x: L.special.zeta(_c(L, [[2.5], [4.0]]), x)),
    "zeta_number_s": ((5,), "positive", lambda L, x: L.special.zeta(3.0, x)),
    "addbmm": ((2, 2, 2), "real", lambda L, x: L.addbmm(x[0] * 1, x, x**2, beta=0.5, alpha=2)),
    "addmm_scaled": ((2, 2), "real", lambda L, x: L.addmm(x, x**2, x, beta=0.5, alpha=2)),
    "addmv": ((2, 2), "real", lambda L, x: L.addmv(x[0], x**2, x[1], beta=0.5, alpha=2)),
    "addr": ((2, 2), "real", lambda L, x: L.addr(x**2, x[0], x[1], beta=0.5, alpha=2)),
    "baddbmm": ((2, 2, 2), "real", lambda L, x: L.baddbmm(x, x**2, x, beta=0.5, alpha=2)),
    "rsub_scalar": ((4,), "real", lambda L, x: L.rsub(x**2, 3.0, alpha=2) * x),
    "rsub_tensor": ((4,), "real", lambda L, x: L.rsub(x**2, x, alpha=2) * x),
    "aminmax": ((2, 3), "distinct", lambda L, x: tuple(t**2 for t in L.aminmax(x, dim=1))),
    "cummax": ((5,), "distinct", lambda L, x: L.cummax(x, 0).values ** 2),
    "cummin": ((5,), "distinct", lambda L, x: L.cummin(x, 0).values ** 2),
    "logcumsumexp": ((5,), "real", lambda L, x: L.logcumsumexp(x, 0)),
    "block_diag": ((2, 2), "real", lambda L, x: L.block_diag(x, x**2) ** 2),
    "take": ((2, 3), "real", lambda L, x: L.take(x, _i(L, [0, 4, 4])) ** 2),
    "put": ((2, 3), "real", lambda L, x: (x * 1).put(_i(L, [0, 4, 4]), x[0] ** 2, accumulate=True) ** 2),
    "put_": ((2, 3), "real", lambda L, x: (x * 1).put_(_i(L, [0, 4, 4]), x[0] ** 2, accumulate=True) ** 2),
    "masked_scatter": ((2, 3), "real", lambda L, x: (x * 1).masked_scatter(_c(L, [[1, 0, 1], [0, 1, 0]], L.bool), x**2) ** 2),
    "rot90": ((2, 3), "real", lambda L, x: L.rot90(x, 1, [0, 1]) ** 2),
    "norm_dim": ((2, 3), "real", lambda L, x: L.norm(x, 3, dim=1)),
    "index_put_accumulated": ((5,), "real", lambda L, x: _index_put(L, x, True)),
    "fill": ((3,), "real", lambda L, x: L.fill(x**2, 2.0) * x),
    "fill_tensor": ((3,), "real", lambda L, x: L.fill(x**2, (x[0] ** 2).sum()) * x),
    "nextafter": ((4,), "real", lambda L, x: L.nextafter(x**2, x) * x),
    # walkg
    "conv_tbc": ((4, 2, 3), "real", lambda L, x: _f(L).conv_tbc(x**2, x[:2].transpose(1, 2) * 1, x[0, 0, :2] * 1, 1)),
    "index_reduce_mean": ((3, 4), "real", lambda L, x: L.index_reduce(x**2, 0, _i(L, [0, 2, 0]), x * 3, "mean") * x),
    "index_reduce_amax": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2, 0, _i(L, [0, 2, 0]), x * 3, "amax") * x),
    "index_reduce_amin": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2, 1, _i(L, [3, 1, 3, 0]), x * 3, "amin", include_self=False) * x),
    "index_reduce_prod": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2, 0, _i(L, [0, 2, 0]), x * 3, "prod") * x),
    # zeros: in self, and one alone at its place in source (PyTorch's formula handles both)
    "index_reduce_prod_zero": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2 * _c(L, M_SELF), 0, _i(L, [0, 2, 0]), x * _c(L, M_ONE), "prod") * x),
    "index_reduce_prod_exclude": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2, 0, _i(L, [0, 2, 0]), x * _c(L, M_ONE), "prod", include_self=False) * x),
    # lobpcg: the default tol (pairs converged to about 1e-8: TOLERANCE), and tol=1e-13
    "lobpcg": ((6, 6), "real", lambda L, x: _lobpcg_sign_free(L, x, 2)),
    "lobpcg_smallest": ((12, 12), "real", lambda L, x: _lobpcg_sign_free(L, x, 3, largest=False, tol=1e-13)),
    "lobpcg_batch": ((2, 9, 9), "real", lambda L, x: _lobpcg_sign_free(L, x, 3, tol=1e-13)),
})  # fmt: skip

# dbl5: the Functions only reached through paths without a case before (issue 23)
CASES.update({
    "pad_reflect3d": ((1, 1, 3, 3, 4), "real", lambda L, x: _f(L).pad(x, (2, 1, 1, 0, 1, 2), mode="reflect") ** 2),
    "pad_replicate3d": ((1, 1, 3, 2, 3), "real", lambda L, x: _f(L).pad(x, (1, 2, 0, 1, 2, 1), mode="replicate") ** 2),
    "pairwise_distance": ((2, 3), "real", lambda L, x: _f(L).pairwise_distance(x, x.flip(0) * 2, 3)),
    "kl_div_target": ((2, 3), "positive", lambda L, x: _f(L).kl_div(x.log() * 0.5, x, reduction="sum")),
    "vdot": ((6,), "real", lambda L, x: L.vdot(x, x**2)),
    "view_refreshed": ((4,), "real", _refreshed_view),
    "index_put": ((5,), "real", lambda L, x: (x * 1).index_put((_i(L, PERM),), x[:3] * x[:3]) ** 2),
    "igamma_other": ((3,), "positive", lambda L, x: L.igamma(_c(L, [1.5, 2.0, 3.0]), x)),
    "igammac_other": ((3,), "positive", lambda L, x: L.igammac(_c(L, [1.5, 2.0, 3.0]), x)),
    "mha_masked": ((6,), "real", _mha_masked),
    # first derivatives, recorded: their formulas' np.add.at (IndexPutImplBackward0),
    # np.put_along_axis (ScatterBackward0) and np.take_along_axis (GatherBackward0)
    "take_grad": ((2, 3), "real", lambda L, x: _grad(L, x, L.take(x, _i(L, [0, 4, 4])) ** 3)),
    "index_grad": ((5,), "real", lambda L, x: _grad(L, x, x[_i(L, IDX)] ** 3)),
    "sort_grad": ((2, 4), "distinct", lambda L, x: _grad(L, x, L.sort(x, 1)[0] ** 3 * x)),
    "max_unpool2d_grad": ((1, 1, 4, 4), "distinct", lambda L, x: _grad(L, x, _f(L).max_unpool2d(*_f(L).max_pool2d(x, 2, return_indices=True), 2) ** 3)),
})  # fmt: skip

# dbl5: random fills and draws, gradient 0 as torch's (no finite differences: each call draws anew)
CASES.update({
    "normal_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "normal_")),
    "uniform_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "uniform_")),
    "exponential_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "exponential_")),
    "geometric_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "geometric_", 0.3)),
    "cauchy_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "cauchy_")),
    "log_normal_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "log_normal_")),
    "bernoulli_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "bernoulli_", 0.3)),
    "bernoulli__tensor": ((4,), "unit01", lambda L, x: _random_fill(L, x, "bernoulli_", x * 1)),
    "random_": ((4,), "unit01", lambda L, x: _random_fill(L, x, "random_")),
    "random__to": ((4,), "unit01", lambda L, x: _random_fill(L, x, "random_", 5)),
    "random__from_to": ((4,), "unit01", lambda L, x: _random_fill(L, x, "random_", 2, 5)),
    "normal_tensors": ((4,), "unit01", lambda L, x: L.normal(x**2, x * 1) + x**3),
    "normal_tensor_number": ((4,), "unit01", lambda L, x: L.normal(x**2, 0.5) + x**3),
    "normal_number_tensor": ((4,), "unit01", lambda L, x: L.normal(0.5, x**2) + x**3),
    "bernoulli": ((4,), "unit01", lambda L, x: L.bernoulli(x**2) + x**3),
    "poisson": ((4,), "unit01", lambda L, x: L.poisson(x**2) + x**3),
})  # fmt: skip

# kw3: clamp_min/clamp_max by a tensor bound that requires grad (broadcast: its gradient summed)
CASES.update({
    "clamp_min_tensor": ((6,), "distinct", lambda L, x: L.clamp_min(x, x.flip(0) * 0.5) ** 2),
    "clamp_max_tensor": ((2, 3), "distinct", lambda L, x: L.clamp_max(x, x[0] * 0.7) ** 2),
    "clamp_min__tensor": ((2, 3), "distinct", lambda L, x: (x * 1).clamp_min_(x[1] ** 2) ** 2),
})  # fmt: skip

# ops whose second derivative PyTorch does not have: torch raises, and so must microtorch
RAISES: dict[str, tuple[tuple[int, ...], str, Any]] = {
    "zeta": ((5,), "positive", lambda L, x: L.special.zeta(x + 1.5, x)),  # (no first one)
    "zeta_number_q": ((5,), "positive", lambda L, x: L.special.zeta(x + 1.5, 2.0)),
    "geqrf": ((3, 2), "real", lambda L, x: L.geqrf(x)[0] * x),  # (no first derivative either)
    "pdist": ((4, 3), "real", lambda L, x: _f(L).pdist(x) ** 2),
    "hardsigmoid": ((6,), "real", lambda L, x: _f(L).hardsigmoid(x * 3)),
    "sdpa_flash": ((1, 1, 3, 2), "real", lambda L, x: _f(L).scaled_dot_product_attention(x, x * 2, x**2)),  # (4-d: the fused kernel)
    "standard_gamma": ((3,), "positive", lambda L, x: L.distributions.Gamma(x, 1.0).rsample()),
    "cdist": ((4, 2), "real", lambda L, x: L.cdist(x, x.flip(0) + 0.5)),
    "multi_margin": ((3, 4), "real", lambda L, x: _f(L).multi_margin_loss(x, _i(L, [1, 0, 3])) * x.sum()),
    "multi_margin_p2": ((3, 4), "real", lambda L, x: _f(L).multi_margin_loss(x, _i(L, [1, 0, 3]), p=2)),
    "multilabel_margin": ((2, 4), "real", lambda L, x: _f(L).multilabel_margin_loss(x, _i(L, [[3, 0, -1, 1], [1, 2, 3, -1]])) * x.sum()),
    "embedding_bag_sum": ((5, 3), "real", lambda L, x: _f(L).embedding_bag(_i(L, [[0, 2, 2], [4, 1, 0]]), x, mode="sum") ** 2),
    "embedding_bag_max": ((5, 3), "distinct", lambda L, x: _f(L).embedding_bag(_i(L, [[0, 2, 3], [4, 1, 0]]), x, mode="max") ** 2),
    "embedding_bag_weights": ((5, 3), "real", lambda L, x: _f(L).embedding_bag(_i(L, [0, 2, 2, 4]), x, _i(L, [0, 2]), mode="sum", per_sample_weights=x[:4, 0] * 1) ** 2),
    "index_reduce_prod_zeros": ((3, 4), "distinct", lambda L, x: L.index_reduce(x**2, 0, _i(L, [0, 2, 0]), x * _c(L, M_TWO), "prod") * x),  # (two zeros at one place)
    "embedding_bag_mean": ((5, 3), "real", lambda L, x: _f(L).embedding_bag(_i(L, [0, 2, 2, 4]), x, _i(L, [0, 1]), mode="mean") ** 2),
    # per_sample_weights a leaf of its own: its gradient is not taken, only weight's node is reached
    "embedding_bag_weights_leaf": ((5, 3), "real", lambda L, x: _f(L).embedding_bag(_i(L, [0, 2, 2, 4]), x, _i(L, [0, 2]), mode="sum", per_sample_weights=_c(L, [0.5, 2.0, -1.0, 1.5]).requires_grad_()) ** 2),
    "ctc_loss": ((5, 2, 3), "real", lambda L, x: _f(L).ctc_loss(x.log_softmax(2), _i(L, [[1, 2], [2, 0]]), (5, 4), (2, 1), reduction="sum")),  # (walki)
    # dbl5: igamma's derivative by its first argument is not in PyTorch (no first one either)
    "igamma_self": ((3,), "positive", lambda L, x: L.igamma(x, _c(L, [1.5, 2.0, 3.0]))),
    "igammac_self": ((3,), "positive", lambda L, x: L.igammac(x, _c(L, [1.5, 2.0, 3.0]))),
    # PyTorch's CrossMapLRN2d backward writes into out= tensors: create_graph=True refuses it
    "cross_map_lrn2d": ((1, 4, 2, 2), "positive", lambda L, x: L.nn.CrossMapLRN2d(3, 0.5, 0.75, 1.0)(x)),
}  # fmt: skip


def _inputs(shape: tuple[int, ...], domain: str) -> np.ndarray:
    rng = np.random.default_rng(3)
    if domain == "positive":
        return rng.uniform(0.5, 2.0, shape)
    if domain == "unit01":
        return rng.uniform(0.1, 0.9, shape)
    if domain == "nonzero":
        return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)
    if domain == "distinct":
        n = int(np.prod(shape))
        return (rng.permutation(n) * (4.0 / n) - 2.0 + 0.0123).reshape(shape)
    return rng.standard_normal(shape)


def _outputs(out: Any) -> list[Any]:
    outs = list(out) if isinstance(out, tuple) else [out]
    return [o for o in outs if o.dtype.is_floating_point and o.requires_grad]


def _run(lib: Any, case: tuple[tuple[int, ...], str, Any]) -> list[Any]:
    shape, domain, call = case
    lib.manual_seed(0)
    x = lib.tensor(_inputs(shape, domain), dtype=lib.float64, requires_grad=True)
    outs = _outputs(call(lib, x))
    rng = np.random.default_rng(1)
    vs = [
        lib.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype, requires_grad=True)
        for o in outs
    ]
    (g,) = lib.autograd.grad(outs, x, vs, create_graph=True)
    w = lib.tensor(rng.standard_normal(tuple(g.shape)), dtype=lib.float64)
    if not g.requires_grad:
        return [np.array(g.detach().numpy()), None]
    second = lib.autograd.grad((g * w).sum(), [x, *vs], allow_unused=True)
    return [np.array(h.detach().numpy()) if h is not None else None for h in (g, *second)]


# What microtorch does not yet do as torch does (TODO issue 23), case name -> why: strict
# xfails, so a fix shows up. None now.
GAPS: dict[str, str] = {}


# torch's polygamma(1, x) (trigamma) is good to about 5e-10 (relative, against mpmath), where
# microtorch's is good to 4e-16: the second derivatives through it differ by that much
TOLERANCE = {"beta_log_prob": (1e-8, 1e-9), "gamma_log_prob": (1e-8, 1e-9)}
# lobpcg at its default tol (sqrt(eps)): its eigenvectors agree with torch's to about 1e-8 (the
# first-order tests allow 2e-6), and the first and second derivatives are linear in them
TOLERANCE["lobpcg"] = (1e-6, 2e-6)


def _gap(name: str) -> list[Any]:
    return [pytest.mark.xfail(strict=True, reason=GAPS[name])] if name in GAPS else []


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", [pytest.param(n, marks=_gap(n)) for n in sorted(CASES)])
def test_second_derivative_matches_torch(name: str) -> None:
    theirs, mine = _run(torch, CASES[name]), _run(microtorch, CASES[name])
    assert len(mine) == len(theirs)
    for k, (m, t) in enumerate(zip(mine, theirs)):
        if m is None and t is None:
            continue
        shape = (t if t is not None else m).shape
        m = np.zeros(shape) if m is None else m
        t = np.zeros(shape) if t is None else t
        rtol, atol = TOLERANCE.get(name, (1e-9, 1e-11))
        np.testing.assert_allclose(m, t, rtol=rtol, atol=atol, err_msg=f"result {k}")


def _raised(lib: Any, name: str) -> str:
    with pytest.raises((RuntimeError, NotImplementedError)) as info:
        _run(lib, RAISES[name])
    text = str(info.value).splitlines()[0].replace("microtorch", "torch")
    return f"{type(info.value).__name__}: {text}"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", [pytest.param(n, marks=_gap(n)) for n in sorted(RAISES)])
def test_no_second_derivative_raises_as_torch(name: str) -> None:
    assert _raised(microtorch, name) == _raised(torch, name)


# The fixed formulas (issue 23) by finite differences too, not only against torch
FIXED = ["cholesky", "cholesky_upper", "eigh", "qr", "qr_wide", "celu_", "dist"]
FIXED += ["beta_log_prob", "gamma_log_prob", "polygamma", "mvlgamma", "logcumsumexp", "take"]
FIXED += ["zeta_number_s", "zeta_tensor_s", "adaptive_avg_pool3d", "affine_grid"]
# (not lu_solve_b: its LU is detached, which finite differences cannot see)
FIXED += ["linalg_lu", "lu_factor_ex", "lu_unpack", "triangular_solve", "solve_triangular"]
FIXED += ["cholesky_solve", "eigvalsh", "lstsq", "conv_tbc", "remainder", "ormqr"]
FIXED += ["ormqr_right_transpose", "index_reduce_prod", "index_reduce_prod_zero"]
FIXED += ["gamma_cdf", "matrix_exp", "i0", "i0e", "i1", "i1e", "log_ndtr"]
FIXED += ["lgamma", "digamma", "polygamma_3", "rot90", "masked_scatter", "fill_tensor", "ldexp"]
FIXED += ["lobpcg_smallest", "lobpcg_batch"]  # (at tol=1e-13: finite differences need it)
FIXED += ["pad_reflect3d", "pad_replicate3d", "pairwise_distance", "kl_div_target", "vdot"]
FIXED += ["view_refreshed", "index_put", "igamma_other", "igammac_other", "mha_masked"]
FIXED += ["take_grad", "index_grad", "sort_grad", "max_unpool2d_grad"]  # (third derivatives)
FIXED += ["clamp_min_tensor", "clamp_max_tensor", "clamp_min__tensor"]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", FIXED)
def test_fixed_second_derivative_by_finite_differences(name: str) -> None:
    shape, domain, call = CASES[name]
    x = microtorch.tensor(_inputs(shape, domain), dtype=microtorch.float64, requires_grad=True)

    def f(t: Any) -> Any:
        return tuple(_outputs(call(microtorch, t)))

    assert microtorch.autograd.gradgradcheck(f, (x,))


def test_no_case_name_is_written_twice() -> None:
    # CASES is a dict literal and CASES.update({...}): a name written in both kept only the
    # second case ("fill_tensor" once hid the in-place fill_ case). Read from the source.
    tree = ast.parse(Path(__file__).read_text())
    names: list[str] = []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            target = next((t.id for t in targets if isinstance(t, ast.Name)), None)
            found = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and isinstance(node.func.value, ast.Name)
            and node.args
            and isinstance(node.args[0], ast.Dict)
        ):
            target, found = node.func.value.id, node.args[0]
        if target in ("CASES", "RAISES"):
            names += [k.value for k in found.keys if isinstance(k, ast.Constant)]
    assert len(names) == len(CASES) + len(RAISES) > 150
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def _tree(fn: Any, depth: int) -> Any:
    if fn is None or depth == 0:
        return None if fn is None else fn.name()
    return (fn.name(), tuple(_tree(f, depth - 1) for f, _ in fn.next_functions))


def _gradient_graph(lib: Any, name: str, depth: int) -> Any:
    shape, domain, call = {**CASES, **RAISES}[name]
    lib.manual_seed(0)
    x = lib.tensor(_inputs(shape, domain), dtype=lib.float64, requires_grad=True)
    outs = _outputs(call(lib, x))
    vs = [lib.ones_like(o).requires_grad_() for o in outs]
    (g,) = lib.autograd.grad(outs, x, vs, create_graph=True)
    return _tree(g.grad_fn, depth)


# the recorded gradient's nodes, as deep as they are torch's (issue 23's fixed formulas)
GRADIENT_NODES = {
    "remainder_both": 6, "eigvalsh": 6, "lstsq": 5, "pinv": 5, "ormqr": 2, "ormqr_right_transpose": 2,
    "embedding_bag_sum": 5, "embedding_bag_max": 5, "embedding_bag_weights": 5,
    "sdpa_flash": 4, "index_reduce_prod": 2, "lobpcg": 5,
}  # fmt: skip
# (deeper, ormqr's A gradient and index_reduce's masked_fill are written with other ops than
# PyTorch's; conv_tbc's input gradient differs at its top; lobpcg's part outside span(U) is
# a solve, PyTorch's a Cholesky solve of a Sylvester equation: README)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(GRADIENT_NODES))
def test_recorded_gradient_has_torchs_nodes(name: str) -> None:
    depth = GRADIENT_NODES[name]
    assert _gradient_graph(microtorch, name, depth) == _gradient_graph(torch, name, depth)
