"""Division that rounds: ``//`` (floor_divide), ``%`` (remainder), fmod, div(rounding_mode=).

``//`` and ``%`` follow Python: the quotient is rounded down and the remainder has the sign
of the divisor, so ``-7 // 2 == -4`` and ``-7 % 2 == 1``. ``fmod`` and ``rounding_mode="trunc"``
round toward zero instead (C's rule): ``fmod(-7, 2) == -1``.

A rounded quotient is a step function: its derivative is 0 where it exists. PyTorch records
``DivBackward2`` with zero gradients for ``div(rounding_mode=...)``, but refuses to
differentiate ``floor_divide`` (its node is ``torch::autograd::NotImplemented``): so here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.function import NumpyFunction
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error, unbroadcast
from microtorch.ops._checks import expect_tensor
from microtorch.ops._layout import follow_inputs
from microtorch.ops.elementwise import as_operand, wrap

__all__ = ["floor_divide", "remainder", "fmod", "div_rounded", "rfloordiv", "rremainder"]


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


def _raises_when_reached(fn: type[FloorDivide]) -> None:
    # PyTorch's NotImplemented node raises whenever backward reaches it, also with no gradient
    # (a BackwardNode returns at once then), and as soon as it is ready: its priority is the
    # highest, AccumulateGrad's (its sequence_nr, whatever apply gives it).
    def run(self: Any, grad_outputs: list[Any]) -> Any:
        return fn.backward(self, *grad_outputs)

    highest = property(lambda self: 1 << 62, lambda self, value: None)
    node = fn._backward_cls
    attrs = {"__slots__": (), "run": run, "sequence_nr": highest}
    fn._backward_cls = type(node.__name__, (node,), attrs)
    fn._backward_cls.__module__, fn._backward_cls.__qualname__ = node.__module__, node.__qualname__


for _fn in (FloorDivide, RFloorDivide, RRemainder):
    _raises_when_reached(_fn)


_KERNELS = {
    FloorDivide: "div_floor_cpu",
    RemainderScalar: "remainder_cpu",
    RFloorDivide: "div_floor_cpu",
    RRemainder: "remainder_cpu",
    Remainder: "remainder_cpu",
    Fmod: "fmod_cpu",
    FmodScalar: "fmod_cpu",
}


def _apply(fn: type[NumpyFunction], scalar_fn: Any, a: Any, b: Any, op: str, *extra: Any) -> Any:
    # PyTorch's result dtype for both operands; a Python number stays a number (no edge in
    # the graph) when ``scalar_fn`` takes it. Integer division by zero raises, as in PyTorch.
    if not isinstance(a, _node.Tensor) and isinstance(b, _node.Tensor):  # div(7, x, ...)
        a = wrap(np.asarray(a, dtype=result_type(a, b).numpy), b._device)
    expect_tensor(a, op)
    target = result_type(a, b)
    kernel = _KERNELS.get(fn, f"div_{extra[0]}_cpu" if extra else "")
    if target.name == "bool":
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    a = as_operand(a, target)
    if scalar_fn is not None and not isinstance(b, _node.Tensor):
        b = np.asarray(b, dtype=target.numpy)
        _check_zero(b, target)
        with np.errstate(divide="ignore", invalid="ignore"):
            return scalar_fn.apply(a, b)
    b = as_operand(b, target, a._device)
    _check_zero(b._data, target)
    try:
        with np.errstate(divide="ignore", invalid="ignore"):  # x // 0.0 is inf, as in PyTorch
            result = fn.apply(a, b, *extra)
    except ValueError:
        raise broadcast_error(a._data.shape, b._data.shape) from None
    if result._data.ndim > 1:  # PyTorch's layout (ops/_layout.py); the op saved only inputs
        result._data = follow_inputs(result._data, a._data, b._data)
    return result


def _check_zero(b: np.ndarray, target: Any) -> None:
    if not target.is_floating_point and not np.all(b):
        raise RuntimeError(
            "ZeroDivisionError (Fix: an integer divisor is 0; use floats to get inf or nan)"
        )


def floor_divide(input: Any, other: Any) -> Any:  # noqa: A002 - PyTorch's name
    """``input // other``: the quotient rounded down, as Python's ``//``."""
    if not isinstance(input, _node.Tensor) and isinstance(other, _node.Tensor):
        return rfloordiv(other, input)  # torch.floor_divide(7, x)
    return _apply(FloorDivide, FloorDivide, input, other, "floor_divide")


def remainder(input: Any, other: Any) -> Any:  # noqa: A002
    """``input % other``: Python's modulus (the result has the sign of ``other``)."""
    if not isinstance(input, _node.Tensor) and isinstance(other, _node.Tensor):
        return rremainder(other, input)  # torch.remainder(7, x)
    return _apply(Remainder, RemainderScalar, input, other, "remainder")


def fmod(input: Any, other: Any) -> Any:  # noqa: A002
    """C's remainder: the result has the sign of ``input`` (``fmod(-7, 2) == -1``)."""
    return _apply(Fmod, FmodScalar, input, other, "fmod")


def div_rounded(a: Any, b: Any, rounding_mode: str) -> Any:
    """``div(a, b, rounding_mode=...)``: 'floor' rounds down, 'trunc' toward zero."""
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'"
        )
    return _apply(DivRounded, None, a, b, "div", rounding_mode)


def rfloordiv(a: Any, c: Any) -> Any:
    """``c // a`` for a Python number c."""
    return _reversed(RFloorDivide, a, c, "floor_divide")


def rremainder(a: Any, c: Any) -> Any:
    """``c % a`` for a Python number c (PyTorch records no derivative for it)."""
    return _reversed(RRemainder, a, c, "remainder")


def _reversed(fn: type[NumpyFunction], a: Any, c: Any, op: str) -> Any:
    # c // a and c % a: the number c is no input of the graph (PyTorch's node has one edge)
    expect_tensor(a, op)
    target = result_type(a, c)
    if target.name == "bool":
        raise NotImplementedError(f"\"{_KERNELS[fn]}\" not implemented for 'Bool'")
    a = as_operand(a, target)
    _check_zero(a._data, target)
    with np.errstate(divide="ignore", invalid="ignore"):
        return fn.apply(a, np.asarray(c, dtype=target.numpy))
