"""renorm: each slice along ``dim`` scaled down to p-norm ``maxnorm`` if its norm is larger,
with its backward formula."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs

__all__ = ["Renorm", "slice_norms"]


def slice_norms(a: np.ndarray, p: float, dim: int) -> np.ndarray:
    """The p-norm of each slice of ``a`` along ``dim`` (over all other dims, kept as 1s)."""
    axes = tuple(d for d in range(a.ndim) if d != dim)
    if p == np.inf:
        return np.abs(a).max(axis=axes, keepdims=True, initial=0)
    return (np.abs(a) ** p).sum(axis=axes, keepdims=True) ** (1 / p)


def _norm_grad(a: np.ndarray, p: float, norm: np.ndarray, dim: int) -> np.ndarray:
    # d norm / d a, 0 where the norm is 0 (PyTorch's norm_backward)
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == np.inf:
            ties = np.abs(a) == norm
            axes = tuple(d for d in range(a.ndim) if d != dim)
            grad = np.sign(a) * ties / ties.sum(axis=axes, keepdims=True)
        elif p == 1:
            grad = np.sign(a)
        elif p < 1:
            grad = np.sign(a) * np.where(a == 0, 0, np.abs(a) ** (p - 1)) / norm ** (p - 1)
        else:
            grad = a * np.abs(a) ** (p - 2) / norm ** (p - 1)
    return np.where(norm == 0, 0, grad)


class Renorm(NumpyFunction):
    """z = a * f, f = maxnorm / (n + 1e-7) where the slice's norm n > maxnorm, else 1; so
    dz/da = f + a * df/dn * dn/da there (df/dn = -f / (n + 1e-7)), else 1."""

    node_name = "RenormBackward0"

    @staticmethod
    def forward(ctx, a, p, dim, maxnorm):
        ctx.save_for_backward(a)
        ctx.p, ctx.dim, ctx.maxnorm = p, dim, maxnorm
        acc = np.float32 if a.dtype == np.float16 else a.dtype  # (PyTorch's norm for half)
        norm = slice_norms(a.astype(acc), p, dim)
        with np.errstate(divide="ignore", invalid="ignore"):
            factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1).astype(acc)
        return follow_inputs((a * factor.astype(a.dtype)).astype(a.dtype, copy=False), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        p, dim, maxnorm = ctx.p, ctx.dim, ctx.maxnorm
        norm = slice_norms(a, p, dim)
        axes = tuple(d for d in range(a.ndim) if d != dim)
        nb = (a * grad_output).sum(axis=axes, keepdims=True) * _norm_grad(a, p, norm, dim)
        invnorm = 1 / (norm + 1e-7)
        factor = invnorm * maxnorm
        grad = factor * grad_output - (factor * invnorm) * nb
        return np.where(norm > maxnorm, grad, grad_output).astype(a.dtype, copy=False)
