"""The ``Function`` behind adaptive max pooling (``AdaptiveMaxPool2DBackward0``), and where
each of its windows' maximum is.

Output position i of a dim of input size n and output size m looks at input positions
floor(i n / m) .. ceil((i + 1) n / m) - 1: windows that tile the input, of sizes that differ
by at most one. The gradient is max pooling's: each output's goes to its window's winner.
"""

from __future__ import annotations

import numpy as np

from microtorch.nn.conv_ops import MaxPool2DWithIndices

__all__ = ["adaptive_windows", "adaptive_max_pool2d_indices", "AdaptiveMaxPool2D"]


def adaptive_windows(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """Each output position's first and one-past-last input position along one dim."""
    i = np.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def adaptive_max_pool2d_indices(x: np.ndarray, out: tuple[int, int]) -> np.ndarray:
    """Where each window's maximum is, ``h * W + w`` in its plane, shape ``(..., OH, OW)``:
    PyTorch's scan (a value wins if larger than the best so far, or NaN), one offset into
    the windows at a time, so ties go to the first position and a window holding NaN reports
    its last NaN."""
    h, w = x.shape[-2:]
    (top, bottom), (left, right) = adaptive_windows(h, out[0]), adaptive_windows(w, out[1])
    rows = top[:, None] + np.arange(int((bottom - top).max(initial=1)))  # (OH, KH)
    cols = left[:, None] + np.arange(int((right - left).max(initial=1)))  # (OW, KW)
    best = np.full(x.shape[:-2] + tuple(out), -np.inf, x.dtype)  # (floats only)
    index = np.broadcast_to(top[:, None] * w + left, best.shape).copy()
    for i in range(rows.shape[1]):
        for j in range(cols.shape[1]):
            inside = (rows[:, i] < bottom)[:, None] & (cols[:, j] < right)  # (OH, OW)
            r, c = np.minimum(rows[:, i], h - 1), np.minimum(cols[:, j], w - 1)
            value = x[..., r[:, None], c]
            wins = inside & ((value > best) | np.isnan(value))
            best = np.where(wins, value, best)
            index = np.where(wins, r[:, None] * w + c, index)
    return index


class AdaptiveMaxPool2D(MaxPool2DWithIndices):
    """y[..., i, j] = max of x over adaptive window (i, j) = x[..., idx[i, j]], so
    dL/dx[q] = sum over windows whose maximum is q of dL/dy (as max pooling's)."""

    node_name = "AdaptiveMaxPool2DBackward0"
    double_backward_name = "AdaptiveMaxPool2DBackwardBackward0"
