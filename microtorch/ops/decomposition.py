"""The singular value decomposition A = U diag(S) Vh, with its gradient.

The formula: one ``Function``, forward and backward side by side. The public functions
(``torch.svd``, ``torch.linalg.svd``, ``torch.linalg.svdvals``) are in
``microtorch/api/decomposition.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["LinalgSvd"]


class LinalgSvd(NumpyFunction):
    """U, S, Vh = svd(A) (batched over leading dimensions). For the reduced decomposition
    (k = min(m, n) singular values) and distinct singular values, with V = Vh^T and
    F[i, j] = 1 / (S[j]**2 - S[i]**2) off the diagonal (0 on it):

        dA = U [ (F * (U^T dU - dU^T U)) S + diag(dS) + S (F * (V^T dV - dV^T V)) ] Vh
             + (I - U U^T) dU S^-1 Vh + U S^-1 dV^T (I - V V^T)

    (Townsend 2016). With full_matrices=True, U's and Vh's extra vectors get no gradient."""

    node_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx, a, full_matrices):
        if not np.isfinite(a).all():  # (PyTorch's answer for inf; nan is refused before)
            nan = _nan_svd(a, full_matrices)
            ctx.save_for_backward(*nan)  # (a gradient of nan, as PyTorch's)
            return nan
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        ctx.save_for_backward(u, s, vh)
        return u, s, vh

    @staticmethod
    def backward(ctx, grad_u, grad_s, grad_vh):
        u, s, vh = ctx.saved_tensors
        k = s.shape[-1]
        # (full_matrices=True: the columns past k carry no gradient, as in PyTorch)
        u, vh = u[..., :, :k], vh[..., :k, :]
        grad_u, grad_vh = grad_u[..., :, :k], grad_vh[..., :k, :]
        v, grad_v = np.swapaxes(vh, -1, -2), np.swapaxes(grad_vh, -1, -2)
        ut, vt = np.swapaxes(u, -1, -2), vh
        s2 = s[..., None, :] ** 2 - s[..., :, None] ** 2  # [i, j] = S[j]**2 - S[i]**2
        eye = np.eye(k, dtype=bool)
        with np.errstate(divide="ignore"):
            f = np.where(eye, 0.0, 1.0 / np.where(eye, 1.0, s2))
        j = f * (ut @ grad_u - np.swapaxes(grad_u, -1, -2) @ u)
        kk = f * (vt @ grad_v - np.swapaxes(grad_v, -1, -2) @ v)
        inner = j * s[..., None, :] + kk * s[..., :, None]
        inner = inner + grad_s[..., :, None] * eye
        grad = u @ inner @ vh
        m, n = u.shape[-2], v.shape[-2]
        if m > k:
            grad = grad + (grad_u - u @ (ut @ grad_u)) / s[..., None, :] @ vh
        if n > k:
            grad = grad + (u / s[..., None, :]) @ (
                np.swapaxes(grad_v, -1, -2) - (np.swapaxes(grad_v, -1, -2) @ v) @ vt
            )
        return grad.astype(u.dtype)


def _nan_svd(a: np.ndarray, full_matrices: bool) -> tuple[np.ndarray, ...]:
    # the shapes of svd(a), filled with nan
    *batch, m, n = a.shape
    k = min(m, n)
    shapes = ((m, m), (n, n)) if full_matrices else ((m, k), (k, n))
    u, vh = (np.full((*batch, *s), np.nan, a.dtype) for s in shapes)
    return u, np.full((*batch, k), np.nan, a.dtype), vh
