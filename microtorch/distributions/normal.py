"""``Normal(loc, scale)``: the Gaussian, with reparameterised samples (``rsample``)."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

from microtorch.api.special import erf, erfinv
from microtorch.creation import randn
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import broadcast_all
from microtorch.tensor import Size, Tensor

__all__ = ["Normal"]


class Normal(Distribution):
    """The normal distribution with mean ``loc`` and standard deviation ``scale``.

    ``rsample`` is ``loc + eps * scale`` with ``eps ~ N(0, 1)``, so gradients reach ``loc``
    and ``scale``; ``log_prob(x) = -(x - loc)**2 / (2 scale**2) - log(scale) - log(sqrt(2 pi))``.
    Samples come from microtorch's seeded generator, not PyTorch's (other numbers, the same
    distribution).

    >>> import microtorch as torch
    >>> d = torch.distributions.Normal(torch.tensor([0.0, 1.0]), 2.0)
    >>> d, d.sample((3,)).shape
    (Normal(loc: microtorch.Size([2]), scale: microtorch.Size([2])), microtorch.Size([3, 2]))
    >>> d.log_prob(torch.tensor([0.0, 0.0]))
    tensor([-1.6121, -1.7371])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        both_numbers = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if both_numbers else self.loc.shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = randn(shape, dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        return (
            -((value - self.loc) ** 2) / (2 * var)
            - self.scale.log()
            - math.log(math.sqrt(2 * math.pi))
        )

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value: Tensor) -> Tensor:
        return self.loc + self.scale * erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
