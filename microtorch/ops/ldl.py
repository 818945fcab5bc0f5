"""LDL^T factorization of a symmetric (possibly indefinite) matrix, as LAPACK's ``sytrf`` does
it with ``uplo='L'`` (Bunch-Kaufman partial pivoting, 1x1 and 2x2 diagonal blocks), and the
solve ``sytrs`` that uses it; batched over leading dims by a loop over the matrices.

LAPACK's storage: L's columns below the diagonal (unit diagonal not stored), D's blocks on the
diagonal (a 2x2 block's off-diagonal entry just below it). ``pivots`` are 1-based: ``p > 0``
means a 1x1 block at k after swapping rows and columns k and p; ``pivots[k] = pivots[k + 1]
= -p`` a 2x2 block at k, k+1 after swapping k+1 and p. PyTorch has no derivative for either.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import column_major

__all__ = ["ldl_factor", "ldl_solve", "LinalgLdlFactorEx", "LinalgLdlSolve"]

ALPHA = (1 + math.sqrt(17)) / 8  # Bunch and Kaufman's threshold: bounds the growth of L


def _first_largest(v: np.ndarray) -> tuple[int, float]:
    """Place and size of the first largest |v| (LAPACK's idamax: a nan counts as largest)."""
    size = np.abs(v)
    nan = np.flatnonzero(np.isnan(size))
    i = int(nan[0]) if nan.size else int(np.argmax(size))
    return i, float(size[i])


def _interchange(a: np.ndarray, kk: int, kp: int) -> None:
    # rows/columns kk < kp of the symmetric trailing matrix, in its lower triangle only
    a[kp + 1 :, [kk, kp]] = a[kp + 1 :, [kp, kk]]
    column, row = a[kk + 1 : kp, kk].copy(), a[kp, kk + 1 : kp].copy()
    a[kk + 1 : kp, kk], a[kp, kk + 1 : kp] = row, column
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]


def _factor_one(a: np.ndarray, pivots: np.ndarray) -> int:
    """Factor the lower triangle of ``a`` in place (LAPACK's dsytf2, uplo='L'); return info:
    the first zero diagonal block of D (1-based), 0 if none."""
    n, info, k = a.shape[0], 0, 0
    while k < n:
        step, absakk = 1, abs(float(a[k, k]))
        imax, colmax = k, 0.0  # the largest entry below the diagonal in column k
        if k + 1 < n:
            i, colmax = _first_largest(a[k + 1 :, k])
            imax = k + 1 + i
        if max(absakk, colmax) == 0 or math.isnan(absakk):
            info, kp = info or k + 1, k  # a zero column: D[k, k] = 0, nothing to eliminate
        else:
            if absakk >= ALPHA * colmax:
                kp = k  # the diagonal entry is large enough: a 1x1 block, no swap
            else:
                rowmax = _first_largest(a[imax, k:imax])[1]
                if imax + 1 < n:
                    rowmax = max(rowmax, _first_largest(a[imax + 1 :, imax])[1])
                if absakk >= ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif abs(float(a[imax, imax])) >= ALPHA * rowmax:
                    kp = imax  # a 1x1 block of row imax
                else:
                    kp, step = imax, 2  # a 2x2 block of rows k and imax
            kk = k + step - 1
            if kp != kk:
                _interchange(a, kk, kp)
                if step == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if step == 1:
                x = a[k + 1 :, k]  # (n - k - 1,)
                d11 = 1 / a[k, k]
                a[k + 1 :, k + 1 :] += np.outer(x, -d11 * x)  # A -= x x^T / d (lower part used)
                x *= d11  # L's column
            elif k + 2 < n:
                d21 = a[k + 1, k]
                d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
                d21 = (1 / (d11 * d22 - 1)) / d21
                c0, c1 = a[k + 2 :, k].copy(), a[k + 2 :, k + 1].copy()
                wk, wkp1 = d21 * (d11 * c0 - c1), d21 * (d22 * c1 - c0)  # L's two columns
                a[k + 2 :, k + 2 :] -= np.outer(c0, wk) + np.outer(c1, wkp1)
                a[k + 2 :, k], a[k + 2 :, k + 1] = wk, wkp1
        pivots[k : k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return info


def ldl_factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(LD, pivots, info) of each symmetric matrix (its lower triangle is read), as sytrf."""
    n = a.shape[-1]
    flat = np.array(a, copy=True).reshape(math.prod(a.shape[:-2]), n, n)
    pivots = np.zeros((flat.shape[0], n), np.int32)
    info = np.zeros(flat.shape[0], np.int32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for b in range(flat.shape[0]):
            info[b] = _factor_one(flat[b], pivots[b])
    ld = np.tril(flat).reshape(a.shape)
    return column_major(ld), pivots.reshape(a.shape[:-1]), info.reshape(a.shape[:-2])


def _solve_one(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> None:
    """B := A^-1 B in place, A = P L D L^T P^T from sytrf's LD and pivots (LAPACK's dsytrs)."""
    n, k = ld.shape[0], 0
    while k < n:  # L D Y = B, forwards
        if pivots[k] > 0:
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1 :] -= np.outer(ld[k + 1 :, k], b[k])
            b[k] *= 1 / ld[k, k]
            k += 1
        else:
            kp = -pivots[k] - 1
            b[[k + 1, kp]] = b[[kp, k + 1]]
            b[k + 2 :] -= np.outer(ld[k + 2 :, k], b[k])
            b[k + 2 :] -= np.outer(ld[k + 2 :, k + 1], b[k + 1])
            akm1k = ld[k + 1, k]
            akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = Y, backwards
        if pivots[k] > 0:
            b[k] -= ld[k + 1 :, k] @ b[k + 1 :]
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            b[k] -= ld[k + 1 :, k] @ b[k + 1 :]
            b[k - 1] -= ld[k + 1 :, k - 1] @ b[k + 1 :]
            kp = -pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 2


def ldl_solve(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """X with A X = B, A given by ``ldl_factor``'s LD and pivots (batch dims broadcast)."""
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    n, m = ld.shape[-1], b.shape[-1]
    count = math.prod(batch)
    lds = np.broadcast_to(ld, (*batch, n, n)).reshape(count, n, n)
    pivs = np.broadcast_to(pivots, (*batch, n)).reshape(count, n)
    out = np.array(np.broadcast_to(b, (*batch, n, m)), copy=True).reshape(count, n, m)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for i in range(out.shape[0]):
            _solve_one(lds[i], pivs[i], out[i])
    return column_major(out.reshape(*batch, n, m))


class LinalgLdlFactorEx(NumpyFunction):
    """LD = ldl_factor(A) (pivots and info, integers, come with it from ``ldl_factor``);
    PyTorch has no derivative for it: its node is ``NotImplemented`` and backward raises."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, ld):
        return ld  # (a new array, column by column as LAPACK's)

    @staticmethod
    def backward(ctx, grad_ld):
        raise RuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")


class LinalgLdlSolve(NumpyFunction):
    """X = ldl_solve(LD, pivots, B); PyTorch has no derivative for it: its node is
    ``NotImplemented`` and backward raises."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, ld, pivots, b):
        return ldl_solve(ld, pivots, b)

    @staticmethod
    def backward(ctx, grad_x):
        raise RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")
