"""In-place ops (``x.add_(1)``, ``x[0] = 5``): version counters, leaf checks, graph rebasing.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/inplace.py``.

An in-place op computes its result with the ordinary out-of-place op, then writes it into the
tensor's own memory (so views and ``.numpy()`` arrays see it), bumps the version counter (so
a backward that saved the old values refuses to run), and, when a graph is being recorded,
makes the op's node the tensor's new ``grad_fn``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["Zero", "Fill", "FillTensor", "Copy"]


class Zero(NumpyFunction):
    """z = 0 everywhere (``x.zero_()``): no gradient reaches the old values."""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.zeros_like(a)

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output)


class Fill(NumpyFunction):
    """z = value everywhere (``x.fill_(2)``): no gradient reaches the old values."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, a, value):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output)


class FillTensor(NumpyFunction):
    """z = v everywhere for a 0-d tensor v: v gets the sum of the gradient, the old values 0."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, a, v):
        return np.full_like(a, v)

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output), grad_output.sum()


class Copy(NumpyFunction):
    """z = src, broadcast to the destination (``x.copy_(src)``): src gets the gradient,
    summed back to its shape; the overwritten values get 0."""

    node_name = "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, a, src):
        ctx.src_shape, ctx.src_dtype = src.shape, src.dtype
        return np.broadcast_to(src, a.shape).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        g = unbroadcast(grad_output, ctx.src_shape).astype(ctx.src_dtype, copy=False)
        return np.zeros_like(grad_output), g
