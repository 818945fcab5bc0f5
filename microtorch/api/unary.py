"""One-input element-wise ops: exp, log, sqrt, abs, sin, cos, sigmoid, tanh, relu, clamp ...

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/unary.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.autograd import node as _node
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops.unary import (
    Abs,
    Clamp,
    ClampTensor,
    Cos,
    Exp,
    Log,
    Log1p,
    Neg,
    Reciprocal,
    Relu,
    Sigmoid,
    Sin,
    Sqrt,
    Tanh,
)

__all__ = [
    "clip",
    "neg",
    "exp",
    "log",
    "log1p",
    "sqrt",
    "abs",
    "sin",
    "cos",
    "sigmoid",
    "tanh",
    "relu",
    "clamp",
    "reciprocal",
]


def _float(a: Any, op: str) -> Any:
    # Float-valued functions of integer tensors compute in the default float dtype.
    if isinstance(a, _node.Tensor) and a._dtype.is_floating_point:
        return a  # the common case first: one check, no further call
    expect_tensor(a, op)
    return as_operand(a, get_default_dtype())


@torch_keywords("input", out=True)
def neg(a: Any) -> Any:
    """-a."""
    expect_tensor(a, "neg")
    if a._dtype.name == "bool":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return Neg.apply(a)


@torch_keywords("input", out=True)
def exp(a: Any) -> Any:
    """e to the power a, element by element."""
    return Exp.apply(_float(a, "exp"))


@torch_keywords("input", out=True)
def log(a: Any) -> Any:
    """Natural logarithm (log(0) = -inf, log of a negative number = nan)."""
    return Log.apply(_float(a, "log"))


@torch_keywords("input", out=True)
def log1p(a: Any) -> Any:
    """log(1 + a), accurate for small a."""
    return Log1p.apply(_float(a, "log1p"))


@torch_keywords("input", out=True)
def sqrt(a: Any) -> Any:
    """Square root (nan for negative numbers)."""
    return Sqrt.apply(_float(a, "sqrt"))


@torch_keywords("input", out=True)
def abs(a: Any) -> Any:  # noqa: A001 - PyTorch's name
    """Absolute value."""
    expect_tensor(a, "abs")
    if a._dtype.name == "bool":
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return Abs.apply(a)


@torch_keywords("input", out=True)
def sin(a: Any) -> Any:
    """Sine, in radians."""
    return Sin.apply(_float(a, "sin"))


@torch_keywords("input", out=True)
def cos(a: Any) -> Any:
    """Cosine, in radians."""
    return Cos.apply(_float(a, "cos"))


@torch_keywords("input", out=True)
def sigmoid(a: Any) -> Any:
    """1 / (1 + exp(-a)), computed without overflow for large |a|."""
    return Sigmoid.apply(_float(a, "sigmoid"))


@torch_keywords("input", out=True)
def tanh(a: Any) -> Any:
    """Hyperbolic tangent."""
    return Tanh.apply(_float(a, "tanh"))


@torch_keywords("input", out=True)
def relu(a: Any) -> Any:
    """max(a, 0)."""
    expect_tensor(a, "relu")
    if a._dtype.name == "bool":
        raise RuntimeError("Boolean inputs not supported for relu (Fix: convert, e.g. x.float())")
    return Relu.apply(a)


_CLAMP = (
    "Tensor input, Tensor min=None, Tensor max=None, *, Tensor out=None",
    "Tensor input, Number min=None, Number max=None, *, Tensor out=None",
)


@parsed("clamp", *_CLAMP)
@torch_keywords("input", "min", "max", out=True)
def clamp(a: Any, min: float | None = None, max: float | None = None) -> Any:  # noqa: A002
    """Limit every value to ``[min, max]``; either bound may be None."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    expect_tensor(a, "clamp")
    lo, hi = _bound(min, "min"), _bound(max, "max")
    if isinstance(lo, _node.Tensor) or isinstance(hi, _node.Tensor):
        return _clamp_tensor(a, lo, hi)
    if not a._dtype.is_floating_point:  # int_tensor.clamp(min=0.5) is float32, as in PyTorch
        a = as_operand(a, result_type(a, *[b for b in (min, max) if b is not None]))
    return Clamp.apply(a, lo, hi)


@parsed("clip", *_CLAMP)
@torch_keywords("input", "min", "max", out=True)
def clip(a: Any, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    """``clamp``'s other name."""
    return clamp(a, min, max)


def _clamp_tensor(a: Any, lo: Any, hi: Any) -> Any:
    # PyTorch's clamp.Tensor, in the dtype of a and the bounds together; a missing bound is a
    # constant that is not used (so the node has PyTorch's three edges).
    if lo is not None and hi is not None and type(lo) is not type(hi):
        got = ", ".join(type(b).__name__ for b in (lo, hi))
        raise TypeError(
            f"clamp() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n * (Tensor min = None, Tensor max = None)\n * (Number min = None, Number "
            "max = None)\n(Fix: give both bounds as tensors, or both as numbers)"
        )
    dtype = result_type(a, *[b for b in (lo, hi) if b is not None])
    given = (lo is not None, hi is not None)
    lo, hi = (b if b is not None else as_operand(0, dtype, a._device) for b in (lo, hi))
    return ClampTensor.apply(a, lo, hi, given, dtype.numpy)


def _bound(value: Any, name: str) -> Any:
    if isinstance(value, _node.Tensor):
        return value
    if value is not None and not isinstance(value, (int, float, np.number)):
        raise TypeError(
            f"clamp(): argument '{name}' must be a number or a Tensor, not {type(value).__name__}"
        )
    return value


@torch_keywords("input", out=True)
def reciprocal(a: Any) -> Any:
    """1 / a."""
    return Reciprocal.apply(_float(a, "reciprocal"))
