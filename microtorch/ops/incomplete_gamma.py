"""The regularized incomplete gamma functions igamma = P(a, x) and igammac = Q(a, x) = 1 - P,
with their backward formulas (only for x, as in PyTorch).

P(a, x) = x**a e**-x / Gamma(a + 1) * sum_n x**n / ((a+1)(a+2)...(a+n)) for x < a + 1 (all
terms positive); else Q(a, x) = x**a e**-x / Gamma(a) times Legendre's continued fraction
1/(x + 1 - a - 1(1 - a)/(x + 3 - a - 2(2 - a)/(x + 5 - a - ...))), by Lentz's method. The
other one is 1 minus it. The prefactor is computed as the exp of its log (lgamma).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded
from microtorch.ops.gamma_functions import lgamma64

__all__ = ["Igamma", "Igammac", "igamma64"]

_TINY = 1e-300


def _lower_series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    term = np.ones_like(a)
    total = term.copy()
    denominator = a.copy()
    for _ in range(2000):
        denominator = denominator + 1
        term = term * x / denominator
        total += term
        if np.all(term <= total * 1e-17):
            break
    return np.exp(a * np.log(x) - x - lgamma64(a + 1)) * total


def _upper_fraction(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    b = x + 1 - a
    c = np.full_like(a, 1 / _TINY)
    d = 1 / b
    h = d.copy()
    for i in range(1, 2000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1 / d
        step = d * c
        h = h * step
        if np.all(np.abs(step - 1) < 1e-16):
            break
    return np.exp(a * np.log(x) - x - lgamma64(a)) * h


def igamma64(a: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """P(a, x) (``upper``: Q(a, x)) of float64 arrays (broadcast), with PyTorch's values at
    the edges: nan for a < 0 or x < 0, for a = x = 0 and a = x = inf."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    bad = (a < 0) | (x < 0) | np.isnan(a) | np.isnan(x) | ((a == 0) & (x == 0))
    bad |= np.isinf(a) & np.isinf(x)
    edge_p = np.where(x == 0, 0.0, np.where(np.isinf(x) | (a == 0), 1.0, 0.0))
    edge = (x == 0) | np.isinf(x) | (a == 0) | np.isinf(a)
    regular = ~(bad | edge)
    aa, xx = np.where(regular, a, 1.0), np.where(regular, x, 1.0)
    use_series = xx < aa + 1
    p = np.ones_like(aa)
    if use_series.any():
        p = np.where(
            use_series,
            _lower_series(np.where(use_series, aa, 1.0), np.where(use_series, xx, 0.5)),
            p,
        )
    q = 1 - p
    if (~use_series).any():
        fraction = _upper_fraction(np.where(use_series, 1.0, aa), np.where(use_series, 3.0, xx))
        q = np.where(use_series, q, fraction)
        p = np.where(use_series, p, 1 - fraction)
    result = np.where(regular, q if upper else p, (1 - edge_p) if upper else edge_p)
    return np.where(bad, np.nan, result)


def _density(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    # dP/dx = x**(a-1) e**-x / Gamma(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.exp((a - 1) * np.log(x) - x - lgamma64(a))


class Igamma(NumpyFunction):
    """z = P(a, x), so dz/dx = x**(a-1) e**-x / Gamma(a); PyTorch has no dz/da (its error)."""

    node_name = "IgammaBackward0"
    upper = False

    @classmethod
    def forward(cls, ctx, a, x):
        ctx.save_for_backward(a, x)
        return follow_inputs(correctly_rounded(lambda u, v: igamma64(u, v, cls.upper), a, x), a, x)

    @classmethod
    def backward(cls, ctx, grad_output):
        a, x = ctx.saved_tensors
        name = "igammac" if cls.upper else "igamma"
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        d = correctly_rounded(_density, a, x)
        d = -d if cls.upper else d
        return None, unbroadcast(d * grad_output, ctx.input_shape(1))


class Igammac(Igamma):
    """z = Q(a, x) = 1 - P(a, x), so dz/dx = -x**(a-1) e**-x / Gamma(a)."""

    node_name = "IgammacBackward0"
    upper = True
