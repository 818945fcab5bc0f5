"""Draws of the standard gamma distribution with their reparameterisation gradient
(``StandardGammaBackward0``), and the regularized lower incomplete gamma function P(a, x)
for Gamma's cdf.

The draws come from numpy's gamma sampler on microtorch's seeded generator (PyTorch's C
sampler cannot be followed: other numbers, the same distribution). The gradient of a draw x
with respect to its concentration a is the implicit one, dx/da = -(dP/da)(a, x) / p(x; a),
with P summed as its series: exact where PyTorch's ``_standard_gamma_grad`` approximates.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops.gamma_functions import digamma64, lgamma64

__all__ = [
    "StandardGamma",
    "StandardGammaGrad",
    "gammainc64",
    "standard_gamma_grad64",
    "standard_gamma_grad_each",
]

_MAX_TERMS = 100_000


def _series_terms(a: np.ndarray, x: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield, term by term, log t_n = (a + n) log x - x - lgamma(a + n + 1) of
    P(a, x) = sum_n t_n, with psi(a + n + 1), until every term is negligible."""
    log_x = np.log(np.where(x > 0, x, 1.0))
    log_t = a * log_x - x - lgamma64(a + 1)
    psi = digamma64(a + 1)
    biggest = log_t
    for n in range(_MAX_TERMS):
        yield log_t, psi
        k = a + n + 1
        log_t = log_t + log_x - np.log(k)
        psi = psi + 1 / k
        biggest = np.maximum(biggest, log_t)
        if np.all((k > x) & (log_t - biggest < -40)):  # (past the peak, and negligible)
            return


def gammainc64(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) = (1/Gamma(a)) * the integral of t**(a-1) exp(-t) from 0 to x."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    total = np.zeros(a.shape)
    for log_t, _ in _series_terms(a, x):
        total = total + np.exp(log_t)
    return np.where(x <= 0, 0.0, np.minimum(total, 1.0))


def standard_gamma_grad64(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """dx/da for a standard gamma draw x of concentration a (x held at its quantile)."""
    if recorded(a) or recorded(x):  # (PyTorch's _standard_gamma_grad: no derivative)
        return standard_gamma_grad_each(a, x)
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    log_x = np.log(np.where(x > 0, x, 1.0))
    dp_da = np.zeros(a.shape)
    for log_t, psi in _series_terms(a, x):
        dp_da = dp_da + np.exp(log_t) * (log_x - psi)
    log_density = (a - 1) * log_x - x - lgamma64(a)
    return np.where(x > 0, -dp_da / np.exp(log_density), 0.0)


# one value at a time: what numpy dispatches a recorded value by (formula_values.recorded)
standard_gamma_grad_each = np.frompyfunc(
    lambda a, x: float(standard_gamma_grad64(np.float64(a), np.float64(x))), 2, 1
)


class StandardGamma(NumpyFunction):
    """z ~ Gamma(a, 1) drawn from ``rng``, so dz/da = -(dP/da)(a, z) / p(z; a) (P the
    gamma cdf, p its density: moving a keeps z at the same quantile)."""

    node_name = "StandardGammaBackward0"

    @staticmethod
    def forward(ctx, a, rng):
        z = np.asarray(rng.standard_gamma(a.astype(np.float64)), dtype=a.dtype)
        ctx.save_for_backward(a, z)
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, z = ctx.saved_tensors
        grad = standard_gamma_grad64(a, z).astype(a.dtype)
        return grad * grad_output


class StandardGammaGrad(NumpyFunction):
    """z = dx/da of a standard gamma draw x (``torch._standard_gamma_grad``), as
    StandardGammaBackward0's formula records it. PyTorch has no derivative of it: its
    backward raises PyTorch's error."""

    node_name = "StandardGammaGradBackward0"

    @staticmethod
    def forward(ctx, a, x):
        return standard_gamma_grad64(a, x).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")
