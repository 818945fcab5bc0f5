"""Ordering: sort, argsort, topk, nonzero. The values are differentiable; indices are not.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/sorting.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs

__all__ = ["_TakeAlong", "Sort", "SortStable", "Topk"]


class _TakeAlong(NumpyFunction):
    """z = a picked along ``dim`` at ``indices``: each picked element gets its gradient back
    at the place it came from, the others 0."""

    ctx_fields = ("shape", "dim")

    @staticmethod
    def forward(ctx, a, indices, dim):
        ctx.save_for_backward(indices)
        ctx.shape, ctx.dim = a.shape, dim
        if a.ndim == 0:  # (a 0-d tensor: its one element)
            return a.copy()
        return follow_inputs(np.take_along_axis(a, indices, axis=dim), indices)  # (as indices)

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        if not ctx.shape:
            return grad_output
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.put_along_axis(grad, indices, grad_output, axis=ctx.dim)
        return grad


class Sort(_TakeAlong):
    """values = a sorted along dim: each value's gradient goes back to where it came from."""

    node_name = "SortBackward0"


class SortStable(_TakeAlong):
    """values = a sorted along dim (``stable=`` given): gradients go back where they came from."""

    node_name = "SortBackward1"


class Topk(_TakeAlong):
    """values = the k largest (or smallest) along dim: they get their gradients back; the
    rest get 0."""

    node_name = "TopkBackward0"
