"""The two matrix ops ``MultivariateNormal`` needs: the Cholesky factor of a symmetric
positive-definite matrix and the solution of a lower-triangular system, batched over leading
dimensions, each with its backward formula.

The formulas: for A = L L^T, with Phi(X) the lower triangle of X with its diagonal halved,
dA = sym(L^-T Phi(L^T dL) L^-1) (Murray, 2016); for X = L^-1 B, dB = L^-T dX and
dL = -tril(dB X^T).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["Cholesky", "SolveLowerTriangular"]


def _t(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


def _solve_lower(lower: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.linalg.solve(lower, b)


class Cholesky(NumpyFunction):
    """L = cholesky(A), lower triangular with A = L L^T, so
    dA = sym(L^-T Phi(L^T dL) L^-1), Phi keeping the lower triangle, half the diagonal."""

    node_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def forward(ctx, a):
        lower = np.linalg.cholesky(a)
        ctx.save_for_backward(lower)
        return lower

    @staticmethod
    def backward(ctx, grad_output):
        (lower,) = ctx.saved_tensors
        phi = np.tril(_t(lower) @ grad_output)
        n = lower.shape[-1]
        phi[..., np.arange(n), np.arange(n)] *= 0.5
        upper = _t(lower)
        w = np.linalg.solve(upper, phi)  # L^-T phi
        s = _t(np.linalg.solve(upper, _t(w)))  # (L^-T (L^-T phi)^T)^T = L^-T phi L^-1
        return 0.5 * (s + _t(s))


class SolveLowerTriangular(NumpyFunction):
    """X = L^-1 B for a lower-triangular L, so dB = L^-T dX and dL = -tril(dB X^T)."""

    node_name = "LinalgSolveTriangularBackward0"

    @staticmethod
    def forward(ctx, lower, b):
        x = _solve_lower(lower, b)
        ctx.save_for_backward(lower, x)
        ctx.shapes = (lower.shape, b.shape)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        lower, x = ctx.saved_tensors
        grad_b = np.linalg.solve(_t(lower), grad_output)
        grad_lower = -np.tril(grad_b @ _t(x))
        shape_l, shape_b = ctx.shapes
        return unbroadcast(grad_lower, shape_l), unbroadcast(grad_b, shape_b)
