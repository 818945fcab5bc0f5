"""The cross product of 3-vectors along a dimension (``torch.cross``, ``torch.linalg.cross``).

The formula: one ``Function``, forward and backward side by side. The public functions that
call it (argument checks, PyTorch's errors) are in ``microtorch/api/cross.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["LinalgCross"]


class LinalgCross(NumpyFunction):
    """z = a x b along ``dim``; as the cross product is linear in each input and
    (g . (a x b)) = (b x g) . a = (g x a) . b, da = b x g and db = g x a."""

    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim):
        ctx.dim, ctx.shapes = dim, (a.shape, b.shape)
        ctx.save_for_backward(a, b)
        return np.cross(a, b, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        (shape_a, shape_b), d = ctx.shapes, ctx.dim
        return (  # (np.cross broadcasts; unbroadcast sums each back to its input's shape)
            unbroadcast(np.cross(b, grad_output, axis=d), shape_a),
            unbroadcast(np.cross(grad_output, a, axis=d), shape_b),
        )
