"""Operands: Python numbers and tensors of other dtypes made into tensors of the dtype an op
computes in, as PyTorch casts them, and the binary-op call around every ``Function``."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import type_name
from microtorch.autograd import node as _node
from microtorch.autograd.function import Function
from microtorch.autograd.versions import cast_copy
from microtorch.dtypes import dtype, int64, result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops._layout import follow_inputs

__all__ = ["as_operand", "wrap", "Operand"]

Operand = Any  # a Tensor, a numpy array standing for a constant, or a Python number


def wrap(data: np.ndarray, device: Any = None) -> Any:
    """A Tensor around ``data`` with no graph (for results that have no gradient)."""
    return _node.plain_tensor(data, device)


def as_operand(value: Operand, like: dtype, device: Any = None) -> Any:
    """``value`` as a Tensor of dtype ``like``; a Python number becomes a 0-d constant tensor.

    PyTorch wraps numbers the same way, which is why ``(x * 3).grad_fn.next_functions`` has
    two entries, the second ``(None, 0)``.
    """
    if isinstance(value, _node.Tensor):
        if value._dtype is like:
            return value
        if value.requires_grad:
            cast = value.to(like)
        else:
            with np.errstate(over="ignore", invalid="ignore"):  # (1e300 in float32 is inf,
                data = value._data.astype(like.numpy)  # silently, as PyTorch casts it)
            cast = wrap(data, value._device)
        cast_copy(cast._data, value)  # (its in-place changes are the copy's: see versions)
        return cast
    return _constant(value, like, device)


def _constant(value: Any, like: dtype, device: Any) -> Any:
    # Python numbers used in ops (the 3 in ``x * 3``) become 0-d constant tensors; the same
    # number is made once (a graph of 100,000 ``y * 1.01`` holds one). Read-only, so sharing
    # is safe. Keyed by the device's type, not the device (its hash is Python code).
    key = (value, type(value), like, device.type if device is not None else "cpu")
    constant = _CONSTANTS.get(key)
    if constant is None:
        with np.errstate(over="ignore"):  # 1e300 as float32 is inf, silently as in PyTorch
            data = np.array(value, dtype=like.numpy)
        data.flags.writeable = False  # shared below: nobody may change it
        constant = wrap(data, device)  # on the other operand's device
        if value and value == value:  # not 0 (0.0 == -0.0 would lose the sign) nor nan
            if len(_CONSTANTS) > 1024:
                _CONSTANTS.clear()
            _CONSTANTS[key] = constant
    return constant


_CONSTANTS: dict[tuple[Any, ...], Any] = {}


def _binary(
    fn: type[Function], a: Operand, b: Operand, out: dtype | None = None, extra: tuple = ()
) -> Any:
    # Cast both operands to PyTorch's result dtype, then run; numpy's broadcasting error
    # becomes PyTorch's, which names the clashing sizes.
    Tensor = _node.Tensor
    if isinstance(b, Tensor):
        if not (isinstance(a, Tensor) and a._dtype is b._dtype and out is None):
            a, b = _cast(fn, a, b, out)
    elif (
        type(b) in _PY_NUMBERS
        and out is None
        and isinstance(a, Tensor)
        and (a._dtype.is_floating_point or a._dtype is int64 and type(b) is int)
    ):  # a float tensor and a number, a long tensor and an int: the tensor's dtype
        made = _CONSTANTS.get((b, type(b), a._dtype, a._device.type))  # (made before?)
        b = made if made is not None else _constant(b, a._dtype, a._device)
    else:
        a, b = _cast(fn, a, b, out)
    try:
        result = fn.apply(a, b, *extra) if extra else fn.apply(a, b)
    except ValueError:
        raise broadcast_error(np.shape(_data(a)), np.shape(_data(b))) from None
    if result._data.ndim < 2 or a._data.flags.c_contiguous and b._data.flags.c_contiguous:
        return result  # (row-major inputs give a row-major result in both libraries)
    return _laid_out(result, a, b)


def _laid_out(out: Any, *inputs: Operand) -> Any:
    # The memory order PyTorch gives an element-wise result (see ops/_layout.py). These ops
    # save their inputs, not their result, so the result's array may be swapped for a copy
    # (Pow, which saves its result, lays it out in its forward).
    laid_out = follow_inputs(out._data, *[np.asarray(_data(x)) for x in inputs])
    saved = getattr(out._grad_fn, "_saved", None) or ()
    if laid_out is not out._data and any(s is not None and s.data is out._data for s in saved):
        raise AssertionError(f"{out._grad_fn.name()} saved its result: lay it out in forward")
    out._data = laid_out
    return out


_PY_NUMBERS = (int, float)  # exactly these types: bool and numpy scalars take the long way


def _cast(fn: type[Function], a: Operand, b: Operand, out: dtype | None) -> tuple[Any, Any]:
    # Both operands as tensors of the result dtype (``out`` if given, else PyTorch's rules).
    if not isinstance(a, _node.Tensor):
        _check_operand(fn, a, "input", 1)
        a = wrap(np.array(a, dtype=result_type(a, b).numpy), b._device)
    _check_operand(fn, b, "other", 2)
    target = out or result_type(a, b)
    floats = (
        isinstance(b, _node.Tensor) and a._dtype.is_floating_point and b._dtype.is_floating_point
    )
    if floats and np.result_type(a._data, b._data) == target.numpy:
        return a, b  # numpy computes in PyTorch's dtype: the op sees (and saves) the inputs
    # (an integer or bool operand is cast: the op's edges are its floating-point inputs)
    return as_operand(a, target), as_operand(b, target, a._device)


def _data(x: Any) -> Any:
    return x._data if isinstance(x, _node.Tensor) else x


_NUMBERS = (int, float, np.ndarray, np.generic)  # bool is an int; Tensor is checked apart


def _check_operand(fn: type[Function] | str, value: Any, arg: str, position: int) -> None:
    # PyTorch's text for x + "1" or torch.add([1.0], x): name the function and the argument.
    if not isinstance(value, _NUMBERS) and not isinstance(value, _node.Tensor):
        op = fn if isinstance(fn, str) else fn.__name__.lower().removesuffix("scalar")
        raise TypeError(
            f"{op}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{type_name(value)} (Fix: use a tensor or a Python number)"
        )
