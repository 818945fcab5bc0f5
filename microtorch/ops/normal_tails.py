"""The normal distribution's tails: ndtri (the inverse CDF), log_ndtr (log of the CDF) and
erfcx (exp(x**2) erfc(x)), with their backward formulas.

erfcx: exp(x**2) * erfc(x) with x**2 split exactly into two floats (no digits lost in
exp), for 0 <= x < 26; past 26 its asymptotic series 1/(x sqrt(pi)) * sum (-1)**k (2k-1)!! /
(2x**2)**k; below 0, 2 exp(x**2) - erfcx(-x). log_ndtr: log1p(-erfc(x/sqrt 2)/2) above 0,
log(erfc(-x/sqrt 2)/2) down to -20, log(erfcx(-x/sqrt 2)/2) - x**2/2 further. ndtri: a first
guess good to 4.5e-4 (Abramowitz and Stegun 26.2.23), then Newton's steps on
log ndtr(x) = log p, in the lower tail (p > 1/2 by symmetry, 1 - p being exact there);
between 0.1 and 0.9, sqrt(2) erfinv(2p - 1).
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded
from microtorch.ops.special import erfinv64

__all__ = ["Erfcx", "LogNdtr", "Ndtri", "erfcx64", "erfcx_each", "log_ndtr64", "ndtri64"]

_erfc_each = np.frompyfunc(math.erfc, 1, 1)
_SQRT_HALF = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2 * math.pi)


def _erfc(x: np.ndarray) -> np.ndarray:
    out = np.empty(np.shape(x))
    out[...] = _erfc_each(x)
    return out


def _exp_square(x: np.ndarray) -> np.ndarray:
    # exp(x**2) without the rounding of x**2: x = hi + lo with hi's 26 low bits cleared
    hi = (x.view(np.int64) & ~np.int64((1 << 27) - 1)).view(np.float64) if x.ndim else x
    lo = x - hi
    return np.exp(hi * hi) * np.exp(lo * (2 * hi + lo))


def erfcx64(x: np.ndarray) -> np.ndarray:
    """exp(x**2) * erfc(x) of each value of a float64 array (inf below -26.6)."""
    if recorded(x):
        return erfcx_each(x)  # (torch.special.erfcx: SpecialErfcxBackward0)
    x = np.atleast_1d(np.asarray(x, np.float64))
    u = np.abs(x)
    near = u < 26
    un = np.where(near, u, 0.0)
    direct = _exp_square(un) * _erfc(un)
    uf = np.where(near, 26.0, u)
    inv = 1 / (2 * uf * uf)
    term, total = np.ones_like(uf), np.ones_like(uf)
    for k in range(1, 12):
        term = -term * (2 * k - 1) * inv
        total += term
    far = total / (uf * math.sqrt(math.pi))
    positive = np.where(near, direct, far)
    with np.errstate(over="ignore"):
        negative = 2 * _exp_square(np.where(u < 27, u, 27.0)) - positive
    negative = np.where(u < 27, negative, np.inf)
    result = np.where(x < 0, negative, positive)
    return np.where(np.isinf(x) & (x > 0), 0.0, result)


# one value at a time: what numpy dispatches a recorded value by (formula_values.recorded)
erfcx_each = np.frompyfunc(lambda v: float(erfcx64(np.float64(v))[0]), 1, 1)


def log_ndtr64(x: np.ndarray) -> np.ndarray:
    """log of the standard normal CDF of each value of a float64 array."""
    x = np.atleast_1d(np.asarray(x, np.float64))
    z = x * _SQRT_HALF
    upper = np.log1p(-0.5 * _erfc(np.where(x > 0, z, 0.0)))
    middle = np.log(0.5 * _erfc(np.where((x <= 0) & (x > -20), -z, 0.0)))
    far = np.where(x <= -20, -z, 30.0)
    lower = np.log(0.5 * erfcx64(far)) - far * far
    result = np.where(x > 0, upper, np.where(x > -20, middle, lower))
    return np.where(np.isnan(x), np.nan, result)


def ndtri64(p: np.ndarray) -> np.ndarray:
    """The x with ndtr(x) = p, of each value of a float64 array (nan outside [0, 1])."""
    p = np.atleast_1d(np.asarray(p, np.float64))
    flip = p > 0.5
    q = np.where(flip, 1 - p, p)
    inside = (q > 0) & (q <= 0.5)
    q = np.where(inside, q, 0.25)
    t = np.sqrt(-2 * np.log(q))
    x = -(
        t
        - (2.515517 + t * (0.802853 + t * 0.010328))
        / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308)))
    )
    log_q = np.log(q)
    for _ in range(5):  # Newton on g(x) = log ndtr(x) - log q, g' = pdf(x) / ndtr(x)
        cdf = 0.5 * _erfc(-x * _SQRT_HALF)
        pdf = np.exp(-0.5 * x * x) / _SQRT_2PI
        x = x - (np.log(cdf) - log_q) * cdf / pdf
    x = np.where(flip, -x, x)
    # in the middle, sqrt(2) erfinv(2p - 1) keeps the relative digits near the root at 1/2
    # (2p - 1 is exact there)
    middle = (p > 0.1) & (p < 0.9)
    x = np.where(middle, math.sqrt(2) * erfinv64(np.where(middle, 2 * p - 1, 0.0)), x)
    edge = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, np.nan))
    return np.where(inside, x, edge)


class Erfcx(NumpyFunction):
    """z = exp(a**2) erfc(a), so dz/da = 2 a z - 2/sqrt(pi)."""

    node_name = "SpecialErfcxBackward0"

    @staticmethod
    def forward(ctx, a):
        z = follow_inputs(correctly_rounded(erfcx64, a).reshape(a.shape), a)
        ctx.save_for_backward(a, z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, z = ctx.saved_tensors
        return (2 * a * z - 2 / math.sqrt(math.pi)) * grad_output


class LogNdtr(NumpyFunction):
    """z = log ndtr(a), so dz/da = pdf(a) / ndtr(a) = sqrt(2/pi) / erfcx(-a/sqrt 2)."""

    node_name = "SpecialLogNdtrBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(log_ndtr64, a).reshape(a.shape), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        ratio = math.sqrt(2 / math.pi) / correctly_rounded(erfcx64, -a * _SQRT_HALF).reshape(
            a.shape
        )
        return ratio * grad_output


class Ndtri(NumpyFunction):
    """z = ndtri(a), the inverse of ndtr, so dz/da = sqrt(2 pi) exp(z**2 / 2)."""

    node_name = "SpecialNdtriBackward0"

    @staticmethod
    def forward(ctx, a):
        z = follow_inputs(correctly_rounded(ndtri64, a).reshape(a.shape), a)
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        (z,) = ctx.saved_tensors
        return _SQRT_2PI * np.exp(z * z / 2) * grad_output
