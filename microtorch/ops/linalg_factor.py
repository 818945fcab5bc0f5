"""QR, the symmetric eigendecomposition, the pseudo-inverse, least squares and pairwise
distances (batched over leading dims), with their gradients.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions are in ``microtorch/api/linalg_factor.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import not_given, recorded, run_recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import column_major

__all__ = ["LinalgQr", "LinalgEigh", "LinalgPinv", "LinalgLstsq", "Cdist", "pinv_of", "pnorm_grad"]


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def _solve_right_rt(b: np.ndarray, r: np.ndarray) -> np.ndarray:
    # b @ inv(r)^T for a square upper-triangular r: solve r x^T = b^T
    return _mt(np.linalg.solve(r, _mt(b)))


def _qr_square_or_tall(q: np.ndarray, r: np.ndarray, gq: np.ndarray, gr: np.ndarray) -> np.ndarray:
    # A = QR with m >= n (reduced): M = R gR^T - gQ^T Q, dA = (gQ + Q copyltu(M)) R^-T
    m = r @ _mt(gr) - _mt(gq) @ q
    low = np.tril(m, -1)
    copyltu = low + _mt(low) + m * np.eye(m.shape[-1], dtype=m.dtype)
    return _solve_right_rt(gq + q @ copyltu, r)


class LinalgQr(NumpyFunction):
    """Q, R = qr(A). For m >= n (reduced): with M = R dR^T - dQ^T Q and copyltu(M) its
    lower triangle mirrored up, dL/dA = (dQ + Q copyltu(M)) R^-T. For m < n, A = [X | Y],
    R = [U | V]: X's gradient is that formula with dQ + Y dV^T and dU; Y's is Q dV."""

    node_name = "LinalgQrBackward0"
    ctx_fields = ("mode",)

    @staticmethod
    def forward(ctx, a, mode):
        q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
        r = column_major(r).astype(a.dtype, copy=False)  # (LAPACK's layout, as PyTorch's)
        q = column_major(q).astype(a.dtype, copy=False)
        ctx.save_for_backward(a, q, r)  # (the results: create_graph=True records through them)
        ctx.mode = mode
        return (np.zeros((0,), a.dtype), r) if mode == "r" else (q, r)

    @staticmethod
    def backward(ctx, grad_q, grad_r):
        a, q, r = ctx.saved_tensors
        m, n = a.shape[-2:]
        if ctx.mode == "r":
            raise RuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when "
                "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                "differentiate through linalg.qr."
            )
        if ctx.mode == "complete" and m > n:
            raise RuntimeError(
                "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
            )
        if m >= n:
            return _qr_square_or_tall(q, r, grad_q, grad_r)
        y, u = a[..., m:], r[..., :m]
        gu, gv = grad_r[..., :m], grad_r[..., m:]
        gx = _qr_square_or_tall(q, u, grad_q + y @ _mt(gv), gu)
        return np.concatenate([gx, q @ gv], -1)


class LinalgEigh(NumpyFunction):
    """L, V = eigh(A) (A symmetric, read from its ``UPLO`` triangle). With
    E[i, j] = L[j] - L[i] and K = skew(V^T dV) / E off the diagonal, dL on it:
    dL/dA = V K V^T. For eigvalsh (only L is a result) dL/dA = V diag(dL) V^T; V is still an
    output of the node (as in PyTorch), so that formula's own derivative goes through it."""

    node_name = "LinalgEighBackward0"
    ctx_fields = ("vectors",)

    @staticmethod
    def forward(ctx, a, uplo, vectors):
        w, v = np.linalg.eigh(a, UPLO=uplo)
        w, v = w.astype(a.dtype), column_major(v).astype(a.dtype, copy=False)
        ctx.save_for_backward(w, v)  # (the results: create_graph=True records through them)
        ctx.vectors = vectors
        return w, v

    @staticmethod
    def backward(ctx, grad_w, grad_v):
        w, v = ctx.saved_tensors
        if not ctx.vectors and not_given(grad_v):  # eigvalsh (V reached only by its gradient)
            return v * np.expand_dims(grad_w, -2) @ _mt(v)
        n = w.shape[-1]
        eye = np.eye(n, dtype=bool)
        vg = _mt(v) @ grad_v
        vg = 0.5 * (vg - _mt(vg))
        e = w[..., None, :] - w[..., :, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            off = np.where(eye, 0.0, vg / np.where(eye, 1.0, e))
        inner = grad_w[..., None, :] * eye + off
        return (v @ inner @ _mt(v)).astype(v.dtype)


def pinv_of(a: np.ndarray, atol: float, rtol: float | None, hermitian: bool) -> np.ndarray:
    """pinv(A): singular values (|eigenvalues| if ``hermitian``) above
    max(atol, rtol * largest) are inverted, the rest dropped."""
    if recorded(a):  # (in a backward formula, create_graph=True: LinalgPinvBackward0)
        return run_recorded(LinalgPinv, a, atol, rtol, hermitian)
    m, n = a.shape[-2:]
    if not np.isfinite(a).all():  # (inf: the decomposition's values are nan, as PyTorch's)
        return np.full((*a.shape[:-2], n, m), np.nan, a.dtype)
    if rtol is None:
        rtol = 0.0 if atol > 0 else np.finfo(a.dtype).eps * max(m, n)
    if hermitian:
        w, v = np.linalg.eigh(a)
        big = np.abs(w).max(axis=-1, keepdims=True) if w.size else w
        keep = np.abs(w) > np.maximum(atol, rtol * big)
        inv_w = np.where(keep, 1.0 / np.where(keep, w, 1.0), 0.0)
        return (v * inv_w[..., None, :]) @ _mt(v)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    big = s[..., :1] if s.size else s
    keep = s > np.maximum(atol, rtol * big)
    inv_s = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    return (_mt(vh) * inv_s[..., None, :]) @ _mt(u)


def _pinv_grad(a: np.ndarray, p: np.ndarray, g: np.ndarray) -> np.ndarray:
    # dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P  (Golub and Pereyra), so
    # dL/dA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A), grouped as PyTorch's
    # pinv_backward groups it: its products are of the smaller of A's two sizes
    m, n = a.shape[-2:]
    pt, gt = _mt(p), _mt(g)
    if m <= n:
        k = gt @ p  # (m, m)
        kpt = k @ pt
        return -_mt(p @ k) + kpt - a @ p @ kpt + pt @ p @ (gt - k @ a)
    k = p @ gt  # (n, n)
    ptk = pt @ k
    return -_mt(k @ p) + (gt - a @ k) @ p @ pt + ptk - ptk @ p @ a


class LinalgPinv(NumpyFunction):
    """P = pinv(A) (constant rank), so dL/dA = -P^T G P^T + (I - A P) G^T P P^T
    + P^T P G^T (I - P A)."""

    node_name = "LinalgPinvBackward0"

    @staticmethod
    def forward(ctx, a, atol, rtol, hermitian):
        p = pinv_of(a, atol, rtol, hermitian).astype(a.dtype)
        ctx.save_for_backward(a, p)
        return p

    @staticmethod
    def backward(ctx, grad_output):
        a, p = ctx.saved_tensors
        return _pinv_grad(a, p, grad_output)


class LinalgLstsq(NumpyFunction):
    """X = pinv(A) B, the least-squares solution of A X = B, so dL/dB = pinv(A)^T G and
    dL/dA is pinv's gradient for dL/dP = G B^T. The formula computes pinv(A) again, as
    PyTorch's does: with create_graph=True that is recorded (LinalgPinvBackward0)."""

    node_name = "LinalgLstsqBackward0"
    ctx_fields = ("shapes", "vector")

    @staticmethod
    def forward(ctx, a, b, vector):
        p = pinv_of(a, 0.0, None, False)
        bm = b[..., None] if vector else b  # (a vector B: one column)
        x = (p @ bm).astype(a.dtype)
        ctx.save_for_backward(a, b)
        ctx.shapes, ctx.vector = (a.shape, b.shape), vector
        return x[..., 0] if vector else column_major(x), np.zeros((0,), a.dtype)

    @staticmethod
    def backward(ctx, grad_x, grad_residuals):
        a, b = ctx.saved_tensors
        p = pinv_of(a, 0.0, None, False)
        if ctx.vector:  # (a vector B: one column)
            b, grad_x = np.expand_dims(b, -1), np.expand_dims(grad_x, -1)
        ga = _pinv_grad(a, p, grad_x @ _mt(b))
        gb = _mt(p) @ grad_x
        sa, sb = ctx.shapes
        return unbroadcast(ga, sa), unbroadcast(np.squeeze(gb, -1) if ctx.vector else gb, sb)


def _pnorm(diff: np.ndarray, p: float) -> np.ndarray:
    m = np.abs(diff)
    if p == 0:
        return (m != 0).sum(-1).astype(diff.dtype)
    if np.isinf(p):
        return m.max(-1) if m.shape[-1] else m.sum(-1)
    if p == 1:
        return m.sum(-1)
    if p == 2:
        return np.sqrt((m * m).sum(-1))
    return (m**p).sum(-1) ** (1 / p)


def pnorm_grad(grad: np.ndarray, diff: np.ndarray, d: np.ndarray, p: float) -> np.ndarray:
    """grad * dD/d(diff) for D = ||diff||_p: grad * sign(diff) |diff|^(p-1) / D^(p-1). Where
    D = 0 (and, for p < 1, where diff = 0) the result is 0 whatever grad is, even inf, as
    PyTorch's kernels give; for p = 1 and inf it is grad * sign(diff), so inf * 0 is nan."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if np.isinf(p):
            return grad * np.sign(diff) * (np.abs(diff) == d)
        if p == 1:
            return grad * np.sign(diff)
        local = diff / d if p == 2 else np.sign(diff) * np.abs(diff) ** (p - 1) / d ** (p - 1)
        zero = (d == 0) | (diff == 0) if p < 1 else d == 0
        return np.where(zero, 0, grad * local).astype(diff.dtype, copy=False)


class Cdist(NumpyFunction):
    """D[i, j] = ||x1[i] - x2[j]||_p, so with d = x1[i] - x2[j], dD/dx1[i] =
    sign(d) |d|^(p-1) / D^(p-1) (d / D for p = 2; for inf the largest |d|), dD/dx2[j] the
    negative of it; pairs at distance 0 get 0 (see ``pnorm_grad``)."""

    node_name = "CdistBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "CdistBackwardBackward0"
    missing_derivative = "'_cdist_backward'"
    ctx_fields = ("p", "shapes")

    @staticmethod
    def forward(ctx, x1, x2, p):
        diff = x1[..., :, None, :] - x2[..., None, :, :]  # (..., P, R, M)
        out = _pnorm(diff, p).astype(x1.dtype)
        ctx.save_for_backward(x1, x2, out)
        ctx.p, ctx.shapes = p, (x1.shape, x2.shape)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x1, x2, out = ctx.saved_tensors
        diff = x1[..., :, None, :] - x2[..., None, :, :]
        g = pnorm_grad(grad_output[..., None], diff, out[..., None], ctx.p)
        sa, sb = ctx.shapes
        return unbroadcast(g.sum(-2), sa).astype(x1.dtype), unbroadcast(-g.sum(-3), sb).astype(
            x2.dtype
        )
