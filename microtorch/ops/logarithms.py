"""Logarithms in base 10 and 2 (the natural log is ``unary.log``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops.unary import _float

__all__ = ["log10", "log2"]


class Log10(NumpyFunction):
    """z = log10(a) = log(a) / log(10), so dz/da = 1 / (a * log(10))."""

    node_name = "Log10Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):  # log10(0) = -inf, of -1 nan
            return np.log10(a)

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
            return np.log2(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            return grad_output / (a * np.asarray(math.log(2), a.dtype))


def log10(input: Any) -> Any:  # noqa: A002 - PyTorch's name
    """Logarithm in base 10 (log10(0) = -inf, of a negative number nan)."""
    return Log10.apply(_float(input, "log10"))


def log2(input: Any) -> Any:  # noqa: A002
    """Logarithm in base 2."""
    return Log2.apply(_float(input, "log2"))
