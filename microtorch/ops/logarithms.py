"""Logarithms in base 10 and 2 (the natural log is ``unary.log``).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/logarithms.py``.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._precise import correctly_rounded

__all__ = ["Log10", "Log2"]


class Log10(NumpyFunction):
    """z = log10(a) = log(a) / log(10), so dz/da = 1 / (a * log(10))."""

    node_name = "Log10Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):  # log10(0) = -inf, of -1 nan
            return correctly_rounded(np.log10, a)  # log10(100) is 2.0 exactly

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            return grad_output / (a * np.asarray(math.log(10), a.dtype))


class Log2(NumpyFunction):
    """z = log2(a) = log(a) / log(2), so dz/da = 1 / (a * log(2))."""

    node_name = "Log2Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return correctly_rounded(np.log2, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            return grad_output / (a * np.asarray(math.log(2), a.dtype))
