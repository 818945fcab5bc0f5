"""``torch.lobpcg``'s iteration and its ``Function`` (``LOBPCGAutogradFunctionBackward``).

LOBPCG (Knyazev, 2001) finds the k largest (or smallest) eigenpairs of a symmetric A (A x =
lambda B x with B given) without factoring A: each step does a Rayleigh-Ritz projection onto
the span of the current vectors X, their residuals R = A X - B X E and the previous step's
direction P, and keeps the best n vectors. ``method="ortho"`` makes that basis B-orthonormal by
SVQB, dropping directions that have become dependent; ``"basic"`` by a Cholesky factor of its
Gram matrix (which fails on a singular one). Steps stop when the first k residuals meet
PyTorch's criterion ||r|| < tol ||x|| (|A| + |lambda| |B|), or after ``niter`` steps.

The converged pairs are PyTorch's to within that tolerance; the iterates are microtorch's own
(PyTorch locks converged columns and orthogonalises in another order), so the results differ
from PyTorch's as much as two of PyTorch's own runs from different starts do.

The gradient (B = None) is the derivative of the k pairs of a symmetric A:
d lambda_i = u_i^T dA u_i and du_i = -(A - lambda_i)^+ dA u_i, so
dL/dA = sum_i gE_i u_i u_i^T + (-(A - lambda_i)^+ gU_i) u_i^T, the pseudo-inverse from A's
full eigendecomposition.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["lobpcg_pairs", "Lobpcg"]


def _ritz(M: np.ndarray, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    # eigenpairs of a small symmetric matrix, the wanted end first
    w, v = np.linalg.eigh((M + M.T) / 2)
    return (w[::-1], v[:, ::-1]) if largest else (w, v)


def _basis(S: np.ndarray, B: np.ndarray | None, ortho: bool, tol: float) -> np.ndarray:
    """A B-orthonormal basis of S's columns (Gram matrix scaled to a unit diagonal first)."""
    gram = S.T @ (S if B is None else B @ S)
    d = 1 / np.sqrt(np.maximum(np.diag(gram), np.finfo(S.dtype).tiny))
    scaled = d[:, None] * gram * d[None, :]
    if ortho:  # SVQB: keep the directions whose Gram eigenvalue is not lost in rounding
        w, v = np.linalg.eigh((scaled + scaled.T) / 2)
        keep = w > tol * w.max()
        return S @ (d[:, None] * v[:, keep] / np.sqrt(w[keep]))
    upper = np.linalg.cholesky(scaled).T  # (LinAlgError on a singular basis: see api)
    return S @ (d[:, None] * np.linalg.inv(upper))


def lobpcg_pairs(
    A: np.ndarray, B: np.ndarray | None, X: np.ndarray, iK: np.ndarray | None,
    k: int, niter: int, tol: float, largest: bool, ortho: bool,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The iteration on one matrix: eigenvalues (n,) and eigenvectors (m, n)."""
    n = X.shape[1]
    bx = X if B is None else B @ X
    x_norm = np.linalg.norm(X)
    a_norm, b_norm = np.linalg.norm(A @ X) / x_norm, np.linalg.norm(bx) / x_norm
    P: np.ndarray | None = None
    R: np.ndarray | None = None
    count, step = 0, 0
    while True:
        W = None  # (the residuals of the unconverged vectors, preconditioned by iK if given)
        if R is not None:
            W = R[:, count:] if iK is None else iK @ R[:, count:]
        parts = [X] + [p for p in (W, P) if p is not None and p.shape[1]]
        S = _basis(np.concatenate(parts, axis=1), B, ortho, tol)
        E_all, Z = _ritz(S.T @ A @ S, largest)
        new = S @ Z[:, :n]
        if step > 0:  # the direction each unconverged vector moved in, outside the old X
            moved = new[:, count:]
            P = moved - X @ (X.T @ (moved if B is None else B @ moved))
        # (as PyTorch's "ortho", the first step leaves the eigenvalues at 0)
        E = np.zeros(n, X.dtype) if ortho and step == 0 else E_all[:n].astype(X.dtype)
        X = new.astype(X.dtype)
        R = A @ X - (X if B is None else B @ X) * E
        rerr = np.linalg.norm(R, axis=0) / (
            np.linalg.norm(X, axis=0) * (a_norm + np.abs(E) * b_norm)
        )
        count = max(count, int(np.argmin(np.append(rerr < tol, False))))  # (leading run)
        step += 1
        if step == niter or count >= k:
            return E, X


class Lobpcg(NumpyFunction):
    """E, U = the k extreme eigenpairs of symmetric A; dL/dA as in the module docstring."""

    node_name = "LOBPCGAutogradFunctionBackward"
    ctx_fields = ("with_b",)

    @staticmethod
    def forward(ctx, A, B, starts, iK, k, niter, tol, largest, ortho):
        lead, m = A.shape[:-2], A.shape[-1]
        mats, bs = A.reshape(-1, m, m), None if B is None else B.reshape(-1, m, m)
        values, vectors = [], []
        for i, a in enumerate(mats):
            b = None if bs is None else bs[i]
            e, u = lobpcg_pairs(a, b, starts[i], iK, k, niter, tol, largest, ortho)
            values.append(e[:k])
            vectors.append(u[:, :k])
        E = np.stack(values).reshape(*lead, -1)
        U = np.stack(vectors).reshape(*lead, m, -1)
        ctx.save_for_backward(A, E, U)
        ctx.with_b = B is not None
        return E, U

    @staticmethod
    def backward(ctx, grad_E, grad_U):
        if ctx.with_b:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        A, E, U = ctx.saved_tensors
        m, k = U.shape[-2:]
        gE = np.zeros_like(E) if grad_E is None else grad_E
        gU = np.zeros_like(U) if grad_U is None else grad_U
        grads = [
            _pair_grad(a, e, u, ge, gu)
            for a, e, u, ge, gu in zip(
                A.reshape(-1, m, m), E.reshape(-1, k), U.reshape(-1, m, k),
                gE.reshape(-1, k), gU.reshape(-1, m, k),
            )
        ]  # fmt: skip
        return np.stack(grads).reshape(A.shape)


def _pair_grad(a: Any, e: Any, u: Any, ge: Any, gu: Any) -> np.ndarray:
    # sum_i gE_i u_i u_i^T - (A - e_i)^+ gU_i u_i^T, the pseudo-inverse without u_i's own pair
    w, v = np.linalg.eigh(a)
    grad = (u * ge) @ u.T
    for i in range(u.shape[1]):
        gap = w - e[i]
        own = np.argmin(np.abs(gap))
        inv = np.where(np.arange(w.size) == own, 0.0, 1 / np.where(gap == 0, 1, gap))
        grad = grad - np.outer(v @ (inv * (v.T @ gu[:, i])), u[:, i])
    return grad.astype(a.dtype)
