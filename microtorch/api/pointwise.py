"""More pointwise functions: deg2rad, rad2deg, hypot, logaddexp, logaddexp2, copysign, fmax,
fmin, sgn, gcd and lcm.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas in
``microtorch/ops/pointwise.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _binary, wrap
from microtorch.api.unary import _float
from microtorch.autograd import node as _node
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.pointwise import (
    Copysign,
    CopysignScalar,
    Deg2Rad,
    Fmax,
    Fmin,
    Hypot,
    LogAddExp,
    LogAddExp2,
    Rad2Deg,
    Sgn,
)

__all__ = [
    "deg2rad", "rad2deg", "hypot", "logaddexp", "logaddexp2", "copysign", "fmax", "fmin", "sgn",
    "gcd", "lcm",
]  # fmt: skip


def _kernel_for(kernel: str, dtype: Any) -> None:
    raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{dtype._legacy[:-6]}'")


def _tensors(op: str, a: Any, b: Any) -> Any:
    """Both operands must be tensors; their result dtype."""
    expect_tensor(a, op)
    expect_tensor(b, op, "other", 2)
    return result_type(a, b)


def _floats(op: str, a: Any, b: Any) -> Any:
    # hypot and logaddexp: float tensors only, as PyTorch's kernels
    target = _tensors(op, a, b)
    if not target.is_floating_point:
        _kernel_for(op, target)
    return _binary({"hypot": Hypot, "logaddexp": LogAddExp, "logaddexp2": LogAddExp2}[op], a, b)


@torch_keywords("input", out=True)
def deg2rad(input: Any) -> Any:  # noqa: A002 - PyTorch's name
    """Degrees to radians: input * pi / 180."""
    return Deg2Rad.apply(_float(input, "deg2rad"))


@torch_keywords("input", out=True)
def rad2deg(input: Any) -> Any:  # noqa: A002
    """Radians to degrees: input * 180 / pi."""
    return Rad2Deg.apply(_float(input, "rad2deg"))


@torch_keywords("input", "other", out=True)
def hypot(a: Any, b: Any) -> Any:
    """sqrt(a**2 + b**2), the length of the hypotenuse, broadcasting."""
    return _floats("hypot", a, b)


@torch_keywords("input", "other", out=True)
def logaddexp(a: Any, b: Any) -> Any:
    """log(exp(a) + exp(b)), without overflow, broadcasting."""
    return _floats("logaddexp", a, b)


@torch_keywords("input", "other", out=True)
def logaddexp2(a: Any, b: Any) -> Any:
    """log2(2**a + 2**b), without overflow, broadcasting."""
    return _floats("logaddexp2", a, b)


@torch_keywords("input", "other", out=True)
def copysign(a: Any, b: Any) -> Any:
    """|a| with the sign of b (b a tensor or a number), broadcasting; integers give floats."""
    expect_tensor(a, "copysign")
    if not isinstance(b, _node.Tensor):
        x = a if a._dtype.is_floating_point else a.to(get_default_dtype())
        return CopysignScalar.apply(x, float(b))
    target = result_type(a, b)
    return _binary(Copysign, a, b, target if target.is_floating_point else get_default_dtype())


@torch_keywords("input", "other", out=True)
def fmax(a: Any, b: Any) -> Any:
    """The larger of a and b, element by element; a nan loses to a number."""
    _tensors("fmax", a, b)
    return _binary(Fmax, a, b)


@torch_keywords("input", "other", out=True)
def fmin(a: Any, b: Any) -> Any:
    """The smaller of a and b, element by element; a nan loses to a number."""
    _tensors("fmin", a, b)
    return _binary(Fmin, a, b)


@torch_keywords("input", out=True)
def sgn(input: Any) -> Any:  # noqa: A002
    """a / |a| (0 at 0): for real tensors, the sign; bools come back unchanged."""
    expect_tensor(input, "sgn")
    if input._dtype.name == "bool":
        return wrap(input._data.copy(), input._device)
    return Sgn.apply(input)


def _integers(op: str, a: Any, b: Any) -> Any:
    target = _tensors(op, a, b)
    if target.is_floating_point or target.name == "bool":
        _kernel_for(op, target)
    ufunc = np.gcd if op == "gcd" else np.lcm
    try:
        out = ufunc(a._data.astype(target.numpy), b._data.astype(target.numpy))
    except ValueError:
        raise broadcast_error(a._data.shape, b._data.shape) from None
    return wrap(out, a._device)


@torch_keywords("input", "other", out=True)
def gcd(a: Any, b: Any) -> Any:
    """The greatest common divisor of integer tensors (always >= 0; gcd(0, 0) = 0)."""
    return _integers("gcd", a, b)


@torch_keywords("input", "other", out=True)
def lcm(a: Any, b: Any) -> Any:
    """The least common multiple of integer tensors (always >= 0; 0 if either is 0)."""
    return _integers("lcm", a, b)
