"""The binary functions (``torch.add``, ``torch.gt`` ...) with PyTorch's argument-parser errors.

PyTorch checks a call against the signatures it declares before the op runs, so a wrong operand
gets the parser's words, which depend on the signatures:

- one signature names the argument: ``torch.mul(x, "a")`` is ``mul(): argument 'other'
  (position 2) must be Tensor, not str``, and the method counts after ``self``: ``x.mul("a")``
  says position 1; ``torch.mul(x)`` is ``mul() missing 1 required positional arguments``;
- several signatures (a Tensor or a Number ``other``) give ``gt() received an invalid
  combination of arguments - got (Tensor, str), but expected one of: ...``.

Each function here is its op behind ``parsed`` (api/arguments.py), which checks the call against
these signatures only when the op fails. The operators (``x > "a"``) give way to Python instead
(api/operators.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.api import bitwise, division, pointwise, trigonometry
from microtorch.api import elementwise as ew
from microtorch.api.arguments import DEPRECATED, method_of, parsed
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.autograd import node as _node

__all__ = ["SIGNATURES", "function", "method", "subtract_"]

_TENSOR = "Tensor input, Tensor other, *, Tensor out=None"
_NUMBER = "Tensor input, Number other, *, Tensor out=None"
_EITHER = (_TENSOR, _NUMBER)
_WITH_ALPHA = (
    "Tensor input, Tensor other, *, Number alpha=1, Tensor out=None",
    DEPRECATED + "Tensor input, Number alpha, Tensor other, *, Tensor out=None",
)
_NUMBER_ALPHA = "Tensor input, Number other, Number alpha=1"  # (subtract's alone)
_NUMBER_FIRST = (_TENSOR, "Number self, Tensor other", _NUMBER)  # (2 % x, 6 & x)
_DIV = (
    _TENSOR,
    "Tensor input, Tensor other, *, str rounding_mode, Tensor out=None",
    "Tensor input, Number other, *, str rounding_mode",
)
_POW = (
    "Tensor input, Tensor exponent, *, Tensor out=None",
    "Number self, Tensor exponent, *, Tensor out=None",
    "Tensor input, Number exponent, *, Tensor out=None",
)

# PyTorch 2.13's signatures, as its errors list them
SIGNATURES: dict[str, tuple[str, ...]] = {
    "add": _WITH_ALPHA,
    "sub": _WITH_ALPHA,
    "subtract": (_WITH_ALPHA[0], _NUMBER_ALPHA),
    "mul": (_TENSOR,),
    "multiply": (_TENSOR, "Tensor input, Number other"),
    "div": _DIV,
    "divide": (*_DIV[:2], "Tensor input, Number other", _DIV[2]),
    "true_divide": (_TENSOR, "Tensor input, Number other"),
    "floor_divide": (_TENSOR, "Tensor input, Number other"),
    "pow": _POW,
    "remainder": _NUMBER_FIRST,
    "bitwise_and": _NUMBER_FIRST,
    "bitwise_or": _NUMBER_FIRST,
    "bitwise_xor": _NUMBER_FIRST,
    **dict.fromkeys(("eq", "ne", "lt", "le", "gt", "ge", "fmod", "copysign"), _EITHER),
    **dict.fromkeys(("greater", "greater_equal", "less", "less_equal", "not_equal"), _EITHER),
    **dict.fromkeys(("maximum", "minimum", "fmax", "fmin", "hypot", "atan2"), (_TENSOR,)),
    "arctan2": (_TENSOR,),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor"), (_TENSOR,)),
    **dict.fromkeys(("logaddexp", "logaddexp2"), (_TENSOR,)),
}

# The functions whose Tensor parameters take a Python number too (torch.add(2, x); not
# torch.maximum(x, 2), nor torch.gt(2, x))
_NUMBERS_AS_TENSORS = {"add", "sub", "subtract", "mul", "multiply", "div", "divide"}
_NUMBERS_AS_TENSORS |= {"true_divide", "floor_divide"}

_OTHER = torch_keywords("input", "other", out=True)  # torch.add(input=x, other=y, out=z)
_ADD, _SUB, _MUL, _DIVIDE = _OTHER(ew.add), _OTHER(ew.sub), _OTHER(ew.mul), _OTHER(ew.div)


def alpha_by_position(sub: Callable[..., Any]) -> Callable[..., Any]:
    """``sub`` with PyTorch's other overload of ``subtract`` too, ``(Tensor input, Number
    other, Number alpha=1)``: ``torch.subtract(x, 2, 3)`` is ``x - 3 * 2`` (SubBackward1)."""

    @functools.wraps(sub)
    def subtract(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 3 and not kwargs and _is_number(args[1]):
            return ew.sub_number(args[0], _number(args[1]), args[2])
        return sub(*args, **kwargs)  # (alpha by position after a tensor: the parser's error)

    return subtract


@parsed("subtract_", _WITH_ALPHA[0].removesuffix(", Tensor out=None"), _NUMBER_ALPHA)
def subtract_(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002 - PyTorch's name
    """``x.subtract_(other, alpha)``: ``sub_``, with alpha by position after a number too."""
    if len(args) == 2 and not kwargs and _is_number(args[0]):
        return apply_inplace(input, "sub_", ew.sub_number, _number(args[0]), alpha=args[1])
    return apply_inplace(input, "sub_", _SUB, *args, **kwargs)


def _is_number(value: Any) -> bool:
    # PyTorch's Number: a Python or numpy number, or a 0-d tensor that does not require grad
    if isinstance(value, _node.Tensor):
        return value._data.ndim == 0 and not value.requires_grad
    return isinstance(value, (int, float, np.number, np.bool_))


def _number(value: Any) -> Any:
    return value.item() if isinstance(value, _node.Tensor) else value


_EQ, _NE, _LT, _LE, _GT, _GE = (_OTHER(f) for f in (ew.eq, ew.ne, ew.lt, ew.le, ew.gt, ew.ge))

# The op behind each name (an alias, torch.greater, has its own name in its errors)
_OPS: dict[str, Callable[..., Any]] = {
    "add": _ADD,
    "sub": _SUB,
    "subtract": alpha_by_position(_SUB),
    "mul": _MUL,
    "multiply": _MUL,
    "div": _DIVIDE,
    "divide": _DIVIDE,
    "true_divide": _DIVIDE,
    "pow": torch_keywords("input", "exponent", out=True)(ew.pow),
    "maximum": _OTHER(ew.maximum),
    "minimum": _OTHER(ew.minimum),
    "eq": _EQ,
    "ne": _NE,
    "not_equal": _NE,
    "lt": _LT,
    "less": _LT,
    "le": _LE,
    "less_equal": _LE,
    "gt": _GT,
    "greater": _GT,
    "ge": _GE,
    "greater_equal": _GE,
    "floor_divide": division.floor_divide,
    "remainder": division.remainder,
    "fmod": division.fmod,
    "bitwise_and": bitwise.bitwise_and,
    "bitwise_or": bitwise.bitwise_or,
    "bitwise_xor": bitwise.bitwise_xor,
    "logical_and": ew.logical_and,
    "logical_or": ew.logical_or,
    "logical_xor": ew.logical_xor,
    "hypot": pointwise.hypot,
    "logaddexp": pointwise.logaddexp,
    "logaddexp2": pointwise.logaddexp2,
    "copysign": pointwise.copysign,
    "fmax": pointwise.fmax,
    "fmin": pointwise.fmin,
    "atan2": trigonometry.atan2,
    "arctan2": trigonometry.atan2,
}


def function(name: str, op: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """``torch.<name>``: ``op`` (by default the one above) with PyTorch's parser errors."""
    numbers = name in _NUMBERS_AS_TENSORS
    return parsed(name, *SIGNATURES[name], numbers_as_tensors=numbers)(op or _OPS[name])


def method(name: str, op: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """``Tensor.<name>``: the same, counting positions after ``self``."""
    return method_of(function(name, op))
