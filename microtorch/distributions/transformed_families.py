"""Three distributions PyTorch builds from a base one and transforms: ``LogNormal`` (exp of a
Normal), ``HalfNormal`` (|Normal|) and ``Gumbel`` (-log(-log u) of a uniform u, shifted and
scaled), each with its closed-form moments, entropy and (for Gumbel) a log_prob that keeps
its digits."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import numpy as np

from microtorch.api.elementwise import where
from microtorch.creation import full_like, ones_like, zeros_like
from microtorch.distributions import constraints
from microtorch.distributions.normal import Normal
from microtorch.distributions.transformed import TransformedDistribution
from microtorch.distributions.transforms_basic import AbsTransform, AffineTransform, ExpTransform
from microtorch.distributions.uniform import Uniform
from microtorch.distributions.utils import broadcast_all
from microtorch.tensor import Tensor

__all__ = ["Gumbel", "HalfNormal", "LogNormal"]

_EULER = 0.57721566490153286060


class LogNormal(TransformedDistribution):
    """``exp(X)`` for ``X ~ Normal(loc, scale)``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        base = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    @property
    def loc(self) -> Tensor:
        return self.base_dist.loc  # type: ignore[attr-defined]

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale  # type: ignore[attr-defined]

    @property
    def mean(self) -> Tensor:
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self) -> Tensor:
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self) -> Tensor:
        scale2 = self.scale.pow(2)
        return scale2.expm1() * (2 * self.loc + scale2).exp()

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() + self.loc


class HalfNormal(TransformedDistribution):
    """``|X|`` for ``X ~ Normal(0, scale)``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        base = Normal(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale  # type: ignore[attr-defined]

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self) -> Tensor:
        return zeros_like(self.scale)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, value: Tensor) -> Tensor:
        return self.base_dist.icdf((value + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class Gumbel(TransformedDistribution):
    """The extreme-value distribution: ``loc - scale * log(-log u)`` for ``u`` uniform on
    ``[tiny, 1 - eps)``; density ``exp(-(z + exp(-z))) / scale`` with ``z = (x - loc) / scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        info = np.finfo(self.loc._data.dtype)
        tiny, top = float(info.tiny), 1 - float(info.eps)
        if isinstance(loc, Number) and isinstance(scale, Number):
            base = Uniform(tiny, top, validate_args=validate_args)
        else:
            low, high = full_like(self.loc, tiny), full_like(self.loc, top)
            base = Uniform(low, high, validate_args=validate_args)
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-ones_like(self.scale)),
            ExpTransform().inv,
            AffineTransform(loc=loc, scale=-self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        new.loc = self.loc.expand(tuple(batch_shape))
        new.scale = self.scale.expand(tuple(batch_shape))
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Tensor:
        return self.loc + self.scale * _EULER

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def entropy(self) -> Tensor:
        return self.scale.log() + (1 + _EULER)
