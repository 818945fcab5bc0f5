"""Solves with triangular matrices and with Cholesky factors (batched over leading dims).

The formulas: one ``Function`` per op, forward and backward side by side. The public functions
(``torch.linalg.solve_triangular``, ``torch.triangular_solve``, ``torch.cholesky_solve``,
``torch.cholesky_inverse``, ``torch.cholesky``) are in ``microtorch/api/linalg_triangular.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import recorded, run_recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops.linalg_inverse import LinalgCholeskyEx, LinalgInvEx, LinalgSolveEx

__all__ = [
    "triangle", "solve_triangular", "LinalgSolveTriangular", "TriangularSolve", "CholeskySolve",
    "CholeskyInverse", "Cholesky", "LinalgCholeskyExInfo", "LinalgInvExInfo", "LinalgSolveExInfo",
]  # fmt: skip


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def triangle(a: np.ndarray, upper: bool, unitriangular: bool = False) -> np.ndarray:
    """The triangle a triangular solve reads (without the diagonal if ``unitriangular``)."""
    k = int(unitriangular)
    return np.triu(a, k) if upper else np.tril(a, -k)


def solve_triangular(a: np.ndarray, b: np.ndarray, upper: bool, unit: bool = False) -> np.ndarray:
    """X with T X = B, T the triangle of A (unit diagonal if ``unit``), by substitution row by
    row, so a zero on the diagonal gives inf and nan as LAPACK's does, not an error."""
    if recorded(a) or recorded(b):  # (torch.linalg.solve_triangular: recorded as one node)
        return run_recorded(LinalgSolveTriangular, a, b, upper, True, unit)
    t = triangle(a, upper, unit)
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    x = np.zeros(shape, np.result_type(a, b))
    n = a.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in reversed(range(n)) if upper else range(n):
            s = b[..., i, :] - (t[..., i : i + 1, :] @ x)[..., 0, :]
            x[..., i, :] = s if unit else s / a[..., i, i, None]
    return x


class LinalgSolveTriangular(NumpyFunction):
    """X = T^-1 B (``left``) or B T^-1, T the triangle of A. For T X = B: dL/dB = T^-T G and
    dL/dA = triangle(-dL/dB X^T); for X T = B: dL/dB = G T^-T, dL/dA = triangle(-X^T dL/dB)."""

    node_name = "LinalgSolveTriangularBackward0"
    ctx_fields = ("upper", "left", "unit", "shapes")

    @staticmethod
    def forward(ctx, a, b, upper, left, unit):
        if left:
            x = solve_triangular(a, b, upper, unit)
        else:
            x = _mt(solve_triangular(_mt(a), _mt(b), not upper, unit))
        x = x.astype(a.dtype, copy=False)
        ctx.save_for_backward(a, x)
        ctx.upper, ctx.left, ctx.unit, ctx.shapes = upper, left, unit, (a.shape, b.shape)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        a, x = ctx.saved_tensors
        if ctx.left:
            gb = solve_triangular(_mt(a), grad_output, not ctx.upper, ctx.unit)
            ga = -gb @ _mt(x)
        else:
            gb = _mt(solve_triangular(a, _mt(grad_output), ctx.upper, ctx.unit))
            ga = -_mt(x) @ gb
        ga = triangle(ga, ctx.upper, ctx.unit)
        sa, sb = ctx.shapes
        return unbroadcast(ga, sa), unbroadcast(gb, sb)


class TriangularSolve(NumpyFunction):
    """``torch.triangular_solve``: X = op(T)^-1 B (op the transpose if ``transpose``) and a copy
    M of A. dL/dB = op(T)^-T G_X, d op(T) = -dL/dB X^T, and dL/dA = triangle(that, transposed
    back if ``transpose``) + G_M."""

    node_name = "TriangularSolveBackward0"
    ctx_fields = ("upper", "transpose", "unit", "shapes")

    @staticmethod
    def forward(ctx, b, a, upper, transpose, unit):
        op, op_upper = (_mt(a), not upper) if transpose else (a, upper)
        x = solve_triangular(op, b, op_upper, unit).astype(a.dtype, copy=False)
        ctx.save_for_backward(a, x)
        ctx.upper, ctx.transpose, ctx.unit = upper, transpose, unit
        ctx.shapes = (b.shape, a.shape)
        m = np.broadcast_to(a, x.shape[:-2] + a.shape[-2:]).copy()
        return x, m

    @staticmethod
    def backward(ctx, grad_x, grad_m):
        a, x = ctx.saved_tensors
        op, op_upper = (_mt(a), not ctx.upper) if ctx.transpose else (a, ctx.upper)
        gb = solve_triangular(_mt(op), grad_x, not op_upper, ctx.unit)
        gop = -gb @ _mt(x)
        ga = triangle(_mt(gop) if ctx.transpose else gop, ctx.upper, ctx.unit)
        ga = ga + grad_m  # (the copy's gradient, whole, as PyTorch's)
        sb, sa = ctx.shapes
        return unbroadcast(gb, sb), unbroadcast(ga, sa)


