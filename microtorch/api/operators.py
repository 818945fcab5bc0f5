"""Binary operators that give way to Python for operands they do not take.

``x + "a"`` fails as PyTorch's does, with Python's own ``TypeError: unsupported operand type(s)
for +: 'Tensor' and 'str'`` (and ``x > None`` with ``'>' not supported between instances``):
the operator returns ``NotImplemented`` and Python raises, or tries the other operand
(``x == None`` is then ``False``, Python's identity test). The functions, ``torch.add(x, "a")``,
raise PyTorch's argument-parser errors instead (api/binary_signatures.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.api.operands import _CONSTANTS, _PY_NUMBERS, _constant, _laid_out
from microtorch.autograd import node as _node
from microtorch.autograd.function import Function, NumpyFunction
from microtorch.autograd.grad_mode import state as _grad
from microtorch.autograd.quiet import hush, unhush
from microtorch.dtypes import int64
from microtorch.ops._broadcast import broadcast_error

__all__ = [
    "operator", "arithmetic_operator", "matrix_operator", "op_operator", "op_method", "mm_operator",
    "pow_operator", "unrecorded",
]  # fmt: skip

_OPERANDS = (int, float, np.number, np.bool_)  # (bool is an int)
_CAST_OPERANDS = (*_OPERANDS, np.ndarray)  # what op_operator hands to the function to cast


def operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``fn`` as a binary operator: ``NotImplemented`` for operands that are not numbers or
    tensors, so Python raises its ``unsupported operand type(s)`` error."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if not isinstance(other, (_node.Tensor, *_OPERANDS)):
            return NotImplemented
        return fn(self, other)

    return binary_operator


def arithmetic_operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``operator(fn)`` for ``+ - * / **`` and the comparisons, which also take a numpy array
    (the op then says what to do with it)."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if isinstance(other, (_node.Tensor, *_OPERANDS, np.ndarray)):
            return fn(self, other)
        return NotImplemented

    return binary_operator


def matrix_operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``operator(fn)`` for ``@``, which takes tensors (and numpy arrays) only: ``x @ 2.0`` is
    Python's TypeError, as in PyTorch."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if isinstance(other, (_node.Tensor, np.ndarray)):
            return fn(self, other)
        return NotImplemented

    return binary_operator


def mm_operator(op: type[Function], fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``matrix_operator(fn)`` that runs ``op`` itself (``Mm`` for ``@``) for two floating-point
    matrices of one dtype whose sizes fit, the common case, as ``fn`` (``matmul``) would after
    its checks; anything else (vectors, batches, casts, errors) goes through ``fn``."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if isinstance(other, _node.Tensor):
            a, b = self._data, other._data
            if (
                a.ndim == 2
                and b.ndim == 2
                and a.shape[1] == b.shape[0]
                and other._dtype is self._dtype
                and self._dtype.is_floating_point
            ):
                return op.apply(self, other)
            return fn(self, other)
        if isinstance(other, np.ndarray):
            return fn(self, other)
        return NotImplemented

    return binary_operator


def op_method(op: type[Function], method: Callable[..., Any]) -> Callable[..., Any]:
    """The Tensor method ``method`` (``x.tanh()``, the function with PyTorch's keywords) that
    runs ``op`` itself (``Tanh``) for a floating-point tensor and no further arguments, as
    ``op_operator`` does for ``*``: one call, then ``Tanh.apply``. Anything else (an integer
    tensor, which computes in the default float dtype, or keywords) goes through ``method``."""

    @functools.wraps(method)
    def unary_method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if (
            not args
            and not kwargs
            and isinstance(self, _node.Tensor)
            and self._dtype.is_floating_point
        ):
            return op.apply(self)
        return method(self, *args, **kwargs)

    return unary_method


# The ctx built-in ops of two arguments share when nothing is recorded (what Function.apply
# gives them then): its needs_input_grad are False, and it keeps nothing
_SHARED_CTX = NumpyFunction.unrecorded_ctx(2)


def unrecorded(op: type[NumpyFunction], device: Any, a: Any, b: Any) -> Any:
    """What ``op.apply(x, b)`` gives when it records nothing (grad mode off, or neither input
    requires grad or is a view; one device), for a built-in op of one output and two
    arguments: its ``forward`` on the arrays (or numbers) ``a`` and ``b``, wrapped. No node,
    no ``unpack``: the operators' short path, where the caller has checked all that."""
    token = hush()  # (numpy's warnings off, as NumpyFunction.call_forward)
    try:
        out = op.forward(_SHARED_CTX, a, b)
    finally:
        unhush(token)
    return _node.plain_tensor(out, device, _grad.inference)


def op_operator(
    op: type[NumpyFunction], fn: Callable[[Any, Any], Any], floats: bool = False
) -> Callable[[Any, Any], Any]:
    """``arithmetic_operator(fn)`` that runs ``op`` itself (``Mul`` for ``*``, ``fn`` being
    ``mul``) for a tensor or a Python number of the tensor's dtype, as PyTorch's operators go
    straight to the op: ``y * c`` is one call here, then ``Mul.apply``. Any other number or
    array goes through ``fn``, which casts it (and says what is wrong with it).
    ``floats``: only floating-point tensors take the short way (``-`` refuses bools, ``/``
    of integers gives floats)."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        kind = self._dtype
        if isinstance(other, _node.Tensor):
            if other._dtype is not kind or floats and not kind.is_floating_point:
                return fn(self, other)  # (PyTorch's result dtype: fn casts the operands)
        elif type(other) in _PY_NUMBERS and (
            kind.is_floating_point or kind is int64 and type(other) is int and not floats
        ):  # a number becomes a 0-d constant of the tensor's dtype (see operands._constant)
            made = _CONSTANTS.get((other, type(other), kind, self._device.type))
            other = made if made is not None else _constant(other, kind, self._device)
        elif isinstance(other, _CAST_OPERANDS):
            return fn(self, other)
        else:
            return NotImplemented
        try:
            # Function.apply records a node, or checks something first, if grad mode is on
            # and either requires grad or is a view (apply renews a view), or if the devices
            # differ (apply raises PyTorch's error); else the op's forward alone will do
            if (
                _grad.grad_enabled
                and (self._rg or other._rg or self._base is not None or other._base is not None)
                or other._device is not self._device
            ):
                result = op.apply(self, other)
            else:  # nothing to record: the op's forward on the two arrays, then one wrap
                result = unrecorded(op, self._device, self._data, other._data)
        except ValueError:
            raise broadcast_error(self._data.shape, other._data.shape) from None
        if (
            result._data.ndim < 2
            or self._data.flags.c_contiguous
            and other._data.flags.c_contiguous
        ):
            return result  # (row-major inputs give a row-major result: see operands._binary)
        return _laid_out(result, self, other)

    return binary_operator


def pow_operator(
    op: type[NumpyFunction], fn: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    """``arithmetic_operator(fn)`` for ``**``, running ``op`` (``PowScalar``) itself for a
    floating-point tensor to the power of a Python number (``x ** 2``), as ``fn`` (``pow``)
    would; any other operand goes through ``fn``."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if type(other) in _PY_NUMBERS and self._dtype.is_floating_point:
            if _grad.grad_enabled and (self._rg or self._base is not None):
                return op.apply(self, other)  # (recorded, or a view apply renews)
            return unrecorded(op, self._device, self._data, other)
        if isinstance(other, (_node.Tensor, *_OPERANDS, np.ndarray)):
            return fn(self, other)
        return NotImplemented

    return binary_operator
