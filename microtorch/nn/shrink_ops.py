"""The ``Function``s behind hardshrink, softshrink, threshold, GLU and RReLU (issue 24).

Each op's forward and backward take numpy arrays (``NumpyFunction``), computed in the
input's dtype.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "Hardshrink", "Softshrink", "Threshold", "Threshold_", "Glu", "RreluWithNoise",
    "RreluWithNoise_",
]  # fmt: skip


def _zero(g: np.ndarray) -> np.ndarray:
    return np.zeros((), g.dtype)


class Hardshrink(NumpyFunction):
    """z = a where |a| > lambd, else 0, so dz/da = 1 there, else 0."""

    node_name = "HardshrinkBackward0"
    double_backward_name = "HardshrinkBackwardBackward0"
    ctx_fields = ("lambd",)

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return np.where((a >= -lambd) & (a <= lambd), np.zeros((), a.dtype), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        inside = (a >= -ctx.lambd) & (a <= ctx.lambd)
        return np.where(inside, _zero(grad_output), grad_output)


class Softshrink(NumpyFunction):
    """z = a - lambd where a > lambd, a + lambd where a < -lambd, else 0, so dz/da = 1
    outside [-lambd, lambd], else 0."""

    node_name = "SoftshrinkBackward0"
    double_backward_name = "SoftshrinkBackwardBackward0"
    ctx_fields = ("lambd",)

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        shift = np.asarray(lambd, a.dtype)
        out = np.where(a > lambd, a - shift, np.where(a < -lambd, a + shift, 0))
        return out.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        inside = (a >= -ctx.lambd) & (a <= ctx.lambd)
        return np.where(inside, _zero(grad_output), grad_output)


class Threshold(NumpyFunction):
    """z = a where a > threshold, else value, so dz/da = 1 where a > threshold, else 0."""

    node_name = "ThresholdBackward0"
    double_backward_name = "ThresholdBackwardBackward0"
    ctx_fields = ("threshold",)

    @staticmethod
    def forward(ctx, a, threshold, value):
        ctx.save_for_backward(a)
        ctx.threshold = threshold
        return np.where(a > threshold, a, np.asarray(value).astype(a.dtype))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return np.where(a > ctx.threshold, grad_output, _zero(grad_output))


class Threshold_(NumpyFunction):  # noqa: N801 - PyTorch's trailing underscore for in place
    """The in-place form (``threshold_``): ``ThresholdBackward1``. The input is overwritten,
    so it keeps where a > threshold (the gradient's mask) and saves the result, as
    PyTorch's does, only to check that nothing changed it since."""

    node_name = "ThresholdBackward1"
    ctx_fields = ("passed",)

    @staticmethod
    def forward(ctx, a, threshold, value):
        ctx.passed = a > threshold
        out = np.where(ctx.passed, a, np.asarray(value).astype(a.dtype))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if the result changed since
        return np.where(ctx.passed, grad_output, _zero(grad_output))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(x))  # (never overflows)
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


class Glu(NumpyFunction):
    """z = a * sigmoid(b) for the two halves a, b of the input along ``dim``, so
    dz/da = sigmoid(b) and dz/db = a sigmoid(b) (1 - sigmoid(b))."""

    node_name = "GluBackward0"
    double_backward_name = "GluBackwardBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = np.split(x, 2, axis=dim)
        return a * _sigmoid(b)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        a, b = np.split(x, 2, axis=ctx.dim)
        s = _sigmoid(b)
        return np.concatenate([grad_output * s, grad_output * a * s * (1 - s)], axis=ctx.dim)


class RreluWithNoise(NumpyFunction):
    """z = a where a > 0, else slope * a: slope drawn from U(lower, upper) per element
    while training (kept as ``noise``, 1 where a > 0), (lower + upper) / 2 in eval, so
    dz/da = noise (1 or the slope)."""

    node_name = "RreluWithNoiseBackward0"
    double_backward_name = "RreluWithNoiseBackwardBackward0"
    ctx_fields = ("noise",)

    @staticmethod
    def forward(ctx, a, noise):
        ctx.save_for_backward(a)  # (only checked, as PyTorch saves and checks it)
        ctx.noise = noise
        return a * noise

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if a changed since, or backward freed it
        return grad_output * ctx.noise


class RreluWithNoise_(RreluWithNoise):  # noqa: N801
    """The in-place form (``rrelu_``): ``RreluWithNoiseBackward1``, saving its result."""

    node_name = "RreluWithNoiseBackward1"

    @staticmethod
    def forward(ctx, a, noise):
        ctx.noise = noise
        out = a * noise
        ctx.save_for_backward(out)
        return out
