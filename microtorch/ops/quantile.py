"""The positions a quantile reads in a sorted row, and quantile's last node.

``quantile(x, q)`` sorts ``x`` and reads it at rank ``q * (n - 1)``: between two neighbours
for ``linear`` and ``midpoint``, at one of them for ``lower``, ``higher`` and ``nearest``.
``ranks`` computes those positions (numpy only, no gradient: they are data); the public
function in ``microtorch/api/quantile.py`` gathers the values there and blends them with
``lerp``, as PyTorch's does, so the gradient goes to the one or two elements read.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["ranks", "QuantileShape"]


def ranks(
    sorted_rows: np.ndarray, q: np.ndarray, interpolation: str, ignore_nan: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rows sorted along the last axis (NaN last) and quantiles ``q`` (1-d, in the rows'
    dtype): the positions below and above each quantile, and the weight of the one above,
    each of shape ``rows.shape[:-1] + q.shape``."""
    n = sorted_rows.shape[-1]
    nan = np.isnan(sorted_rows)
    if ignore_nan:
        count = (~nan).sum(axis=-1, keepdims=True)
        rank = q * (count - 1).astype(q.dtype)  # (a row of NaN only: count - 1 = -1)
        rank = np.where(count == 0, np.asarray(n - 1, q.dtype), rank)
    else:
        rank = np.broadcast_to(q * np.asarray(n - 1, q.dtype), sorted_rows.shape[:-1] + q.shape)
        rank = np.where(nan.any(axis=-1, keepdims=True), np.asarray(n - 1, q.dtype), rank)
    rank = rank.astype(q.dtype)
    below = np.floor(rank)
    if interpolation == "lower":
        above = below
    elif interpolation == "higher":
        below = above = np.ceil(rank)
    elif interpolation == "nearest":
        below = above = np.round(rank)  # (half to even, as PyTorch's round)
    else:
        above = np.ceil(rank)
    if interpolation == "midpoint":
        weight = np.full_like(rank, 0.5)
    else:
        weight = (rank - below).astype(q.dtype)
    return below.astype(np.int64), above.astype(np.int64), weight


class QuantileShape(NumpyFunction):
    """z = a reshaped to the quantile's result shape (PyTorch's last step is ``squeeze_``):
    the gradient is reshaped back."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return a.reshape(shape)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.reshape(ctx.shape)
