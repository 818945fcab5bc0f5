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

from collections.abc import Callable
from typing import Any

from microtorch.api import bitwise, division, pointwise, trigonometry
from microtorch.api import elementwise as ew
from microtorch.api.arguments import DEPRECATED, method_of, parsed
from microtorch.api.keywords import torch_keywords

__all__ = ["SIGNATURES", "function", "method"]

_TENSOR = "Tensor input, Tensor other, *, Tensor out=None"
_NUMBER = "Tensor input, Number other, *, Tensor out=None"
_EITHER = (_TENSOR, _NUMBER)
_WITH_ALPHA = (
    "Tensor input, Tensor other, *, Number alpha=1, Tensor out=None",
    DEPRECATED + "Tensor input, Number alpha, Tensor other, *, Tensor out=None",
)
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
    "subtract": (_WITH_ALPHA[0], "Tensor input, Number other, Number alpha=1"),
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
_EQ, _NE, _LT, _LE, _GT, _GE = (_OTHER(f) for f in (ew.eq, ew.ne, ew.lt, ew.le, ew.gt, ew.ge))

# The op behind each name (an alias, torch.greater, has its own name in its errors)
_OPS: dict[str, Callable[..., Any]] = {
    "add": _ADD,
    "sub": _SUB,
    "subtract": _SUB,
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
