"""hardshrink: a where |a| > lambd, else 0, with its backward formula."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs

__all__ = ["Hardshrink"]


class Hardshrink(NumpyFunction):
    """z = a where |a| > lambd, else 0, so dz/da = 1 where |a| > lambd, else 0."""

    node_name = "HardshrinkBackward0"

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        keep = (a > lambd) | (a < -lambd)  # (nan stays nan, as in PyTorch)
        return follow_inputs(np.where(keep | np.isnan(a), a, 0).astype(a.dtype, copy=False), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        lambd = ctx.lambd
        return np.where((a > lambd) | (a < -lambd), grad_output, 0 * grad_output)
