"""One-input element-wise ops: exp, log, sqrt, abs, sin, cos, sigmoid, tanh, relu, clamp ...

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/unary.py``.

Integer inputs to float-valued functions (``exp`` of a long tensor) give float32 results, as
in PyTorch.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "Neg",
    "Exp",
    "Log",
    "Log1p",
    "Sqrt",
    "Abs",
    "Sin",
    "Cos",
    "Sigmoid",
    "Tanh",
    "Relu",
    "Clamp",
    "ClampTensor",
    "Reciprocal",
]


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
        out = correctly_rounded(np.exp, a)  # (float32: PyTorch's last digit)
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
        return correctly_rounded(np.log1p, a)

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
    double_backward_name = "SigmoidBackwardBackward0"

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
    double_backward_name = "TanhBackwardBackward0"

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
    double_backward_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.maximum(0, a)  # (numpy gives a where a == 0: relu(-0.0) is -0.0, as PyTorch)
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
        # (a nan bound makes the result nan, as PyTorch's: hence "or lo != lo")
        out = a if lo is None else np.where((a < lo) | (lo != lo), np.asarray(lo, a.dtype), a)
        return (
            out if hi is None else np.where((out > hi) | (hi != hi), np.asarray(hi, a.dtype), out)
        )

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
        if given[0]:  # (a nan bound makes the result nan, as PyTorch's: lo != lo)
            out = np.where((out < lo) | (lo != lo), lo.astype(dtype, copy=False), out)
        if given[1]:
            out = np.where((out > hi) | (hi != hi), hi.astype(dtype, copy=False), out)
        return out

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
        return -grad_output * (out * out)
