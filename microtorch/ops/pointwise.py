"""More pointwise functions: angles in degrees and radians, hypot, logaddexp, copysign, fmax and
fmin, sgn, gcd and lcm.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/pointwise.py``.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "Deg2Rad", "Rad2Deg", "Hypot", "LogAddExp", "LogAddExp2", "Copysign", "CopysignScalar",
    "Fmax", "Fmin", "Sgn",
]  # fmt: skip


def unbroadcast_pair(ctx, grad_a, grad_b):
    """Each input's gradient summed to its own shape (None stays None)."""
    return (
        None if grad_a is None else unbroadcast(grad_a, ctx.input_shape(0)),
        None if grad_b is None else unbroadcast(grad_b, ctx.input_shape(1)),
    )


class Deg2Rad(NumpyFunction):
    """z = a * pi / 180, so dz/da = pi / 180."""

    node_name = "Deg2RadBackward0"

    @staticmethod
    def forward(ctx, a):
        return a * np.asarray(math.pi / 180, a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * (math.pi / 180)  # (a Python number keeps the gradient's dtype)


class Rad2Deg(NumpyFunction):
    """z = a * 180 / pi, so dz/da = 180 / pi."""

    node_name = "Rad2DegBackward0"

    @staticmethod
    def forward(ctx, a):
        return a * np.asarray(180 / math.pi, a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * (180 / math.pi)


class Hypot(NumpyFunction):
    """z = sqrt(a**2 + b**2), so dz/da = a / z and dz/db = b / z."""

    node_name = "HypotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        z = correctly_rounded(np.hypot, a, b)
        ctx.save_for_backward(a, b, z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, b, z = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        with np.errstate(divide="ignore", invalid="ignore"):  # (0 / 0 at the origin: nan)
            return (
                unbroadcast(grad_output * a / z, ctx.input_shape(0)) if need_a else None,
                unbroadcast(grad_output * b / z, ctx.input_shape(1)) if need_b else None,
            )


class LogAddExp(NumpyFunction):
    """z = log(exp(a) + exp(b)), so dz/da = 1 / (1 + exp(b - a)), dz/db = 1 / (1 + exp(a - b))."""

    node_name = "LogaddexpBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return correctly_rounded(np.logaddexp, a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        with np.errstate(over="ignore"):  # exp of a large difference is inf: a weight of 0
            return (
                unbroadcast(grad_output / (1 + np.exp(b - a)), ctx.input_shape(0))
                if need_a
                else None,
                unbroadcast(grad_output / (1 + np.exp(a - b)), ctx.input_shape(1))
                if need_b
                else None,
            )


class LogAddExp2(NumpyFunction):
    """z = log2(2**a + 2**b), so dz/da = 1 / (1 + 2**(b - a)), dz/db = 1 / (1 + 2**(a - b))."""

    node_name = "Logaddexp2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return correctly_rounded(np.logaddexp2, a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        with np.errstate(over="ignore"):
            return (
                unbroadcast(grad_output / (1 + 2.0 ** (b - a)), ctx.input_shape(0))
                if need_a
                else None,
                unbroadcast(grad_output / (1 + 2.0 ** (a - b)), ctx.input_shape(1))
                if need_b
                else None,
            )


class Copysign(NumpyFunction):
    """z = |a| with the sign of b, so dz/da = z / a (the sign flip; 0 at a = 0), dz/db = 0."""

    node_name = "CopysignBackward0"

    @staticmethod
    def forward(ctx, a, b):
        z = np.copysign(a, b)
        ctx.save_for_backward(a, z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, z = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        flip = np.where(a == 0, 0, np.sign(a) * np.sign(z))  # z / a, without dividing by 0
        return (
            unbroadcast(grad_output * flip, ctx.input_shape(0)) if need_a else None,
            np.zeros_like(grad_output, shape=ctx.input_shape(1)) if need_b else None,
        )


class CopysignScalar(NumpyFunction):
    """z = |a| with the sign of the number b, so dz/da = z / a (0 where a is 0)."""

    node_name = "CopysignBackward1"

    @staticmethod
    def forward(ctx, a, b):
        z = np.copysign(a, np.asarray(b, a.dtype))
        ctx.save_for_backward(a, z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, z = ctx.saved_tensors
        return grad_output * np.where(a == 0, 0, np.sign(a) * np.sign(z)), None


class Fmax(NumpyFunction):
    """z = max(a, b), ignoring a nan of one of them; dz/da = 1 where a >= b or b is nan, else
    dz/db = 1."""

    node_name = "FmaxBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.where((a >= b) | np.isnan(b), a, b)  # (a tie of 0.0 and -0.0 gives a)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        takes_a = (a >= b) | np.isnan(b)
        return (
            unbroadcast(np.where(takes_a, grad_output, 0), ctx.input_shape(0)) if need_a else None,
            unbroadcast(np.where(takes_a, 0, grad_output), ctx.input_shape(1)) if need_b else None,
        )


class Fmin(NumpyFunction):
    """z = min(a, b), ignoring a nan of one of them; dz/da = 1 where a <= b or b is nan, else
    dz/db = 1."""

    node_name = "FminBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.where((a <= b) | np.isnan(b), a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        takes_a = (a <= b) | np.isnan(b)
        return (
            unbroadcast(np.where(takes_a, grad_output, 0), ctx.input_shape(0)) if need_a else None,
            unbroadcast(np.where(takes_a, 0, grad_output), ctx.input_shape(1)) if need_b else None,
        )


class Sgn(NumpyFunction):
    """z = a / |a| (0 at 0): for real numbers, sign(a); dz/da = 0."""

    node_name = "SgnBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.sign(a)

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output)
