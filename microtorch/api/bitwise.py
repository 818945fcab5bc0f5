"""Bitwise ops: ``&``, ``|``, ``^``, ``~`` (bitwise_and/or/xor/not) on integer and bool tensors.

On integers they work bit by bit (``5 & 3 == 1``); on bool tensors they are the logical
and/or/xor/not of masks. Float tensors have no bits to combine: PyTorch raises, and so does
microtorch. Nothing here has a gradient (integer and bool values never require one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.elementwise import eq
from microtorch.api.operands import wrap
from microtorch.autograd import node as _node
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error

__all__ = [
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert", "positive",
    "contains",
]  # fmt: skip


def _bitwise(ufunc: np.ufunc, a: Any, b: Any, name: str) -> Any:
    # Both operands in PyTorch's result dtype; a float result has no bitwise kernel.
    if not isinstance(a, _node.Tensor):
        a, b = b, a  # 3 & x: the same as x & 3
    expect_tensor(a, name)
    target = result_type(a, b)
    if target.is_floating_point:
        views_first(*[t for t in (a, b) if isinstance(t, _node.Tensor)])
        raise NotImplementedError(
            f"\"{name}_cpu\" not implemented for '{target._legacy[: -len('Tensor')]}' (Fix: "
            "bitwise ops need integer or bool tensors; for masks compare first, e.g. (x > 0))"
        )
    left = a._data.astype(target.numpy, copy=False)
    right = np.asarray(b._data if isinstance(b, _node.Tensor) else b, dtype=target.numpy)
    try:
        return wrap(ufunc(left, right), a._device)
    except ValueError:
        raise broadcast_error(left.shape, right.shape) from None


def bitwise_and(input: Any, other: Any) -> Any:  # noqa: A002 - PyTorch's name
    """``input & other``: bitwise on integers, logical on bools."""
    return _bitwise(np.bitwise_and, input, other, "bitwise_and")


def bitwise_or(input: Any, other: Any) -> Any:  # noqa: A002
    """``input | other``: bitwise on integers, logical on bools."""
    return _bitwise(np.bitwise_or, input, other, "bitwise_or")


def bitwise_xor(input: Any, other: Any) -> Any:  # noqa: A002
    """``input ^ other``: bitwise on integers, logical on bools."""
    return _bitwise(np.bitwise_xor, input, other, "bitwise_xor")


def bitwise_not(input: Any) -> Any:  # noqa: A002
    """``~input``: flips every bit of an integer (``~5 == -6``), negates a bool."""
    expect_tensor(input, "bitwise_not")
    if input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"bitwise_not_cpu\" not implemented for '{input._dtype._legacy[: -len('Tensor')]}'"
            " (Fix: to negate a mask use a comparison, e.g. ~(x > 0); for numbers use -x)"
        )
    return wrap(np.invert(input._data), input._device)


def invert(input: Any) -> Any:  # noqa: A002
    """``~input``: PyTorch's operator raises a TypeError for floats (the function does not)."""
    if input._dtype.is_floating_point:
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors (Fix: "
            "to negate numbers use -x; to invert a mask make it with a comparison, e.g. x > 0)"
        )
    return bitwise_not(input)


def positive(input: Any) -> Any:  # noqa: A002
    """``+input``: the tensor itself, as in PyTorch (not for bool tensors)."""
    expect_tensor(input, "positive")
    if input._dtype.name == "bool":
        raise RuntimeError(
            "The `+` operator, on a bool tensor is not supported. (Fix: a mask needs no `+`; "
            "to count its True values use mask.sum())"
        )
    return input


def contains(t: Any, element: Any) -> bool:
    """``element in t``: True if any element of ``t`` equals ``element``."""
    if not isinstance(element, (_node.Tensor, int, float, np.number, np.bool_)):
        raise RuntimeError(
            "Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
            f"{type(element)}."
        )
    equal = eq(element, t) if isinstance(element, _node.Tensor) else eq(t, element)
    return bool(np.any(equal._data))
