"""Joining and cutting: cat, stack, split, chunk, unbind.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/join.py``.

Each piece's gradient goes back to the input it came from: ``cat``'s backward cuts the
gradient up, ``split``'s glues the pieces' gradients back together.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import row_major

__all__ = ["Cat", "Stack", "Split", "SplitWithSizes", "Unbind"]


class Cat(NumpyFunction):
    """z = the inputs joined along dim: each gets back its own slice of the gradient."""

    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        ctx.splits = np.cumsum([t.shape[dim] for t in tensors])[:-1]
        return row_major(np.concatenate(tensors, axis=dim))  # (as PyTorch, whatever theirs)

    @staticmethod
    def backward(ctx, grad_output):
        return tuple(np.split(grad_output, ctx.splits, axis=ctx.dim))


class Stack(NumpyFunction):
    """z = the inputs stacked along a new dim: each gets back its own slice of the gradient."""

    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        return row_major(np.stack(tensors, axis=dim))

    @staticmethod
    def backward(ctx, grad_output):
        before = (slice(None),) * ctx.dim  # grad_output[:, ..., i]: input i's slice (a view)
        return tuple([grad_output[before + (i,)] for i in range(grad_output.shape[ctx.dim])])


class Split(NumpyFunction):
    """outputs = a cut along dim: the gradient pieces are joined back (zeros for unused ones)."""

    node_name = "SplitBackward0"

    @staticmethod
    def forward(ctx, a, bounds, dim):
        ctx.dim = dim
        return tuple(np.split(a, bounds, axis=dim))

    @staticmethod
    def backward(ctx, *grad_outputs):
        return np.concatenate(grad_outputs, axis=ctx.dim)


class SplitWithSizes(Split):
    """outputs = a cut into pieces of the given sizes: the gradient pieces are joined back."""

    node_name = "SplitWithSizesBackward0"


class Unbind(NumpyFunction):
    """outputs = the slices of a along dim: the gradients are stacked back."""

    node_name = "UnbindBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        moved = np.moveaxis(a, dim, 0)
        return tuple(moved[i, ...] for i in range(len(moved)))  # views of a, 0-d ones too

    @staticmethod
    def backward(ctx, *grad_outputs):
        return np.stack(grad_outputs, axis=ctx.dim)
