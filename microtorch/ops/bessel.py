"""The modified Bessel functions I0 and I1 and their scaled forms (i0, i0e, i1, i1e), with their
backward formulas.

For |x| <= 30 the power series I_nu(x) = sum_k (x/2)**(2k + nu) / (k! (k + nu)!) (all terms
positive: no cancellation, 70 terms reach 1e-17); beyond, Hankel's asymptotic series
I_nu(x) ~ e**x / sqrt(2 pi x) * sum_k (-1)**k a_k(nu) / x**k with
a_k = (4nu**2 - 1)(4nu**2 - 9)...(4nu**2 - (2k-1)**2) / (k! 8**k), 30 terms. Both good to a
few units of 1e-16 (relative). I1 is odd and I0 even. ``bessel_j64``: J0 and J1 (below).
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "I0",
    "I0e",
    "I1",
    "I1e",
    "bessel_i_scaled64",
    "bessel_j64",
    "i0_each",
    "i0e_each",
    "i1_each",
    "i1e_each",
]

_SWITCH = 30.0


def _series(x: np.ndarray, nu: int) -> np.ndarray:
    # I_nu(|x|) by its power series (x small enough not to need the asymptotic one)
    h2 = (x / 2) ** 2
    term = np.ones_like(x) if nu == 0 else x / 2
    total = term.copy()
    for k in range(1, 70):
        term = term * h2 / (k * (k + nu))
        total += term
    return total


def _asymptotic_scaled(x: np.ndarray, nu: int) -> np.ndarray:
    # e**-x I_nu(x) for x >= 30
    mu = 4.0 * nu * nu
    term, total = np.ones_like(x), np.ones_like(x)
    for k in range(1, 30):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        total += term
    return total / np.sqrt(2 * math.pi * x)


def bessel_i_scaled64(x: np.ndarray, nu: int, scaled: bool) -> np.ndarray:
    """I_nu(x) (``scaled``: e**-|x| I_nu(x)) for nu = 0 or 1, of a float64 array."""
    if recorded(x):  # (torch.i0, torch.special.i0e, i1, i1e: recorded)
        return _EACH[nu, scaled](x)
    x = np.asarray(x, np.float64)
    u = np.abs(x)
    small = u <= _SWITCH
    near = _series(np.where(small, u, 0.0), nu)
    far = _asymptotic_scaled(np.where(small, _SWITCH * 2, u), nu)
    if scaled:
        result = np.where(small, near * np.exp(-np.where(small, u, 0.0)), far)
    else:  # (inf past exp's 709.8, as PyTorch's)
        result = np.where(small, near, far * np.exp(np.where(small, 0.0, u)))
    result = np.where(np.isinf(u), 0.0 if scaled else np.nan, result)  # (PyTorch's nan)
    if nu == 1:
        result = np.where(x < 0, -result, result)  # (i1(-0.0) is 0.0, as in PyTorch)
    return np.where(np.isnan(x), np.nan, result)


def _i0(x: np.ndarray) -> np.ndarray:
    return bessel_i_scaled64(x, 0, False)


def _i1(x: np.ndarray) -> np.ndarray:
    return bessel_i_scaled64(x, 1, False)


def _i0e(x: np.ndarray) -> np.ndarray:
    return bessel_i_scaled64(x, 0, True)


def _i1e(x: np.ndarray) -> np.ndarray:
    return bessel_i_scaled64(x, 1, True)


# one value at a time: what numpy dispatches a recorded value by (formula_values.recorded)
i0_each, i0e_each, i1_each, i1e_each = (
    np.frompyfunc(lambda v, f=f: float(f(np.float64(v))), 1, 1) for f in (_i0, _i0e, _i1, _i1e)
)
_EACH = {(0, False): i0_each, (0, True): i0e_each, (1, False): i1_each, (1, True): i1e_each}


def _i1_over_x(x: np.ndarray, f: object) -> np.ndarray:
    # I1(x) / x (or I1e(x) / x), 1/2 at 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.5, correctly_rounded(f, x) / x)  # type: ignore[arg-type]


class I0(NumpyFunction):
    """z = I0(a), so dz/da = I1(a)."""

    node_name = "I0Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(_i0, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return correctly_rounded(_i1, a) * grad_output


class I0e(NumpyFunction):
    """z = exp(-|a|) I0(a), so dz/da = I1e(a) - sign(a) I0e(a)."""

    node_name = "SpecialI0EBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(_i0e, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        d = correctly_rounded(_i1e, a) - np.sign(a) * correctly_rounded(_i0e, a)
        return d * grad_output


class I1(NumpyFunction):
    """z = I1(a), so dz/da = I0(a) - I1(a) / a (1/2 at a = 0)."""

    node_name = "SpecialI1Backward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(_i1, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return (correctly_rounded(_i0, a) - _i1_over_x(a, _i1)) * grad_output


class I1e(NumpyFunction):
    """z = exp(-|a|) I1(a), so dz/da = I0e(a) - I1e(a) (sign(a) + 1/a) (1/2 at a = 0)."""

    node_name = "SpecialI1EBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return follow_inputs(correctly_rounded(_i1e, a), a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        d = (
            correctly_rounded(_i0e, a)
            - np.sign(a) * correctly_rounded(_i1e, a)
            - _i1_over_x(a, _i1e)
        )
        return d * grad_output


# --- the Bessel functions of the first kind, J0 and J1 (no gradient in PyTorch) ---------

_NODES = 64  # trapezoid points on [0, 2 pi): the error is about 2 J_64(x), < 1e-18 for |x| <= 25
_TAU = 2 * math.pi * np.arange(_NODES) / _NODES


def bessel_j64(x: np.ndarray, n: int) -> np.ndarray:
    """J_n(x) for n = 0 or 1, of a float64 array. For |x| <= 25 Bessel's integral
    J_n(x) = 1/(2 pi) * integral over a period of cos(n t - x sin t), by the trapezoid rule
    (exponentially accurate for a periodic integrand; below 2 the power series); beyond,
    Hankel's expansion sqrt(2 / (pi x)) (P cos(x - (2n+1) pi/4) - Q sin(x - (2n+1) pi/4)).
    inf gives nan, as in PyTorch."""
    x = np.asarray(x, np.float64)
    u = np.abs(x)
    near = u <= 25
    un = np.where(near, u, 0.0)
    phase = n * _TAU - un[..., None] * np.sin(_TAU)
    direct = np.cos(phase).mean(axis=-1)
    uf = np.where(near | ~np.isfinite(u), 30.0, u)
    mu = 4.0 * n * n
    p, q = np.ones_like(uf), np.zeros_like(uf)
    term = np.ones_like(uf)
    for k in range(1, 40):  # a_k(n) / x**k, alternately into Q and P with PyTorch's signs
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * uf)
        if k % 4 == 1:
            q += term
        elif k % 4 == 2:
            p -= term
        elif k % 4 == 3:
            q -= term
        else:
            p += term
    # cos and sin of x - (2n+1) pi/4 from cos x and sin x (no rounding of the shift)
    c, s = np.cos(uf), np.sin(uf)
    root = math.sqrt(0.5)
    if n == 0:
        cos_chi, sin_chi = (c + s) * root, (s - c) * root
    else:
        cos_chi, sin_chi = (s - c) * root, -(c + s) * root
    far = np.sqrt(2 / (math.pi * uf)) * (p * cos_chi - q * sin_chi)
    result = np.where(near, direct, far)
    # below 2 the power series sum (-1)**k (x/2)**(2k+n) / (k! (k+n)!) keeps relative digits
    # (the trapezoid's are absolute: J1(1e-300) would be lost)
    small = u < 2
    h = np.where(small, un, 0.0) / 2
    term = np.ones_like(h) if n == 0 else h.copy()
    series = term.copy()
    for k in range(1, 25):
        term = -term * h * h / (k * (k + n))
        series += term
    result = np.where(small, series, result)
    if n == 1:
        result = np.where(x < 0, -result, result)
        result = np.where(x == 0, x, result)  # (the sign of zero kept)
    return np.where(np.isfinite(x), result, np.nan)