def _cholesky_solve(b: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray:
    # X = (L L^T)^-1 B: two triangular solves (upper: A = U^T U)
    low = _mt(factor) if upper else factor
    y = solve_triangular(low, b, upper=False)
    return solve_triangular(_mt(low), y, upper=True)


class CholeskySolve(NumpyFunction):
    """X = A^-1 B with A = L L^T (``upper``: U^T U) given by its factor. dL/dB = A^-1 G, and
    with S = dL/dB X^T + X dL/dB^T: dL/dL = -S L (``upper``: dL/dU = -U S)."""

    node_name = "CholeskySolveBackward0"
    ctx_fields = ("upper", "shapes")

    @staticmethod
    def forward(ctx, b, factor, upper):
        x = _cholesky_solve(b, factor, upper).astype(factor.dtype, copy=False)
        ctx.save_for_backward(factor, x)
        ctx.upper, ctx.shapes = upper, (b.shape, factor.shape)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        factor, x = ctx.saved_tensors
        gb = _cholesky_solve(grad_output, factor, ctx.upper)
        s = gb @ _mt(x)
        s = s + _mt(s)
        gf = -(factor @ s) if ctx.upper else -(s @ factor)
        sb, sf = ctx.shapes
        return unbroadcast(gb, sb), unbroadcast(gf, sf)


class CholeskyInverse(NumpyFunction):
    """Y = (L L^T)^-1 (``upper``: (U^T U)^-1), so with S = Y (G + G^T) Y: dL/dL = -S L
    (``upper``: dL/dU = -U S)."""

    node_name = "CholeskyInverseBackward0"
    ctx_fields = ("upper",)

    @staticmethod
    def forward(ctx, factor, upper):
        eye = np.broadcast_to(np.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
        y = _cholesky_solve(eye, factor, upper).astype(factor.dtype, copy=False)
        ctx.save_for_backward(factor, y)
        ctx.upper = upper
        return y

    @staticmethod
    def backward(ctx, grad_output):
        factor, y = ctx.saved_tensors
        s = y @ (grad_output + _mt(grad_output)) @ y
        return -(factor @ s) if ctx.upper else -(s @ factor)


class Cholesky(LinalgCholeskyEx):
    """``torch.cholesky`` (deprecated): ``linalg.cholesky``'s formula, PyTorch's older node."""

    node_name = "CholeskyBackward0"


def _eye_where(a: np.ndarray, bad: np.ndarray) -> np.ndarray:
    # the batch with each failing matrix replaced by the identity (its result is set to nan)
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    return np.where(bad[..., None, None], eye, a)


def _nan_where(x: np.ndarray, bad: np.ndarray, tail: int) -> np.ndarray:
    x[np.broadcast_to(bad, x.shape[: x.ndim - tail])] = np.nan
    return x


class LinalgCholeskyExInfo(LinalgCholeskyEx):
    """``linalg.cholesky_ex`` of a batch with matrices (``bad``) that are not
    positive-definite: ``linalg.cholesky``'s formula; their factors are nan (LAPACK leaves its
    partial work there, which PyTorch documents as unspecified)."""

    node_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def forward(ctx, a, upper, bad):
        return _nan_where(LinalgCholeskyEx.forward(ctx, _eye_where(a, bad), upper), bad, 2)


class LinalgInvExInfo(LinalgInvEx):
    """``linalg.inv_ex`` of a batch with singular matrices (``bad``): ``linalg.inv``'s formula;
    their inverses are nan (PyTorch's are LAPACK's inf and nan)."""

    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a, bad):
        return _nan_where(LinalgInvEx.forward(ctx, _eye_where(a, bad)), bad, 2)


class LinalgSolveExInfo(LinalgSolveEx):
    """``linalg.solve_ex`` with singular matrices (``bad``): ``linalg.solve``'s formula; their
    solutions are nan (PyTorch's are LAPACK's inf and nan)."""

    node_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx, a, b, left, vector, bad):
        x = LinalgSolveEx.forward(ctx, _eye_where(a, bad), b, left, vector)
        return _nan_where(x, bad, 1 if vector else 2)
