"""Trigonometric and hyperbolic functions beyond sin, cos and tanh: tan, sinh, cosh, the
inverse functions asin, acos, atan, asinh, acosh, atanh, and the two-argument atan2.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/trigonometry.py``. Outside its domain a function is nan (``asin(2)``), and
at the domain's edge its derivative is inf (``asin'(1)``), as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._precise import correctly_rounded

__all__ = ["Tan", "Sinh", "Cosh", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Atan2"]


class Tan(NumpyFunction):
    """z = tan(a), so dz/da = 1 + tan(a)**2 = 1 + z**2 (the output is saved)."""

    node_name = "TanBackward0"

    @staticmethod
    def forward(ctx, a):
        out = correctly_rounded(np.tan, a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * (1 + out**2)


class Sinh(NumpyFunction):
    """z = sinh(a), so dz/da = cosh(a)."""

    node_name = "SinhBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.sinh, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * np.cosh(a)


class Cosh(NumpyFunction):
    """z = cosh(a), so dz/da = sinh(a)."""

    node_name = "CoshBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.cosh, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * np.sinh(a)


class Asin(NumpyFunction):
    """z = asin(a), so dz/da = 1 / sqrt(1 - a**2)."""

    node_name = "AsinBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arcsin, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / np.sqrt(1 - a**2)


class Acos(NumpyFunction):
    """z = acos(a), so dz/da = -1 / sqrt(1 - a**2)."""

    node_name = "AcosBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arccos, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return -grad_output / np.sqrt(1 - a**2)


class Atan(NumpyFunction):
    """z = atan(a), so dz/da = 1 / (1 + a**2)."""

    node_name = "AtanBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arctan, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / (a * a + 1)  # (PyTorch's grouping: its recorded ops)


class Asinh(NumpyFunction):
    """z = asinh(a), so dz/da = 1 / sqrt(a**2 + 1)."""

    node_name = "AsinhBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arcsinh, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / np.sqrt(a**2 + 1)


class Acosh(NumpyFunction):
    """z = acosh(a), so dz/da = 1 / sqrt(a**2 - 1)."""

    node_name = "AcoshBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arccosh, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / np.sqrt(a**2 - 1)


class Atanh(NumpyFunction):
    """z = atanh(a), so dz/da = 1 / (1 - a**2)."""

    node_name = "AtanhBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return correctly_rounded(np.arctanh, a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / (1 - a**2)


class Atan2(NumpyFunction):
    """z = atan2(a, b), the angle of the point (b, a), so dz/da = b / (a**2 + b**2) and
    dz/db = -a / (a**2 + b**2)."""

    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return correctly_rounded(np.arctan2, a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        r2 = a**2 + b**2
        return (
            unbroadcast(grad_output * b / r2, ctx.input_shape(0)) if need_a else None,
            unbroadcast(-grad_output * a / r2, ctx.input_shape(1)) if need_b else None,
        )
