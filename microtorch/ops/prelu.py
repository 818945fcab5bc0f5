"""The ``Function`` behind ``prelu``: a leaky ReLU whose slope is learned (one per channel).

Its forward and backward take numpy arrays (``NumpyFunction``), computed in the input's dtype.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["PreluKernel"]


class PreluKernel(NumpyFunction):
    """z = a where a > 0, else w * a (w broadcast along the channels), so dz/da = 1 or w,
    and dz/dw = 0 or a, summed over every position that shares the weight."""

    node_name = "PreluKernelBackward0"
    double_backward_name = "PreluKernelBackwardBackward0"

    @staticmethod
    def forward(ctx, a, w):
        ctx.save_for_backward(a, w)
        return np.where(a > 0, a, w * a)

    @staticmethod
    def backward(ctx, grad_output):
        a, w = ctx.saved_tensors
        positive = a > 0
        grad_a = np.where(positive, grad_output, w * grad_output)
        grad_w = np.where(positive, np.zeros((), a.dtype), a * grad_output)
        return grad_a, unbroadcast(grad_w, w.shape)
