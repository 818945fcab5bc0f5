"""Division that rounds: ``//`` (floor_divide), ``%`` (remainder), fmod, div(rounding_mode=).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/division.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.operands import as_operand, wrap
from microtorch.autograd import node as _node
from microtorch.autograd.function import NumpyFunction
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops._layout import follow_inputs
from microtorch.ops.division import (
    DivRounded,
    FloorDivide,
    Fmod,
    FmodScalar,
    Remainder,
    RemainderScalar,
    RFloorDivide,
    RRemainder,
)

__all__ = ["floor_divide", "remainder", "fmod", "div_rounded", "rfloordiv", "rremainder"]


def _raises_when_reached(fn: type[FloorDivide]) -> None:
    # PyTorch's NotImplemented node raises whenever backward reaches it, also with no gradient
    # (a BackwardNode returns at once then), and as soon as it is ready: its priority is the
    # highest, AccumulateGrad's (its sequence_nr, whatever apply gives it).
    def run(self: Any, grad_outputs: list[Any]) -> Any:
        return fn.backward(self, *grad_outputs)

    highest = property(lambda self: 1 << 62, lambda self, value: None)
    node = fn.node_type
    attrs = {"__slots__": (), "run": run, "sequence_nr": highest}
    fn.node_type = type(node.__name__, (node,), attrs)
    fn.node_type.__module__, fn.node_type.__qualname__ = node.__module__, node.__qualname__


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
    expect_tensor(input, "fmod")  # (torch.fmod(7, x) is refused, unlike remainder)
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
