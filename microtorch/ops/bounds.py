"""One-sided clamps and nan_to_num: values limited or replaced, gradients passed where a value
was kept.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions are in ``microtorch/api/composites.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["ClampMin", "ClampMax", "ClampMinTensor", "ClampMaxTensor", "NanToNum"]


class ClampMin(NumpyFunction):
    """z = max(a, m), so dz/da = 1 where a >= m (PyTorch's choice at a tie), else 0."""

    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, a, m):
        ctx.save_for_backward(a)
        ctx.m = m
        return np.maximum(a, np.asarray(m, a.dtype))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return np.where(a >= ctx.m, grad_output, 0)  # (a +0.0 where cut off, as PyTorch)


class ClampMax(NumpyFunction):
    """z = min(a, m), so dz/da = 1 where a <= m, else 0."""

    node_name = "ClampMaxBackward0"

    @staticmethod
    def forward(ctx, a, m):
        ctx.save_for_backward(a)
        ctx.m = m
        return np.minimum(a, np.asarray(m, a.dtype))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return np.where(a <= ctx.m, grad_output, 0)


class ClampMinTensor(NumpyFunction):
    """z = max(a, m) for a tensor bound m, so dz/da = 1 where a >= m (a tie is a's) and
    dz/dm = 1 where a < m, each else 0 (both 0 where either is nan, and z is nan)."""

    node_name = "ClampMinBackward1"

    @staticmethod
    def forward(ctx, a, m, dtype):
        ctx.save_for_backward(a, m)
        ctx.dtype = dtype  # (float16 clamped by a 0-d float64 bound: compared in float16)
        return np.maximum(a.astype(dtype, copy=False), m.astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, grad_output):
        a, m = (x.astype(ctx.dtype, copy=False) for x in ctx.saved_tensors)
        zero = np.zeros((), grad_output.dtype)
        grad_a = np.where(a >= m, grad_output, zero)
        grad_m = np.where(a < m, grad_output, zero)
        return unbroadcast(grad_a, a.shape), unbroadcast(grad_m, m.shape)


class ClampMaxTensor(NumpyFunction):
    """z = min(a, m) for a tensor bound m, so dz/da = 1 where a <= m (a tie is a's) and
    dz/dm = 1 where a > m, each else 0 (both 0 where either is nan, and z is nan)."""

    node_name = "ClampMaxBackward1"

    @staticmethod
    def forward(ctx, a, m, dtype):
        ctx.save_for_backward(a, m)
        ctx.dtype = dtype  # (float16 clamped by a 0-d float64 bound: compared in float16)
        return np.minimum(a.astype(dtype, copy=False), m.astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, grad_output):
        a, m = (x.astype(ctx.dtype, copy=False) for x in ctx.saved_tensors)
        zero = np.zeros((), grad_output.dtype)
        grad_a = np.where(a <= m, grad_output, zero)
        grad_m = np.where(a > m, grad_output, zero)
        return unbroadcast(grad_a, a.shape), unbroadcast(grad_m, m.shape)


class NanToNum(NumpyFunction):
    """z = a with nan, inf and -inf replaced by numbers, so dz/da = 1 where a is finite and
    0 where it was replaced."""

    node_name = "NanToNumBackward0"

    @staticmethod
    def forward(ctx, a, nan, posinf, neginf):
        ctx.save_for_backward(a)
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * np.isfinite(a)
