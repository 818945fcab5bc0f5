"""Distributions built from others: ``Independent`` (batch dimensions read as event
dimensions) and ``TransformedDistribution`` (a base distribution's draws pushed through
transforms), with the three PyTorch builds that way: ``LogNormal`` (exp of a Normal),
``HalfNormal`` (|Normal|) and ``Gumbel`` (-log(-log u) of a uniform u, shifted and scaled).

``TransformedDistribution.log_prob(y)`` maps ``y`` back through each transform and subtracts
``log |dy/dx|`` on the way: the change-of-variables formula.
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import numpy as np

from microtorch.api.elementwise import where
from microtorch.autograd.grad_mode import no_grad
from microtorch.creation import full_like, ones_like, zeros_like
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.normal import Normal
from microtorch.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    Transform,
    sum_rightmost,
)
from microtorch.distributions.uniform import Uniform
from microtorch.distributions.utils import broadcast_all
from microtorch.tensor import Size, Tensor

__all__ = ["Gumbel", "HalfNormal", "Independent", "LogNormal", "TransformedDistribution"]

_EULER = 0.57721566490153286060


class Independent(Distribution):
    """``base_distribution`` with its last ``reinterpreted_batch_ndims`` batch dimensions
    read as event dimensions: ``log_prob`` sums over them (a diagonal Normal in 3 dimensions
    is ``Independent(Normal(loc, scale), 1)`` with ``loc`` of shape ``(..., 3)``)."""

    arg_constraints: dict[str, constraints.Constraint] = {}

    def __init__(
        self, base_distribution: Distribution, reinterpreted_batch_ndims: int,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        n = reinterpreted_batch_ndims
        if n > len(base_distribution.batch_shape):
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {n} vs {len(base_distribution.batch_shape)}"
            )
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = n + len(base_distribution.event_shape)
        cut = len(shape) - event_dim
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = n
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        return self.base_dist.has_rsample

    @property
    def has_enumerate_support(self) -> bool:  # type: ignore[override]
        return self.reinterpreted_batch_ndims == 0 and self.base_dist.has_enumerate_support

    @property
    def support(self) -> Any:
        if self.reinterpreted_batch_ndims:
            return constraints.independent(self.base_dist.support, self.reinterpreted_batch_ndims)
        return self.base_dist.support

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Tensor) -> Tensor:
        return sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> Tensor:
        return sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        n = self.reinterpreted_batch_ndims
        base_batch = self.base_dist.batch_shape
        new.base_dist = self.base_dist.expand(
            tuple(batch_shape) + tuple(base_batch[len(base_batch) - n :])
        )
        new.reinterpreted_batch_ndims = n
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


class TransformedDistribution(Distribution):
    """Draws of ``base_distribution`` pushed through ``transforms`` (one or a list),
    ``log_prob`` by the change of variables, ``cdf``/``icdf`` through monotone transforms."""

    arg_constraints: dict[str, constraints.Constraint] = {}

    def __init__(
        self, base_distribution: Distribution, transforms: Any,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = list(transforms)
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        base_shape = tuple(base_distribution.batch_shape + base_distribution.event_shape)
        base_event_dim = len(base_distribution.event_shape)
        transform = ComposeTransform(self.transforms)
        domain_event_dim = transform.domain.event_dim
        if len(base_shape) < domain_event_dim:
            raise ValueError(
                f"base_distribution needs to have shape with size at least {domain_event_dim}, "
                f"but got {base_shape}."
            )
        forward_shape = transform.forward_shape(base_shape)
        expanded_base_shape = transform.inverse_shape(forward_shape)
        if base_shape != expanded_base_shape:
            cut = len(expanded_base_shape) - base_event_dim
            base_distribution = base_distribution.expand(expanded_base_shape[:cut])
        if domain_event_dim > base_event_dim:
            base_distribution = Independent(base_distribution, domain_event_dim - base_event_dim)
        self.base_dist = base_distribution
        event_dim = transform.codomain.event_dim + max(base_event_dim - domain_event_dim, 0)
        cut = len(forward_shape) - event_dim
        super().__init__(forward_shape[:cut], forward_shape[cut:], validate_args=validate_args)

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        return self.base_dist.has_rsample

    @property
    def support(self) -> Any:
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = constraints.independent(support, len(self.event_shape) - support.event_dim)
        return support

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        with no_grad():
            x = self.base_dist.sample(sample_shape)
            for t in self.transforms:
                x = t(x)
            return x

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob: Any = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            event_dim += t.domain.event_dim - t.codomain.event_dim
            jacobian = t.log_abs_det_jacobian(x, y)
            log_prob = log_prob - sum_rightmost(jacobian, event_dim - t.domain.event_dim)
            y = x
        base = self.base_dist.log_prob(y)
        return log_prob + sum_rightmost(base, event_dim - len(self.base_dist.event_shape))

    def _monotonize_cdf(self, value: Tensor) -> Tensor:
        sign: Any = 1
        for t in self.transforms:
            sign = sign * t.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value: Tensor) -> Tensor:
        for t in reversed(self.transforms):
            value = t.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value: Tensor) -> Tensor:
        value = self.base_dist.icdf(self._monotonize_cdf(value))
        for t in self.transforms:
            value = t(value)
        return value

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        shape = tuple(batch_shape) + tuple(self._event_shape)
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        base_batch = shape[: len(shape) - len(self.base_dist.event_shape)]
        new.base_dist = self.base_dist.expand(base_batch)
        new.transforms = self.transforms
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new


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
