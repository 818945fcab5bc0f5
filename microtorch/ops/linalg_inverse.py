"""Determinants, inverses and linear solves of square matrices (batched over leading dims).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions (argument checks, PyTorch's errors for singular or non-square input) are in
``microtorch/api/linalg_square.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import recorded, run_recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import column_major

__all__ = [
    "LinalgDet", "LinalgSlogdet", "LinalgInvEx", "LinalgSolveEx", "LinalgCholeskyEx",
    "LinalgMatrixExp", "cofactor_t", "matrix_exp",
]  # fmt: skip


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def cofactor_t(a: np.ndarray) -> np.ndarray:
    """d det(A) / dA = det(A) * inv(A)^T, written so that a singular A has its limit too:
    with A = U diag(s) Vh, the cofactor matrix is det(U) det(Vh) U diag(prod_{j!=i} s_j) Vh."""
    u, s, vh = np.linalg.svd(a)
    n = s.shape[-1]
    others = np.stack([np.prod(np.delete(s, i, axis=-1), axis=-1) for i in range(n)], -1)
    sign = np.linalg.det(u) * np.linalg.det(vh)
    return sign[..., None, None] * (u * others[..., None, :]) @ vh


class LinalgDet(NumpyFunction):
    """d = det(A), so dd/dA = d * inv(A)^T (the cofactor matrix; see ``cofactor_t`` for a
    singular A)."""

    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, a):
        d = np.asarray(np.linalg.det(a), dtype=a.dtype) if a.size else _empty_det(a)
        ctx.save_for_backward(a, d)
        return d

    @staticmethod
    def backward(ctx, grad_output):
        a, d = ctx.saved_tensors
        if not a.size:
            return np.zeros_like(a)
        g = grad_output[..., None, None]
        if (d == 0).any():  # (no inverse: the cofactors from the SVD)
            return (g * cofactor_t(a)).astype(a.dtype)
        return g * d[..., None, None] * _mt(np.linalg.inv(a))


def _empty_det(a: np.ndarray) -> np.ndarray:
    return np.ones(a.shape[:-2], a.dtype)  # det of a 0 x 0 matrix is 1


class LinalgSlogdet(NumpyFunction):
    """sign, log|det(A)|, so d log|det A| / dA = inv(A)^T; the sign gets no gradient."""

    node_name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx, a):
        sign, logabs = np.linalg.slogdet(a)
        ctx.save_for_backward(a)
        return np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)

    @staticmethod
    def backward(ctx, grad_sign, grad_logabsdet):
        (a,) = ctx.saved_tensors
        g = grad_logabsdet[..., None, None]
        try:
            return g * _mt(np.linalg.inv(a))
        except np.linalg.LinAlgError:  # singular: cofactors / det, inf or nan (as PyTorch)
            with np.errstate(divide="ignore", invalid="ignore"):
                return g * cofactor_t(a) / np.linalg.det(a)[..., None, None]


class LinalgInvEx(NumpyFunction):
    """Y = inv(A), so dY = -Y dA Y and dL/dA = -Y^T G Y^T."""

    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a):
        y = column_major(np.linalg.inv(a) if a.size else np.zeros_like(a)).astype(
            a.dtype, copy=False
        )
        ctx.save_for_backward(y)  # (the output itself: a second derivative goes through it)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        yt = _mt(y)
        return -(yt @ grad_output @ yt)


class LinalgSolveEx(NumpyFunction):
    """X = inv(A) B (``left``) or B inv(A), so for AX = B: dL/dB = A^-T G and
    dL/dA = -dL/dB X^T (for XA = B: dL/dB = G A^-T, dL/dA = -X^T dL/dB). A vector B
    (``vector``) is one column; broadcast batch dims are summed back."""

    node_name = "LinalgSolveExBackward0"
    ctx_fields = ("left", "vector", "shapes")

    @staticmethod
    def forward(ctx, a, b, left, vector):
        bb = b[..., None] if vector else b
        x = np.linalg.solve(a, bb) if left else _mt(np.linalg.solve(_mt(a), _mt(bb)))
        out = x.astype(a.dtype, copy=False)
        out = out[..., 0] if vector else column_major(out)
        ctx.save_for_backward(a, out)  # (the output itself: a second derivative goes through it)
        ctx.left, ctx.vector, ctx.shapes = left, vector, (a.shape, b.shape)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, x = ctx.saved_tensors
        x = x[..., None] if ctx.vector else x
        g = grad_output[..., None] if ctx.vector else grad_output
        if ctx.left:
            gb = np.linalg.solve(_mt(a), g)
            ga = -gb @ _mt(x)
        else:
            gb = _mt(np.linalg.solve(a, _mt(g)))
            ga = -_mt(x) @ gb
        gb = gb[..., 0] if ctx.vector else gb
        sa, sb = ctx.shapes
        return unbroadcast(ga, sa), unbroadcast(gb, sb)


class LinalgCholeskyEx(NumpyFunction):
    """L = cholesky(A) (A = L L^T; ``upper``: U = L^T), so with P = Phi(L^T dL/dL) (the lower
    triangle, diagonal halved), dL/dA = sym(L^-T P L^-1), sym(X) = (X + X^T) / 2."""

    node_name = "LinalgCholeskyExBackward0"
    ctx_fields = ("upper",)

    @staticmethod
    def forward(ctx, a, upper):
        low = np.linalg.cholesky(a)
        out = column_major(_mt(low) if upper else low).astype(a.dtype, copy=False)
        ctx.save_for_backward(out)  # (the result itself: create_graph=True records through it)
        ctx.upper = upper
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        low = _mt(out) if ctx.upper else out
        g = _mt(grad_output) if ctx.upper else grad_output
        p = np.tril(_mt(low) @ g)
        n = p.shape[-1]
        p = p - 0.5 * p * np.eye(n, dtype=p.dtype)
        inv = np.linalg.inv(low)
        x = _mt(inv) @ p @ inv
        return 0.5 * (x + _mt(x))


def matrix_exp(a: np.ndarray) -> np.ndarray:
    """exp(A) = sum A^k / k!, by scaling (A / 2^s small), a degree-18 Taylor sum, squaring."""
    if recorded(a):  # (torch.linalg.matrix_exp: LinalgMatrixExpBackward0)
        return run_recorded(LinalgMatrixExp, a)
    norm = np.abs(a).sum(axis=-2).max() if a.size else 0.0
    if not np.isfinite(norm):  # (inf or nan in A: PyTorch's result is nan throughout)
        return np.full(a.shape, np.nan, a.dtype)
    s = max(0, int(np.ceil(np.log2(norm / 0.25)))) if norm > 0.25 else 0
    x = a / 2.0**s
    out = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
    term = out.copy()
    for k in range(1, 19):
        term = term @ x / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return out


class LinalgMatrixExp(NumpyFunction):
    """E = exp(A), so dL/dA is the top-right block of exp([[A^T, G], [0, A^T]])."""

    node_name = "LinalgMatrixExpBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return matrix_exp(a.astype(np.float64)).astype(a.dtype)  # (float32: rounded once)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        n = a.shape[-1]
        at = _mt(a)
        top = np.concatenate([at, grad_output], -1)
        bottom = np.concatenate([np.zeros_like(at), at], -1)
        big = matrix_exp(np.concatenate([top, bottom], -2))
        return big[..., :n, n:].astype(a.dtype, copy=False)
