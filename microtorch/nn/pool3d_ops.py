"""The ``Function``s behind 3-d pooling and max unpooling (issue 24):
``AvgPool3DBackward0``, ``MaxPool3DWithIndicesBackward0``, ``AdaptiveAvgPool3DBackward0``,
``AdaptiveMaxPool3DBackward0``, ``MaxUnpool2DBackward0`` and ``MaxUnpool3DBackward0``.

They work as the 2-d ones in ``conv_ops.py`` and ``pool_ops.py`` do, over the last three dims
(D, H, W): windows read one kernel offset at a time, indices as ``(d * H + h) * W + w`` in
each (unpadded) volume.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.nn.conv_ops import (
    _adaptive_matrix,
    _avg_divisor,
    _crop,
    _first_inside,
    _offsets,
    _pad,
    _scatter_windows,
    _sum_windows,
)
from microtorch.nn.pool_ops import adaptive_windows

__all__ = [
    "max_pool3d_indices", "adaptive_max_pool3d_indices", "MaxPool3DWithIndices", "AvgPool3D",
    "AdaptiveAvgPool3D", "AdaptiveMaxPool3D", "MaxUnpool2D", "MaxUnpool3D",
]  # fmt: skip

Triple = tuple[int, int, int]


def _volumes(x: np.ndarray) -> np.ndarray:
    # (..., D, H, W) -> (B, D, H, W)
    return x.reshape(-1, *x.shape[-3:])


def _flat(at: Sequence[np.ndarray], size: Sequence[int]) -> np.ndarray:
    # (d * H + h) * W + w over the (OD, OH, OW) grid of positions at = (d, h, w)
    d, h, w = at
    return (d[:, None, None] * size[1] + h[None, :, None]) * size[2] + w[None, None, :]


def max_pool3d_indices(
    x: np.ndarray, kernel: Triple, stride: Triple, padding: Triple, dilation: Triple, out: Triple
) -> np.ndarray:
    """Where each window's maximum is, shape ``(..., OD, OH, OW)``: PyTorch's scan (a value
    wins if larger than the best so far, or NaN), so ties go to the first position."""
    vols = _volumes(x)
    size = vols.shape[1:]
    need = [(o - 1) * s + d * (k - 1) + 1 for o, s, d, k in zip(out, stride, dilation, kernel)]
    after = tuple(max(0, n - m - p) for n, m, p in zip(need, size, padding))
    low = -np.inf if vols.dtype.kind == "f" else np.iinfo(vols.dtype).min
    xp = _pad(vols, padding, after, low)
    starts = [np.arange(o) * s - p for o, s, p in zip(out, stride, padding)]  # (in the input)
    first = _flat([_first_inside(st, d) for st, d in zip(starts, dilation)], size)
    best = np.full((vols.shape[0], *out), low, vols.dtype)
    index = np.broadcast_to(first, best.shape).copy()
    for k, where in _offsets(kernel, stride, dilation, out):
        value = xp[(slice(None),) + where]
        wins = value > best
        if vols.dtype.kind == "f":
            wins |= np.isnan(value)
        np.maximum(best, value, out=best)  # (NaN stays the best, as in PyTorch's loop)
        at = [st + ki * d for st, ki, d in zip(starts, k, dilation)]
        index = np.where(wins, _flat(at, size), index)
    return index.reshape(*x.shape[:-3], *out)


def adaptive_max_pool3d_indices(x: np.ndarray, out: Triple) -> np.ndarray:
    """Where each adaptive window's maximum is, ``(..., OD, OH, OW)`` (first of ties)."""
    size = x.shape[-3:]
    bounds = [adaptive_windows(n, o) for n, o in zip(size, out)]
    spans = [int((b - a).max(initial=1)) for a, b in bounds]
    best = np.full(x.shape[:-3] + tuple(out), -np.inf, x.dtype)  # (floats only)
    index = np.broadcast_to(_flat([a for a, _ in bounds], size), best.shape).copy()
    for k in np.ndindex(*spans):
        at = [a + ki for (a, _), ki in zip(bounds, k)]
        inside = [p < b for p, (_, b) in zip(at, bounds)]
        mask = inside[0][:, None, None] & inside[1][None, :, None] & inside[2][None, None, :]
        clipped = [np.minimum(p, n - 1) for p, n in zip(at, size)]
        value = x[..., clipped[0][:, None, None], clipped[1][None, :, None], clipped[2]]
        wins = mask & ((value > best) | np.isnan(value))
        best = np.where(wins, value, best)
        index = np.where(wins, _flat(clipped, size), index)
    return index


