"""One-input element-wise ops: exp, log, sqrt, abs, sin, cos, sigmoid, tanh, relu, clamp ...

Integer inputs to float-valued functions (``exp`` of a long tensor) give float32 results, as
in PyTorch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.function import NumpyFunction
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._checks import expect_tensor
from microtorch.ops.elementwise import as_operand
from microtorch.ops.keywords import torch_keywords

__all__ = [
    "neg", "exp", "log", "log1p", "sqrt", "abs", "sin", "cos", "sigmoid", "tanh", "relu",
    "clamp", "reciprocal",
]  # fmt: skip


class Neg(NumpyFunction):
    """z = -a, so dz/da = -1."""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, grad_output):
        return -grad_output


class Exp(NumpyFunction):
    """z = exp(a), so dz/da = exp(a) = z (the output is saved, not the input)."""

    node_name = "ExpBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.exp(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out


class Log(NumpyFunction):
    """z = log(a), so dz/da = 1 / a."""

    node_name = "LogBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log(a)  # log(0) = -inf, log(-1) = nan, as in PyTorch

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / a


class Log1p(NumpyFunction):
    """z = log(1 + a), so dz/da = 1 / (1 + a)."""

    node_name = "Log1PBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log1p(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output / (1 + a)


class Sqrt(NumpyFunction):
    """z = sqrt(a), so dz/da = 1 / (2 * sqrt(a)) = 1 / (2 * z)."""

    node_name = "SqrtBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.sqrt(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output / (2 * out)  # sqrt'(0) = inf, as in PyTorch


class Abs(NumpyFunction):
    """z = |a|, so dz/da = sign(a) (0 at a = 0, and at nan: PyTorch's sign)."""

    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        sign = (a > 0).astype(a.dtype) - (a < 0)  # (np.sign(nan) is nan; PyTorch's is 0)
        return grad_output * sign


class Sin(NumpyFunction):
    """z = sin(a), so dz/da = cos(a)."""

    node_name = "SinBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.sin(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * np.cos(a)


class Cos(NumpyFunction):
    """z = cos(a), so dz/da = -sin(a)."""

    node_name = "CosBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.cos(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * -np.sin(a)


class Sigmoid(NumpyFunction):
    """z = 1 / (1 + exp(-a)), so dz/da = z * (1 - z)."""

    node_name = "SigmoidBackward0"

    @staticmethod
    def forward(ctx, a):
        # PyTorch's formula, bit for bit: for a << 0, exp(-a) overflows to inf and 1 / inf is
        # exactly 0, as in PyTorch.
        out = 1 / (1 + np.exp(-a))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out * (1 - out)


class Tanh(NumpyFunction):
    """z = tanh(a), so dz/da = 1 - z**2."""

    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.tanh(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * (1 - out**2)


class Relu(NumpyFunction):
    """z = max(a, 0), so dz/da = 0 where a <= 0, else 1 (also at nan, as in PyTorch)."""

    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.where(a < 0, np.zeros((), a.dtype), a)  # (relu(-0.0) is -0.0, as in PyTorch)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        # select, not multiply by the mask: an inf or nan gradient where a <= 0 gives 0
        return np.where(out <= 0, np.zeros((), grad_output.dtype), grad_output)


class Clamp(NumpyFunction):
    """z = min(max(a, lo), hi), so dz/da = 1 inside [lo, hi], else 0."""

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a)
        ctx.bounds = (lo, hi)
        # (np.where, not np.clip: an a equal to a bound stays as it is, -0.0 too, as PyTorch's)
        out = a if lo is None else np.where(a < lo, np.asarray(lo, a.dtype), a)
        return out if hi is None else np.where(out > hi, np.asarray(hi, a.dtype), out)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return np.where(inside, grad_output, np.zeros((), grad_output.dtype))


class ClampTensor(NumpyFunction):
    """z = min(max(a, lo), hi) for tensor bounds, so dz/da = 1 inside [lo, hi], dz/dlo = 1
    where a < lo (if lo < hi), dz/dhi = 1 where a > hi (or hi < lo), each else 0."""

    node_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi, given, dtype):
        ctx.save_for_backward(a, lo, hi)
        ctx.given = given  # (a bound not given is a placeholder: see _clamp_tensor)
        out = a.astype(dtype, copy=False)
        if given[0]:
            out = np.where(out < lo, lo.astype(dtype, copy=False), out)
        return np.where(out > hi, hi.astype(dtype, copy=False), out) if given[1] else out

    @staticmethod
    def backward(ctx, grad_output):
        a, lo, hi = ctx.saved_tensors
        has_lo, has_hi = ctx.given
        zero = np.zeros((), grad_output.dtype)
        inside = np.ones(grad_output.shape, bool)  # (the grad's shape: a, lo, hi broadcast)
        if has_lo:
            inside &= a >= lo
        if has_hi:
            inside &= a <= hi
        below = (a < lo) & (lo < hi) if has_lo and has_hi else a < lo
        above = (a > hi) | (hi < lo) if has_lo and has_hi else a > hi
        grads = [
            np.where(inside, grad_output, zero),
            np.where(below, grad_output, zero) if has_lo else None,
            np.where(above, grad_output, zero) if has_hi else None,
        ]
        edges = [x.dtype.kind == "f" for x in (a, lo, hi)]  # (an int tensor has no edge)
        return tuple(
            None if g is None or not need else unbroadcast(g, x.shape)
            for g, x, need in zip(
                [g for g, e in zip(grads, edges) if e],
                [x for x, e in zip((a, lo, hi), edges) if e],
                ctx.needs_input_grad,
            )
        )


class Reciprocal(NumpyFunction):
    """z = 1 / a, so dz/da = -1 / a**2 = -z**2."""

    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = 1 / a
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * -(out * out)


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
