"""The median: of all elements (``MedianAll``) and along a dimension (``MedianDim``), with
the index PyTorch returns; and ``bincount``'s counting.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/statistics.py``. PyTorch's median of n values is the lower one of the two
middle values (sorted position (n - 1) // 2), never their mean; any nan makes it nan.
Also nansum (a sum that skips nan) and var_mean / std_mean (two results from one node).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import expand
from microtorch.ops._layout import row_major
from microtorch.ops.reduction import (
    _count,
    _expand_back,
    _Extreme,
    _mean,
    _SelectAlong,
    _sum_of_squares,
)

__all__ = [
    "MedianAll", "MedianDim", "lower_median", "median_indices", "counts", "Nansum", "VarMean",
    "StdMean",
]  # fmt: skip


def lower_median(a: np.ndarray, axis: None = None, keepdims: bool = False) -> np.ndarray:
    """The value at sorted position (n - 1) // 2 of all of ``a`` (nan if any is nan)."""
    flat = a.reshape(-1)
    if np.isnan(flat).any() if flat.dtype.kind == "f" else False:
        return np.asarray(np.nan, a.dtype)
    k = (flat.size - 1) // 2
    return np.asarray(np.partition(flat, k)[k])


class MedianAll(_Extreme):
    """z = median(a): dz/da = 1 at the median's value (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MedianBackward0", staticmethod(lower_median), True


class MedianDim(_SelectAlong):
    """values, indices = median(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MedianBackward1"


def median_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Where along ``dim`` each median sits, as PyTorch finds it: the first nan if there is
    one, else position (n - 1) // 2 of a stable sort (among equal values, the one that came
    first there)."""
    k = (a.shape[dim] - 1) // 2
    order = np.argsort(a, axis=dim, kind="stable")  # (nans sort last)
    out = np.take(order, k, axis=dim)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        has_nan = nan.any(axis=dim)
        out = np.where(has_nan, np.argmax(nan, axis=dim), out)
    return out.astype(np.int64)


def counts(values: np.ndarray, weights: np.ndarray | None, minlength: int) -> np.ndarray:
    """How often each whole number 0, 1, ... occurs in ``values`` (or the sum of the
    weights where it occurs)."""
    return np.bincount(values, weights, minlength)


class Nansum(NumpyFunction):
    """z = the sum of a's elements that are not nan, so dz/da = 1 there and 0 at a nan
    (the gradient times that mask, as PyTorch: an infinite gradient gives nan at a nan)."""

    node_name = "NansumBackward0"
    ctx_fields = ("axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim, dtype):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        return row_major(np.asarray(np.nansum(a, axis=axes, keepdims=keepdim, dtype=dtype)))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        if grad_output.ndim == 0:  # (the sum of all elements: its gradient is expanded)
            g = expand(grad_output, a.shape)
        else:
            g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        return g * np.logical_not(np.isnan(a))


class VarMean(NumpyFunction):
    """var, mean = var(a), mean(a) over n elements (var divides by n - correction), so
    d var/da = 2 (a - mean) / (n - correction) and d mean/da = 1 / n."""

    node_name = "VarMeanBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = max(_count(a.shape, axes) - correction, 0)
        var = _sum_of_squares(a, axes, keepdim) / ctx.divisor  # n <= correction: nan
        mean = _mean(a, axes) if keepdim else np.squeeze(_mean(a, axes), axes)
        return row_major(var.astype(a.dtype)), row_major(mean.astype(a.dtype))

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        (a,) = ctx.saved_tensors
        return _var_backward(grad_var, a, ctx) + _mean_backward(grad_mean, a, ctx)


class StdMean(NumpyFunction):
    """std, mean = sqrt(var(a)), mean(a), so d std/da = (a - mean) / ((n - correction) std)
    (0 where std is 0, as PyTorch) and d mean/da = 1 / n."""

    node_name = "StdMeanBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = max(_count(a.shape, axes) - correction, 0)
        std = row_major(np.sqrt(_sum_of_squares(a, axes, keepdim) / ctx.divisor).astype(a.dtype))
        mean = _mean(a, axes) if keepdim else np.squeeze(_mean(a, axes), axes)
        ctx.save_for_backward(a, std)
        return std, row_major(mean.astype(a.dtype))

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        a, std = ctx.saved_tensors
        grad_var = np.where(std == 0, 0, grad_std / (std * 2))  # d std = d var / (2 std)
        return _var_backward(grad_var, a, ctx) + _mean_backward(grad_mean, a, ctx)


def _var_backward(grad: np.ndarray, a: np.ndarray, ctx) -> np.ndarray:
    # 2 / (n - correction) * grad * (a - mean(a)), written in PyTorch's order
    g = _expand_back(grad, a.shape, ctx.axes, ctx.keepdim)
    return (2 / ctx.divisor) * g * (a - _mean(a, ctx.axes))


def _mean_backward(grad: np.ndarray, a: np.ndarray, ctx) -> np.ndarray:
    return _expand_back(grad, a.shape, ctx.axes, ctx.keepdim) / _count(a.shape, ctx.axes)