class MaxPool3DWithIndices(NumpyFunction):
    """y[..., o] = x[..., idx[o]] (each window's maximum), so the gradient of each output goes
    to the one input position that won its window (summed where windows share a winner)."""

    node_name = "MaxPool3DWithIndicesBackward0"
    double_backward_name = "MaxPool3DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, x, index):
        ctx.save_for_backward(x, index)  # (x for its shape)
        vols = _volumes(x)
        picks = index.reshape(vols.shape[0], -1)
        return np.take_along_axis(vols.reshape(vols.shape[0], -1), picks, axis=1).reshape(
            index.shape
        )

    @staticmethod
    def backward(ctx, grad_output):
        x, index = ctx.saved_tensors
        b = math.prod(x.shape[:-3])
        per = math.prod(x.shape[-3:])
        flat = (index.reshape(b, -1) + np.arange(b)[:, None] * per).ravel()
        grad = np.zeros_like(grad_output, shape=(b * per,))
        np.add.at(grad, flat, grad_output.ravel())
        return grad.reshape(x.shape)


class AdaptiveMaxPool3D(MaxPool3DWithIndices):
    """y = the maximum of each adaptive window; the gradient as max pooling's."""

    node_name = "AdaptiveMaxPool3DBackward0"
    double_backward_name = "AdaptiveMaxPool3DBackwardBackward0"


class AvgPool3D(NumpyFunction):
    """y[..., o] = sum of x over window o / divisor[o], so every position of a window gets
    dL/dy[o] / divisor[o] (the divisor as ``AvgPool2D``'s, a product over the three dims)."""

    node_name = "AvgPool3DBackward0"
    double_backward_name = "AvgPool3DBackwardBackward0"
    ctx_fields = ("kernel", "stride", "padding", "padded", "divisor")

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, out, count_include_pad, divisor_override):
        vols = _volumes(x)
        size = vols.shape[1:]
        need = [(o - 1) * s + k for o, s, k in zip(out, stride, kernel)]
        after = tuple(max(0, n - m - p) for n, m, p in zip(need, size, padding))
        xp = _pad(vols, padding, after)
        total = _sum_windows(xp, kernel, stride, out)
        if divisor_override is not None:
            divisor = np.asarray(divisor_override)
        else:
            dd, dh, dw = (
                _avg_divisor(n, k, s, p, o, count_include_pad)
                for n, k, s, p, o in zip(size, kernel, stride, padding, out)
            )
            divisor = dd[:, None, None] * dh[None, :, None] * dw[None, None, :]
        ctx.save_for_backward(x)  # (for its shape)
        ctx.kernel, ctx.stride, ctx.padding = kernel, stride, padding
        ctx.padded, ctx.divisor = xp.shape[1:], divisor
        return (total / divisor.astype(x.dtype)).reshape(*x.shape[:-3], *out)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        g = _volumes(grad_output) / ctx.divisor.astype(grad_output.dtype)
        spread = np.broadcast_to(g[:, None, None, None], (g.shape[0], *ctx.kernel, *g.shape[1:]))
        grad = _scatter_windows(spread, ctx.padded, ctx.stride, (1, 1, 1))
        return _crop(grad, ctx.padding, x.shape[-3:]).reshape(x.shape)


class AdaptiveAvgPool3D(NumpyFunction):
    """y = x averaged over adaptive windows: y[a, b, c] = sum A_d[a, i] A_h[b, j] A_w[c, k]
    x[i, j, k] with averaging matrices A, so dL/dx = the same sum with A transposed."""

    node_name = "AdaptiveAvgPool3DBackward0"
    double_backward_name = "AdaptiveAvgPool3DBackwardBackward0"
    ctx_fields = ("mats",)

    @staticmethod
    def forward(ctx, x, out):
        ctx.mats = [_adaptive_matrix(n, o, x.dtype) for n, o in zip(x.shape[-3:], out)]
        ctx.save_for_backward(x)  # (only checked)
        return np.einsum("ai,bj,ck,...ijk->...abc", *ctx.mats, x)

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if x changed since, or backward freed it
        return np.einsum("ai,bj,ck,...abc->...ijk", *ctx.mats, grad_output)


class MaxUnpool2D(NumpyFunction):
    """y[..., idx[p]] = x[..., p] in zero planes of the output size (the inverse of max
    pooling), so dL/dx[p] = dL/dy[..., idx[p]]."""

    node_name = "MaxUnpool2DBackward0"
    ctx_fields = ("index", "in_shape")

    @staticmethod
    def forward(ctx, x, index, spatial):
        lead = x.shape[: x.ndim - len(spatial)]
        b = math.prod(lead)
        picks = index.reshape(b, -1)
        result = np.zeros((b, math.prod(spatial)), x.dtype)
        np.put_along_axis(result, picks, x.reshape(b, -1), axis=1)
        ctx.index, ctx.in_shape = picks, x.shape
        return result.reshape(*lead, *spatial)

    @staticmethod
    def backward(ctx, grad_output):
        flat = grad_output.reshape(ctx.index.shape[0], -1)
        return np.take_along_axis(flat, ctx.index, axis=1).reshape(ctx.in_shape)


class MaxUnpool3D(MaxUnpool2D):
    """``MaxUnpool2D`` over volumes (D, H, W)."""

    node_name = "MaxUnpool3DBackward0"
