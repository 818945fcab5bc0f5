"""Reductions over dimensions: sum, mean, max/min, amax/amin, var/std, softmax, log_softmax.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/reduction.py``.
"""

from __future__ import annotations

import builtins

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import expand
from microtorch.ops._layout import row_major

__all__ = [
    "Sum",
    "SumDim",
    "Mean",
    "MeanDim",
    "_Extreme",
    "MaxAll",
    "MinAll",
    "Amax",
    "Amin",
    "_SelectAlong",
    "MaxDim",
    "MinDim",
    "Var",
    "Std",
    "Softmax",
    "LogSoftmax",
    "Logsumexp",
]


_HALF = np.dtype(np.float16)  # float16 sums and means add up in float32, rounded once at the end


def _expand_back(grad: np.ndarray, shape: tuple[int, ...], axes: tuple[int, ...], keep: bool):
    # Put the reduced dimensions back as size 1, then broadcast to the input's shape.
    if not keep and axes:
        grad = np.expand_dims(grad, axes)
    return expand(grad, shape)


class Sum(NumpyFunction):
    """z = sum(a), so dz/da = 1 for every element: the gradient is copied to each one."""

    node_name = "SumBackward0"
    ctx_fields = ("shape",)

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.shape = a.shape
        if dtype is None and a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return a.sum(dtype=np.float32).astype(_HALF)
        return a.sum(dtype=dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return expand(grad_output, ctx.shape)  # the same value, for every element


class SumDim(NumpyFunction):
    """z = sum(a, dim), so dz/da = 1: each element gets the gradient of its sum."""

    node_name = "SumBackward1"
    ctx_fields = ("shape", "axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim, dtype):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        if dtype is None and a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return row_major(a.sum(axis=axes, keepdims=keepdim, dtype=np.float32).astype(_HALF))
        return row_major(a.sum(axis=axes, keepdims=keepdim, dtype=dtype))  # (as PyTorch's)

    @staticmethod
    def backward(ctx, grad_output):
        return _expand_back(grad_output, ctx.shape, ctx.axes, ctx.keepdim)


class Mean(NumpyFunction):
    """z = mean(a) = sum(a) / n, so dz/da = 1 / n for every element."""

    node_name = "MeanBackward0"
    ctx_fields = ("shape", "n")

    @staticmethod
    def forward(ctx, a):
        ctx.shape, ctx.n = a.shape, builtins.max(a.size, 1)
        if a.size == 0:  # the mean of nothing is nan (numpy would also warn)
            return np.full((), np.nan, a.dtype)
        if a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return (a.sum(dtype=np.float32) / a.size).astype(_HALF)
        return a.sum() / a.dtype.type(a.size)

    @staticmethod
    def backward(ctx, grad_output):
        return expand(grad_output, ctx.shape) / ctx.n  # 1 / n of the gradient, everywhere


class MeanDim(NumpyFunction):
    """z = mean(a, dim), so dz/da = 1 / n, n the number of elements averaged."""

    node_name = "MeanBackward1"
    ctx_fields = ("shape", "axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        n = a.dtype.type(_count(a.shape, axes))
        if a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return row_major(
                (a.sum(axis=axes, keepdims=keepdim, dtype=np.float32) / n).astype(_HALF)
            )
        return row_major(a.sum(axis=axes, keepdims=keepdim) / n)

    @staticmethod
    def backward(ctx, grad_output):
        n = int(np.prod([ctx.shape[d] for d in ctx.axes]))
        return _expand_back(grad_output, ctx.shape, ctx.axes, ctx.keepdim) / n


class _Extreme(NumpyFunction):
    """Shared backward of max/min/amax/amin: the gradient goes to the extreme element(s),
    split evenly when several tie."""

    _fill = False  # PyTorch's max()/min() fill zeros (+0.0); amax/amin multiply (-0.0 if g < 0)

    ctx_fields = ("axes", "keepdim")

    @classmethod
    def forward(cls, ctx, a, axes, keepdim):
        # a classmethod: ``reduce`` belongs to the subclass, not to ctx (the graph node)
        out = row_major(np.asarray(cls.reduce(a, axis=axes, keepdims=keepdim)))  # even if 0-d
        ctx.save_for_backward(a, out)
        ctx.axes, ctx.keepdim = axes, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        extreme = _expand_back(out, a.shape, ctx.axes, ctx.keepdim)
        hit = a == extreme
        if ctx._function._fill:  # max() of a nan is nan: the nans get the gradient (PyTorch)
            hit |= np.isnan(a) & np.isnan(extreme)
        count = hit.sum(axis=ctx.axes, keepdims=True, dtype=grad_output.dtype)
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        if ctx._function._fill:
            return np.where(hit, g / count, np.zeros((), g.dtype))
        return hit * (g / count)


class MaxAll(_Extreme):
    """z = max(a): dz/da = 1 at the largest element (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MaxBackward1", staticmethod(np.max), True


class MinAll(_Extreme):
    """z = min(a): dz/da = 1 at the smallest element (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MinBackward1", staticmethod(np.min), True


class Amax(_Extreme):
    """z = amax(a, dim): dz/da = 1 at each largest element (split evenly among ties)."""

    node_name, reduce = "AmaxBackward0", staticmethod(np.max)


class Amin(_Extreme):
    """z = amin(a, dim): dz/da = 1 at each smallest element (split evenly among ties)."""

    node_name, reduce = "AminBackward0", staticmethod(np.min)


class _SelectAlong(NumpyFunction):
    """Shared backward of max/min with ``dim``: the gradient goes to the returned index."""

    ctx_fields = ("shape", "dim", "keepdim")

    @staticmethod
    def forward(ctx, a, dim, keepdim, indices):
        ctx.save_for_backward(indices)
        ctx.shape, ctx.dim, ctx.keepdim = a.shape, dim, keepdim
        if dim is None:  # a 0-d input: its only element
            return a.copy()
        idx = indices if keepdim else np.expand_dims(indices, dim)
        out = np.take_along_axis(a, idx, axis=dim)
        return out if keepdim else np.squeeze(out, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        if ctx.dim is None:
            return grad_output
        idx = indices if ctx.keepdim else np.expand_dims(indices, ctx.dim)
        g = grad_output if ctx.keepdim else np.expand_dims(grad_output, ctx.dim)
        out = np.zeros_like(grad_output, shape=ctx.shape)
        np.put_along_axis(out, idx, g, axis=ctx.dim)
        return out


class MaxDim(_SelectAlong):
    """values, indices = max(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MaxBackward0"


class MinDim(_SelectAlong):
    """values, indices = min(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MinBackward0"


class Var(NumpyFunction):
    """z = sum((a - mean(a))**2) / (n - c), so dz/da = 2 (a - mean(a)) / (n - c)."""

    node_name = "VarBackward0"
    ctx_fields = ("axes", "keepdim", "divisor", "whole")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction, whole=False):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim, ctx.whole = axes, keepdim, whole  # whole: no dim given
        ctx.divisor = builtins.max(_count(a.shape, axes) - correction, 0)
        var = _sum_of_squares(a, axes, keepdim) / ctx.divisor  # n <= correction: nan
        return row_major(np.asarray(var.astype(a.dtype, copy=False)))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        if ctx.divisor == 0:  # n <= correction: 2 / 0 is inf (nan where a is its mean)
            g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
            return g * 2 * (a - _mean(a, ctx.axes)) / ctx.divisor
        if ctx.whole:  # (PyTorch's grouping, so its roundings and its recorded ops)
            g, mean = grad_output, np.mean(a)
        else:
            g = grad_output if ctx.keepdim else np.expand_dims(grad_output, ctx.axes)
            mean = np.mean(a, axis=ctx.axes, keepdims=True)
        return (2.0 / ctx.divisor) * g * (a - mean)


class Std(NumpyFunction):
    """z = sqrt(var(a)), so dz/da = (a - mean(a)) / ((n - correction) * z)."""

    node_name = "StdBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = builtins.max(_count(a.shape, axes) - correction, 0)
        std = np.sqrt(_sum_of_squares(a, axes, keepdim) / ctx.divisor)
        out = row_major(np.asarray(std.astype(a.dtype, copy=False)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        centred = a - _mean(a, ctx.axes)
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        out = _expand_back(out, a.shape, ctx.axes, ctx.keepdim)
        return np.where(out == 0, 0, g * centred / (ctx.divisor * out))  # z = 0: 0 (PyTorch)


def _sum_of_squares(a: np.ndarray, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
    # sum((a - mean(a))**2) in float64, as PyTorch's CPU kernel adds it up (in float32 the
    # squares of values near 1e20 overflow): the caller gives its result in a's dtype. One
    # float64 array, a - mean, squared in place (numpy's sum casts a chunk at a time).
    mean = a.sum(axis=axes, keepdims=True, dtype=np.float64) / _count(a.shape, axes)
    centred = np.subtract(a, mean, out=np.empty(a.shape, np.float64))
    return np.square(centred, out=centred).sum(axis=axes, keepdims=keepdim)


def _mean(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    # the mean along axes, kept as size 1 (of no elements: nan, without numpy's warning)
    return a.sum(axis=axes, keepdims=True) / a.dtype.type(_count(a.shape, axes))


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return int(np.prod([shape[d] for d in axes]))


class Softmax(NumpyFunction):
    """y = exp(a) / sum(exp(a)) along dim, so the gradient is y * (g - sum(g * y))."""

    node_name = "SoftmaxBackward0"
    double_backward_name = "SoftmaxBackwardDataBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        # softmax is shift-invariant; keeps exp() finite (initial: an empty dim has no max)
        shifted = a - a.max(axis=dim, keepdims=True, initial=-np.inf)
        e = np.exp(shifted)
        out = row_major(e / e.sum(axis=dim, keepdims=True))  # PyTorch's layout, whatever a's
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return out * (grad_output - (grad_output * out).sum(axis=ctx.dim, keepdims=True))


class LogSoftmax(NumpyFunction):
    """y = a - log(sum(exp(a))) along dim, so the gradient is g - softmax(a) * sum(g)."""

    node_name = "LogSoftmaxBackward0"
    double_backward_name = "LogSoftmaxBackwardDataBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        shifted = a - a.max(axis=dim, keepdims=True, initial=-np.inf)  # keeps exp() finite
        out = row_major(shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True)))
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output - np.exp(out) * grad_output.sum(axis=ctx.dim, keepdims=True)


class Logsumexp(NumpyFunction):
    """z = log(sum(exp(a))) along dims, so dz/da = exp(a - z) = softmax(a)."""

    node_name = "LogsumexpBackward0"
    ctx_fields = ("axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim):
        m = a.max(axis=axes, keepdims=True, initial=-np.inf)  # shift-invariant: exp() finite
        m = np.where(np.isfinite(m), m, 0)
        out = np.log(np.exp(a - m).sum(axis=axes, keepdims=True)) + m
        out = row_major(out if keepdim else np.squeeze(out, axis=axes))
        ctx.save_for_backward(a, out)
        ctx.axes, ctx.keepdim = axes, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        if not ctx.keepdim:  # the reduced dimensions back as size 1; broadcasting does the rest
            grad_output, out = np.expand_dims(grad_output, ctx.axes), np.expand_dims(out, ctx.axes)
        return grad_output * np.exp(a - out)
