"""LU factorization with partial pivoting (A = P L U, as LAPACK's getrf), its unpacking and
solves with it (batched over leading dims).

The formulas: one ``Function`` per op, forward and backward side by side. The public functions
(``torch.linalg.lu_factor``/``lu_factor_ex``/``lu``/``lu_solve``, ``torch.lu_unpack``,
``torch.lu_solve``) are in ``microtorch/api/linalg_lu.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import constant_values
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops.linalg_triangular import solve_triangular

__all__ = [
    "lu_factor", "permutation", "unpack", "lu_grad", "LinalgLuFactorEx", "LinalgLu", "LuUnpack",
    "LinalgLuSolve",
]  # fmt: skip


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def lu_factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LU (L below the diagonal, unit diagonal not stored, U on and above), pivots (1-based,
    int32) and info (the first zero pivot, 1-based; 0 if none), by Gaussian elimination with
    the largest pivot of each column (the first of equals, as LAPACK's idamax)."""
    lu = np.array(a, dtype=a.dtype, copy=True).reshape(-1, *a.shape[-2:])
    m, n = lu.shape[-2:]
    k = min(m, n)
    pivots = np.zeros((lu.shape[0], k), np.int32)
    info = np.zeros(lu.shape[0], np.int32)
    rows = np.arange(lu.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(k):
            p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
            pivots[:, j] = p + 1
            top = lu[rows, j].copy()
            lu[rows, j] = lu[rows, p]
            lu[rows, p] = top
            pivot = lu[:, j, j]
            zero = pivot == 0
            info[(info == 0) & zero] = j + 1
            scale = np.where(zero, 1, pivot)  # (a zero pivot: LAPACK skips the division)
            lu[:, j + 1 :, j] /= scale[:, None]
            lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j : j + 1] * lu[:, j : j + 1, j + 1 :]
    batch = a.shape[:-2]
    return lu.reshape(a.shape), pivots.reshape(*batch, k), info.reshape(batch)


def permutation(pivots: np.ndarray, m: int, dtype: np.dtype) -> np.ndarray:
    """P with A = P L U, from LAPACK's row swaps (row i with row pivots[i] - 1, in order)."""
    pivots = constant_values(pivots)  # (integers: P is a constant, with create_graph too)
    flat = pivots.reshape(-1, pivots.shape[-1])
    out = np.zeros((flat.shape[0], m, m), dtype)
    for b, piv in enumerate(flat):
        perm = np.arange(m)
        for i, p in enumerate(piv - 1):
            perm[i], perm[p] = perm[p], perm[i]
        out[b, perm, np.arange(m)] = 1
    return out.reshape(*pivots.shape[:-1], m, m)


