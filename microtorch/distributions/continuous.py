"""Three continuous families with closed-form everything: ``Exponential(rate)``,
``Laplace(loc, scale)`` and ``Cauchy(loc, scale)``.

Each ``rsample`` transforms a standard draw (exponential, uniform on ``[eps - 1, 1)``,
standard Cauchy) from microtorch's seeded generator, as PyTorch transforms its own: other
numbers than PyTorch's, the same distribution and the same gradients for a given draw.
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import numpy as np

from microtorch.creation import full, zeros_like
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import broadcast_all, numpy_draw
from microtorch.tensor import Size, Tensor

__all__ = ["Cauchy", "Exponential", "Laplace"]


class Exponential(Distribution):
    """Waiting times with density ``rate * exp(-rate * x)`` for ``x >= 0``;
    ``rsample`` is ``e / rate`` with ``e`` a standard exponential draw."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        shape = Size() if isinstance(rate, Number) else self.rate.shape
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        e = numpy_draw(lambda rng, s: rng.standard_exponential(s), shape, self.rate.dtype)
        return e / self.rate

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value: Tensor) -> Tensor:
        return -(-value).log1p() / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - self.rate.log()


class _LocScale(Distribution):
    """What Laplace and Cauchy share: a real ``loc`` and a positive ``scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        both_numbers = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if both_numbers else self.loc.shape, validate_args=validate_args)

    @property
    def mode(self) -> Tensor:
        return self.loc


class Laplace(_LocScale):
    """The double exponential: density ``exp(-|x - loc| / scale) / (2 scale)``.

    ``rsample`` is ``loc - scale * sign(u) * log1p(-|u|)`` with ``u`` uniform on
    ``[eps - 1, 1)`` (eps of the dtype), PyTorch's formula."""

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return (2**0.5) * self.scale

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = float(np.finfo(self.loc._data.dtype).eps)
        u = numpy_draw(lambda rng, s: rng.uniform(eps - 1, 1, s), shape, self.loc.dtype)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = value - self.loc
        return 0.5 - 0.5 * z.sign() * (-z.abs() / self.scale).expm1()

    def icdf(self, value: Tensor) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self) -> Tensor:
        return 1 + (2 * self.scale).log()


class Cauchy(_LocScale):
    """The Lorentz distribution: density ``1 / (pi scale (1 + ((x - loc) / scale)**2))``;
    its mean is undefined (nan) and its variance infinite. ``rsample`` is
    ``loc + eps * scale`` with ``eps`` a standard Cauchy draw."""

    @property
    def mean(self) -> Tensor:
        return full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def variance(self) -> Tensor:
        return full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = numpy_draw(lambda rng, s: rng.standard_cauchy(s), shape, self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - z.pow(2).log1p()

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value: Tensor) -> Tensor:
        return (math.pi * (value - 0.5)).tan() * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + self.scale.log()
