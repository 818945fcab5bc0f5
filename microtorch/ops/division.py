"""Division that rounds: ``//`` (floor_divide), ``%`` (remainder), fmod, div(rounding_mode=).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/division.py``.

``//`` and ``%`` follow Python: the quotient is rounded down and the remainder has the sign
of the divisor, so ``-7 // 2 == -4`` and ``-7 % 2 == 1``. ``fmod`` and ``rounding_mode="trunc"``
round toward zero instead (C's rule): ``fmod(-7, 2) == -1``.

A rounded quotient is a step function: its derivative is 0 where it exists. PyTorch records
``DivBackward2`` with zero gradients for ``div(rounding_mode=...)``, but refuses to
differentiate ``floor_divide`` (its node is ``torch::autograd::NotImplemented``): so here.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = [
    "Remainder",
    "RemainderScalar",
    "Fmod",
    "FmodScalar",
    "DivRounded",
    "FloorDivide",
    "RFloorDivide",
    "RRemainder",
]


class Remainder(NumpyFunction):
    """z = a - floor(a / b) * b, so dz/da = 1 and dz/db = -floor(a / b)."""

    node_name = "RemainderBackward1"
    ctx_fields = ("shapes",)

    @staticmethod
    def forward(ctx, a, b):
        need_b = ctx.needs_input_grad[1]  # only b's gradient reads anything
        ctx.save_for_backward(b if need_b else None, a if need_b else None)  # (b first, as PyTorch)
        ctx.shapes = (a.shape, b.shape)
        return _remainder(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors
        sa, sb = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        gb = -grad_output * np.floor_divide(a, b) if need_b else None
        return (
            unbroadcast(grad_output, sa) if need_a else None,
            unbroadcast(gb, sb) if need_b else None,
        )


class RemainderScalar(NumpyFunction):
    """z = a - floor(a / c) * c for a number c, so dz/da = 1."""

    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, c):
        return _remainder(a, c)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def _remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # PyTorch's rule: C's fmod, moved by one divisor where its sign differs from the
    # divisor's (so -3.0 % 3.0 is -0.0, as in PyTorch; numpy's remainder gives 0.0).
    if a.dtype.kind != "f":
        return np.remainder(a, b)
    r = np.fmod(a, b)
    return np.where((r != 0) & ((b < 0) != (r < 0)), r + b, r)


class Fmod(NumpyFunction):
    """z = a - trunc(a / b) * b, so dz/da = 1 and dz/db = -trunc(a / b)."""

    node_name = "FmodBackward1"
    ctx_fields = ("shapes",)

    @staticmethod
    def forward(ctx, a, b):
        need_b = ctx.needs_input_grad[1]  # only b's gradient reads anything
        ctx.save_for_backward(b if need_b else None, a if need_b else None)  # (b first, as PyTorch)
        ctx.shapes = (a.shape, b.shape)
        return np.fmod(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors
        sa, sb = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        gb = -grad_output * np.trunc(a / b) if need_b else None
        return (
            unbroadcast(grad_output, sa) if need_a else None,
            unbroadcast(gb, sb) if need_b else None,
        )


class FmodScalar(NumpyFunction):
    """z = a - trunc(a / c) * c for a number c, so dz/da = 1."""

    node_name = "FmodBackward0"

    @staticmethod
    def forward(ctx, a, c):
        return np.fmod(a, c)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class DivRounded(NumpyFunction):
    """z = floor(a / b) or trunc(a / b): a step function, so dz/da = dz/db = 0."""

    node_name = "DivBackward2"
    ctx_fields = ("shapes",)

    @staticmethod
    def forward(ctx, a, b, mode):
        need_a, need_b = ctx.needs_input_grad[:2]  # (PyTorch's formulas read b for a's
        ctx.save_for_backward(b, a if need_b else None)  # gradient, a and b for b's)
        ctx.shapes = (a.shape, b.shape)
        if mode == "floor":
            return np.floor_divide(a, b)
        return np.trunc(a / b) if a.dtype.kind == "f" else _trunc_int(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - checked and freed as PyTorch's (the gradient is 0)
        sa, sb = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        zeros = np.zeros_like(grad_output)
        return (
            unbroadcast(zeros, sa) if need_a else None,
            unbroadcast(zeros, sb) if need_b else None,
        )


def _trunc_int(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # Integer division rounded toward zero: the floor quotient, plus 1 where the floor went
    # past zero (signs differ and something was left over).
    q = np.floor_divide(a, b)
    return q + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0))).astype(q.dtype)


class FloorDivide(NumpyFunction):
    """z = floor(a / b): PyTorch defines no derivative, so backward raises its error."""

    node_name = "torch::autograd::NotImplemented"
    aten = "floor_divide"

    @staticmethod
    def forward(ctx, a, b):
        return np.floor_divide(a, b)

    @classmethod
    def backward(cls, ctx, grad_output):
        raise RuntimeError(
            f"derivative for aten::{cls.aten} is not implemented (Fix: floor division has no "
            "gradient; use torch.div(a, b, rounding_mode='floor'), whose gradient is 0)"
        )


class RFloorDivide(FloorDivide):
    """z = c // a for a number c: PyTorch defines no derivative, so backward raises its error."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, c):
        return np.floor_divide(c, a)


class RRemainder(FloorDivide):
    """z = c % a for a number c: PyTorch defines no derivative, so backward raises its error."""

    node_name = "torch::autograd::NotImplemented"
    aten = "remainder"

    @staticmethod
    def forward(ctx, a, c):
        return _remainder(c, a)
