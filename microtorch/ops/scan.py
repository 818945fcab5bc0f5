"""Running extremes and running log-sum-exp along a dimension, and min and max together:
cummax, cummin, logcumsumexp, aminmax.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in ``microtorch/api/scan.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["running_extreme", "Cummax", "Cummin", "Logcumsumexp", "Aminmax"]


def running_extreme(a: np.ndarray, dim: int, largest: bool) -> np.ndarray:
    """The index of the running max (min) along ``dim``: a later equal value or any nan
    takes over (PyTorch's rule), so a nan, once met, stays the running value."""
    moved = np.moveaxis(a, dim, -1)
    indices = np.zeros(moved.shape, np.int64)
    if moved.shape[-1] == 0:
        return np.moveaxis(indices, -1, dim)
    best, at = moved[..., 0].copy(), np.zeros(moved.shape[:-1], np.int64)
    floating = np.issubdtype(a.dtype, np.floating)
    for j in range(moved.shape[-1]):
        x = moved[..., j]
        take = (x >= best) if largest else (x <= best)
        if floating:
            take |= np.isnan(x)
        best, at = np.where(take, x, best), np.where(take, j, at)
        indices[..., j] = at
    return np.moveaxis(indices, -1, dim)


class Cummax(NumpyFunction):
    """z[..., j] = a[..., index[j]], the running max: each value's gradient goes to the
    place it came from (summed where one place is the max of many)."""

    node_name = "CummaxBackward0"
    ctx_fields = ("indices", "dim")

    @staticmethod
    def forward(ctx, a, indices, dim):
        ctx.indices, ctx.dim = indices, dim
        return np.take_along_axis(a, indices, dim) if a.ndim else a.copy()

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output.ndim == 0:
            return grad_output
        grad = np.zeros_like(grad_output)
        places = list(np.indices(grad_output.shape, sparse=True))
        places[ctx.dim] = ctx.indices
        np.add.at(grad, tuple(places), grad_output)
        return grad


class Cummin(Cummax):
    """z[..., j] = a[..., index[j]], the running min (gradient as cummax's)."""

    node_name = "CumminBackward0"


def _reverse_logcumsumexp(v: np.ndarray, dim: int) -> np.ndarray:
    return np.flip(np.logaddexp.accumulate(np.flip(v, dim), axis=dim), dim)


class Logcumsumexp(NumpyFunction):
    """z_j = log(sum_{i<=j} exp(a_i)), so dL/da_i = sum_{j>=i} g_j exp(a_i - z_j); the sum is
    taken in log space, for the positive and the negative parts of g apart (no overflow)."""

    node_name = "LogcumsumexpBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        out = np.logaddexp.accumulate(a, axis=dim) if a.ndim else a.copy()
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        if a.ndim == 0:
            return grad_output
        with np.errstate(divide="ignore"):  # (log 0 = -inf: where g = 0, taken out below)
            log_abs = np.log(np.abs(grad_output))
        lowest = np.finfo(grad_output.dtype).min  # exp(lowest - ...) = 0: no part of that sign
        log_pos = np.where(grad_output > 0, log_abs, lowest)
        log_neg = np.where(grad_output < 0, log_abs, lowest)
        pos = np.exp(a + _reverse_logcumsumexp(log_pos - out, ctx.dim))
        neg = np.exp(a + _reverse_logcumsumexp(log_neg - out, ctx.dim))
        return pos - neg


class Aminmax(NumpyFunction):
    """(min, max) of a over ``axes``; each gradient is shared evenly among the places that
    hold the extreme (as amin's and amax's)."""

    node_name = "AminmaxBackward0"
    ctx_fields = ("axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim):
        ctx.axes, ctx.keepdim = axes, keepdim
        low, high = a.min(axis=axes, keepdims=True), a.max(axis=axes, keepdims=True)
        ctx.save_for_backward(a, low, high)
        if keepdim:
            return low, high
        return low.reshape(np.delete(low.shape, axes)), high.reshape(np.delete(high.shape, axes))

    @staticmethod
    def backward(ctx, grad_min, grad_max):
        a, low, high = ctx.saved_tensors
        grads = []
        for g, extreme in ((grad_min, low), (grad_max, high)):
            g = g if ctx.keepdim else np.expand_dims(g, ctx.axes)
            at = a == extreme
            grads.append(at * (g / at.sum(axis=ctx.axes, keepdims=True)))
        return grads[0] + grads[1]
