"""The ``Function``s behind ``F.interpolate``'s ``linear`` and ``bilinear`` modes
(``UpsampleLinear1DBackward0``, ``UpsampleBilinear2DBackward0``).

Each output position along a resized dim reads the input at a fractional source position
``src``: the mix ``(1 - lam) x[i0] + lam x[i1]`` of its two neighbours (``i0 = floor(src)``,
``lam = src - i0``). ``bilinear`` does this along H, then along W. The gradient sends each
output's gradient back to the same two neighbours with the same weights.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import row_major

__all__ = ["linear_weights", "UpsampleLinear1D", "UpsampleBilinear2D"]


def linear_weights(
    n_in: int, n_out: int, align_corners: bool, scale: float | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(i0, i1, lam) for each output position, as PyTorch computes the source positions:
    with ``align_corners`` the corners of input and output meet; otherwise their pixels'
    centres line up (``src = (dst + 0.5) / factor - 0.5``, clamped at 0)."""
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        src = dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        ratio = 1.0 / scale if scale is not None and scale > 0 else n_in / n_out
        src = np.maximum(ratio * (dst + 0.5) - 0.5, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    return i0, i1, src - i0


class UpsampleLinear1D(NumpyFunction):
    """z[..., j] = (1 - lam_j) x[..., i0_j] + lam_j x[..., i1_j] along each resized dim, so
    dL/dx[i] adds (1 - lam_j) g_j for each j with i0_j = i and lam_j g_j for i1_j = i."""

    node_name = "UpsampleLinear1DBackward0"
    double_backward_name = "UpsampleLinear1DBackwardBackward0"

    ctx_fields = ("weights", "shape")

    @staticmethod
    def forward(ctx, x, weights):
        ctx.weights, ctx.shape = weights, x.shape
        out = x
        for d, (i0, i1, lam) in enumerate(weights, start=x.ndim - len(weights)):
            lam = lam.astype(x.dtype).reshape((-1,) + (1,) * (x.ndim - 1 - d))
            low, high = np.take(out, i0, axis=d), np.take(out, i1, axis=d)
            out = low * (1 - lam) + high * lam
        return row_major(out)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output
        ndim = len(ctx.shape)
        first = ndim - len(ctx.weights)
        for d in reversed(range(first, ndim)):
            i0, i1, lam = ctx.weights[d - first]
            lam = lam.astype(g.dtype).reshape((-1,) + (1,) * (ndim - 1 - d))
            grad = np.zeros_like(g, shape=g.shape[:d] + (ctx.shape[d],) + g.shape[d + 1 :])
            lead = (slice(None),) * d
            np.add.at(grad, (*lead, i0), g * (1 - lam))  # (positions read twice get both)
            np.add.at(grad, (*lead, i1), g * lam)
            g = grad
        return g


class UpsampleBilinear2D(UpsampleLinear1D):
    """``linear`` along H, then along W."""

    node_name = "UpsampleBilinear2DBackward0"
    double_backward_name = "UpsampleBilinear2DBackwardBackward0"
