"""dist: the p-norm of a - b (broadcast), as one op with its backward formula."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["Dist", "p_norm"]


def p_norm(d: np.ndarray, p: float) -> np.ndarray:
    """(sum |d|**p)**(1/p) of all of d; p = inf the largest |d|, p = 0 the count of nonzeros."""
    u = np.abs(d)
    if p == np.inf:
        return u.max(initial=0.0)
    if p == -np.inf:
        return u.min(initial=np.inf)
    if p == 0:
        return np.asarray((u != 0).sum(), dtype=d.dtype)
    if p == 1:
        return u.sum()
    if p == 2:
        return np.sqrt((u * u).sum())
    return (u**p).sum() ** (1 / p)


class Dist(NumpyFunction):
    """z = ||a - b||_p, so dz/da = -dz/db = sign(d) |d|**(p-1) / z**(p-1) with d = a - b
    (p = inf: sign(d) shared among the entries of largest |d|; p = 0: 0; 0 where z = 0)."""

    node_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, p):
        d = a - b
        z = np.asarray(p_norm(d, p), dtype=d.dtype)
        ctx.save_for_backward(a, b, z)  # (a and b, not d: create_graph=True needs d's inputs)
        ctx.p = p
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, b, z = ctx.saved_tensors
        d, p = a - b, ctx.p
        if p == 0:
            g = d * 0
        elif np.isinf(p):
            top = np.abs(d) == z
            g = np.sign(d) * top / top.sum()
        elif p == 1:
            g = np.sign(d)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                g = np.where(z == 0, 0.0, np.sign(d) * np.abs(d) ** (p - 1) / z ** (p - 1))
        g = (g * grad_output).astype(d.dtype, copy=False)
        return tuple(
            unbroadcast(s * g, ctx.input_shape(i)) if needed else None
            for i, (s, needed) in enumerate(zip((1, -1), ctx.needs_input_grad))
        )
