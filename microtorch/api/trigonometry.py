"""Trigonometric and hyperbolic functions: tan, sinh, cosh, asin, acos, atan, asinh, acosh,
atanh and atan2, with PyTorch's other names for them (``arcsin`` ...).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas in
``microtorch/ops/trigonometry.py``. Integer and bool tensors give float32 results.
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _binary
from microtorch.api.unary import _float
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops.trigonometry import (
    Acos,
    Acosh,
    Asin,
    Asinh,
    Atan,
    Atan2,
    Atanh,
    Cosh,
    Sinh,
    Tan,
)

__all__ = ["tan", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2"]


@torch_keywords("input", out=True)
def tan(a: Any) -> Any:
    """Tangent, in radians."""
    return Tan.apply(_float(a, "tan"))


@torch_keywords("input", out=True)
def sinh(a: Any) -> Any:
    """Hyperbolic sine, (exp(a) - exp(-a)) / 2."""
    return Sinh.apply(_float(a, "sinh"))


@torch_keywords("input", out=True)
def cosh(a: Any) -> Any:
    """Hyperbolic cosine, (exp(a) + exp(-a)) / 2."""
    return Cosh.apply(_float(a, "cosh"))


@torch_keywords("input", out=True)
def asin(a: Any) -> Any:
    """Inverse sine, in [-pi/2, pi/2] (nan outside [-1, 1])."""
    return Asin.apply(_float(a, "asin"))


@torch_keywords("input", out=True)
def acos(a: Any) -> Any:
    """Inverse cosine, in [0, pi] (nan outside [-1, 1])."""
    return Acos.apply(_float(a, "acos"))


@torch_keywords("input", out=True)
def atan(a: Any) -> Any:
    """Inverse tangent, in (-pi/2, pi/2)."""
    return Atan.apply(_float(a, "atan"))


@torch_keywords("input", out=True)
def asinh(a: Any) -> Any:
    """Inverse hyperbolic sine."""
    return Asinh.apply(_float(a, "asinh"))


@torch_keywords("input", out=True)
def acosh(a: Any) -> Any:
    """Inverse hyperbolic cosine (nan below 1)."""
    return Acosh.apply(_float(a, "acosh"))


@torch_keywords("input", out=True)
def atanh(a: Any) -> Any:
    """Inverse hyperbolic tangent (inf at +-1, nan beyond)."""
    return Atanh.apply(_float(a, "atanh"))


@torch_keywords("input", "other", out=True)
def atan2(a: Any, b: Any) -> Any:
    """The angle of the point (b, a) from the x-axis, in [-pi, pi], broadcasting."""
    expect_tensor(a, "atan2")
    expect_tensor(b, "atan2", "other", 2)
    target = result_type(a, b)
    return _binary(Atan2, a, b, target if target.is_floating_point else get_default_dtype())
