"""Hurwitz's zeta function and what is built on it: polygamma, mvlgamma and zeta, with their
backward formulas (``Polygamma``, ``Mvlgamma``, ``Zeta``).

zeta(s, q) = sum over k >= 0 of (q + k)**-s, summed directly until q + k passes 10 (at least
10 terms), then the Euler-Maclaurin tail: the integral w**(1 - s) / (s - 1), half the first
left-out term, and eight Bernoulli corrections. For s > 1 that is good to a few units of
1e-16 (relative). polygamma(n, x) = (-1)**(n + 1) * n! * zeta(n + 1, x) for n >= 2;
n = 0 and 1 are digamma and trigamma (``gamma_functions.py``). As in PyTorch, q <= 0 gives
inf at the integers and nan for a non-integer s; s = 1 gives inf, s < 1 nan.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded
from microtorch.ops.gamma_functions import digamma64, lgamma64, trigamma64

__all__ = [
    "Mvlgamma",
    "Polygamma",
    "Zeta",
    "ZetaNumberQ",
    "ZetaNumberS",
    "mvlgamma64",
    "polygamma64",
    "polygamma_each",
    "zeta64",
    "zeta_each",
]

# B_2j / (2j)! for j = 1 ... 8 (Bernoulli numbers over factorials)
_B_OVER_FACTORIAL = tuple(
    b / math.factorial(2 * j)
    for j, b in enumerate(
        (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510), start=1
    )
)


def _zeta_positive(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    # zeta(s, q) for s > 1 and q > 0 (finite)
    total = np.zeros(s.shape)
    w = q.copy()
    k = 0
    while True:  # sum (q + k)**-s while q + k < 10, and for 10 terms at least
        small = (w < 10) | (k < 10)
        if not small.any():
            break
        total += np.where(small, w**-s, 0.0)
        w = np.where(small, w + 1, w)
        k += 1
    # tail from w on: w**(1-s)/(s-1) + w**-s/2 + sum_j B_2j/(2j)! * s(s+1)..(s+2j-2) w**(-s-2j+1)
    term = w**-s
    tail = w * term / (s - 1) + 0.5 * term
    rising, power = s.copy(), term / w
    for j, c in enumerate(_B_OVER_FACTORIAL):
        tail += c * rising * power
        rising = rising * (s + 2 * j + 1) * (s + 2 * j + 2)
        power = power / (w * w)
    return total + tail


def zeta64(s: np.ndarray | float, q: np.ndarray | float) -> np.ndarray:
    """Hurwitz's zeta(s, q) of float64 arrays (broadcast). For q < 0 (s an integer) the m
    negative terms q, q+1 ... q+m-1 are (-1)**s times those of zeta(s, f) with f = -(q+m-1):
    zeta(s, q) = (-1)**s (zeta(s, f) - zeta(s, f + m)) + zeta(s, q + m)."""
    if recorded(s) or recorded(q):
        return zeta_each(s, q)  # (torch.special.zeta: SpecialZetaBackward0, 1 or 2)
    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    integer_q = q == np.floor(q)
    bad = (s < 1) | ((q <= 0) & ~integer_q & (s != np.floor(s)))
    pole = (s == 1) | ((q <= 0) & integer_q)
    ok = ~(bad | pole | np.isnan(s) | np.isnan(q) | np.isinf(q))
    ss, qq = np.where(ok, s, 2.0), np.where(ok, q, 1.0)
    negative = qq < 0
    m = np.where(negative, np.ceil(-qq), 0.0)
    f = np.where(negative, -(qq + (m - 1)), 1.0)  # (exact: Sterbenz)
    result = _zeta_positive(ss, qq + m)
    if negative.any():
        sign = np.where(np.fmod(ss, 2) == 0, 1.0, -1.0)
        folded = sign * (_zeta_positive(ss, f) - _zeta_positive(ss, f + m))
        result = np.where(negative, result + folded, result)
    result = np.where(pole, np.inf, np.where(ok, result, np.nan))
    # (q = +inf gives nan, as PyTorch's 0 * inf in its tail; s = +inf: q**-s)
    return result


def polygamma64(n: int, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma at each value of a float64 array."""
    if recorded(x):
        return polygamma_each(n, x)  # (torch.polygamma: PolygammaBackward0)
    if n == 0:
        return digamma64(x)
    if n == 1:
        return trigamma64(x)
    sign = 1.0 if n % 2 else -1.0
    return sign * math.exp(math.lgamma(n + 1)) * zeta64(n + 1.0, x)