def unpack(lu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """L (m x k, unit diagonal) and U (k x n) from the packed LU, k = min(m, n)."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    low = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    return low, np.triu(lu[..., :k, :])


def lu_grad(p: np.ndarray, low: np.ndarray, up: np.ndarray, gl: np.ndarray, gu: np.ndarray):
    """dL/dA of a square A = P L U: P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T."""
    inner = np.tril(_mt(low) @ gl, -1) + np.triu(gu @ _mt(up))
    inner = _mt(solve_triangular(up, _mt(inner), upper=True))  # (... U^-T: X U^T = inner)
    inner = solve_triangular(_mt(low), inner, upper=True, unit=True)  # (L^-T ...)
    return p @ inner


def _square_only(shape: tuple[int, ...], op: str) -> None:
    if shape[-1] != shape[-2]:
        raise NotImplementedError(
            f"the derivative of {op} for a non-square matrix is not implemented in microtorch "
            "(Fix: factor a square matrix, or detach the input)"
        )


class LinalgLuFactorEx(NumpyFunction):
    """LU = lu_factor(A) (the pivots and info, integers, come with it from ``lu_factor``);
    with gL = tril(G, -1) and gU = triu(G), dL/dA is ``lu_grad`` (square A only)."""

    node_name = "LinalgLuFactorExBackward0"

    @staticmethod
    def forward(ctx, a, lu, pivots):
        out = lu.copy()
        ctx.save_for_backward(out, pivots)  # (the result: create_graph=True records through it)
        return out

    @staticmethod
    def backward(ctx, grad_lu):
        lu, pivots = ctx.saved_tensors
        _square_only(lu.shape, "linalg_lu_factor_ex")
        low, up = unpack(lu)
        p = permutation(pivots, lu.shape[-2], lu.dtype)
        return lu_grad(p, low, up, np.tril(grad_lu, -1), np.triu(grad_lu))


class LinalgLu(NumpyFunction):
    """L, U of A = P L U (P, a permutation, gets no gradient); dL/dA is ``lu_grad`` (square A
    only)."""

    node_name = "LinalgLuBackward0"

    @staticmethod
    def forward(ctx, a, p, low, up):
        low, up = low.copy(), up.copy()
        ctx.save_for_backward(p, low, up)  # (the results: create_graph=True records through them)
        return low, up

    @staticmethod
    def backward(ctx, grad_l, grad_u):
        p, low, up = ctx.saved_tensors
        _square_only(p.shape[:-1] + up.shape[-1:], "linalg_lu")
        return lu_grad(p, low, up, grad_l, grad_u)


class LuUnpack(NumpyFunction):
    """L, U from the packed LU: dL/dLU = tril(gL, -1) (its first k columns) + triu(gU) (its
    first k rows). Without ``unpack_data``, L and U are empty (PyTorch's), dL/dLU zero."""

    node_name = "LuUnpackBackward0"

    @staticmethod
    def forward(ctx, lu, unpack_data=True):
        ctx.shape, ctx.unpacked = lu.shape, unpack_data
        if not unpack_data:
            return np.zeros(0, lu.dtype), np.zeros(0, lu.dtype)
        return unpack(lu)

    @staticmethod
    def backward(ctx, grad_l, grad_u):
        k = min(ctx.shape[-2:])
        out = np.zeros_like(grad_l, shape=ctx.shape)
        if ctx.unpacked:
            out[..., :, :k] += np.tril(grad_l, -1)
            out[..., :k, :] += np.triu(grad_u)
        return out


class LinalgLuSolve(NumpyFunction):
    """X with op(A) X = B (``left=False``: X op(A) = B; op the transpose if ``adjoint``),
    A = P L U given by LU and pivots. dL/dB = op(A)^-T G (G op(A)^-T); the gradient of op(A)
    is -dL/dB X^T (-X^T dL/dB), and with gA that of A: dL/dLU = tril(P^T gA U^T, -1) +
    triu(L^T P^T gA)."""

    node_name = "LinalgLuSolveBackward0"
    ctx_fields = ("left", "adjoint", "shapes")

    @staticmethod
    def forward(ctx, lu, pivots, b, left, adjoint):
        low, up = unpack(lu)
        a = permutation(pivots, lu.shape[-1], lu.dtype) @ low @ up
        op = _mt(a) if adjoint else a
        x = np.linalg.solve(op, b) if left else _mt(np.linalg.solve(_mt(op), _mt(b)))
        x = x.astype(lu.dtype, copy=False)
        ctx.save_for_backward(lu, pivots, op, x)
        ctx.left, ctx.adjoint, ctx.shapes = left, adjoint, (lu.shape, b.shape)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        lu, pivots, op, x = ctx.saved_tensors
        if ctx.left:
            gb = np.linalg.solve(_mt(op), grad_output)
            gop = -gb @ _mt(x)
        else:
            gb = _mt(np.linalg.solve(op, _mt(grad_output)))
            gop = -_mt(x) @ gb
        ga = _mt(gop) if ctx.adjoint else gop
        low, up = unpack(lu)
        pt_ga = _mt(permutation(pivots, lu.shape[-1], lu.dtype)) @ ga
        glu = np.tril(pt_ga @ _mt(up), -1) + np.triu(_mt(low) @ pt_ga)
        slu, sb = ctx.shapes
        return unbroadcast(glu, slu), unbroadcast(gb, sb)
