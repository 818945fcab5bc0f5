"""The error function and its kin (erf, erfc, erfinv), and three blends of tensors: lerp,
addcmul and addcdiv.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/special.py``. erf and erfc are Python's ``math.erf``/``math.erfc`` applied to
each value in float64 (numpy has no erf); erfinv is Newton's method on erf.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "erf_each",
    "erf64",
    "erfinv_each",
    "Erf",
    "Erfc",
    "Erfinv",
    "LerpScalar",
    "LerpTensor",
    "Addcmul",
    "Addcdiv",
]

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
erf_each = np.frompyfunc(math.erf, 1, 1)
_erfc_each = np.frompyfunc(math.erfc, 1, 1)


def erf64(x: np.ndarray) -> np.ndarray:
    """erf of each value of a float64 array (inside a formula run with create_graph=True,
    numpy hands the ufunc's recorded argument to torch.erf: see api/recorded.py)."""
    if not isinstance(x, np.ndarray):
        return erf_each(x)
    return _each(erf_each, x)


def erfc64(x: np.ndarray) -> np.ndarray:
    """erfc = 1 - erf of each value of a float64 array (exact also where erf is near 1)."""
    return _each(_erfc_each, x)


def _each(f: np.ufunc, x: np.ndarray) -> np.ndarray:
    # laid out as numpy's own ufuncs lay out a result (an expanded input gives a row-major one)
    out = np.empty_like(x, dtype=np.float64)
    out[...] = f(x)
    return out


def erfinv64(y: np.ndarray) -> np.ndarray:
    """The x with erf(x) = y, for a float64 array: a first guess good to about 0.2%
    (Winitzki's formula with a = 0.147), then four Newton steps x -= (erf(x) - y) / erf'(x).
    Near |y| = 1 the residual is taken as (1 - |y|) - erfc(x), which keeps its digits."""
    u = np.abs(y)
    inside = u < 1
    v = np.where(inside, u, 0.0)
    log = np.log1p(-v * v)
    t = 2 / (math.pi * 0.147) + log / 2
    x = np.sqrt(np.sqrt(t * t - log / 0.147) - t)
    near_one = v > 0.5
    for _ in range(4):
        residual = np.where(near_one, (1 - v) - erfc64(x), erf64(x) - v)
        x = x - residual / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    x = np.where(inside, x, np.where(u == 1, np.inf, np.nan))
    return np.copysign(x, y)


class Erf(NumpyFunction):
    """z = erf(a) = 2/sqrt(pi) * integral of exp(-t**2) from 0 to a, so
    dz/da = 2/sqrt(pi) * exp(-a**2)."""

    node_name = "ErfBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(erf64, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return _TWO_OVER_SQRT_PI * np.exp(-(a**2)) * grad_output


class Erfc(NumpyFunction):
    """z = erfc(a) = 1 - erf(a), so dz/da = -2/sqrt(pi) * exp(-a**2)."""

    node_name = "ErfcBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(erfc64, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return -_TWO_OVER_SQRT_PI * np.exp(-(a**2)) * grad_output


class Erfinv(NumpyFunction):
    """z = erfinv(a), the inverse of erf, so dz/da = 1 / erf'(z) = sqrt(pi)/2 * exp(z**2)
    (z computed again from the saved input, as PyTorch does)."""

    node_name = "ErfinvBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(erfinv64, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        # (with create_graph=True, a records: erfinv_each then runs microtorch's erfinv)
        z = correctly_rounded(erfinv64, a) if isinstance(a, np.ndarray) else erfinv_each(a)
        return 0.5 * math.sqrt(math.pi) * np.exp(z**2) * grad_output


# erfinv as a numpy ufunc, so that a formula's erfinv of a recorded value is recorded too
# (api/recorded.py maps it to microtorch's erfinv)
erfinv_each = np.frompyfunc(lambda y: float(erfinv64(np.float64(y))), 1, 1)


def _lerp(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> np.ndarray:
    # PyTorch's kernel: a + w * (b - a) for |w| < 0.5, else b - (1 - w) * (b - a), each one
    # fused multiply-add (float32: the exact float64 product and sum, rounded once)
    small = np.abs(w) < 0.5
    coeff = np.where(small, w, w - 1)
    base = np.where(small, a, b)
    return correctly_rounded(lambda c, d, s: c * d + s, coeff, b - a, base)


class LerpScalar(NumpyFunction):
    """z = a + weight * (b - a) for a number ``weight``, so dz/da = 1 - weight and
    dz/db = weight."""

    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, a, b, weight):
        ctx.weight = weight
        return follow_inputs(_lerp(a, b, np.asarray(weight, a.dtype)), a, b)

    @staticmethod
    def backward(ctx, grad_output):
        weight = ctx.weight
        return summed_to_inputs(ctx, [grad_output * (1 - weight), grad_output * weight])


class LerpTensor(NumpyFunction):
    """z = a + w * (b - a) for a tensor ``w``, so dz/da = 1 - w, dz/db = w and dz/dw = b - a."""

    node_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, a, b, w):
        ctx.save_for_backward(a, b, w)
        return follow_inputs(_lerp(a, b, w), a, b, w)

    @staticmethod
    def backward(ctx, grad_output):
        a, b, w = ctx.saved_tensors
        grads = [grad_output * (1 - w), grad_output * w, grad_output * (b - a)]
        return summed_to_inputs(ctx, grads)


def summed_to_inputs(ctx, grads):
    """Each input's gradient summed back to its shape (``unbroadcast``), None for an input
    that needs none (a constant: its shape is not known to the graph)."""
    return tuple(
        unbroadcast(g, ctx.input_shape(i)) if needed else None
        for i, (g, needed) in enumerate(zip(grads, ctx.needs_input_grad))
    )


class Addcmul(NumpyFunction):
    """z = a + value * t1 * t2, so dz/da = 1, dz/dt1 = value * t2 and dz/dt2 = value * t1."""

    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        scaled = (value * t1).astype(t1.dtype, copy=False)  # (value in the tensors' dtype)
        if a.dtype.kind != "f":
            return follow_inputs(a + scaled * t2, a, t1, t2)
        # PyTorch's kernel: value * t1, then one fused multiply-add with t2 and a
        return follow_inputs(correctly_rounded(lambda s, t, b: s * t + b, scaled, t2, a), a, t1, t2)

    @staticmethod
    def backward(ctx, grad_output):
        t1, t2 = ctx.saved_tensors
        value = ctx.value
        grads = [grad_output, grad_output * (t2 * value), grad_output * (t1 * value)]
        return summed_to_inputs(ctx, grads)


class Addcdiv(NumpyFunction):
    """z = a + value * t1 / t2, so dz/da = 1, dz/dt1 = value / t2 and
    dz/dt2 = -value * t1 / t2**2."""

    node_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.save_for_backward(t1, t2)
        ctx.value = value
        return follow_inputs(a + (value * t1).astype(t1.dtype, copy=False) / t2, a, t1, t2)

    @staticmethod
    def backward(ctx, grad_output):
        t1, t2 = ctx.saved_tensors
        value = ctx.value
        grads = [
            grad_output,
            grad_output * (value / t2),
            -grad_output * (value * t1 / (t2 * t2)),
        ]
        return summed_to_inputs(ctx, grads)
