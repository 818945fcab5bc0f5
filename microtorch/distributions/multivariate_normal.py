"""``MultivariateNormal(loc, covariance_matrix=... | precision_matrix=... | scale_tril=...)``:
the Gaussian in ``n`` dimensions (the last dimension of ``loc`` is the event).

Everything goes through the lower Cholesky factor ``L`` of the covariance (``L L^T = Sigma``):
``rsample`` is ``loc + L eps`` with ``eps ~ N(0, I)``, and
``log_prob(x) = -(n log(2 pi) + |L^-1 (x - loc)|^2) / 2 - sum(log diag L)``. A precision
matrix ``P`` is turned into ``L`` as PyTorch does: the Cholesky factor of ``P`` with rows and
columns reversed, inverted.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import numpy as np

from microtorch.api.diagonal import diagonal
from microtorch.creation import eye, randn
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.kl import register_kl
from microtorch.ops.triangular import Cholesky, SolveLowerTriangular
from microtorch.tensor import Size, Tensor

__all__ = ["MultivariateNormal"]


def _solve_lower(lower: Tensor, b: Tensor) -> Tensor:
    """L^-1 b for lower-triangular L (both broadcast over their leading dimensions)."""
    batch = np.broadcast_shapes(tuple(lower.shape[:-2]), tuple(b.shape[:-2]))
    lower = lower.expand((*batch, *lower.shape[-2:]))
    b = b.expand((*batch, *b.shape[-2:]))
    return SolveLowerTriangular.apply(lower, b)


def _mahalanobis(lower: Tensor, diff: Tensor) -> Tensor:
    """|L^-1 diff|^2 over the last dimension."""
    return _solve_lower(lower, diff.unsqueeze(-1)).pow(2).sum((-2, -1))


def _flip(m: Tensor) -> Tensor:
    n = m.shape[-1]
    rev = list(range(n - 1, -1, -1))
    return m[..., rev, :][..., rev]


class MultivariateNormal(Distribution):
    """The normal distribution of vectors with mean ``loc`` and covariance ``L L^T``."""

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self, loc: Tensor, covariance_matrix: Tensor | None = None,
        precision_matrix: Tensor | None = None, scale_tril: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        name, matrix = next(
            (n, m)
            for n, m in zip(
                ("scale_tril", "covariance_matrix", "precision_matrix"),
                (scale_tril, covariance_matrix, precision_matrix),
            )
            if m is not None
        )
        assert matrix is not None
        if matrix.dim() < 2:
            raise ValueError(
                f"{'scale_tril matrix' if name == 'scale_tril' else name} must be at least "
                "two-dimensional, with optional leading batch dimensions"
            )
        batch_shape = tuple(np.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(loc.shape[:-1])))
        self.__dict__[name] = matrix.expand((*batch_shape, -1, -1))
        self.loc = loc.expand((*batch_shape, -1))
        super().__init__(batch_shape, tuple(loc.shape[-1:]), validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = Cholesky.apply(covariance_matrix)
        else:
            assert precision_matrix is not None
            lf = Cholesky.apply(_flip(precision_matrix))
            l_inv = _flip(lf).transpose(-2, -1)
            n = l_inv.shape[-1]
            self._unbroadcasted_scale_tril = _solve_lower(l_inv, eye(n, dtype=l_inv.dtype))

    _expand_also = ("_param",)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        batch_shape = tuple(batch_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        new.loc = self.loc.expand((*batch_shape, *self._event_shape))
        n = self._event_shape[0]
        for name in ("covariance_matrix", "precision_matrix", "scale_tril"):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand((*batch_shape, n, n))
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _matrix_shape(self) -> tuple[int, ...]:
        return (*self._batch_shape, *self._event_shape, *self._event_shape)

    @cached_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @cached_property
    def covariance_matrix(self) -> Tensor:
        lower = self._unbroadcasted_scale_tril
        return (lower @ lower.transpose(-2, -1)).expand(self._matrix_shape())

    @cached_property
    def precision_matrix(self) -> Tensor:
        lower = self._unbroadcasted_scale_tril
        inverse = _solve_lower(lower, eye(lower.shape[-1], dtype=lower.dtype))
        return (inverse.transpose(-2, -1) @ inverse).expand(self._matrix_shape())

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        variance = self._unbroadcasted_scale_tril.pow(2).sum(-1)
        return variance.expand((*self._batch_shape, *self._event_shape))

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = randn(shape, dtype=self.loc.dtype)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self) -> Tensor:
        return diagonal(self._unbroadcasted_scale_tril, 0, -2, -1).log().sum(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        m = _mahalanobis(self._unbroadcasted_scale_tril, diff)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - self._half_log_det()

    def entropy(self) -> Tensor:
        n = self._event_shape[0]
        h = 0.5 * n * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Tensor:
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two Multivariate Normals with different event shapes "
            "cannot be computed"
        )
    n = p.event_shape[0]
    lp, lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = q._half_log_det() - p._half_log_det()
    term2 = _solve_lower(lq, lp).pow(2).sum((-2, -1))  # trace(Sq^-1 Sp)
    term3 = _mahalanobis(lq, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)
