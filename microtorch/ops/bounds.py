"""One-sided clamps and nan_to_num: values limited or replaced, gradients passed where a value
was kept.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions are in ``microtorch/api/composites.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["ClampMin", "ClampMax", "NanToNum"]


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