def mvlgamma64(x: np.ndarray, p: int) -> np.ndarray:
    """log of the p-variate gamma function: p(p-1)/4 log(pi) + sum_i lgamma(x - i/2)."""
    total = np.full(np.shape(x), p * (p - 1) / 4 * math.log(math.pi))
    for i in range(p):
        total = total + lgamma64(np.asarray(x, np.float64) - i / 2)
    return total


# one value at a time: what numpy dispatches a recorded value by (formula_values.recorded)
polygamma_each = np.frompyfunc(lambda n, v: float(polygamma64(int(n), np.float64(v))), 2, 1)
zeta_each = np.frompyfunc(lambda s, q: float(zeta64(np.float64(s), np.float64(q))), 2, 1)


def _forward(ctx, a, k, value):
    # value(v, k) of each value v of a, for an int k that backward gets as ctx.k
    ctx.save_for_backward(a)
    ctx.k = k
    return follow_inputs(correctly_rounded(lambda v: value(v, k), a), a)


def _backward(ctx, grad_output, derivative):
    # derivative(v, k) of each saved value v, times grad_output
    (a,) = ctx.saved_tensors
    return correctly_rounded(lambda v: derivative(v, ctx.k), a) * grad_output


class Polygamma(NumpyFunction):
    """z = polygamma(n, a), the n-th derivative of digamma, so dz/da = polygamma(n + 1, a)."""

    node_name = "PolygammaBackward0"

    @staticmethod
    def forward(ctx, a, n):
        return _forward(ctx, a, n, lambda v, n: polygamma64(n, v))

    @staticmethod
    def backward(ctx, grad_output):
        return _backward(ctx, grad_output, lambda v, n: polygamma64(n + 1, v))


class Mvlgamma(NumpyFunction):
    """z = p(p-1)/4 log(pi) + sum over i < p of lgamma(a - i/2), so
    dz/da = sum over i < p of digamma(a - i/2)."""

    node_name = "MvlgammaBackward0"

    @staticmethod
    def forward(ctx, a, p):
        return _forward(ctx, a, p, mvlgamma64)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors  # (each term rounded to a's dtype, as PyTorch sums them)
        psi = sum(correctly_rounded(lambda v, i=i: digamma64(v - i / 2), a) for i in range(ctx.k))
        return psi * grad_output


class Zeta(NumpyFunction):
    """z = zeta(s, q), Hurwitz's zeta function, so dz/dq = -s * zeta(s + 1, q). PyTorch has
    no derivative for s: its backward raises PyTorch's error when s requires grad."""

    node_name = "SpecialZetaBackward0"

    @staticmethod
    def forward(ctx, s, q):
        ctx.save_for_backward(s, q)
        return follow_inputs(correctly_rounded(zeta64, s, q), s, q)

    @staticmethod
    def backward(ctx, grad_output):
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        s, q = ctx.saved_tensors
        return None, unbroadcast(grad_output * -s * correctly_rounded(zeta64, s + 1.0, q), q.shape)


class ZetaNumberS(NumpyFunction):
    """zeta(s, q) for a number s (``SpecialZetaBackward1``), so dz/dq = -s * zeta(s + 1, q)."""

    node_name = "SpecialZetaBackward1"
    ctx_fields = ("s",)

    @staticmethod
    def forward(ctx, q, s):
        ctx.save_for_backward(q)
        ctx.s = s
        return follow_inputs(correctly_rounded(lambda v: zeta64(s, v), q), q)

    @staticmethod
    def backward(ctx, grad_output):
        (q,) = ctx.saved_tensors
        return grad_output * -ctx.s * correctly_rounded(lambda v: zeta64(ctx.s + 1.0, v), q)


class ZetaNumberQ(NumpyFunction):
    """zeta(s, q) for a number q (``SpecialZetaBackward2``): no derivative for s in PyTorch,
    so its backward raises PyTorch's error."""

    node_name = "SpecialZetaBackward2"

    @staticmethod
    def forward(ctx, s, q):
        return follow_inputs(correctly_rounded(lambda v: zeta64(v, q), s), s)

    @staticmethod
    def backward(ctx, grad_output):
        raise NotImplementedError("the derivative for 'zeta' is not implemented.")
