"""The log-gamma function and its derivatives (digamma, trigamma), as the distributions need
them: ``Lgamma`` and ``Digamma`` with their backward formulas.

lgamma is Python's ``math.lgamma`` applied to each value in float64 (inf at the poles 0, -1,
-2 ..., as in PyTorch). digamma and trigamma shift ``x`` up past 10 by their recurrences
(``psi(x) = psi(x + 1) - 1/x``) and then sum the first terms of their asymptotic series;
below 0 they use the reflection formulas. Both are good to about 1e-15 (relative).
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "Digamma",
    "Lgamma",
    "digamma64",
    "digamma_each",
    "lgamma64",
    "lgamma_each",
    "trigamma64",
    "trigamma_each",
]

# B_2k / (2k) for psi's series and B_2k for psi_1's (Bernoulli numbers B_2 ... B_14)
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def _lgamma_one(x: float) -> float:
    if math.isnan(x) or math.isinf(x):  # (lgamma(-inf) is inf, as in PyTorch)
        return math.inf if not math.isnan(x) else math.nan
    if x <= 0 and x == math.floor(x):
        return math.inf  # (a pole)
    return math.lgamma(x)


lgamma_each = np.frompyfunc(_lgamma_one, 1, 1)


def lgamma64(x: np.ndarray) -> np.ndarray:
    """log|Gamma(x)| of each value of a float64 array."""
    if recorded(x):
        return lgamma_each(x)  # (torch.lgamma: LgammaBackward0)
    out = np.empty(np.shape(x), dtype=np.float64)
    out[...] = lgamma_each(x)
    return out


def digamma64(x: np.ndarray) -> np.ndarray:
    """psi(x) = d/dx log Gamma(x): -inf at 0 (inf at -0), nan at the negative integers."""
    if recorded(x):
        return digamma_each(x)  # (torch.digamma: DigammaBackward0)
    x = np.asarray(x, dtype=np.float64)
    negative = x < 0
    pole = (x <= 0) & (x == np.floor(x))
    # reflection: psi(x) = psi(1 - x) - pi / tan(pi x) for x < 0
    y = np.where(negative, 1 - x, x)
    y = np.where(pole | np.isnan(y), 1.0, y)
    acc = np.zeros_like(y)
    while True:  # psi(y) = psi(y + 1) - 1/y until y >= 10
        small = y < 10
        if not small.any():
            break
        acc -= np.where(small, 1 / y, 0.0)
        y = np.where(small, y + 1, y)
    inv2 = 1 / (y * y)
    series, power = np.zeros_like(y), np.ones_like(y)
    for k, b in enumerate(_BERNOULLI, start=1):
        power = power * inv2
        series += b / (2 * k) * power
    result = acc + np.log(y) - 0.5 / y - series
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(negative, result - math.pi / np.tan(math.pi * x), result)
    result = np.where(pole, np.where(x == 0, np.copysign(np.inf, -x), np.nan), result)
    return np.where(np.isnan(x), np.nan, np.where(x == np.inf, np.inf, result))


def trigamma64(x: np.ndarray) -> np.ndarray:
    """psi_1(x) = d/dx psi(x). At the negative integers, as in PyTorch, the reflection
    formula's sin(pi x) is not exactly 0: a large finite value rather than inf."""
    if recorded(x):
        return trigamma_each(x)  # (torch.polygamma(1, x): PolygammaBackward0)
    x = np.asarray(x, dtype=np.float64)
    negative = x < 0
    pole = (x <= 0) & (x == np.floor(x))
    y = np.where(negative, 1 - x, x)
    y = np.where(pole | np.isnan(y), 1.0, y)
    acc = np.zeros_like(y)
    while True:  # psi_1(y) = psi_1(y + 1) + 1/y**2
        small = y < 10
        if not small.any():
            break
        acc += np.where(small, 1 / (y * y), 0.0)
        y = np.where(small, y + 1, y)
    inv2 = 1 / (y * y)
    series, power = np.zeros_like(y), 1 / y
    for b in _BERNOULLI:
        power = power * inv2
        series += b * power
    result = acc + 1 / y + 0.5 * inv2 + series
    with np.errstate(divide="ignore", invalid="ignore"):
        # reflection: psi_1(x) = pi**2 / sin(pi x)**2 - psi_1(1 - x)
        result = np.where(negative, (math.pi / np.sin(math.pi * x)) ** 2 - result, result)
    result = np.where(x == 0, np.inf, result)
    return np.where(np.isnan(x), np.nan, np.where(x == np.inf, 0.0, result))


# one value at a time: what numpy dispatches a recorded value by (see ``recorded``)
digamma_each = np.frompyfunc(lambda v: float(digamma64(np.float64(v))), 1, 1)
trigamma_each = np.frompyfunc(lambda v: float(trigamma64(np.float64(v))), 1, 1)


class Lgamma(NumpyFunction):
    """z = log|Gamma(a)|, so dz/da = digamma(a)."""

    node_name = "LgammaBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(lgamma64, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return correctly_rounded(digamma64, a) * grad_output


class Digamma(NumpyFunction):
    """z = digamma(a) = d/da log Gamma(a), so dz/da = trigamma(a)."""

    node_name = "DigammaBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(digamma64, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return correctly_rounded(trigamma64, a) * grad_output
